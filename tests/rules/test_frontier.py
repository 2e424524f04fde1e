"""The places a piece may go and the longest routes are found from each seat's own
pieces (rules/network.py), never by scanning the board: checked here, after every action
of random games on every shipped scenario and example, against a plain scan kept as the
oracle (every site a piece may stand on, tested with `can_place`; every route walked
again from scratch; the network read off the board again)."""

from __future__ import annotations

import random
from functools import cache

import pytest

import catandsl
from catandsl.engine.flow import SETUP, setup_entry
from catandsl.players import UniformPlayer
from catandsl.rules import damage, movement, network, neutral, placement, production, routes
from catandsl.rules.movement import PickUp, PutDown, Relocating
from catandsl.rules.neutral import Moving
from tests.conftest import BROKEN_FILES, ROOT, SCENARIO_FILES, base_game, compile_text, road_chain
from tests.engine import helpers

GAMES, ACTIONS = 2, 250  # per scenario: random games, actions checked in each
ALL_SEATS_EVERY = 7  # actions between checks of every seat (the player to act: every action)


@cache
def scenario(name: str):
    return catandsl.load(ROOT / name)


def scanned_places(s, p: int, pi: int, mode: str, step=None) -> list[int]:
    """The oracle: every site the piece may stand on, each tested."""
    return [k for k in s.game.pieces[pi].allowed if placement.can_place(s, p, pi, k, mode, step)]


def scanned_targets(s, p: int, pi: int, mode: str, step=None) -> list[int]:
    g = s.game
    P = g.pieces[pi]
    if s.placed[p][pi] >= P.limit and not (s.damaged and damage.has_damaged(s, p, pi)):
        return []
    return [g.build_id[pi][k] for k in scanned_places(s, p, pi, mode, step)]


def scanned_neutral_moves(s, prompt: Moving) -> list[int]:
    """The oracle: every site the piece may stand on but its own (one of several: from
    each of theirs to every free site), kept to the sites its `moves_to` allows (judged by
    neutral.destinations, tested on its own in test_moves_to.py)."""
    g = s.game
    out = []
    for pi in prompt.pieces:
        P = g.pieces[pi]
        here = neutral.sites_of(s, pi)
        if not neutral.may_move(s, prompt.player, pi):
            continue
        if P.count == 1:
            if not prompt.sources or here[0] in prompt.sources:
                out += [g.build_id[pi][h] for h in neutral.destinations(s, prompt.player, pi, list(P.allowed))
                        if h != here[0]]
            continue
        free = neutral.destinations(s, prompt.player, pi, [k for k in P.allowed if k not in here])
        lifting = g.lookups(neutral.MoveIds).lifting[pi]
        for src in sorted(set(here)):
            if not prompt.sources or src in prompt.sources:
                out += [g.build_id[pi][k] if src < 0 else lifting[(src, k)] for k in free]
    return out


def scanned_moves(s, p: int) -> list[int]:
    g = s.game
    return [g.action_id[PickUp(g.pieces[pi].name, k)] for k, (o, pi) in enumerate(zip(s.path_owner, s.path_piece))
            if o == p and pi in g.movers and not movement.why_not_pick_up(s, p, k)]


def walked_route(s, p: int, pieces: tuple[int, ...]) -> int:
    """The oracle: a depth-first walk from every end of every one of p's pieces."""
    g = s.game
    b = g.board
    own = {k for k, o in enumerate(s.path_owner) if o == p and s.path_piece[k] in pieces}
    joins = {(x, y) for x in pieces for y in pieces
             if x == y or (x in g.pieces[y].connects and y in g.pieces[x].connects)}
    used: set[int] = set()
    best = 0

    def walk(c: int, length: int, kind: int) -> None:
        nonlocal best
        best = max(best, length)
        o = s.corner_owner[c]
        if o != -1 and o != p and length > 0:
            return
        for x in b.corner_paths[c]:
            if x in own and x not in used:
                kx = s.path_piece[x]
                if length > 0 and o != p and (kind, kx) not in joins:
                    continue
                used.add(x)
                a, z = b.path_ends[x]
                walk(z if a == c else a, length + 1, kx)
                used.discard(x)

    for c in sorted({c for x in own for c in b.path_ends[x]}):
        walk(c, 0, -1)
    return best


