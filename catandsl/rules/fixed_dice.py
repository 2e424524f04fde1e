"""Fixing the dice before a roll (a card such as the Alchemist): `fix_dice(total)` makes
the next roll of the dice come up `total`. The state keeps the total (`fixed_roll`, 0
for none); the dice's chance node (rules/dice.py) then has that one outcome, and the roll
clears it (engine/flow.py). Named dice roll faces and roll cards are a deck, so neither
is fixed: a card or an action whose rule says so is refused there."""

from __future__ import annotations

from catandsl.rules.base import EngineError
from catandsl.rules.play import State
from catandsl.rules.registry import FLOW, effect


def _cannot_fix(s: State, total: int) -> str:
    """Why `fix_dice` cannot fix this total ("" when it can)."""
    g = s.game
    if g.ruleset.roll_cards is not None:
        return "the rolls come from roll cards"
    if g.dice_names:
        return "named dice roll faces, not a total"
    if total not in dict(g.dice_totals):
        return f"the dice never roll {total}"
    return ""


@effect("total: int 1..1000", writes=FLOW, refuses=_cannot_fix)
def fix_dice(s: State, total: int) -> None:
    """The next roll of the dice comes up `total` (a card such as the Alchemist, played
    before the roll): its chance node has that one outcome, then the dice are dice again.
    Named dice and roll cards are not fixed: a card or action whose rule says so is
    refused there, and a total the dice never roll stops the rule."""
    why = _cannot_fix(s, total)
    if why:
        raise EngineError(f"fix_dice({total}): {why}")
    s.fixed_roll = total
