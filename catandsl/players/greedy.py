"""A simple heuristic player: builds for points, settles on high-pip spots, plays a
knight when its production is blocked, otherwise random among the rest. It trades with
the other players toward what it is a card or two short of, and takes up offers that
bring it closer to something (players/trading.py).

On boards with islands (read generically from the board's island tables and the pieces'
tables, nothing scenario-specific): after the set-up it prefers settlement spots on an
island where it has no building yet; it builds movable path pieces (ships) toward the
nearest free settlement spot on such an island (a breadth-first distance over the
intersections), and it never lifts a ship to move it (it ends the turn instead).

A piece it places for another seat (a neutral one, `build_free_for`) goes where it hems
in the players least, itself above all.

A travelling piece (a wagon) heads for the nearest path where its `stop` condition holds
that is neither where it stands nor next to the last two stops it reached (a
breadth-first distance over the paths), so it tours the places it stops at; a stop next
to it is one step away like any other, and one standing on the only stop it can reach
steps off it, to come back onto it. The
scenario's own actions are taken when legal, unless they would spend a token below a
small reserve. Phases go forward, so an action of a later phase (the wagon's move after
trading and building) waits while the current phase offers something worth doing."""

from __future__ import annotations

import random

from catandsl.board.numbers import PIPS as _PIPS
from catandsl.engine import actions as A
from catandsl.players.base import NoLegalAction
from catandsl.players.trading import Trader
from catandsl.rules import costs
from catandsl.rules.base import location
from catandsl.rules.custom import CustomLookups
from catandsl.rules.play import NO_ANSWERS
from catandsl.rules.trade import Composing, Offering

_END_TURN_SCORE = 0.5
_TOKEN_RESERVE = 3