def route_keys(g) -> list[tuple[int, ...]]:
    """The kinds routes are measured over: each path piece alone, and all of them."""
    kinds = [P.index for P in g.pieces if P.site == "path" and not P.neutral and P.travel is None]
    return [(k,) for k in kinds] + ([tuple(kinds)] if len(kinds) > 1 else [])


def check_state(s, everyone: bool) -> int:
    """Compare everything with the oracle; returns how many comparisons were made."""
    g = s.game
    checked = 0
    assert all(list(P.allowed) == sorted(P.allowed) for P in g.pieces)  # what placement and base.all_but rely on
    fresh = network.Network.scan(s)
    net = network.of(s)
    assert net.corners == fresh.corners and net.paths == fresh.paths
    actor = s.current_player() if not s.is_chance_node() else -1
    seats = range(g.num_seats) if everyone else [actor] if 0 <= actor < g.num_seats else []
    for p in seats:
        for P in g.pieces:
            if P.neutral:
                continue
            for mode in ("normal", "free") if everyone else ("normal",):
                assert placement.places(s, p, P.index, mode) == scanned_places(s, p, P.index, mode), (p, P.name, mode)
                assert placement.targets(s, p, P.index, mode) == scanned_targets(s, p, P.index, mode)
                checked += 1
        if p < g.num_players:
            assert movement.legal_moves(s, p, None) == scanned_moves(s, p)
        for key in route_keys(g):
            assert routes.route_length(s, p, key) == walked_route(s, p, key), (p, key)
            checked += 1
    top = s.top()
    if top is SETUP and s.start_player >= 0 and s.setup_pos < len(g.setup_script):
        p, step = setup_entry(s)
        if step.action == "place":
            for name in step.pieces:
                pi = g.piece_index[name]
                assert placement.places(s, p, pi, "setup", step) == scanned_places(s, p, pi, "setup", step)
                assert placement.targets(s, p, pi, "setup", step) == scanned_targets(s, p, pi, "setup", step)
                checked += 1
    if isinstance(top, Moving):
        assert top.legal(s) == scanned_neutral_moves(s, top)
        checked += 1
    if isinstance(top, Relocating):
        name = g.pieces[top.piece].name
        want = [g.action_id[PutDown(name, k)] for k in
                [top.origin] + [k for k in scanned_places(s, top.player, top.piece, "normal") if k != top.origin]]
        assert top.legal(s) == want
        checked += 1
    return checked


@pytest.mark.parametrize("name", [n for n in SCENARIO_FILES if n not in BROKEN_FILES])
def test_frontier_places_and_incremental_routes_equal_a_scan_of_the_board(name):
    sc = scenario(name)
    checked = 0
    for game_no in range(GAMES):
        players = sc.players_max if game_no % 2 == 0 else sc.players_min
        g = catandsl.new_game(sc, players, {}, 7 + game_no)
        seats = [UniformPlayer(31 * game_no + p) for p in range(g.num_players)]
        rng = random.Random(game_no)
        s = g.new_initial_state()
        for n in range(ACTIONS):
            if s.is_terminal():
                break
            checked += check_state(s, everyone=n % ALL_SEATS_EVERY == 0)
            if rng.random() < 0.05:  # a clone shares the network until one of the two changes it
                other = s.clone()
                for k in range(8):
                    if other.is_terminal():
                        break
                    other.apply_action(rng.choice(other.legal_actions()) if not other.is_chance_node()
                                       else other.sample_chance())
                    checked += check_state(other, everyone=k == 7)
            s.apply_action(s.sample_chance() if s.is_chance_node() else seats[s.current_player()].choose(s))
        checked += check_state(s, everyone=True)
        back = g.deserialize_state(s.serialize())  # read back: the network is derived again
        checked += check_state(back, everyone=True)
    assert checked > 100


def test_the_scenarios_are_found():
    assert "scenarios/seafarers/four_islands.catan" in SCENARIO_FILES and len(SCENARIO_FILES) > 10
    assert BROKEN_FILES <= set(SCENARIO_FILES)  # (a broken map renamed would be played, and fail)


