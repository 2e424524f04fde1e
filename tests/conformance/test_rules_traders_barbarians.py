"""Traders & Barbarians (stdlib/traders_barbarians.catan and the scenario
scenarios/traders_barbarians/traders_and_barbarians.catan) for 3 players.

The board: the castle (0,-2) top left, the quarry (2,0) right, the glassworks (-2,2)
bottom left; the barbarians start on the paths (1,-1) NE, (-1,0) W and (0,2) NW. The
six sides of the centre hex (0,0), RING, touch no trade hex and hold no barbarian: the
wagon's road. A wagon on APPROACH, the path between (-1,-1) and (0,-1), is one step from
the castle's spur to its south corner.
"""

from __future__ import annotations

from collections import Counter

import pytest

from catandsl.engine import actions as A
from catandsl.rules.dice import RuleRoll
from catandsl.rules.draws import DrawToken
from catandsl.rules.travel import STOPPED, Travel
from tests.conformance.catalog import rule
from tests.conformance.play import act, builds, hand, held, holder, legal, moves, of_kind, refused, roll, sites_of
from tests.conformance.positions import TB, game, left, main, position, step, wagon, wins_at
from tests.conformance.sites import HUB_AT, corner, hexid, ring, side, spur

RULES = "stdlib/traders_barbarians.catan"
MAP = TB
APPROACH = (0, -1, "W")
BARBARIANS = [(1, -1, "NE"), (-1, 0, "W"), (0, 2, "NW")]
GOODS = ("sand", "tools", "marble", "glass")


def tb(players: int = 3, **options):
    return game(TB, players, **options)


def load(s, seat: int = 0) -> dict[str, int]:
    return {t: held(s, seat, t) for t in GOODS if held(s, seat, t)}


def play_setup(g):
    """Play the set-up with the first legal action, but every settlement and city on an
    inland intersection (three land hexes, none a trade hex): (seat, build) in order."""
    b = g.board
    s = g.new_initial_state()
    act(s, A.StartPlayer(0))
    done = []
    while s.stage == "setup" and s.current_player() >= 0:
        options = legal(s)
        inland = [a for a in options if isinstance(a, A.Build) and a.piece in ("settlement", "city")
                  and all(g.board.terrain(h) not in ("sea", *HUB_AT) for h in b.corner_hexes[a.at])
                  and len(b.corner_hexes[a.at]) == 3]
        a = inland[0] if inland else options[0]
        done.append((s.current_player(), a))
        act(s, a)
    return s, done


# ---- the board and the dice (F.2, F.3, F.5) ---------------------------------------------------------


@rule(RULES, "victory 13")
def test_tb_thirteen_points_win():
    """13 victory points win, in the player's own turn."""
    wins_at(tb(), 13)


@rule(RULES, "dice 2d6 { reroll 2, 12 }")
def test_tb_a_two_or_a_twelve_is_rolled_again():
    """A 2 or a 12 is rolled again: those totals never come up, the others keep their odds."""
    s = position(tb()).state()
    odds = {s.game.actions[a].total: p for a, p in s.chance_outcomes()}
    assert set(odds) == {3, 4, 5, 6, 7, 8, 9, 10, 11} and odds[7] == pytest.approx(6 / 34)


@rule(RULES, "without robber")
def test_tb_no_robber_and_no_longest_road():
    """The robber and Longest Road are out of the game."""
    g = tb()
    assert "robber" not in g.piece_index and [a.name for a in g.awards] == ["largest_army"]


@rule(MAP, "pool land shuffled [forest x4, pasture x3, fields x3, hills x3, mountains x3]")
def test_tb_sixteen_terrain_hexes_and_three_trade_hexes():
    """The island is 16 terrain hexes (4 forest, 3 pasture, 3 fields, 3 hills, 3 mountains: no
    desert) and the three trade hexes on corners of the outer ring."""
    for seed in (1, 2):
        b = game(TB, 3, seed).board
        kinds = Counter(b.terrain(h) for h in range(len(b.hexes)) if not b.hex_water[h])
        assert kinds == {"forest": 4, "pasture": 3, "fields": 3, "hills": 3, "mountains": 3,
                         "castle": 1, "quarry": 1, "glassworks": 1}
        assert {b.terrain(b.hex_id(*at)) for at in HUB_AT.values()} == set(HUB_AT)


@rule(MAP, "A 5, C 6, D 3, E 8")
def test_tb_sixteen_numbers_without_2_and_12():
    """The 16 terrain hexes take the base game's numbers but the 2 and the 12; the trade hexes
    take none."""
    b = tb().board
    assert Counter(n for n in b.hex_number if n) == dict.fromkeys((3, 4, 5, 6, 8, 9, 10, 11), 2)
    assert all(b.hex_number[b.hex_id(*at)] == 0 for at in HUB_AT.values())


