"""Traders & Barbarians rules as the scenario's rulebook states them, from fixed positions
(`catandsl.position`) with forced dice: a chase never robs; a trade hex's four building
corners and its three sea sides, on which nothing stands or travels; a damaged road with
Catan for Two and the Event Cards; the grain boost at 0 points; the stop at a trade
hex's centre, which Swift Journey does not lift."""

from __future__ import annotations

from functools import cache

import pytest

import catandsl
from catandsl.engine import IllegalAction
from catandsl.engine import actions as A
from catandsl.engine.position import PositionError
from catandsl.rules import neutral
from catandsl.rules.base import paths_next_to
from catandsl.rules.dice import RuleRoll
from catandsl.rules.travel import STOPPED, Travel, travel_points

PATH = "scenarios/traders_barbarians/traders_and_barbarians.catan"
TRADE_HEXES = {"castle": (0, -2), "quarry": (2, 0), "glassworks": (-2, 2)}
BARBARIANS = [(1, -1, "NE"), (0, 1, "SE"), (-1, 0, "W")]  # where the map starts them


@cache
def game(players: int = 3, event_cards: bool = False):
    return catandsl.new_game(PATH, players, {"event_cards": "on"} if event_cards else {}, 1)


def path(g, q, r, side):
    return g.board.path_id(q, r, side)


def start(g, *, level: int = 1, gold: int = 5, wagon=(1, -1, "NW"), phase: str = "travel"):
    """Seat 0's turn in `phase`, each seat with `gold` gold and its wagon at `level`,
    seat 0's wagon on `wagon`, the barbarians where the map starts them."""
    pos = catandsl.position(g)
    for p in range(g.num_players):
        pos.tokens(p, level=level, gold=gold)
    return (pos.place(0, "wagon", path(g, *wagon))
            .neutral("barbarian", *(path(g, *x) for x in BARBARIANS)).turn(0, phase=phase))


def act(s, action, player=None):
    s.apply_action(s.game.action_id[action], player)


def legal(s):
    return [s.game.actions[a] for a in s.legal_actions()]


def trade_hex_sides(g, hub: str) -> tuple[list[int], list[int]]:
    """A trade hex's corners that touch no other land and its sides against the sea."""
    b = g.board
    h = b.hex_index[TRADE_HEXES[hub]]

    def land_besides(hexes):
        return [x for x in hexes if x != h and not b.hex_water[x]]

    corners = [c for c in b.hex_corners[h] if not land_besides(b.corner_hexes[c])]
    sides = [k for k in b.hex_paths[h] if not land_besides(b.path_hexes[k])]
    return corners, sides


# ---- a chase never robs ----------------------------------------------------------------------


def test_tb_chase_moves_barbarian_without_steal():
    """A level 2 wagon in front of a barbarian chases it on a 6: its owner puts the
    barbarian on another free path, here an opponent's road, and robs nobody (only a 7
    and a Knight rob)."""
    g = game()
    barbarian = path(g, *BARBARIANS[0])
    road = path(g, 0, 0, "NE")
    s = start(g, level=2).place(1, "road", road).hand(1, ore=1).state()
    act(s, A.TakeAction("chase"))
    act(s, RuleRoll(6))
    assert A.Move("barbarian", road, barbarian) in legal(s)
    act(s, A.Move("barbarian", road, barbarian))
    assert road in neutral.sites_of(s, g.piece_index["barbarian"])
    assert not [x for x in legal(s) if isinstance(x, (A.Steal, A.Stolen))] and not s.is_chance_node()
    assert s.hands[1] == [0, 0, 0, 0, 1] and s.hands[0] == [0] * 5


