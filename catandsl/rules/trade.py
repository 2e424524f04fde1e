"""Trade (A.8), the `trade` activity: maritime trade at the best rate the player's
harbors give (`trade bank 4:1`), and domestic offers between the active player and the
others (`trade domestic { cards 2; offers_per_turn 3 }`).

A domestic offer (`Offer(give, get)`: bundles of 1 to `cards` resource cards, never the
same resource on both sides; with `tokens coin 4`, a side may also hold 0 to 4 coins,
or coins alone, never coins on both sides) is answered by every other player in seat
order (`Accept`, only with the cards and tokens asked for, or `Decline`); the proposer then trades with one who
accepted (`TradeWith`) or cancels (`CancelOffer`). If nobody accepts, the offer lapses,
and that offer may not be made again this turn; at most `offers_per_turn` offers are
made in a turn. Both bounds keep every game finite. Counter-offers are not modelled.
Tokens change hands with the cards, so they are conserved.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import combinations_with_replacement, product
from operator import ge
from typing import TYPE_CHECKING, ClassVar

from catandsl.rules import network
from catandsl.rules.base import (
    Action,
    Activity,
    IllegalAction,
    Prompt,
    action_source,
    activity,
    ids_of_kind,
    seats_ok,
)
from catandsl.rules.harbors import HarborTables
from catandsl.rules.registry import FLOW, HANDS, TOKENS
from catandsl.rules.sites import SiteTables

if TYPE_CHECKING:
    from catandsl.engine.game import Game
    from catandsl.engine.state import State

NO_RATE = 10**6  # no trade with the bank at all
MAX_RATES = 4096  # trade rates kept per game (by the harbor intersections held)


@dataclass(frozen=True, order=True)
class BankTrade(Action):
    """Give the best rate's number of `give` to the bank for one `get`."""

    KIND: ClassVar[str] = "bank_trade"
    WRITES: ClassVar[frozenset[str]] = frozenset((HANDS,))
    give: str
    get: str


@dataclass(frozen=True, order=True)
class Offer(Action):
    """The active player offers the others `give` for `get` (A.8). A bundle is resource
    names joined by "+" in declaration order, e.g. "brick+brick" or "wool+ore", then the
    tokens offered, one name per token ("ore+coin+coin", "coin+coin")."""

    KIND: ClassVar[str] = "offer"
    WRITES: ClassVar[frozenset[str]] = frozenset((FLOW,))
    give: str
    get: str


@dataclass(frozen=True, order=True)
class Accept(Action):
    """Answer to an offer: willing to trade."""

    KIND: ClassVar[str] = "accept"
    WRITES: ClassVar[frozenset[str]] = frozenset((FLOW,))


@dataclass(frozen=True, order=True)
class Decline(Action):
    KIND: ClassVar[str] = "decline"
    WRITES: ClassVar[frozenset[str]] = frozenset((FLOW,))


@dataclass(frozen=True, order=True)
class TradeWith(Action):
    """The proposer trades with one of the players who accepted."""

    KIND: ClassVar[str] = "trade_with"
    WRITES: ClassVar[frozenset[str]] = frozenset((HANDS, TOKENS))
    player: int


@dataclass(frozen=True, order=True)
class CancelOffer(Action):
    KIND: ClassVar[str] = "cancel_offer"
    WRITES: ClassVar[frozenset[str]] = frozenset((FLOW,))


def bundles(game: Game) -> list[tuple[str, tuple[int, ...], tuple[int, ...]]]:
    """Every side an offer may have: (name, resource vector, token vector). First the
    bundles of 1 to `cards` resource cards, then (with `tokens`) each count of the offered
    tokens with 0 to `cards` cards."""
    domestic = game.ruleset.trades.get("domestic")
    if domestic is None:
        return []
    R = game.resources
    tables = game.table(SiteTables)
    cards: list[tuple[str, tuple[int, ...]]] = [("", (0,) * len(R))]
    for size in range(1, domestic.cards + 1):
        for combo in combinations_with_replacement(range(len(R)), size):
            v = [0] * len(R)
            for r in combo:
                v[r] += 1
            cards.append(("+".join(R[r] for r in combo), tuple(v)))
    none = (0,) * len(tables.token_names)
    out = [(name, cv, none) for name, cv in cards[1:]]
    kinds = [tables.token_index[a.name] for a in domestic.tokens]
    for counts in product(*(range(a.count + 1) for a in domestic.tokens)):
        if not any(counts):
            continue  # the card bundles above
        tv = [0] * len(tables.token_names)
        names = []
        for t, n in zip(kinds, counts):
            tv[t] += n
            names += [tables.token_names[t]] * n
        for name, cv in cards:
            out.append(("+".join(([name] if name else []) + names), cv, tuple(tv)))
    return out


