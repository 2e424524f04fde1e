"""The dice: the `roll` activity of a phase, the roll as a chance node, and the
declared dice (`dice 2d6`, optionally `dice 2d6 { reroll 2, 12 }`: those totals are
rolled again, so they never come up and the others keep their relative odds). Named dice
(`dice 2d6 { named red, white }`) roll faces, not totals: the chance outcome is each die's
face (`RollFaces`), so rules can read one die (`die(red)`); the total is still the roll
production and the turn use. Rules roll
dice of their own with `roll_dice(count, sides)` (a chase, a duel, a roll against a
table): the rule waits at a chance node whose outcomes are `RuleRoll` totals.

The turn interpreter (engine/flow.py) owns the roll itself: a phase that allows `roll`
ends with it; `RollDice` asks for it when something else could be done first.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import product
from typing import ClassVar

from catandsl.rules import words as w
from catandsl.rules.base import Action, Activity, action_source, activity, rules_call
from catandsl.rules.play import Game, State
from catandsl.rules.registry import FLOW, query, random_value

MAX_OUTCOMES = 10_000  # dice combinations enumerated (sides ** count); the compiler says so


@dataclass(frozen=True, order=True)
class RollDice(Action):
    """Ask for the production roll (offered only when something else could be done first)."""

    KIND: ClassVar[str] = "roll_dice"
    HEADING: ClassVar[str] = "Roll"
    WRITES: ClassVar[frozenset[str]] = frozenset((FLOW,))

    def words(self, told: w.Told) -> str:
        return "roll the dice"


@dataclass(frozen=True, order=True)
class Roll(Action):
    """Chance outcome: the dice total."""

    KIND: ClassVar[str] = "roll"
    HEADING: ClassVar[str] = "Roll"
    WRITES: ClassVar[frozenset[str]] = frozenset((FLOW,))
    total: int

    def words(self, told: w.Told) -> str:
        return f"roll {self.total}"


@dataclass(frozen=True, order=True)
class RollFaces(Action):
    """Chance outcome of named dice: each die's face, in the order `named` lists them."""

    KIND: ClassVar[str] = "roll_faces"
    HEADING: ClassVar[str] = "Roll"
    WRITES: ClassVar[frozenset[str]] = frozenset((FLOW,))
    faces: tuple[int, ...]

    def describe(self, game: Game) -> str:
        """`roll 7 (red 3, white 4)`: the engine's short form is its words."""
        return self.words(w.Told(game))

    def words(self, told: w.Told) -> str:
        each = ", ".join(f"{name} {face}" for name, face in zip(told.game.dice_names, self.faces))
        return f"roll {sum(self.faces)} ({each})"


@dataclass(frozen=True, order=True)
class RuleRoll(Action):
    """Chance outcome: the total of dice a rule rolls (`roll_dice`)."""

    KIND: ClassVar[str] = "rule_roll"
    HEADING: ClassVar[str] = "Roll for a rule"
    WRITES: ClassVar[frozenset[str]] = frozenset((FLOW,))
    total: int

    def words(self, told: w.Told) -> str:
        return f"roll {self.total} for a rule"


# `roll_dice(count, sides)`: at most 4 dice of at most 20 sides, so a rule's roll has at
# most 160,000 combinations to count and its totals fit RULE_TOTALS actions.
MAX_RULE_DICE, MAX_RULE_SIDES = 4, 20
RULE_TOTALS = range(1, MAX_RULE_DICE * MAX_RULE_SIDES + 1)


def totals(count: int, sides: int, reroll: tuple[int, ...] = ()) -> list[tuple[int, float]]:
    """Each total the dice can show with its probability, rerolled totals left out and
    the rest scaled up (rolling again until a total is kept)."""
    kept = {t: w for t, w in _ways(count, sides) if t not in reroll}
    whole = sum(kept.values())
    return [(t, kept[t] / whole) for t in sorted(kept)]