# ---- the lines of routes, kept as pieces come and go (fixed positions) ------------------------


def _measured(s, p: int, key: tuple[int, ...]) -> tuple[int, list[frozenset[int]], list[frozenset[int]]]:
    """`routes.route_length(s, p, key)` and what it measured: (the length, the lines it
    kept as they were, the lines it found anew). A line kept is the very record the
    network held before the call; every other one was measured (walked, measured whole
    or grown). Read off the network, not by replacing a function of `routes`: compiled
    code calls its own module's functions directly, past any replacement."""
    before = list(network.of(s).lines.get((p, key), []))
    length = routes.route_length(s, p, key)
    after = network.of(s).lines[(p, key)]
    kept = [line.paths for line in after if any(line is old for old in before)]
    return length, kept, [line.paths for line in after if not any(line is old for old in before)]


def _hung(s, p: int, key: tuple[int, ...]) -> list[frozenset[int]]:
    """The lines `routes.grow_line` makes of the piece placed last and the line it hung
    from (what `route_length` keeps when they are not None): asserted to be there."""
    g = s.game
    hung = network.of(s).grown.get((p, key))
    assert hung is not None, "no line waits to be grown"
    joins, chains = g.lookups(routes.RouteJoins).of(key)
    more = routes.grow_line(s, p, joins, *hung) if chains else None
    assert more is not None, "the line is not grown from where the piece hangs"
    return [line.paths for line in more]


def test_an_opponents_settlement_cuts_the_line_it_stands_on():
    g = base_game()
    road, settlement = (g.piece_index["road"],), g.piece_index["settlement"]
    s = helpers.blank(g)
    paths, corners = road_chain(g, 47, 5)
    helpers.put(s, 0, "settlement", 47)
    for x in paths:
        helpers.put(s, 0, "road", x)
    assert routes.route_length(s, 0, road) == 5
    placement.place(s, 1, settlement, corners[2])  # as a rule or a build would
    assert (0, road) not in network.of(s).grown  # the cut line is measured again, not grown
    length, kept, found = _measured(s, 0, road)
    assert length == walked_route(s, 0, road) == 3
    assert kept == [] and sorted(len(line) for line in found) == [2, 3]  # the cut line, in its two parts


def test_a_road_is_measured_with_its_own_line_alone():
    g = base_game()
    road = (g.piece_index["road"],)
    s = helpers.blank(g)
    far, _ = road_chain(g, 47, 3)
    near, ends = road_chain(g, 20, 2)
    for x in far + near:
        helpers.put(s, 0, "road", x)
    assert routes.route_length(s, 0, road) == 3
    step = next(x for x in g.board.corner_paths[ends[-1]]
                if s.path_owner[x] == -1 and x in g.pieces[road[0]].allowed_set)
    placement.place(s, 0, road[0], step)
    length, kept, found = _measured(s, 0, road)
    assert length == walked_route(s, 0, road) == 3
    assert kept == [frozenset(far)]  # the line of three roads that far is, untouched
    assert found == [frozenset(near + [step])]


def _spur(s, at: int, taken: list[int]) -> int:
    """An empty path for a road at intersection `at`, off the paths `taken`."""
    g = s.game
    allowed = g.pieces[g.piece_index["road"]].allowed_set
    return next(x for x in g.board.corner_paths[at]
                if x not in taken and x in allowed and s.path_owner[x] == -1)


def _trunk(n: int):
    """Seat 0's line of n roads from intersection 47 on a blank base board, measured:
    (game, the road kind as a route key, state, its paths, its intersections)."""
    g = base_game()
    road = (g.piece_index["road"],)
    s = helpers.blank(g)
    trunk, corners = road_chain(g, 47, n)
    for x in trunk:
        helpers.put(s, 0, "road", x)
    assert routes.route_length(s, 0, road) == n
    return g, road, s, trunk, corners