@action_source
def trade_actions(game: Game) -> list[Action]:
    R = game.resources
    out: list[Action] = [BankTrade(r, g) for r in R for g in R if g != r]
    out += [TradeWith(p) for p in range(game.num_players)]
    both = tuple(bundles(game))
    if both:
        out += [Accept(), Decline(), CancelOffer()]
        out += _offers(both)
    return out


@cache  # the games of a scenario have the same bundles: the same Offer objects serve them all
def _offers(both: tuple[tuple[str, tuple[int, ...], tuple[int, ...]], ...]) -> tuple[Offer, ...]:
    """Every offer of these bundles: the two sides hold nothing in common (cards, tokens)."""
    holds = [frozenset(k for k, x in enumerate(v + t) if x) for _, v, t in both]
    return tuple(Offer(give, get) for (give, _, _), gives in zip(both, holds)
                 for (get, _, _), gets in zip(both, holds) if gives.isdisjoint(gets))


# offers_by_give -> the memo of `TradeTables.offers_by_hand`, shared by the games that
# have the same offers (the games of one scenario): the offers of a hand are the same in each
_OFFER_MEMOS: dict[tuple, dict[tuple[tuple[int, ...], tuple[int, ...]], list[int]]] = {}
MAX_OFFER_MEMOS = 64
_LEGAL_MEMOS: dict[tuple, dict[tuple, list[int]]] = {}  # (offers_by_give, bank_id) -> legal_by_key
CUT = "cut"  # first of a key by counts cut (`_legal_trades`): never equal to an exact one
MAX_LEGAL = 10_000  # trade lists kept (a few hundred ids at most); past this the memo starts again