@rule(RULES, "terrain castle     { hub }")
def test_tb_trade_hexes_produce_nothing():
    """Trade hexes produce nothing: a settlement beside one collects only from its other hexes."""
    g = tb()
    for total in (3, 4, 5, 6, 8, 9, 10, 11):
        s = position(g).place(1, "settlement", (0, -2, "SE")).state()  # castle, (1,-2), (0,-1)
        roll(s, total)
        paid = sum(1 for h in (hexid(g, 1, -2), hexid(g, 0, -1)) if g.board.hex_number[h] == total)
        assert sum(s.hands[1]) == paid


@rule(RULES, "no building", after="site castle_stack {")
def test_tb_nothing_is_built_on_a_trade_hex_centre():
    """No settlement or city stands on a trade hex's centre point."""
    g = tb()
    centres = {corner(g, *at, "C") for at in HUB_AT.values()}
    for piece in ("settlement", "city"):
        assert not centres & g.pieces[g.piece_index[piece]].allowed_set


@rule(RULES, "on path where land(at) and not sea_side(at)", after="piece road {")
def test_tb_roads_on_the_spurs_but_not_on_the_sea_sides():
    """Roads may be built on a trade hex's spurs, from its land corners, by the usual rules;
    never on a side where a trade hex meets the sea."""
    g = tb()
    s = main(position(g).place(0, "settlement", (0, -2, "SW")).hand(0, brick=1, lumber=1)).state()
    assert spur(g, "castle", "SW") in builds(s, "road")
    assert side(g, 0, -2, "W") not in builds(s, "road")
    refused(s, A.Build("road", side(g, 0, -2, "W")))


@rule(MAP, "start barbarian at [(1, -1) NE, (0, 1) SE, (-1, 0) W]",
      fixed="the rulebook shows the starting paths only in a picture no source describes; the map "
            "states these as data a scenario may change")
def test_tb_three_barbarians_start_on_their_paths():
    """Three barbarians start on paths of the middle ring, half-way between the trade hexes."""
    g = tb()
    assert sorted(sites_of(g.new_initial_state(), "barbarian")) == sorted(side(g, *p) for p in BARBARIANS)


@rule(RULES, "stock sand 6", after="site castle_stack {")
def test_tb_each_trade_hex_has_its_stack_of_goods():
    """Each trade hex has a face-down stack of 12 goods: the castle 6 sand and 6 tools, the
    quarry 6 sand and 6 marble, the glassworks 6 glass and 6 tools."""
    g = tb()
    s = position(g).state()
    stacks = [{t: n for t, n in zip(g.token_names, row) if n} for row in s.token_stock]
    assert stacks == [{"sand": 6, "tools": 6}, {"sand": 6, "marble": 6}, {"glass": 6, "tools": 6}]


# ---- the set-up (F.4) ------------------------------------------------------------------------------


@rule(RULES, "place city new")
def test_tb_the_second_round_places_a_city():
    """In the set-up each player places a settlement and a road, then (in reverse order) a city
    instead of a second settlement, and a road."""
    g = tb()
    s, done = play_setup(g)
    pieces = [(p, a.piece) for p, a in done if a.piece in ("settlement", "city")]
    assert pieces == [(0, "settlement"), (1, "settlement"), (2, "settlement"),
                      (2, "city"), (1, "city"), (0, "city")]
    assert all(s.placed[p][g.piece_index["road"]] == 2 for p in range(3))


@rule(RULES, "collect last")
def test_tb_the_setup_city_collects_one_card_a_hex():
    """The set-up city collects one card for each terrain hex beside it, not two."""
    g = tb()
    s, done = play_setup(g)
    for p, a in done:
        if a.piece == "city":
            owed = Counter(g.resources[g.hex_resource[h]] for h in g.board.corner_hexes[a.at] if g.hex_resource[h] >= 0)
            assert hand(s, p) == {r: owed[r] for r in g.resources}


@rule(RULES, "place wagon touching last")
def test_tb_the_wagon_starts_beside_the_city():
    """After the city, the player puts the wagon on a path touching it."""
    g = tb()
    s, done = play_setup(g)
    cities = {p: a.at for p, a in done if a.piece == "city"}
    assert sorted(e.player for e in s.travellers) == [0, 1, 2]
    for p, _, at, *_ in s.travellers:
        assert cities[p] in g.board.path_ends[at]


@rule(RULES, "give_tokens(p, gold, 5)")
def test_tb_five_gold_and_a_level_one_wagon_each():
    """Each player starts with 5 gold and a wagon of level 1."""
    s, _ = play_setup(tb())
    assert [(held(s, p, "gold"), held(s, p, "level")) for p in range(3)] == [(5, 1)] * 3


# ---- the barbarians and the 7 (F.5, F.9) --------------------------------------------------------------


@rule(RULES, "move_piece(player, [barbarian])", after="rule seven {")
def test_tb_a_seven_moves_a_barbarian_to_a_free_path():
    """On a 7, after the discards, the roller moves one of the barbarians to another path
    without a barbarian (never onto a trade hex's spur)."""
    g = tb()
    s = position(g).hand(1, ore=8).state()
    roll(s, 7)
    assert s.current_player() == 1
    act(s, *[A.Discard("ore")] * 4)
    targets = moves(s, "barbarian")
    taken = {side(g, *p) for p in BARBARIANS}
    spurs = {k for k, p in enumerate(g.board.paths) if p[2].startswith("C-")}
    assert targets and not targets & taken and not targets & spurs
    assert {a.src for a in of_kind(s, A.Move)} == taken


