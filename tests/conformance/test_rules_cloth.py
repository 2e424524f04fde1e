"""Cloth for Catan (scenarios/seafarers/cloth_for_catan.catan) for 4 players: the tribe's
villages, cloth, the set-up's third settlement, the robber and the pirate, and the end.

Landmarks: the village V on the north corner of the tribe's desert (3,3), number 11, is
one sea path (VP: between the sea hexes (3,2) and (4,2)) from COAST, the south corner of
the main island's hex (4,1)."""

from __future__ import annotations

from collections import Counter

import pytest

from catandsl.engine import actions as A
from catandsl.rules.sites import SiteLookups
from tests.conformance.catalog import rule
from tests.conformance.play import act, builds, held, legal, moves, of_kind, refused, roll
from tests.conformance.positions import CLOTH, game, main, position, wins_at
from tests.conformance.sites import corner, hexid, side

CL = CLOTH
COAST, VP = (4, 1, "S"), (4, 2, "W")


def cloth(**options):
    return game(CL, 4, **options)


def villages(g):
    return g.lookups(SiteLookups).sites


def v(g) -> int:
    """The village V's site number."""
    return next(x.index for x in villages(g) if x.corner == corner(g, 3, 3, "N"))


def stocks(pos, stock: dict[int, int], held_by: dict[int, int] | None = None, partners=()):
    """Set the villages' cloth (the rest 0), the players' cloth and the trade relations
    ([site, seat] in the order trade began); the general supply holds the rest of 50."""
    g = pos.game
    held_by = held_by or {}
    rows = [[stock.get(x.index, 0)] for x in villages(g)]
    mine = [[held_by.get(p, 0)] for p in range(g.num_players)]
    supply = 50 - sum(r[0] for r in rows) - sum(h[0] for h in mine)
    return pos.edit(token_stock=rows, tokens_held=mine, token_supply=[supply], partners=[list(x) for x in partners])


def trade_at_v(g):
    """Seat 0's settlement at COAST: a ship on VP reaches the village."""
    return position(g).place(0, "settlement", COAST)


@rule(CL, "victory 14")
def test_cloth_fourteen_points_win():
    """14 victory points win."""
    wins_at(cloth(), 14)


@rule(CL, "without award longest_trade_route")
def test_cloth_largest_army_but_no_longest_trade_route():
    """Longest Trade Route is not played; Largest Army is."""
    assert [a.name for a in cloth().awards] == ["largest_army"]


@rule(CL, "stock cloth 5")
def test_cloth_eight_villages_of_five_cloth_and_ten_beside_the_board():
    """Eight villages stand on the tribe's islands, numbered 3, 4, 5, 6, 8, 9, 10 and 11, each
    with 5 cloth; 10 more lie beside the board, 50 in all."""
    g = cloth()
    s = position(g).state()
    assert sorted(x.number for x in villages(g)) == [3, 4, 5, 6, 8, 9, 10, 11]
    tribe = set(g.board.island_names["tribe"])
    assert all(tribe & set(g.board.corner_islands[x.corner]) for x in villages(g))
    assert s.token_stock == [[5]] * 8 and s.token_supply == [10]


@rule(CL, "on intersection where land(at) and not on_island(at, tribe)")
def test_cloth_nobody_builds_on_the_tribes_islands():
    """Nobody builds a settlement on the tribe's islands, not even next to a village a ship
    reached."""
    g = cloth()
    tribe = set(g.board.island_names["tribe"])
    assert not [c for c in g.pieces[g.piece_index["settlement"]].allowed
                if tribe & set(g.board.corner_islands[c])]
    s = main(trade_at_v(g).place(0, "ship", VP).place(0, "ship", (3, 2, "SE"))
             .hand(0, brick=1, lumber=1, wool=1, grain=1)).state()
    assert not builds(s, "settlement")
    refused(s, A.Build("settlement", corner(g, 3, 3, "NW")))


@rule(CL, "on hex where land(at) and not on_island(at, tribe)")
def test_cloth_the_robber_never_visits_the_tribe():
    """The robber never goes onto the tribe's islands."""
    g = cloth()
    s = position(g).state()
    roll(s, 7)
    tribe = {h for i in g.board.island_names["tribe"] for h in g.board.islands[i]}
    assert moves(s, "robber") and not moves(s, "robber") & tribe


