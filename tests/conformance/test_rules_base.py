"""The base game (stdlib/base.catan, scenarios/base.catan), rule by rule, on the
rulebook's beginner map (the same on every seed) unless a rule is about the random one.

The beginner map, by hex (q, r) and number:

    (0,-2) mountains 10   (1,-2) pasture 2    (2,-2) forest 9
    (-1,-1) fields 12  (0,-1) hills 6  (1,-1) pasture 4  (2,-1) hills 10
    (-2,0) fields 9  (-1,0) forest 11  (0,0) desert  (1,0) forest 3  (2,0) mountains 8
    (-2,1) forest 8  (-1,1) mountains 3  (0,1) fields 4  (1,1) pasture 5
    (-2,2) hills 5   (-1,2) fields 6   (0,2) pasture 11
"""

from __future__ import annotations

from collections import Counter

import pytest

import catandsl
from catandsl import queries
from catandsl.board.geometry import DIRECTIONS
from catandsl.engine import actions as A
from tests.conformance.catalog import rule
from tests.conformance.play import act, builds, cards, hand, holder, legal, moves, of_kind, refused, roll, sites_of
from tests.conformance.positions import BASE, game, main, position, scenario
from tests.conformance.sites import corner, hexid, line, near, ring, side, trail

BASE_RULES = "stdlib/base.catan"
BASE_MAP = "scenarios/base.catan"


def g4():
    return game(BASE, 4)


def setup_state(start: int = 0):
    """A new game at its first set-up step, the start player drawn."""
    s = g4().new_initial_state()
    act(s, A.StartPlayer(start))
    return s


def play_setup(s) -> list[tuple[int, A.Build]]:
    """Play the set-up with the first legal action each time: (seat, build) in order."""
    done = []
    while s.stage == "setup":
        a = legal(s)[0]
        done.append((s.current_player(), a))
        act(s, a)
    return done


# ---- the island (A.1, A.2) ----------------------------------------------------------------


@rule(BASE_RULES, "produces brick")
@pytest.mark.parametrize("q, r, number, resource", [
    (0, -1, 6, "brick"), (2, -2, 9, "lumber"), (1, -1, 4, "wool"), (-1, -1, 12, "grain"), (0, -2, 10, "ore")])
def test_base_each_terrain_produces_its_resource(q, r, number, resource):
    """Hills produce brick, forest lumber, pasture wool, fields grain and mountains ore."""
    s = position(g4()).place(1, "settlement", (q, r, "S")).state()
    roll(s, number)
    assert hand(s, 1) == {x: int(x == resource) for x in hand(s, 1)}


@rule(BASE_RULES, "produces nothing")
def test_base_desert_produces_nothing():
    """The desert has no number token and produces nothing, whatever is rolled."""
    g = g4()
    assert g.board.hex_number[hexid(g, 0, 0)] == 0
    for total in (2, 3, 4, 5, 6, 8, 9, 10, 11, 12):
        s = position(g).place(1, "settlement", (0, 0, "S")).state()  # desert, fields 4, mountains 3
        roll(s, total)
        assert cards(s, 1) == (1 if total in (3, 4) else 0)


@rule(BASE_RULES, "bank 19 each")
def test_base_bank_holds_19_cards_of_each_resource():
    """The bank starts with 19 cards of each of the five resources."""
    assert position(g4()).state().bank == [19] * 5


@rule(BASE_MAP, "pool land shuffled [forest x4, pasture x4, fields x4, hills x3, mountains x3, desert]")
@pytest.mark.parametrize("layout", ["beginner", "random"])
def test_base_island_has_19_terrain_hexes(layout):
    """The island is 19 terrain hexes: 4 forest, 4 pasture, 4 fields, 3 hills, 3 mountains and
    1 desert, inside a frame of sea."""
    for seed in (1, 2, 3):
        b = game(BASE, 4, seed, layout=layout).board
        land = Counter(b.terrain(h) for h in range(len(b.hexes)) if not b.hex_water[h])
        assert land == {"forest": 4, "pasture": 4, "fields": 4, "hills": 3, "mountains": 3, "desert": 1}


@rule(BASE_MAP, "A 5, B 2, C 6, D 3")
@pytest.mark.parametrize("layout", ["beginner", "random"])
def test_base_eighteen_number_tokens_and_no_seven(layout):
    """There are 18 number tokens: one 2 and one 12, two each of 3, 4, 5, 6, 8, 9, 10 and 11,
    and no 7."""
    for seed in (1, 2, 3):
        b = game(BASE, 4, seed, layout=layout).board
        numbers = Counter(n for n in b.hex_number if n)
        assert numbers == {2: 1, 12: 1, **dict.fromkeys((3, 4, 5, 6, 8, 9, 10, 11), 2)}


STEPS = list(DIRECTIONS.values())  # the six neighbours' offsets, counter-clockwise from east
LETTERS = [5, 2, 6, 3, 8, 10, 9, 12, 11, 4, 8, 10, 9, 4, 5, 6, 3, 11]  # A to R


def spiral(corner_dir: int) -> list[tuple[int, int]]:
    """The island's hexes from the outer ring's corner in direction `corner_dir` (an index of
    STEPS), counter-clockwise round the outer ring, then the middle ring from its corner the
    same way, then the centre."""
    out = []
    for radius in (2, 1):
        q, r = STEPS[corner_dir][0] * radius, STEPS[corner_dir][1] * radius
        for turn in range(6):
            dq, dr = STEPS[(corner_dir + 2 + turn) % 6]
            for _ in range(radius):
                out.append((q, r))
                q, r = q + dq, r + dr
    return out + [(0, 0)]


