"""Trade (A.8), the `trade` activity: maritime trade at the best rate the player's
harbors give (`trade bank 4:1`), and domestic trade negotiated between the player and
the others (`trade domestic`, with `{ tokens gold }` when tokens may change hands too).

A domestic trade is negotiated step by step, each step one action of a fixed table,
so an offer may hold any number of cards while the game's actions stay few:

1. `NewOffer` opens a draft (`Composing`, seen by its composer alone): `OfferAdd`
   puts one card (or token) on the side it gives or the side it gets, `OfferRemove`
   takes one off, `OfferTo` names one partner, `OfferToAll` everyone (the default);
   `Withdraw` drops the draft, `Propose` makes the offer.
2. The offer is public (`Offering`): the players asked answer in seat order from the
   proposer's left, each with `Accept` (only holding what the offer asks), `Decline`,
   or `Counter`, which opens that player's own draft, pre-filled with the offer turned
   round and composed the same way, then proposed back to the proposer (withdrawing a
   counter is declining). Answers and proposed counters are public.
3. The proposer trades with one who accepted or countered (`TradeWith`, on that
   player's terms) or withdraws the offer.

What a side may hold is what the rules allow: only cards (and tokens) the giver holds,
never the same kind on both sides, never tokens on both sides, and never nothing (cards
are not given away); development cards are never traded. A side asks for no more of a
kind than the other players hold in all (what the bank and the player's own hand leave:
public), so a draft is finite. An offer that every player it asked declined cannot be
made again in that turn; with `turn_limit` and `action_limit` that bounds every game.
"""

from __future__ import annotations

from dataclasses import dataclass
from operator import ge
from typing import Any, ClassVar

from catandsl.rules import network
from catandsl.rules import words as w
from catandsl.rules.base import (
    Action,
    Activity,
    IllegalAction,
    Prompt,
    action_source,
    activity,
    seats_ok,
)
from catandsl.rules.harbors import HarborLookups
from catandsl.rules.play import DeclinedOffer, Game, State
from catandsl.rules.registry import FLOW, HANDS, TOKENS
from catandsl.rules.sites import SiteLookups

NO_RATE = 10**6  # no trade with the bank at all
MAX_RATES = 4096  # trade rates kept per game (by the harbor intersections held)
SIDES = ("give", "get")  # the two sides of an offer, as its composer sees them
GIVE, GET = 0, 1


@dataclass(frozen=True, order=True)
class BankTrade(Action):
    """Give the best rate's number of `give` to the bank for one `get`."""

    KIND: ClassVar[str] = "bank_trade"
    HEADING: ClassVar[str] = "Trade with the bank"
    WRITES: ClassVar[frozenset[str]] = frozenset((HANDS,))
    give: str
    get: str

    def words(self, told: w.Told) -> str:
        """`trade 4 brick for 1 ore with the bank`: the rate is the trader's, in the state given."""
        r = told.game.res_index.get(self.give)
        rate = trade_rate(told.state, told.actor, r) if told.state is not None and told.actor >= 0 \
            and r is not None else 0
        give = w.amount(rate, self.give) if rate else w.spoken(self.give)
        return f"trade {give} for {w.amount(1, self.get)} with the bank"


@dataclass(frozen=True, order=True)
class NewOffer(Action):
    """Open a draft of an offer to the other players (an empty one)."""

    KIND: ClassVar[str] = "new_offer"
    HEADING: ClassVar[str] = "Offer a trade to the others"
    WRITES: ClassVar[frozenset[str]] = frozenset((FLOW,))

    def words(self, told: w.Told) -> str:
        return "start an offer to the other players"


@dataclass(frozen=True, order=True)
class OfferAdd(Action):
    """Put one `item` (a resource card, or a token traded in this game) on one side of
    the draft: `side` "give" (what its composer gives) or "get"."""

    KIND: ClassVar[str] = "offer_add"
    HEADING: ClassVar[str] = "Add to your offer"
    WRITES: ClassVar[frozenset[str]] = frozenset((FLOW,))
    PROMPT_ONLY: ClassVar[bool] = True  # (the draft or the offer's answers, in its prompt)
    side: str
    item: str

    def words(self, told: w.Told) -> str:
        """`add 1 brick to the cards offered`: a draft is its composer's secret."""
        if not told.sees(told.actor):
            return "change the offer"
        return f"add {w.amount(1, self.item)} to the cards {'offered' if self.side == 'give' else 'asked for'}"

    def listed_under(self) -> tuple[str, str]:
        """One group per side: what the offer gives, what it asks for."""
        return f"{self.KIND}:{self.side}", "Your offer gives" if self.side == "give" else "Your offer asks for"


@dataclass(frozen=True, order=True)
class OfferRemove(Action):
    """Take one `item` off one side of the draft."""

    KIND: ClassVar[str] = "offer_remove"
    HEADING: ClassVar[str] = "Take off the offer"
    WRITES: ClassVar[frozenset[str]] = frozenset((FLOW,))
    PROMPT_ONLY: ClassVar[bool] = True  # (the draft or the offer's answers, in its prompt)
    side: str
    item: str

    def words(self, told: w.Told) -> str:
        if not told.sees(told.actor):
            return "change the offer"
        return f"take {w.amount(1, self.item)} off the cards {'offered' if self.side == 'give' else 'asked for'}"


