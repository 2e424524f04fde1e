"""Laying harbors on their spots.

A spot is a hex side between a land hex and a water hex (a frame position is water, and
so is the space off the board). Each plan's harbors go on its spots in order (`fixed`)
or after a seeded shuffle (`shuffled`, dealt again while more than its `max_clump`
harbors of one kind lie on spots next to each other in its list); a `placed` plan leaves its spots empty (at least
one per harbor; those left over stay empty) and its harbors in a supply that the players
draw from and place during the set-up. A harbor
serves the two intersections of its path, so two harbors may not share a path or an
intersection.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from catandsl.board import geometry as geo
from catandsl.board.errors import BoardError
from catandsl.ir.model import EdgeRef, HarborPlan, HarborType

# `max_clump` deals the shuffled harbors again until no run of one kind is too long; a
# plan that cannot be kept fails after this many deals (a few dozen tokens deal fast)
MAX_DEALS = 2000


@dataclass(frozen=True)
class Harbor:
    """A harbor spot: the path it lies on, what it trades and the hexes either side."""

    path: geo.Path
    type: HarborType | None  # None: an empty spot, for a harbor the players place
    land: geo.Hex  # the land hex it serves
    water: geo.Hex  # the hex its token lies on (may be off the board)


def lay_harbors(
    plans: tuple[HarborPlan, ...],
    is_land: Callable[[geo.Hex], bool],
    describe: Callable[[geo.Hex], str],
    seed: int,
) -> tuple[Harbor, ...]:
    """All harbors of all plans, sorted by path."""
    laid: list[tuple[Harbor, EdgeRef, HarborPlan]] = []
    for index, plan in enumerate(plans):
        if plan.method not in ("fixed", "shuffled", "placed"):
            raise BoardError("E0421", f"unknown way to lay harbors: {plan.method!r}", plan.source)
        # the board lays a fixed or shuffled plan's tokens, one on each spot; the players
        # lay a placed plan's on spots of their choice, so it may list more spots
        placed = plan.method == "placed"
        if len(plan.harbors) > len(plan.spots) or (not placed and len(plan.harbors) != len(plan.spots)):
            raise BoardError(
                "E0413",
                f"the harbor plan has {len(plan.harbors)} harbors for {len(plan.spots)} spots",
                plan.source,
                help="list at least one spot for each harbor: the players choose among them" if placed
                else "list one spot for each harbor",
            )
        sites = [_site(spot, is_land, describe, plan) for spot in plan.spots]
        types: list[HarborType | None] = list(plan.harbors)
        if plan.method == "shuffled":
            _shuffle(types, plan, random.Random(f"{seed}:harbors:{index}"))
        elif placed:
            types = [None] * len(plan.spots)
        for spot, (land, water), kind in zip(plan.spots, sites, types):
            path = geo.canonical_edge(spot.q, spot.r, spot.side)
            laid.append((Harbor(path, kind, land, water), spot, plan))
    _check_apart(laid)
    return tuple(sorted((h for h, _, _ in laid), key=lambda h: geo.path_key(h.path)))


def clump(types: list[HarborType | None]) -> int:
    """The longest run of harbors of one kind on spots side by side (next to each other
    in the plan's list of spots)."""
    best = run = 0
    for k, t in enumerate(types):
        run = run + 1 if k and t == types[k - 1] else 1
        best = max(best, run)
    return best


def _shuffle(types: list[HarborType | None], plan: HarborPlan, rng: random.Random) -> None:
    """Shuffle the tokens in place, dealt again while more than `max_clump` of a kind
    lie side by side (at most MAX_DEALS deals, then E0417)."""
    rng.shuffle(types)
    if not plan.max_clump:
        return
    for _ in range(MAX_DEALS):
        if clump(types) <= plan.max_clump:
            return
        rng.shuffle(types)
    raise BoardError(
        "E0417",
        f"no deal of the harbors in {MAX_DEALS} shuffles keeps at most {plan.max_clump} of a kind side by side",
        plan.source,
        help="there are too many harbors of one kind for the spots: add spots, or raise `max_clump`",
    )


def _site(spot: EdgeRef, is_land, describe, plan: HarborPlan) -> tuple[geo.Hex, geo.Hex]:
    """(land hex, water hex) of a spot, or E0404 naming the sides that would do."""
    where = (spot.q, spot.r)
    if spot.side not in geo.SIDE_NAMES:
        raise BoardError(
            "E0405", f"harbor at {_hex(where)} names no side: {spot.side!r}",
            spot.source or plan.source, help="sides are NE, E, SE, SW, W, NW",
        )
    other = geo.neighbour(where, spot.side)
    if is_land(where) and not is_land(other):
        return where, other
    if is_land(other) and not is_land(where):
        return other, where
    # Help from the hex the author named: which of its sides would have done.
    facing = "water" if is_land(where) else "land"
    wanted = [
        s for s in geo.SIDE_ORDER if is_land(geo.neighbour(where, s)) == (facing == "land")
    ]
    hint = (
        f"the sides of {_hex(where)} that face {facing} are {', '.join(wanted)}"
        if wanted else f"no side of {_hex(where)} faces {facing}"
    )
    raise BoardError(
        "E0404",
        f"harbor at {_hex(where)} {spot.side} lies between {describe(where)} and "
        f"{describe(other)}; a harbor must lie between land and water",
        spot.source or plan.source,
        help=hint,
    )


def _check_apart(laid: list[tuple[Harbor, EdgeRef, HarborPlan]]) -> None:
    seen: dict[geo.Intersection, Harbor] = {}
    for harbor, spot, plan in laid:
        for end in geo.edge_ends(harbor.path):
            if end in seen:
                other = seen[end]
                what = "a path" if other.path == harbor.path else "an intersection"
                raise BoardError(
                    "E0422",
                    f"harbor at {_hex((spot.q, spot.r))} {spot.side} shares {what} with "
                    f"the harbor on path {other.path[0]},{other.path[1]} {other.path[2]}",
                    spot.source or plan.source,
                    help="a harbor serves the two intersections of its path; keep harbors apart",
                )
        for end in geo.edge_ends(harbor.path):
            seen[end] = harbor


def _hex(h: geo.Hex) -> str:
    return f"({h[0]},{h[1]})"
