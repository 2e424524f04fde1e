"""Pieces that travel path by path with a budget of points (a wagon; a piece with a
`travels` block, model.Travel).

A traveller is a player's piece standing on a path beside whatever else stands there: it
blocks nothing, and any number of travellers may share a path. The state keeps each one
as a `Traveller(player, piece, path, left, turn, moved)` (rules/play.py): `left` is the
points it has for the rest of turn `turn`; in any other turn it has not started yet, and its first step of a turn
reads the piece's `points` afresh (so unused points are lost at the end of a turn). A
`left` of -1 in the current turn means it stopped (`stop where`) and travels no further
this turn (`stopped_this_turn`: no rule gives it points again before the next turn).
`moved` is the last turn in which it took a step.

The `travel` activity offers `Travel(piece, at, to)`: a step from path `at` onto path
`to`, which shares an end with it, costing the piece's `cost` (read with `player`, `from`
and `at` the path entered), allowed when the points left cover it and `enter` holds. A
step emits `traveled(PIECE)`, whose hooks pay tolls or deliver goods. Travellers are
placed like other pieces (a set-up step `place wagon touching last`, or bought where the
turn allows `build`); outside the set-up a traveller goes on a path at an own building.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from catandsl.rules import words as w
from catandsl.rules.base import (
    Action,
    Activity,
    EngineError,
    IllegalAction,
    Location,
    action_source,
    activity,
    location,
    paths_next_to,
)
from catandsl.rules.play import NO_ANSWERS, Game, PieceInfo, State, Traveller
from catandsl.rules.registry import BOARD, FLOW, effect, query

STOPPED = -1  # `left` of a traveller that stopped this turn


@dataclass(frozen=True, order=True)
class Travel(Action):
    """One step of an own travelling piece from path `at` onto the path `to` next to it."""

    KIND: ClassVar[str] = "travel"
    HEADING: ClassVar[str] = "Travel"
    WRITES: ClassVar[frozenset[str]] = frozenset((BOARD, FLOW))
    piece: str
    at: int
    to: int

    def words(self, told: w.Told) -> str:
        g = told.board_game
        piece = w.piece_words(told.game, self.piece)
        return f"move {piece} from {w.path_words(g, self.at)} to {w.path_words(g, self.to)}"

    def absent(self, game: Game) -> str:
        P = game.pieces[game.piece_index[self.piece]] if self.piece in game.piece_index else None
        if P is None or P.travel is None:
            return f"{self.piece}: no travelling piece of that name in this game"
        sites = set(P.sites)
        for k in (self.at, self.to):
            if not (isinstance(k, int) and 0 <= k < len(game.board.paths)):
                return f"{self.piece}: no path {k!r} on this board (paths are 0..{len(game.board.paths) - 1})"
            if k not in sites:
                return f"{self.piece} onto {game.location_name('path', k)}: a {self.piece} never stands there"
        if self.to not in paths_next_to(game, self.at):
            return (f"{self.piece} from {game.location_name('path', self.at)} to "
                    f"{game.location_name('path', self.to)}: the two paths share no intersection; "
                    "a step goes onto a path next to the one it stands on")
        return ""


def _steps(game: Game, P: PieceInfo) -> list[tuple[int, int]]:
    """Every (from, to) pair of paths of the piece's sites that share an end."""
    sites = set(P.sites)
    return [(k, x) for k in P.sites for x in paths_next_to(game, k) if x in sites]


@action_source
def travel_actions(game: Game) -> list[Action]:
    return [Travel(game.pieces[pi].name, k, x) for pi in game.travellers for k, x in _steps(game, game.pieces[pi])]


# ---- reading the piece's expressions ------------------------------------------------------


def _number(s: State, P: PieceInfo, expr, env: dict) -> int:
    assert P.travel is not None
    v = s.game.interp.program(expr, P.source).run(env, s, NO_ANSWERS)
    if not isinstance(v, int) or isinstance(v, bool):
        raise EngineError(f"{P.name}: travel points and costs are numbers, not {v!r}", P.source)
    return v