@dataclass(frozen=True, order=True)
class OfferTo(Action):
    """Make the draft an offer to one player alone."""

    KIND: ClassVar[str] = "offer_to"
    HEADING: ClassVar[str] = "Offer it to"
    WRITES: ClassVar[frozenset[str]] = frozenset((FLOW,))
    PROMPT_ONLY: ClassVar[bool] = True  # (the draft or the offer's answers, in its prompt)
    player: int

    def words(self, told: w.Told) -> str:
        if not told.sees(told.actor):
            return "change the offer"
        return f"make it an offer to {w.seat_words(told.game, self.player)} alone"


@dataclass(frozen=True, order=True)
class OfferToAll(Action):
    """Make the draft an offer to every other player (a new draft is one)."""

    KIND: ClassVar[str] = "offer_to_all"
    HEADING: ClassVar[str] = "Offer it to"
    LISTED_WITH: ClassVar[str | None] = "offer_to"
    WRITES: ClassVar[frozenset[str]] = frozenset((FLOW,))
    PROMPT_ONLY: ClassVar[bool] = True  # (the draft or the offer's answers, in its prompt)

    def words(self, told: w.Told) -> str:
        if not told.sees(told.actor):
            return "change the offer"
        return "make it an offer to everyone"


@dataclass(frozen=True, order=True)
class Propose(Action):
    """Make the draft public: the offer, or a counter-offer to it."""

    KIND: ClassVar[str] = "propose"
    HEADING: ClassVar[str] = "The offer"
    WRITES: ClassVar[frozenset[str]] = frozenset((FLOW,))

    def words(self, told: w.Told) -> str:
        """`offer 2 brick for 1 ore to everyone`, `counter with 1 ore for 1 wool`: the
        terms of the draft it makes public."""
        asked = told.asked
        if isinstance(asked, Composing):
            to = w.seat_words(told.game, asked.to) if asked.to >= 0 else "everyone"
            return f"offer {_said(told.game, asked.give, asked.get)} to {to}"
        if isinstance(asked, Offering) and asked.draft:
            n = len(asked.give)
            return f"counter with {_said(told.game, asked.draft[:n], asked.draft[n:])}"
        return "make the offer"


@dataclass(frozen=True, order=True)
class Withdraw(Action):
    """Drop the draft, or the offer waiting for its proposer's choice; a counter being
    composed is withdrawn as a decline."""

    KIND: ClassVar[str] = "withdraw"
    HEADING: ClassVar[str] = "The offer"
    LISTED_WITH: ClassVar[str | None] = "propose"
    WRITES: ClassVar[frozenset[str]] = frozenset((FLOW,))

    def words(self, told: w.Told) -> str:
        asked = told.asked
        if isinstance(asked, Composing):
            return "drop the offer"
        if isinstance(asked, Offering) and asked.draft:
            return "drop the counter-offer and decline"
        return "withdraw the offer"


@dataclass(frozen=True, order=True)
class Accept(Action):
    """Answer to an offer: willing to trade on its terms."""

    KIND: ClassVar[str] = "accept"
    HEADING: ClassVar[str] = "Answer the offer"
    WRITES: ClassVar[frozenset[str]] = frozenset((FLOW,))
    PROMPT_ONLY: ClassVar[bool] = True  # (the draft or the offer's answers, in its prompt)

    def words(self, told: w.Told) -> str:
        return "accept the offer"


@dataclass(frozen=True, order=True)
class Decline(Action):
    """Answer to an offer: not willing to trade."""

    KIND: ClassVar[str] = "decline"
    HEADING: ClassVar[str] = "Answer the offer"
    LISTED_WITH: ClassVar[str | None] = "accept"
    WRITES: ClassVar[frozenset[str]] = frozenset((FLOW,))
    PROMPT_ONLY: ClassVar[bool] = True  # (the draft or the offer's answers, in its prompt)

    def words(self, told: w.Told) -> str:
        return "decline the offer"


@dataclass(frozen=True, order=True)
class Counter(Action):
    """Answer to an offer with one's own terms: opens a draft, composed step by step."""

    KIND: ClassVar[str] = "counter"
    HEADING: ClassVar[str] = "Answer the offer"
    LISTED_WITH: ClassVar[str | None] = "accept"
    WRITES: ClassVar[frozenset[str]] = frozenset((FLOW,))
    PROMPT_ONLY: ClassVar[bool] = True  # (the draft or the offer's answers, in its prompt)

    def words(self, told: w.Told) -> str:
        return "make a counter-offer"


@dataclass(frozen=True, order=True)
class TradeWith(Action):
    """The proposer trades with one who accepted (on the offer's terms) or countered
    (on the counter's)."""

    KIND: ClassVar[str] = "trade_with"
    HEADING: ClassVar[str] = "Trade with"
    WRITES: ClassVar[frozenset[str]] = frozenset((HANDS, TOKENS))
    player: int

    def words(self, told: w.Told) -> str:
        """`trade 2 brick for 1 ore with P2`: the terms P2 accepted or countered with."""
        partner = w.seat_words(told.game, self.player)
        if isinstance(told.asked, Offering):
            terms = next(((g, x) for q, g, x in told.asked._terms() if q == self.player), None)
            if terms is not None:
                return f"trade {_said(told.game, *terms)} with {partner}"
        return f"trade with {partner}"


