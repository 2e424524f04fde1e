"""A piece that upgrades from two kinds (`upgrades settlement or city`): it may replace
either of the builder's pieces, and the one it replaces goes back to its owner."""

from __future__ import annotations

import pytest

from catandsl.engine import actions as A
from tests.conftest import THREE_HEXES, compile_text, game_of
from tests.engine.helpers import BRICK, ORE, act, blank, give, legal, put, to_main
from tests.engine.soundness import check_cheap

SOURCE = """
scenario keeps "Keeps" {
  uses base
  piece keep {
    on intersection
    upgrades settlement or city
    cost 2 brick + 2 ore
    limit 2
    points 3
    produces 2
  }
""" + THREE_HEXES


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    return game_of(tmp_path_factory, SOURCE, players=3, name="keeps")


def _corners(g, n: int) -> list[int]:
    """n intersections of the board's hexes, far enough apart to hold buildings."""
    out: list[int] = []
    for k in range(len(g.board.intersections)):
        if all(k not in g.within[2][m] and k != m for m in out):
            out.append(k)
        if len(out) == n:
            return out
    raise AssertionError("no room")


def test_a_keep_replaces_a_settlement_or_a_city(game):
    s = blank(game)
    a, b, c = _corners(game, 3)
    put(s, 0, "settlement", a)
    put(s, 0, "city", b)
    put(s, 1, "settlement", c)
    give(s, 0, 4, 0, 0, 0, 4)
    to_main(s, 8)
    builds = {x.at for x in legal(s) if isinstance(x, A.Build) and x.piece == "keep"}
    assert builds == {a, b}  # the builder's own settlement and city, not a rival's
    settlement, city, keep = (game.piece_index[n] for n in ("settlement", "city", "keep"))
    act(s, A.Build("keep", a))
    assert s.placed[0][settlement] == 0 and s.placed[0][keep] == 1
    act(s, A.Build("keep", b))
    assert s.placed[0][city] == 0 and s.placed[0][keep] == 2
    assert s.corner_piece[a] == keep and s.corner_piece[b] == keep
    assert s.hands[0][BRICK] == 0 and s.hands[0][ORE] == 0
    check_cheap(s)


@pytest.mark.parametrize("line, code", [
    ("upgrades settlement or castle", "E0302"),
    ("upgrades settlement and city", "E0304"),
    ("upgrades settlement or", "E0304"),
    ("upgrades settlement or settlement", "E0304"),
])
def test_a_misused_upgrades_is_a_diagnostic(tmp_path, line, code):
    _, diags = compile_text(tmp_path, SOURCE.replace("upgrades settlement or city", line))
    assert [d.code for d in diags] == [code]