@rule(BASE_MAP, "] skip [desert]")
def test_base_random_numbers_follow_the_spiral_skipping_the_desert():
    """On a random island the numbers are laid in letter order (A 5, B 2, C 6, ...) from a
    corner of the outer ring, counter-clockwise round it, then round the middle ring, then the
    centre, skipping the desert (which gets none); so a 6 or 8 never lies next to another."""
    for seed in range(8):
        b = catandsl.board_for(scenario(BASE), 4, {"layout": "random"}, seed)
        laid = [[b.hex_number[b.hex_id(*h)] for h in spiral(k) if b.terrain(b.hex_id(*h)) != "desert"]
                for k in range(6)]
        assert LETTERS in laid
        assert [b.hex_number[h] for h in range(len(b.hexes)) if b.terrain(h) == "desert"] == [0]
        red = [h for h in range(len(b.hexes)) if b.hex_number[h] in (6, 8)]
        assert not [h for h in red if set(b.hex_neighbours[h]) & set(red)]


@rule(BASE_MAP, "harbors shuffled [3:1 x4, brick 2:1, lumber 2:1, wool 2:1, grain 2:1, ore 2:1]")
@pytest.mark.parametrize("layout", ["beginner", "random"])
def test_base_nine_harbors_four_generic_and_five_special(layout):
    """The frame holds 9 harbors: 4 generic (3:1) and one 2:1 harbor for each resource."""
    b = game(BASE, 4, 1, layout=layout).board
    kinds = Counter(h.type.resource or f"{h.type.give}:{h.type.get}" for h in b.harbors)
    assert kinds == {"3:1": 4, "brick": 1, "lumber": 1, "wool": 1, "grain": 1, "ore": 1}
    assert all(h.type.give == 2 for h in b.harbors if h.type.resource)


# ---- building costs and supply (A.1, A.3) ----------------------------------------------------


def _pays(piece: str, at, cost: dict[str, int], setup=lambda pos: pos) -> None:
    """Building `piece` at `at` takes exactly `cost` from seat 0; one card short, it is refused."""
    g = g4()
    for short in [None, *cost]:
        have = {r: n - (r == short) for r, n in cost.items()}
        s = main(setup(position(g)).hand(0, **have)).state()
        a = A.Build(piece, side(g, *at) if piece == "road" else corner(g, *at))
        if short:
            refused(s, a, "action/cannot_afford")
        else:
            act(s, a)
            assert cards(s, 0) == 0 and s.bank == [19] * 5


@rule(BASE_RULES, "cost brick + lumber", after="piece road {")
def test_base_road_costs_brick_and_lumber():
    """A road costs 1 brick and 1 lumber."""
    _pays("road", (0, -1, "NE"), {"brick": 1, "lumber": 1}, lambda p: p.place(0, "settlement", (0, -1, "N")))


@rule(BASE_RULES, "cost brick + lumber + wool + grain")
def test_base_settlement_costs_brick_lumber_wool_and_grain():
    """A settlement costs 1 brick, 1 lumber, 1 wool and 1 grain."""
    _pays("settlement", (0, -1, "SE"), {"brick": 1, "lumber": 1, "wool": 1, "grain": 1},
          lambda p: p.place(0, "settlement", (0, -1, "N")).place(0, "road", (0, -1, "NE"))
          .place(0, "road", (0, -1, "E")))


@rule(BASE_RULES, "cost 3 ore + 2 grain")
def test_base_city_costs_three_ore_and_two_grain():
    """A city costs 3 ore and 2 grain."""
    _pays("city", (0, -1, "N"), {"ore": 3, "grain": 2}, lambda p: p.place(0, "settlement", (0, -1, "N")))


@rule(BASE_RULES, "cost ore + wool + grain")
def test_base_development_card_costs_ore_wool_and_grain():
    """A development card costs 1 ore, 1 wool and 1 grain, and comes from the top of the deck."""
    g = g4()
    s = main(position(g).hand(0, ore=1, wool=1, grain=1)).state()
    act(s, A.BuyCard("development"))
    assert s.is_chance_node() and cards(s, 0) == 0  # the draw is a chance node over the deck
    act(s, A.Draw("development", "monopoly"))
    assert s.cards[0][g.card_index["monopoly"]] == 1
    s = main(position(g).hand(0, ore=1, wool=1)).state()
    refused(s, A.BuyCard("development"), "action/cannot_afford")


def _supply_full(piece: str, limit: int, sites, build_at, extra=lambda pos: pos) -> None:
    """With `limit` of a piece on the board seat 0 may build no more; with one fewer it may."""
    g = g4()
    for n in (limit - 1, limit):
        pos = position(g)
        for at in sites[:n]:
            pos.place(0, piece, at)
        s = main(extra(pos).hand(0, brick=2, lumber=2, wool=2, grain=3, ore=3)).state()
        assert (build_at(g) in builds(s, piece)) == (n < limit)


@rule(BASE_RULES, "limit 15")
def test_base_fifteen_roads_per_player():
    """Each player has 15 roads; with all 15 on the board no road can be built."""
    g = g4()
    roads = [g.board.paths[k] for k in ring(g, 0, 0) + ring(g, 2, -2) + ring(g, -2, 2)]
    _supply_full("road", 15, roads, lambda g: side(g, 0, -2, "NE"),
                 lambda pos: pos.place(0, "settlement", (0, -2, "N")))


@rule(BASE_RULES, "limit 5", after="piece settlement {")
def test_base_five_settlements_per_player():
    """Each player has 5 settlements; with all 5 on the board no settlement can be built."""
    g4()
    spots = [(0, -2, "N"), (2, -2, "N"), (-2, 0, "N"), (2, 0, "S"), (-2, 2, "S")]
    _supply_full("settlement", 5, spots, lambda g: corner(g, 0, 0, "S"),
                 lambda pos: pos.place(0, "road", (0, 0, "SE")))


@rule(BASE_RULES, "limit 4")
def test_base_four_cities_per_player():
    """Each player has 4 cities; with all 4 on the board no settlement can be upgraded."""
    g4()
    spots = [(0, -2, "N"), (2, -2, "N"), (-2, 0, "N"), (2, 0, "S")]
    _supply_full("city", 4, spots, lambda g: corner(g, -2, 2, "S"),
                 lambda pos: pos.place(0, "settlement", (-2, 2, "S")))


