"""Catan for Two with Traders & Barbarians (the `for 2 players` part of
scenarios/traders_barbarians/traders_and_barbarians.catan): two neutral seats, 2 and 3,
whose settlements start at (1,-1) N and (0,1) S; two rolls a turn; trade tokens; tolls
halved. The wagon's road is the ring of the centre hex (0,0), as in the T&B tests."""

from __future__ import annotations

from catandsl.engine import actions as A
from tests.conformance.catalog import rule
from tests.conformance.play import act, cards, hand, held, holder, legal, of_kind, refused, roll, roll_card, sites_of
from tests.conformance.positions import TB, game, main, position, seat_piece, step, wagon, wins_at
from tests.conformance.sites import corner, hexid, ring, side

MAP = TB
NEUTRAL_AT = {2: (1, -1, "N"), 3: (0, 1, "S")}
# Intersections to settle: none next to a trade hex or the coast, the coast only, a trade
# hex's land corner only, and both.
INLAND, COAST, HUB, BOTH = (0, 0, "N"), (1, -2, "N"), (0, -2, "S"), (0, -2, "SW")
# Inland intersections for the rest of a set-up: seat 1's settlement and city, seat 0's city.
OTHERS = [(-1, 0, "S"), (1, 0, "S"), (0, 0, "S")]


def two(**options):
    return game(TB, 2, **options)


def tokens(pos, t0: int = 5, t1: int = 5):
    """Trade tokens as the set-up leaves them (5 each unless said), the rest in the supply."""
    return pos.tokens(0, trade_token=t0).tokens(1, trade_token=t1)


def settle(s, at) -> None:
    """Seat 0 builds a settlement at `at`."""
    act(s, A.Build("settlement", corner(s.game, *at)))


def settler(at, **options):
    """Seat 0's turn after the rolls, 5 trade tokens each, a road of seat 0 to `at` and a
    settlement's cost in hand."""
    g = two(**options)
    c = corner(g, *at)
    road = next(k for k in g.board.corner_paths[c] if k in g.pieces[g.piece_index["road"]].allowed_set)
    pos = tokens(position(g)).place(0, "road", road).hand(0, brick=1, lumber=1, wool=1, grain=1)
    return g, main(pos).state()


def trade_tokens(s, seat: int = 0) -> int:
    return held(s, seat, "trade_token")


def play_setup(g, spots: list):
    """The set-up with the settlements and cities at `spots` in order, the first legal
    road and wagon each time."""
    s = g.new_initial_state()
    act(s, A.StartPlayer(0))
    spots = [corner(g, *x) for x in spots]
    while s.stage == "setup" and s.current_player() >= 0:
        options = legal(s)
        building = [a for a in options if isinstance(a, A.Build) and a.piece in ("settlement", "city")]
        act(s, next(a for a in building if a.at == spots[0]) if building else options[0])
        if building:
            spots.pop(0)
    return s


# ---- the seats and the set-up (V1.1, V1.2) -------------------------------------------------------------


@rule(MAP, "neutral_seats 2")
def test_two_two_neutral_seats_start_with_a_settlement_each():
    """Two players play with two neutral seats in the unused colours: each starts with a
    settlement (no road) on its fixed intersection; they take no turns and hold nothing."""
    g = two()
    s = g.new_initial_state()
    assert g.num_neutral == 2 and len(s.hands) == 2
    assert [s.corner_owner[corner(g, *at)] for at in NEUTRAL_AT.values()] == [2, 3]
    assert [s.placed[seat][g.piece_index["road"]] for seat in (2, 3)] == [0, 0]


@rule(MAP, "start settlement of neutral 1 at (1, -1) N")
def test_two_neutral_settlements_keep_the_distance():
    """The neutral settlements count for the distance rule."""
    g = two()
    s = g.new_initial_state()
    act(s, A.StartPlayer(0))
    spots = {a.at for a in of_kind(s, A.Build)}
    for at in NEUTRAL_AT.values():
        c = corner(g, *at)
        assert c not in spots and not spots & set(g.board.corner_neighbours[c])


@rule(MAP, "rule trade_tokens_at_start {")
def test_two_five_trade_tokens_each_and_ten_in_the_supply():
    """After the set-up each player has 5 trade tokens; the other 10 of the 20 wait in the
    supply."""
    g = two()
    s = play_setup(g, [INLAND, *OTHERS])  # inland only
    assert [trade_tokens(s, p) for p in (0, 1)] == [5, 5] and s.token_supply[g.token_index["trade_token"]] == 10


