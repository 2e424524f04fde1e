"""The seed's rules are the shipped scenarios' defaults, later editions their options
(Seafarers and its scenarios in docs/conformance.md): where the robber and the pirate
start, the seed's tables, harbors placed by the players, Cloth's optional third
settlement and its pirate limit on a Knight."""

from __future__ import annotations

from collections import Counter
from functools import cache

import pytest

import catandsl
from catandsl.engine import actions as A
from catandsl.rules.harbors import HarborLookups, harbor_name
from tests.engine.helpers import act, blank, legal

NEW_SHORES = "scenarios/seafarers/heading_for_new_shores.catan"
FOUR_ISLANDS = "scenarios/seafarers/four_islands.catan"
CLOTH = "scenarios/seafarers/cloth_for_catan.catan"


@cache
def _scenario(path: str):
    return catandsl.load(path)


def _board(path: str, players: int, seed: int = 3, **options: str):
    return catandsl.board_for(_scenario(path), players, options, seed)


def _game(path: str, players: int, seed: int = 3, **options: str):
    return catandsl.new_game(_scenario(path), players, options, seed)


def _hex_at(board, q: int, r: int) -> int:
    return board.hexes.index((q, r))


def _land(board) -> list[int]:
    return [i for i in range(len(board.hexes)) if not board.hex_water[i]]


def _island_sizes(board) -> list[int]:
    return sorted(Counter(board.hex_island[i] for i in _land(board)).values())


# ---- where the robber and the pirate start (B.5, C.2, D.2) -----------------------------------


@pytest.mark.parametrize("path, players", [(NEW_SHORES, 3), (FOUR_ISLANDS, 3), (FOUR_ISLANDS, 4)])
def test_on_a_map_without_a_desert_both_start_beside_the_board(path, players):
    board = _board(path, players)
    assert "desert" not in [board.terrain_names[board.hex_terrain[i]] for i in _land(board)]
    assert board.starts == {"robber": -1, "pirate": -1}


def test_on_a_map_with_a_desert_the_robber_starts_there_and_the_pirate_beside_the_board():
    board = _board(NEW_SHORES, 4)
    assert board.terrain_names[board.hex_terrain[board.starts["robber"]]] == "desert"
    assert board.starts["pirate"] == -1


def test_the_fifth_edition_uses_the_marked_hexes():
    board = _board(NEW_SHORES, 3, edition="fifth")
    robber = board.starts["robber"]
    assert (board.terrain_names[board.hex_terrain[robber]], board.hex_number[robber]) == ("hills", 12)
    assert board.starts["pirate"] == _hex_at(board, 5, 4)
    board = _board(FOUR_ISLANDS, 3, edition="fifth", tables="fifth")
    assert board.hex_number[board.starts["robber"]] == 12
    assert board.starts["pirate"] == _hex_at(board, 2, 4)
    board = _board(FOUR_ISLANDS, 4, edition="fifth")
    assert board.hex_number[board.starts["robber"]] == 12
    assert board.starts["pirate"] == _hex_at(board, 5, 4)


def test_a_robber_beside_the_board_comes_in_on_the_first_seven():
    g = _game(FOUR_ISLANDS, 3)
    s = blank(g)
    robber, pirate = g.piece_index["robber"], g.piece_index["pirate"]
    assert s.neutral_at[robber] == -1 and s.neutral_at[pirate] == -1
    act(s, A.Roll(7))
    moves = [a for a in legal(s) if isinstance(a, A.Move)]
    land = {a.at for a in moves if a.piece == "robber"}
    water = {a.at for a in moves if a.piece == "pirate"}
    assert land == set(_land(g.board))  # any land hex: it is on none yet
    assert water and not water & land
    act(s, next(a for a in moves if a.piece == "robber"))
    assert s.neutral_at[robber] in land


# ---- the seed's tables (C.5, D.4) ------------------------------------------------------------


def _terrains(board, hexes) -> Counter:
    return Counter(board.terrain_names[board.hex_terrain[i]] for i in hexes)


def _numbers(board, hexes) -> Counter:
    return Counter(board.hex_number[i] for i in hexes if board.hex_number[i])


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_four_islands_three_players_play_the_seeds_table_by_default(seed):
    board = _board(FOUR_ISLANDS, 3, seed)
    land = _land(board)
    assert _terrains(board, land) == {"fields": 3, "hills": 3, "mountains": 3, "pasture": 4, "forest": 3}
    assert _numbers(board, land) == {2: 1, 3: 1, 4: 2, 5: 1, 6: 2, 8: 2, 9: 2, 10: 2, 11: 2, 12: 1}
    assert _island_sizes(board) == [4, 4, 4, 4]
    kinds = Counter(harbor_name(h.type) for h in _board(FOUR_ISLANDS, 3, seed, harbor_setup="shuffled").harbors)
    assert sum(n for k, n in kinds.items() if k.endswith("2:1")) == 5 and kinds["3:1"] == 3