@rule(CL, "start robber at (0, 3)")
def test_cloth_robber_on_the_fields_twelve_pirate_on_its_mark():
    """The robber starts on the main island's fields with the 12, the pirate on the marked sea
    hex."""
    g = cloth()
    s = position(g).state()
    robber = s.neutral_at[g.piece_index["robber"]]
    assert (g.board.terrain(robber), g.board.hex_number[robber]) == ("fields", 12)
    assert s.neutral_at[g.piece_index["pirate"]] == hexid(g, 6, 4)


def _setup(pass_third: bool = False, **options):
    """The set-up played with the first legal action each time: the game, the state after
    it, the seats in the order they placed settlements, and each seat's settlements."""
    g = cloth(**options)
    s = g.new_initial_state()
    act(s, A.StartPlayer(0))
    order, placed = [], {}
    while s.stage == "setup":
        p, a = s.current_player(), legal(s)[0]
        if pass_third and p == 0 and len(order) == 8 and A.Pass() in legal(s):
            a = A.Pass()
        if isinstance(a, A.Build) and a.piece == "settlement":
            order.append(p)
            placed.setdefault(p, []).append(a.at)
        act(s, a)
    return g, s, order, placed


def _owed(g, corners) -> Counter:
    """The resources of the hexes around these intersections."""
    return Counter(g.resources[g.hex_resource[h]] for c in corners for h in g.board.corner_hexes[c]
                   if g.hex_resource[h] >= 0)


@rule(CL, "round forward from last {")
def test_cloth_a_third_settlement_clockwise_from_the_last_player():
    """After the usual two, each player places a third settlement (with a road or ship),
    clockwise from the player who placed last."""
    _, _, order, _ = _setup()
    assert order == [0, 1, 2, 3, 3, 2, 1, 0, 0, 1, 2, 3]


@rule(CL, "item third \"from the third settlement only (the seed names no other)\" default",
      option="setup_collect=third")
def test_cloth_only_the_third_settlement_collects():
    """Starting resources come from the third settlement only."""
    g, s, _, placed = _setup()
    for p, corners in placed.items():
        assert Counter({r: n for r, n in zip(g.resources, s.hands[p]) if n}) == _owed(g, corners[2:])


@rule(CL, "item second_and_third \"from the second settlement and the third\"",
      alternative="setup_collect=second_and_third")
def test_cloth_the_second_settlement_collects_too_by_option():
    """With the option `second_and_third`, the second settlement collects its starting
    resources as in the base game, and the third too."""
    g, s, _, placed = _setup(setup_collect="second_and_third")
    for p, corners in placed.items():
        assert Counter({r: n for r, n in zip(g.resources, s.hands[p]) if n}) == _owed(g, corners[1:])


@rule(CL, "place settlement optional")
def test_cloth_the_third_settlement_may_be_left_out():
    """A player may pass on the third settlement: then no road or ship and no resources."""
    g, s, order, _ = _setup(pass_third=True)
    assert order[8:] == [1, 2, 3] and sum(s.hands[0]) == 0
    assert s.placed[0][g.piece_index["settlement"]] == 2
    assert s.placed[0][g.piece_index["road"]] + s.placed[0][g.piece_index["ship"]] == 2


@rule(CL, "take_from_site(player, at, cloth, 1)")
def test_cloth_a_ship_reaching_a_village_trades_and_takes_one_cloth():
    """A shipping line from the player's own settlement that reaches a village establishes
    trade with it and takes 1 cloth from it at once."""
    g = cloth()
    s = main(trade_at_v(g).hand(0, lumber=1, wool=1)).state()
    act(s, A.Build("ship", side(g, *VP)))
    assert s.partners == [(v(g), 0)] and held(s, 0, "cloth") == 1 and s.token_stock[v(g)] == [4]


@rule(CL, "on site_reached(village) {")
def test_cloth_a_line_from_no_building_trades_with_nobody():
    """A line of ships not joined to the player's own building establishes no trade."""
    g = cloth()
    s = main(position(g).place(0, "ship", (4, 1, "SE")).hand(0, lumber=1, wool=1)).state()
    act(s, A.Build("ship", side(g, *VP)))
    assert s.partners == [] and held(s, 0, "cloth") == 0


@rule(CL, "produce_sites(village, roll)")
def test_cloth_a_village_number_gives_each_partner_one_cloth():
    """When a village's number is rolled, each player trading with it takes 1 cloth."""
    g = cloth()
    s = stocks(position(g), {v(g): 5}, partners=[(v(g), 1), (v(g), 3)]).state()
    roll(s, 11)
    assert [held(s, p, "cloth") for p in range(4)] == [0, 1, 0, 1] and s.token_stock[v(g)] == [3]