@rule(MAP, "item on 1 \"set-up settlements earn trade tokens too (V1.2, recommended)\" default",
      option="setup_tokens=on")
def test_two_setup_settlements_earn_tokens_too():
    """A set-up settlement on the coast or a trade hex earns its tokens as in play."""
    assert trade_tokens(play_setup(two(), [COAST, *OTHERS]), 0) == 6


@rule(MAP, "item off 0 \"only settlements built during play earn them\"", alternative="setup_tokens=off")
def test_two_setup_settlements_earn_no_tokens_by_option():
    """With the option `off`, only settlements built in play earn trade tokens."""
    assert trade_tokens(play_setup(two(setup_tokens="off"), [COAST, *OTHERS]), 0) == 5


@rule(MAP, "on built(road) if not in_setup() and not neutral_seat(player) and")
def test_two_the_setup_builds_nothing_for_the_neutral_seats():
    """Set-up placements give the neutral seats nothing."""
    g = two()
    s = play_setup(g, [INLAND, *OTHERS])
    assert [s.placed[seat][g.piece_index["road"]] for seat in (2, 3)] == [0, 0]
    assert [s.placed[seat][g.piece_index["settlement"]] for seat in (2, 3)] == [1, 1]


# ---- two rolls (V1.3) -----------------------------------------------------------------------------------


@rule(MAP, "rolls 2 distinct")
def test_two_two_rolls_a_turn_with_different_totals():
    """A turn has two rolls whose totals differ (a second total equal to the first is rolled
    again); 2 and 12 are still rolled again."""
    g = two()
    s = position(g).state()
    roll(s, 8)
    second = {g.actions[a].total for a, _ in s.chance_outcomes()}
    assert second == {3, 4, 5, 6, 7, 9, 10, 11}
    act(s, A.Roll(6))
    assert not s.is_chance_node() and A.EndTurn() in legal(s)


@rule(MAP, "rolls 2 distinct")
def test_two_each_roll_is_resolved_before_the_next():
    """Each roll is resolved in full, production and all, before the second."""
    g = two()
    h = hexid(g, 0, 0)
    s = position(g).place(1, "settlement", (0, 0, "N")).state()
    roll(s, g.board.hex_number[h])
    assert s.is_chance_node() and hand(s, 1)[g.resources[g.hex_resource[h]]] == 1


@rule(MAP, "item two \"two, of different totals, as the two rolls (V15, recommended)\" default",
      option="cards_for_two=two")
def test_two_with_event_cards_two_cards_a_turn():
    """With Event Cards, two cards are revealed a turn: a second card of the first one's total
    is set aside unplayed and another revealed."""
    g = two(event_cards="on")
    eight, six = roll_card(g, 8), roll_card(g, 6)
    s = position(g).place(1, "settlement", (1, 0, "S")).state()  # by the forest 8
    act(s, eight)
    assert hand(s, 1)["lumber"] == 1 and s.is_chance_node()
    act(s, eight)
    assert hand(s, 1)["lumber"] == 1 and s.is_chance_node() and s.roll_year == 31 - 2
    act(s, six)
    assert s.turn_rolls == [8, 6] and not s.is_chance_node()


@rule(MAP, "item one \"one\"", after="option cards_for_two", alternative="cards_for_two=one")
def test_two_with_event_cards_one_card_a_turn_by_option():
    """With the option `one`, Event Cards reveal one card a turn with two players too."""
    g = two(event_cards="on", cards_for_two="one")
    s = position(g).place(1, "settlement", (1, 0, "S")).state()
    act(s, roll_card(g, 8))
    assert hand(s, 1)["lumber"] == 1 and not s.is_chance_node() and A.EndTurn() in legal(s)


@rule(MAP, "item no \"nothing comes between the rolls, not even a Knight (V6, recommended)\" default",
      option="knight_between_rolls=no")
def test_two_no_knight_between_the_rolls():
    """Nothing is played between the two rolls, not even a Knight."""
    g = two()
    s = position(g).cards(0, held={"knight": 1}).state()
    assert A.PlayCard("knight") in legal(s)
    roll(s, 8)
    assert s.is_chance_node()


@rule(MAP, "item yes \"a card may be played between them, as at any time of the turn\"",
      alternative="knight_between_rolls=yes")
