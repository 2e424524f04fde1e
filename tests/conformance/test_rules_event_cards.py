"""Event Cards (stdlib/event_cards.catan, `--option event_cards=on`): the deck of number
cards that replaces the dice, its events and damaged roads, on the base game's beginner
map for 4 players (see test_rules_base.py); then the Traders & Barbarians adaptations."""

from __future__ import annotations

import pytest

from catandsl import queries
from catandsl.engine import actions as A
from catandsl.rules.roll_cards import RollCardLookups
from tests.conformance.catalog import rule
from tests.conformance.play import act, builds, cards, hand, held, legal, of_kind, refused, roll, roll_card, sites_of
from tests.conformance.positions import BASE, TB, game, main, position, step, wagon
from tests.conformance.sites import corner, hexid, ring, side

EVENTS = "stdlib/event_cards.catan"


def ev(path: str = BASE, players: int = 4, **options):
    return game(path, players, event_cards="on", **options)


# ---- the deck (V2.1, V2.2, V2.5) --------------------------------------------------------------------


@rule(EVENTS, "roll_cards {")
def test_events_36_cards_as_two_dice_fall():
    """The deck has 36 number cards, one for each way two dice can fall (a total n on 6 - |7 -
    n| cards); 20 of them carry an event, the six 7s all Robber Attacks."""
    t = ev().lookups(RollCardLookups)
    per_total = {n: sum(c for x, c in zip(t.totals, t.counts) if x == n) for n in range(2, 13)}
    assert per_total == {n: 6 - abs(7 - n) for n in range(2, 13)}
    assert sum(c for e, c in zip(t.events, t.counts) if e) == 20
    assert {e for x, e in zip(t.totals, t.events) if x == 7} == {"robber_attacks"}


@rule(EVENTS, "roll_cards {")
def test_events_a_card_is_revealed_instead_of_the_roll():
    """Each turn the active player reveals the top card instead of rolling: each card not yet
    revealed this year is as likely."""
    g = ev()
    s = position(g).state()
    odds = dict(s.chance_outcomes())
    assert all(isinstance(g.actions[a], A.RevealCard) for a in odds)
    assert odds[g.action_id[roll_card(g, 7, "robber_attacks")]] == pytest.approx(6 / 36)
    roll(s, 7, "robber_attacks")
    act(s, *[A.Move("robber", hexid(g, 0, -2))])
    act(s, A.EndTurn())
    assert dict(s.chance_outcomes())[g.action_id[roll_card(g, 7, "robber_attacks")]] == pytest.approx(5 / 35)


@rule(EVENTS, "new_year 5")
def test_events_new_year_rebuilds_the_deck_leaving_five_unused():
    """The New Year card lies under 5 cards that are never revealed that year: after 31 cards
    the whole deck of 36 is shuffled again."""
    g = ev()
    t = g.lookups(RollCardLookups)
    assert t.per_year == 31 and t.unused == 5
    deck = [0] * len(t.counts)
    deck[roll_card(g, 6).card], deck[roll_card(g, 8).card], deck[roll_card(g, 4, "robber_flees").card] = 2, 2, 1
    s = position(g).edit(roll_deck=deck, roll_year=0).state()
    odds = dict(s.chance_outcomes())
    assert odds[g.action_id[roll_card(g, 7, "robber_attacks")]] == pytest.approx(6 / 36)
    roll(s, 9)
    assert s.roll_year == 30 and sum(s.roll_deck) == 35


# ---- events (V2.3) ----------------------------------------------------------------------------------


@rule(EVENTS, "rule good_neighbors {")
def test_events_the_event_comes_before_the_production():
    """A card's event is resolved before its number produces."""
    g = ev()
    h = hexid(g, -1, 2)  # fields 6
    s = position(g).place(1, "settlement", (-1, 2, "S")).state()
    roll(s, 6, "good_neighbors")  # nobody holds a card yet: nothing to pass
    assert not s.pending and hand(s, 1)[g.resources[g.hex_resource[h]]] == 1