@rule(BASE_RULES, "upgrades settlement")
def test_base_city_returns_its_settlement_to_the_supply():
    """A city replaces a settlement, which goes back to its owner: with all 5 settlements on
    the board, upgrading one makes a settlement buildable again."""
    g = g4()
    pos = position(g)
    for at in [(0, -2, "N"), (2, -2, "N"), (-2, 0, "N"), (2, 0, "S"), (-2, 2, "S")]:
        pos.place(0, "settlement", at)
    s = main(pos.place(0, "road", (0, 0, "SE")).hand(0, brick=1, lumber=1, wool=1, grain=3, ore=3)).state()
    assert builds(s, "settlement") == set()
    act(s, A.Build("city", corner(g, 0, -2, "N")))
    assert builds(s, "settlement") == {corner(g, 0, 0, "S"), corner(g, 0, 0, "SE")}


@rule(BASE_RULES, "points 1", after="piece settlement {")
def test_base_settlement_one_point_city_two():
    """A settlement is worth 1 victory point and a city 2."""
    s = position(g4()).place(0, "settlement", (0, -2, "N")).place(0, "city", (2, 0, "S")).state()
    assert s.points(0) == 3 and queries.points_breakdown(s, 0)["pieces"] == {"settlement": 1, "city": 2}


# ---- placement (A.3) -----------------------------------------------------------------------------


@rule(BASE_RULES, "connects road, settlement, city")
def test_base_road_touches_own_road_settlement_or_city():
    """A road goes on an empty path that touches the player's own road, settlement or city."""
    g = g4()
    s = main(position(g).place(0, "settlement", (0, -1, "N")).place(0, "road", (0, -1, "NE"))
             .place(1, "road", (0, 0, "W")).hand(0, brick=1, lumber=1)).state()
    here, there = corner(g, 0, -1, "N"), corner(g, 0, -1, "NE")
    ends = {k for c in (here, there) for k in g.board.corner_paths[c]}
    assert builds(s, "road") == ends - {side(g, 0, -1, "NE")}  # not the opponent's road's neighbours


@rule(BASE_RULES, "connects road, settlement, city")
def test_base_road_not_through_opponent_building():
    """A road may not be continued through an intersection that holds an opponent's
    settlement or city."""
    g = g4()
    s = main(position(g).place(0, "settlement", (0, -1, "N")).place(0, "road", (0, -1, "NE"))
             .place(1, "settlement", (0, -1, "NE")).hand(0, brick=1, lumber=1)).state()
    assert builds(s, "road") == set(g.board.corner_paths[corner(g, 0, -1, "N")]) - {side(g, 0, -1, "NE")}
    refused(s, A.Build("road", side(g, 0, -1, "E")))


@rule(BASE_RULES, "connects road", after="piece settlement {")
def test_base_settlement_needs_own_road():
    """After the set-up a settlement must touch one of the player's own roads; an opponent's
    road does not do."""
    g = g4()
    spot = corner(g, 0, -1, "SE")
    pos = position(g).place(0, "settlement", (0, -1, "N")).place(0, "road", (0, -1, "NE"))
    s = main(pos.place(1, "road", (0, -1, "E")).hand(0, brick=1, lumber=1, wool=1, grain=1)).state()
    assert spot not in builds(s, "settlement")
    refused(s, A.Build("settlement", spot))
    s = main(pos.remove("road", (0, -1, "E")).place(0, "road", (0, -1, "E"))).state()
    assert builds(s, "settlement") == {spot}


@rule(BASE_RULES, "distance 2")
def test_base_distance_rule():
    """No settlement may stand next to another settlement or city, the player's own or an
    opponent's: the three neighbouring intersections must be empty."""
    g = g4()
    paths = ring(g, 0, 0)
    pos = position(g).place(0, "settlement", (0, 0, "N")).hand(0, brick=1, lumber=1, wool=1, grain=1)
    for k in paths:
        pos.place(0, "road", k)
    s = main(pos).state()
    assert builds(s, "settlement") == {corner(g, 0, 0, x) for x in ("SE", "S", "SW")}
    s = main(pos.place(1, "city", (0, 0, "S"))).state()
    assert builds(s, "settlement") == set()
    refused(s, A.Build("settlement", corner(g, 0, 0, "SE")))


@rule(BASE_RULES, "upgrades settlement")
def test_base_city_needs_own_settlement():
    """A city is built only by upgrading one of the player's own settlements: never on an
    empty intersection, never on an opponent's settlement."""
    g = g4()
    s = main(position(g).place(0, "settlement", (0, -2, "N")).place(1, "settlement", (2, 0, "S"))
             .place(0, "road", (0, 0, "NE")).hand(0, ore=3, grain=2)).state()
    assert builds(s, "city") == {corner(g, 0, -2, "N")}
    refused(s, A.Build("city", corner(g, 2, 0, "S")))
    refused(s, A.Build("city", corner(g, 0, 0, "N")))


@rule(BASE_RULES, "on intersection where land(at)", after="piece settlement {")
def test_base_settlements_stand_on_land_intersections():
    """Settlements stand on the 54 intersections of the island; none on the open sea."""
    g = g4()
    s = setup_state()
    spots = builds(s, "settlement")
    assert len(spots) == 54
    assert all(any(not g.board.hex_water[h] for h in g.board.corner_hexes[c]) for c in spots)


@rule(BASE_RULES, "on path where land(at)")
def test_base_roads_stand_on_land_paths():
    """Roads stand on the island's 72 paths, the coast included; none between two sea hexes."""
    g = g4()
    s = setup_state()
    act(s, A.Build("settlement", corner(g, 0, -2, "N")))  # a coastal corner with a sea-sea path
    assert builds(s, "road") == {side(g, 0, -2, "NW"), side(g, 0, -2, "NE")}
    assert len(g.pieces[g.piece_index["road"]].allowed) == 72