@rule(CL, "produce_sites(village, roll)")
def test_cloth_a_short_village_is_made_up_from_beside_the_board():
    """When a village holds too little for all its partners, the rest comes from the cloth
    beside the board."""
    g = cloth()
    s = stocks(position(g), {v(g): 1}, partners=[(v(g), 1), (v(g), 2)]).state()
    supply = s.token_supply[0]
    roll(s, 11)
    assert [held(s, p, "cloth") for p in range(4)] == [0, 1, 1, 0]
    assert s.token_stock[v(g)] == [0] and s.token_supply[0] == supply - 1


@rule(CL, "produce_sites(village, roll)")
def test_cloth_an_empty_village_gives_nothing():
    """A village whose cloth is gone gives nothing when its number is rolled, not even from
    beside the board."""
    g = cloth()
    s = stocks(position(g), {0: 5, 1: 5, 3: 5, 4: 5}, partners=[(v(g), 1)]).state()
    roll(s, 11)
    assert held(s, 1, "cloth") == 0 and s.token_supply[0] == 30


@rule(CL, "produce_sites(village, roll)")
def test_cloth_when_all_runs_short_the_roller_first_then_by_trade_order():
    """When the village and the supply both run short, the player whose turn it is takes
    first, then the others in the order they began to trade."""
    g = cloth()
    s = stocks(position(g), {v(g): 1, 0: 5, 1: 5, 3: 5, 4: 5}, {0: 10, 3: 18},
               partners=[(v(g), 3), (v(g), 0), (v(g), 1)]).state()
    assert s.token_supply == [1]
    roll(s, 11)  # seat 0 rolls: 2 cloth for 3 partners
    assert [held(s, p, "cloth") for p in range(4)] == [11, 0, 0, 19]


@rule(CL, "points 1 per 2")
def test_cloth_two_cloth_make_a_point():
    """Every 2 cloth are worth 1 victory point; an odd one is worth nothing."""
    g = cloth()
    for n, points in ((1, 0), (2, 1), (5, 2)):
        s = stocks(position(g), {x.index: 5 for x in villages(g)}, {0: n}).state()
        assert s.points(0) == points


@rule(CL, "token cloth {",
      fixed="no source says whether cloth counts as a card, and none proposes that it does; a token "
            "counts as no card (see `token` in docs/language.md)")
def test_cloth_is_no_resource_card():
    """Cloth is not a resource card: it does not count toward the 7 cards."""
    g = cloth()
    s = stocks(position(g), {x.index: 5 for x in villages(g)}, {1: 6}).hand(1, ore=7).state()
    roll(s, 7)
    assert s.current_player() == 0 and of_kind(s, A.Move)  # nobody discards


@rule(CL, "token cloth {",
      fixed="no source says whether cloth counts as a card, and none proposes that it does; a token "
            "counts as no card (see `token` in docs/language.md)")
def test_cloth_monopoly_never_takes_cloth():
    """Monopoly takes resource cards only, never cloth."""
    g = cloth()
    s = main(stocks(position(g), {x.index: 5 for x in villages(g)}, {1: 4})
             .cards(0, held={"monopoly": 1})).state()
    act(s, A.PlayCard("monopoly"))
    assert {a.resource for a in of_kind(s, A.ChooseResource)} == set(g.resources)
    act(s, A.ChooseResource("wool"))
    assert held(s, 1, "cloth") == 4


@rule(CL, "closes routes")
def test_cloth_a_line_to_a_village_is_closed():
    """A line of ships from the player's settlement to a village is closed: none of its ships
    moves."""
    g = cloth()
    s = main(trade_at_v(g).place(0, "ship", VP).place(0, "ship", (4, 1, "SE")).reach_sites()).state()
    assert s.partners == [(v(g), 0)]
    assert {a.at for a in of_kind(s, A.PickUp)} == {side(g, 4, 1, "SE")}


@rule(CL, "movable_by where trading_sites(player, village) > 0")
def test_cloth_only_a_trading_player_moves_the_pirate_on_a_seven():
    """On a 7 only a player who trades with a village may move the pirate; others move the
    robber."""
    g = cloth()
    s = position(g).state()
    roll(s, 7)
    assert not moves(s, "pirate") and moves(s, "robber")
    s = stocks(position(g), {x.index: 5 for x in villages(g)}, partners=[(0, 0)]).state()
    roll(s, 7)
    assert moves(s, "pirate") and moves(s, "robber")