@rule(EVENTS, "card 7 robber_attacks x6")
def test_events_robber_attacks_is_a_seven():
    """Robber Attacks (every 7) is a rolled 7: discards over 7 cards, the robber moves and robs."""
    s = position(ev()).hand(1, brick=8).state()
    roll(s, 7, "robber_attacks")
    assert s.current_player() == 1 and set(legal(s)) == {A.Discard("brick")}


@rule(EVENTS, "return_to_start([robber])")
def test_events_robber_flees_to_the_desert():
    """Robber Flees sends the robber back to the desert."""
    g = ev()
    s = position(g).neutral("robber", (0, -2)).state()
    roll(s, 4, "robber_flees")
    assert sites_of(s, "robber") == [hexid(g, 0, 0)]


@rule(EVENTS, "for p in players() { take_from_bank(p, choose_from_bank(p), 1) }", after="rule plentiful_year {")
def test_events_plentiful_year_everyone_takes_one_of_choice():
    """Plentiful Year: every player takes 1 resource of choice from the bank."""
    s = position(ev()).state()
    roll(s, 2, "plentiful_year")
    for p, r in enumerate(("ore", "wool", "ore", "brick")):
        assert s.current_player() == p
        act(s, A.ChooseResource(r))
    assert [hand(s, p)[r] for p, r in enumerate(("ore", "wool", "ore", "brick"))] == [1, 1, 1, 1]


@rule(EVENTS, "for h in held_by(largest_army) { steal(h, opponents(h)) }")
def test_events_conflict_the_largest_army_robs_an_opponent_of_choice():
    """Conflict: the holder of Largest Army steals a card from an opponent of their choice."""
    s = position(ev()).cards(2, played={"knight": 3}).hand(1, ore=1).hand(3, wool=1).state()
    roll(s, 3, "conflict")
    assert s.current_player() == 2 and set(legal(s)) == {A.Steal(1), A.Steal(3)}


@rule(EVENTS, "if count(held_by(largest_army)) == 0 and count(leaders(knights)) == 1 {")
def test_events_conflict_without_the_army_the_single_knight_leader_or_nobody():
    """Without a Largest Army, the single player with most Knights played steals; when that is
    tied or nobody played one, nothing happens."""
    s = position(ev()).cards(1, played={"knight": 2}).cards(3, played={"knight": 1}).hand(0, ore=1).state()
    roll(s, 3, "conflict")
    assert s.current_player() == 1 and legal(s) == [A.Steal(0)]
    s = position(ev()).cards(1, played={"knight": 2}).cards(3, played={"knight": 2}).hand(0, ore=1).state()
    roll(s, 3, "conflict")
    assert not s.pending and s.current_player() == 0 and cards(s, 0) == 1


@rule(EVENTS, "item no_event 0 \"no event (recommended)\" default", option="tournament_without_knights=no_event")
def test_events_tournament_the_most_knights_take_one_each():
    """Tournament: the players with the most Knights played each take 1 resource of choice;
    when nobody has played one, nothing happens."""
    s = position(ev()).cards(1, played={"knight": 1}).cards(2, played={"knight": 1}).state()
    roll(s, 5, "tournament")
    act(s, A.ChooseResource("wool"), A.ChooseResource("grain"))
    assert [cards(s, p) for p in range(4)] == [0, 1, 1, 0]
    s = position(ev()).state()
    roll(s, 5, "tournament")
    assert not s.pending and sum(map(sum, s.hands)) == 0


@rule(EVENTS, "item everyone 1 \"every player, all tied at none, takes 1 resource\"",
      alternative="tournament_without_knights=everyone")
