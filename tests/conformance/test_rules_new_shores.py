"""Heading for New Shores (scenarios/seafarers/heading_for_new_shores.catan): the maps for
3 and 4 players, where the robber and the pirate start, the start on the main island,
and the special victory points of the small islands (the landmarks of positions.py)."""

from __future__ import annotations

from collections import Counter

import catandsl
from catandsl.engine import actions as A
from tests.conformance.catalog import rule
from tests.conformance.play import act, builds, moves, roll, sites_of
from tests.conformance.positions import NEW_SHORES, game, main, position, scenario, wins_at
from tests.conformance.sites import C2, HOME, P1, P2, corner, hexid

NS = NEW_SHORES


def ns(players: int = 4, **options):
    return game(NS, players, **{"harbor_setup": "shuffled", **options})


def land(b, island=None) -> Counter:
    return Counter(b.terrain(h) for h in range(len(b.hexes))
                   if not b.hex_water[h] and (island is None or b.hex_island[h] in island))


def small(b) -> list[int]:
    """The sizes of the islands other than the main island."""
    main_island = b.island_names["main"]
    return sorted(len(hexes) for k, hexes in enumerate(b.islands) if k not in main_island)


def settle_c2(g):
    """Seat 0's settlement at HOME and ships P1, P2 to the small island; then (bought) a
    settlement at C2, its first there."""
    pos = position(g).place(0, "settlement", HOME).place(0, "ship", P1).place(0, "ship", P2)
    s = main(pos.hand(0, brick=1, lumber=1, wool=1, grain=1)).state()
    act(s, A.Build("settlement", corner(g, *C2)))
    return s


@rule(NS, "item standard 14 \"14 victory points\" default", option="target=standard")
def test_new_shores_fourteen_points_win():
    """14 victory points win, with 3 or 4 players."""
    for players in (3, 4):
        wins_at(ns(players), 14)


@rule(NS, "item old 13 \"13 victory points\"", alternative="target=old")
def test_new_shores_thirteen_points_win_by_option():
    """With the option `old`, 13 victory points win."""
    for players in (3, 4):
        wins_at(ns(players, target="old"), 13)


@rule(NS, "place settlement where on_island(at, main)", after="setup {")
def test_new_shores_both_start_settlements_on_the_main_island():
    """Both starting settlements go on the main island."""
    for players in (3, 4):
        g = ns(players)
        s = g.new_initial_state()
        act(s, A.StartPlayer(0))
        main_island = set(g.board.island_names["main"])
        spots = builds(s, "settlement")
        on_main = {c for c in g.pieces[g.piece_index["settlement"]].allowed
                   if main_island & set(g.board.corner_islands[c])}
        assert spots == on_main and len(on_main) < len(g.pieces[g.piece_index["settlement"]].allowed)


@rule(NS, "vp_token(player, at, island_bonus)", option="island_bonus=old")
def test_new_shores_first_settlement_on_a_small_island_earns_a_point():
    """A player's first settlement on a small island earns 1 special victory point, laid under
    it."""
    g = ns()
    s = settle_c2(g)
    assert s.vp_tokens == [(0, corner(g, *C2), 1)] and s.points(0) == 2 + 1


@rule(NS, "item current 2 \"2 (4th/5th edition)\"", alternative="island_bonus=current")
def test_new_shores_a_small_island_earns_two_points_by_option():
    """With the option `current` (the 4th/5th edition), the first settlement on a small island
    earns 2 special victory points."""
    g = ns(island_bonus="current")
    s = settle_c2(g)
    assert s.vp_tokens == [(0, corner(g, *C2), 2)] and s.points(0) == 2 + 2


@rule(NS, "on built(settlement) if not on_island(at, main) and first_on(player, island(at))")
def test_new_shores_the_island_point_once_per_player_and_island():
    """Each player earns an island's point once, with their first settlement there, whoever
    else already lives on it."""
    g = ns()
    pos = position(g).place(0, "settlement", (3, 1, "N"))  # seat 0 lives there already
    pos.place(1, "settlement", HOME).place(1, "ship", P1).place(1, "ship", P2)
    s = main(pos.hand(1, brick=1, lumber=1, wool=1, grain=1), 1).state()
    act(s, A.Build("settlement", corner(g, *C2)))
    assert s.vp_tokens == [(1, corner(g, *C2), 1)]


@rule(NS, "on built(settlement) if not on_island(at, main) and first_on(player, island(at))")
def test_new_shores_a_second_settlement_on_the_island_earns_nothing():
    """A player's second settlement on the same small island earns no more."""
    g = ns()
    pos = position(g).place(0, "settlement", C2).place(0, "ship", (3, 1, "SE"))
    s = main(pos.hand(0, brick=1, lumber=1, wool=1, grain=1)).state()
    spot = corner(g, 3, 1, "SE")  # the ship's far end, on the same island
    assert spot in builds(s, "settlement")
    act(s, A.Build("settlement", spot))
    assert s.vp_tokens == [] and s.points(0) == 2


@rule(NS, "on built(settlement) if not on_island(at, main) and first_on(player, island(at))")
def test_new_shores_no_point_on_the_main_island():
    """Settlements on the main island earn no special victory points."""
    g = ns()
    pos = position(g).place(0, "road", (1, 3, "NE"))
    s = main(pos.hand(0, brick=1, lumber=1, wool=1, grain=1)).state()
    act(s, A.Build("settlement", corner(g, 1, 3, "N")))
    assert s.vp_tokens == [] and s.points(0) == 1