def test_tb_seven_and_knight_still_rob_from_the_road():
    """The 7 and the Knight keep their robbery: the barbarian moved onto an opponent's
    road robs its owner."""
    g = game()
    road = path(g, 0, 0, "NE")
    s = start(g, phase="main").place(1, "road", road).hand(1, ore=1).cards(0, held={"knight": 1}).state()
    act(s, A.PlayCard("knight"))
    act(s, A.Move("barbarian", road, path(g, *BARBARIANS[0])))
    assert legal(s) == [A.Steal(1)]


# ---- a trade hex's corners and sides ------------------------------------------------------------


@pytest.mark.parametrize("hub", sorted(TRADE_HEXES))
def test_tb_trade_hex_has_four_building_corners(hub):
    """Settlements and cities stand on the four corners where a trade hex meets land,
    never on its two corners against the sea alone."""
    g = game()
    b = g.board
    h = b.hex_index[TRADE_HEXES[hub]]
    sea_corners, _ = trade_hex_sides(g, hub)
    assert len(sea_corners) == 2
    allowed = g.pieces[g.piece_index["settlement"]].allowed_set
    assert len([c for c in b.hex_corners[h] if c in allowed]) == 4
    land_corner = next(c for c in b.hex_corners[h] if c not in sea_corners)
    s = start(g, phase="main").state()
    for c in sea_corners:
        with pytest.raises(PositionError) as refused:
            catandsl.position(g, s).place(0, "settlement", c, rules=True)
        assert refused.value.code == "position/illegal_place"
        assert c not in catandsl.queries.legal_places(s, 0, "settlement", "setup")
        assert c not in catandsl.queries.legal_places(s, 0, "city", "setup")
    assert land_corner in catandsl.queries.legal_places(s, 0, "settlement", "setup")


def test_tb_setup_refuses_trade_hex_sea_corner():
    """In the set-up, neither the first settlement nor the new city of round two may
    stand on a trade hex's corner against the sea; the state is unchanged after the
    refusal."""
    g = game()
    sea_corners = [c for hub in sorted(TRADE_HEXES) for c in trade_hex_sides(g, hub)[0]]
    s = g.new_initial_state()
    act(s, A.StartPlayer(0))
    for c in sea_corners:
        build = A.Build("settlement", c)
        assert build not in legal(s)
        if build in g.action_id:  # (no such action at all where no settlement ever stands)
            before = s.serialize()
            with pytest.raises(IllegalAction):
                act(s, build)
            assert s.serialize() == before
    while not any(isinstance(x, A.Build) and x.piece == "city" for x in legal(s)):
        act(s, legal(s)[0])
    cities = [x.at for x in legal(s) if isinstance(x, A.Build) and x.piece == "city"]
    assert cities and not set(cities) & set(sea_corners)


def test_tb_trade_hex_sea_edges_are_no_paths():
    """No barbarian goes onto a trade hex's side against the sea (by a 7, a Knight or a
    chase), and no wagon steps or is placed there."""
    g = game()
    sea_sides = [k for hub in sorted(TRADE_HEXES) for k in trade_hex_sides(g, hub)[1]]
    assert len(sea_sides) == 9
    wagon = g.pieces[g.piece_index["wagon"]]
    barbarian = g.pieces[g.piece_index["barbarian"]]
    assert not set(sea_sides) & (wagon.allowed_set | barbarian.allowed_set)
    s = start(g, phase="roll").state()
    if not s.is_chance_node():
        act(s, A.RollDice())
    act(s, A.Roll(7))
    moves = [x for x in legal(s) if isinstance(x, A.Move)]
    assert moves and not {x.at for x in moves} & set(sea_sides)
    # a wagon on a land side of the castle next to its sea side
    b = g.board
    land_side = next(k for k in b.hex_paths[b.hex_index[TRADE_HEXES["castle"]]]
                     if k not in sea_sides and set(paths_next_to(g, k)) & set(sea_sides))
    s = start(g, wagon=b.paths[land_side]).state()
    steps = [x.to for x in legal(s) if isinstance(x, Travel)]
    assert steps and not set(steps) & set(sea_sides)
    sea_side = next(x for x in paths_next_to(g, land_side) if x in sea_sides)
    step = Travel("wagon", land_side, sea_side)
    if step in g.action_id:  # (no such action at all where no wagon ever stands)
        with pytest.raises(IllegalAction):
            act(s, step)


