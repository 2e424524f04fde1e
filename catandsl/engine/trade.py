"""Trade: maritime rates with harbors (A.8)."""

from __future__ import annotations


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
