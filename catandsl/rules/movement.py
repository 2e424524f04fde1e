"""Moving a player's own path pieces (ships, for instance): the `move` activity, read
from a piece's `moves` block.

A move is two actions: `PickUp(piece, at)` lifts an own piece off its path
(`Relocating`); `PutDown(piece, at)` puts it down where a new piece of its kind may go
(the lifted piece is off the board meanwhile, so it never stays connected only through
itself). Putting it back where it was is allowed (so the prompt always has a legal
action) and uses up the move.

Per piece (`PieceInfo.movement`): `per_turn` moves a turn (all movable pieces
together), `open_end` (only a piece with an end that touches no own building and no
own connecting path piece: the end of an open route; an end at a site that `closes
routes` and that the player trades with counts as anchored), `not_built_this_turn`,
and `blocked_by` (neutral pieces: no piece leaves a path on the edge of a hex where
one of them stands). When a piece may move is the turn's business: the phases that
allow `move` (or `move ship`). `on_closed_route` says whether a piece lies on a line
between two anchors (the embedding query of that name): no piece of such a line is ever
an open end, so none of them moves.
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass
from typing import ClassVar

from catandsl.rules import network, neutral, piece_state, placement, sites
from catandsl.rules import words as w
from catandsl.rules.base import (
    Action,
    Activity,
    EngineError,
    IllegalAction,
    Prompt,
    action_source,
    activity,
    location,
    seats_ok,
)
from catandsl.rules.play import Game, MovesMade, PieceInfo, State
from catandsl.rules.registry import BOARD, FLOW


@dataclass(frozen=True, order=True)
class PickUp(Action):
    """Lift an own movable piece (a ship) off a path id to move it (B.4); the next
    action puts it down."""

    KIND: ClassVar[str] = "pick_up"
    HEADING: ClassVar[str] = "Pick up"
    WRITES: ClassVar[frozenset[str]] = frozenset((BOARD, FLOW))
    piece: str
    at: int

    def words(self, told: w.Told) -> str:
        return f"pick up {w.piece_words(told.game, self.piece)} {w.piece_site_words(told, self.piece, self.at, 'from')}"


@dataclass(frozen=True, order=True)
class PutDown(Action):
    """Put the lifted piece down on a path id, by the rules for a new piece."""

    KIND: ClassVar[str] = "put_down"
    HEADING: ClassVar[str] = "Put down"
    WRITES: ClassVar[frozenset[str]] = frozenset((BOARD,))
    piece: str
    at: int

    def words(self, told: w.Told) -> str:
        return f"put {w.piece_words(told.game, self.piece)} down {w.piece_site_words(told, self.piece, self.at)}"


@action_source
def movement_actions(game: Game) -> list[Action]:
    out: list[Action] = []
    for pi in game.movers:
        p = game.pieces[pi]
        out += [PickUp(p.name, k) for k in p.sites]
        out += [PutDown(p.name, k) for k in p.sites]
    return out


@dataclass(frozen=True)
class MovementIds:
    """Per movable piece kind, the first action id of its PickUp and of its PutDown
    actions: the action table lists them by site (`PieceInfo.sites`, ascending), so a
    site's id is the first plus the site's place among them, found without a table as
    large as the board."""

    pick_up: dict[int, int]
    put_down: dict[int, int]

    @classmethod
    def build(cls, game: Game) -> MovementIds:
        out: tuple[dict[int, int], dict[int, int]] = ({}, {})
        for kind, first in zip((PickUp, PutDown), out):
            for pi in game.movers:
                P = game.pieces[pi]
                if P.sites:
                    first[pi] = game.action_id[kind(P.name, P.sites[0])]
                    if game.action_id[kind(P.name, P.sites[-1])] != first[pi] + len(P.sites) - 1:
                        raise EngineError(f"the {kind.KIND} actions of {P.name} are not one run of the table")
        return cls(*out)

    def id(self, game: Game, first: dict[int, int], pi: int, k: int) -> int:
        return first[pi] + bisect_left(game.pieces[pi].sites, k)


# ---- may it move ---------------------------------------------------------------------------


def moves_made(s: State, p: int) -> int:
    """Moves made by player p in the current turn."""
    m = s.moved
    return m.moves if m and m.turn == s.turns and p == s.turn_player else 0


def open_end(s: State, p: int, k: int) -> bool:
    """Whether the path piece at k has an end touching no own building and no other own
    path piece it connects to. An opponent's building at an end does not make it open:
    the owner's pieces beyond it would be left joined to nothing (B.4 moves only the
    last ship of a line)."""
    g = s.game
    b = g.board
    P = g.pieces[s.path_piece[k]]
    closing = g.lookups(sites.SiteLookups).closing_corners
    for c in b.path_ends[k]:
        o = s.corner_owner[c]
        if o == p and s.corner_piece[c] in P.connects:
            continue
        if c in closing and sites.trades_with(s, p, c):
            continue  # a route to a site that `closes routes`: anchored there
        if any(x != k and s.path_owner[x] == p and s.path_piece[x] in P.connects
               for x in b.corner_paths[c]):
            continue
        return True
    return False


def anchored(s: State, p: int, P: PieceInfo, c: int) -> bool:
    """Whether intersection c ends a route of player p's pieces like P: an own building
    that P connects to, or a site that `closes routes` and that p trades with."""
    if s.corner_owner[c] == p and s.corner_piece[c] in P.connects:
        return True
    return c in s.game.lookups(sites.SiteLookups).closing_corners and sites.trades_with(s, p, c)


def on_closed_route(s: State, k: int) -> bool:
    """Whether the path piece at k lies on a closed route (B.4): a line of its owner's
    pieces, joined end to end through intersections without a building, that links two
    different anchors (`anchored`: own buildings, or sites that close routes). Whatever
    else branches off the line does not open it; a line back to the building it left
    links only one.

    The pieces joined to k form a graph of intersections; k lies on such a line exactly
    when it shares a biconnected block with a node joined to every anchor (a simple
    cycle through that node and k is a line between two anchors through k)."""
    g = s.game
    b = g.board
    p = s.path_owner[k]
    P = g.pieces[s.path_piece[k]]

    def node(c: int, x: int) -> int | tuple[int, int]:
        # an intersection without a building joins lines, an anchor ends them; another's
        # building (or one the piece does not connect to) ends the line at x alone
        return c if s.corner_owner[c] == -1 or anchored(s, p, P, c) else (c, x)

    import networkx as nx  # type: ignore[import-untyped]  # loaded by the first game that asks

    graph = nx.Graph()
    stack, seen = [k], {k}
    while stack:  # the pieces joined to k through intersections without a building
        x = stack.pop()
        graph.add_edge(*(node(c, x) for c in b.path_ends[x]))
        for c in b.path_ends[x]:
            if s.corner_owner[c] != -1:
                continue
            for y in b.corner_paths[c]:
                if y not in seen and s.path_owner[y] == p and s.path_piece[y] in P.connects:
                    seen.add(y)
                    stack.append(y)
    anchors = sorted(c for c in graph if isinstance(c, int) and anchored(s, p, P, c))
    if len(anchors) < 2:
        return False
    graph.add_edges_from(("anchors", c) for c in anchors)
    ends = {node(c, k) for c in b.path_ends[k]}
    return any("anchors" in block and ends <= block for block in nx.biconnected_components(graph))


def why_not_pick_up(s: State, p: int, k: int) -> str:
    """Why player p may not lift the piece on path k, the phase aside ("" if they may)."""
    g = s.game
    pi = s.path_piece[k]
    if s.path_owner[k] != p or pi < 0:
        return "no own piece there"
    m = g.pieces[pi].movement
    if m is None:
        return "that piece does not move"
    if s.stage != "turn" or p != s.turn_player or s.pending:
        return "not now"
    if moves_made(s, p) >= m.per_turn:
        return f"at most {m.per_turn} move(s) a turn"
    if m.not_built_this_turn and placement.built_this_turn(s, k):
        return "built this turn"
    if m.blocked_by and neutral.blocks_site(s, "path", k, m.blocked_by):
        return "blocked by " + "/".join(g.pieces[n].name for n in m.blocked_by)
    if m.open_end and not open_end(s, p, k):
        return "not the open end of a route"
    return ""


# ---- the `move` activity -----------------------------------------------------------------------


def legal_moves(s: State, p: int, names: frozenset[str] | None) -> list[int]:
    g = s.game
    if not g.movers:
        return []
    t = g.lookups(MovementIds)
    movers = g.movers
    out = []
    for k in sorted(network.of(s).paths[p]):  # the player's own path pieces
        pi = s.path_piece[k]
        if pi in movers and (names is None or g.pieces[pi].name in names) and not why_not_pick_up(s, p, k):
            out.append(t.id(g, t.pick_up, pi, k))
    return out


def _apply_pick_up(s: State, p: int, act: PickUp) -> None:
    g = s.game
    pi, k = g.piece_index[act.piece], act.at
    s.moved = MovesMade.of(s.turns, moves_made(s, p) + 1)
    fresh = placement.built_this_turn(s, k)
    if fresh:
        s.fresh_paths = s.fresh_paths.without(k)
    s.push(Relocating(p, pi, k, fresh))
    network.lift_path(s, k)
    piece_state.forget(s, 1, k)  # a piece moved is placed afresh: no level, nothing attached


def _refusal(s: State, p: int, act: Action) -> IllegalAction | None:
    if not isinstance(act, PickUp):
        return None
    why = why_not_pick_up(s, p, act.at)
    return IllegalAction("action/not_legal", f"{s.game.action_to_string(s.game.action_id[act])}: "
                         f"{why or 'not legal now'}")


MOVE = activity(Activity(
    "move", "move an own piece that has a `moves` block (a ship)", legal_moves, {PickUp: _apply_pick_up},
    names="piece", subject=lambda game, act: act.piece, refusal=_refusal))


@dataclass
class Relocating(Prompt):
    """`player` has lifted piece kind `piece` off path `origin` and puts it down;
    `fresh` keeps "built this turn" with the piece."""

    KIND: ClassVar[str] = "relocate"
    player: int
    piece: int
    origin: int
    fresh: bool

    def check(self, game: Game) -> str:
        if not seats_ok(game, self.player) or self.piece not in game.movers or \
                self.origin not in game.pieces[self.piece].allowed_set:
            return "not a player, a movable piece and its path"
        return super().check(game)

    def actor(self, s: State) -> int:
        return self.player

    def lifted(self) -> tuple[int, int] | None:
        return self.player, self.piece

    def legal(self, s: State) -> list[int]:
        g = s.game
        t = g.lookups(MovementIds)
        return [t.id(g, t.put_down, self.piece, k) for k in
                [self.origin] + [k for k in placement.places(s, self.player, self.piece) if k != self.origin]]

    def apply(self, s: State, act: Action) -> None:
        assert isinstance(act, PutDown)
        g = s.game
        s.pending.pop()
        k = act.at
        network.put_path(s, k, self.player, self.piece)
        if self.fresh:
            placement.note_fresh(s, k)
        s.emit("moved", {"player": self.player, "piece": g.pieces[self.piece].name,
                         "from": location("path", self.origin), "at": location("path", k)})
        sites.check_reached(s, self.player, k)  # the moved piece may reach a site

    def refusal(self, s: State, act: Action) -> IllegalAction | None:
        if isinstance(act, PutDown):
            return IllegalAction("action/invalid_target",
                                 f"{s.game.action_to_string(s.game.action_id[act])}: not a legal site")
        return None