def left(s: State, e: Traveller) -> int:
    """The points a traveller has for the rest of this turn (STOPPED once it stopped)."""
    if e.turn == s.turns:
        return e.left
    P = s.game.pieces[e.piece]
    assert P.travel is not None
    return max(0, _number(s, P, P.travel.points, {"player": e.player}))


def step_cost(s: State, e: Traveller, to: int) -> int | None:
    """What the step onto path `to` costs, or None when `enter` forbids it."""
    P = s.game.pieces[e.piece]
    assert P.travel is not None
    env = {"player": e.player, "from": location("path", e.path), "at": location("path", to)}
    if P.travel.enter is not None and not s.game.interp.program(P.travel.enter, P.source).run(env, s, NO_ANSWERS):
        return None
    return max(0, _number(s, P, P.travel.cost, env))


def _entries(s: State, p: int, names: frozenset[str] | None = None) -> list[Traveller]:
    g = s.game
    return [e for e in s.travellers if e.player == p and (names is None or g.pieces[e.piece].name in names)]


# ---- the `travel` activity ------------------------------------------------------------------


def _legal(s: State, p: int, names: frozenset[str] | None) -> list[int]:
    g = s.game
    if not g.travellers:
        return []
    out = []
    for e in _entries(s, p, names):
        have = left(s, e)
        if have <= 0:
            continue
        P = g.pieces[e.piece]
        for x in paths_next_to(g, e.path):
            if x in P.allowed_set:
                cost = step_cost(s, e, x)
                if cost is not None and cost <= have:
                    out.append(g.action_id[Travel(P.name, e.path, x)])
    return sorted(set(out))  # two travellers of a kind may share a path


def _apply(s: State, p: int, act: Travel) -> None:
    g = s.game
    pi = g.piece_index[act.piece]
    i, e = next((i, e) for i, e in enumerate(s.travellers) if e.player == p and e.piece == pi and e.path == act.at)
    have = left(s, e)
    cost = step_cost(s, e, act.to)
    assert cost is not None
    s.travellers[i] = e = e._replace(path=act.to, left=have - cost, turn=s.turns, moved=s.turns)
    P = g.pieces[pi]
    assert P.travel is not None
    env = {"player": p, "from": location("path", act.at), "at": location("path", act.to)}
    if P.travel.stop is not None and g.interp.program(P.travel.stop, P.source).run(env, s, NO_ANSWERS):
        s.travellers[i] = e._replace(left=STOPPED)
    s.emit("traveled", {"player": p, "piece": act.piece, "from": env["from"], "at": env["at"]})


def _refusal(s: State, p: int, act: Action) -> IllegalAction | None:
    if not isinstance(act, Travel):
        return None
    g = s.game
    pi = g.piece_index[act.piece]
    e = next((e for e in s.travellers if e.player == p and e.piece == pi and e.path == act.at), None)
    what = g.action_to_string(g.action_id[act])
    if e is None:
        return IllegalAction("action/invalid_target", f"{what}: player {p} has no {act.piece} there")
    have = left(s, e)
    if have == STOPPED:
        return IllegalAction("action/not_legal", f"{what}: the {act.piece} has stopped for this turn")
    cost = step_cost(s, e, act.to)
    if cost is None:
        return IllegalAction("action/invalid_target", f"{what}: the {act.piece} may not enter that path")
    if cost > have:
        return IllegalAction("action/cannot_afford", f"{what}: the step costs {cost} points, "
                             f"{max(have, 0)} left this turn")
    return None


TRAVEL = activity(Activity(
    "travel", "a step of an own piece that `travels` (a wagon) onto a path next to it, paying its cost "
    "from the piece's points for the turn", _legal, {Travel: _apply},
    names="piece", subject=lambda game, act: act.piece, refusal=_refusal))


# ---- placing a traveller ------------------------------------------------------------------