# ---- the set-up (A.4) -------------------------------------------------------------------------------


@rule(BASE_RULES, "round backward {")
def test_base_setup_is_in_snake_order():
    """Each player places a settlement and a road clockwise from the start player, then a
    second settlement and road in the reverse order, the start player last."""
    s = setup_state(start=2)
    settlers = [p for p, a in play_setup(s) if a.piece == "settlement"]
    assert settlers == [2, 3, 0, 1, 1, 0, 3, 2]


@rule(BASE_RULES, "place road touching last", after="round forward {")
def test_base_setup_road_touches_the_new_settlement():
    """A set-up road must touch the settlement just placed."""
    g = g4()
    s = setup_state()
    act(s, A.Build("settlement", corner(g, 0, 0, "N")))
    assert builds(s, "road") == set(g.board.corner_paths[corner(g, 0, 0, "N")])


@rule(BASE_RULES, "collect last")
def test_base_setup_second_settlement_collects():
    """Each player takes one resource for each terrain hex next to the second settlement;
    the first settlement yields nothing."""
    g = g4()
    s = setup_state()
    second = {}
    for p, a in play_setup(s):
        if a.piece == "settlement":
            second[p] = a.at  # the later placement wins
    for p, c in second.items():
        owed = Counter(g.resources[g.hex_resource[h]] for h in g.board.corner_hexes[c] if g.hex_resource[h] >= 0)
        assert hand(s, p) == {r: owed[r] for r in g.resources}


@rule(BASE_RULES, "place settlement", after="round backward {")
def test_base_setup_settlement_needs_no_road_but_keeps_the_distance():
    """A set-up settlement needs no road (the second need not touch the first), but the
    distance rule holds."""
    g = g4()
    s = setup_state()
    first = corner(g, 0, 0, "N")
    act(s, A.Build("settlement", first), A.Build("road", side(g, 0, 0, "NE")))
    spots = builds(s, "settlement")
    assert corner(g, 2, 0, "S") in spots  # far from any road
    assert not spots & set(g.board.corner_neighbours[first]) and first not in spots


@rule(BASE_RULES, "round forward {")
def test_base_start_player_is_drawn_and_plays_first():
    """The start player is drawn at random (each seat equally likely), places first and takes
    the first turn."""
    g = g4()
    s = g.new_initial_state()
    assert sorted(pr for _, pr in s.chance_outcomes()) == [0.25] * 4
    act(s, A.StartPlayer(3))
    assert s.current_player() == 3
    play_setup(s)
    assert s.turn_player == 3 and s.turns == 1


@rule(BASE_MAP, "start robber on desert", after="when layout is beginner")
def test_base_robber_starts_on_the_desert():
    """The robber starts on the desert."""
    g = g4()
    assert sites_of(g.new_initial_state(), "robber") == [hexid(g, 0, 0)]


# ---- the turn (A.5) ---------------------------------------------------------------------------------


@rule(BASE_RULES, "phase roll { roll; play }")
def test_base_the_turn_begins_with_the_roll():
    """A turn begins with the production roll: nothing is traded or built before it."""
    g = g4()
    s = position(g).place(0, "settlement", (0, -1, "N")).hand(0, brick=4, lumber=1).state()
    assert s.is_chance_node()
    refused(s, A.Build("road", side(g, 0, -1, "NE")))
    refused(s, A.BankTrade("brick", "ore"))


@rule(BASE_RULES, "play 1 per turn, not the turn bought")
def test_base_a_card_may_be_played_before_the_roll():
    """A development card may be played before the roll."""
    s = position(g4()).cards(0, held={"knight": 1}).state()
    assert set(legal(s)) == {A.PlayCard("knight"), A.RollDice()}
    act(s, A.PlayCard("knight"))
    assert of_kind(s, A.Move)


@rule(BASE_RULES, "item combined \"trade and build in any order\" default", option="trade_build=combined")
def test_base_trade_and_build_in_any_order():
    """By default (5th edition) trading and building mix freely after the roll."""
    g = g4()
    s = main(position(g).place(0, "settlement", (0, -1, "N")).hand(0, brick=6, lumber=1)).state()
    act(s, A.Build("road", side(g, 0, -1, "NE")))
    act(s, A.BankTrade("brick", "lumber"))
    act(s, A.Build("road", side(g, 0, -1, "E")))
    assert cards(s, 0) == 0


@rule(BASE_RULES, "item separate \"trade first, then build\"", alternative="trade_build=separate")
def test_base_older_rules_trade_first_then_build():
    """With the older rules' option, trading ends with the first build or purchase of the turn."""
    g = game(BASE, 4, trade_build="separate")
    s = main(position(g).place(0, "settlement", (0, -1, "N")).hand(0, brick=9, lumber=1)).state()
    act(s, A.BankTrade("brick", "lumber"))
    act(s, A.Build("road", side(g, 0, -1, "NE")))
    refused(s, A.BankTrade("brick", "ore"))
    assert A.Build("road", side(g, 0, -1, "E")) in legal(s) and not of_kind(s, A.BankTrade)


@rule(BASE_RULES, "phase main { trade; build; buy; play; move }")
def test_base_play_passes_clockwise():
    """When a player ends the turn, play passes to the next player clockwise."""
    s = main(position(g4()), 3).state()
    act(s, A.EndTurn())
    assert s.turn_player == 0 and s.turns == 2 and s.is_chance_node()
    roll(s, 5)
    act(s, A.EndTurn())
    assert s.turn_player == 1


# ---- production (A.6) ---------------------------------------------------------------------------------


@rule(BASE_RULES, "produces 2")
def test_base_settlement_takes_one_city_two():
    """On its number a hex gives each settlement beside it 1 card and each city 2."""
    s = position(g4()).place(1, "settlement", (0, -2, "S")).place(2, "city", (0, -2, "NE")).state()
    roll(s, 10)  # the mountains (0,-2)
    assert hand(s, 1)["ore"] == 1 and hand(s, 2)["ore"] == 2


