"""A coordinate pair `(q, r)` in a rule is the hex at (q, r) of the board (not the list
[q, r], nor the hex numbered r)."""

from __future__ import annotations

import pytest

from catandsl.engine import EngineError
from catandsl.rules.play import NO_ANSWERS
from tests.conftest import game_of

MAP = """
scenario "Pairs" {
  uses base
  piece scout {
    neutral
    on hex where land(at) and not (at == (1, 0))
  }
  piece twin {
    neutral
    on hex where terrain(at) == terrain((1, 0))
  }
  map {
    rows \"\"\"
      f8  h5  m4
        p6  f9
    \"\"\"
    legend { f forest; h hills; m mountains; p pasture }
    start scout at (0, 0)
    start twin at (0, 0)
  }
}
"""


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    return game_of(tmp_path_factory, MAP)


def test_a_pair_is_the_hex_at_those_coordinates(game):
    b = game.board
    scout = game.pieces[game.piece_index["scout"]]
    assert b.hex_id(1, 0) not in scout.allowed
    assert sorted(b.hexes[h] for h in scout.allowed) == sorted(h for h in b.hexes if h != (1, 0))


def test_terrain_of_a_pair_reads_that_hex(game):
    b = game.board
    twin = game.pieces[game.piece_index["twin"]]
    assert b.terrain(b.hex_id(1, 0)) == "hills"
    assert sorted(b.hexes[h] for h in twin.allowed) == [(1, 0)]  # the only hills


def test_a_pair_off_the_board_is_a_located_error(game):
    from catandsl.ir import model

    expr = model.Expr("pair", (model.Expr("num", (), value=9), model.Expr("num", (), value=9)))
    with pytest.raises(EngineError, match=r"there is no hex \(9, 9\)"):
        game.interp.program(expr, None).run({}, game.new_initial_state(), NO_ANSWERS)