@dataclass(frozen=True)
class TradeTables:
    bank_rate: int  # the bank's rate without a harbor (NO_RATE: none)
    least_rate: int  # the best rate any harbor or the bank gives: fewer cards never trade
    harbor_rates: tuple[tuple[int, int], ...]  # per harbor type: (rate, resource or -1 for any)
    harbor_corners: frozenset[int]  # the intersections at a harbor spot
    harbor_spot: dict[int, int]  # such an intersection -> its harbor spot
    no_harbor: tuple[int, ...]  # the rates without a harbor, per resource
    rates_memo: dict[tuple, tuple[int, ...]]  # trade_rates by what they depend on
    harbors_placed: bool  # players place harbors (`harbor_at` changes in play)
    bank_id: tuple[tuple[int, ...], ...]  # [give][get] -> BankTrade id (-1 on the diagonal)
    bank_gets: tuple[tuple[int, ...], ...]  # [give] -> bank_id[give] but the diagonal: a bank with every resource
    offer_ids: range  # the offers: one contiguous run of the action table
    # per bundle given: (the cards it needs, the tokens it needs, the offer ids)
    offers_by_give: tuple[tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...], tuple[int, ...]], ...]
    offer_vectors: dict[int, tuple[tuple[int, ...], tuple[int, ...]]]  # offer id -> (give, get)
    offer_tokens: dict[int, tuple[tuple[int, ...], tuple[int, ...]]]  # offers with tokens -> (give, get)
    offers_per_turn: int
    # the offers a hand (and the tokens held) can make, by (hand, tokens) each count cut
    # to the most any offer gives (`card_caps`, `token_caps`): so few hands differ that
    # the offers, most of the legal actions of a turn, are found once each, and kept for
    # every game with the same offers (`_OFFER_MEMOS`)
    card_caps: tuple[int, ...]
    token_caps: tuple[int, ...]
    key_caps: tuple[int, ...]  # card_caps, at least 1: a cut count tells none from some
    offers_by_hand: dict[tuple[tuple[int, ...], tuple[int, ...]], list[int]]
    # `_legal_trades` by what it depends on, shared like `offers_by_hand` by the games
    # with the same trade actions (the same ids: `_LEGAL_MEMOS`)
    legal_by_key: dict[tuple, list[int]]
    accept: int
    decline: int
    cancel: int
    trade_with: tuple[int, ...]  # by seat

    @classmethod
    def build(cls, game: Game) -> TradeTables:
        rs, ids, acts, R = game.ruleset, game.action_id, game.actions, game.resources
        rate = 0
        for t in rs.trades.values():
            if t.give > 0:
                r = t.give // max(t.get, 1)
                rate = r if not rate else min(rate, r)
        harbor_rates = tuple(
            (t.give // max(t.get, 1), game.res_index[t.resource] if t.resource else -1)
            for t in game.table(HarborTables).types)
        spots = {c: h for c, h in enumerate(game.board.corner_harbor) if h >= 0}
        offers = ids_of_kind(game, Offer)
        both = bundles(game)
        vector = {name: v for name, v, _ in both}
        token_vector = {name: tv for name, _, tv in both}
        by_give: dict[str, list[int]] = {}
        for k in offers:
            by_give.setdefault(acts[k].give, []).append(k)  # type: ignore[attr-defined]
        domestic = rs.trades.get("domestic")
        offers_by_give = tuple((tuple((r, n) for r, n in enumerate(vector[g]) if n),
                                tuple((t, n) for t, n in enumerate(token_vector[g]) if n), tuple(ks))
                               for g, ks in by_give.items())
        memo = _OFFER_MEMOS.get(offers_by_give)
        if memo is None:
            if len(_OFFER_MEMOS) >= MAX_OFFER_MEMOS:
                _OFFER_MEMOS.clear()
            memo = _OFFER_MEMOS[offers_by_give] = {}
        bank_id = tuple(tuple(ids.get(BankTrade(r, g), -1) for g in R) for r in R)
        caps = tuple(map(max, zip(*vector.values()))) or (0,) * len(R)
        legal_key = (offers_by_give, bank_id)
        legal_memo = _LEGAL_MEMOS.get(legal_key)
        if legal_memo is None:
            if len(_LEGAL_MEMOS) >= MAX_OFFER_MEMOS:
                _LEGAL_MEMOS.clear()
            legal_memo = _LEGAL_MEMOS[legal_key] = {}
        return cls(
            bank_rate=rate or NO_RATE,
            least_rate=min([rate or NO_RATE] + [r for r, _ in harbor_rates]),
            harbor_rates=harbor_rates,
            harbor_corners=frozenset(spots),
            harbor_spot=spots,
            no_harbor=(rate or NO_RATE,) * len(R),
            rates_memo={},
            harbors_placed=any(game.table(HarborTables).supply),
            bank_id=bank_id,
            bank_gets=tuple(tuple(ids.get(BankTrade(r, g), -1) for g in R if g != r) for r in R),
            offer_ids=offers,
            offers_by_give=offers_by_give,
            offer_vectors={k: (vector[acts[k].give], vector[acts[k].get])  # type: ignore[attr-defined]
                           for k in offers},
            offer_tokens={k: (token_vector[acts[k].give], token_vector[acts[k].get])  # type: ignore[attr-defined]
                          for k in offers if any(token_vector[acts[k].give]) or  # type: ignore[attr-defined]
                          any(token_vector[acts[k].get])},  # type: ignore[attr-defined]
            offers_per_turn=domestic.offers_per_turn if domestic is not None else 0,
            card_caps=caps,
            key_caps=tuple(max(c, 1) for c in caps),
            token_caps=tuple(map(max, zip(*token_vector.values()))) or
            (0,) * len(game.table(SiteTables).token_names),
            offers_by_hand=memo,
            legal_by_key=legal_memo,
            accept=ids.get(Accept(), -1),
            decline=ids.get(Decline(), -1),
            cancel=ids.get(CancelOffer(), -1),
            trade_with=tuple(ids[TradeWith(p)] for p in range(game.num_players)),
        )

    MAX_HANDS = 100_000  # hands whose offers are kept (many resources); past this the memo starts again

    def offers_for(self, hand: list[int], held: list[int]) -> list[int]:
        """The offer ids whose given side `hand` and `held` (tokens) can pay, ascending
        (never edit the list)."""
        memo = self.offers_by_hand
        exact = (tuple(hand), tuple(held))
        out = memo.get(exact)
        if out is None:  # a hand not seen yet: maybe one with the same counts, cut
            cut = (tuple(map(min, hand, self.card_caps)), tuple(map(min, held, self.token_caps)))
            out = memo.get(cut)
            if out is None:
                out = []
                for need, need_tokens, ids in self.offers_by_give:
                    if all(hand[r] >= n for r, n in need) and all(held[x] >= n for x, n in need_tokens):
                        out += ids
            if len(memo) >= self.MAX_HANDS:
                memo.clear()
            memo[exact] = memo[cut] = out
        return out


def trade_rate(s: State, p: int, r: int) -> int:
    """How many cards of resource r player p gives the bank for one card."""
    return trade_rates(s, p, s.game.table(TradeTables))[r]


def trade_rates(s: State, p: int, t: TradeTables) -> tuple[int, ...]:
    """Per resource, how many cards player p gives the bank for one: the bank's rate,
    or a better one of a harbor at one of p's buildings. Kept per seat on the state's
    network until a building changes (unless harbors are placed in play, which changes
    them with no building), and per game by what they depend on (`_rates`)."""
    net = network.of(s)
    kept = net.rates.get(p)
    if kept is not None and kept[0] is t:
        return kept[1]
    rates = _rates(s, t, net.corners[p])
    if not t.harbors_placed:
        net.rates[p] = (t, rates)
    return rates


def _rates(s: State, t: TradeTables, corners: set[int]) -> tuple[int, ...]:
    """The rates of a seat with buildings on `corners`, kept per game by what they
    depend on: those at harbor spots, and the harbors lying there."""
    if t.harbor_corners.isdisjoint(corners):
        return t.no_harbor  # (no building at a harbor: most players, most of a game)
    mine = frozenset(t.harbor_corners.intersection(corners))
    key = (mine, tuple(s.harbor_at)) if t.harbors_placed else (mine,)
    rates = t.rates_memo.get(key)
    if rates is None:
        out = list(t.no_harbor)
        at = s.harbor_at
        for c in mine:  # (the best rate over them: their order does not matter)
            spot = t.harbor_spot[c]
            if at[spot] >= 0:
                hr, res = t.harbor_rates[at[spot]]
                if res < 0:
                    out = [min(x, hr) for x in out]
                elif hr < out[res]:
                    out[res] = hr
        if len(t.rates_memo) >= MAX_RATES:
            t.rates_memo.clear()
        rates = t.rates_memo[key] = tuple(out)
    return rates


# ---- the `trade` activity -------------------------------------------------------------------


def _legal_trades(s: State, p: int, names: frozenset[str] | None) -> list[int]:
    """The bank trades and offers player p may make now. They depend on few things, and
    are kept by them (`TradeTables.legal_by_key`): the hand and tokens, the rates, which
    resources the bank has (when it lacks one), whether p may still offer; the offers
    every other player declined this turn are taken out afterwards. A hand not seen yet
    is looked up again as the list sees it: which resources p has enough of for the
    bank at those rates, and each count cut to the most an offer gives (`key_caps`), so
    few of those differ that a list is worked out once per scenario, not once per hand."""
    t = s.game.table(TradeTables)
    hand = s.hands[p]
    bank = s.bank
    rates = trade_rates(s, p, t) if (names is None or "bank" in names) and hand and \
        max(hand) >= t.least_rate else None
    domestic = (names is None or "domestic" in names) and s.offers_made < t.offers_per_turn
    held = s.tokens_held[p]
    lacks = None if rates is None or 0 not in bank else tuple(map(bool, bank))
    key = (names, tuple(hand), tuple(held), rates, lacks, domestic)
    memo = t.legal_by_key
    out = memo.get(key)
    if out is None:
        # (a count at least the rate, its cut count above 0: `n and n >= rates[r]` below)
        cut = (CUT, names, tuple(map(min, hand, t.key_caps)), tuple(map(min, held, t.token_caps)),
               None if rates is None else tuple(map(ge, hand, rates)), lacks, domestic)
        out = memo.get(cut)
        if out is None:
            out = _trades_for(t, hand, held, rates, bank, domestic)
        if len(memo) >= MAX_LEGAL:
            memo.clear()
        memo[key] = memo[cut] = out
    declined = s.offers_declined
    return [k for k in out if k not in declined] if declined and domestic else out  # (kept: never edited)


def _trades_for(t: TradeTables, hand: list[int], held: list[int], rates: tuple[int, ...] | None,
                bank: list[int], domestic: bool) -> list[int]:
    """The bank trades (at these rates, None: none) and offers (if `domestic`) of a hand."""
    out: list[int] = []
    if rates is not None:
        every = 0 not in bank  # (as a rule: then each give gets every other resource)
        for r, n in enumerate(hand):
            if n and n >= rates[r]:
                if every:
                    out += t.bank_gets[r]
                else:
                    ids = t.bank_id[r]
                    out += [ids[x] for x, left in enumerate(bank) if left and x != r]
    if domestic:
        out += t.offers_for(hand, held)
    out.sort()  # (once per list kept: ascending, the turn's sort of its joined lists has least to do)
    return out


def _apply_bank_trade(s: State, p: int, act: BankTrade) -> None:
    g = s.game
    give, get = g.res_index[act.give], g.res_index[act.get]
    rate = trade_rate(s, p, give)
    s.hands[p][give] -= rate
    s.bank[give] += rate
    s.hands[p][get] += 1
    s.bank[get] -= 1
    s.emit("traded", {"player": p})


def _apply_offer(s: State, p: int, act: Offer) -> None:
    n = s.game.num_players
    s.offers_made += 1
    s.push(Offering(p, s.game.action_id[act], [(p + k) % n for k in range(1, n)], []))


def _refusal(s: State, p: int, act: Action) -> IllegalAction:
    t = s.game.table(TradeTables)
    aid = s.game.action_id[act]
    text = s.game.action_to_string(aid)
    if isinstance(act, Offer):
        if s.offers_made >= t.offers_per_turn:
            return IllegalAction("action/not_legal", f"{text}: at most {t.offers_per_turn} offers a turn")
        if aid in s.offers_declined:
            return IllegalAction("action/not_legal", f"{text}: every other player declined it this turn")
    return IllegalAction("action/cannot_afford", f"{text}: cannot afford it")


TRADE = activity(Activity(
    "trade", "trade with the bank (`trade bank`) and offer trades to the others (`trade domestic`)",
    _legal_trades, {BankTrade: _apply_bank_trade, Offer: _apply_offer}, names="trade",
    subject=lambda game, act: "bank" if isinstance(act, BankTrade) else "domestic",
    refusal=_refusal))


@dataclass
class Offering(Prompt):
    """A domestic offer by `proposer` (`offer`: its action id): the players in `asked`
    answer first to last; `accepted` lists those willing. Then the proposer picks."""

    KIND: ClassVar[str] = "offer"
    proposer: int
    offer: int
    asked: list[int]
    accepted: list[int]

    def check(self, game: Game) -> str:
        if not seats_ok(game, self.proposer, *self.asked, *self.accepted) or \
                self.offer not in game.table(TradeTables).offer_vectors:
            return "not a proposer, an offer and players"
        return super().check(game)

    def step(self, s: State) -> bool:
        if self.asked or self.accepted:
            return False
        s.pending.pop()  # everyone declined: the offer lapses, not to be made again this turn
        s.offers_declined.append(self.offer)
        return True

    def actor(self, s: State) -> int:
        return self.asked[0] if self.asked else self.proposer

    def legal(self, s: State) -> list[int]:
        t = s.game.table(TradeTables)
        if self.asked:
            want = t.offer_vectors[self.offer][1]
            hand = s.hands[self.asked[0]]
            out = [t.decline]
            tokens = t.offer_tokens.get(self.offer)
            if all(h >= v for h, v in zip(hand, want)) and (
                    tokens is None or all(h >= v for h, v in zip(s.tokens_held[self.asked[0]], tokens[1]))):
                out.append(t.accept)
            return out
        return [t.cancel] + [t.trade_with[q] for q in self.accepted]

    def apply(self, s: State, act: Action) -> None:
        kind = type(act)
        if kind is Accept:
            self.accepted.append(self.asked.pop(0))
        elif kind is Decline:
            self.asked.pop(0)
        elif kind is CancelOffer:
            s.pending.pop()
        else:
            assert isinstance(act, TradeWith)
            s.pending.pop()
            give, get = s.game.table(TradeTables).offer_vectors[self.offer]
            mine, theirs = s.hands[self.proposer], s.hands[act.player]
            for r, (x, y) in enumerate(zip(give, get)):
                mine[r] += y - x
                theirs[r] += x - y
            tokens = s.game.table(TradeTables).offer_tokens.get(self.offer)
            if tokens is not None:  # tokens change hands with the cards
                mine, theirs = s.tokens_held[self.proposer], s.tokens_held[act.player]
                for x, (a, b) in enumerate(zip(*tokens)):
                    mine[x] += b - a
                    theirs[x] += a - b
            s.emit("traded", {"player": self.proposer})