@rule(RULES, "steals from road")
def test_tb_a_barbarian_on_a_road_robs_its_owner():
    """If the moved barbarian lands on another player's road, the mover steals a random
    resource card from that player; on an empty path, or the mover's own road, nobody."""
    g = tb()
    road = ring(g, 0, 0)[0]
    pos = position(g).place(1, "road", road).place(0, "road", ring(g, 0, 0)[2]).hand(1, ore=1).hand(0, wool=1)
    s = pos.state()
    roll(s, 7)
    act(s, A.Move("barbarian", road, side(g, *BARBARIANS[0])))
    assert legal(s) == [A.Steal(1)]
    act(s, A.Steal(1), A.Stolen("ore"))
    assert hand(s, 0)["ore"] == 1
    for onto in (ring(g, 0, 0)[2], ring(g, 0, 0)[4]):
        s = pos.state()
        roll(s, 7)
        act(s, A.Move("barbarian", onto, side(g, *BARBARIANS[0])))
        assert not of_kind(s, A.Steal) and A.EndTurn() in legal(s)


@rule(RULES, "discard_half(7)", after="rule seven {")
def test_tb_gold_and_goods_are_not_cards():
    """Gold and goods are tokens, not cards: they do not count toward the 7 cards."""
    g = tb()
    s = wagon(g, ring(g, 0, 0)[0], seat=1, sand=1).hand(1, ore=7).tokens(1, gold=20).turn(0, rolled=False).state()
    roll(s, 7)
    assert s.current_player() == 0 and of_kind(s, A.Move)


@rule(RULES, "card knight 16")
def test_tb_a_knight_moves_a_barbarian_and_robs():
    """A Knight moves one barbarian to a free path, and robs the owner of the road it lands on."""
    g = tb()
    road = ring(g, 0, 0)[0]
    s = position(g).place(2, "road", road).hand(2, grain=2).cards(0, held={"knight": 1}).state()
    act(s, A.PlayCard("knight"))
    assert {a.piece for a in of_kind(s, A.Move)} == {"barbarian"}
    act(s, A.Move("barbarian", road, side(g, *BARBARIANS[1])), A.Steal(2), A.Stolen("grain"))
    assert hand(s, 0)["grain"] == 1 and hand(s, 2)["grain"] == 1


@rule(RULES, "blocks road")
def test_tb_no_road_under_a_barbarian():
    """No road is built on a path with a barbarian; a road already there stays."""
    g = tb()
    b0 = side(g, *BARBARIANS[0])
    end = g.board.path_ends[b0][0]
    s = main(position(g).place(0, "settlement", end).hand(0, brick=1, lumber=1)).state()
    assert b0 not in builds(s, "road")
    refused(s, A.Build("road", b0))
    s = position(g).place(1, "road", b0).state()  # a barbarian on a road: both stay
    assert s.path_owner[b0] == 1 and b0 in sites_of(s, "barbarian")


@rule(RULES, "blocks road")
def test_tb_barbarians_block_no_production():
    """Barbarians never stop a hex from producing."""
    g = tb()
    h = hexid(g, 1, -1)  # the first barbarian stands on its north-east side
    s = position(g).place(1, "settlement", (1, -1, "N")).state()
    roll(s, g.board.hex_number[h])
    assert hand(s, 1)[g.resources[g.hex_resource[h]]] >= 1


# ---- the wagon (F.6, F.7) ------------------------------------------------------------------------------


@rule(RULES, "points nth([4, 5, 6, 7, 7], tokens(player, level))")
@pytest.mark.parametrize("level, points", [(1, 4), (2, 5), (3, 6), (4, 7), (5, 7)])
def test_tb_the_wagon_moves_by_its_levels_points(level, points):
    """Each turn the wagon has the moving points of its level: 4, 5, 6, 7 and 7 for levels 1
    to 5."""
    g = tb()
    r = ring(g, 0, 0)
    s = wagon(g, r[0], level=level).state()
    step(s, r[0], r[1])  # a path without a road: 2
    assert left(s) == points - 2


@rule(RULES, "step_cost sum_of([if_else(occupied(at) and not damaged_at(at), 1, 2),")
def test_tb_a_path_costs_two_without_a_road_and_one_on_the_own_road():
    """Entering a path without a road costs 2 moving points, one with the player's own road 1."""
    g = tb()
    r = ring(g, 0, 0)
    s = wagon(g, r[0]).place(0, "road", r[2]).state()
    step(s, r[0], r[1])
    assert left(s) == 2
    step(s, r[1], r[2])
    assert left(s) == 1