def test_events_tournament_without_knights_everyone_takes_one_by_option():
    """With the option `everyone`, when nobody has played a Knight every player, tied for the
    most at none, takes 1 resource of choice; otherwise the leaders alone."""
    s = position(ev(tournament_without_knights="everyone")).state()
    roll(s, 5, "tournament")
    act(s, *[A.ChooseResource("ore")] * 4)
    assert [cards(s, p) for p in range(4)] == [1, 1, 1, 1]
    s = position(ev(tournament_without_knights="everyone")).cards(2, played={"knight": 1}).state()
    roll(s, 5, "tournament")
    act(s, A.ChooseResource("ore"))
    assert [cards(s, p) for p in range(4)] == [0, 0, 1, 0] and not s.pending


@rule(EVENTS, "param trade_advantage_most_roads 0", option="trade_advantage_most_roads=0")
def test_events_trade_advantage_longest_road_robs_and_nobody_without_it():
    """Trade Advantage: the holder of Longest Road steals a card from an opponent of their
    choice; when nobody holds it, nothing happens."""
    g = ev()
    pos = position(g).hand(0, ore=1)
    for k in ring(g, 0, 0)[:5]:
        pos.place(2, "road", k)
    s = pos.state()
    roll(s, 5, "trade_advantage")
    assert s.current_player() == 2 and legal(s) == [A.Steal(0)]
    s = position(g).hand(0, ore=1).state()
    roll(s, 5, "trade_advantage")
    assert not s.pending and cards(s, 0) == 1


@rule(EVENTS, "on card_revealed(good_neighbors) { pass_left() }")
def test_events_good_neighbors_everyone_passes_a_card_left_at_once():
    """Good Neighbors: every player with a card passes 1 of their choice to the left-hand
    neighbour, all at once (a card received is not passed on)."""
    s = position(ev()).hand(0, brick=1).hand(1, lumber=1).hand(3, grain=1).state()
    roll(s, 6, "good_neighbors")
    act(s, A.ChooseResource("brick"))
    assert legal(s) == [A.ChooseResource("lumber")]  # seat 1 passes its own card, not seat 0's
    act(s, A.ChooseResource("lumber"), A.ChooseResource("grain"))
    assert [hand(s, p) for p in range(4)] == [
        dict(hand(s, 0), grain=1), dict(hand(s, 1), brick=1), dict(hand(s, 2), lumber=1), dict(hand(s, 3))]
    assert [cards(s, p) for p in range(4)] == [1, 1, 1, 0]


@rule(EVENTS, "param earthquake_owner_picks 1", option="earthquake_owner_picks=1")
def test_events_earthquake_each_player_damages_one_own_road():
    """Earthquake: every player with a road damages one of their own roads, chosen by its owner."""
    g = ev()
    r = ring(g, 0, 0)
    s = position(g).place(0, "road", r[0]).place(0, "road", r[1]).place(2, "road", r[3]).state()
    roll(s, 6, "earthquake")
    assert s.current_player() == 0 and {a.at for a in legal(s)} == {r[0], r[1]}
    act(s, A.Damage(r[1]))
    assert s.current_player() == 2 and legal(s) == [A.Damage(r[3])]
    act(s, A.Damage(r[3]))
    assert s.damaged == sorted([r[1], r[3]])


def _damaged(extra=lambda pos: pos):
    """Seat 0's settlement at the desert's north corner and roads on its first two sides, the
    second damaged; seat 0's turn after the roll."""
    g = ev()
    r = ring(g, 0, 0)
    pos = position(g).place(0, "settlement", (0, 0, "N")).place(0, "road", r[0]).place(0, "road", r[1])
    return g, r, main(extra(pos.edit(damaged=sorted([r[1]])))).state()


@rule(EVENTS, "a damaged road is repaired at a")
def test_events_no_new_road_until_the_damaged_one_is_repaired():
    """A player with a damaged road builds no new road until it is repaired; the repair costs
    a road's price."""
    g, r, s = _damaged(lambda pos: pos.hand(0, brick=2, lumber=2))
    assert builds(s, "road") == {r[1]}
    refused(s, A.Build("road", r[2]))
    act(s, A.Build("road", r[1]))
    assert s.damaged == [] and hand(s, 0)["brick"] == 1 and r[2] in builds(s, "road")