def _said(game: Game, give: list[int], get: list[int]) -> str:
    """`2 brick for 1 ore`: an offer's terms, counts per trade item."""
    items = game.lookups(TradeLookups).items
    return f"{w.amounts(items, give)} for {w.amounts(items, get)}"


def trade_items(game: Game) -> tuple[str, ...]:
    """What a side of an offer may hold: the resources, then the tokens `trade domestic
    { tokens ... }` names (no domestic trade: nothing)."""
    domestic = game.ruleset.trades.get("domestic")
    if domestic is None:
        return ()
    return tuple(game.resources) + tuple(domestic.tokens)


@action_source
def trade_actions(game: Game) -> list[Action]:
    R = game.resources
    out: list[Action] = [BankTrade(r, g) for r in R for g in R if g != r]
    items = trade_items(game)
    if items:
        out += [NewOffer(), OfferToAll(), Propose(), Withdraw(), Accept(), Decline(), Counter()]
        out += [kind(side, x) for kind in (OfferAdd, OfferRemove) for side in SIDES for x in items]
        out += [kind(p) for kind in (OfferTo, TradeWith) for p in range(game.num_players)]
    return out


MAX_LEGAL_MEMOS = 64  # action numberings a scenario keeps trade lists for
MAX_LEGAL = 10_000  # trade lists kept (a few dozen at most); past this the memo starts again