def test_two_a_knight_between_the_rolls_by_option():
    """With the option `yes`, the player may play a card (a Knight) between the two rolls, then
    asks for the second roll; token actions still wait."""
    g = two(knight_between_rolls="yes")
    s = tokens(position(g)).cards(0, held={"knight": 1}).state()
    roll(s, 8)
    assert not s.is_chance_node()
    assert set(legal(s)) == {A.PlayCard("knight"), A.RollDice()}
    act(s, A.PlayCard("knight"))
    act(s, of_kind(s, A.Move)[0])
    assert s.played[0][g.card_index["knight"]] == 1 and s.is_chance_node()  # nothing else to do: the dice
    act(s, A.Roll(6))
    assert s.turn_rolls == [8, 6] and A.EndTurn() in legal(s)


# ---- trade tokens earned (V1.5, V1.9) -------------------------------------------------------------------


@rule(MAP, "if coast(at) and (trade_hex_token == 1 or not hub) {", after="define earn_trade_tokens(")
def test_two_a_settlement_on_the_coast_earns_a_token():
    """A player's settlement on the coast earns 1 trade token."""
    g, s = settler(COAST)
    settle(s, COAST)
    assert trade_tokens(s) == 6


@rule(MAP, "let hub = touches(at, castle) or touches(at, quarry) or touches(at, glassworks)",
      after="define earn_trade_tokens(")
def test_two_a_settlement_on_a_trade_hex_earns_a_token():
    """A player's settlement on one of a trade hex's land corners earns 1 trade token."""
    g, s = settler(HUB)
    settle(s, HUB)
    assert trade_tokens(s) == 6


@rule(MAP, "item adds 1 \"earns both tokens, 2 (V9, recommended)\" default", option="trade_hex_token=adds")
def test_two_coast_and_trade_hex_earn_both():
    """A settlement on the coast and on a trade hex earns both tokens, 2."""
    g, s = settler(BOTH)
    settle(s, BOTH)
    assert trade_tokens(s) == 7


@rule(MAP, "item replaces 0 \"earns 1: the trade hex's token replaces the coast's\"",
      alternative="trade_hex_token=replaces")
def test_two_coast_and_trade_hex_earn_one_by_option():
    """With the option `replaces`, a settlement on the coast and on a trade hex earns 1 token;
    one on the coast alone or a trade hex alone still earns its 1."""
    for at, earned in ((BOTH, 1), (COAST, 1), (HUB, 1)):
        g, s = settler(at, trade_hex_token="replaces")
        settle(s, at)
        assert trade_tokens(s) == 5 + earned


@rule(MAP, "rule trade_tokens_earned {", after="for 2 players {")
def test_two_inland_settlements_and_cities_earn_nothing():
    """A settlement away from the coast and the trade hexes earns nothing, and no city does."""
    g, s = settler(INLAND)
    settle(s, INLAND)
    assert trade_tokens(s) == 5
    s = main(tokens(position(g)).place(0, "settlement", COAST).hand(0, ore=3, grain=2)).state()
    act(s, A.Build("city", corner(g, *COAST)))
    assert trade_tokens(s) == 5


@rule(MAP, "token trade_token { supply 20 }")
def test_two_an_empty_supply_pays_nothing():
    """There are 20 trade tokens: once the supply is empty, nothing more is paid."""
    g = two()
    c = corner(g, *BOTH)
    road = next(k for k in g.board.corner_paths[c] if k in g.pieces[g.piece_index["road"]].allowed_set)
    pos = tokens(position(g), 5, 15).place(0, "road", road).hand(0, brick=1, lumber=1, wool=1, grain=1)
    s = main(pos).state()
    settle(s, BOTH)
    assert trade_tokens(s) == 5 and s.token_supply[g.token_index["trade_token"]] == 0


# ---- neutral building (V1.4) -----------------------------------------------------------------------------


@rule(MAP, "build_free_for(player, neutral_seats(), [road])", after="rule neutral_building {")
def test_two_a_road_gives_a_neutral_seat_a_road():
    """Each road a player builds in play gives one free road to a neutral seat: the builder
    picks the seat and the spot, which must touch that seat's own settlement or road."""
    g = two()
    s = main(position(g).place(0, "settlement", INLAND).hand(0, brick=1, lumber=1)).state()
    act(s, A.Build("road", side(g, 0, 0, "NE")))
    offered = of_kind(s, A.BuildFor)
    roads = g.pieces[g.piece_index["road"]].allowed_set - set(sites_of(s, "barbarian"))
    assert {(a.seat, a.at) for a in offered} == {
        (seat, k) for seat, at in NEUTRAL_AT.items() for k in g.board.corner_paths[corner(g, *at)] if k in roads}
    act(s, offered[0])
    assert s.path_owner[offered[0].at] == offered[0].seat and not s.pending


