"""`harbors shuffled [...] at [...] max_clump N`: no run of more than N harbors of one
kind on spots side by side (next to each other in the list of spots)."""

from __future__ import annotations

import pytest

import catandsl
from catandsl.board import geometry as geo
from catandsl.board.harbors import clump
from catandsl.compiler import compile_path

SOURCE = """
scenario clump "Harbors apart" {
  uses base
  map {
    rows \"\"\"
      f8  p5  h4  m10
    \"\"\"
    legend { f forest; p pasture; h hills; m mountains }
    harbors shuffled [wool 2:1 x2, 3:1 x2] at [(0, 0) NW, (1, 0) NE, (2, 0) NE, (3, 0) SE]CLUMP
  }
}
"""
SPOTS = [((0, 0), "NW"), ((1, 0), "NE"), ((2, 0), "NE"), ((3, 0), "SE")]


def _kinds(tmp_path, clump_text: str, seeds: range) -> list[list[str]]:
    path = tmp_path / "clump.catan"
    path.write_text(SOURCE.replace("CLUMP", clump_text), encoding="utf-8")
    scenario = catandsl.load(path)
    out = []
    for seed in seeds:
        board = catandsl.new_game(scenario, 3, {}, seed).board
        by_path = {h.path: h.type.resource or "3:1" for h in board.harbors}
        out.append([by_path[geo.canonical_edge(q, r, side)] for (q, r), side in SPOTS])
    return out


def test_max_clump_1_keeps_two_of_a_kind_apart_on_every_seed(tmp_path):
    deals = _kinds(tmp_path, " max_clump 1", range(40))
    for kinds in deals:
        assert all(a != b for a, b in zip(kinds, kinds[1:])), kinds
    assert len({tuple(k) for k in deals}) == 2  # both alternations are dealt


def test_without_max_clump_some_deal_lays_two_side_by_side(tmp_path):
    # the same seeds without the constraint: the test above is not true by chance
    deals = _kinds(tmp_path, "", range(40))
    assert any(any(a == b for a, b in zip(k, k[1:])) for k in deals)


def test_clump_is_the_longest_run():
    assert clump(["a", "a", "b", "a"]) == 2
    assert clump(["a", "b", "a"]) == 1
    assert clump([]) == 0


@pytest.mark.parametrize("tail, message", [
    (" max_clump 0", "N at least 1"),
    (" max_clamp 1", "max_clump"),
])
def test_a_bad_max_clump_is_a_diagnostic(tmp_path, tail, message):
    path = tmp_path / "bad.catan"
    path.write_text(SOURCE.replace("CLUMP", tail), encoding="utf-8")
    _, diags, _ = compile_path(path)
    assert diags and message in diags[0].message + (diags[0].help or "")
