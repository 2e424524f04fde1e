"""`start` and `harbors` outside the map replace the map's own for a variant
(docs/language.md, "A map's start and harbors per variant")."""

from __future__ import annotations

from catandsl.ir import configure
from tests.conftest import compile_text

MAP = '''
  map {
    rows """
      f8  p5  h4
        d   m6
    """
    legend { f forest; p pasture; h hills; d desert; m mountains }
    harbors shuffled [3:1, wool 2:1] at [(0, 0) NW, (2, 0) E]
    start robber on desert
  }
'''


def scenario(body: str) -> str:
    return 'scenario "t" {\n  uses base\n  option edition { item seed default; item fifth }\n' + MAP + body + "\n}\n"


def test_a_start_outside_the_map_replaces_the_maps_start_only_in_its_variant(tmp_path):
    sc, diags = compile_text(tmp_path, scenario("when edition is seed { start robber off board }"))
    assert sc is not None and not [d for d in diags if d.is_error], diags
    seed = configure(sc, 3, {"edition": "seed"}).map
    fifth = configure(sc, 3, {"edition": "fifth"}).map
    assert [(s.piece, s.off_board, s.terrain) for s in seed.starts] == [("robber", True, None)]
    assert [(s.piece, s.off_board, s.terrain) for s in fifth.starts] == [("robber", False, "desert")]


def test_harbors_outside_the_map_replace_all_of_the_maps_harbors(tmp_path):
    body = "when edition is fifth { harbors placed [brick 2:1] at [(1, 0) NE] }"
    sc, diags = compile_text(tmp_path, scenario(body))
    assert sc is not None and not [d for d in diags if d.is_error], diags
    plans = configure(sc, 3, {"edition": "fifth"}).map.harbors
    assert [(p.method, len(p.harbors)) for p in plans] == [("placed", 1)]
    assert [p.method for p in configure(sc, 3, {}).map.harbors] == ["shuffled"]


def test_harbors_placed_alone_keeps_the_maps_tokens_and_spots(tmp_path):
    sc, diags = compile_text(tmp_path, scenario("when edition is fifth { harbors placed }"))
    assert sc is not None and not [d for d in diags if d.is_error], diags
    dealt = configure(sc, 3, {}).map.harbors
    placed = configure(sc, 3, {"edition": "fifth"}).map.harbors
    assert [p.method for p in placed] == ["placed"]
    assert [(p.harbors, p.spots) for p in placed] == [(p.harbors, p.spots) for p in dealt]


def test_twice_in_one_variant_is_an_error(tmp_path):
    body = "start robber off board\n  start robber on desert"
    _, diags = compile_text(tmp_path, scenario(body))
    assert [d.code for d in diags if d.is_error] == ["E0303"]


def test_a_start_outside_the_map_is_checked_against_each_variants_board(tmp_path):
    _, diags = compile_text(tmp_path, scenario("when edition is fifth { start robber on fields }"))
    errors = [d for d in diags if d.is_error]
    assert [d.code for d in errors] == ["E0411"]  # no fields on this board
    _, diags = compile_text(tmp_path, scenario("harbors shuffled [3:1] at [(0, 1) W, (1, 0) NE]"))
    assert [d.code for d in diags if d.is_error] == ["E0413"]  # two spots, one harbor