@rule(BASE_RULES, "produce(roll)")
def test_base_every_player_collects_on_every_roll():
    """A roll pays every player with a building next to a hex of that number, not only the
    roller; every hex with the number produces."""
    s = position(g4()).place(1, "settlement", (0, -2, "S")).place(3, "settlement", (2, -1, "S")).state()
    roll(s, 10)  # mountains (0,-2) and hills (2,-1)
    assert hand(s, 1)["ore"] == 1 and hand(s, 3)["brick"] == 1 and cards(s, 0) == 0


@rule(BASE_RULES, "blocks production")
def test_base_robber_blocks_its_hex():
    """The hex under the robber produces nothing for anyone."""
    g = g4()
    s = position(g).place(1, "settlement", (0, -2, "S")).neutral("robber", (0, -2)).state()
    roll(s, 10)
    assert cards(s, 1) == 0


@rule(BASE_RULES, "produce(roll)")
def test_base_bank_short_for_several_pays_none():
    """When the bank cannot pay everyone all the cards of a resource they are owed and
    several players are owed it, nobody receives that resource."""
    s = (position(g4()).place(1, "settlement", (0, -2, "S")).place(2, "city", (0, -2, "NE"))
         .hand(3, ore=17).state())  # 2 ore left, 3 owed
    roll(s, 10)
    assert hand(s, 1)["ore"] == hand(s, 2)["ore"] == 0 and s.bank[4] == 2


@rule(BASE_RULES, "produce(roll)")
def test_base_bank_short_for_one_pays_what_is_left():
    """When only one player is owed a resource the bank is short of, that player takes what
    is left."""
    s = position(g4()).place(2, "city", (0, -2, "NE")).hand(3, ore=18).state()
    roll(s, 10)
    assert hand(s, 2)["ore"] == 1 and s.bank[4] == 0


@rule(BASE_RULES, "produce(roll)")
def test_base_bank_shortage_spares_other_resources():
    """A shortage of one resource does not stop the others: they are paid as usual."""
    s = (position(g4()).place(1, "settlement", (0, -2, "S")).place(2, "city", (0, -2, "NE"))
         .place(1, "settlement", (2, -1, "S")).hand(3, ore=17).state())
    roll(s, 10)
    assert hand(s, 1) == {"brick": 1, "lumber": 0, "wool": 0, "grain": 0, "ore": 0}


# ---- the 7 and the robber (A.7) ----------------------------------------------------------------


@rule(BASE_RULES, "discard_half(7)")
def test_base_seven_more_than_seven_cards_discard_half():
    """On a 7 every player holding more than 7 resource cards discards half of them, rounded
    down, choosing which; 7 cards or fewer are safe."""
    s = (position(g4()).hand(0, brick=8).hand(1, brick=2, lumber=3, wool=4)
         .hand(2, grain=7, ore=4).hand(3, ore=7).state())
    roll(s, 7)
    owed = dict(s.top().owed)
    assert owed == {0: 4, 1: 4, 2: 5}
    assert s.current_player() == 0 and legal(s) == [A.Discard("brick")]
    act(s, *[A.Discard("brick")] * 4)
    assert set(legal(s)) == {A.Discard("brick"), A.Discard("lumber"), A.Discard("wool")}  # seat 1 chooses
    act(s, *[A.Discard("wool")] * 4)
    act(s, *[A.Discard("grain")] * 5)
    assert [cards(s, p) for p in range(4)] == [4, 5, 6, 7]


@rule(BASE_RULES, "discard_half(7)")
def test_base_development_cards_do_not_count_toward_the_discard():
    """Development cards do not count toward the 7 cards."""
    s = position(g4()).hand(1, brick=7).cards(1, held={"knight": 3}).state()
    roll(s, 7)
    assert s.current_player() == 0 and of_kind(s, A.Move) and cards(s, 1) == 7


@rule(BASE_RULES, "move_piece(player, [robber])", after="rule seven {")
def test_base_seven_robber_must_move_to_another_land_hex():
    """On a 7 the roller must move the robber to another terrain hex: never the sea, never
    where it stands."""
    g = g4()
    s = position(g).state()
    roll(s, 7)
    land = {h for h in range(len(g.board.hexes)) if not g.board.hex_water[h]}
    assert moves(s, "robber") == land - {hexid(g, 0, 0)}
    assert not [a for a in legal(s) if not isinstance(a, A.Move)]  # no way round it


@rule(BASE_RULES, "on hex where land(at)")
def test_base_robber_may_go_back_to_the_desert():
    """The desert is a legal place for the robber."""
    g = g4()
    s = position(g).neutral("robber", (0, -2)).state()
    roll(s, 7)
    assert hexid(g, 0, 0) in moves(s, "robber")


@rule(BASE_RULES, "steals from settlement, city")
def test_base_robber_steals_from_a_player_beside_its_hex():
    """After moving the robber the roller steals from one player of their choice with a
    settlement or city beside the new hex who holds a card; never from themselves."""
    g = g4()
    s = (position(g).place(0, "settlement", (0, -2, "S")).place(1, "settlement", (0, -2, "N"))
         .place(2, "city", (0, -2, "NE")).place(3, "settlement", (2, 0, "S"))
         .hand(0, wool=1).hand(1, ore=1).hand(2, grain=1).hand(3, brick=1).state())
    roll(s, 7)
    act(s, A.Move("robber", hexid(g, 0, -2)))
    assert set(legal(s)) == {A.Steal(1), A.Steal(2)}