def can_place(s: State, p: int, P: PieceInfo, k: int, mode: str, touching_last: bool) -> bool:
    """A traveller goes on any path it may stand on, beside whatever stands there: in the
    set-up at the player's last building when the step says `touching last`, elsewhere at
    an own building."""
    b = s.game.board
    if mode == "setup":
        return not touching_last or s.last_corner[p] in b.path_ends[k]
    return any(s.corner_owner[c] == p for c in b.path_ends[k])


def place(s: State, p: int, pi: int, k: int) -> None:
    s.travellers.append(Traveller(p, pi, k, 0, -1, -1))


# ---- primitives -----------------------------------------------------------------------------


def _one(s: State, player: int, piece: str) -> int:
    """The index in `s.travellers` of the player's travelling piece of a kind, -1 for none."""
    g = s.game
    pi = g.piece_index[piece]
    if g.pieces[pi].travel is None:
        raise EngineError(f"`{piece}` does not travel (it has no `travels` block)", None)
    return next((i for i, e in enumerate(s.travellers) if e.player == player and e.piece == pi), -1)


@effect("player: player, piece: piece, points: int 0..1000", writes=BOARD)
def add_travel_points(s: State, player: int, piece: str, points: int) -> None:
    """Adds points to the player's travelling piece for this turn (1 grain for 2 more);
    nothing for a piece that stopped this turn or that the player has not placed."""
    add_points(s, _one(s, player, piece), points)


def add_points(s: State, i: int, points: int) -> None:
    """Traveller i (none if negative) gains points for this turn, unless it stopped this turn."""
    if i < 0:
        return
    e = s.travellers[i]
    have = left(s, e)
    if have != STOPPED:
        s.travellers[i] = e._replace(left=have + points, turn=s.turns)


@effect("player: player, piece: piece", writes=BOARD)
def restart_travel(s: State, player: int, piece: str) -> None:
    """The player's travelling piece travels again this turn with its full points, as if
    it had not moved yet (a card such as Swift Journey); a piece that stopped this turn
    stays stopped."""
    i = _one(s, player, piece)
    if i >= 0 and left(s, s.travellers[i]) != STOPPED:
        s.travellers[i] = s.travellers[i]._replace(turn=-1)


@query("player: player, piece: piece", returns="int", reads=BOARD)
def travel_points(s: State, player: int, piece: str) -> int:
    """The points the player's travelling piece has left this turn (0 once it stopped,
    or when the player has none placed)."""
    i = _one(s, player, piece)
    return 0 if i < 0 else max(0, left(s, s.travellers[i]))


@query("player: player, piece: piece", returns="path", reads=BOARD)
def traveller_at(s: State, player: int, piece: str) -> Location:
    """The path where the player's travelling piece stands (a rule that asks before it
    is placed stops with an error)."""
    i = _one(s, player, piece)
    if i < 0:
        raise EngineError(f"player {player} has no {piece} on the board", None)
    return location("path", s.travellers[i].path)


@query("player: player, piece: piece", returns="bool", reads=BOARD)
def traveled_this_turn(s: State, player: int, piece: str) -> bool:
    """Whether the player's travelling piece has taken a step this turn (a card such as
    Swift Journey is played only after the wagon moved)."""
    i = _one(s, player, piece)
    return i >= 0 and s.travellers[i].moved == s.turns


@query("player: player, piece: piece", returns="bool", reads=BOARD)
def stopped_this_turn(s: State, player: int, piece: str) -> bool:
    """Whether the player's travelling piece stopped this turn (its `stop where` held on
    a step: a wagon at a trade hex's centre): it travels no further until the next turn,
    and neither `add_travel_points` nor `restart_travel` moves it on."""
    i = _one(s, player, piece)
    return i >= 0 and left(s, s.travellers[i]) == STOPPED


@query("at: path", returns="int", reads=BOARD)
def travellers_on(s: State, at: Location) -> int:
    """How many travelling pieces stand on a path."""
    return sum(1 for e in s.travellers if e.path == at[1])