@rule(EVENTS, "a damaged road is repaired at a",
      fixed="each free road may repair, which covers both cases the sources ask about (two repairs, or "
            "a repair and a new road); no source limits a card to one repair")
def test_events_road_building_may_repair():
    """Each free road of Road Building may repair a damaged road instead."""
    g, r, s = _damaged(lambda pos: pos.cards(0, held={"road_building": 1}))
    act(s, A.PlayCard("road_building"))
    assert builds(s, "road") == {r[1]}
    act(s, A.Build("road", r[1]))
    assert s.damaged == [] and r[2] in builds(s, "road")


@rule(EVENTS, "a damaged road is repaired at a")
def test_events_a_damaged_road_still_counts_for_longest_road():
    """A damaged road still counts toward Longest Road."""
    g, r, s = _damaged()
    assert queries.route_length(s, 0) == 2


@rule(EVENTS, "a damaged road is repaired at a")
def test_events_no_settlement_reached_only_over_a_damaged_road():
    """A settlement may not be built where only a damaged road of the player leads."""
    g, r, s = _damaged(lambda pos: pos.hand(0, brick=1, lumber=1, wool=1, grain=1))
    far = corner(g, 0, 0, "SE")  # at the end of the damaged road
    assert far not in builds(s, "settlement")
    refused(s, A.Build("settlement", far))


@rule(EVENTS, "on card_revealed(epidemic) { limit_yield(city, 1) }")
def test_events_epidemic_cities_yield_one():
    """Epidemic: this turn every city yields 1 card instead of 2; the next turn 2 again."""
    s = position(ev()).place(1, "city", (-1, 2, "S")).state()  # fields 6
    roll(s, 6, "epidemic")
    assert hand(s, 1)["grain"] == 1
    act(s, A.EndTurn())
    roll(s, 6)
    assert hand(s, 1)["grain"] == 1 + 2


@rule(EVENTS, "param helpful_neighbor_each 0", option="helpful_neighbor_each=0")
def test_events_helpful_neighbor_the_leader_gives_a_card_to_someone_behind():
    """Helpful Neighbor: each player with the most points (as everyone sees them) gives 1 card
    of their choice to a player of their choice with fewer points."""
    pos = position(ev()).place(0, "city", (0, -2, "N")).place(1, "settlement", (2, 0, "S")).hand(0, grain=2)
    s = pos.cards(2, held={"victory_point": 1}).state()  # hidden: 0 points as everyone sees it
    roll(s, 10, "helpful_neighbor")
    assert s.current_player() == 0 and legal(s) == [A.ChooseResource("grain")]
    act(s, A.ChooseResource("grain"))
    assert set(legal(s)) == {A.ChoosePlayer(1), A.ChoosePlayer(2), A.ChoosePlayer(3)}
    act(s, A.ChoosePlayer(3))
    assert hand(s, 0)["grain"] == 1 and hand(s, 3)["grain"] == 1


@rule(EVENTS, "param helpful_neighbor_each 0")
def test_events_helpful_neighbor_a_leader_without_cards_gives_nothing():
    """A leader holding no card gives nothing."""
    s = position(ev()).place(0, "city", (2, 0, "S")).hand(1, ore=1).state()
    roll(s, 10, "helpful_neighbor")
    assert not s.pending and [cards(s, p) for p in range(4)] == [0, 1, 0, 0]


@rule(EVENTS, "measure harbor_buildings")
def test_events_calm_sea_the_most_harbor_buildings_take_one():
    """Calm Sea: the players with the most settlements and cities on harbors each take 1
    resource of choice."""
    s = (position(ev()).place(3, "settlement", (0, -2, "N")).place(3, "city", (1, -2, "N"))
         .place(1, "settlement", (2, -1, "N")).state())
    roll(s, 12, "calm_sea")  # the fields 12 touch none of them
    assert s.current_player() == 3
    act(s, A.ChooseResource("wool"))
    assert [cards(s, p) for p in range(4)] == [0, 0, 0, 1]