@rule(NS, "vp_token(player, at, island_bonus)")
def test_new_shores_special_points_are_never_lost():
    """Special victory points stay with the building that earned them when it becomes a city."""
    g = ns()
    s = settle_c2(g)
    pos = catandsl.position(g, s).hand(0, ore=3, grain=2)
    s = pos.state()
    act(s, A.Build("city", corner(g, *C2)))
    assert s.vp_tokens == [(0, corner(g, *C2), 1)] and s.points(0) == 1 + 2 + 1


@rule(NS, "start robber off board", after="# 3 players (C.4)", option="edition=seed")
def test_new_shores_robber_and_pirate_start_beside_the_board():
    """The pirate starts beside the board, and so does the robber on the 3-player map, which
    has no desert; on the 4-player map the robber starts on the desert."""
    s = position(ns(3)).state()
    assert sites_of(s, "robber") == [-1] and sites_of(s, "pirate") == [-1]
    g = ns(4)
    s = position(g).state()
    (desert,) = [h for h in range(len(g.board.hexes)) if g.board.terrain(h) == "desert"]
    assert sites_of(s, "robber") == [desert] and sites_of(s, "pirate") == [-1]


@rule(NS, "start robber on hills 12", alternative="edition=fifth")
def test_new_shores_fifth_edition_start_hexes():
    """With the option `fifth`, the robber starts on the small island's hills with the 12 (3
    players) or the desert (4), the pirate on the marked sea hex."""
    g = ns(3, edition="fifth")
    s = position(g).state()
    robber = sites_of(s, "robber")[0]
    assert (g.board.terrain(robber), g.board.hex_number[robber]) == ("hills", 12)
    assert sites_of(s, "pirate") == [hexid(g, 5, 4)]
    g = ns(4, edition="fifth")
    assert sites_of(position(g).state(), "pirate") == [hexid(g, 6, 4)]


@rule(NS, "start robber off board", after="# 3 players (C.4)")
def test_new_shores_a_robber_beside_the_board_comes_in_on_a_seven():
    """A robber beside the board enters play on the first 7 (or Knight), onto any land hex."""
    g = ns(3)
    s = position(g).state()
    roll(s, 7)
    assert moves(s, "robber") == {h for h in range(len(g.board.hexes)) if not g.board.hex_water[h]}


@rule(NS, "pool small shuffled [hills, mountains x2, pasture, fields, gold x2]", option="tables=fifth")
def test_new_shores_three_player_map():
    """For 3 players: a main island of 14 hexes without a desert (fields 3, hills 2, mountains
    2, pasture 4, forest 3) and small islands of 2, 4 and 2 hexes holding 2 gold fields;
    22 numbers; 8 harbors, 5 of them special."""
    for seed in (1, 2):
        b = game(NS, 3, seed, harbor_setup="shuffled").board
        main_island = b.island_names["main"]
        assert land(b, main_island) == {"fields": 3, "hills": 2, "mountains": 2, "pasture": 4, "forest": 3}
        assert small(b) == [2, 2, 4] and land(b)["gold"] == 2 and "desert" not in land(b)
        assert sum(1 for n in b.hex_number if n) == 22
        assert Counter(h.type.give for h in b.harbors) == {2: 5, 3: 3}


@rule(NS, "pool small shuffled [hills x2, mountains x2, pasture, fields, forest, gold x2]",
      fixed="the only other source's counts per island do not add up to its own totals: no playable "
            "split but this one (JSettlers2's), whose totals both agree on")
def test_new_shores_four_player_map():
    """For 4 players: the base game's 19-hex island with its desert and its numbers along the
    letter spiral, small islands of 2, 5 and 2 hexes holding 2 gold fields and one each of
    the numbers 2 to 11 but 7; 9 harbors, 5 of them special."""
    for seed in (1, 2):
        b = game(NS, 4, seed, harbor_setup="shuffled").board
        main_island = b.island_names["main"]
        assert land(b, main_island) == {"desert": 1, "fields": 4, "hills": 3, "mountains": 3,
                                        "pasture": 4, "forest": 4}
        assert small(b) == [2, 2, 5] and land(b)["gold"] == 2
        on_small = Counter(b.hex_number[h] for h in range(len(b.hexes))
                           if not b.hex_water[h] and b.hex_island[h] not in main_island)
        assert on_small == Counter([2, 3, 4, 5, 6, 8, 9, 10, 11])
        assert Counter(h.type.give for h in b.harbors) == {2: 5, 3: 4}


@rule(NS, "item seed \"the seed's: the base game's island and eight small-island hexes\"",
      alternative="tables=seed")
def test_new_shores_the_seeds_tables():
    """The option `seed` plays the old rules' tables: the base game's island and small islands
    of 8 hexes (2 gold), numbered 2, 3, 4, 5, 8, 9, 10 and 11; 9 harbors."""
    b = game(NS, 4, 1, harbor_setup="shuffled", tables="seed").board
    main_island = b.island_names["main"]
    assert sum(small(b)) == 8 and land(b)["gold"] == 2
    on_small = sorted(b.hex_number[h] for h in range(len(b.hexes))
                      if not b.hex_water[h] and b.hex_island[h] not in main_island)
    assert on_small == [2, 3, 4, 5, 8, 9, 10, 11] and len(b.harbors) == 9


@rule(NS, "onto [main] avoid_adjacent [6, 8]")
def test_new_shores_no_red_numbers_side_by_side():
    """On the 3-player main island a 6 or an 8 never lies next to another 6 or 8."""
    for seed in range(8):
        b = catandsl.board_for(scenario(NS), 3, {"harbor_setup": "shuffled"}, seed)
        red = [h for h in range(len(b.hexes)) if b.hex_number[h] in (6, 8)]
        assert not [h for h in red if set(b.hex_neighbours[h]) & set(red)]
