"""Laying number tokens: fixed numbers from the map, then each number plan in order.

A plan's scope is the land hexes filled from the pools it names (`onto`, all land hexes
when empty). Its targets are the hexes of the scope that produce something, have no
number yet and are not of a skipped terrain; there must be exactly one token per target.

- `shuffled`: a seeded shuffle, re-dealt while two numbers of `avoid_adjacent` touch.
- `spiral`: the scope must be a hexagon (`geometry.hexagon_spiral`: a full one, or one
  whose sides differ in length). Tokens go in letter order, counter-clockwise
  round the outer ring from a start corner, then ring by ring inward to the centre,
  stepping over hexes that are not targets (the desert). `start_corner` k is the corner
  hex in direction `geometry.DIRECTION_NAMES[k]` from the centre: 0 = E, 1 = NE, 2 = NW,
  3 = W, 4 = SW, 5 = SE; None picks one with the seed.
- `fixed`: nothing to lay; the numbers are in the map's hex slots.
- `hidden`: nothing to lay either: a face-down stack for a hidden pool, a token drawn
  as each producing tile is revealed, from those the plan allows there
  (rules/hexes.py `hidden_choices`; compiler/validate.py deals it in trials, E0434).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from catandsl.board import geometry as geo
from catandsl.board.errors import BoardError
from catandsl.ir.model import NumberPlan, NumberToken

# `avoid_adjacent` deals the shuffled numbers again until none of them touch: at most
# MAX_DEALS times, and at most MAX_DEALT tokens in all, so a map of thousands of hexes
# (where each deal costs thousands) gives up after fewer deals instead of taking minutes.
MAX_DEALS = 2000
MAX_DEALT = 200_000
VALID_NUMBERS = frozenset(range(2, 13)) - {7}
# Pips: the dots printed under a number token, the ways two dice roll it (of 36). The
# greedy bot weighs spots by them and `lint`/`balance` measure a map's production with
# them: one table for both.
PIPS = (0, 0, 1, 2, 3, 4, 5, 0, 5, 4, 3, 2, 1)


def check_number(value: int, where: str, source) -> None:
    if value not in VALID_NUMBERS:
        raise BoardError(
            "E0421", f"number {value} {where} is not a number token", source,
            help="number tokens run from 2 to 12, without 7",
        )


def lay_numbers(
    hexes: list[geo.Hex],
    is_land: Callable[[geo.Hex], bool],
    produces: Callable[[geo.Hex], bool],
    terrain_of: dict[geo.Hex, str],
    pool_of: dict[geo.Hex, str | None],
    numbers: dict[geo.Hex, int],
    plans: tuple[NumberPlan, ...],
    seed: int,
) -> None:
    """Add each plan's numbers to `numbers` (which holds the map's fixed numbers)."""
    for index, plan in enumerate(plans):
        if plan.method == "fixed":
            continue
        if plan.method == "hidden":  # a face-down stack, drawn from as tiles are revealed
            for token in plan.tokens:
                check_number(token.value, "in the number plan", plan.source)
            continue
        if plan.method not in ("shuffled", "spiral", "along"):
            raise BoardError("E0421", f"unknown way to lay numbers: {plan.method!r}", plan.source)
        for token in plan.tokens:
            check_number(token.value, "in the number plan", plan.source)
        scope = [h for h in hexes if is_land(h) and (not plan.onto or pool_of[h] in plan.onto)]
        targets = [
            h for h in scope
            if produces(h) and h not in numbers and terrain_of[h] not in plan.skip
        ]
        if len(plan.tokens) != len(targets):
            raise BoardError(
                "E0414",
                f"the number plan has {len(plan.tokens)} tokens for {len(targets)} hexes",
                plan.source,
                help="give one token to each producing hex without a number",
            )
        rng = random.Random(f"{seed}:numbers:{index}")
        if plan.method == "shuffled":
            _deal_shuffled(plan, targets, numbers, terrain_of, rng)
        elif plan.method == "along":
            _lay_along(plan, targets, numbers, rng)
        else:
            _lay_spiral(plan, scope, targets, numbers, rng)
        _check_bans(plan, targets, numbers, terrain_of)


def touching_pair(
    numbers: dict[geo.Hex, int], hexes: list[geo.Hex], avoid: tuple[int, ...]
) -> tuple[geo.Hex, geo.Hex] | None:
    """The first two touching hexes (one of them in `hexes`) whose numbers are both in
    `avoid`, or None."""
    if not avoid:
        return None
    for h in hexes:
        if numbers.get(h) in avoid:
            for n in geo.neighbours(h):
                if numbers.get(n) in avoid:
                    return (h, n)
    return None


def banned_hex(plan, hexes, numbers, terrain_of) -> geo.Hex | None:
    """The first hex whose number a `keep [..] off [..]` of the plan forbids, or None."""
    for ban in plan.keep_off:
        for h in hexes:
            if numbers.get(h) in ban.numbers and (terrain_of.get(h) in ban.terrains or h in ban.hexes):
                return h
    return None


def _check_bans(plan, targets, numbers, terrain_of) -> None:
    h = banned_hex(plan, targets, numbers, terrain_of)
    if h is not None:
        raise BoardError("E0410", f"the numbers put {numbers[h]} on the {terrain_of[h]} hex ({h[0]},{h[1]}), "
                         "which `keep ... off` forbids", plan.source,
                         help="lay these numbers shuffled, or change the spiral's start corner")


def _deal_shuffled(plan, targets, numbers, terrain_of, rng: random.Random) -> None:
    values = [t.value for t in plan.tokens]
    trial = dict(numbers)  # each deal overwrites every target, so one copy serves all
    deals = max(1, min(MAX_DEALS, MAX_DEALT // max(1, len(targets))))
    for _ in range(deals):
        rng.shuffle(values)
        trial.update(zip(targets, values))
        if touching_pair(trial, targets, plan.avoid_adjacent) is None and \
                banned_hex(plan, targets, trial, terrain_of) is None:
            numbers.update(zip(targets, values))
            return
    raise BoardError(
        "E0410",
        f"no deal of the numbers in {deals} shuffles keeps {kept(plan)}",
        plan.source,
        help="there are too many of these numbers for the hexes, or fixed numbers already touch"
             + (f" (a map of {len(targets):,} numbered hexes is dealt {deals} times)" if deals < MAX_DEALS else ""),
    )


def kept(plan: NumberPlan) -> str:
    """What a plan keeps: `6, 8 apart and 6, 8 off gold`."""
    return " and ".join(filter(None, [
        ", ".join(str(v) for v in plan.avoid_adjacent) + " apart" if plan.avoid_adjacent else "",
        *(f"{', '.join(map(str, b.numbers))} off {b.place or ', '.join(b.terrains)}" for b in plan.keep_off)]))


def _lay_spiral(plan, scope, targets, numbers, rng: random.Random) -> None:
    start = plan.start_corner
    if start is None:
        start = rng.randrange(6)
    elif not 0 <= start < 6:
        raise BoardError("E0421", f"spiral start corner {start} is not 0..5", plan.source)
    order = geo.hexagon_spiral(scope, start)
    if order is None:
        raise BoardError(
            "E0409",
            f"a spiral needs a hexagon of land, but the {len(scope)} hexes it covers "
            "are not one",
            plan.source,
            help="lay numbers on this map with `shuffled` or give them in the map",
        )
    wanted = set(targets)
    tokens = iter(_letter_order(plan.tokens))
    for h in order:
        if h in wanted:
            numbers[h] = next(tokens).value
    pair = touching_pair(numbers, targets, plan.avoid_adjacent)
    if pair is not None:
        a, b = pair
        raise BoardError(
            "E0410",
            f"the spiral puts {numbers[a]} at ({a[0]},{a[1]}) next to {numbers[b]} at "
            f"({b[0]},{b[1]})",
            plan.source,
            help="change the token letters or lay the numbers `shuffled`",
        )


def _lay_along(plan, targets, numbers, rng: random.Random) -> None:
    """The tokens in order along one of the plan's paths of hexes (the seed picks which),
    stepping over the hexes that take no token; every hex that takes one lies on it."""
    path = plan.along[rng.randrange(len(plan.along))] if len(plan.along) > 1 else plan.along[0]
    on_path = set(path)
    missed = [h for h in targets if h not in on_path]
    if missed:
        h = missed[0]
        raise BoardError("E0440", f"the number path passes {len(targets) - len(missed)} of the {len(targets)} "
                         f"hexes that take a number; ({h[0]},{h[1]}) is off it", plan.source,
                         help="mark a path through every hex the plan numbers")
    wanted = set(targets)
    tokens = iter(plan.tokens)
    for h in path:
        if h in wanted:
            numbers[h] = next(tokens).value
    pair = touching_pair(numbers, targets, plan.avoid_adjacent)
    if pair is not None:
        a, b = pair
        raise BoardError("E0410", f"the number path puts {numbers[a]} at ({a[0]},{a[1]}) next to {numbers[b]} at "
                         f"({b[0]},{b[1]})", plan.source, help="change the order of the tokens")


def _letter_order(tokens: tuple[NumberToken, ...]) -> list[NumberToken]:
    if all(t.letter is None for t in tokens):
        return list(tokens)
    return sorted(tokens, key=lambda t: (t.letter is None, t.letter or ""))