@dataclass(frozen=True)
class TradeLookups:
    """The bank's and harbors' rates and where the harbors are."""

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
    # `_legal_trades` by what it depends on, shared by the scenario's games with the same
    # trade actions (the same ids), kept by the scenario (`model.Kept.legal_trades`)
    legal_by_key: dict[tuple, list[int]]
    # domestic trade: the items a side may hold (`trade_items`), the first `resources`
    # of them resource cards, the rest tokens (`item_token`: each one's token index)
    items: tuple[str, ...]
    resources: int
    item_token: tuple[int, ...]
    cards_in_game: int  # every resource card there is (the bank's start): others' cards are what is not in view
    card_totals: tuple[int, ...]  # per resource
    new_offer: int  # -1: no domestic trade
    add: tuple[tuple[int, ...], tuple[int, ...]]  # [GIVE or GET][item] -> OfferAdd id
    remove: tuple[tuple[int, ...], tuple[int, ...]]  # likewise OfferRemove
    offer_to: tuple[int, ...]  # by seat
    offer_to_all: int
    propose: int
    withdraw: int
    accept: int
    decline: int
    counter: int
    trade_with: tuple[int, ...]  # by seat

    @classmethod
    def build(cls, game: Game) -> TradeLookups:
        rs, ids, R = game.ruleset, game.action_id, game.resources
        rate = 0
        for t in rs.trades.values():
            if t.give > 0:
                r = t.give // max(t.get, 1)
                rate = r if not rate else min(rate, r)
        harbor_rates = tuple(
            (t.give // max(t.get, 1), game.res_index[t.resource] if t.resource else -1)
            for t in game.lookups(HarborLookups).types)
        spots = {c: h for c, h in enumerate(game.board.corner_harbor) if h >= 0}
        bank_id = tuple(tuple(ids.get(BankTrade(r, g), -1) for g in R) for r in R)
        items = trade_items(game)
        token_index = game.lookups(SiteLookups).token_index
        new_offer = ids.get(NewOffer(), -1)
        legal_key = (bank_id, new_offer)
        memos = game.kept.legal_trades
        legal_memo = memos.get(legal_key)
        if legal_memo is None:
            if len(memos) >= MAX_LEGAL_MEMOS:
                memos.clear()
            legal_memo = memos[legal_key] = {}
        seats = range(game.num_players)
        return cls(
            bank_rate=rate or NO_RATE,
            least_rate=min([rate or NO_RATE] + [r for r, _ in harbor_rates]),
            harbor_rates=harbor_rates,
            harbor_corners=frozenset(spots),
            harbor_spot=spots,
            no_harbor=(rate or NO_RATE,) * len(R),
            rates_memo={},
            harbors_placed=any(game.lookups(HarborLookups).supply),
            bank_id=bank_id,
            bank_gets=tuple(tuple(ids.get(BankTrade(r, g), -1) for g in R if g != r) for r in R),
            legal_by_key=legal_memo,
            items=items,
            resources=len(R),
            item_token=tuple(token_index[x] for x in items[len(R):]),
            cards_in_game=sum(game.bank_start),
            card_totals=tuple(game.bank_start),
            new_offer=new_offer,
            add=(tuple(ids.get(OfferAdd("give", x), -1) for x in items),
                 tuple(ids.get(OfferAdd("get", x), -1) for x in items)),
            remove=(tuple(ids.get(OfferRemove("give", x), -1) for x in items),
                    tuple(ids.get(OfferRemove("get", x), -1) for x in items)),
            offer_to=tuple(ids.get(OfferTo(p), -1) for p in seats),
            offer_to_all=ids.get(OfferToAll(), -1),
            propose=ids.get(Propose(), -1),
            withdraw=ids.get(Withdraw(), -1),
            accept=ids.get(Accept(), -1),
            decline=ids.get(Decline(), -1),
            counter=ids.get(Counter(), -1),
            trade_with=tuple(ids.get(TradeWith(p), -1) for p in seats),
        )

    def item_of(self, act: Any) -> tuple[int, int]:
        """(side, item index) of an OfferAdd or OfferRemove."""
        return SIDES.index(act.side), self.items.index(act.item)


def trade_rate(s: State, p: int, r: int) -> int:
    """How many cards of resource r player p gives the bank for one card."""
    return trade_rates(s, p, s.game.lookups(TradeLookups))[r]


def trade_rates(s: State, p: int, t: TradeLookups) -> tuple[int, ...]:
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


def _rates(s: State, t: TradeLookups, corners: set[int]) -> tuple[int, ...]:
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


# ---- what a seat holds, and what the others hold ------------------------------------------


def holding(s: State, t: TradeLookups, p: int) -> list[int]:
    """Per item, what player p holds: resource cards, then the tokens traded."""
    held = s.tokens_held[p]
    return s.hands[p] + [held[x] for x in t.item_token]


def others_hold(s: State, t: TradeLookups, p: int) -> list[int]:
    """Per item, what the players other than p hold in all: for resource cards, what
    neither the bank nor p's hand holds, for tokens the others' own (both in view of
    everyone, so a draft bounded by it tells nobody anything)."""
    hand = s.hands[p]
    out = [total - b - h for total, b, h in zip(t.card_totals, s.bank, hand)]
    for x in t.item_token:
        out.append(sum(row[x] for q, row in enumerate(s.tokens_held) if q != p))
    return out


def _can_offer(s: State, t: TradeLookups, p: int) -> bool:
    """Whether p could make some offer: holds an item, and the others one of another
    kind (not a token for a token)."""
    hand = s.hands[p]
    if not t.item_token:  # resource cards only (the base game): a few sums, no lists
        held = sum(hand)
        if not held:
            return False
        others = t.cards_in_game - sum(s.bank) - held
        if others <= 0:
            return False
        if len(hand) - hand.count(0) > 1:
            return True  # two kinds held: the others hold some kind other than one of them
        r = next(k for k, n in enumerate(hand) if n)
        return others > t.card_totals[r] - s.bank[r] - hand[r]
    R = t.resources
    mine = [i for i, n in enumerate(holding(s, t, p)) if n]
    theirs = [j for j, n in enumerate(others_hold(s, t, p)) if n]
    if not mine or not theirs:
        return False
    if mine[0] < R and (len(theirs) > 1 or len(mine) > 1 or mine[0] != theirs[0]):
        return True  # a card for another kind (a token or a card): a resource is held
    return theirs[0] < R and (len(theirs) > 1 or theirs[0] != mine[0])  # tokens only held: a card for them


# ---- drafts: the terms of an offer being composed ---------------------------------------------


def _draft_legal(s: State, t: TradeLookups, p: int, give: list[int], get: list[int], to: int,
                 turned: tuple[list[int], list[int]] | None) -> list[int]:
    """The steps p may take on a draft: `turned` is the offer a counter answers, turned
    round (None: p's own offer, which names its partner)."""
    mine, theirs = holding(s, t, p), others_hold(s, t, p)
    R = t.resources
    token_given, token_got = any(give[R:]), any(get[R:])
    add_give, add_get = t.add
    out: list[int] = []
    for i, (g, x, have, there) in enumerate(zip(give, get, mine, theirs)):
        token = i >= R
        if g < have and not x and not (token and token_got):
            out.append(add_give[i])
        if x < there and not g and not (token and token_given):
            out.append(add_get[i])
        if g:
            out.append(t.remove[GIVE][i])
        if x:
            out.append(t.remove[GET][i])
    if turned is None:
        out += [t.offer_to[q] for q in range(s.game.num_players) if q != p and q != to]
        if to >= 0:
            out.append(t.offer_to_all)
    if not _draft_refusal(s, t, p, give, get, to, turned, mine, theirs):
        out.append(t.propose)
    out.append(t.withdraw)
    return out


def _draft_refusal(s: State, t: TradeLookups, p: int, give: list[int], get: list[int], to: int,
                   turned: tuple[list[int], list[int]] | None, mine: list[int], theirs: list[int]) -> str:
    """Why the draft may not be proposed now ("" if it may)."""
    if not any(give) or not any(get):
        return "an offer gives something and gets something: cards are never given away"
    if any(g > h for g, h in zip(give, mine)):
        return "it gives more than its composer holds"
    if any(x > h for x, h in zip(get, theirs)):
        return "it asks for more than the others hold"
    if turned is not None:
        if give == turned[0] and get == turned[1]:
            return "a counter-offer on the offer's own terms is an acceptance: accept it"
    elif declined(s, t, p, give, get, to):
        return "every player it asks declined it this turn"
    return ""


def _asked(s: State, p: int, to: int) -> list[int]:
    """Who answers p's offer, in order: the partner, or the others from p's left."""
    n = s.game.num_players
    return [to] if to >= 0 else [(p + k) % n for k in range(1, n)]


def declined(s: State, t: TradeLookups, p: int, give: list[int], get: list[int], to: int) -> bool:
    """Every player an offer of these terms would ask declined them this turn."""
    want = 0
    for q in _asked(s, p, to):
        want |= 1 << q
    give_, get_ = tuple(give), tuple(get)
    for offer in s.offers_declined:
        if offer.proposer == p and offer.give == give_ and offer.get == get_:
            want &= ~offer.asked
    return not want


def _edit(t: TradeLookups, give: list[int], get: list[int], act: Action) -> None:
    """Apply OfferAdd or OfferRemove to a draft's sides."""
    side, i = t.item_of(act)
    (give if side == GIVE else get)[i] += 1 if isinstance(act, OfferAdd) else -1


def _step_refusal(s: State, t: TradeLookups, p: int, give: list[int], get: list[int], to: int,
                  turned: tuple[list[int], list[int]] | None, act: Action) -> IllegalAction:
    """Why a step on a draft is refused (it is not among `_draft_legal`)."""
    text = s.game.action_to_string(s.game.action_id[act])
    mine, theirs = holding(s, t, p), others_hold(s, t, p)
    if isinstance(act, (OfferAdd, OfferRemove)):
        side, i = t.item_of(act)
        ours, other = (give, get) if side == GIVE else (get, give)
        item = t.items[i]
        if isinstance(act, OfferRemove):
            return IllegalAction("action/not_legal", f"{text}: no {item} on that side")
        if other[i]:
            return IllegalAction("action/not_legal", f"{text}: {item} is on the other side; "
                                 "a trade never swaps a kind for itself")
        if i >= t.resources and any(other[t.resources:]):
            return IllegalAction("action/not_legal", f"{text}: tokens are already on the other side; "
                                 "tokens are never traded for tokens")
        if side == GIVE:
            return IllegalAction("action/cannot_afford", f"{text}: you hold {mine[i]} {item}, "
                                 f"all of it on the offer already" if mine[i] else f"{text}: you hold no {item}")
        return IllegalAction("action/not_legal", f"{text}: the other players hold {theirs[i]} {item} in all")
    if isinstance(act, (OfferTo, OfferToAll)):
        if turned is not None:
            return IllegalAction("action/not_legal", f"{text}: a counter-offer goes to the proposer")
        return IllegalAction("action/invalid_target", f"{text}: not another player, or already the partner")
    if isinstance(act, Propose):
        why = _draft_refusal(s, t, p, give, get, to, turned, mine, theirs)
        return IllegalAction("action/not_legal", f"{text}: {why}")
    return IllegalAction("action/not_legal", f"{text}: the offer is being composed")


# ---- the `trade` activity -------------------------------------------------------------------


def _legal_trades(s: State, p: int, names: frozenset[str] | None) -> list[int]:
    """The bank trades and the new offer player p may make now. The bank trades depend
    on which resources p holds enough of at p's rates, and on which resources the bank
    has (when it lacks one): the list is kept by those (`TradeLookups.legal_by_key`), so
    it is worked out a few dozen times per scenario, not once per hand."""
    t = s.game.lookups(TradeLookups)
    hand = s.hands[p]
    bank = s.bank
    rates = trade_rates(s, p, t) if (names is None or "bank" in names) and hand and \
        max(hand) >= t.least_rate else None
    offer = t.new_offer >= 0 and (names is None or "domestic" in names) and _can_offer(s, t, p)
    lacks = None if rates is None or 0 not in bank else tuple(map(bool, bank))
    key = (None if rates is None else tuple(map(ge, hand, rates)), lacks, offer)
    memo = t.legal_by_key
    out = memo.get(key)
    if out is None:
        out = _trades_for(t, key[0], bank)
        if offer:
            out.append(t.new_offer)  # (after every bank trade: "new_offer" sorts after "bank_trade")
        if len(memo) >= MAX_LEGAL:
            memo.clear()
        memo[key] = out
    return out  # (kept: never edited)


def _trades_for(t: TradeLookups, enough: tuple[bool, ...] | None, bank: list[int]) -> list[int]:
    """The bank trades of the resources a hand holds `enough` of (None: none), ascending."""
    out: list[int] = []
    if enough is not None:
        every = 0 not in bank  # (as a rule: then each give gets every other resource)
        for r, ok in enumerate(enough):
            if ok:
                if every:
                    out += t.bank_gets[r]
                else:
                    ids = t.bank_id[r]
                    out += [ids[x] for x, left in enumerate(bank) if left and x != r]
    out.sort()
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


def _apply_new_offer(s: State, p: int, act: NewOffer) -> None:
    n = len(s.game.lookups(TradeLookups).items)
    s.push(Composing(p, [0] * n, [0] * n, -1))


def _refusal(s: State, p: int, act: Action) -> IllegalAction:
    text = s.game.action_to_string(s.game.action_id[act])
    if isinstance(act, NewOffer):
        return IllegalAction("action/cannot_afford", f"{text}: nothing you hold could be traded "
                             "for anything the others hold")
    return IllegalAction("action/cannot_afford", f"{text}: cannot afford it")


TRADE = activity(Activity(
    "trade", "trade with the bank (`trade bank`) and offer trades to the others (`trade domestic`)",
    _legal_trades, {BankTrade: _apply_bank_trade, NewOffer: _apply_new_offer}, names="trade",
    subject=lambda game, act: "bank" if isinstance(act, BankTrade) else "domestic",
    refusal=_refusal))


# ---- the prompts --------------------------------------------------------------------------------


def _vector_ok(game: Game, v: Any, n: int) -> bool:
    return isinstance(v, list) and len(v) == n and all(isinstance(x, int) and 0 <= x <= 10**6 for x in v)


def _sides_ok(game: Game, give: list[int], get: list[int]) -> str:
    t = game.lookups(TradeLookups)
    n, R = len(t.items), t.resources
    if not t.items or not _vector_ok(game, give, n) or not _vector_ok(game, get, n):
        return f"give and get must be {n} counts each (the items a domestic trade holds)"
    if any(a and b for a, b in zip(give, get)) or (any(give[R:]) and any(get[R:])):
        return "an item on both sides, or tokens on both sides"
    return ""


@dataclass
class Composing(Prompt):
    """`player` composes an offer (`give`, `get`: counts per item of `TradeLookups.items`;
    `to`: the partner, -1 for every other player). Only the composer sees the draft."""

    KIND: ClassVar[str] = "composing"
    player: int
    give: list[int]
    get: list[int]
    to: int

    def check(self, game: Game) -> str:
        if not seats_ok(game, self.player) or not -1 <= self.to < game.num_players or self.to == self.player:
            return "player must be a seat and to another seat or -1"
        return _sides_ok(game, self.give, self.get) or super().check(game)

    def actor(self, s: State) -> int:
        return self.player

    def legal(self, s: State) -> list[int]:
        return _draft_legal(s, s.game.lookups(TradeLookups), self.player, self.give, self.get, self.to, None)

    def apply(self, s: State, act: Action) -> None:
        t = s.game.lookups(TradeLookups)
        kind = type(act)
        if kind is OfferAdd or kind is OfferRemove:
            _edit(t, self.give, self.get, act)
        elif kind is OfferTo:
            self.to = act.player  # type: ignore[attr-defined]
        elif kind is OfferToAll:
            self.to = -1
        elif kind is Withdraw:
            s.pending.pop()
        else:
            assert kind is Propose
            s.pending.pop()
            s.offers_made += 1
            s.push(Offering(self.player, self.to, self.give, self.get, _asked(s, self.player, self.to),
                            [], [], [], []))

    def refusal(self, s: State, act: Action) -> IllegalAction | None:
        return _step_refusal(s, s.game.lookups(TradeLookups), self.player, self.give, self.get, self.to, None, act)

    def seen_by(self, player: int) -> dict:
        out = self.to_json()
        if player != self.player:  # a draft is its composer's secret: it tells what they hold
            out["give"] = out["get"] = out["to"] = None
        return out


@dataclass
class Offering(Prompt):
    """A proposed offer (public): `proposer` gives `give` for `get`, to `to` (-1: every
    other player). The players in `asked` answer first to last; `accepted` and
    `declined` list the answers, `counters` the counter-offers ([player, *give, *get],
    from the counter's proposer's side). While the first asked composes a counter,
    `draft` holds it ([*give, *get]; [] otherwise), seen by that player alone. Once
    all have answered the proposer picks (`TradeWith`) or withdraws; an offer nobody
    took up lapses, and is not made again this turn."""

    KIND: ClassVar[str] = "offer"
    proposer: int
    to: int
    give: list[int]
    get: list[int]
    asked: list[int]
    accepted: list[int]
    declined: list[int]
    counters: list[list[int]]
    draft: list[int]

    def check(self, game: Game) -> str:
        n = len(game.lookups(TradeLookups).items)
        answered = self.accepted + self.declined + [c[0] for c in self.counters if c]
        seats = self.asked + answered
        if not seats_ok(game, self.proposer, *seats) or self.proposer in seats or len(set(seats)) != len(seats) \
                or not -1 <= self.to < game.num_players or self.to == self.proposer:
            return "proposer, to and the players asked and answering must be distinct seats"
        if not all(len(c) == 1 + 2 * n for c in self.counters) or (self.draft and (
                len(self.draft) != 2 * n or not self.asked)):
            return "counters must be [player, *give, *get] and a draft [*give, *get] of the first asked"
        why = _sides_ok(game, self.give, self.get)
        for c in self.counters:
            why = why or _sides_ok(game, c[1:1 + n], c[1 + n:])
        if self.draft:
            why = why or _sides_ok(game, self.draft[:n], self.draft[n:])
        if not why and not (any(self.give) and any(self.get)):
            why = "an offer gives something and gets something"
        return why or super().check(game)

    def step(self, s: State) -> bool:
        if self.asked or self.accepted or self.counters:
            return False
        s.pending.pop()  # everyone declined: the offer lapses, not to be made again this turn
        mask = 0
        for q in self.declined:
            mask |= 1 << q
        s.offers_declined.append(DeclinedOffer(self.proposer, mask, tuple(self.give), tuple(self.get)))
        return True

    def actor(self, s: State) -> int:
        return self.asked[0] if self.asked else self.proposer

    def _turned(self) -> tuple[list[int], list[int]]:
        """The offer from an answerer's side: what it would give, and get."""
        return self.get, self.give

    def legal(self, s: State) -> list[int]:
        t = s.game.lookups(TradeLookups)
        n = len(t.items)
        if self.asked:
            q = self.asked[0]
            if self.draft:
                return _draft_legal(s, t, q, self.draft[:n], self.draft[n:], self.proposer, self._turned())
            mine = holding(s, t, q)
            out = [t.decline, t.counter] if any(mine) else [t.decline]
            if all(h >= x for h, x in zip(mine, self.get)):
                out.append(t.accept)
            return out
        out = [t.withdraw]
        mine = holding(s, t, self.proposer)
        for q, give, get in self._terms():
            theirs = holding(s, t, q)
            if all(h >= x for h, x in zip(mine, give)) and all(h >= x for h, x in zip(theirs, get)):
                out.append(t.trade_with[q])
        return out

    def _terms(self) -> list[tuple[int, list[int], list[int]]]:
        """(player, what the proposer gives, what it gets) of each acceptance and counter."""
        n = len(self.give)
        out = [(q, self.give, self.get) for q in self.accepted]
        out += [(c[0], c[1 + n:], c[1:1 + n]) for c in self.counters]
        return out

    def apply(self, s: State, act: Action) -> None:
        t = s.game.lookups(TradeLookups)
        kind = type(act)
        n = len(t.items)
        if self.draft:  # the first asked composes a counter
            if kind is Propose:
                self.counters.append([self.asked.pop(0)] + self.draft)
                self.draft = []
            elif kind is Withdraw:
                self.declined.append(self.asked.pop(0))
                self.draft = []
            else:
                give, get = self.draft[:n], self.draft[n:]
                _edit(t, give, get, act)
                self.draft = give + get
            return
        if kind is Accept:
            self.accepted.append(self.asked.pop(0))
        elif kind is Decline:
            self.declined.append(self.asked.pop(0))
        elif kind is Counter:  # the offer turned round, with what the answerer holds of what it asks
            mine = holding(s, t, self.asked[0])
            self.draft = [min(x, h) for x, h in zip(self.get, mine)] + self.give
        elif kind is Withdraw:
            s.pending.pop()
        else:
            assert isinstance(act, TradeWith)
            s.pending.pop()
            give, get = next((g, x) for q, g, x in self._terms() if q == act.player)
            _exchange(s, t, self.proposer, act.player, give, get)
            s.emit("traded", {"player": self.proposer})

    def refusal(self, s: State, act: Action) -> IllegalAction | None:
        t = s.game.lookups(TradeLookups)
        n = len(t.items)
        text = s.game.action_to_string(s.game.action_id[act])
        if self.asked and self.draft:
            return _step_refusal(s, t, self.asked[0], self.draft[:n], self.draft[n:], self.proposer,
                                 self._turned(), act)
        if self.asked and isinstance(act, Accept):
            return IllegalAction("action/cannot_afford", f"{text}: you do not hold what the offer asks")
        if not self.asked and isinstance(act, TradeWith):
            if not any(q == act.player for q, _, _ in self._terms()):
                return IllegalAction("action/not_legal", f"{text}: that player took up no offer")
            return IllegalAction("action/cannot_afford", f"{text}: you do not hold what that counter-offer asks")
        return None

    def seen_by(self, player: int) -> dict:
        out = self.to_json()
        if not (self.asked and self.asked[0] == player):  # a counter is its composer's secret till proposed
            out["draft"] = None
        return out


def _exchange(s: State, t: TradeLookups, p: int, q: int, give: list[int], get: list[int]) -> None:
    """p gives `give` to q and gets `get` from q: resource cards and tokens."""
    R = t.resources
    mine, theirs = s.hands[p], s.hands[q]
    for r in range(R):
        mine[r] += get[r] - give[r]
        theirs[r] += give[r] - get[r]
    mine, theirs = s.tokens_held[p], s.tokens_held[q]
    for k, x in enumerate(t.item_token):
        mine[x] += get[R + k] - give[R + k]
        theirs[x] += give[R + k] - get[R + k]


# ---- what a seat sees of the trade -----------------------------------------------------------


def _named(t: TradeLookups, counts: list[int]) -> dict[str, int]:
    return {x: n for x, n in zip(t.items, counts) if n}


def trade_view(s: State, player: int) -> dict[str, Any]:
    """The trade as `player` sees it, items by name: `offer` (the public offer, its
    answers and counter-offers, or None) and `draft` (the player's own draft, of an
    offer or a counter, or None); another's draft is never shown."""
    t = s.game.lookups(TradeLookups)
    n = len(t.items)
    offer: dict[str, Any] | None = None
    draft: dict[str, Any] | None = None
    for prompt in s.pending:
        if isinstance(prompt, Offering):
            offer = {"proposer": prompt.proposer, "to": prompt.to, "give": _named(t, prompt.give),
                     "get": _named(t, prompt.get), "asked": list(prompt.asked),
                     "accepted": list(prompt.accepted), "declined": list(prompt.declined),
                     "counters": [{"player": c[0], "give": _named(t, c[1:1 + n]), "get": _named(t, c[1 + n:])}
                                  for c in prompt.counters]}
            if prompt.draft and prompt.asked[0] == player:
                draft = {"player": player, "to": prompt.proposer, "counter": True,
                         "give": _named(t, prompt.draft[:n]), "get": _named(t, prompt.draft[n:])}
        elif isinstance(prompt, Composing) and prompt.player == player:
            draft = {"player": player, "to": prompt.to, "counter": False,
                     "give": _named(t, prompt.give), "get": _named(t, prompt.get)}
    return {"offer": offer, "draft": draft}


def observed(game: Game) -> list[tuple[str, int]]:
    """The Observer's slices for the trade (engine/observer.py), sizes for this game."""
    t = game.lookups(TradeLookups)
    n, p = len(t.items), game.num_players
    if not n:
        return []
    return [("offer_by", p), ("offer_to", p), ("offer_give", n), ("offer_get", n), ("offer_answers", 3 * p),
            ("offer_counters", 2 * n * p), ("draft_give", n), ("draft_get", n), ("draft_to", p)]


def observed_values(game: Game, seen: dict[str, Any], player: int) -> dict[str, list[float]]:
    """The values of `observed`'s slices, from what `player` sees (`trade_view`)."""
    t = game.lookups(TradeLookups)
    if not t.items:
        return {}
    n, p = len(t.items), game.num_players
    out: dict[str, list[float]] = {}

    def counts(named: dict[str, int]) -> list[float]:
        return [float(named.get(x, 0)) for x in t.items]

    offer, draft = seen["offer"], seen["draft"]
    if offer is not None:
        out["offer_by"] = [float(q == offer["proposer"]) for q in range(p)]
        out["offer_to"] = [float(q == offer["to"] or (offer["to"] < 0 and q != offer["proposer"])) for q in range(p)]
        out["offer_give"], out["offer_get"] = counts(offer["give"]), counts(offer["get"])
        answers = [0.0] * (3 * p)
        for k, key in enumerate(("accepted", "declined")):
            for q in offer[key]:
                answers[3 * q + k] = 1.0
        counters = [0.0] * (2 * n * p)
        for c in offer["counters"]:
            answers[3 * c["player"] + 2] = 1.0
            counters[2 * n * c["player"]:2 * n * (c["player"] + 1)] = counts(c["give"]) + counts(c["get"])
        out["offer_answers"], out["offer_counters"] = answers, counters
    if draft is not None:
        out["draft_give"], out["draft_get"] = counts(draft["give"]), counts(draft["get"])
        out["draft_to"] = [float(q == draft["to"] or (draft["to"] < 0 and q != player)) for q in range(p)]
    return out


def observed_sources(s: State, player: int) -> tuple[Offering | None, tuple[int, list[int], list[int]] | None]:
    """What `observed_parts` reads of the pending prompts: the proposed offer (None: no
    offer), and the player's own draft as (to, give, get) (None: it composes none). The
    lists are the prompts' own, to be read only."""
    n = len(s.game.lookups(TradeLookups).items)
    offer: Offering | None = None
    draft: tuple[int, list[int], list[int]] | None = None
    for prompt in s.pending:
        if isinstance(prompt, Offering):
            offer = prompt
            if prompt.draft and prompt.asked[0] == player:
                draft = (prompt.proposer, prompt.draft[:n], prompt.draft[n:])
        elif isinstance(prompt, Composing) and prompt.player == player:
            draft = (prompt.to, prompt.give, prompt.get)
    return offer, draft


def offer_run(game: Game, offer: Offering) -> list[float]:
    """The offer's run of numbers, `offer_by` to `offer_counters` (`observed_parts`)."""
    n, p = len(game.lookups(TradeLookups).items), game.num_players
    seats = range(p)
    by, to = offer.proposer, offer.to
    answers = [0.0] * (3 * p)
    for q in offer.accepted:
        answers[3 * q] = 1.0
    for q in offer.declined:
        answers[3 * q + 1] = 1.0
    counters = [0.0] * (2 * n * p)
    for c in offer.counters:
        answers[3 * c[0] + 2] = 1.0
        counters[2 * n * c[0]:2 * n * (c[0] + 1)] = map(float, c[1:1 + 2 * n])
    offered = [float(q == by) for q in seats]
    offered += [float(q == to or (to < 0 and q != by)) for q in seats]
    offered += map(float, offer.give[:n])
    offered += map(float, offer.get[:n])
    offered += answers
    offered += counters
    return offered


def draft_run(game: Game, draft: tuple[int, list[int], list[int]], player: int) -> list[float]:
    """The player's draft's run of numbers, `draft_give` to `draft_to` (`observed_parts`)."""
    n, p = len(game.lookups(TradeLookups).items), game.num_players
    to, give, get = draft
    drafted = list(map(float, give[:n]))
    drafted += map(float, get[:n])
    drafted += [float(q == to or (to < 0 and q != player)) for q in range(p)]
    return drafted


def observed_parts(s: State, player: int) -> tuple[list[float] | None, list[float] | None]:
    """`observed_values` read straight from the pending prompts, as the two runs of
    numbers the Observer lays out: the offer's (`offer_by` to `offer_counters`) and the
    draft's (`draft_give` to `draft_to`), None for one the player does not see. No names
    and no dicts (the tests hold it equal to `observed_values`)."""
    offer, draft = observed_sources(s, player)
    return (offer_run(s.game, offer) if offer is not None else None,
            draft_run(s.game, draft, player) if draft is not None else None)
