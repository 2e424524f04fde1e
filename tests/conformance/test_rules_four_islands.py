"""The Four Islands (scenarios/seafarers/four_islands.catan): the maps, the starts, home
islands and the special victory points of foreign islands. The 3-player map of the
seed's tables (the default) has four islands of 4 hexes: 0 north-west, 1 north-east,
2 south-west, 3 south-east."""

from __future__ import annotations

from collections import Counter

import catandsl
from catandsl.engine import actions as A
from tests.conformance.catalog import rule
from tests.conformance.play import act, legal, sites_of
from tests.conformance.positions import FOUR_ISLANDS, game, main, position, wins_at
from tests.conformance.sites import hexid

FI = FOUR_ISLANDS


def fi(players: int = 3, **options):
    return game(FI, players, **{"harbor_setup": "shuffled", **options})


def coast(g, island: int, skip: int = 0) -> tuple[int, int]:
    """A coastal intersection of one island only, and the sea path beside it: the
    `skip`-th such pair (pairs far enough apart for the distance rule)."""
    b = g.board
    ship = g.pieces[g.piece_index["ship"]].allowed_set
    found: list[int] = []
    for c in g.pieces[g.piece_index["settlement"]].allowed:
        sea = [k for k in b.corner_paths[c] if k in ship and all(b.hex_water[h] for h in b.path_hexes[k])]
        if b.corner_islands[c] == (island,) and sea and not any(c in b.corner_neighbours[x] for x in found):
            found.append(c)
            if len(found) > skip:
                return c, sea[0]
    raise AssertionError(f"no coast on island {island}")


def settle(g, seat: int, homes: list[int], islands: list[int]) -> tuple[list[int], list[int]]:
    """The seat, whose home islands are `homes`, builds a settlement on each of `islands` in
    turn, each from a ship beside it: (points gained each time, special points each time)."""
    pos = position(g).edit(island_tags=[[seat, "home", i] for i in homes])
    spots = []
    for k, island in enumerate(islands):
        c, ship = coast(g, island, skip=islands[:k].count(island))
        pos.place(seat, "ship", ship)
        spots.append(c)
    s = main(pos, seat).state()
    gained, special = [], []
    for c in spots:
        before, tokens = s.points(seat), sum(n for p, _, n in s.vp_tokens if p == seat)
        s = catandsl.position(g, s).hand(seat, brick=1, lumber=1, wool=1, grain=1).state()
        act(s, A.Build("settlement", c))
        gained.append(s.points(seat) - before)
        special.append(sum(n for p, _, n in s.vp_tokens if p == seat) - tokens)
    return gained, special


@rule(FI, "victory 12")
def test_four_islands_twelve_points_win():
    """12 victory points win with 3 players."""
    wins_at(fi(3), 12)


@rule(FI, "item standard 12 \"12 victory points\" default", option="target_4=standard")
def test_four_islands_twelve_points_with_four_players():
    """12 victory points win with 4 players too."""
    wins_at(fi(4), 12)


@rule(FI, "item island_traders 13 \"13 victory points\"", alternative="target_4=island_traders")
def test_four_islands_thirteen_points_with_four_players_by_option():
    """With the option `island_traders`, 13 victory points win with 4 players."""
    wins_at(fi(4, target_4="island_traders"), 13)


@rule(FI, "mark_island(p, \"home\", i)")
def test_four_islands_start_islands_are_home_islands():
    """Players start on any island, one or two of their choice: the islands of their starting
    settlements are their home islands. Starting settlements earn no special points."""
    g = fi()
    s = g.new_initial_state()
    act(s, A.StartPlayer(0))
    first = {a.at for a in legal(s) if isinstance(a, A.Build)}
    assert {i for c in first for i in g.board.corner_islands[c]} == {0, 1, 2, 3}
    while s.stage == "setup":
        act(s, legal(s)[-1])
    for p in range(3):
        own = {i for c, o in enumerate(s.corner_owner) if o == p for i in g.board.corner_islands[c]}
        assert {i for q, t, i in s.island_tags if q == p and t == "home"} == own
    assert s.vp_tokens == []


@rule(FI, "vp_token(player, at, nth([foreign_bonus, 2, 2], islands_with(player, \"home\")))",
      option="foreign_bonus=seed")
def test_four_islands_first_foreign_island_earns_one_point():
    """A player's first settlement on their first foreign island earns 1 special victory
    point."""
    assert settle(fi(), 0, [0], [1])[1] == [1]


@rule(FI, "item flat 2 \"2 for every foreign island\"", alternative="foreign_bonus=flat")
def test_four_islands_every_foreign_island_earns_two_points_by_option():
    """With the option `flat`, the first settlement on every foreign island earns 2 special
    victory points."""
    assert settle(fi(foreign_bonus="flat"), 0, [0], [1, 2, 3])[1] == [2, 2, 2]


@rule(FI, "vp_token(player, at, nth([foreign_bonus, 2, 2], islands_with(player, \"home\")))")
def test_four_islands_later_foreign_islands_earn_two_points():
    """The first settlement on a second foreign island earns 2 special victory points, and so
    does one on a third, for a player with a single home island."""
    gained, special = settle(fi(), 0, [0], [1, 2, 3])
    assert special == [1, 2, 2] and gained == [2, 3, 3]
    assert settle(fi(), 0, [0, 2], [1, 3])[1] == [1, 2]


