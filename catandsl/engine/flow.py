"""The flow: hooks run on events, the loop that runs everything needing no decision, the
set-up script, turns, and the end of the game."""

from __future__ import annotations

from catandsl.engine.errors import EngineError
from catandsl.engine.interpreter import Answers, NeedChoice, site
from catandsl.rules.registry import EVENTS, touches


class FlowMixin:
    """Flow changes only here: set-up position, turn, phase, the stack of frames."""

    __slots__ = ()

    def _emit(self, event: str, env: dict) -> None:
        g = self.game
        hooks = g.hooks.get(event)
        if not hooks:
            return
        fparam = EVENTS[event].filter
        ids: list[int] = []
        for h, eids in hooks:
            if h.filters and env.get(fparam) not in h.filters:
                continue
            if h.condition is not None and not g.interp.evaluate(
                h.condition, env, self, Answers([]), h.source
            ):
                continue
            ids += eids
        if ids:
            self.frames.append(["run", ids, dict(env), [], None])

    def _advance(self) -> None:
        """Run everything that needs no decision, up to the next decision or chance node."""
        g = self.game
        while self.stage != "over":
            if self.frames:
                top = self.frames[-1]
                kind = top[0]
                if kind == "run":
                    if top[4] is not None:
                        return
                    if not top[1]:
                        self.frames.pop()
                        continue
                    self._run_one(top)
                    continue
                if kind == "next_turn":
                    self.frames.pop()
                    self._next_turn()
                    continue
                if kind == "end_setup":
                    self.frames.pop()
                    self.stage = "turn"
                    self.turn_player = self.start_player  # A.4.5
                    self.turns = 1
                    self.phase = 0
                    self._emit("turn_started", {"player": self.turn_player})
                    self._emit("setup_ended", {})
                    continue
                if kind in ("move", "free") and not self._compute_legal():
                    self.frames.pop()
                    continue
                if kind == "discard" and all(n == 0 for _, n in top[1]):
                    self.frames.pop()
                    continue
                if kind == "gold" and (all(n == 0 for _, n in top[1]) or not any(self.bank)):
                    self.frames.pop()  # B.6: with the bank empty the choice lapses
                    continue
                if kind == "offer" and not top[3] and not top[4]:
                    self.frames.pop()  # everyone declined: the offer lapses
                    continue
                return
            if self.stage == "setup":
                if self.start_player < 0:
                    return  # the start player is a chance node
                if self.setup_pos >= len(g.setup_script):
                    self.frames.append(["end_setup"])
                    continue
                p, ri, si = self.setup_entry()
                step = g.setup_steps[ri][si]
                if step.action == "collect":
                    corner = self.last_corner
                    self._collect(p, corner)
                    self.setup_pos += 1
                    if corner >= 0 and self.corner_owner[corner] == p:
                        # rules pay what `collect` does not (terrains of choice)
                        self._emit("collected", {
                            "player": p, "piece": g.pieces[self.corner_piece[corner]].name,
                            "at": site("intersection", corner)})
                    continue
                if step.action != "place":
                    raise EngineError(f"set-up step {step.action!r} is not supported", step.source)
                if not self._compute_legal():
                    self.setup_pos += 1
                    continue
                return
            return

    def setup_entry(self) -> tuple[int, int, int]:
        """(player, round, step) of the set-up position: the script counts seats from
        the start player."""
        p, ri, si = self.game.setup_script[self.setup_pos]
        return (p + self.start_player) % self.game.num_players, ri, si

    def _run_one(self, top: list) -> None:
        g = self.game
        ids, env = top[1], top[2]
        eid = ids[0]
        e = g.effects[eid]
        if e.op == "call":  # what this effect may change, for the awards (registry.TOUCHES)
            self._changed |= touches(e.expr.value)
        try:
            if e.op == "call":
                g.interp.evaluate(e.expr, env, self, Answers(top[3]), e.source)
                del ids[0]
                top[3] = []
            elif e.op == "if":
                cond = g.interp.evaluate(e.expr, env, self, Answers(top[3]), e.source)
                top[1] = list(g.effect_body[eid] if cond else g.effect_orelse[eid]) + ids[1:]
                top[3] = []
            elif e.op == "let":
                env[e.name] = g.interp.evaluate(e.expr, env, self, Answers(top[3]), e.source)
                del ids[0]
                top[3] = []
            elif e.op == "for":
                items = g.interp.evaluate(e.expr, env, self, Answers(top[3]), e.source)
                del ids[0]
                top[3] = []
                for item in reversed(list(items)):
                    self.frames.append(["run", list(g.effect_body[eid]), {**env, e.name: item},
                                        [], None])
            else:
                raise EngineError(f"unknown statement {e.op!r}", e.source)
        except NeedChoice as nc:
            top[4] = [nc.kind, nc.player, nc.among]

    def _collect(self, p: int, corner: int) -> None:
        g = self.game
        if corner < 0:
            return
        for h in g.board.corner_hexes[corner]:
            r = g.hex_resource[h]
            if r >= 0 and self.bank[r] > 0:
                self.bank[r] -= 1
                self.hands[p][r] += 1

    def _next_turn(self) -> None:
        g = self.game
        if self.turns >= g.turn_limit:
            self.stage = "over"
            self.reason = "turn_limit"
            return
        self.turns += 1
        self.turn_player = (self.turn_player + 1) % g.num_players
        self.phase = 0
        self.roll_requested = False
        self.played_turn = [0] * len(g.decks)
        self.built = False
        self.new_cards = [0] * len(g.cards)
        self._emit("turn_started", {"player": self.turn_player})

    def _check_victory(self) -> None:
        if self.stage == "turn" and self.points(self.turn_player) >= self.game.victory:
            self.stage = "over"
            self.winner = self.turn_player
            self.reason = "victory"
            self.frames = []

    def end_game(self, reason: str) -> None:
        """Ends the game now: players are ranked by the scenario's `tie_break` keys in
        turn, highest first (by default points alone). A single best player is `winner`;
        players equal on every key share the victory: `winner` is -1 and `winners` lists
        them in seat order (returns() gives each +1)."""
        g = self.game
        tb = g.ruleset.tie_break
        n = g.num_players
        if tb is None or not tb.keys:
            rank = [(self.points(p),) for p in range(n)]
        else:
            rank = [tuple(g.interp.evaluate(k, {"player": p}, self, Answers([]), tb.source)
                          for k in tb.keys) for p in range(n)]
        best = max(rank)
        winners = [p for p in range(n) if rank[p] == best]
        self.winner = winners[0] if len(winners) == 1 else -1
        self.winners = winners if len(winners) > 1 else []
        self.stage = "over"
        self.reason = reason
        self.frames = []