def _neutral_spot(**options):
    """Seat 0 about to build a settlement at COAST, neutral seat 3's road leading from its
    settlement to a free spot for a settlement (returned)."""
    g = two(**options)
    k1, k2 = side(g, 0, 1, "SW"), side(g, 0, 1, "W")  # seat 3's road: (0,1) S to SW to NW
    pos = tokens(position(g)).place(0, "road", side(g, 1, -2, "NW")).hand(0, brick=1, lumber=1, wool=1, grain=1)
    return g, main(seat_piece(seat_piece(pos, 3, "road", k1), 3, "road", k2)).state(), corner(g, 0, 1, "NW")


@rule(MAP, "item paired 0 \"a road for a road; a settlement for a settlement, else a road (V2, recommended)\" default",
      option="neutral_build=paired")
def test_two_a_settlement_gives_a_neutral_settlement_or_else_a_road():
    """Each settlement a player builds in play gives a neutral seat a free settlement, on that
    seat's network by the usual rules; when no neutral seat has a spot for one, a road."""
    g, s = settler(COAST)
    settle(s, COAST)
    assert {a.piece for a in of_kind(s, A.BuildFor)} == {"road"}  # a lone settlement has no spot
    g, s, far = _neutral_spot()
    settle(s, COAST)
    assert {(a.seat, a.piece, a.at) for a in of_kind(s, A.BuildFor)} == {(3, "settlement", far)}


@rule(MAP, "item free 1 \"a road or a settlement, the builder's choice\"", alternative="neutral_build=free")
def test_two_a_settlement_gives_a_neutral_road_or_settlement_by_option():
    """With the option `free`, a settlement built in play gives a neutral seat a road or a
    settlement, the builder's choice (a road still gives a road)."""
    g, s, far = _neutral_spot(neutral_build="free")
    settle(s, COAST)
    offered = of_kind(s, A.BuildFor)
    assert (3, "settlement", far) in {(a.seat, a.piece, a.at) for a in offered}
    assert {a.seat for a in offered if a.piece == "road"} == {2, 3}
    act(s, next(a for a in offered if a.piece == "road" and a.seat == 2))
    assert s.placed[2][g.piece_index["road"]] == 1 and not s.pending


@rule(MAP, "rule neutral_building {")
def test_two_cities_and_cards_give_the_neutral_seats_nothing():
    """Cities and development cards give the neutral seats nothing."""
    g = two()
    s = main(position(g).place(0, "settlement", INLAND).hand(0, ore=4, grain=3, wool=1)).state()
    act(s, A.Build("city", corner(g, *INLAND)), A.BuyCard("development"), A.Draw("development", "knight"))
    assert not s.pending and A.EndTurn() in legal(s)


@rule(MAP, "item per_road 0 \"one after each of its roads (recommended)\" default",
      option="neutral_road_building=per_road")
def test_two_road_building_gives_a_neutral_road_per_road():
    """Road Building's two roads give two neutral roads, one after each."""
    g = two()
    s = main(position(g).place(0, "settlement", INLAND).cards(0, held={"road_building": 1})).state()
    act(s, A.PlayCard("road_building"))
    for k in ring(g, 0, 0)[:2]:
        act(s, A.Build("road", k))
        act(s, of_kind(s, A.BuildFor)[0])
    assert s.placed[2][g.piece_index["road"]] + s.placed[3][g.piece_index["road"]] == 2


@rule(MAP, "item per_card 1 \"one for the card\"", alternative="neutral_road_building=per_card")
def test_two_road_building_gives_one_neutral_road_by_option():
    """With the option `per_card`, Road Building gives one neutral road for the card, after its
    two roads; a road bought still gives one."""
    g = two(neutral_road_building="per_card")
    pos = position(g).place(0, "settlement", INLAND).cards(0, held={"road_building": 1}).hand(0, brick=1, lumber=1)
    s = main(pos).state()
    r = ring(g, 0, 0)
    act(s, A.PlayCard("road_building"), A.Build("road", r[0]))
    assert not of_kind(s, A.BuildFor)
    act(s, A.Build("road", r[1]))
    act(s, of_kind(s, A.BuildFor)[0])
    assert s.placed[2][g.piece_index["road"]] + s.placed[3][g.piece_index["road"]] == 1 and not s.pending
    act(s, A.Build("road", r[2]))
    assert of_kind(s, A.BuildFor)


