"""The search bot: information-set Monte Carlo tree search over the public engine API.

Each decision runs `budget` iterations. An iteration

1. **determinizes**: `state.resample_from_infostate(me, rng)` draws what the bot cannot
   see (opponents' hands and cards, the deck, future draws);
2. **descends** a tree of the bot's own decisions from this one to the end of its
   horizon: its own turn (or, deciding in another's turn, until that turn's flow stands
   again; in the set-up, its own placements). At the bot's decisions a child is picked
   by UCB1 among the first few candidates, more as the node is visited (progressive
   widening); chance is sampled with its odds, and other players' decisions inside the
   horizon (discards, answers to an offer) follow a quick reply policy; both are keyed
   in the tree by what happened;
3. **evaluates** the position reached with a value read from the scenario
   (players/evaluation.py), the seat's value against the strongest opponent's, or the
   game's result, and adds it to every node on the way.

A new node of the bot's own is evaluated as soon as it is reached: the search is
shallow, its strength the value's. Candidates come from the legal actions: every one,
but of the many bank trades only those that bring the hand nearer to something it may
buy, a few; they are ordered at the root by the value one action ahead, below it by kind
(points first, ending the turn early, trades last), so widening tries the likely ones
first. The answer is the root's most visited child.

Domestic trades are composed card by card over many decisions, too deep for the search:
the bot follows the greedy player's Trader (players/trading.py) for them. Before a
search it proposes an offer when the Trader has one in mind (once a turn); it composes,
answers and picks a partner with the Trader; the search itself never opens a draft.

Deterministic: the bot's RNG is seeded; the same seed and the same game give the same
choices. Strength is the budget (`mcts:N` names a bot with N iterations per decision).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from catandsl.engine.state import pick_outcome
from catandsl.players.base import NoLegalAction
from catandsl.players.evaluation import Evaluator
from catandsl.players.trading import Trader
from catandsl.rules import costs
from catandsl.rules import trade as T
from catandsl.rules.trade import NO_RATE, Composing, Offering, TradeLookups, trade_rates

if TYPE_CHECKING:
    from catandsl.engine.state import State
    from catandsl.rules.play import Game

DEFAULT_BUDGET = 200
EXPLORE = 0.6  # UCB1's constant, in the value's units (victory points)
WIDEN = 0.5  # a node visited n times tries its first 2 + n**WIDEN candidates
MAX_DEPTH = 40  # the bot's own decisions in one descent
MAX_REPLIES = 24  # other players' decisions and chance steps in one descent
TRADES_KEPT = 4  # bank trades and offers among the candidates, at most each
ROOT_PRIOR_MAX = 60  # candidates ordered by the value one action ahead at the root
OFFERS_TRIED = 1  # domestic offers proposed in a turn, at most

# the order candidates are tried in below the root, by the action's kind
_RANK = {"build": 1, "build_stage": 1, "buy_card": 2, "play_card": 2, "take_action": 2, "travel": 2,
         "end_turn": 0, "pass": 0, "roll_dice": 0, "move": 3, "steal": 2, "bank_trade": 4}
# a domestic trade is composed card by card: the search leaves it to the Trader's policy
_TRADE_STEPS = frozenset(c.KIND for c in (T.NewOffer, T.OfferAdd, T.OfferRemove, T.OfferTo, T.OfferToAll,
                                         T.Propose, T.Withdraw, T.Accept, T.Decline, T.Counter, T.TradeWith))


class Node:
    """A point of the tree: visits, summed utility, children by action id, and (at the
    bot's own decisions) its candidates in the order they are tried."""

    __slots__ = ("visits", "value", "children", "candidates")

    def __init__(self) -> None:
        self.visits = 0
        self.value = 0.0
        self.children: dict[int, Node] = {}
        self.candidates: list[int] | None = None

    def child(self, a: int) -> Node:
        c = self.children.get(a)
        if c is None:
            c = self.children[a] = Node()
        return c


class MCTSPlayer:
    """Information-set MCTS with a value read from the scenario (see the module's doc)."""

    def __init__(self, seed: int = 0, budget: int = DEFAULT_BUDGET, explore: float = EXPLORE):
        if not isinstance(budget, int) or isinstance(budget, bool) or budget < 1:
            raise ValueError(f"an mcts budget is a whole number of iterations, at least 1, not {budget!r}")
        self.rng = random.Random(seed)
        self.budget = budget
        self.explore = explore
        self._evaluators: dict[int, tuple[Game, Evaluator]] = {}
        self.iterations = 0  # run so far, over every decision (a count for the bench)
        self.trader = Trader()  # its domestic trades: composed and answered by the greedy policy

    def evaluator(self, game: Game) -> Evaluator:
        kept = self._evaluators.get(id(game))
        if kept is None or kept[0] is not game:
            if len(self._evaluators) > 16:
                self._evaluators.clear()
            kept = self._evaluators[id(game)] = (game, Evaluator(game))
        return kept[1]

    # ---- choosing ----------------------------------------------------------------------

    def choose(self, state: State) -> int:
        legal = state.legal_actions()
        if not legal:
            raise NoLegalAction()
        if len(legal) == 1:
            return legal[0]
        me = state.current_player()
        top = state.pending[-1] if state.pending else None
        if isinstance(top, (Composing, Offering)):
            return self.trader.choose(state, me, legal)  # a draft's step, or an answer
        new_offer = state.game.lookups(TradeLookups).new_offer
        if (new_offer in legal and state.offers_made < OFFERS_TRIED
                and self.trader.plan(state, me) is not None):
            return new_offer  # one or two cards short of something worth having: ask the others
        ev = self.evaluator(state.game)
        ev.start(state, me)
        root = Node()
        # (the order at the root is judged on a determinization too: the bot never reads
        # what its seat cannot see)
        root.candidates = self._root_candidates(state.resample_from_infostate(me, self.rng), me, ev)
        if len(root.candidates) == 1:
            return root.candidates[0]
        horizon = _Horizon(state, me)
        for _ in range(self.budget):
            self._iterate(state, me, root, ev, horizon)
        self.iterations += self.budget
        best, key = root.candidates[0], (-1, -math.inf)
        for a in root.candidates:
            c = root.children.get(a)
            if c is not None and c.visits:
                k = (c.visits, c.value / c.visits)
                if k > key:
                    best, key = a, k
        _remember_stop(state, best, me, ev)
        return best

    def _iterate(self, state: State, me: int, root: Node, ev: Evaluator, horizon: _Horizon) -> None:
        rng = self.rng
        s = state.resample_from_infostate(me, rng)
        node = root
        path = [root]
        mine = 0
        replies = 0
        ended = False
        while not s.is_terminal():
            if s.is_chance_node():
                a = pick_outcome(s.chance_outcomes(), rng.random())
            else:
                p = s.current_player()
                if p != me:
                    if horizon.over(s, ended) or replies >= MAX_REPLIES:
                        break
                    a = self._reply(s, p, ev)
                    replies += 1
                else:
                    if horizon.passed(s):
                        break
                    if node.visits == 0 and node is not root:
                        break  # a new node of mine: evaluated where it stands
                    if mine >= MAX_DEPTH:
                        break
                    if node.candidates is None:
                        node.candidates = self._candidates(s, me, ev)
                    a = self._select(node, s)
                    mine += 1
                    if a == s.game.end_turn_id:
                        ended = True
            s.apply_action(a)
            node = node.child(a)
            path.append(node)
        u = ev.utility(ev.values(s), me)
        for n in path:
            n.visits += 1
            n.value += u

    def _select(self, node: Node, s: State) -> int:
        cands = node.candidates
        assert cands is not None
        width = min(len(cands), 2 + int(node.visits ** WIDEN))
        legal = s.legal_now()
        best, best_score = -1, -math.inf
        log_n = math.log(node.visits + 1)
        for a in cands[:width]:
            c = node.children.get(a)
            if c is None or not c.visits:
                if _is_legal(legal, a):
                    return a
                continue
            score = c.value / c.visits + self.explore * math.sqrt(log_n / c.visits)
            if score > best_score and _is_legal(legal, a):
                best, best_score = a, score
        if best < 0:  # (a determinization where none of the first is legal: any legal one)
            best = legal[self.rng.randrange(len(legal))]
        return best

    # ---- candidates --------------------------------------------------------------------

    def _root_candidates(self, s: State, me: int, ev: Evaluator) -> list[int]:
        """The candidates, ordered by the value one action ahead (chance outcomes averaged
        as they come, other players' replies left for the search)."""
        cands = self._candidates(s, me, ev)
        if len(cands) <= 1:
            return cands
        head, tail = cands[:ROOT_PRIOR_MAX], cands[ROOT_PRIOR_MAX:]
        scored = []
        for k, a in enumerate(head):
            t = s.clone()
            t.apply_action(a)
            scored.append((-ev.utility(ev.values(t), me), k, a))
        scored.sort()
        return [a for _, _, a in scored] + tail

    def _candidates(self, s: State, me: int, ev: Evaluator) -> list[int]:
        """The legal actions worth trying, in the order to try them (see the module)."""
        g = s.game
        legal = s.legal_now()
        if len(legal) <= 2:
            return list(legal)
        acts = g.actions
        trades = ev.trades
        wants = None
        bank: list[tuple[float, int]] = []
        rest: list[tuple[int, float, int]] = []
        rng = self.rng
        for a in legal:
            act = acts[a]
            kind = act.KIND
            if kind == "bank_trade":
                if wants is None:
                    wants = _wants(s, me, ev)
                score = _bank_score(s, me, act, wants, trades, g, ev)
                if score > 0:
                    bank.append((-score, a))
            elif kind in _TRADE_STEPS:
                continue  # (domestic trades are the Trader's, at the root: see choose)
            else:
                rest.append((_RANK.get(kind, 3), rng.random(), a))
        rest.sort()
        bank.sort()
        out = [a for _, _, a in rest] + [a for _, a in bank[:TRADES_KEPT]]
        return out or list(legal)

    # ---- other players, inside the horizon ----------------------------------------------

    def _reply(self, s: State, p: int, ev: Evaluator) -> int:
        """Another player's decision inside the horizon: a discard of the card they hold
        most of; among a few actions, the best for them one action ahead; among many, a
        random one that is no offer."""
        legal = s.legal_now()
        if len(legal) == 1:
            return legal[0]
        acts = s.game.actions
        g = s.game
        if acts[legal[0]].KIND == "discard":  # (each of many discards: the card held most of, quickly)
            hand = s.hands[p]
            return max(legal, key=lambda a: (hand[g.res_index[acts[a].resource]], -a))
        if len(legal) <= 6:
            best, best_v = legal[0], -math.inf
            for a in legal:
                t = s.clone()
                t.apply_action(a)
                v = ev.values(t)[p] if not t.is_chance_node() else ev.values(s)[p]
                if v > best_v:
                    best, best_v = a, v
            return best
        choices = [a for a in legal if acts[a].KIND not in _TRADE_STEPS] or list(legal)
        return choices[self.rng.randrange(len(choices))]


class _Horizon:
    """Where a descent stops: the end of the bot's turn; deciding in another player's
    turn, the moment that turn's own flow stands again (nothing pending) with another to
    act; in the set-up, the first placement that is not the bot's."""

    def __init__(self, root: State, me: int):
        self.me = me
        self.turns = root.turns
        self.setup = root.stage == "setup"
        self.own_turn = root.stage == "turn" and root.turn_player == me and not _between(root)

    def passed(self, s: State) -> bool:
        """At a decision of the bot's: past the horizon (a later turn)."""
        return s.turns != self.turns

    def over(self, s: State, ended: bool) -> bool:
        """At another player's decision: past the horizon."""
        if s.turns != self.turns or self.setup or ended:
            return True
        if self.own_turn:
            return _between(s)
        return not s.pending


def _remember_stop(s: State, a: int, me: int, ev: Evaluator) -> None:
    """A travelling piece steps onto a stop: remember it (the last two), so the value
    leads the piece to the other stops next."""
    act = s.game.actions[a]
    if act.KIND != "travel":
        return
    pi = s.game.piece_index[act.piece]
    if act.to in ev.stops_of(s, pi, me):
        seen = ev.visited.setdefault((pi, me), [])
        seen.append(frozenset(s.game.board.path_ends[act.to]))
        del seen[:-2]


def _between(s: State) -> bool:
    return getattr(s.top(), "KIND", "") == "between_turns"


def _is_legal(legal: Sequence[int], a: int) -> bool:
    from bisect import bisect_left

    k = bisect_left(legal, a)
    if k < len(legal) and legal[k] == a:
        return True
    return a in legal  # (an unsorted list: the set-up's is sorted, a turn's as a rule too)


def _wants(s: State, me: int, ev: Evaluator) -> list[tuple[float, list[int], list[int]]]:
    """For each thing the hand may buy, nearest first: (its worth, what the hand lacks
    of it, what it holds beyond it), per resource."""
    hand = s.hands[me]
    out = []
    for cost, worth, what, k, varies in ev.targets:
        if varies:
            cost = costs.cost_of(s, me, what, k).cards
        if what == "piece":
            P = s.game.pieces[k]
            if s.placed[me][k] >= P.limit or (P.upgrades >= 0 and not any(s.placed[me][u] for u in P.upgrades_from)):
                continue
        lack = [max(0, n - h) for n, h in zip(cost, hand)]
        out.append((sum(lack) - worth, worth, lack, [max(0, h - n) for n, h in zip(cost, hand)]))
    out.sort(key=lambda x: x[0])
    return [(worth, lack, spare) for _, worth, lack, spare in out]


def _bank_score(s: State, me: int, act, wants, trades: TradeLookups, g, ev: Evaluator) -> float:
    """How much a bank trade brings the hand nearer to something it may buy (0: not at
    all, or it gives away what that thing needs)."""
    give, get = g.res_index[act.give], g.res_index[act.get]
    rate = trade_rates(s, me, trades)[give]
    if rate >= NO_RATE:
        return 0.0
    best = 0.0
    for worth, lack, spare in wants:
        if lack[get] and spare[give] >= rate:
            best = max(best, worth / (sum(lack)))
    return best


def budget_of(name: str) -> int | None:
    """The budget a bot name gives the search bot: `mcts` the default, `mcts:N` N; None
    for any other name."""
    if name == "mcts":
        return DEFAULT_BUDGET
    if name.startswith("mcts:") and name[5:].isdigit() and int(name[5:]) >= 1:
        return int(name[5:])
    return None
