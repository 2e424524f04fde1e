"""A per-piece weight in a route (`route_length N` on a piece kind): `longest_route`
adds each piece's weight, so a bridge may count as two roads and a ferry as none."""

from __future__ import annotations

import pytest

from tests.conftest import compile_text, game_of
from tests.engine.helpers import blank, put
from tests.engine.soundness import check_cheap

SOURCE = """
scenario bridges "Bridges" {
  uses base
  piece bridge {
    on path
    cost 2 brick + lumber
    limit 3
    connects road, settlement, city, bridge, ferry
    route_length 2
  }
  piece ferry {
    on path
    cost wool
    limit 3
    connects road, settlement, city, bridge, ferry
    route_length 0
  }
  piece road {
    on path where land(at)
    cost brick + lumber
    limit 15
    connects road, settlement, city, bridge, ferry
  }
  map {
    rows \"\"\"
      f8  p5  h4
        m10 f6
    \"\"\"
    legend { f forest; p pasture; h hills; m mountains }
  }
}
"""


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    return game_of(tmp_path_factory, SOURCE, players=3, name="bridges")


def _chain(g, n: int) -> list[int]:
    """n paths end to end along the board, never turning back on an intersection."""
    b = g.board
    for start in range(len(b.paths)):
        chain, seen = [start], set(b.path_ends[start])
        at = b.path_ends[start][1]
        while len(chain) < n:
            nxt = next((y for y in sorted(b.corner_paths[at]) if y not in chain
                        and all(c == at or c not in seen for c in b.path_ends[y])), None)
            if nxt is None:
                break
            chain.append(nxt)
            at = next(c for c in b.path_ends[nxt] if c != at)
            seen.add(at)
        if len(chain) == n:
            return chain
    raise AssertionError("no chain")


def _route(s, pieces=("road", "bridge", "ferry")) -> int:
    from catandsl.rules.routes import longest_route

    return longest_route(s, 0, list(pieces))


def test_each_piece_adds_its_route_length(game):
    s = blank(game)
    roads = _chain(game, 4)
    for k in roads:
        put(s, 0, "road", k)
    assert _route(s) == 4
    s = blank(game)
    put(s, 0, "road", roads[0])
    put(s, 0, "bridge", roads[1])  # worth 2
    put(s, 0, "ferry", roads[2])  # worth none
    put(s, 0, "road", roads[3])
    assert _route(s) == 4
    assert _route(s, ("road",)) == 1  # the road alone: two apart, never joined
    assert _route(s, ("road", "bridge")) == 3
    check_cheap(s)


def test_the_weight_follows_pieces_placed_one_by_one(game):
    s = blank(game)
    lengths = []
    for k, kind in zip(_chain(game, 4), ("bridge", "bridge", "road", "ferry")):
        put(s, 0, kind, k)
        lengths.append(_route(s))
    assert lengths == [2, 4, 5, 5]


@pytest.mark.parametrize("old, new", [
    ("    route_length 2\n", "    route_length 11\n"),
    ("  piece road {\n", "  piece tower {\n    on intersection\n    route_length 2\n  }\n  piece road {\n"),
])
def test_a_misused_route_length_is_a_diagnostic(tmp_path, old, new):
    _, diags = compile_text(tmp_path, SOURCE.replace(old, new, 1))
    assert [d.code for d in diags] == ["E0304"]