# ---- with Traders & Barbarians (V2.6) -----------------------------------------------------------------


@rule(TB, "item discards_first \"the discards, then a barbarian moves and robs, as a 7 (V12, recommended)\" default",
      option="robber_attacks_order=discards_first")
def test_events_tb_robber_attacks_discards_then_moves_a_barbarian():
    """With Traders & Barbarians, Robber Attacks is the scenario's 7: first the discards, then
    a barbarian moves and robs."""
    s = position(ev(TB, 3)).hand(1, ore=8).state()
    roll(s, 7, "robber_attacks")
    assert s.current_player() == 1
    act(s, *[A.Discard("ore")] * 4)
    assert {a.piece for a in of_kind(s, A.Move)} == {"barbarian"}


@rule(TB, "item move_first \"a barbarian moves and robs, then the discards (the seed lists them so)\"",
      alternative="robber_attacks_order=move_first")
def test_events_tb_robber_attacks_moves_first_by_option():
    """With the option `move_first`, Robber Attacks moves a barbarian and robs first, then the
    players over 7 cards discard (a card just stolen counts)."""
    g = ev(TB, 3, robber_attacks_order="move_first")
    road = ring(g, 0, 0)[0]
    s = position(g).place(1, "road", road).hand(1, ore=8).hand(0, ore=7).state()
    roll(s, 7, "robber_attacks")
    assert s.current_player() == 0 and {a.piece for a in of_kind(s, A.Move)} == {"barbarian"}
    act(s, A.Move("barbarian", road, side(g, 1, -1, "NE")), A.Steal(1), A.Stolen("ore"))
    assert (cards(s, 0), cards(s, 1)) == (8, 7) and s.current_player() == 0
    act(s, *[A.Discard("ore")] * 4)
    assert (cards(s, 0), cards(s, 1)) == (4, 7) and not s.pending


@rule(TB, "without rule robber_flees")
def test_events_tb_robber_flees_and_trade_advantage_do_nothing():
    """With Traders & Barbarians (no robber, no Longest Road), Robber Flees and Trade Advantage
    do nothing."""
    g = ev(TB, 3)
    for total, event in ((4, "robber_flees"), (5, "trade_advantage")):
        s = position(g).hand(1, ore=1).state()
        barbarians = sites_of(s, "barbarian")
        roll(s, total, event)
        assert not s.pending and not s.is_chance_node() and s.hands == [[0] * 5, [0, 0, 0, 0, 1], [0] * 5]
        assert sites_of(s, "barbarian") == barbarians and A.EndTurn() in legal(s)


@rule(TB, "item event_then_again \"the event, then another card for production\" default",
      option="cards_2_12=event_then_again")
def test_events_tb_the_2_and_12_cards_have_their_event_then_another_card():
    """With Traders & Barbarians (no 2 or 12 on the board) the 2 and 12 cards bring their
    event, then another card is revealed for production."""
    g = ev(TB, 3)
    s = position(g).state()
    roll(s, 2, "plentiful_year")
    act(s, *[A.ChooseResource("ore")] * 3)
    assert s.is_chance_node() and g.action_id[roll_card(g, 2, "plentiful_year")] not in dict(s.chance_outcomes())


@rule(TB, "item discard_again \"no event: another card for production\"", alternative="cards_2_12=discard_again")
def test_events_tb_the_2_and_12_cards_are_set_aside_by_option():
    """With the option `discard_again`, a 2 or 12 card brings no event: another card is
    revealed for production."""
    s = position(ev(TB, 3, cards_2_12="discard_again")).state()
    roll(s, 2, "plentiful_year")
    assert s.is_chance_node() and sum(map(sum, s.hands)) == 0