# ---- Catan for Two with the Event Cards: a damaged road ---------------------------------------


def _damaged(pos, g, *paths):
    """Mark the pieces on these paths damaged (an earthquake's work)."""
    return pos.edit(damaged=sorted(paths))


def _neutral_road(pos, g, seat: int, at: int):
    """A neutral seat's road on a path (neutral seats build by the rules only, so the
    position is edited directly)."""
    s = pos.state()
    road = g.piece_index["road"]
    owners, pieces = list(s.path_owner), list(s.path_piece)
    placed = [list(r) for r in s.placed]
    owners[at], pieces[at] = seat, road
    placed[seat][road] += 1
    return pos.edit(path_owner=owners, path_piece=pieces, placed=placed)


def test_tb_two_players_damaged_road_costs_two_points_and_no_toll():
    """With two players and the Event Cards, a damaged road costs a wagon 2 points, as
    if no road stood there, and no toll, whoever owns it: the opponent (and the half
    toll counts only intact roads) or a neutral seat (nothing to the bank)."""
    g = game(2, event_cards=True)
    gold = g.token_index["gold"]
    a, x = path(g, 0, 0, "NE"), path(g, 0, 0, "NW")
    y = next(k for k in paths_next_to(g, x) if k != a and k in g.pieces[g.piece_index["wagon"]].allowed_set
             and k not in {path(g, *z) for z in BARBARIANS} and a not in paths_next_to(g, k))
    # the opponent's two roads, the first damaged: a single intact path tolls nothing
    pos = start(g, level=3, wagon=g.board.paths[a]).place(1, "road", x).place(1, "road", y)
    s = _damaged(pos, g, x).state()
    act(s, Travel("wagon", a, x))
    assert travel_points(s, 0, "wagon") == 6 - 2
    act(s, Travel("wagon", x, y))
    assert travel_points(s, 0, "wagon") == 6 - 2 - 1
    assert s.tokens_held[0][gold] == 5 and s.tokens_held[1][gold] == 5
    # a neutral seat's damaged road: 2 points, and the bank takes nothing
    neutral_seat = g.num_players
    s = _damaged(_neutral_road(start(g, wagon=g.board.paths[a]), g, neutral_seat, x), g, x).state()
    supply = s.token_supply[gold]
    act(s, Travel("wagon", a, x))
    assert travel_points(s, 0, "wagon") == 4 - 2
    assert s.tokens_held[0][gold] == 5 and s.token_supply[gold] == supply


def test_tb_two_players_intact_roads_keep_the_half_tolls():
    """Intact roads keep the halved tolls: 2 of the opponent's paths pay 1 gold, a
    neutral seat's path 1 gold to the bank (half rounded up)."""
    g = game(2, event_cards=True)
    gold = g.token_index["gold"]
    a, x = path(g, 0, 0, "NE"), path(g, 0, 0, "NW")
    y = next(k for k in paths_next_to(g, x) if k != a and k in g.pieces[g.piece_index["wagon"]].allowed_set
             and k not in {path(g, *z) for z in BARBARIANS} and a not in paths_next_to(g, k))
    s = start(g, level=3, wagon=g.board.paths[a]).place(1, "road", x).place(1, "road", y).state()
    act(s, Travel("wagon", a, x))
    act(s, Travel("wagon", x, y))
    assert travel_points(s, 0, "wagon") == 6 - 2 and s.tokens_held[1][gold] == 6
    s = _neutral_road(start(g, wagon=g.board.paths[a]), g, g.num_players, x).state()
    act(s, Travel("wagon", a, x))
    assert travel_points(s, 0, "wagon") == 3 and s.tokens_held[0][gold] == 4


