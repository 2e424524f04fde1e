"""Trade (A.8): maritime trade at the best rate the player's harbors give, and domestic
trade between the active player and the others.

A domestic trade is an offer (`Offer(give, get)`, bundles of 1 to `trade_offer_cards`
cards, never the same resource on both sides, resource cards only), answered by every
other player in seat order (`Accept` only with the cards asked for, or `Decline`); the
proposer then trades with one who accepted (`TradeWith`) or cancels (`CancelOffer`). If
nobody accepts, the offer lapses. Counter-offers are not modelled.
"""

from __future__ import annotations

from catandsl.engine import actions as A


class TradeMixin:
    """Trade with the bank and between players."""

    __slots__ = ()

    def trade_rate(self, p: int, r: int) -> int:
        g = self.game
        rate = g.bank_rate or 10**6
        owner = self.corner_owner
        for c, hb in g.harbor_corners:
            if owner[c] == p:
                hr, res = g.harbor_rates[hb]
                if (res < 0 or res == r) and hr < rate:
                    rate = hr
        return rate

    def _apply_bank_trade(self, p: int, act) -> None:
        g = self.game
        give, get = g.res_index[act.give], g.res_index[act.get]
        rate = self.trade_rate(p, give)
        self.hands[p][give] -= rate
        self.bank[give] += rate
        self.hands[p][get] += 1
        self.bank[get] -= 1
        self._emit("traded", {"player": p})

    def _offers(self, p: int) -> list[int]:
        """Offer ids the player holds the cards for."""
        hand = self.hands[p]
        out: list[int] = []
        for need, ids in self.game.offers_by_give:
            for r, n in need:
                if hand[r] < n:
                    break
            else:
                out += ids
        return out

    def _answers(self, top: list) -> list[int]:
        g = self.game
        _, _, offer, pending, accepted = top
        if pending:
            want = g.offer_vectors[offer][1]
            hand = self.hands[pending[0]]
            out = [g.decline_id]
            if all(h >= v for h, v in zip(hand, want)):
                out.append(g.accept_id)
            return out
        return [g.cancel_offer_id] + [g.trade_with_id[q] for q in accepted]

    def _apply_domestic(self, p: int, act) -> None:
        g = self.game
        if isinstance(act, A.Offer):
            n = g.num_players
            others = [(p + k) % n for k in range(1, n)]
            self.frames.append(["offer", p, g.action_id[act], others, []])
            return
        top = self.frames[-1]
        if isinstance(act, A.Accept):
            top[4].append(top[3].pop(0))
        elif isinstance(act, A.Decline):
            top[3].pop(0)
        elif isinstance(act, A.CancelOffer):
            self.frames.pop()
        else:
            self.frames.pop()
            give, get = g.offer_vectors[top[2]]
            mine, theirs = self.hands[p], self.hands[act.player]
            for r, (x, y) in enumerate(zip(give, get)):
                mine[r] += y - x
                theirs[r] += x - y
            self._emit("traded", {"player": p})