def test_a_road_hung_from_a_line_without_a_ring_grows_it_unregrouped():
    """A road at one intersection of a tree line, its other end new, is measured from that
    line (routes.grow_line): the longest route keeps off it, or ends on it coming from as far
    as the line reaches from where it hangs."""
    g, road, s, trunk, corners = _trunk(4)
    spur = _spur(s, corners[1], trunk)  # one from the trunk's near end, three from its far end
    placement.place(s, 0, road[0], spur)
    grown = _hung(s, 0, road)
    length, kept, found = _measured(s, 0, road)
    assert length == walked_route(s, 0, road) == 4  # the trunk still
    assert kept == [] and found == grown == [frozenset(trunk + [spur])]  # grown, neither regrouped nor walked
    tip = next(c for c in g.board.path_ends[spur] if c != corners[1])
    spur2 = _spur(s, tip, trunk + [spur])
    placement.place(s, 0, road[0], spur2)
    grown = _hung(s, 0, road)
    length, kept, found = _measured(s, 0, road)
    assert length == walked_route(s, 0, road) == 5  # 2 + 3
    assert kept == [] and found == grown == [frozenset(trunk + [spur, spur2])]


def test_a_road_hung_from_an_opponents_building_at_a_lines_end_is_a_line_of_its_own():
    g = base_game()
    road = (g.piece_index["road"],)
    s = helpers.blank(g)
    trunk, corners = road_chain(g, 47, 3)
    for x in trunk:
        helpers.put(s, 0, "road", x)
    helpers.put(s, 1, "settlement", corners[3])
    assert routes.route_length(s, 0, road) == 3
    beyond = _spur(s, corners[3], trunk)
    placement.place(s, 0, road[0], beyond)
    hung_from = network.of(s).grown[(0, road)][1]
    assert _hung(s, 0, road) == [frozenset(trunk), frozenset((beyond,))]
    assert routes.route_length(s, 0, road) == walked_route(s, 0, road) == 3
    lines = network.of(s).lines[(0, road)]
    assert sorted(line.length for line in lines) == [1, 3]
    assert any(line is hung_from for line in lines)  # the trunk's own record, not measured again


def test_a_change_before_the_grown_line_is_measured_regroups_it():
    """What routes.grow_line is told (the piece, the line it hung from) holds only until the
    next change on those lines: then the lines are found again."""
    for then in ("road", "settlement"):
        g, road, s, trunk, corners = _trunk(4)
        spur = _spur(s, corners[2], trunk)
        placement.place(s, 0, road[0], spur)
        if then == "road":  # a second road before anybody measures: 1 + 4
            placement.place(s, 0, road[0], _spur(s, corners[0], trunk))
            assert routes.route_length(s, 0, road) == walked_route(s, 0, road) == 5
        else:  # an opponent's building where the spur hangs cuts the trunk: 2, 2 and 1
            placement.place(s, 1, g.piece_index["settlement"], corners[2])
            assert routes.route_length(s, 0, road) == walked_route(s, 0, road) == 2


def test_an_own_settlement_on_a_line_of_roads_leaves_it_measured():
    """Between two roads a route passes with or without the seat's own building there."""
    g, road, s, trunk, corners = _trunk(3)
    line = network.of(s).lines[(0, road)][0]
    placement.place(s, 0, g.piece_index["settlement"], corners[1])
    assert (0, road) in network.of(s).longest  # kept: no line dropped
    length, kept, found = _measured(s, 0, road)
    assert length == walked_route(s, 0, road) == 3
    assert kept == [line.paths] and found == []
    assert network.of(s).lines[(0, road)][0] is line