@rule(RULES, "pay_tokens(player, owner(at), gold, 1)")
def test_tb_another_players_road_costs_one_and_a_gold_toll():
    """Entering another player's road costs 1 moving point and 1 gold paid to its owner."""
    g = tb()
    r = ring(g, 0, 0)
    s = wagon(g, r[0]).place(1, "road", r[1]).place(1, "road", r[2]).state()
    step(s, r[0], r[1], r[2])
    assert left(s) == 2 and held(s, 0, "gold") == 3 and held(s, 1, "gold") == 7


@rule(RULES, "enter where (not occupied(at) or owner(at) == player or tokens(player, gold) > 0")
def test_tb_no_gold_no_entry_onto_another_players_road():
    """A wagon without gold for the toll may not enter another player's road."""
    g = tb()
    r = ring(g, 0, 0)
    s = wagon(g, r[0], gold=0).place(1, "road", r[1]).state()
    assert Travel("wagon", r[0], r[1]) not in legal(s)
    refused(s, Travel("wagon", r[0], r[1]))


@rule(RULES, "if_else(neutral_on(at, barbarian) > 0, 2, 0)])")
def test_tb_a_barbarian_costs_two_more():
    """A barbarian on a path costs 2 more moving points: 4 over an empty path, 3 over the own
    road."""
    g = tb()
    r = ring(g, 0, 0)
    pos = wagon(g, r[0], level=4).neutral("barbarian", r[1], *[side(g, *p) for p in BARBARIANS[1:]])
    s = pos.state()
    step(s, r[0], r[1])
    assert left(s) == 7 - 4
    s = pos.place(0, "road", r[1]).state()
    step(s, r[0], r[1])
    assert left(s) == 7 - 3


@rule(RULES, "step_cost sum_of([if_else(occupied(at) and not damaged_at(at), 1, 2),")
def test_tb_a_step_is_paid_in_full():
    """A step needs all its moving points: with 1 point left the wagon cannot enter an empty
    path, and the unused point is lost."""
    g = tb()
    r = ring(g, 0, 0)
    s = wagon(g, r[0], level=2).state()
    step(s, r[0], r[1], r[2])
    assert left(s) == 1 and not of_kind(s, Travel)
    refused(s, Travel("wagon", r[2], r[3]))


@rule(RULES, "points nth([4, 5, 6, 7, 7], tokens(player, level))")
def test_tb_unused_points_are_lost():
    """Moving points not used in a turn are lost: the next turn starts again from the level's."""
    g = tb()
    r = ring(g, 0, 0)
    s = wagon(g, r[0]).state()
    step(s, r[0], r[1])
    act(s, A.EndTurn())
    for _ in range(3):
        roll(s, 3)
        if s.turn_player != 0:
            act(s, A.EndTurn())
    step(s, r[1], r[2])
    assert left(s) == 2


@rule(RULES, "on path where land(at)", after="piece wagon {")
def test_tb_wagons_share_paths():
    """Several wagons may stand on one path."""
    g = tb()
    r = ring(g, 0, 0)
    s = wagon(g, r[0]).place(1, "wagon", r[1]).state()
    step(s, r[0], r[1])
    assert sorted(e.path for e in s.travellers) == [r[1], r[1]]


@rule(RULES, "add_travel_points(player, wagon, 2)")
def test_tb_grain_buys_two_moving_points_once_a_turn():
    """Once a turn the player may pay 1 grain for 2 more moving points."""
    g = tb()
    r = ring(g, 0, 0)
    s = wagon(g, r[0]).hand(0, grain=2).state()
    act(s, A.TakeAction("boost"))
    assert left(s) == 6 and hand(s, 0)["grain"] == 1
    assert A.TakeAction("boost") not in legal(s)
    refused(s, A.TakeAction("boost"))


@rule(RULES, "stop where spur(at)")
def test_tb_reaching_a_trade_hex_ends_the_move():
    """Entering a trade hex's centre (by one of its spurs) ends the wagon's move this turn; it
    may leave the next turn."""
    g = tb()
    s = wagon(g, APPROACH, sand=1).state()  # a load the castle does not take: nothing to draw
    step(s, APPROACH, spur(g, "castle", "S"))
    assert s.travellers[0].left == STOPPED and not of_kind(s, Travel)
    act(s, A.EndTurn())
    for total in (3, 4, 5):  # the others' turns, then seat 0's again
        roll(s, total)
        if s.turn_player != 0:
            act(s, A.EndTurn())
    step(s, spur(g, "castle", "S"), APPROACH)  # it leaves the next turn
    assert left(s) == 2


# ---- goods and deliveries (F.8) ---------------------------------------------------------------------------


@rule(RULES, "let good = draw_from_site(c)", after="define deliver(")
def test_tb_the_first_arrival_draws_a_load_and_earns_no_gold():
    """An empty wagon reaching a trade hex draws the top good of its stack, unseen until then,
    as its load; it earns no gold."""
    g = tb()
    s = wagon(g, APPROACH).state()
    step(s, APPROACH, spur(g, "castle", "S"))
    odds = {s.game.actions[a].token: p for a, p in s.chance_outcomes()}
    assert odds == pytest.approx({"sand": 0.5, "tools": 0.5})
    act(s, DrawToken("tools"))
    assert load(s) == {"tools": 1} and held(s, 0, "gold") == 5 and s.token_stock[0][g.token_index["tools"]] == 5