def kept_faces(count: int, sides: int, reroll: tuple[int, ...] = ()) -> list[tuple[int, ...]]:
    """Every throw of named dice whose total is kept, in ascending order; each is equally
    likely (a rerolled total is thrown again)."""
    return [f for f in product(range(1, sides + 1), repeat=count) if sum(f) not in reroll]


@action_source
def roll_actions(game: Game) -> list[Action]:
    out: list[Action] = [RollDice()]
    if game.dice_names:
        out += [RollFaces(f) for f in game.dice_faces]
    else:
        out += [Roll(t) for t, _ in game.dice_totals]
    if rules_call(game, "roll_dice"):
        out += [RuleRoll(t) for t in RULE_TOTALS]
    return out


@random_value(f"count: int 1..{MAX_RULE_DICE}, sides: int 2..{MAX_RULE_SIDES}", returns="int", answer=RuleRoll)
def roll_dice(s: State, count: int, sides: int) -> list[tuple[int, int]]:
    """The total of `count` dice of `sides` sides, rolled by chance (a chance node: a
    chase, a duel, a roll against a table); `roll_dice(1, 6)` is one die."""
    return list(_ways(count, sides))


@cache  # a rule may roll in a loop; the counts depend on (count, sides) alone
def _ways(count: int, sides: int) -> tuple[tuple[int, int], ...]:
    """Each total of `count` dice of `sides` sides with the number of ways to throw it,
    ascending."""
    ways: dict[int, int] = {}
    for faces in product(range(1, sides + 1), repeat=count):
        t = sum(faces)
        ways[t] = ways.get(t, 0) + 1
    return tuple(sorted(ways.items()))


class DiceSource:
    """The roll is the dice's total (rerolled totals never come up), or with named dice
    each die's face: a fixed chance node. rules/roll_cards.py has the other source, a deck
    of cards."""

    def __init__(self, game: Game):
        self.answers: tuple[type[Action], ...]
        if game.dice_names:
            self.answers = (RollFaces,)
            each = 1 / len(game.dice_faces)
            self.fixed = [(game.action_id[RollFaces(f)], each) for f in game.dice_faces]
            self.totals = [sum(f) for f in game.dice_faces]
        else:
            self.answers = (Roll,)
            self.fixed = [(game.action_id[Roll(t)], p) for t, p in game.dice_totals]
            self.totals = [t for t, _ in game.dice_totals]

    def outcomes(self, s: State) -> list[tuple[int, float]]:
        g = s.game
        if s.fixed_roll:  # `fix_dice`: one outcome, certain
            return [(g.action_id[Roll(s.fixed_roll)], 1.0)]
        if not (g.dice_distinct and s.turn_rolls):
            return self.fixed
        # `rolls 2 distinct`: a total already rolled this turn is rolled again
        kept = [(a, pr) for (a, pr), t in zip(self.fixed, self.totals) if t not in s.turn_rolls]
        whole = sum(pr for _, pr in kept)
        return [(a, pr / whole) for a, pr in kept]

    def reveal(self, s: State, act: Action) -> tuple[int, str, tuple[int, ...]]:
        """(total, roll card event: none, each die's face: none unless the dice are named)."""
        if isinstance(act, RollFaces):
            return sum(act.faces), "", act.faces
        assert isinstance(act, Roll)
        return act.total, "", ()


@query("which: die", returns="int", reads=FLOW)
def die(s: State, which: str) -> int:
    """The face the named die showed on the last roll of the dice (`dice 2d6 { named red,
    white }`; `die(red) == die(white)` is a double); 0 before the first roll, and while
    the roll comes from roll cards."""
    return s.last_faces[s.game.dice_names.index(which)]


def _nothing(s: State, p: int, names: frozenset[str] | None) -> list[int]:
    return []  # the interpreter offers RollDice and the roll itself


ROLL = activity(Activity(
    "roll", "the dice: a phase that allows `roll` ends with the roll, which cannot be skipped",
    _nothing, {}))