@rule(FI, "and first_on(player, island(at))) {")
def test_four_islands_once_per_foreign_island():
    """A second settlement on the same foreign island earns nothing more."""
    assert settle(fi(), 0, [0], [1, 1])[1] == [1, 0]


@rule(FI, "and not island_marked(player, \"home\", island(at))")
def test_four_islands_home_islands_earn_nothing():
    """Settlements on a player's home islands earn no special points."""
    assert settle(fi(), 0, [0, 1], [1, 0]) == ([1, 1], [0, 0])


@rule(FI, "and not island_marked(player, \"home\", island(at))")
def test_four_islands_another_players_home_is_still_foreign():
    """An island is foreign to a player even when it is another player's home island or others
    already live there."""
    g = fi()
    c, _ = coast(g, 1, skip=1)
    pos = position(g).edit(island_tags=[[0, "home", 0], [1, "home", 1]]).place(1, "settlement", c)
    c, ship = coast(g, 1)
    s = main(pos.place(0, "ship", ship).hand(0, brick=1, lumber=1, wool=1, grain=1)).state()
    act(s, A.Build("settlement", c))
    assert s.vp_tokens == [(0, c, 1)]


@rule(FI, "start robber off board", after="when tables is seed {", option="edition=seed")
def test_four_islands_robber_and_pirate_start_beside_the_board():
    """There is no desert and no gold: the robber and the pirate both start beside the board."""
    for players in (3, 4):
        g = fi(players)
        assert not {"desert", "gold"} & {g.board.terrain(h) for h in range(len(g.board.hexes))}
        s = position(g).state()
        assert sites_of(s, "robber") == [-1] and sites_of(s, "pirate") == [-1]


@rule(FI, "start robber at (-1, 7)", alternative="edition=fifth")
def test_four_islands_fifth_edition_start_hexes():
    """With the option `fifth`, the robber starts on the hex with the 12 and the pirate on the
    marked sea hex."""
    for players, pirate in ((3, (2, 4)), (4, (5, 4))):
        g = fi(players, edition="fifth")
        s = position(g).state()
        assert g.board.hex_number[sites_of(s, "robber")[0]] == 12
        assert sites_of(s, "pirate") == [hexid(g, *pirate)]


def _land(b) -> Counter:
    return Counter(b.terrain(h) for h in range(len(b.hexes)) if not b.hex_water[h])


@rule(FI, "item seed \"the seed's: 16 land hexes, 8 harbors\" default", option="tables=seed")
def test_four_islands_three_players_the_seeds_table():
    """With 3 players the old rules' table: four islands of 4 hexes (3 fields, 3 hills, 3
    mountains, 4 pasture, 3 forest), numbers 2, 3, 4, 4, 5, 6, 6, 8, 8, 9, 9, 10, 10, 11, 11
    and 12, 8 harbors of which 5 special."""
    for seed in (1, 2):
        b = game(FI, 3, seed, harbor_setup="shuffled").board
        assert _land(b) == {"fields": 3, "hills": 3, "mountains": 3, "pasture": 4, "forest": 3}
        assert sorted(len(i) for i in b.islands) == [4, 4, 4, 4]
        assert sorted(n for n in b.hex_number if n) == [2, 3, 4, 4, 5, 6, 6, 8, 8, 9, 9, 10, 10, 11, 11, 12]
        assert Counter(h.type.give for h in b.harbors) == {2: 5, 3: 3}


@rule(FI, "item fifth \"4th/5th edition: 20 land hexes, 9 harbors\"", alternative="tables=fifth")
def test_four_islands_three_players_the_fifth_edition_table():
    """With the option `fifth`, 3 players play the 4th/5th edition's map: islands of 4, 6, 6 and
    4 hexes, 4 of each terrain, 20 numbers, 9 harbors of which 5 special."""
    b = game(FI, 3, 1, harbor_setup="shuffled", tables="fifth").board
    assert _land(b) == dict.fromkeys(("fields", "hills", "mountains", "pasture", "forest"), 4)
    assert sorted(len(i) for i in b.islands) == [4, 4, 6, 6] and sum(1 for n in b.hex_number if n) == 20
    assert Counter(h.type.give for h in b.harbors) == {2: 5, 3: 4}


@rule(FI, "pool land shuffled [hills x4, mountains x4, pasture x5, fields x5, forest x5]")
def test_four_islands_four_player_map():
    """For 4 players: islands of 4, 7, 8 and 4 hexes (5 fields, 4 hills, 4 mountains, 5 pasture,
    5 forest), 23 numbers, 9 harbors of which 5 special."""
    b = game(FI, 4, 1, harbor_setup="shuffled").board
    assert _land(b) == {"fields": 5, "hills": 4, "mountains": 4, "pasture": 5, "forest": 5}
    assert sorted(len(i) for i in b.islands) == [4, 4, 7, 8] and sum(1 for n in b.hex_number if n) == 23
    assert Counter(h.type.give for h in b.harbors) == {2: 5, 3: 4}