def test_four_islands_later_tables_are_an_option():
    board = _board(FOUR_ISLANDS, 3, tables="fifth")
    assert len(_land(board)) == 20 and _island_sizes(board) == [4, 4, 6, 6] and len(board.harbors) == 9
    board = _board(FOUR_ISLANDS, 4, tables="seed")  # the seed has no 4-player map
    assert len(_land(board)) == 23 and len(board.harbors) == 9


@pytest.mark.parametrize("players", [3, 4])
def test_new_shores_seed_tables_are_the_base_island_and_eight_small_hexes(players):
    board = _board(NEW_SHORES, players, tables="seed")
    (main,) = board.island_names["main"]
    small = [i for i in _land(board) if board.hex_island[i] != main]
    assert _terrains(board, small) == {"gold": 2, "fields": 1, "hills": 1, "mountains": 2, "pasture": 1,
                                       "forest": 1}
    assert _numbers(board, small) == dict.fromkeys((2, 3, 4, 5, 8, 9, 10, 11), 1)
    main_hexes = [i for i in _land(board) if board.hex_island[i] == main]
    assert len(main_hexes) == 19 and _terrains(board, main_hexes)["desert"] == 1
    assert len(board.harbors) == 9
    assert board.terrain_names[board.hex_terrain[board.starts["robber"]]] == "desert"
    assert board.starts["pirate"] == -1


# ---- harbors placed by the players (B.9) -----------------------------------------------------


@pytest.mark.parametrize("path, players, tokens", [(NEW_SHORES, 3, 8), (NEW_SHORES, 4, 9), (FOUR_ISLANDS, 3, 8),
                                                   (FOUR_ISLANDS, 4, 9)])
def test_placed_harbors_are_drawn_and_laid_in_turn_before_the_settlements(path, players, tokens):
    g = _game(path, players, harbor_setup="placed")
    dealt = Counter(harbor_name(h.type) for h in _board(path, players, harbor_setup="shuffled").harbors)
    s = g.new_initial_state()
    act(s, A.StartPlayer(0))
    order = []
    while s.is_chance_node():
        s.apply_action(s.sample_chance())
        order.append(s.current_player())
        act(s, legal(s)[0])
    assert order == [k % players for k in range(tokens)]
    assert -1 not in s.harbor_at and not any(s.harbor_supply)
    types = g.lookups(HarborLookups).types
    assert Counter(harbor_name(types[k]) for k in s.harbor_at) == dealt  # the same tokens
    assert isinstance(legal(s)[0], A.Build)  # the settlements follow


def test_shuffled_harbors_skip_the_harbor_rounds():
    g = _game(FOUR_ISLANDS, 3, harbor_setup="shuffled")
    s = g.new_initial_state()
    act(s, A.StartPlayer(0))
    assert not s.is_chance_node() and isinstance(legal(s)[0], A.Build)


# ---- Cloth for Catan (E.3, E.6) ---------------------------------------------------------------


def test_cloth_third_settlement_may_be_passed():
    g = _game(CLOTH, 3)
    s = g.new_initial_state()
    act(s, A.StartPlayer(0))
    for _ in range(12):  # two settlements and two paths each
        act(s, legal(s)[0])
    third = s.current_player()
    assert A.Pass() in legal(s)
    settlements = s.placed[third][g.piece_index["settlement"]]
    act(s, A.Pass())
    assert s.placed[third][g.piece_index["settlement"]] == settlements
    assert s.current_player() != third  # no road or ship after a pass: the next player is up
    assert sum(s.hands[third]) == 0  # and nothing collected


def _cloth(knights: int, **options: str):
    """Cloth, turn 1, nobody trading with a village, player 0 holding `knights` Knights."""
    g = _game(CLOTH, 3, **options)
    s = blank(g)
    s.token_stock = [list(x.stock) for x in g.sites]
    s.partners = []
    s.cards[0][g.card_index["knight"]] = knights
    s.changed()
    return s


@pytest.mark.parametrize("option, pirate_on_knight", [("limited", False), ("anyone", True)])
def test_cloth_pirate_on_a_knight_follows_the_option(option, pirate_on_knight):
    s = _cloth(1, knight_pirate=option)
    act(s, A.PlayCard("knight"))
    pieces = {a.piece for a in legal(s) if isinstance(a, A.Move)}
    assert ("pirate" in pieces) == pirate_on_knight and "robber" in pieces
    s = _cloth(0, knight_pirate=option)
    act(s, A.Roll(7))  # on a 7 the limit holds either way
    assert {a.piece for a in legal(s) if isinstance(a, A.Move)} == {"robber"}