class GreedyPlayer:
    """A bot that takes the action its heuristic scores highest (the module says how)."""

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)
        self._dist: tuple[object, int, list[float]] | None = None
        self._trips: tuple[object, tuple[int, int], tuple[dict[int, float], bool]] | None = None
        # the intersections of the last stops each travelling piece reached, newest
        # last: it heads for a stop elsewhere, so it tours every stop in turn instead of
        # shuttling between the two nearest
        self._visited: dict[int, list[frozenset[int]]] = {}
        self.trader = Trader()

    def _new_island(self, state, c: int, me: int) -> bool:
        """The spot is on an island where `me` has no building (never in the set-up)."""
        b = state.game.board
        isl = set(b.corner_islands[c])
        if not isl or state.stage == "setup" or len(getattr(b, "islands", ())) < 2:
            return False
        return not any(o == me and isl.intersection(b.corner_islands[k])
                       for k, o in enumerate(state.corner_owner))

    def _distances(self, state, me: int) -> list[float]:
        """Per intersection, the steps to the nearest free settlement spot on an island
        without my building (opponents' buildings block the way)."""
        if self._dist is not None and self._dist[0] is state and self._dist[1] == me:
            return self._dist[2]
        b = state.game.board
        owner = state.corner_owner
        inf = float("inf")
        dist = [inf] * len(owner)
        todo = []
        for c, o in enumerate(owner):
            if o == -1 and b.corner_islands[c] and all(owner[m] == -1 for m in b.corner_neighbours[c]) \
                    and self._new_island(state, c, me):
                dist[c] = 0
                todo.append(c)
        for c in todo:  # breadth first: todo grows while it is read
            for m in b.corner_neighbours[c]:
                if dist[m] == inf and owner[m] in (-1, me):
                    dist[m] = dist[c] + 1
                    todo.append(m)
        self._dist = (state, me, dist)
        return dist

    def _ship_score(self, state, at: int, me: int) -> float:
        d = min(self._distances(state, me)[c] for c in state.game.board.path_ends[at])
        return 2 if d == float("inf") else 4 + 4 / (1 + d)

    def _travel_score(self, state, a: A.Travel, me: int) -> float:
        """A step closer to the nearest stop away from here scores high, others low."""
        g = state.game
        P = g.pieces[g.piece_index[a.piece]]
        dist, on_stop = self._travel_distances(state, P, a.at, me)
        here, there = dist.get(a.at, float("inf")), dist.get(a.to, float("inf"))
        if there < here:
            return 3 + 1 / (1 + there) + 0.1 * self.rng.random()  # after building (5+): it ends the trading
        if on_stop and here == float("inf"):
            # no other stop within reach: a step off is worth more than staying, since
            # the step back onto this stop is then a trip of its own
            return _END_TURN_SCORE + 0.1 + 0.1 * self.rng.random()
        return 0.2 * self.rng.random()

    def _travel_distances(self, state, P, at: int, me: int) -> tuple[dict[int, float], bool]:
        """Per path, the steps to the nearest stop the piece heads for from `at`; and
        whether `at` is a stop itself."""
        key = (P.index, at)
        if self._trips is not None and self._trips[0] is state and self._trips[1] == key:
            return self._trips[2]
        g = state.game
        b = g.board
        stops = []
        on_stop = False
        if P.travel.stop is not None:
            for k in P.allowed:
                env = {"player": me, "from": location("path", k), "at": location("path", k)}
                if g.interp.program(P.travel.stop, P.source).run(env, state, NO_ANSWERS):
                    # where it stands is no trip; a stop next to it is one step away
                    if k == at:
                        on_stop = True
                    else:
                        stops.append(k)
            seen = self._visited.get(P.index, [])
            fresh = [k for k in stops if not any(set(b.path_ends[k]) & ends for ends in seen)]
            stops = fresh or stops
        dist: dict[int, float] = dict.fromkeys(stops, 0)
        todo = list(stops)
        for k in todo:  # breadth first over the paths the piece may stand on
            for c in b.path_ends[k]:
                for x in b.corner_paths[c]:
                    if x not in dist and x in P.allowed_set:
                        dist[x] = dist[k] + 1
                        todo.append(x)
        self._trips = (state, key, (dist, on_stop))
        return dist, on_stop

    def _for_score(self, state, a: A.BuildFor, me: int) -> float:
        """A piece for another seat: away from the players' pieces, mine most of all (a
        neutral network that hems players in stalls the game for both)."""
        g = state.game
        b = g.board
        P = g.pieces[g.piece_index[a.piece]]
        ends = (a.at,) if P.site == "intersection" else b.path_ends[a.at]
        near = set(ends) | {m for c in ends for m in b.corner_neighbours[c]}
        score = 0.0
        for c in near:
            owners = [state.corner_owner[c]] + [state.path_owner[x] for x in b.corner_paths[c]]
            for o in owners:
                if o == me:
                    score -= 2
                elif 0 <= o < g.num_players:
                    score -= 0.5
        return score + 0.1 * self.rng.random()

    def _score(self, state, a: A.Action, me: int) -> float:
        g = state.game
        b = g.board
        if isinstance(a, A.Build):
            P = g.pieces[g.piece_index[a.piece]]
            if P.site == "intersection":
                pips = sum(_PIPS[b.hex_number[h]] for h in b.corner_hexes[a.at]
                           if g.hex_resource[h] >= 0)
                bonus = 30 if P.points and self._new_island(state, a.at, me) else 0
                return 100 * P.points + 10 * P.produces + pips + bonus
            if getattr(P, "movement", None) is not None:  # a ship: toward a new island
                return self._ship_score(state, a.at, me) + 0.1 * self.rng.random()
            return 5 + self.rng.random()
        if isinstance(a, A.BuildFor):
            return self._for_score(state, a, me)
        if isinstance(a, A.PickUp):
            return -1  # never moves a ship: ends the turn instead
        if isinstance(a, A.PutDown):  # only after a forced lift: the best spot
            return self._ship_score(state, a.at, me)
        if isinstance(a, A.BuyCard):
            return 8
        if isinstance(a, A.BuildStage):  # a project's stage: toward its points or its victory
            return 9 + self.rng.random()
        if isinstance(a, A.PlayCard):
            blocked = any(
                state.corner_owner[c] == me
                for pi in g.blocking for u in g.neutral_slots[pi] if state.neutral_at[u] >= 0
                for c in b.hex_corners[state.neutral_at[u]]
            ) if g.blocking else False
            return 50 if blocked else 3
        if isinstance(a, A.Move) and g.pieces[g.piece_index[a.piece]].site == "path":
            # a piece on a path: onto an opponent's road, off my own
            o = state.path_owner[a.at]
            return (-5 if o == me else 2 if o >= 0 else 0) + (1 if a.src >= 0 and
                                                             state.path_owner[a.src] == me else 0)
        if isinstance(a, A.Move):
            # the hex that hurts opponents most and me least
            score = 0
            for c in b.hex_corners[a.at]:
                o = state.corner_owner[c]
                if o >= 0:
                    score += -5 if o == me else 2
            return score + _PIPS[b.hex_number[a.at]] * 0.1
        if isinstance(a, A.Travel):
            return self._travel_score(state, a, me)
        if isinstance(a, A.ChooseResource) and _giving(state):
            return state.hands[me][g.res_index[a.resource]] + 0.1 * self.rng.random()  # the one I hold most of
        if isinstance(a, A.Damage):
            # a road with few of its owner's pieces beside it hurts least: pick that one
            # for myself, the opposite for another player
            owner = state.path_owner[a.at]
            beside = sum(1 for c in b.path_ends[a.at] for x in b.corner_paths[c]
                         if x != a.at and state.path_owner[x] == owner)
            beside += sum(1 for c in b.path_ends[a.at] if state.corner_owner[c] == owner)
            return (-beside if owner == me else beside) + 0.1 * self.rng.random()
        if isinstance(a, A.RemoveFromIntersection | A.RemoveFromPath):
            # a rival's most valuable piece, the least valuable of my own
            on_corner = isinstance(a, A.RemoveFromIntersection)
            owner = (state.corner_owner if on_corner else state.path_owner)[a.at]
            worth = g.pieces[(state.corner_piece if on_corner else state.path_piece)[a.at]].points + on_corner
            return (-worth if owner == me else worth) + 0.1 * self.rng.random()
        if isinstance(a, A.TakeAction):
            # keep a few of each token an action costs (gold pays tolls on the way)
            k = g.lookups(CustomLookups).index[a.action]
            cost = costs.cost_of(state, me, "action", k).tokens
            if any(c and state.tokens_held[me][t] < c + _TOKEN_RESERVE for t, c in enumerate(cost)):
                return 0.3 * self.rng.random()
            return 6 + self.rng.random()
        if isinstance(a, A.BankTrade):
            return 1 + self.rng.random()
        if isinstance(a, (A.EndTurn, A.Pass)):  # done with the turn, or with a phase between turns
            return _END_TURN_SCORE
        if isinstance(a, A.NewOffer):  # an offer toward what it lacks, before the bank
            return 7 + self.rng.random() if self.trader.plan(state, me) is not None else -1
        return self.rng.random()

    def choose(self, state) -> int:
        self._dist = self._trips = None  # the state object lives on, changed: cache per call
        g = state.game
        legal = state.legal_actions()
        if len(legal) < 2:  # one way on (the dice, as a rule): nothing to score
            if not legal:
                raise NoLegalAction()
            self._remember_stop(state, g.actions[legal[0]])
            return legal[0]
        me = state.current_player()
        if state.pending and isinstance(state.pending[-1], (Composing, Offering)):
            return self.trader.choose(state, me, legal)
        scored = [(self._score(state, g.actions[aid], me), aid) for aid in legal]
        if state.stage == "turn" and not state.pending:
            # phases go forward, never back: an action of a later phase (the wagon's
            # move after trading and building) waits while the current phase still
            # offers something worth more than ending the turn
            worth = _END_TURN_SCORE
            phase = [self._phase(state, g.actions[aid]) for aid in legal]
            first = min((ph for ph, (sc, _) in zip(phase, scored) if sc > worth), default=None)
            if first is not None:
                scored = [x for ph, x in zip(phase, scored) if ph == first and x[0] > worth]
        best, best_score = scored[0][1], scored[0][0]
        for sc, aid in scored[1:]:
            if sc > best_score:
                best, best_score = aid, sc
        self._remember_stop(state, g.actions[best])
        return best

    def _remember_stop(self, state, act: A.Action) -> None:
        """A step onto a stop: remember where, so the next trip goes elsewhere."""
        if not isinstance(act, A.Travel):
            return
        g = state.game
        P = g.pieces[g.piece_index[act.piece]]
        env = {"player": state.current_player(), "from": location("path", act.at), "at": location("path", act.to)}
        if P.travel.stop is not None and g.interp.program(P.travel.stop, P.source).run(env, state, NO_ANSWERS):
            seen = self._visited.setdefault(P.index, [])
            seen.append(frozenset(state.game.board.path_ends[act.to]))
            del seen[:-2]

    @staticmethod
    def _phase(state, act: A.Action) -> int:
        g = state.game
        if type(act) not in g.activity_of:
            return state.phase
        return g.phase_for(state.phase, act)


def _giving(state) -> bool:
    """Whether the resource chosen now is a card the player gives away (passed to the
    left, or handed to a player): then the one they hold most of."""
    top = state.top()
    waiting = getattr(top, "waiting", None)
    return getattr(top, "KIND", "") == "pass_left" or bool(waiting and waiting[0] == "choose_from_hand")
