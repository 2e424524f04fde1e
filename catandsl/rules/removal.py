"""Pieces taken off the board by a rule (a building burnt down, a road swept away):
`remove_piece(chooser, owner, pieces)` lets the chooser pick one of the owner's pieces of
these kinds, on an intersection or a path, which goes back to the owner's supply;
`replace_piece(chooser, owner, pieces, by)` puts one of the owner's pieces of the kind
`by` in its place (a city downgraded to a settlement).

Its points go with it (points count the pieces on the board, and special victory points
laid under a building leave with it), routes and awards are
measured again (the effect writes the board), and the site is free for anybody to build
on again. A travelling piece (a wagon) and a neutral piece are moved, not removed: the
compiler refuses them by kind when the list is written out, and the engine when a rule
computes it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from catandsl.rules import network, piece_state
from catandsl.rules import words as w
from catandsl.rules.base import Action, EngineError, Prompt, action_source, rules_call, seats_ok
from catandsl.rules.play import Game, State
from catandsl.rules.registry import BOARD, FLOW, PLAYER_PIECES, effect


def _spoken(told: w.Told, seat: int, piece: int, where: str) -> str:
    g = told.game
    what = f"{w.seat_words(g, seat)}'s {w.spoken(g.pieces[piece].name)} on {where}"
    by = getattr(told.asked, "by", -1)
    if isinstance(by, int) and 0 <= by < len(g.pieces):
        return f"replace {what} with {w.a(w.spoken(g.pieces[by].name))}"
    return f"remove {what}"


@dataclass(frozen=True, order=True)
class RemoveFromIntersection(Action):
    """Take the piece on an intersection off the board (the answer to `remove_piece`)."""

    KIND: ClassVar[str] = "remove_from_intersection"
    HEADING: ClassVar[str] = "Remove"
    SITE: ClassVar[str | None] = "intersection"
    WRITES: ClassVar[frozenset[str]] = frozenset((BOARD,))
    at: int

    def words(self, told: w.Told) -> str:
        """`remove P2's settlement on the corner of ...` (`the piece` without a state)."""
        where = w.intersection_words(told.board_game, self.at)
        s = told.state
        if s is None or s.corner_owner[self.at] < 0:
            return f"remove the piece on {where}"
        return _spoken(told, s.corner_owner[self.at], s.corner_piece[self.at], where)


@dataclass(frozen=True, order=True)
class RemoveFromPath(Action):
    """Take the piece on a path off the board (the answer to `remove_piece`)."""

    KIND: ClassVar[str] = "remove_from_path"
    HEADING: ClassVar[str] = "Remove"
    SITE: ClassVar[str | None] = "path"
    WRITES: ClassVar[frozenset[str]] = frozenset((BOARD,))
    at: int

    def words(self, told: w.Told) -> str:
        """`remove P2's road on the side between ...` (`the piece` without a state)."""
        where = w.path_words(told.board_game, self.at)
        s = told.state
        if s is None or s.path_owner[self.at] < 0:
            return f"remove the piece on {where}"
        return _spoken(told, s.path_owner[self.at], s.path_piece[self.at], where)


@action_source
def removal_actions(game: Game) -> list[Action]:
    if not rules_call(game, "remove_piece") and not rules_call(game, "replace_piece"):
        return []
    b = game.board
    return ([RemoveFromIntersection(k) for k in range(len(b.intersections))]
            + [RemoveFromPath(k) for k in range(len(b.paths))])


@effect("chooser: player, owner: player, pieces: list<piece>", writes=(BOARD, FLOW), pieces=PLAYER_PIECES)
def remove_piece(s: State, chooser: int, owner: int, pieces: list[str]) -> None:
    """The chooser picks one of the owner's pieces of these kinds on the board (on an
    intersection or a path), which goes back to the owner's supply: its points go with
    it (special victory points under it too), and the site is free again. With none on
    the board, nothing happens."""
    g = s.game
    kinds = [g.piece_index[p] for p in pieces]
    bad = [g.pieces[k].name for k in kinds if g.pieces[k].neutral or g.pieces[k].travel is not None]
    if bad:
        raise EngineError("remove_piece() removes a player's pieces that stand on the board, not " + ", ".join(bad))
    s.push(Removing(chooser, owner, sorted(kinds), -1))


@effect("chooser: player, owner: player, pieces: list<piece>, by: piece", writes=(BOARD, FLOW),
        pieces=PLAYER_PIECES)
def replace_piece(s: State, chooser: int, owner: int, pieces: list[str], by: str) -> None:
    """The chooser picks one of the owner's pieces of these kinds on the board, which is
    replaced by one of the owner's pieces of the kind `by` (a city burnt down to a
    settlement): the piece taken off goes back to the supply, and with no `by` left in
    the supply the site stays empty. No `built` event runs. With none on the board,
    nothing happens."""
    g = s.game
    kinds = [g.piece_index[p] for p in pieces]
    new = g.piece_index[by]
    bad = [g.pieces[k].name for k in kinds + [new] if g.pieces[k].neutral or g.pieces[k].travel is not None
           or g.pieces[k].site != g.pieces[new].site]
    if bad:
        raise EngineError(f"replace_piece() replaces a player's pieces with `{by}` on the same kind of site, "
                          "not " + ", ".join(bad))
    s.push(Removing(chooser, owner, sorted(kinds), new))


@dataclass
class Removing(Prompt):
    """`chooser` picks which of `owner`'s pieces of the kinds `pieces` leaves the board;
    one of `owner`'s pieces of the kind `by` takes its place (-1: none)."""

    KIND: ClassVar[str] = "removing"
    chooser: int
    owner: int
    pieces: list[int]
    by: int

    def check(self, game: Game) -> str:
        if not seats_ok(game, self.chooser, self.owner) or not all(
                0 <= p < len(game.pieces) and not game.pieces[p].neutral for p in self.pieces) \
                or not -1 <= self.by < len(game.pieces):
            return "not players and players' pieces"
        return super().check(game)

    def targets(self, s: State) -> list[Action]:
        o, kinds = self.owner, self.pieces
        corners: list[Action] = [RemoveFromIntersection(k) for k, (seat, pi)
                                 in enumerate(zip(s.corner_owner, s.corner_piece)) if seat == o and pi in kinds]
        paths: list[Action] = [RemoveFromPath(k) for k, (seat, pi)
                               in enumerate(zip(s.path_owner, s.path_piece)) if seat == o and pi in kinds]
        return corners + paths

    def step(self, s: State) -> bool:
        if self.targets(s):
            return False
        s.pending.pop()  # nothing of theirs to remove
        return True

    def actor(self, s: State) -> int:
        return self.chooser

    def legal(self, s: State) -> list[int]:
        ids = s.game.action_id
        return sorted(ids[a] for a in self.targets(s))

    def apply(self, s: State, act: Action) -> None:
        assert isinstance(act, RemoveFromIntersection | RemoveFromPath)
        s.pending.pop()
        kind = "intersection" if isinstance(act, RemoveFromIntersection) else "path"
        lift(s, kind, act.at)
        if self.by >= 0 and (s.placed[self.owner][self.by] + s.pieces_lost[self.owner][self.by]
                             < s.game.pieces[self.by].limit):
            s.placed[self.owner][self.by] += 1
            put = network.put_corner if kind == "intersection" else network.put_path
            put(s, act.at, self.owner, self.by)


def lift(s: State, kind: str, k: int) -> None:
    """The piece on site k (an intersection or a path) leaves the board for its owner's
    supply."""
    if kind == "intersection":
        seat, pi = s.corner_owner[k], s.corner_piece[k]
        s.corner_owner[k] = -1
        s.corner_piece[k] = -1
        # a building gone may join two routes it cut and frees the sites around it:
        # the network is read afresh (removals are rare)
        s._network = None
        if s.vp_tokens:  # special victory points lie under their building: they leave with it
            s.vp_tokens = [t for t in s.vp_tokens if t.intersection != k]
        if seat < s.game.num_players and s.last_corner[seat] == k:
            s.last_corner[seat] = -1
        piece_state.forget(s, 0, k)
    else:
        seat, pi = s.path_owner[k], s.path_piece[k]
        network.lift_path(s, k)
        piece_state.forget(s, 1, k)
        if k in s.damaged:
            s.damaged = [x for x in s.damaged if x != k]
        if k in s.fresh_paths.paths:
            s.fresh_paths = s.fresh_paths.without(k)
        if seat < s.game.num_players and s.last_path[seat] == k:
            s.last_path[seat] = -1
    s.placed[seat][pi] -= 1