@rule(CL, "item limited \"only a player who trades with a village, as on a 7\" default",
      option="knight_pirate=limited")
def test_cloth_the_same_limit_for_a_knight():
    """A Knight moves the pirate only for a player who trades with a village."""
    g = cloth()
    s = position(g).cards(0, held={"knight": 1}).state()
    act(s, A.PlayCard("knight"))
    assert not moves(s, "pirate")


@rule(CL, "item anyone \"anyone (the seed names the limit only for the 7)\"", alternative="knight_pirate=anyone")
def test_cloth_a_knight_moves_the_pirate_for_anyone_by_option():
    """With the option `anyone`, a Knight moves the pirate for any player; the 7 keeps the
    limit."""
    g = cloth(knight_pirate="anyone")
    s = position(g).cards(0, held={"knight": 1}).state()
    act(s, A.PlayCard("knight"))
    assert moves(s, "pirate")
    s = position(g).state()
    roll(s, 7)
    assert not moves(s, "pirate")


@rule(CL, "takes resource or cloth", after="piece pirate {")
@pytest.mark.parametrize("what", ["resource", "cloth"])
def test_cloth_the_pirate_takes_a_card_or_a_cloth(what):
    """The pirate's mover takes from a player with a ship beside it either a resource card or
    a cloth, as the mover chooses."""
    g = cloth()
    pos = stocks(position(g), {x.index: 5 for x in villages(g)}, {1: 2}, partners=[(0, 0)])
    s = pos.place(1, "ship", (5, 4, "NE")).hand(1, ore=1).state()
    roll(s, 7)
    act(s, A.Move("pirate", hexid(g, 5, 4)), A.Steal(1))
    assert set(legal(s)) == {A.Take("resource"), A.Take("cloth")}
    act(s, A.Take(what))
    if what == "resource":
        act(s, A.Stolen("ore"))
    assert (held(s, 0, "cloth"), s.hands[0][4]) == ((1, 0) if what == "cloth" else (0, 1))


def _ending(g, cards: dict[int, int], cloth_held: dict[int, int], seat_2: str = "settlement"):
    """Four villages with cloth, V with its last one for seat 3; seat 1 a settlement, seat 2
    a `seat_2`; seat 0 rolls V's 11."""
    pos = stocks(position(g), {v(g): 1, 0: 5, 1: 5, 3: 5}, cloth_held, partners=[(v(g), 3)])
    pos.place(1, "settlement", (3, 7, "S")).place(2, seat_2, (-1, 7, "S"))
    for p, n in cards.items():
        pos.hand(p, ore=n)
    s = pos.state()
    roll(s, 11)
    return s


@rule(CL, "end_game(\"villages_depleted\")", after="on dice_rolled if roll != 7 {")
def test_cloth_the_game_ends_when_three_villages_have_cloth():
    """The game also ends as soon as fewer than 4 villages have cloth left; then the player
    with the most points wins."""
    g = cloth()
    s = _ending(g, {}, {}, seat_2="city")
    assert s.is_terminal() and s.reason == "villages_depleted" and s.winner == 2
    s = stocks(position(g), {v(g): 2, 0: 5, 1: 5, 3: 5}, partners=[(v(g), 3)]).state()
    roll(s, 11)
    assert not s.is_terminal()  # V keeps a cloth: still 4 villages with cloth


@rule(CL, "item seed \"most resource cards, then most cloth (the seed)\" default", option="tie=seed")
def test_cloth_a_tie_goes_to_most_resource_cards_then_most_cloth():
    """Equal points at that end: the most resource cards win, then the most cloth, and players
    equal in all share the victory."""
    s = _ending(cloth(), {}, {})
    assert s.winners == [1, 2]  # all equal: they share it
    s = _ending(cloth(), {1: 3, 2: 1}, {2: 1})
    assert s.winner == 1


@rule(CL, "item cloth \"most cloth (JSettlers2)\"", alternative="tie=cloth")
def test_cloth_a_tie_goes_to_most_cloth_by_option():
    """With the option `cloth`, equal points at that end go to the most cloth."""
    s = _ending(cloth(tie="cloth"), {1: 3, 2: 1}, {2: 1})
    assert s.winner == 2