@rule(TB, "item event_no_production \"the event, and no production\"", alternative="cards_2_12=event_no_production")
def test_events_tb_the_2_and_12_cards_have_their_event_only_by_option():
    """With the option `event_no_production`, a 2 or 12 card brings its event and the turn has
    no production."""
    s = position(ev(TB, 3, cards_2_12="event_no_production")).state()
    roll(s, 2, "plentiful_year")
    act(s, *[A.ChooseResource("ore")] * 3)
    assert not s.is_chance_node() and [hand(s, p)["ore"] for p in range(3)] == [1, 1, 1]


@rule("stdlib/traders_barbarians.catan", "param damaged_road_toll 0", option="damaged_road_toll=0")
def test_events_tb_a_damaged_road_costs_a_wagon_two_and_no_toll():
    """With Traders & Barbarians, a wagon crossing a damaged road pays 2 moving points, as if
    no road stood there, and no toll to its owner."""
    g = game(TB, 3, event_cards="on")
    r = ring(g, 0, 0)
    for damaged, cost, toll in ((False, 1, 1), (True, 2, 0)):
        pos = wagon(g, r[0]).place(1, "road", r[1])
        s = pos.edit(damaged=[r[1]] if damaged else []).state()
        step(s, r[0], r[1])
        assert s.travellers[0].left == 4 - cost and held(s, 1, "gold") == 5 + toll


@rule(TB, "Calm Sea counts the harbors only,",
      fixed="no source counts a trade hex as a harbor, and none proposes it")
def test_events_tb_calm_sea_counts_harbors_not_trade_hexes():
    """With Traders & Barbarians, Calm Sea counts buildings on harbors only: a trade hex is no
    harbor."""
    g = ev(TB, 3)
    harbor = g.board.path_id(*g.board.harbors[0].path)
    on_harbor = next(c for c in g.board.path_ends[harbor] if g.board.corner_harbor[c] >= 0)
    s = (position(g).place(1, "settlement", on_harbor).place(2, "settlement", (0, -2, "S"))
         .place(2, "settlement", (2, 0, "SW")).state())
    roll(s, 9, "calm_sea")
    assert s.current_player() == 1
    act(s, A.ChooseResource("ore"))
    assert [cards(s, p) for p in range(3)] == [0, 1, 0]


@rule(TB, "item cards_only \"resource cards only: gold is no card (recommended)\" default",
      option="events_gold=cards_only")
def test_events_tb_gold_never_changes_hands_by_events():
    """Events move resource cards only: gold, a token, is never passed on by Good Neighbors."""
    g = ev(TB, 3)
    s = position(g).tokens(1, gold=5).hand(2, ore=1).state()
    roll(s, 6, "good_neighbors")
    act(s, A.ChooseResource("ore"))
    assert [held(s, p, "gold") for p in range(3)] == [0, 5, 0] and hand(s, 0)["ore"] == 1


@rule(TB, "item gold_too \"a player may give 1 gold in place of a card\"", alternative="events_gold=gold_too")
def test_events_tb_neighbours_may_give_gold_by_option():
    """With the option `gold_too`, Good Neighbors and Helpful Neighbor let a player give 1 gold
    in place of a card: one with gold and no card gives gold."""
    g = ev(TB, 3, events_gold="gold_too")
    s = position(g).tokens(1, gold=5).hand(1, ore=1).hand(2, ore=1).state()
    roll(s, 6, "good_neighbors")
    assert s.current_player() == 1 and set(legal(s)) == {A.ChooseResource("ore"), A.ChooseToken("gold")}
    act(s, A.ChooseToken("gold"), A.ChooseResource("ore"))
    assert [held(s, p, "gold") for p in range(3)] == [0, 4, 1] and [hand(s, p)["ore"] for p in range(3)] == [1, 1, 0]
    s = position(g).place(0, "city", (0, 0, "N")).tokens(0, gold=2).state()  # the leader holds gold only
    roll(s, 10, "helpful_neighbor")
    act(s, A.ChoosePlayer(2))
    assert legal(s) == [A.ChooseToken("gold")]
    act(s, A.ChooseToken("gold"))
    assert [held(s, p, "gold") for p in range(3)] == [1, 0, 1]
