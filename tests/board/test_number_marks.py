"""Numbers laid by place, on a seven-hex board of their own: `numbers along MARK [...]`
lays the tokens in the order written along a path of hexes, stepping over the hex that
takes none (the desert, wherever the pool put it), the seed picking one of `along [A, B]`;
`keep [...] off MARK` keeps those numbers off every hex the mark's places touch, where
a plain deal puts them there now and then."""

from __future__ import annotations

import pytest

import catandsl
from tests.conftest import scenario_of

TOKENS = [5, 9, 4, 10, 3, 11]
PATHS = {
    "inward": [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, 0)],
    "outward": [(0, 0), (-1, 0), (-1, 1), (0, 1), (1, 0), (1, -1), (0, -1)],
}
COAST_HEXES = {(1, -1), (1, 0)}  # the hexes the two paths of `east_coast` touch

MAP = '''scenario number_marks "Numbers by place" {
  uses base
  map {
    rows at (0, -1) """
        ?   ?
      ?   ?   ?
        ?   ?
    """
    legend { ? land }
    pool land shuffled [forest x2, hills, fields, pasture, mountains, desert]
    mark inward [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, 0)]
    mark outward [(0, 0), (-1, 0), (-1, 1), (0, 1), (1, 0), (1, -1), (0, -1)]
    mark east_coast [(1, -1) E, (1, 0) E]
    NUMBERS
    start robber on desert
  }
}
'''
ALONG = "numbers along [inward, outward] [5, 9, 4, 10, 3, 11]"
KEPT = "numbers shuffled [5, 9, 4, 10, 3, 11] keep [3, 11] off east_coast"
PLAIN = "numbers shuffled [5, 9, 4, 10, 3, 11]"

SEEDS = range(1, 25)


def _numbers(tmp_path_factory, plan: str, name: str) -> list[dict[tuple[int, int], int]]:
    """The number on every hex of the board, one map per seed."""
    scenario = scenario_of(tmp_path_factory, MAP.replace("NUMBERS", plan), name)
    out = []
    for seed in SEEDS:
        b = catandsl.board_for(scenario, 3, {}, seed)
        out.append({h: b.hex_number[b.hex_index[h]] for h in b.hex_index})
    return out


@pytest.fixture(scope="module")
def along(tmp_path_factory):
    return _numbers(tmp_path_factory, ALONG, "along")


def test_the_tokens_lie_in_order_along_one_path_stepping_over_the_desert(along):
    picked = set()
    for numbers in along:
        fits = [name for name, path in PATHS.items() if [numbers[h] for h in path if numbers[h]] == TOKENS]
        assert fits, numbers
        assert sum(1 for n in numbers.values() if n) == len(TOKENS)  # one hex, the desert, takes none
        picked.update(fits)
    assert picked == set(PATHS)  # over the seeds, both paths are laid


def test_the_desert_moves_and_the_path_steps_over_it(along):
    bare = {next(h for h, n in numbers.items() if not n) for numbers in along}
    assert len(bare) > 1  # the pool puts the desert in more than one place


def test_no_kept_number_touches_the_mark_where_a_plain_deal_puts_one(tmp_path_factory):
    kept = _numbers(tmp_path_factory, KEPT, "kept")
    assert all(numbers[h] not in (3, 11) for numbers in kept for h in COAST_HEXES)
    plain = _numbers(tmp_path_factory, PLAIN, "plain")
    assert any(numbers[h] in (3, 11) for numbers in plain for h in COAST_HEXES)