def test_a_ring_is_walked_and_a_tree_measured_as_the_walk_says():
    """A line without a ring is measured as a tree's diameter (routes.diameter); a ring
    round a hex with a tail of two roads is walked: 2 + 6 = 8, once round and back,
    which the tree's measure would not find. Read off the lines and the measure, not by
    replacing `routes.diameter`: compiled code calls it directly, past any replacement."""
    g = base_game()
    road = (g.piece_index["road"],)
    b = g.board
    allowed = g.pieces[road[0]].allowed_set
    h = next(h for h in range(len(b.hexes)) if all(x in allowed for x in b.hex_paths[h])
             and all(x in allowed for c in b.hex_corners[h] for x in b.corner_paths[c]))
    ring = list(b.hex_paths[h])
    start = b.hex_corners[h][0]
    tail = next(x for x in b.corner_paths[start] if x not in ring)
    beyond = next(c for c in b.path_ends[tail] if c != start)
    tail2 = next(x for x in b.corner_paths[beyond] if x != tail and x in allowed)
    s = helpers.blank(g)
    for x in [tail, tail2] + ring[:5]:  # a tree: the tail and five sides
        helpers.put(s, 0, "road", x)
    assert routes.route_length(s, 0, road) == walked_route(s, 0, road) == 7
    (line,) = network.of(s).lines[(0, road)]
    ways = routes.line_ways(s, line.paths)
    assert len(ways) == len(line.paths) + 1 == 8  # a tree of eight intersections
    assert routes.diameter(ways) == line.length  # its diameter is its longest route
    helpers.put(s, 0, "road", ring[5])  # the ring closes
    assert routes.route_length(s, 0, road) == walked_route(s, 0, road) == 8
    (line,) = network.of(s).lines[(0, road)]
    ways = routes.line_ways(s, line.paths)
    assert len(ways) == len(line.paths) == 8  # a ring: as many intersections as paths
    assert routes.diameter(ways) < line.length  # the tree's measure misses the way round: walked


CHAIN = """
  piece alpha {
    on path where land(at)
    cost lumber
    limit 15
    connects alpha, beta, settlement, city
  }
  piece beta {
    on path where land(at)
    cost lumber
    limit 15
    connects alpha, beta, gamma, settlement, city
  }
  piece gamma {
    on path where land(at)
    cost lumber
    limit 15
    connects beta, gamma, settlement, city
  }
"""  # (added to the base game's scenario, after `uses base`)


def _kinds_meeting(tmp_path):
    """An empty intersection where an alpha, a beta and a gamma meet (alpha joins beta
    and beta gamma; alpha never joins gamma), with two more alphas beyond the alpha and
    two more gammas beyond the gamma: a line without a ring. (game, state, the three
    paths at the intersection, the two beyond the gamma from it outwards)."""
    base = (ROOT / "scenarios" / "base.catan").read_text(encoding="utf-8")
    sc, diags = compile_text(tmp_path, base.replace("uses base", "uses base" + CHAIN, 1))
    assert sc is not None and not [d for d in diags if d.severity == "error"], diags
    g = catandsl.new_game(sc, 3, {}, 1)
    b = g.board
    allowed = g.pieces[g.piece_index["alpha"]].allowed_set

    def onward(c: int, came: int, n: int, taken: set[int]) -> list[int]:
        out = []
        for _ in range(n):
            x = next(x for x in b.corner_paths[c] if x != came and x in allowed and x not in taken
                     and all(e not in {b.path_ends[y][0] for y in taken} | {b.path_ends[y][1] for y in taken}
                             for e in b.path_ends[x] if e != c))
            out.append(x)
            taken.add(x)
            came, c = x, next(e for e in b.path_ends[x] if e != c)
        return out

    for c in range(len(b.corner_paths)):
        three = [x for x in b.corner_paths[c] if x in allowed]
        if len(three) < 3:
            continue
        try:
            taken = set(three)
            x, y, z = three
            ax = onward(next(e for e in b.path_ends[x] if e != c), x, 2, taken)
            gz = onward(next(e for e in b.path_ends[z] if e != c), z, 2, taken)
        except StopIteration:
            continue
        s = helpers.blank(g)
        for k in [x] + ax:
            helpers.put(s, 0, "alpha", k)
        helpers.put(s, 0, "beta", y)
        for k in [z] + gz:
            helpers.put(s, 0, "gamma", k)
        return g, s, (x, y, z), gz
    raise AssertionError("no intersection with three land paths and room beyond")

def test_kinds_that_do_not_chain_are_walked_where_they_meet(tmp_path):
    """Alpha joins beta and beta joins gamma, but a route never turns from an alpha to a
    gamma at an empty intersection: the line is a tree, yet its diameter (alpha, alpha,
    alpha, gamma, gamma, gamma: 6) is no route. The longest is 4 (three alphas and the
    beta, or the beta and three gammas)."""
    g, s, _, _ = _kinds_meeting(tmp_path)
    kinds = tuple(g.piece_index[n] for n in ("alpha", "beta", "gamma"))
    assert routes.route_length(s, 0, kinds) == walked_route(s, 0, kinds) == 4