def _coastal_neutral_settlement(**options):
    """Seat 0 has built a settlement and may build one for neutral seat 2 on the coast
    (returned), at the end of that seat's road of two paths."""
    g = two(**options)
    # neutral seat 2's road leads two paths from its settlement to the coast at (2,-3) S
    start = corner(g, *NEUTRAL_AT[2])
    k1 = side(g, 1, -2, "E")  # from (1,-1) N up to (1,-2) NE
    k2 = side(g, 2, -2, "NW")  # on to the coast
    coast = [c for c in g.board.path_ends[k2] if c not in g.board.path_ends[k1]][0]
    assert start in g.board.path_ends[k1]
    pos = seat_piece(seat_piece(tokens(position(g)), 2, "road", k1), 2, "road", k2)
    pos.place(0, "road", side(g, 0, 0, "NE")).hand(0, brick=1, lumber=1, wool=1, grain=1)
    s = main(pos).state()
    settle(s, INLAND)
    assert A.BuildFor(2, "settlement", coast) in legal(s)
    return s, coast


@rule(MAP, "item nobody 0 \"nobody earns them (V4, recommended)\" default", option="neutral_settlement_tokens=nobody")
def test_two_a_neutral_settlement_earns_nobody_a_token():
    """A settlement built for a neutral seat earns no trade token, for the seat or the builder,
    even on the coast or a trade hex."""
    s, coast = _coastal_neutral_settlement()
    act(s, A.BuildFor(2, "settlement", coast))
    assert [trade_tokens(s, p) for p in (0, 1)] == [5, 5]


@rule(MAP, "item builder 1 \"the player who built it earns them\"", alternative="neutral_settlement_tokens=builder")
def test_two_a_neutral_settlement_earns_its_builder_tokens_by_option():
    """With the option `builder`, the player who builds a settlement for a neutral seat earns
    the tokens it would have earned them."""
    s, coast = _coastal_neutral_settlement(neutral_settlement_tokens="builder")
    act(s, A.BuildFor(2, "settlement", coast))
    assert [trade_tokens(s, p) for p in (0, 1)] == [6, 5]


# ---- what trade tokens buy (V1.5, V1.6, V1.9) ------------------------------------------------------------


@rule(MAP, "action discard_knight")
def test_two_a_played_knight_is_set_aside_for_two_tokens_once_a_turn():
    """Once a turn a player may set aside one of their played Knights for 2 trade tokens; the
    army shrinks."""
    g = two()
    s = main(tokens(position(g)).cards(0, played={"knight": 3})).state()
    assert holder(s, "largest_army") == 0
    act(s, A.TakeAction("discard_knight"))
    assert trade_tokens(s) == 7 and s.played[0][g.card_index["knight"]] == 2
    assert holder(s, "largest_army") == -1
    refused(s, A.TakeAction("discard_knight"))


@rule(MAP, "action forced_trade")
def test_two_a_forced_trade_takes_two_random_cards_and_gives_two_chosen():
    """A forced trade takes 2 random cards from the opponent, then gives back 2 of the
    player's choice from their hand as it was before."""
    g = two()
    s = main(tokens(position(g)).hand(0, brick=1, lumber=1).hand(1, wool=3)).state()
    act(s, A.TakeAction("forced_trade"))
    act(s, A.Stolen("wool"), A.Stolen("wool"))
    assert {a.resource for a in of_kind(s, A.ChooseResource)} == {"brick", "lumber"}
    act(s, A.ChooseResource("brick"), A.ChooseResource("lumber"))
    assert hand(s, 0) == dict(hand(s, 0), brick=0, lumber=0, wool=2)
    assert hand(s, 1) == dict(hand(s, 1), brick=1, lumber=1, wool=1)


@rule(MAP, "exchange_cards(player, o, 2, 2)")
def test_two_a_forced_trade_against_one_card_still_gives_two():
    """Against an opponent holding a single card, a forced trade takes that card and still
    gives 2."""
    g = two()
    s = main(tokens(position(g)).hand(0, brick=2, ore=1).hand(1, wool=1)).state()
    act(s, A.TakeAction("forced_trade"), A.Stolen("wool"))
    act(s, A.ChooseResource("brick"), A.ChooseResource("ore"))
    assert cards(s, 0) == 2 and hand(s, 1) == dict(hand(s, 1), brick=1, ore=1, wool=0) and cards(s, 1) == 2


