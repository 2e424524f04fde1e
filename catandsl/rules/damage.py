"""Damaged pieces (a road laid sideways): a player's path piece may
be marked damaged (`damage_piece`). While a player has a damaged piece of a kind:

- that player builds no new piece of that kind; building one (at its cost, or free, as
  with Road Building) on the damaged piece's own path repairs it instead
  (rules/placement.py);
- the damaged piece still counts for routes (Longest Road), but it does not reach an
  intersection for a new building: a settlement needs an intact own piece next to it;
- rules read it with `damaged(player)` and `damaged_at(at)` (a wagon pays as if no road
  were there).

A piece that moves (a ship) is never damaged, so a damaged piece never leaves its path.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from catandsl.rules import network
from catandsl.rules import words as w
from catandsl.rules.base import Action, EngineError, Location, Prompt, action_source, rules_call, seats_ok
from catandsl.rules.play import Game, State
from catandsl.rules.registry import BOARD, FLOW, PLAYER_PIECES, effect, query


@dataclass(frozen=True, order=True)
class Damage(Action):
    """Mark the piece on a path damaged (the answer to `damage_piece`)."""

    KIND: ClassVar[str] = "damage"
    HEADING: ClassVar[str] = "Damage"
    SITE: ClassVar[str | None] = "path"
    WRITES: ClassVar[frozenset[str]] = frozenset((BOARD,))
    at: int

    def words(self, told: w.Told) -> str:
        """`damage P2's road on the side between ...` (`the piece` without a state)."""
        where = w.path_words(told.board_game, self.at)
        s = told.state
        if s is None or s.path_piece[self.at] < 0:
            return f"damage the piece on {where}"
        piece = w.spoken(told.game.pieces[s.path_piece[self.at]].name)
        return f"damage {w.seat_words(told.game, s.path_owner[self.at])}'s {piece} on {where}"


@action_source
def damage_actions(game: Game) -> list[Action]:
    if not rules_call(game, "damage_piece"):
        return []
    return [Damage(k) for k in range(len(game.board.paths))]


def is_damaged(s: State, k: int) -> bool:
    return k in s.damaged  # a short list: a piece or two per player


def has_damaged(s: State, p: int, pi: int) -> bool:
    """Whether player p has a damaged piece of kind pi (and so builds none new)."""
    return any(s.path_owner[k] == p and s.path_piece[k] == pi for k in s.damaged)


def repair(s: State, k: int) -> None:
    s.damaged.remove(k)


@effect("chooser: player, owner: player, pieces: list<piece>", writes=(BOARD, FLOW), pieces=PLAYER_PIECES)
def damage_piece(s: State, chooser: int, owner: int, pieces: list[str]) -> None:
    """The chooser picks one of the owner's intact pieces of these kinds, which becomes
    damaged; with none, nothing happens."""
    kinds = [s.game.piece_index[p] for p in pieces]
    bad = [s.game.pieces[k].name for k in kinds
           if s.game.pieces[k].site != "path" or s.game.pieces[k].neutral or s.game.pieces[k].movement is not None]
    if bad:
        raise EngineError("damage_piece() damages a player's path pieces that stay put, not " + ", ".join(bad))
    s.push(Damaging(chooser, owner, sorted(kinds)))


@dataclass
class Damaging(Prompt):
    """`chooser` picks which of `owner`'s intact pieces of the kinds `pieces` is damaged."""

    KIND: ClassVar[str] = "damaging"
    chooser: int
    owner: int
    pieces: list[int]

    def check(self, game: Game) -> str:
        if not seats_ok(game, self.chooser, self.owner) or not all(
                0 <= p < len(game.pieces) and game.pieces[p].site == "path" for p in self.pieces):
            return "not players and path pieces"
        return super().check(game)

    def targets(self, s: State) -> list[int]:
        return [k for k in sorted(network.of(s).paths[self.owner])
                if s.path_piece[k] in self.pieces and not is_damaged(s, k)]

    def step(self, s: State) -> bool:
        if self.targets(s):
            return False
        s.pending.pop()  # nothing to damage
        return True

    def actor(self, s: State) -> int:
        return self.chooser

    def legal(self, s: State) -> list[int]:
        ids = s.game.action_id
        return [ids[Damage(k)] for k in self.targets(s)]

    def apply(self, s: State, act: Action) -> None:
        assert isinstance(act, Damage)
        s.pending.pop()
        s.damaged = sorted(s.damaged + [act.at])


@query("player: player", returns="int", reads=BOARD)
def damaged(s: State, player: int) -> int:
    """How many of the player's pieces are damaged (while one is, no new piece of its
    kind is built: building one on it repairs it)."""
    return sum(1 for k in s.damaged if s.path_owner[k] == player)


@query("at: path", returns="bool", reads=BOARD)
def damaged_at(s: State, at: Location) -> bool:
    """Whether the piece on the path is damaged (a wagon pays there as if no road stood)."""
    return at[0] == "p" and is_damaged(s, at[1])