@rule(BASE_RULES, "steals from settlement, city")
def test_base_robber_steals_nothing_from_an_empty_hand():
    """A player beside the robber's hex without resource cards cannot be robbed; with nobody
    to rob the turn goes on."""
    g = g4()
    s = position(g).place(1, "settlement", (0, -2, "N")).cards(1, held={"knight": 1}).state()
    roll(s, 7)
    act(s, A.Move("robber", hexid(g, 0, -2)))
    assert A.EndTurn() in legal(s) and not of_kind(s, A.Steal)


@rule(BASE_RULES, "steals from settlement, city")
def test_base_steal_takes_one_random_card():
    """The robber takes one resource card, drawn at random from the victim's hand."""
    g = g4()
    s = position(g).place(1, "settlement", (0, -2, "N")).hand(1, ore=3, wool=1).state()
    roll(s, 7)
    act(s, A.Move("robber", hexid(g, 0, -2)), A.Steal(1))
    odds = {g.actions[a].resource: p for a, p in s.chance_outcomes()}
    assert odds == pytest.approx({"ore": 0.75, "wool": 0.25})
    act(s, A.Stolen("ore"))
    assert hand(s, 0)["ore"] == 1 and cards(s, 1) == 3


# ---- maritime trade (A.8) ---------------------------------------------------------------------------


@rule(BASE_RULES, "trade bank 4:1")
def test_base_bank_trade_four_to_one():
    """With the bank the active player trades 4 cards of one resource for 1 of any other."""
    s = main(position(g4()).hand(0, brick=4, wool=3)).state()
    trades = set(of_kind(s, A.BankTrade))
    assert trades == {A.BankTrade("brick", r) for r in ("lumber", "wool", "grain", "ore")}
    act(s, A.BankTrade("brick", "ore"))
    assert hand(s, 0) == {"brick": 0, "lumber": 0, "wool": 3, "grain": 0, "ore": 1}


@rule(BASE_MAP, "3:1 at (0, -2) NW")
@pytest.mark.parametrize("end", ["N", "NW"])
def test_base_generic_harbor_three_to_one_at_either_end(end):
    """A settlement or city on either intersection of a generic harbor trades 3 identical
    cards for 1."""
    s = main(position(g4()).place(0, "settlement", (0, -2, end)).hand(0, wool=3)).state()
    act(s, A.BankTrade("wool", "ore"))
    assert hand(s, 0)["wool"] == 0 and hand(s, 0)["ore"] == 1


@rule(BASE_MAP, "wool 2:1 at (1, -2) NE")
def test_base_special_harbor_two_to_one_for_its_resource_only():
    """On a special harbor 2 cards of that harbor's resource trade for 1; other resources
    still go 4:1."""
    s = main(position(g4()).place(0, "city", (1, -2, "N")).hand(0, wool=2, brick=3)).state()
    assert set(of_kind(s, A.BankTrade)) == {A.BankTrade("wool", r) for r in ("brick", "lumber", "grain", "ore")}
    act(s, A.BankTrade("wool", "grain"))
    assert hand(s, 0)["wool"] == 0 and hand(s, 0)["grain"] == 1


@rule(BASE_RULES, "trade bank 4:1")
def test_base_only_the_active_player_trades_with_the_bank():
    """Only the player whose turn it is trades with the bank."""
    s = main(position(g4()).hand(1, brick=4)).state()
    assert s.legal_actions(player=1) == []
    refused(s, A.BankTrade("brick", "ore"))


# ---- development cards (A.9) -----------------------------------------------------------------------


@rule(BASE_RULES, "deck development {")
def test_base_deck_of_25_development_cards():
    """The deck holds 25 cards: 14 Knights, 5 Victory Points, 2 Road Building, 2 Year of
    Plenty and 2 Monopoly."""
    g = g4()
    assert dict(zip((c.name for c in g.cards), position(g).state().deck)) == {
        "knight": 14, "victory_point": 5, "road_building": 2, "year_of_plenty": 2, "monopoly": 2}


@rule(BASE_RULES, "play 1 per turn, not the turn bought")
def test_base_a_card_bought_this_turn_waits():
    """A card bought this turn cannot be played this turn."""
    s = main(position(g4()).cards(0, held={"knight": 1}, bought={"knight": 1})).state()
    assert A.PlayCard("knight") not in legal(s)
    refused(s, A.PlayCard("knight"))


@rule(BASE_RULES, "play 1 per turn, not the turn bought")
def test_base_one_development_card_a_turn():
    """A player plays at most one development card a turn."""
    s = main(position(g4()).cards(0, held={"monopoly": 1, "year_of_plenty": 1})).state()
    act(s, A.PlayCard("monopoly"), A.ChooseResource("ore"))
    assert A.PlayCard("year_of_plenty") not in legal(s)
    refused(s, A.PlayCard("year_of_plenty"))


@rule(BASE_RULES, "hidden")
def test_base_victory_point_cards_count_hidden_at_once():
    """A Victory Point card is never played: it counts 1 point for its holder from the moment
    it is bought, hidden from the others."""
    g = g4()
    s = main(position(g).hand(0, ore=1, wool=1, grain=1)).state()
    act(s, A.BuyCard("development"), A.Draw("development", "victory_point"))
    assert s.points(0) == 1 and s.public_points(0) == 0
    assert s.observation(1)["scores"][0] == 0 and s.observation(0)["scores"][0] == 1
    assert A.PlayCard("victory_point") not in legal(s)


@rule(BASE_RULES, "card victory_point 5")
def test_base_victory_point_card_can_win_at_once():
    """A player who reaches 10 points by buying a Victory Point card wins at once."""
    pos = position(g4())
    for at in [(0, -2, "N"), (2, -2, "N"), (-2, 0, "N"), (2, 0, "S")]:
        pos.place(0, "city", at)
    s = main(pos.cards(0, held={"victory_point": 1}).hand(0, ore=1, wool=1, grain=1)).state()
    assert s.points(0) == 9 and not s.is_terminal()
    act(s, A.BuyCard("development"), A.Draw("development", "victory_point"))
    assert s.is_terminal() and s.winner == 0