@rule(RULES, "give_tokens(player, gold, nth([1, 2, 3, 4, 5], tokens(player, level)))", after="define pay_delivery(")
@pytest.mark.parametrize("level", [1, 2, 3, 4, 5])
def test_tb_a_delivery_scores_a_point_pays_gold_by_level_and_loads_again(level):
    """Delivering a good to a trade hex that takes it: the good lies face down for 1 victory
    point, the wagon's level pays 1 to 5 gold, and the wagon draws its next load from this
    hex's stack."""
    g = tb()
    s = wagon(g, APPROACH, level=level, glass=1).state()
    points = s.points(0)
    step(s, APPROACH, spur(g, "castle", "S"))
    assert held(s, 0, "delivered") == 1 and held(s, 0, "gold") == 5 + level and not load(s)
    act(s, DrawToken("sand"))
    assert load(s) == {"sand": 1} and s.points(0) == points + 1


@rule(RULES, "rule castle_trade {")
@pytest.mark.parametrize("good, taken", [("glass", True), ("marble", True), ("sand", False), ("tools", False)])
def test_tb_the_castle_takes_glass_and_marble(good, taken):
    """The castle takes glass and marble."""
    _delivers("castle", "S", APPROACH, good, taken)


@rule(RULES, "rule quarry_trade {")
@pytest.mark.parametrize("good, taken", [("glass", True), ("tools", True), ("sand", False), ("marble", False)])
def test_tb_the_quarry_takes_glass_and_tools(good, taken):
    """The marble quarry takes glass and tools."""
    _delivers("quarry", "NW", (1, 0, "NE"), good, taken)


@rule(RULES, "rule glassworks_trade {")
@pytest.mark.parametrize("good, taken", [("sand", True), ("marble", True), ("glass", False), ("tools", False)])
def test_tb_the_glassworks_takes_sand_and_marble(good, taken):
    """The glassworks takes sand and marble."""
    _delivers("glassworks", "N", (-1, 1, "W"), good, taken)


def _delivers(hub: str, to: str, before, good: str, taken: bool) -> None:
    g = tb()
    s = wagon(g, before, **{good: 1}).state()
    step(s, before, spur(g, hub, to))
    assert held(s, 0, "delivered") == int(taken) and (good in load(s)) == (not taken)


@rule(RULES, "} else if tokens(player, second) > 0 {", after="define deliver(")
def test_tb_a_load_the_hex_does_not_take_stays_and_nothing_more_is_drawn():
    """A wagon carries one good: at a trade hex that does not take its load it keeps the load
    and draws nothing."""
    g = tb()
    s = wagon(g, APPROACH, sand=1).state()
    stock = list(s.token_stock[0])
    step(s, APPROACH, spur(g, "castle", "S"))
    assert load(s) == {"sand": 1} and not s.is_chance_node() and s.token_stock[0] == stock


@rule(RULES, "tokens(player, marble), tokens(player, glass)]) == 0 {", after="define deliver(",
      fixed="no source says what an empty stack does, and none proposes another reading")
def test_tb_an_empty_stack_leaves_the_wagon_unloaded():
    """When the hex's stack is empty, the wagon stays unloaded and must load elsewhere."""
    g = tb()
    pos = wagon(g, APPROACH, glass=1)
    now = pos.state()
    rows, supply = now.token_stock, now.token_supply
    for t in range(len(g.token_names)):
        supply[t] += rows[0][t]
        rows[0][t] = 0
    s = pos.edit(token_stock=rows, token_supply=supply).state()
    step(s, APPROACH, spur(g, "castle", "S"))
    assert held(s, 0, "delivered") == 1 and not load(s) and not s.is_chance_node()


# ---- wagon levels (F.6) ----------------------------------------------------------------------------------


@rule(RULES, "cost lumber + ore + wool")
def test_tb_upgrades_to_levels_2_and_3_cost_lumber_ore_and_wool():
    """Raising the wagon to level 2 or 3 costs 1 lumber, 1 ore and 1 wool."""
    g = tb()
    for level in (1, 2):
        s = wagon(g, ring(g, 0, 0)[0], level=level).hand(0, lumber=1, ore=1, wool=1).state()
        act(s, A.TakeAction("upgrade"))
        assert held(s, 0, "level") == level + 1 and sum(s.hands[0]) == 0
    s = wagon(g, ring(g, 0, 0)[0], level=1).hand(0, lumber=1, ore=1).state()
    refused(s, A.TakeAction("upgrade"))