def test_a_piece_hung_where_kinds_do_not_chain_is_walked(tmp_path):
    """The same line grown a piece at a time: the gamma hung from the intersection where
    the alpha and the beta meet, then a gamma beyond it, then another. As a tree's
    diameter the route would be 3 alphas and the gammas, 5 and then 6."""
    g, s, (_, _, z), beyond = _kinds_meeting(tmp_path)
    kinds = tuple(g.piece_index[n] for n in ("alpha", "beta", "gamma"))
    for k in [z] + beyond:
        s.path_owner[k] = s.path_piece[k] = -1  # (the gammas not there yet)
    s.changed()
    assert routes.route_length(s, 0, kinds) == walked_route(s, 0, kinds) == 4  # alphas and the beta
    for k in [z] + beyond:  # from the intersection outwards
        placement.place(s, 0, g.piece_index["gamma"], k)
        assert routes.route_length(s, 0, kinds) == walked_route(s, 0, kinds) == 4


# ---- production on a board with far more hexes of a number than buildings -------------------

def _wide_map(width: int, rows: int) -> str:
    land = width * rows
    terrains = ("forest", "pasture", "fields", "hills", "mountains")
    tiles = ", ".join(f"{t} x{land // 5 + (k < land % 5)}" for k, t in enumerate(terrains))
    numbers = (2, 3, 3, 4, 4, 5, 5, 6, 6, 8, 8, 9, 9, 10, 10, 11, 11, 12)
    counts = {n: sum(1 for k in range(land) if numbers[k % len(numbers)] == n) for n in set(numbers)}
    picture = "\n".join(("  " if r % 2 else "") + "   ".join("?" * width) for r in range(rows))
    return f'''scenario wide "Wide" {{
  uses base
  players 2..4
  map {{
    rows """
{picture}
    """
    legend {{ ? land }}
    pool land shuffled [{tiles}]
    numbers shuffled [{", ".join(f"{n} x{c}" for n, c in sorted(counts.items()))}]
    start robber off board
  }}
}}
'''


def test_a_roll_pays_from_the_hexes_next_to_buildings_what_every_hex_of_it_pays(tmp_path):
    """The hexes a roll is paid from (`production.rolled_hexes`) leave out only hexes
    that pay nobody, so the production is what every hex of the number would pay (read
    from what each hex pays, not by replacing the function: compiled code calls it
    directly, past any replacement)."""
    sc, diags = compile_text(tmp_path, _wide_map(18, 16))
    assert sc is not None and not diags, diags
    g = catandsl.new_game(sc, 2, {}, 3)
    seats = [UniformPlayer(p) for p in range(2)]
    s = g.new_initial_state()
    while s.stage == "setup":
        s.apply_action(s.sample_chance() if s.is_chance_node() else seats[s.current_player()].choose(s))
    buildings = sum(len(c) for c in network.of(s).corners)
    rolls = [r for r in range(2, 13) if r != 7]
    assert any(len(g.board.number_hexes[r]) > 3 * buildings for r in rolls)  # the short way is taken
    yields = production.piece_yields(s)
    paid = {}
    for r in rolls:
        every = g.board.number_hexes[r]
        kept = list(production.rolled_hexes(s, r, every))
        assert set(kept) <= set(every) and len(kept) == len(set(kept))
        assert all(production.hex_pays(s, h, yields) == () for h in every if h not in kept), r
        c = s.clone()
        production.produce(c, r)
        paid[r] = c.hands
        # every hex of the number, each paying what `hex_pays` says, as the oracle
        hands = [row[:] for row in s.hands]
        for h in every:
            if g.hex_resource[h] >= 0 and not g.hex_choice[h]:
                for o, k in production.hex_pays(s, h, yields):
                    hands[o][g.hex_resource[h]] += k
        assert c.hands == hands, r
    assert any(len(production.rolled_hexes(s, r, g.board.number_hexes[r])) < len(g.board.number_hexes[r])
               for r in rolls)  # hexes left out
    assert any(paid[r] != s.hands for r in rolls)  # some roll pays someone