@rule(MAP, "and tokens(player, trade_token) >= if_else(ahead(player), 2, 1)) {")
def test_two_a_token_action_costs_one_or_two_when_ahead():
    """A forced trade costs 1 trade token, or 2 for a player ahead on the points everyone sees
    (hidden Victory Point cards do not count)."""
    g = two()
    for extra, cost in ((lambda pos: pos, 1), (lambda pos: pos.place(0, "settlement", INLAND), 2),
                        (lambda pos: pos.cards(0, held={"victory_point": 1}), 1)):
        s = main(extra(tokens(position(g)).hand(0, brick=2).hand(1, wool=2))).state()
        act(s, A.TakeAction("forced_trade"))
        assert trade_tokens(s) == 5 - cost


@rule(MAP, "resource_cards_of(opponents(player)) > 0")
def test_two_no_forced_trade_against_an_empty_hand():
    """No forced trade when the opponent holds no card."""
    s = main(tokens(position(two())).hand(0, brick=2)).state()
    assert A.TakeAction("forced_trade") not in legal(s)
    refused(s, A.TakeAction("forced_trade"))


@rule(MAP, "item one 1 \"one (V5, recommended)\" default", option="token_actions_per_turn=one")
def test_two_one_token_action_a_turn():
    """A player takes at most one trade-token action a turn."""
    s = main(tokens(position(two())).hand(0, brick=2).hand(1, wool=2)).state()
    act(s, A.TakeAction("forced_trade"), A.Stolen("wool"), A.Stolen("wool"),
        A.ChooseResource("brick"), A.ChooseResource("brick"))
    assert A.TakeAction("move_barbarian") not in legal(s)


@rule(MAP, "item any 20 \"any number while tokens last\"", alternative="token_actions_per_turn=any")
def test_two_token_actions_while_tokens_last_by_option():
    """With the option `any`, a player takes token actions as long as their tokens last."""
    s = main(tokens(position(two(token_actions_per_turn="any")), 3).hand(0, brick=2).hand(1, wool=2)).state()
    act(s, A.TakeAction("forced_trade"), A.Stolen("wool"), A.Stolen("wool"),
        A.ChooseResource("brick"), A.ChooseResource("brick"))
    for left in (1, 0):
        act(s, A.TakeAction("move_barbarian"))
        act(s, of_kind(s, A.Move)[0])
        assert trade_tokens(s) == left
    assert A.TakeAction("move_barbarian") not in legal(s)


@rule(MAP, "item roll_or_build \"before the rolls or while trading and building (V5, recommended)\" default",
      option="token_timing=roll_or_build")
def test_two_token_actions_before_the_rolls_or_after_never_between():
    """Token actions come before the rolls or while trading and building, never between the
    rolls."""
    s = tokens(position(two())).state()
    assert A.TakeAction("move_barbarian") in legal(s)
    roll(s, 8)
    assert s.is_chance_node()
    act(s, A.Roll(6))
    assert A.TakeAction("move_barbarian") in legal(s)
    g = two()
    r = ring(g, 0, 0)
    s = tokens(wagon(g, r[0])).state()
    step(s, r[0], r[1])
    assert A.TakeAction("move_barbarian") not in legal(s)  # the wagon moves: trading and building are over


@rule(MAP, "item any_time \"at any time of the player's own turn, between the rolls too\"",
      alternative="token_timing=any_time")
def test_two_token_actions_at_any_time_by_option():
    """With the option `any_time`, token actions may also come between the rolls and while the
    wagon moves; a card still may not come between the rolls."""
    g = two(token_timing="any_time")
    s = tokens(position(g)).cards(0, held={"knight": 1}).state()
    roll(s, 8)
    assert set(legal(s)) >= {A.TakeAction("move_barbarian"), A.RollDice()} and A.PlayCard("knight") not in legal(s)
    act(s, A.TakeAction("move_barbarian"))
    act(s, of_kind(s, A.Move)[0])
    assert s.is_chance_node()  # one token action a turn: nothing else to do, the second roll
    act(s, A.Roll(6))
    assert trade_tokens(s) == 4 and s.turn_rolls == [8, 6]
    g = two(token_timing="any_time", token_actions_per_turn="any")
    r = ring(g, 0, 0)
    s = tokens(wagon(g, r[0])).state()
    step(s, r[0], r[1])
    assert A.TakeAction("move_barbarian") in legal(s)


