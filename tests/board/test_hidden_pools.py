"""Hidden pools on the board: their hexes are laid as the cover terrain with no number,
nothing of the stack is dealt, and a stack that cannot serve its hexes is a BoardError."""

import pytest

from catandsl.board import instantiate
from catandsl.compiler import compile_path
from catandsl.ir import configure

MAP = '''
scenario "Hidden" {{
  uses seafarers
  terrain fort {{ hub }}
  map {{
    rows """
      f8  h5  ?   ?
        m4  ~   ?
    """
    legend {{ f forest; h hills; m mountains; ~ sea; ? unknown }}
    {pool}
    {numbers}
    start pirate off board
  }}
}}
'''


def compiled(tmp_path, pool, numbers=""):
    path = tmp_path / "hidden.catan"
    path.write_text(MAP.format(pool=pool, numbers=numbers), encoding="utf-8")
    return compile_path(path)[:2]


def board(tmp_path, pool, numbers="", seed=1):
    scenario, diags = compiled(tmp_path, pool, numbers)
    assert scenario is not None, diags
    return instantiate(configure(scenario, 3, {}), seed)


def test_face_down_hexes_are_laid_as_the_cover(tmp_path):
    for seed in (1, 2, 3):  # the stack is never dealt: every seed lays the same cover
        b = board(tmp_path, "pool unknown hidden [forest x2, gold, mountains] cover sea",
                  "numbers hidden [4, 5, 6] onto [unknown]", seed)
        down = [b.hex_id(2, 0), b.hex_id(3, 0), b.hex_id(2, 1)]
        assert [b.terrain(h) for h in down] == ["sea"] * 3
        assert all(b.hex_number[h] == 0 and b.hex_island[h] == -1 for h in down)


def test_the_cover_defaults_to_the_first_water_terrain(tmp_path):
    b = board(tmp_path, "pool unknown hidden [forest x3]")
    assert b.terrain(b.hex_id(2, 0)) == "sea"


@pytest.mark.parametrize("pool, numbers, code, words", [
    ("pool unknown hidden [forest x2]", "", "E0403", "2 tiles for 3 hexes"),
    ("pool unknown hidden [forest x2, fort]", "", "E0433", "hub terrain"),
    ("pool unknown hidden [forest x3] cover fort", "", "E0433", "covered by fort"),
    ("pool unknown hidden [forest x3]", "numbers hidden [4] onto [unknown]\\n numbers hidden [5] onto [unknown]",
     "E0433", "two stacks"),
    # every numbered tile is gold, every token kept off gold
    ("pool unknown hidden [gold x2, sea x2]", "numbers hidden [6, 8] onto [unknown] keep [6, 8] off [gold]",
     "E0434", "keeps 6, 8 off gold"),
    # the three face-down hexes touch each other: three of 6 and 8 never lie apart
    ("pool unknown hidden [forest x3]", "numbers hidden [6, 8, 6] onto [unknown] avoid_adjacent [6, 8]",
     "E0434", "keeps 6, 8 apart"),
])
def test_a_stack_that_cannot_serve_its_hexes_is_an_error(tmp_path, pool, numbers, code, words):
    """The board raises a BoardError (or, for a stack no deal keeps, the compiler's
    trials find none); the compiler reports it at the map's line."""
    scenario, diags = compiled(tmp_path, pool, numbers.replace("\\n", "\n   "))
    assert scenario is None
    assert [(d.code, words in d.message) for d in diags] == [(code, True)]
    # the pool, the second stack, or the numbers a deal cannot keep
    assert diags[0].span.line == (13 if "stacks" in words else 12 if code == "E0434" else 11)


@pytest.mark.parametrize("pool, numbers", [
    ("pool unknown hidden [gold, forest x2]", "numbers hidden [6, 8, 5] onto [unknown] keep [6, 8] off [gold]"),
    ("pool unknown hidden [forest x3]", "numbers hidden [6, 5, 4] onto [unknown] avoid_adjacent [6, 8]"),
    # more tiles than numbers: the golds may stay without one
    ("pool unknown hidden [gold x3, forest]", "numbers hidden [6] onto [unknown] keep [6] off [gold]"),
])
def test_a_stack_some_deal_keeps_compiles(tmp_path, pool, numbers):
    scenario, diags = compiled(tmp_path, pool, numbers)
    assert scenario is not None and not diags, diags
