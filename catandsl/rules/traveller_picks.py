"""One of several travellers as the target of a rule: `choose_traveller(chooser, owner,
piece)` lets the chooser pick one of the owner's travelling pieces of a kind (the
barbarians fall on one wagon; a card gives one of your wagons points) and gives the
path where it stands; `travellers(owner, piece)` lists those paths, for a rule that acts
on each. `add_travel_points_on` and `send_traveller` act on the one standing on a given
path; the primitives of rules/travel.py act on the first one placed."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from catandsl.rules import words as w
from catandsl.rules.base import Action, EngineError, Location, action_source, location, rules_call
from catandsl.rules.play import Game, State
from catandsl.rules.registry import BOARD, FLOW, choice, effect, query
from catandsl.rules.travel import add_points


@dataclass(frozen=True, order=True)
class PickTraveller(Action):
    """The travelling piece picked for `choose_traveller`, by the path it stands on."""

    KIND: ClassVar[str] = "pick_traveller"
    HEADING: ClassVar[str] = "Choose a piece"
    WRITES: ClassVar[frozenset[str]] = frozenset((FLOW,))
    at: int

    def words(self, told: w.Told) -> str:
        return f"choose the piece on {w.path_words(told.board_game, self.at)}"


@action_source
def pick_traveller_actions(game: Game) -> list[Action]:
    if not rules_call(game, "choose_traveller"):
        return []
    return [PickTraveller(k) for k in sorted({k for pi in game.travellers for k in game.pieces[pi].sites})]


def _kind(s: State, piece: str) -> int:
    pi = s.game.piece_index[piece]
    if s.game.pieces[pi].travel is None:
        raise EngineError(f"`{piece}` does not travel (it has no `travels` block)", None)
    return pi


def _on(s: State, player: int, piece: str, at: Location) -> int:
    """The index in `s.travellers` of the first of the player's travellers of this kind
    on path `at`, -1 for none."""
    pi = _kind(s, piece)
    return next((i for i, e in enumerate(s.travellers)
                 if e.player == player and e.piece == pi and e.path == at[1]), -1)


@choice("chooser: player, owner: player, piece: piece", returns="path", answer=PickTraveller)
def choose_traveller(s: State, chooser: int, owner: int, piece: str) -> list[int]:
    """The chooser picks one of the owner's travelling pieces of this kind, and the value
    is the path where it stands (travellers of one owner and kind sharing a path are one
    pick); with none on the board the choice lapses with the rest of its block."""
    pi = _kind(s, piece)
    return sorted({e.path for e in s.travellers if e.player == owner and e.piece == pi})


@query("owner: player, piece: piece", returns="list<path>", reads=BOARD)
def travellers(s: State, owner: int, piece: str) -> list[Location]:
    """The paths where the owner's travelling pieces of this kind stand, in the order they
    were placed (a path once per piece)."""
    pi = _kind(s, piece)
    return [location("path", e.path) for e in s.travellers if e.player == owner and e.piece == pi]


@effect("player: player, piece: piece, at: path, points: int 0..1000", writes=BOARD)
def add_travel_points_on(s: State, player: int, piece: str, at: Location, points: int) -> None:
    """Adds points for this turn to the player's travelling piece of this kind on path
    `at`; nothing for one that stopped this turn, or with none there."""
    add_points(s, _on(s, player, piece, at), points)


@effect("player: player, piece: piece, at: path, to: path", writes=BOARD)
def send_traveller(s: State, player: int, piece: str, at: Location, to: Location) -> None:
    """The player's travelling piece of this kind on path `at` is set down on path `to`
    (sent home, driven off), spending no points and taking no step (`traveled` does not
    run); nothing with none on `at`, or where the piece may never stand."""
    i = _on(s, player, piece, at)
    if i < 0 or to[1] not in s.game.pieces[s.travellers[i].piece].sites:
        return
    s.travellers[i] = s.travellers[i]._replace(path=to[1])