@rule(RULES, "cost 2 lumber + ore + wool")
def test_tb_upgrades_to_levels_4_and_5_cost_two_lumber_ore_and_wool():
    """Raising the wagon to level 4 or 5 costs 2 lumber, 1 ore and 1 wool."""
    g = tb()
    for level in (3, 4):
        s = wagon(g, ring(g, 0, 0)[0], level=level).hand(0, lumber=3, ore=1, wool=1).state()
        assert A.TakeAction("upgrade") not in legal(s)  # the cheaper upgrade is for levels 2 and 3
        act(s, A.TakeAction("upgrade_far"))
        assert held(s, 0, "level") == level + 1 and hand(s, 0) == dict(hand(s, 0), lumber=1, ore=0, wool=0)
    s = wagon(g, ring(g, 0, 0)[0], level=5).hand(0, lumber=2, ore=1, wool=1).state()
    assert not {A.TakeAction("upgrade"), A.TakeAction("upgrade_far")} & set(legal(s))  # 5 is the top


@rule(RULES, "item several 4 \"as many as the player pays for, one level each\" default",
      option="upgrades_per_turn=several")
def test_tb_several_upgrades_a_turn_one_level_at_a_time():
    """Levels go up one at a time, several in one turn when each is paid."""
    g = tb()
    s = wagon(g, ring(g, 0, 0)[0]).hand(0, lumber=6, ore=4, wool=4).state()
    act(s, *[A.TakeAction("upgrade")] * 2, *[A.TakeAction("upgrade_far")] * 2)
    assert held(s, 0, "level") == 5 and sum(s.hands[0]) == 0


@rule(RULES, "item one 1 \"one a turn\"", alternative="upgrades_per_turn=one")
def test_tb_one_upgrade_a_turn_by_option():
    """With the option `one`, the wagon goes up one level a turn, whichever upgrade it is."""
    g = tb(upgrades_per_turn="one")
    for level, first, second in ((1, "upgrade", "upgrade"), (2, "upgrade", "upgrade_far")):
        s = wagon(g, ring(g, 0, 0)[0], level=level).hand(0, lumber=6, ore=4, wool=4).state()
        act(s, A.TakeAction(first))
        assert held(s, 0, "level") == level + 1
        refused(s, A.TakeAction(second))
        act(s, A.EndTurn())
        for total in (5, 9):  # the next players' turns, then seat 0's again
            roll(s, total)
            act(s, A.EndTurn())
        roll(s, 5)
        act(s, A.TakeAction(second))
        assert held(s, 0, "level") == level + 2


@rule(RULES, "points 1 per 5")
def test_tb_level_five_is_worth_a_point():
    """A wagon at level 5 is worth 1 victory point."""
    g = tb()
    s = wagon(g, ring(g, 0, 0)[0], level=4).hand(0, lumber=2, ore=1, wool=1).state()
    before = s.points(0)
    act(s, A.TakeAction("upgrade_far"))
    assert s.points(0) == before + 1


@rule(RULES, "item before_move \"after trading and building, before the wagon moves (the seed)\" default",
      option="upgrade_timing=before_move")
def test_tb_upgrades_after_building_then_the_move():
    """After trading and building come the upgrades, then the wagon's move; an upgrade bought
    this turn already gives its points, and nothing is traded, built or upgraded once the
    wagon moved."""
    g = tb()
    r = ring(g, 0, 0)
    s = wagon(g, r[0]).place(0, "settlement", (0, 0, "N")).hand(0, brick=5, lumber=3, ore=2, wool=2).state()
    act(s, A.TakeAction("upgrade"))
    assert not {a for a in legal(s) if isinstance(a, (A.Build, A.BankTrade))}  # building is over
    step(s, r[0], r[1])
    assert left(s) == 5 - 2
    assert A.TakeAction("upgrade") not in legal(s) and not of_kind(s, A.Build)  # all still affordable


@rule(RULES, "item with_building \"while trading and building (a secondary source)\"",
      alternative="upgrade_timing=with_building")
def test_tb_upgrades_while_building_by_option():
    """With the option `with_building`, the wagon is upgraded while trading and building, in
    any order with them; the move still comes last."""
    g = tb(upgrade_timing="with_building")
    r = ring(g, 0, 0)
    s = wagon(g, r[0]).place(0, "settlement", (0, 0, "N")).hand(0, brick=5, lumber=3, ore=2, wool=2).state()
    act(s, A.TakeAction("upgrade"), A.Build("road", r[0]), A.TakeAction("upgrade"))
    assert held(s, 0, "level") == 3 and A.BankTrade("brick", "ore") in legal(s)
    step(s, r[0], r[1])
    assert left(s) == 6 - 2 and not of_kind(s, A.Build) and not of_kind(s, A.BankTrade)


@rule(RULES, "item after_move \"after the wagon's move\"", alternative="upgrade_timing=after_move")
def test_tb_upgrades_after_the_move_by_option():
    """With the option `after_move`, the wagon moves first and is upgraded after: an upgrade
    bought this turn gives its points only the next turn."""
    g = tb(upgrade_timing="after_move")
    r = ring(g, 0, 0)
    s = wagon(g, r[0]).place(0, "settlement", (0, 0, "N")).hand(0, brick=5, lumber=3, ore=2, wool=2).state()
    assert A.TakeAction("upgrade") in legal(s) and A.Build("road", r[0]) in legal(s)
    step(s, r[0], r[1])
    assert left(s) == 4 - 2
    act(s, A.TakeAction("upgrade"))
    assert held(s, 0, "level") == 2 and not of_kind(s, Travel)  # the move is over