@rule(BASE_RULES, "on play { move_piece(player, [robber]) }")
def test_base_knight_moves_the_robber_and_steals_without_discards():
    """A Knight moves the robber and steals as a 7 does, but nobody discards."""
    g = g4()
    s = (position(g).place(1, "settlement", (0, -2, "N")).hand(1, ore=9).hand(2, brick=9)
         .cards(0, held={"knight": 1}).state())
    act(s, A.PlayCard("knight"))
    assert of_kind(s, A.Move) and s.current_player() == 0
    act(s, A.Move("robber", hexid(g, 0, -2)), A.Steal(1), A.Stolen("ore"))
    assert cards(s, 1) == 8 and cards(s, 2) == 9 and hand(s, 0)["ore"] == 1
    assert s.played[0][g.card_index["knight"]] == 1


@rule(BASE_RULES, "build_free(player, [road], 2)")
def test_base_road_building_places_two_free_roads():
    """Road Building places 2 roads for nothing, by the usual placement rules."""
    g = g4()
    s = main(position(g).place(0, "settlement", (0, -1, "N")).cards(0, held={"road_building": 1})).state()
    act(s, A.PlayCard("road_building"))
    assert builds(s, "road") == set(g.board.corner_paths[corner(g, 0, -1, "N")])
    act(s, A.Build("road", side(g, 0, -1, "NE")))
    assert side(g, 0, -1, "E") in builds(s, "road")  # from the new road
    act(s, A.Build("road", side(g, 0, -1, "E")))
    assert s.placed[0][g.piece_index["road"]] == 2 and s.bank == [19] * 5 and A.EndTurn() in legal(s)


@rule(BASE_RULES, "card year_of_plenty 2")
def test_base_year_of_plenty_takes_two_of_choice():
    """Year of Plenty takes any 2 resource cards from the bank, the same or different."""
    s = main(position(g4()).cards(0, held={"year_of_plenty": 1})).state()
    act(s, A.PlayCard("year_of_plenty"), A.ChooseResource("ore"), A.ChooseResource("ore"))
    assert hand(s, 0)["ore"] == 2 and s.bank[4] == 17


@rule(BASE_RULES, "take_from_bank(player, choose_from_bank(player), 1)", after="card year_of_plenty 2")
def test_base_year_of_plenty_takes_only_what_the_bank_has():
    """Year of Plenty offers only what the bank still holds; with one card left, the player
    takes that one."""
    s = main(position(g4()).hand(1, brick=19, lumber=19, wool=19, grain=19, ore=18)
             .cards(0, held={"year_of_plenty": 1})).state()
    act(s, A.PlayCard("year_of_plenty"))
    assert legal(s) == [A.ChooseResource("ore")]
    act(s, A.ChooseResource("ore"))
    assert hand(s, 0)["ore"] == 1 and not s.pending


@rule(BASE_RULES, "monopoly(player, choose_resource(player))")
def test_base_monopoly_takes_every_card_of_the_named_resource():
    """Monopoly names a resource: every other player hands over all their cards of it."""
    s = (main(position(g4()).cards(0, held={"monopoly": 1}).hand(0, grain=1))
         .hand(1, grain=3, ore=1).hand(2, grain=2).hand(3, wool=4).state())
    act(s, A.PlayCard("monopoly"), A.ChooseResource("grain"))
    assert hand(s, 0)["grain"] == 6 and [cards(s, p) for p in (1, 2, 3)] == [1, 0, 4]


# ---- Longest Road (A.10) -------------------------------------------------------------------------------


def _lines(g, *lengths: int) -> list[list[int]]:
    """Lines of roads far from each other (no intersection of one next to another's)."""
    out: list[list[int]] = []
    starts = [corner(g, 0, 0, "N"), corner(g, -2, 2, "S"), corner(g, 2, 0, "S")]
    avoid: frozenset[int] = frozenset()
    for n, start in zip(lengths, starts):
        paths = trail(g, start, n, avoid=avoid)
        out.append(paths)
        avoid |= near(g, line(g, start, paths))
    return out


def _with_roads(pos, seat, paths):
    for k in paths:
        pos.place(seat, "road", k)
    return pos


@rule(BASE_RULES, "min 5", after="award longest_road {")
def test_base_longest_road_needs_five_roads_and_is_worth_two():
    """Longest Road goes to the first player with a continuous road of at least 5 paths, and
    is worth 2 points."""
    g = g4()
    (paths,) = _lines(g, 5)
    s = main(_with_roads(position(g), 0, paths[:4]).hand(0, brick=1, lumber=1)).state()
    assert holder(s, "longest_road") == -1 and s.points(0) == 0
    act(s, A.Build("road", paths[4]))
    assert holder(s, "longest_road") == 0 and s.points(0) == 2


@rule(BASE_RULES, "measure longest_route(player, [road])")
def test_base_a_fork_counts_only_its_longest_branch():
    """Where a road forks, only the single longest trail through it counts."""
    g = g4()
    trunk = ring(g, 0, 0)[:4]  # N, NE, SE, S, SW of the desert
    branch = [side(g, 1, -1, "SE"), side(g, 1, -1, "E")]  # out of its NE corner
    s = _with_roads(position(g), 0, trunk + branch).state()
    assert queries.route_length(s, 0) == 5  # branch (2) + NE corner to SW (3)


@rule(BASE_RULES, "measure longest_route(player, [road])")
def test_base_a_loop_counts_every_road():
    """A road that closes into a loop counts all its paths."""
    g = g4()
    s = _with_roads(position(g), 0, ring(g, 0, 0) + [side(g, 0, -1, "E")]).state()
    assert queries.route_length(s, 0) == 7


