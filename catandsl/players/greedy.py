"""A simple heuristic player: builds for points, settles on high-pip spots, plays a
knight when its production is blocked, otherwise random among the rest. It never
proposes a domestic trade and declines every offer."""

from __future__ import annotations

import random

from catandsl.engine import actions as A

_PIPS = (0, 0, 1, 2, 3, 4, 5, 0, 5, 4, 3, 2, 1)


class GreedyPlayer:
    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def _score(self, state, a: A.Action, me: int) -> float:
        g = state.game
        b = g.board
        if isinstance(a, A.Build):
            P = g.pieces[g.piece_index[a.piece]]
            if P.site == "intersection":
                pips = sum(_PIPS[b.hex_number[h]] for h in b.corner_hexes[a.at]
                           if g.hex_resource[h] >= 0)
                return 100 * P.points + 10 * P.produces + pips
            return 5 + self.rng.random()
        if isinstance(a, A.BuyCard):
            return 8
        if isinstance(a, A.PlayCard):
            blocked = any(
                state.corner_owner[c] == me
                for pi in g.blocking for c in b.hex_corners[state.neutral_at[pi]]
            ) if g.blocking else False
            return 50 if blocked else 3
        if isinstance(a, A.Move):
            # the hex that hurts opponents most and me least
            score = 0
            for c in b.hex_corners[a.at]:
                o = state.corner_owner[c]
                if o >= 0:
                    score += -5 if o == me else 2
            return score + _PIPS[b.hex_number[a.at]] * 0.1
        if isinstance(a, A.BankTrade):
            return 1 + self.rng.random()
        if isinstance(a, A.EndTurn):
            return 0.5
        if isinstance(a, (A.Offer, A.Accept)):
            return -1  # never proposes, declines every offer
        return self.rng.random()

    def choose(self, state) -> int:
        g = state.game
        me = state.current_player()
        best, best_score = None, None
        for aid in state.legal_actions():
            s = self._score(state, g.actions[aid], me)
            if best_score is None or s > best_score:
                best, best_score = aid, s
        return best
