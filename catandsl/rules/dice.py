"""The dice: the `roll` activity of a phase, the roll as a chance node, and the
declared dice (`dice 2d6`, optionally `dice 2d6 { reroll 2, 12 }`: those totals are
rolled again, so they never come up and the others keep their relative odds).

The turn interpreter (engine/flow.py) owns the roll itself: a phase that allows `roll`
ends with it; `RollDice` asks for it when something else could be done first.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product
from typing import TYPE_CHECKING, ClassVar

from catandsl.rules.base import Action, Activity, action_source, activity
from catandsl.rules.registry import FLOW

if TYPE_CHECKING:
    from catandsl.engine.game import Game
    from catandsl.engine.state import State

MAX_OUTCOMES = 10_000  # dice combinations enumerated (sides ** count); the compiler says so


@dataclass(frozen=True, order=True)
class RollDice(Action):
    """Ask for the production roll (offered only when something else could be done first)."""

    KIND: ClassVar[str] = "roll_dice"
    WRITES: ClassVar[frozenset[str]] = frozenset((FLOW,))


@dataclass(frozen=True, order=True)
class Roll(Action):
    """Chance outcome: the dice total."""

    KIND: ClassVar[str] = "roll"
    WRITES: ClassVar[frozenset[str]] = frozenset((FLOW,))
    total: int


def totals(count: int, sides: int, reroll: tuple[int, ...] = ()) -> list[tuple[int, float]]:
    """Each total the dice can show with its probability, rerolled totals left out and
    the rest scaled up (rolling again until a total is kept)."""
    ways: dict[int, int] = {}
    for faces in product(range(1, sides + 1), repeat=count):
        t = sum(faces)
        ways[t] = ways.get(t, 0) + 1
    kept = {t: w for t, w in ways.items() if t not in reroll}
    whole = sum(kept.values())
    return [(t, kept[t] / whole) for t in sorted(kept)]


@action_source
def roll_actions(game: Game) -> list[Action]:
    return [RollDice()] + [Roll(t) for t, _ in game.dice_totals]


def _nothing(s: State, p: int, names: frozenset[str] | None) -> list[int]:
    return []  # the interpreter offers RollDice and the roll itself


ROLL = activity(Activity(
    "roll", "the dice: a phase that allows `roll` ends with the roll, which cannot be skipped",
    _nothing, {}))