# ---- the chase (F.7) -------------------------------------------------------------------------------------


def _chaser(level: int):
    """Seat 0's wagon of `level` on the path beside the barbarian on (0,2) NW, in front of it."""
    g = tb()
    return g, wagon(g, (0, 1, "E"), level=level).state()


@rule(RULES, "on take if tokens(player, level) >= 2 and neutral_next_to(traveller_at(player, wagon), barbarian) > 0 {")
def test_tb_a_chase_needs_level_two_and_a_barbarian_in_front():
    """From level 2 a wagon standing in front of a barbarian may try to chase it; at level 1,
    or with no barbarian in front, it cannot."""
    g, s = _chaser(1)
    assert A.TakeAction("chase") not in legal(s)
    g, s = _chaser(2)
    assert A.TakeAction("chase") in legal(s)
    s = wagon(g, ring(g, 0, 0)[0], level=2).state()
    assert A.TakeAction("chase") not in legal(s)


@rule(RULES, "item one 1 \"one die (the table's numbers are at most 6)\" default", option="chase_dice=one")
@pytest.mark.parametrize("level, least", [(2, 6), (3, 5), (4, 4), (5, 3)])
def test_tb_a_chase_succeeds_on_one_die_by_level(level, least):
    """A chase rolls one die: it succeeds on a 6 at level 2, 5 or more at 3, 4 or more at 4 and
    3 or more at 5; then the player moves that barbarian to another free path."""
    g = tb()
    b2 = side(g, *BARBARIANS[2])
    for die in (least - 1, least):
        _, s = _chaser(level)
        act(s, A.TakeAction("chase"))
        odds = {s.game.actions[a].total for a, _ in s.chance_outcomes()}
        assert odds == {1, 2, 3, 4, 5, 6}
        act(s, RuleRoll(die))
        chased = of_kind(s, A.Move)
        assert bool(chased) == (die >= least)
        assert all(m.src == b2 and m.at not in {side(g, *p) for p in BARBARIANS} for m in chased)


@rule(RULES, "item two 2 \"two dice against the same numbers\"", alternative="chase_dice=two")
def test_tb_a_chase_rolls_two_dice_by_option():
    """With the option `two`, a chase rolls two dice against the same numbers."""
    g = tb(chase_dice="two")
    s = wagon(g, (0, 1, "E"), level=2).state()
    act(s, A.TakeAction("chase"))
    odds = {s.game.actions[a].total: p for a, p in s.chance_outcomes()}
    assert set(odds) == set(range(2, 13)) and odds[7] == pytest.approx(6 / 36)
    act(s, RuleRoll(5))
    assert not of_kind(s, A.Move)
    s = wagon(g, (0, 1, "E"), level=2).state()
    act(s, A.TakeAction("chase"), RuleRoll(9))
    assert {m.src for m in of_kind(s, A.Move)} == {side(g, *BARBARIANS[2])}


@rule(RULES, "relocate_from(player, [barbarian], next_paths(traveller_at(player, wagon)))")
def test_tb_after_a_chase_the_wagon_passes_without_the_surcharge():
    """Once a chase has moved the barbarian away, the wagon crosses its path at the usual cost."""
    g, s = _chaser(3)
    b2 = side(g, *BARBARIANS[2])
    act(s, A.TakeAction("chase"), RuleRoll(6))
    act(s, A.Move("barbarian", ring(g, 0, 0)[0], b2))
    step(s, (0, 1, "E"), BARBARIANS[2])
    assert left(s) == 6 - 2


@rule(RULES, "per_turn 1", after="action chase ")
def test_tb_one_chase_a_turn_and_a_failed_one_leaves_the_barbarian():
    """A player tries at most one chase a turn; after a failed one the barbarian stays and the
    wagon may still pay the 2 more points to pass it."""
    g, s = _chaser(3)
    act(s, A.TakeAction("chase"), RuleRoll(1))
    assert side(g, *BARBARIANS[2]) in sites_of(s, "barbarian")
    assert A.TakeAction("chase") not in legal(s)
    step(s, (0, 1, "E"), BARBARIANS[2])
    assert left(s) == 6 - 4


# ---- gold, cards (F.10, F.11) ----------------------------------------------------------------------------


@rule(RULES, "action buy_with_gold")
def test_tb_two_gold_buy_a_resource_twice_a_turn():
    """A player may pay the bank 2 gold for 1 resource of choice, at most twice a turn."""
    g = tb()
    s = wagon(g, ring(g, 0, 0)[0], gold=10).state()
    for _ in range(2):
        act(s, A.TakeAction("buy_with_gold"), A.ChooseResource("brick"))
    assert hand(s, 0)["brick"] == 2 and held(s, 0, "gold") == 6
    refused(s, A.TakeAction("buy_with_gold"))


