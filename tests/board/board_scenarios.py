"""Hand-built IR for board tests: the base game's island, built without the compiler.

Also run as a script by the PYTHONHASHSEED test: `python board_scenarios.py SEED` prints
the board's JSON.
"""

from __future__ import annotations

import dataclasses
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from catandsl.board import geometry as geo  # noqa: E402
from catandsl.board import instantiate  # noqa: E402
from catandsl.ir import configure, model  # noqa: E402

TERRAINS = (
    model.Terrain("hills", produces="brick"),
    model.Terrain("forest", produces="lumber"),
    model.Terrain("pasture", produces="wool"),
    model.Terrain("fields", produces="grain"),
    model.Terrain("mountains", produces="ore"),
    model.Terrain("desert"),
    model.Terrain("sea", water=True),
    model.Terrain("gold", choice=True),
)
RESOURCES = tuple(model.Resource(n) for n in ("brick", "lumber", "wool", "grain", "ore"))

LETTERS = "ABCDEFGHIJKLMNOPQR"
VALUES = (5, 2, 6, 3, 8, 10, 9, 12, 11, 4, 8, 10, 9, 4, 5, 6, 3, 11)
TOKENS = tuple(model.NumberToken(v, letter) for v, letter in zip(VALUES, LETTERS))

LAND_TILES = (
    model.Amount("forest", 4), model.Amount("pasture", 4), model.Amount("fields", 4),
    model.Amount("hills", 3), model.Amount("mountains", 3), model.Amount("desert", 1),
)
HARBORS = (
    model.HarborType(3, 1), model.HarborType(3, 1), model.HarborType(3, 1),
    model.HarborType(3, 1), model.HarborType(2, 1, "brick"), model.HarborType(2, 1, "lumber"),
    model.HarborType(2, 1, "wool"), model.HarborType(2, 1, "grain"),
    model.HarborType(2, 1, "ore"),
)
# Every other frame position, each on a side facing the island; some are named from
# the land side, which is the same path.
HARBOR_SPOTS = (
    model.EdgeRef(0, -2, "NW"), model.EdgeRef(2, -3, "SW"), model.EdgeRef(3, -2, "W"),
    model.EdgeRef(3, 0, "W"), model.EdgeRef(1, 2, "NW"), model.EdgeRef(-1, 3, "NE"),
    model.EdgeRef(-2, 2, "SW"), model.EdgeRef(-3, 1, "E"), model.EdgeRef(-2, -1, "SE"),
)
FRAME = model.Frame(
    pieces=tuple(model.FramePiece(a, b, 3) for a, b in zip("ABCDEF", "BCDEFA")),
    terrain="sea",
)
SRC = model.Source("test.catan", 1, 1)


def island_hexes(radius: int = 2) -> tuple[geo.Hex, ...]:
    return geo.hexagon((0, 0), radius)


def standard_map(
    *,
    numbers: str = "spiral",
    start_corner: int | None = None,
    avoid: tuple[int, ...] = (),
    harbors: bool = True,
    frame: model.Frame | None = FRAME,
) -> model.Map:
    slots = tuple(model.HexSlot(q, r, pool="land") for q, r in island_hexes())
    plan = model.NumberPlan(
        numbers, TOKENS, onto=("land",), skip=("desert",), avoid_adjacent=avoid,
        start_corner=start_corner,
        source=SRC,
    )
    harbor_plan = model.HarborPlan("shuffled", HARBORS, HARBOR_SPOTS, source=SRC)
    return model.Map(
        name="main",
        hexes=slots,
        pools=(model.TilePool("land", LAND_TILES, source=SRC),),
        numbers=(plan,),
        harbors=(harbor_plan,) if harbors else (),
        frame=frame,
        starts=(model.Start("robber", terrain="desert"),),
        islands=(model.IslandName("main", ((0, 0),)),),
        source=SRC,
    )


def scenario(m: model.Map, extra: tuple = ()) -> model.Scenario:
    decls = RESOURCES + TERRAINS + extra + (m,)
    return model.Scenario("test", "Test island", 3, 4, (), (model.Section(decls),))


def ruleset(m: model.Map):
    return configure(scenario(m), 4)


def board(seed: int = 1, m: model.Map | None = None):
    return instantiate(ruleset(m or standard_map()), seed)


def replace(obj, **changes):
    return dataclasses.replace(obj, **changes)


if __name__ == "__main__":
    print(json.dumps(board(int(sys.argv[1])).to_json(), sort_keys=True, indent=1))