def _barbarian_onto_a_road(**options):
    """Seat 0 pays for moving the barbarian from (1,-1) NE onto seat 1's road on the centre
    hex's ring; seat 1 holds an ore, seat 0 a settlement (1 point ahead)."""
    g = two(**options)
    road = ring(g, 0, 0)[0]
    s = main(tokens(position(g)).place(0, "settlement", INLAND).place(1, "road", road).hand(1, ore=1)).state()
    act(s, A.TakeAction("move_barbarian"))
    return g, s, road


@rule(MAP, "item no 0 \"robs nobody (V8, recommended)\" default", option="barbarian_token_steals=no")
def test_two_a_barbarian_moved_for_a_token_robs_nobody():
    """For a trade token a player moves a barbarian to a free path; nobody is robbed."""
    g, s, road = _barbarian_onto_a_road()
    act(s, A.Move("barbarian", road, side(g, 1, -1, "NE")))
    assert not s.pending and hand(s, 1)["ore"] == 1


@rule(MAP, "item yes 1 \"robs the owner of the road it lands on, as on a 7\"", alternative="barbarian_token_steals=yes")
def test_two_a_barbarian_moved_for_a_token_robs_by_option():
    """With the option `yes`, a barbarian moved for a trade token robs the owner of the road it
    lands on, as on a 7."""
    g, s, road = _barbarian_onto_a_road(barbarian_token_steals="yes")
    act(s, A.Move("barbarian", road, side(g, 1, -1, "NE")))
    assert legal(s) == [A.Steal(1)]
    act(s, A.Steal(1), A.Stolen("ore"))
    assert hand(s, 0)["ore"] == 1 and hand(s, 1)["ore"] == 0


@rule(MAP, "item flat 0 \"1 trade token (the seed; V8)\" default", option="barbarian_token_cost=flat")
def test_two_moving_a_barbarian_costs_one_token_even_ahead():
    """Moving a barbarian costs 1 trade token flat, even for a player ahead on points."""
    _, s, _ = _barbarian_onto_a_road()
    assert trade_tokens(s) == 4


@rule(MAP, "item standing 1 \"1 trade token, 2 for a player ahead, as a forced trade\"",
      alternative="barbarian_token_cost=standing")
def test_two_moving_a_barbarian_costs_two_when_ahead_by_option():
    """With the option `standing`, moving a barbarian costs 2 trade tokens for a player ahead
    on public points, as a forced trade does."""
    _, s, _ = _barbarian_onto_a_road(barbarian_token_cost="standing")
    assert trade_tokens(s) == 3


# ---- tolls (V1.9) ----------------------------------------------------------------------------------------


def _tolled(owner: int | list[int], paths: int, gold: int = 5, **options):
    """Seat 0's wagon on the ring's first side, `owner`'s roads (or each side's owner, in
    turn) on the next `paths` sides."""
    g = two(**options)
    r = ring(g, 0, 0)
    pos = wagon(g, r[0], level=4, gold=gold)
    owners = owner if isinstance(owner, list) else [owner] * paths
    for k, o in zip(r[1:1 + paths], owners):
        pos = seat_piece(pos, o, "road", k) if o >= 2 else pos.place(o, "road", k)
    return g, r, pos.state()


@rule(MAP, "return_tokens(player, gold, 1)", after="rule toll_halved {")
def test_two_neutral_roads_pay_the_bank_half_rounded_up():
    """A wagon on a neutral seat's roads pays the bank half the usual toll for the move,
    rounded up: 1 gold for 1 or 2 paths, 2 for 3."""
    for paths, paid in ((1, 1), (2, 1), (3, 2)):
        g, r, s = _tolled(2, paths)
        supply = s.token_supply[g.token_index["gold"]]
        step(s, *r[:1 + paths])
        assert held(s, 0, "gold") == 5 - paid and s.token_supply[g.token_index["gold"]] == supply + paid


@rule(MAP, "pay_tokens(player, owner(at), gold, 1)", after="rule toll_halved {")
def test_two_the_opponents_roads_pay_half_rounded_down():
    """A wagon on the opponent's roads pays the opponent half the usual toll for the move,
    rounded down: nothing for 1 path, 1 gold for 2 or 3."""
    for paths, paid in ((1, 0), (2, 1), (3, 1)):
        g, r, s = _tolled(1, paths)
        step(s, *r[:1 + paths])
        assert (held(s, 0, "gold"), held(s, 1, "gold")) == (5 - paid, 5 + paid)


