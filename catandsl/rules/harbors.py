"""Harbors in play: which harbor lies on each spot, and placing one.

The board lays the harbors of `fixed` and `shuffled` plans; a `placed` plan leaves its
spots empty and its harbors in a supply. A player who places a harbor (the set-up step
`place harbor`, or the effect `place_harbor`) draws a token from the supply, face down
and at random (a chance node), then lays it on an empty spot of their choice.

State data: `harbor_at` (per harbor spot, the board's `harbors` order: the index of the
harbor type lying there in `HarborLookups.types`, or -1 for an empty spot) and
`harbor_supply` (per harbor type, the tokens not yet placed).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from catandsl.rules import words as w
from catandsl.rules.base import Action, IllegalAction, Prompt, action_source, seats_ok
from catandsl.rules.play import Game, State
from catandsl.rules.registry import BOARD, FLOW, HANDS, effect, query

if TYPE_CHECKING:
    from catandsl.ir.model import HarborType


def harbor_name(t: HarborType) -> str:
    """`3:1` or `brick 2:1`: how the language writes a harbor."""
    ratio = f"{t.give}:{t.get}"
    return f"{t.resource} {ratio}" if t.resource else ratio


@dataclass(frozen=True)
class HarborLookups:
    """The harbor kinds, what lies on each spot at the start and the tokens to place."""

    types: tuple[HarborType, ...]  # every kind of harbor in the game, sorted
    start: tuple[int, ...]  # per spot: the type laid by the board, or -1 (placed later)
    supply: tuple[int, ...]  # per type: the tokens the players place
    spot_of_path: dict[int, int]  # path id -> spot
    path_of_spot: tuple[int, ...]

    @classmethod
    def build(cls, game: Game) -> HarborLookups:
        b = game.board
        kinds = {h.type for h in b.harbors if h.type is not None} | set(b.harbor_supply)
        types = tuple(sorted(kinds, key=lambda t: (t.give, t.get, t.resource or "")))
        index = {t: k for k, t in enumerate(types)}
        supply = [0] * len(types)
        for t in b.harbor_supply:
            supply[index[t]] += 1
        paths = tuple(b.path_index[h.path] for h in b.harbors)
        return cls(types, tuple(index[h.type] if h.type is not None else -1 for h in b.harbors),
                   tuple(supply), {p: k for k, p in enumerate(paths)}, paths)


@dataclass(frozen=True, order=True)
class DrawHarbor(Action):
    """Chance outcome: the harbor token drawn from the supply (`3:1`, `brick 2:1`)."""

    KIND: ClassVar[str] = "draw_harbor"
    HEADING: ClassVar[str] = "Draw a harbor"
    WRITES: ClassVar[frozenset[str]] = frozenset((FLOW,))
    harbor: str

    def words(self, told: w.Told) -> str:
        return f"draw {w.harbor_words(self.harbor)}"


@dataclass(frozen=True, order=True)
class PlaceHarbor(Action):
    """Lay the drawn harbor token on the empty harbor spot on path `at`."""

    KIND: ClassVar[str] = "place_harbor"
    HEADING: ClassVar[str] = "Place a harbor"
    WRITES: ClassVar[frozenset[str]] = frozenset((HANDS,))  # trade rates change
    SITE: ClassVar[str | None] = "path"
    at: int

    def words(self, told: w.Told) -> str:
        return f"place the harbor on {w.path_words(told.board_game, self.at)}"


@action_source
def harbor_actions(game: Game) -> list[Action]:
    t = game.lookups(HarborLookups)
    if not any(t.supply):
        return []
    return [DrawHarbor(harbor_name(k)) for k in t.types] + [PlaceHarbor(p) for p in t.path_of_spot]


def can_place(s: State) -> bool:
    """A token is left to draw and a spot to lay it on."""
    return any(s.harbor_supply) and -1 in s.harbor_at


@effect("player: player", writes=(HANDS, FLOW))
def place_harbor(s: State, player: int) -> None:
    """The player draws a harbor token from the supply and lays it on an empty harbor
    spot of their choice (nothing happens when no token or no spot is left)."""
    if can_place(s):
        s.push(PlacingHarbor(player, -1))


@dataclass
class PlacingHarbor(Prompt):
    """`player` draws a harbor token (`drawn` is -1 until the chance node gives it: a type
    index) and lays it on an empty spot."""

    KIND: ClassVar[str] = "harbor"
    player: int
    drawn: int

    @property
    def chance(self) -> bool:  # type: ignore[override]  # drawing first, then a decision
        return self.drawn < 0

    def check(self, game: Game) -> str:
        if not seats_ok(game, self.player) or not -1 <= self.drawn < len(game.lookups(HarborLookups).types):
            return "not a player and a harbor"
        return super().check(game)

    def step(self, s: State) -> bool:
        if self.drawn >= 0 or can_place(s):
            return False
        s.pending.pop()  # a rule took the last token or spot first
        return True

    def outcomes(self, s: State) -> list[tuple[int, float]]:
        g = s.game
        t = g.lookups(HarborLookups)
        total = sum(s.harbor_supply)
        return [(g.action_id[DrawHarbor(harbor_name(t.types[k]))], n / total)
                for k, n in enumerate(s.harbor_supply) if n]

    def actor(self, s: State) -> int:
        return self.player

    def legal(self, s: State) -> list[int]:
        g = s.game
        t = g.lookups(HarborLookups)
        return [g.action_id[PlaceHarbor(t.path_of_spot[k])] for k, v in enumerate(s.harbor_at) if v < 0]

    def apply(self, s: State, act: Action) -> None:
        t = s.game.lookups(HarborLookups)
        if isinstance(act, DrawHarbor):
            self.drawn = next(k for k, x in enumerate(t.types) if harbor_name(x) == act.harbor)
            s.harbor_supply[self.drawn] -= 1
            s.chance_count += 1
            return
        assert isinstance(act, PlaceHarbor)
        s.pending.pop()
        s.harbor_at[t.spot_of_path[act.at]] = self.drawn

    def refusal(self, s: State, act: Action) -> IllegalAction | None:
        if isinstance(act, PlaceHarbor):
            return IllegalAction("action/invalid_target", f"place_harbor at {act.at}: not an empty harbor spot")
        return None


@query("player: player, piece: piece", returns="int", reads=BOARD)
def on_harbors(s: State, player: int, piece: str) -> int:
    """How many of the player's pieces of this kind stand on a harbor's intersection
    (either of the two a harbor lying on the board serves): harbor points, for an award
    such as the Harbormaster."""
    g = s.game
    pi = g.piece_index[piece]
    b = g.board
    return sum(1 for c, spot in enumerate(b.corner_harbor)
               if spot >= 0 and s.harbor_at[spot] >= 0 and s.corner_owner[c] == player and s.corner_piece[c] == pi)


@query("player: player", returns="int", reads=BOARD)
def bank_rate(s: State, player: int) -> int:
    """How many of one kind the player gives the bank for 1 when no harbor of that kind
    serves them: the bank's rate (`trade bank 4:1`), or a generic harbor's (3 for a
    `3:1`) where one serves a building of theirs; 0 with neither. A rule that lets a
    token trade at the harbors' rates (gold, 4 for 1 or 3 for 1) pays it."""
    g = s.game
    rates = [t.give // max(t.get, 1) for t in g.ruleset.trades.values() if t.give > 0]
    types = g.lookups(HarborLookups).types
    for c, spot in enumerate(g.board.corner_harbor):
        if spot >= 0 and s.harbor_at[spot] >= 0 and s.corner_owner[c] == player:
            t = types[s.harbor_at[spot]]
            if t.resource is None:
                rates.append(t.give // max(t.get, 1))
    return min(rates, default=0)