# ---- the grain boost and the stop at a trade hex ----------------------------------------------


def _two_plain_steps(g, a: int) -> tuple[int, int]:
    """Two paths b, c from path a, no road, no barbarian, no trade hex."""
    wagon = g.pieces[g.piece_index["wagon"]]
    b = g.board
    hubs = {b.hex_index[h] for h in TRADE_HEXES.values()}
    barbarians = {path(g, *z) for z in BARBARIANS}

    def plain(k):
        return k in wagon.allowed_set and k not in barbarians and not set(b.path_hexes[k]) & hubs

    for x in paths_next_to(g, a):
        for y in paths_next_to(g, x):
            if plain(x) and plain(y) and y != a:
                return x, y
    raise AssertionError("no two plain steps")


def test_tb_grain_boost_legal_at_zero_points():
    """A wagon that spent all its points may still buy 2 more for 1 grain, once a turn."""
    g = game()
    a = path(g, 0, 0, "NE")
    x, y = _two_plain_steps(g, a)
    s = start(g, wagon=g.board.paths[a]).hand(0, grain=2).state()
    act(s, Travel("wagon", a, x))
    act(s, Travel("wagon", x, y))
    assert travel_points(s, 0, "wagon") == 0
    assert A.TakeAction("boost") in legal(s)
    act(s, A.TakeAction("boost"))
    assert travel_points(s, 0, "wagon") == 2 and s.hands[0][3] == 1
    assert A.TakeAction("boost") not in legal(s)  # once a turn


def _before_spur(g, hub: str) -> tuple[int, int]:
    """A path next to one of a trade hex's spurs (not a spur itself), and the spur."""
    b = g.board
    q, r = TRADE_HEXES[hub]
    wagon = g.pieces[g.piece_index["wagon"]]
    spur = next(k for k, (pq, pr, side) in enumerate(b.paths) if (pq, pr) == (q, r) and side.startswith("C-"))
    before = next(x for x in paths_next_to(g, spur) if not b.paths[x][2].startswith("C-") and x in wagon.allowed_set)
    return before, spur


def loaded(pos, g, good: str):
    """Seat 0's wagon carries one `good`, taken from the stack that holds one."""
    s = pos.state()
    t = g.token_index[good]
    stock = [list(x) for x in s.token_stock]
    held = [list(x) for x in s.tokens_held]
    k = next(k for k, x in enumerate(stock) if x[t] > 0)
    stock[k][t] -= 1
    held[0][t] += 1
    return pos.edit(token_stock=stock, tokens_held=held)


def test_tb_grain_boost_refused_after_the_stop_at_a_trade_hex():
    g = game()
    before, spur = _before_spur(g, "castle")
    s = loaded(start(g, wagon=g.board.paths[before]).hand(0, grain=1), g, "sand").state()
    act(s, Travel("wagon", before, spur))  # the castle takes no sand: nothing drawn
    assert A.TakeAction("boost") not in legal(s)


def test_tb_wagon_stops_at_trade_hex_centre():
    """A wagon that reached a trade hex's centre stops for the turn: no step, and Swift
    Journey does not move it on (it is not played then)."""
    g = game()
    before, spur = _before_spur(g, "castle")
    s = loaded(start(g, wagon=g.board.paths[before]).cards(0, held={"swift_journey": 1}), g, "sand").state()
    act(s, Travel("wagon", before, spur))
    assert s.travellers[0].left == STOPPED and not s.is_chance_node()
    assert not [x for x in legal(s) if isinstance(x, Travel)]
    assert A.PlayCard("swift_journey") not in legal(s)
    before_refusal = s.serialize()
    with pytest.raises(IllegalAction):
        act(s, A.PlayCard("swift_journey"))
    assert s.serialize() == before_refusal
    assert travel_points(s, 0, "wagon") == 0