@rule(MAP, "and (toll_halving == 1 or counter(player, opponent_paths_odd) == 0)))")
def test_two_a_step_is_refused_only_when_its_toll_is_due_and_unpaid():
    """Without gold the wagon still enters a road whose step costs no toll, but not one whose
    step would."""
    g, r, s = _tolled(1, 2, gold=0)
    step(s, r[0], r[1])
    refused(s, A.Travel("wagon", r[1], r[2]))
    g, r, s = _tolled(2, 1, gold=0)
    refused(s, A.Travel("wagon", r[0], r[1]))


@rule(MAP, "item per_move 0 \"the paths of a move, neutral roads together, the opponent's apart (V7, recommended)\"",
      option="toll_halving=per_move")
def test_two_tolls_are_halved_move_by_move():
    """The halving counts the paths of one turn's move: the next turn starts afresh."""
    g, r, s = _tolled(2, 2)
    step(s, r[0], r[1])
    assert held(s, 0, "gold") == 4
    act(s, A.EndTurn())
    for total in (5, 9, 5, 9):
        roll(s, total)
        if s.turn_player == 1 and not s.is_chance_node():
            act(s, A.EndTurn())
    step(s, r[1], r[2])
    assert held(s, 0, "gold") == 3
    g, r, s = _tolled([2, 3], 2)  # one road of each neutral seat: counted together
    step(s, *r[:3])
    assert held(s, 0, "gold") == 4


@rule(MAP, "item per_path 1 \"each path alone: 1 gold to the bank for a neutral road, nothing for the opponent's\"",
      alternative="toll_halving=per_path")
def test_two_tolls_are_halved_path_by_path_by_option():
    """With the option `per_path`, each path's toll is halved alone: a neutral road costs 1 gold
    to the bank, the opponent's road nothing."""
    for paths in (1, 2, 3):
        g, r, s = _tolled(2, paths, toll_halving="per_path")
        step(s, *r[:1 + paths])
        assert held(s, 0, "gold") == 5 - paths
        g, r, s = _tolled(1, paths, toll_halving="per_path")
        step(s, *r[:1 + paths])
        assert (held(s, 0, "gold"), held(s, 1, "gold")) == (5, 5)


@rule(MAP, "item per_colour 2 \"the paths of a move, each neutral seat's roads apart\"",
      alternative="toll_halving=per_colour")
def test_two_tolls_are_halved_per_neutral_colour_by_option():
    """With the option `per_colour`, each neutral seat's roads are halved apart over a move:
    one road of each costs 2 gold, two of one seat 1."""
    for owners, paid in (([2, 3], 2), ([2, 2], 1), ([3, 3], 1), ([2, 3, 2, 3], 2)):
        g, r, s = _tolled(owners, len(owners), toll_halving="per_colour")
        step(s, *r[:1 + len(owners)])
        assert held(s, 0, "gold") == 5 - paid
    g, r, s = _tolled([2, 3], 2, gold=1, toll_halving="per_colour")
    step(s, r[0], r[1])
    refused(s, A.Travel("wagon", r[1], r[2]))  # seat 3's first road: its toll is due, and no gold


# ---- robbing, production, victory (V1.3, V1.7, V1.8) ---------------------------------------------------


@rule(MAP, "own pieces in the unused colours; they take no turns, receive nothing, hold no cards")
def test_two_neutral_seats_are_never_robbed_and_never_owed():
    """A barbarian on a neutral road robs nobody; neutral settlements collect nothing, and a
    bank short of a resource still pays a single player beside them."""
    g = two()
    road = ring(g, 0, 0)[0]
    s = seat_piece(position(g), 2, "road", road).hand(1, ore=1).state()
    roll(s, 7)
    act(s, A.Move("barbarian", road, side(g, 1, -1, "NE")))
    assert not of_kind(s, A.Steal)
    h = hexid(g, 1, -1)  # beside neutral seat 2's settlement
    resource = g.resources[g.hex_resource[h]]
    s = position(g).place(1, "settlement", (1, -1, "S")).hand(0, **{resource: 18}).state()  # 1 left
    roll(s, g.board.hex_number[h])
    assert hand(s, 1)[resource] == 1


@rule(MAP, "V1.8, F.12: 13 points still win")
def test_two_thirteen_points_still_win():
    """Two players still play to 13 victory points."""
    wins_at(two(), 13)