def _on_a_generic_harbor(g, gold: int):
    """Seat 0's settlement on a 3:1 harbor's intersection, `gold` gold and 3 wool."""
    harbor = next(h for h in g.board.harbors if h.type.resource is None)
    c = next(c for c in g.board.path_ends[g.board.path_id(*harbor.path)] if g.board.corner_harbor[c] >= 0)
    return wagon(g, ring(g, 0, 0)[0], gold=gold).place(0, "settlement", c).hand(0, wool=3).state()


@rule(RULES, "item resources \"resource cards only; gold buys through the 2-gold exchange (recommended)\" default",
      option="gold_trade=resources")
def test_tb_harbors_and_the_bank_take_resources_not_gold():
    """Harbors and the 4:1 bank trade take resource cards as usual; gold buys only through the
    2-gold exchange."""
    g = tb()
    s = _on_a_generic_harbor(g, 30)
    assert {(a.give, a.get) for a in of_kind(s, A.BankTrade)} == {("wool", r) for r in g.resources if r != "wool"}
    assert {a.action for a in of_kind(s, A.TakeAction)} == {"buy_with_gold"}


@rule(RULES, "item gold_too \"gold too: 4 for 1, or 3 with a 3:1 harbor\"", alternative="gold_trade=gold_too")
def test_tb_gold_trades_at_the_harbors_rates_by_option():
    """With the option `gold_too`, gold also trades at the bank's rate: 4 gold for 1 resource
    of choice, 3 with a 3:1 harbor, as often as the player pays."""
    g = tb(gold_trade="gold_too")
    s = _on_a_generic_harbor(g, 6)
    for gold in (3, 0):
        act(s, A.TakeAction("gold_at_bank_rate"), A.ChooseResource("ore"))
        assert held(s, 0, "gold") == gold
    assert hand(s, 0)["ore"] == 2 and A.TakeAction("gold_at_bank_rate") not in legal(s)
    s = wagon(g, ring(g, 0, 0)[0], gold=7).state()  # no harbor: 4 for 1
    act(s, A.TakeAction("gold_at_bank_rate"), A.ChooseResource("brick"))
    assert held(s, 0, "gold") == 3 and hand(s, 0)["brick"] == 1
    assert A.TakeAction("gold_at_bank_rate") not in legal(s)


@rule(RULES, "deck development {")
def test_tb_the_scenarios_own_deck():
    """The deck is the scenario's 25 cards: 16 Knights, 3 Road Building, 3 Swift Journey and 3
    Victory Points (no Monopoly, no Year of Plenty)."""
    g = tb()
    assert dict(zip((c.name for c in g.cards), position(g).state().deck)) == {
        "knight": 16, "road_building": 3, "swift_journey": 3, "victory_point": 3}


@rule(RULES, "item kept \"kept, as in the base game (the seed removes only Longest Road)\" default",
      option="largest_army=kept")
def test_tb_largest_army_stays():
    """Largest Army (3 Knights, 2 points) stays in the game."""
    g = tb()
    s = position(g).cards(0, played={"knight": 3}).state()
    assert holder(s, "largest_army") == 0 and s.points(0) == 2


@rule(RULES, "item removed \"taken out of the game with Longest Road\"", alternative="largest_army=removed")
def test_tb_largest_army_out_by_option():
    """With the option `removed`, Largest Army is out of the game too: Knights played score
    nothing (and with Event Cards, Conflict goes to the one player with most Knights)."""
    g = tb(largest_army="removed")
    assert not g.awards
    s = position(g).cards(0, played={"knight": 3}).state()
    assert s.points(0) == 0
    s = position(tb(largest_army="removed", event_cards="on")).cards(1, played={"knight": 3}).hand(0, ore=1).state()
    roll(s, 3, "conflict")
    assert s.current_player() == 1 and legal(s) == [A.Steal(0)]


@rule(RULES, "playable where traveled_this_turn(player, wagon)",
      fixed="the sources give the second movement no other amount than the level's full points")
def test_tb_swift_journey_after_the_move_with_full_points():
    """Swift Journey is played only after the wagon moved this turn: it moves again, with its
    level's full points."""
    g = tb()
    r = ring(g, 0, 0)
    s = wagon(g, r[0]).cards(0, held={"swift_journey": 1}).state()
    assert A.PlayCard("swift_journey") not in legal(s)
    step(s, r[0], r[1], r[2])
    assert left(s) == 0
    act(s, A.PlayCard("swift_journey"))
    assert left(s) == 4


@rule(RULES, "card road_building 3")
def test_tb_road_building_two_free_roads():
    """Road Building builds 2 roads for nothing."""
    g = tb()
    s = main(position(g).place(0, "settlement", (0, 0, "N")).cards(0, held={"road_building": 1})).state()
    act(s, A.PlayCard("road_building"), A.Build("road", ring(g, 0, 0)[0]), A.Build("road", ring(g, 0, 0)[1]))
    assert s.placed[0][g.piece_index["road"]] == 2 and sum(s.hands[0]) == 0