@rule(BASE_RULES, "measure longest_route(player, [road])")
def test_base_an_opponent_building_breaks_a_road():
    """An opponent's settlement on an intersection of a road breaks it there: the trail may
    end at it but not pass through."""
    g = g4()
    (paths,) = _lines(g, 5)
    pos = _with_roads(position(g), 0, paths)
    assert holder(pos.state(), "longest_road") == 0
    middle = line(g, corner(g, 0, 0, "N"), paths)[2]
    s = pos.place(1, "settlement", middle).state()
    assert queries.route_length(s, 0) == 3 and holder(s, "longest_road") == -1
    s = pos.remove("settlement", middle).place(0, "settlement", middle).state()  # the owner's own: no break
    assert queries.route_length(s, 0) == 5


@rule(BASE_RULES, "award longest_road {")
def test_base_longest_road_taken_only_by_a_longer_road():
    """Another player takes Longest Road only with a strictly longer road than the holder's."""
    g = g4()
    mine, theirs = _lines(g, 5, 6)
    pos = _with_roads(_with_roads(position(g), 0, mine), 1, theirs[:4])
    s = main(pos.hand(1, brick=2, lumber=2), 1).state()
    assert holder(s, "longest_road") == 0
    act(s, A.Build("road", theirs[4]))
    assert holder(s, "longest_road") == 0  # 5 against 5: the holder keeps it
    act(s, A.Build("road", theirs[5]))
    assert holder(s, "longest_road") == 1


def _broken(lengths, cut_after: int):
    """Seat 0 holds Longest Road with the first line; seat 3 settles on the line's
    intersection after `cut_after` paths (by the rules: seat 3's road leads there)."""
    g = g4()
    lines = _lines(g, *lengths)
    pos = position(g)
    for seat, paths in enumerate(lines):
        _with_roads(pos, seat, paths)
    assert holder(pos.state(), "longest_road") == 0
    cut = line(g, corner(g, 0, 0, "N"), lines[0])[cut_after]
    roads = g.pieces[g.piece_index["road"]].allowed_set
    spur = next(k for k in g.board.corner_paths[cut] if k not in lines[0] and k in roads)
    s = main(pos.place(3, "road", spur).hand(3, brick=1, lumber=1, wool=1, grain=1), 3).state()
    act(s, A.Build("settlement", cut))
    return s


@rule(BASE_RULES, "award longest_road {")
def test_base_broken_holder_still_longest_keeps_the_card():
    """A holder whose road is broken keeps Longest Road while still longest or tied for
    longest."""
    s = _broken((6, 5), cut_after=1)  # 1 + 5 against 5
    assert queries.route_length(s, 0) == 5 and holder(s, "longest_road") == 0


@rule(BASE_RULES, "award longest_road {")
def test_base_broken_road_passes_to_the_single_longest():
    """When the holder's road is broken and exactly one other player is now longest (with 5
    or more), that player takes Longest Road."""
    s = _broken((6, 5), cut_after=3)  # 3 + 3 against 5
    assert holder(s, "longest_road") == 1


@rule(BASE_RULES, "award longest_road {")
def test_base_broken_road_tie_sets_the_card_aside():
    """When the holder's road is broken and several others tie for longest, or nobody has 5,
    the card is set aside."""
    s = _broken((6, 5, 5), cut_after=3)
    assert holder(s, "longest_road") == -1
    s = _broken((6,), cut_after=3)
    assert holder(s, "longest_road") == -1


# ---- Largest Army (A.11) --------------------------------------------------------------------------------


@rule(BASE_RULES, "measure played(player, [knight])")
def test_base_largest_army_at_three_knights():
    """The first player with 3 Knights played takes Largest Army, worth 2 points."""
    g = g4()
    s = main(position(g).cards(0, held={"knight": 1}, played={"knight": 2})).state()
    assert holder(s, "largest_army") == -1
    act(s, A.PlayCard("knight"), A.Move("robber", hexid(g, 0, -2)))
    assert holder(s, "largest_army") == 0 and s.points(0) == 2


@rule(BASE_RULES, "min 3", after="award largest_army {")
def test_base_largest_army_taken_only_by_more_knights():
    """Another player takes Largest Army only with strictly more Knights played than the holder."""
    g = g4()
    s = main(position(g).cards(0, played={"knight": 3}).cards(1, held={"knight": 2}, played={"knight": 2}), 1).state()
    assert holder(s, "largest_army") == 0
    act(s, A.PlayCard("knight"), A.Move("robber", hexid(g, 0, -2)))
    assert holder(s, "largest_army") == 0  # 3 against 3
    act(s, A.EndTurn())
    for _ in range(3):
        roll(s, 5)
        act(s, A.EndTurn())
    act(s, A.PlayCard("knight"), A.Move("robber", hexid(g, 0, 0)))
    assert holder(s, "largest_army") == 1


# ---- victory (A.12) ---------------------------------------------------------------------------------


def _nine_points(pos, seat):
    for at in [(0, -2, "N"), (2, -2, "N"), (-2, 0, "N")]:
        pos.place(seat, "city", at)
    for at in [(2, 0, "S"), (-2, 2, "S"), (0, 2, "S")]:
        pos.place(seat, "settlement", at)
    return pos


@rule(BASE_RULES, "victory 10")
def test_base_ten_points_win_at_once():
    """The game ends as soon as the player whose turn it is has 10 victory points."""
    s = main(_nine_points(position(g4()), 0).hand(0, ore=3, grain=2)).state()
    assert s.points(0) == 9 and not s.is_terminal()
    act(s, A.Build("city", corner(g4(), -2, 2, "S")))
    assert s.is_terminal() and s.winner == 0 and s.reason == "victory"


@rule(BASE_RULES, "victory 10")
def test_base_win_only_on_the_own_turn():
    """A player with 10 points in another player's turn wins only in their own turn."""
    pos = _nine_points(position(g4()), 1).cards(1, held={"victory_point": 1})
    s = main(pos.hand(0, brick=4)).state()
    assert s.points(1) == 10
    act(s, A.BankTrade("brick", "ore"))
    assert not s.is_terminal()
    act(s, A.EndTurn())
    assert s.is_terminal() and s.winner == 1
