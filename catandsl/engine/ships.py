"""Movable path pieces (ships, RULES.md B.4), read from a piece's `moves` block.

A move is two actions: `PickUp(piece, at)` lifts an own piece off its path and pushes a
["relocate", player, piece, from, built this turn] frame; `PutDown(piece, at)` puts it down where a new
piece of its kind may go (the lifted piece is off the board meanwhile, so it never
stays connected only through itself). Putting it back where it was is allowed (so the
frame always has a legal action) and uses up the move.

Per piece (`Game.moves[pi]`): `per_turn` moves a turn (all movable pieces together),
`open_end` (only a piece with an end that touches no own building and no own connecting
path piece: the end of an open route; a route between two own buildings never moves;
an end at a site whose kind `closes routes` and that the player trades with counts as
anchored, so a route to it never moves, sites.py), `not_built_this_turn`,
`blocked_by` (neutral pieces: no piece leaves a path on the edge of a hex where one of
them stands) and `phase` (main: after the roll; any: also before it, in the own turn).
"""

from __future__ import annotations

from catandsl.engine.interpreter import site


class MoveInfo:
    __slots__ = ("per_turn", "open_end", "not_built_this_turn", "blocked_by", "phase")


def movement_info(game) -> None:
    """Static tables: `PieceInfo.blockers` (neutral pieces whose `blocks` names the
    piece), `PieceInfo.movement` (MoveInfo or None) and `Game.movers`."""
    rs = game.ruleset
    by_name = game.piece_index
    game.movers = []
    for P in game.pieces:
        P.blockers = tuple(n.index for n in game.pieces if n.neutral and P.name in n.blocks)
        m = rs.pieces[P.name].movement
        P.movement = None
        if m is None or P.neutral or P.site != "path":
            continue
        info = MoveInfo()
        info.per_turn = int(m.per_turn)
        info.open_end = bool(m.open_end_only)
        info.not_built_this_turn = bool(m.not_built_this_turn)
        info.blocked_by = tuple(by_name[n] for n in m.blocked_by if n in by_name)
        info.phase = m.phase
        P.movement = info
        game.movers.append(P.index)
    game.movers = tuple(game.movers)


class ShipsMixin:
    """Moving path pieces (B.4) and the blocking of placement by neutral pieces (B.5)."""

    __slots__ = ()

    # ---- queries ----------------------------------------------------------------------

    def moves_made(self, p: int) -> int:
        """Moves made by player p in the current turn (`moved` is [] or [turn, count])."""
        m = self.moved
        return m[1] if m and m[0] == self.turns and p == self.turn_player else 0

    def built_this_turn(self, k: int) -> bool:
        """Whether the movable piece on path k was placed this turn (`fresh_paths` is []
        or [turn, path, ...]: the movable pieces placed in that turn)."""
        f = self.fresh_paths
        return bool(f) and f[0] == self.turns and k in f[1:]

    def _note_fresh(self, k: int) -> None:
        if self.stage != "turn":
            return
        if not self.fresh_paths or self.fresh_paths[0] != self.turns:
            self.fresh_paths = [self.turns]
        self.fresh_paths.append(k)

    def open_end(self, p: int, k: int) -> bool:
        """Whether the path piece at k has an end touching no own building and no other
        own path piece it connects to. An opponent's building at an end does not make it
        open: the owner's pieces beyond it would be left joined to nothing (B.4 moves only
        the last ship of a line)."""
        g = self.game
        b = g.board
        P = g.pieces[self.path_piece[k]]
        for c in b.path_ends[k]:
            o = self.corner_owner[c]
            if o == p and self.corner_piece[c] in P.connects:
                continue
            if c in g.closing_corners and self.trades_with(p, c):
                continue  # a route to a site that `closes routes`: anchored there
            if any(x != k and self.path_owner[x] == p and self.path_piece[x] in P.connects
                   for x in b.corner_paths[c]):
                continue
            return True
        return False

    def can_pick_up(self, p: int, k: int) -> bool:
        return not self.why_not_pick_up(p, k)

    def why_not_pick_up(self, p: int, k: int) -> str:
        """Why player p may not lift the piece on path k now ("" if they may)."""
        g = self.game
        pi = self.path_piece[k]
        if self.path_owner[k] != p or pi < 0:
            return "no own piece there"
        m = g.pieces[pi].movement
        if m is None:
            return "that piece does not move"
        if self.stage != "turn" or p != self.turn_player or self.frames:
            return "not now"
        phase = g.phases[self.phase]
        if phase != "main" and not (m.phase == "any" and phase == "roll"):
            return "only after the roll"
        if self.moves_made(p) >= m.per_turn:
            return f"at most {m.per_turn} move(s) a turn"
        if m.not_built_this_turn and self.built_this_turn(k):
            return "built this turn"
        if m.blocked_by and self.blocked_at(g.board.path_hexes[k], m.blocked_by):
            return "blocked by " + "/".join(g.pieces[n].name for n in m.blocked_by)
        if m.open_end and not self.open_end(p, k):
            return "not the open end of a route"
        return ""

    def _move_actions(self, p: int) -> list[int]:
        g = self.game
        if not g.movers or self.stage != "turn" or self.frames or p != self.turn_player:
            return []
        if g.phases[self.phase] != "main" and all(
            g.pieces[pi].movement.phase != "any" for pi in g.movers
        ):
            return []
        out = []
        for k, o in enumerate(self.path_owner):
            if o == p and self.path_piece[k] in g.movers and self.can_pick_up(p, k):
                out.append(g.pick_up_id[self.path_piece[k]][k])
        return out

    def _put_down_targets(self, top: list) -> list[int]:
        _, p, pi, origin, _ = top
        ids = self.game.put_down_id[pi]
        out = [ids[origin]]
        for k in self.game.pieces[pi].allowed:
            if k != origin and self.can_place(p, pi, k, "normal"):
                out.append(ids[k])
        return out

    # ---- applying --------------------------------------------------------------------

    def _apply_pick_up(self, p: int, act) -> None:
        g = self.game
        pi, k = g.piece_index[act.piece], act.at
        self.moved = [self.turns, self.moves_made(p) + 1]
        fresh = self.built_this_turn(k)
        if fresh:
            self.fresh_paths.remove(k)
        self.frames.append(["relocate", p, pi, k, fresh])
        self.path_owner[k] = -1
        self.path_piece[k] = -1
        self._drop_routes(p)

    def _apply_put_down(self, p: int, act) -> None:
        g = self.game
        _, _, pi, origin, fresh = self.frames.pop()
        k = act.at
        self.path_owner[k] = p
        self.path_piece[k] = pi
        if fresh:
            self._note_fresh(k)
        self._drop_routes(p)
        self._emit("moved", {"player": p, "piece": g.pieces[pi].name,
                             "from": site("path", origin), "at": site("path", k)})
        self._check_sites(p, k)  # sites.py: the moved piece may reach a site

    def _drop_routes(self, p: int) -> None:
        for key in [key for key in self._routes if key[0] == p]:
            del self._routes[key]
