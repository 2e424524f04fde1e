"""How the greedy player trades with the others (rules/trade.py): it aims at the most
worthwhile thing it is one or two cards short of (a piece with somewhere to stand, a
card of a deck not yet empty), and

- offers the cards it lacks for as many cards that thing does not need, to every other
  player, then one card more if all declined; never the same offer twice in a turn;
- accepts an offer that brings it closer to something worthwhile, else counters with
  what of the offer it lacks for cards it can spare, else declines; it declines anyone
  two points or less from victory;
- trades with whoever leaves it best off (among those, the one with fewest points), or
  withdraws.

A hand's worth is its best goal's worth halved per card still lacking (`worth`), so a
trade "helps" when it raises that. Resource cards only: it never offers tokens, and
declines an offer that asks for its tokens.
"""

from __future__ import annotations

from typing import Any

from catandsl.rules import costs, placement, scoring
from catandsl.rules.trade import (
    GET,
    GIVE,
    Composing,
    Offering,
    TradeLookups,
    declined,
    others_hold,
)

Plan = tuple[list[int], list[int]]  # (give, get) per item of TradeLookups.items
MOST_LACKING = 2  # cards short of a goal it still trades for


class Trader:
    """The greedy player's trades (one per seat: it remembers its offers of the turn)."""

    def __init__(self) -> None:
        # this turn's (game seed, turn): the offers it made, and its plans by what they
        # depend on (a draft is composed over several decisions with the same hand)
        self._turn: tuple[Any, set[tuple[tuple[int, ...], tuple[int, ...]]], dict[tuple, Plan | None]] = \
            (None, set(), {})

    # ---- goals ------------------------------------------------------------------------------

    @staticmethod
    def goals(state, me: int) -> list[tuple[float, tuple[int, ...]]]:
        """(worth, cost) of each thing it could build or buy with the cards: a piece of its
        own with a legal site left, a card of a deck with cards left (the greedy player's
        own scores: points first, then production)."""
        g = state.game
        out: list[tuple[float, tuple[int, ...]]] = []
        for pi, P in enumerate(g.pieces):
            cost = P.cost if P.varying is None else costs.cost_of(state, me, "piece", pi).cards
            if P.neutral or not any(cost) or state.placed[me][pi] >= P.limit:
                continue
            if placement.targets(state, me, pi, "normal"):
                out.append((100.0 * P.points + 10.0 * P.produces + 5.0, cost))
        varying = g.lookups(costs.CostLookups).decks
        for dk, cost in enumerate(g.deck_cost):
            if varying[dk] is not None:
                cost = costs.cost_of(state, me, "deck", dk).cards
            if any(cost) and any(state.deck[c.index] for c in g.cards if c.deck == dk):
                out.append((8.0, cost))
        return out

    @staticmethod
    def worth(goals: list[tuple[float, tuple[int, ...]]], hand: list[int]) -> float:
        """The hand's best goal's worth, halved per card it lacks."""
        best = 0.0
        for value, cost in goals:
            lacking = sum(c - h for c, h in zip(cost, hand) if c > h)
            best = max(best, value * 0.5 ** lacking)
        return best

    def plan(self, state, me: int) -> Plan | None:
        """The offer it would make now, or None: the cards its best goal within reach
        lacks for as many it can spare (one more if that was declined), unless it can
        afford a goal already or made that offer this turn."""
        memo = self._this_turn(state)[1]
        key = ("plan", me, tuple(state.hands[me]), len(state.offers_declined), len(self._made(state)))
        if key not in memo:
            memo[key] = self._plan(state, me)
        return memo[key]

    def _plan(self, state, me: int) -> Plan | None:
        t = state.game.lookups(TradeLookups)
        hand = state.hands[me]
        goals = self.goals(state, me)
        there = others_hold(state, t, me)
        near = []
        for value, cost in goals:
            lacking = [max(c - h, 0) for c, h in zip(cost, hand)]
            if not any(lacking):
                return None  # something to build first
            if sum(lacking) <= MOST_LACKING and all(x <= y for x, y in zip(lacking, there)):
                near.append((value, -sum(lacking), lacking, cost))
        if not near:
            return None
        _, _, lacking, cost = max(near, key=lambda x: (x[0], x[1]))
        spare = [max(h - c, 0) for h, c in zip(hand, cost)]
        offered = self._made(state)
        extra = len(t.items) - t.resources
        for more in (0, 1):
            give = _take(spare, sum(lacking) + more)
            if give is None:
                return None
            terms = (give + [0] * extra, lacking + [0] * extra)
            if (tuple(terms[0]), tuple(terms[1])) not in offered and \
                    not declined(state, t, me, terms[0], terms[1], -1):
                return terms
        return None

    def _this_turn(self, state) -> tuple[set[tuple[tuple[int, ...], tuple[int, ...]]], dict[tuple, Plan | None]]:
        key = (state.seed, state.turns)
        if self._turn[0] != key:
            self._turn = (key, set(), {})
        return self._turn[1], self._turn[2]

    def _made(self, state) -> set[tuple[tuple[int, ...], tuple[int, ...]]]:
        return self._this_turn(state)[0]

    # ---- decisions -----------------------------------------------------------------------------

    def choose(self, state, me: int, legal: list[int]) -> int:
        """Its decision on a trade prompt: a step of its draft, an answer, or the pick."""
        t = state.game.lookups(TradeLookups)
        top = state.pending[-1]
        n = len(t.items)
        if isinstance(top, Composing):
            target = self.plan(state, me)
            step = self._step(state, t, legal, top.give, top.get, top.to, target)
            if step == t.withdraw and target is not None:  # not to be tried again this turn
                self._made(state).add((tuple(target[0]), tuple(target[1])))
            return step
        assert isinstance(top, Offering)
        if top.asked:
            if top.draft:
                return self._step(state, t, legal, top.draft[:n], top.draft[n:], -1, self._counter(state, me, top))
            return self._answer(state, t, me, top, legal)
        return self._pick(state, t, me, top, legal)

    def _step(self, state, t: TradeLookups, legal: list[int], give: list[int], get: list[int], to: int,
              target: Plan | None) -> int:
        """The next step from the draft toward `target` (None: withdraw)."""
        if target is None:
            return t.withdraw
        for side, now, want in ((GIVE, give, target[0]), (GET, get, target[1])):
            for i, (x, y) in enumerate(zip(now, want)):
                if x > y and t.remove[side][i] in legal:
                    return t.remove[side][i]
        for side, now, want in ((GIVE, give, target[0]), (GET, get, target[1])):
            for i, (x, y) in enumerate(zip(now, want)):
                if x < y:
                    return t.add[side][i] if t.add[side][i] in legal else t.withdraw
        if to >= 0 and t.offer_to_all in legal:
            return t.offer_to_all
        if t.propose in legal:
            self._made(state).add((tuple(give), tuple(get)))
            return t.propose
        return t.withdraw

    def _answer(self, state, t: TradeLookups, me: int, top: Offering, legal: list[int]) -> int:
        g = state.game
        if scoring.public_points(state, top.proposer) >= g.victory - 2 or any(top.get[t.resources:]):
            return t.decline
        goals = self.goals(state, me)
        hand = state.hands[me]
        now = self.worth(goals, hand)
        after = [h - x + y for h, x, y in zip(hand, top.get, top.give)]
        if t.accept in legal and self.worth(goals, after) > now:
            return t.accept
        if t.counter in legal and self._counter(state, me, top) is not None:
            return t.counter
        return t.decline

    def _counter(self, state, me: int, top: Offering) -> Plan | None:
        """A counter-offer: what of the offer its best goal lacks, for as many cards it
        can spare; None if none helps."""
        memo = self._this_turn(state)[1]
        key = ("counter", me, tuple(state.hands[me]), tuple(top.give), tuple(top.get))
        if key not in memo:
            memo[key] = self._counter_terms(state, me, top)
        return memo[key]

    def _counter_terms(self, state, me: int, top: Offering) -> Plan | None:
        t = state.game.lookups(TradeLookups)
        goals = self.goals(state, me)
        hand = state.hands[me]
        now = self.worth(goals, hand)
        best: tuple[float, Plan] | None = None
        for _, cost in goals:
            lacking = [min(max(c - h, 0), x) for c, h, x in zip(cost, hand, top.give)]
            give = _take([max(h - c, 0) for h, c in zip(hand, cost)], sum(lacking))
            if not any(lacking) or give is None:
                continue
            after = [h - x + y for h, x, y in zip(hand, give, lacking)]
            value = self.worth(goals, after)
            if value > now and (best is None or value > best[0]):
                extra = [0] * (len(t.items) - t.resources)
                best = (value, (give + extra, lacking + extra))
        if best is None or (best[1][0] == top.get and best[1][1] == top.give):
            return None
        return best[1]

    def _pick(self, state, t: TradeLookups, me: int, top: Offering, legal: list[int]) -> int:
        goals = self.goals(state, me)
        hand = state.hands[me]
        best, best_key = t.withdraw, (self.worth(goals, hand), 0)
        for q, give, get in top._terms():
            if t.trade_with[q] not in legal:
                continue
            after = [h - x + y for h, x, y in zip(hand, give, get)]
            key = (self.worth(goals, after), -scoring.public_points(state, q))
            if key > best_key:
                best, best_key = t.trade_with[q], key
        return best


def _take(spare: list[int], count: int) -> list[int] | None:
    """`count` cards of `spare`, the most plentiful first (ties: the first resource);
    None when there are fewer."""
    if sum(spare) < count:
        return None
    left = list(spare)
    out = [0] * len(spare)
    for _ in range(count):
        r = max(range(len(left)), key=lambda k: (left[k], -k))
        left[r] -= 1
        out[r] += 1
    return out
