"""A position's worth to each seat, read from what the scenario declares: the leaf value
of the search bot (players/mcts.py).

Nothing here knows a scenario. Every term comes from the compiled game:

- **points**: `state.points(p)`: pieces' points, cards, awards, special victory points,
  tokens worth points, project stages;
- **production**: the resources the seat's buildings earn per roll, from the board's
  numbers and the dice's (or roll cards') odds, each piece kind as much as it `produces`,
  hexes under a blocking piece left out, each resource weighted by how scarce the board
  makes it; worth more early than late (what a card earns is spent over the turns left);
- **room to grow**: the best free building spots the seat's network reaches now or in a
  few steps along paths its path pieces may take (roads over land, ships over sea), each
  worth what it would produce, less for every step;
- **the hand**: each card a little, and how near the hand is to each thing it may buy
  (a piece, a card of a deck, a declared action), counting what the bank and harbors
  would give for the rest; cards past the limit of a `discard_half(N)` rule lose worth;
- **awards**: a share of an award's points by how near the seat is to taking it (its
  measure against the holder's);
- **`victory ... where` conditions**: partly met conditions count (each `and` part met,
  each `>=` by how far it has come);
- **cards and tokens held**: a card still to play; tokens (those worth points by the
  way to their next point, as the points scored count above);
- **travelling pieces**: how near each is to a path where it stops (`stop where`).

`Evaluator(game).values(state)` gives every seat's value; `utility(values, me)` is
what the search maximizes: the seat's own value against the strongest opponent's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from catandsl.rules import costs, network, scoring
from catandsl.rules.base import location
from catandsl.rules.custom import CustomLookups
from catandsl.rules.play import NO_ANSWERS
from catandsl.rules.sites import SiteLookups
from catandsl.rules.trade import NO_RATE, TradeLookups, trade_rates

if TYPE_CHECKING:
    from catandsl.engine.state import State
    from catandsl.rules.play import Game, Traveller

WIN = 100.0  # a won game, in points
CARD = 0.06  # a resource card in hand
EARNED = 0.22  # a card earned in the rounds to come, in points (about five make one)
REACHED = 0.12  # the same, for a spot reached (still to build: about half)
DIVERSE = 0.4  # earning a resource at all (SOME per roll), early in the game
SOME = 0.12  # per roll: a hex of 4 or 10
DEV_CARD = 0.35  # a card still to play
TOKEN = 0.08  # a token that is worth no points itself
NEAR = 0.45  # the hand's nearness to the best thing it may buy, at no distance
STEP = 0.55  # the same, for each card still missing
TRADED = 0.6  # a missing card the hand's spare cards would buy from the bank counts as this much missing
GROWTH = (1.0, 0.5, 0.25, 0.12)  # a reachable spot's worth, by the paths still to build
SPOTS = 2  # the best spots counted
AWARD_SHARE = 0.5  # an award not held: this share of its points, halved per step still to go
OPPONENT = 0.5  # how much the strongest opponent's value counts against the seat's
MAX_TRAVEL_STEPS = 12


class Evaluator:
    """The static tables the value reads, for one game (its board as dealt or changed)."""

    def __init__(self, game: Game):
        self.game = g = game
        b = g.board
        self.n = g.num_players
        self.R = len(g.resources)
        odds = [0.0] * 13
        for total, pr in g.dice_totals:
            if 0 <= total < 13:
                odds[total] += pr
        self.rolls_per_round = max(1, g.num_players) * max(1, g.dice_rolls)
        # per hex: (resource or -1 for a resource of the owner's choice, odds per roll)
        self.hex_income: list[tuple[int, float] | None] = []
        for h in range(len(b.hexes)):
            number = b.hex_number[h]
            pr = odds[number] if 0 <= number < 13 else 0.0
            r = g.hex_resource[h]
            if pr <= 0 or (r < 0 and not g.hex_choice[h]):
                self.hex_income.append(None)
            else:
                self.hex_income.append((r, pr))
        supply = [0.0] * self.R
        for inc in self.hex_income:
            if inc is not None and inc[0] >= 0:
                supply[inc[0]] += inc[1]
        self.targets = self._targets()
        # what the things a hand may buy ask of each resource, by their worth
        demand = [0.0] * self.R
        for cost, worth, *_ in self.targets:
            for r, n in enumerate(cost):
                demand[r] += worth * n / sum(cost)
        ratio = [d / x if x > 0 else 0.0 for d, x in zip(demand, supply)]
        known = [x for x in ratio if x > 0]
        mean = sum(known) / len(known) if known else 1.0
        # a resource in demand and scarce on the board is worth more (0.6..1.6 of the
        # average); one the board never yields is worth the most
        self.weight = [min(1.6, max(0.6, (x / mean) ** 0.35)) if x > 0 else 1.6 for x in ratio]
        self.best_weight = max(self.weight) if self.weight else 1.0
        # what each intersection would earn a producing piece, per roll, weighted (a
        # resource of the owner's choice as the scarcest)
        self.corner_worth = [sum(self.weight[inc[0]] * inc[1] if inc[0] >= 0 else self.best_weight * inc[1]
                                 for inc in (self.hex_income[h] for h in b.corner_hexes[c]) if inc is not None)
                             for c in range(len(b.intersections))]
        self.produces = [p.produces for p in g.pieces]
        self.blocking_slots = tuple(u for pi in g.blocking for u in g.neutral_slots[pi])
        # the spot a network grows to: the cheapest point-earning, producing piece on an
        # intersection that replaces nothing (a settlement)
        spot = [p for p in g.pieces if p.site == "intersection" and not p.neutral and p.upgrades < 0
                and p.points > 0]
        spot.sort(key=lambda p: (sum(costs.nominal(p.cost, p.varying)), p.index))
        self.spot_piece = spot[0] if spot else None
        self.spot_distance = self.spot_piece.distance if self.spot_piece is not None else 2
        # the paths a player's path piece may ever take
        paths: set[int] = set()
        for p in g.pieces:
            if p.site == "path" and not p.neutral and p.travel is None and (any(p.cost) or p.varying):
                paths |= p.allowed_set
        self.growth_paths = frozenset(paths)
        self.discard_limit = _discard_limit(g)
        self.p_seven = odds[7] if len(odds) > 7 else 0.0
        tables = g.lookups(SiteLookups)
        self.token_points = tables.token_points  # per token: (points, per)
        self.card_worth = [0.0 if c.points else DEV_CARD for c in g.cards]
        self.awards = [(k, a, g.interp.program(a.measure, a.source).run) for k, a in enumerate(g.awards)]
        self.victories = [(v, v.condition) for v in g.victories]
        self.trades = g.lookups(TradeLookups)
        # (piece kind, seat, stops just visited) -> path -> steps to a stop not just visited
        self.stops: dict[tuple, dict[int, int]] = {}
        self._stop_paths: dict[tuple[int, int], list[int]] = {}
        # (piece kind, seat) -> the ends of the stops it reached last (the player keeps them)
        self.visited: dict[tuple[int, int], list[frozenset[int]]] = {}
        self.rounds = 12.0

    def start(self, root: State, me: int) -> None:
        """Fix what the value reads of the game's progress for one decision: the rounds
        still to come, by how near the leader is to victory (a card earned now is spent
        over them), as seat `me` sees the points. Fixed for the search, so that points
        scored in it never make production worth less."""
        lead = max(scoring.points(root, p) if p == me else scoring.public_points(root, p) for p in range(self.n))
        self.rounds = min(12.0, max(2.0, 1.5 * (self.game.victory - lead)))

    def _targets(self) -> list[tuple[tuple[int, ...], float, str, int, bool]]:
        """What a hand may buy: (cost, worth, what: piece, deck or action, its index,
        whether its cost varies). A cost that varies is read for the hand in play
        (`costs.cost_of`); here it is its fixed part and one of each resource it counts."""
        g = self.game
        out: list[tuple[tuple[int, ...], float, str, int, bool]] = []
        for p in g.pieces:
            cost = costs.nominal(p.cost, p.varying)
            if p.neutral or not any(cost) or p.travel is not None:
                continue
            worth = p.points + 0.5 * p.produces if p.points or p.produces else 0.3
            out.append((cost, worth, "piece", p.index, p.varying is not None))
        varying = g.lookups(costs.CostLookups)
        for k, fixed in enumerate(g.deck_cost):
            cost = costs.nominal(fixed, varying.decks[k])
            if any(cost):
                out.append((cost, 0.6, "deck", k, varying.decks[k] is not None))
        for k, fixed in enumerate(g.lookups(CustomLookups).costs):
            cost = costs.nominal(fixed, varying.actions[k])
            if any(cost):
                out.append((cost, 0.4, "action", k, varying.actions[k] is not None))
        return out

    # ---- the value -----------------------------------------------------------------

    def values(self, s: State) -> list[float]:
        """Each seat's value, in victory points (a won game is WIN, a lost one -WIN)."""
        g = self.game
        if s.stage == "over":
            winners = [s.winner] if s.winner >= 0 else s.winners
            return [WIN if p in winners else -WIN if winners else 0.0 for p in range(self.n)]
        scores = [scoring.points(s, p) for p in range(self.n)]
        rounds = self.rounds
        income = self._income(s)
        net = network.of(s)
        out = []
        for p in range(self.n):
            v = float(scores[p])
            inc = income[p]
            v += sum(w * x for w, x in zip(self.weight, inc)) * self.rolls_per_round * rounds * EARNED
            # every resource earned at all: a hand that never sees one waits on the bank
            v += DIVERSE * rounds / 12 * sum(w * min(x, SOME) for w, x in zip(self.weight, inc)) / SOME
            spots = self._spots(s, p, net)
            v += sum(spots) * self.rolls_per_round * rounds * REACHED
            v += self._hand(s, p, bool(spots))
            held = s.cards[p]
            v += sum(n * w for n, w in zip(held, self.card_worth) if n)
            if g.token_names:  # (points scored already count above: only the way to the next)
                v += sum((pts * (n % per) / per if pts else TOKEN * n)
                         for n, (pts, per) in zip(s.tokens_held[p], self.token_points) if n)
            out.append(v)
        if self.awards:
            self._award_progress(s, out)
        if self.victories:
            for p in range(self.n):
                out[p] += self._victory_progress(s, p)
        if s.travellers:
            for e in s.travellers:
                if e.player < self.n:
                    out[e.player] += self._travel(s, e)
        return out

    def utility(self, values: list[float], me: int) -> float:
        """The seat's value against the strongest opponent's."""
        others = [v for p, v in enumerate(values) if p != me]
        return values[me] - OPPONENT * max(others) if others else values[me]

    # ---- the terms ---------------------------------------------------------------------

    def _income(self, s: State) -> list[list[float]]:
        """Per seat, per resource: what its buildings earn per roll (a resource of the
        owner's choice counts as the scarcest)."""
        g = self.game
        b = g.board
        out = [[0.0] * self.R for _ in range(self.n)]
        blocked = {s.neutral_at[u] for u in self.blocking_slots}
        inc_of = self.hex_income
        best = max(range(self.R), key=lambda r: self.weight[r]) if self.R else 0
        for c, o in enumerate(s.corner_owner):
            if o < 0 or o >= self.n:
                continue
            k = self.produces[s.corner_piece[c]]
            if not k:
                continue
            row = out[o]
            for h in b.corner_hexes[c]:
                inc = inc_of[h]
                if inc is None or h in blocked:
                    continue
                r = inc[0] if inc[0] >= 0 else best
                row[r] += k * inc[1]
        return out

    def _free_spot(self, s: State, c: int) -> bool:
        P = self.spot_piece
        if P is None or s.corner_owner[c] != -1 or c not in P.allowed_set:
            return False
        if self.spot_distance >= 2:
            own = s.corner_owner
            return all(own[m] == -1 for m in self.game.board.corner_neighbours[c])
        return True

    def _spots(self, s: State, p: int, net) -> list[float]:
        """The worth (income per roll, weighted) of the best free spots p's network reaches,
        each discounted by the paths still to build to it (none in the set-up, where
        spots are taken without a network)."""
        P = self.spot_piece
        if P is None or s.stage == "setup" or s.placed[p][P.index] >= P.limit:
            return []
        b = self.game.board
        owner, powner = s.corner_owner, s.path_owner
        dist: dict[int, int] = {}
        for c in net.corners[p]:
            dist[c] = 0
        for k in net.paths[p]:
            for c in b.path_ends[k]:
                dist[c] = 0
        # breadth first, a path of one's own costing no step (0-1 search, steps in order)
        layers: list[list[int]] = [list(dist)] + [[] for _ in GROWTH[1:]]
        for d, layer in enumerate(layers):
            for c in layer:
                if dist[c] != d or (owner[c] != -1 and owner[c] != p):
                    continue  # reached more cheaply, or an opponent's building: the way stops
                for k in b.corner_paths[c]:
                    o = powner[k]
                    if o == p:
                        step = 0
                    elif o == -1 and k in self.growth_paths:
                        step = 1
                    else:
                        continue
                    e = d + step
                    if e >= len(GROWTH):
                        continue
                    for m in b.path_ends[k]:
                        if e < dist.get(m, len(GROWTH)):
                            dist[m] = e
                            layers[e].append(m)
        worth = self.corner_worth
        found = sorted((worth[c] * GROWTH[d] for c, d in dist.items() if self._free_spot(s, c)), reverse=True)
        return found[:SPOTS]

    def _hand(self, s: State, p: int, room: bool) -> float:
        hand = s.hands[p]
        size = sum(hand)
        v = CARD * size
        limit = self.discard_limit
        if limit and size > limit:
            v -= self.p_seven * (size // 2) * 0.3 * (self.n - 1)
        rates = trade_rates(s, p, self.trades) if self.trades.least_rate < NO_RATE else None
        best = 0.0
        for cost, worth, what, k, varies in self.targets:
            if varies:
                cost = costs.cost_of(s, p, what, k).cards
            if what == "piece":
                P = self.game.pieces[k]
                if s.placed[p][k] >= P.limit:
                    continue
                if P.upgrades >= 0 and not any(s.placed[p][u] for u in P.upgrades_from):
                    continue  # nothing to replace
                if P is self.spot_piece and not room:
                    continue
            elif what == "deck" and not any(s.deck):
                continue
            missing = 0
            spare = 0
            for r, need in enumerate(cost):
                have = hand[r]
                if have < need:
                    missing += need - have
                elif rates is not None and rates[r] < NO_RATE:
                    spare += (have - need) // rates[r]
            # a card the bank would give counts as part missing: the trade is still to make
            near = worth * STEP ** (max(0, missing - spare) + TRADED * min(missing, spare))
            if near > best:
                best = near
        return v + NEAR * best

    def _award_progress(self, s: State, out: list[float]) -> None:
        none = NO_ANSWERS
        for k, aw, measure in self.awards:
            seats = self.game.num_seats if aw.seats else self.n
            vals = [measure({"player": p}, s, none) for p in range(seats)]
            holder = s.award_holder[k]
            for p in range(self.n):
                if holder == p:
                    continue
                rival = max((v for q, v in enumerate(vals) if q != p), default=0)
                need = max(aw.min, rival + 1) - vals[p]
                if need <= 0:
                    need = 1
                out[p] += aw.points * AWARD_SHARE * 0.5 ** need

    def _victory_progress(self, s: State, p: int) -> float:
        env = {"player": p}
        total = 0.0
        for v, cond in self.victories:
            total += WIN * 0.1 * _progress(self.game, cond, env, s, v.source)
        return total

    def _travel(self, s: State, e: Traveller) -> float:
        d = self._stop_distances(s, e.piece, e.player).get(e.path)
        return 0.0 if d is None else 0.4 * 0.8 ** d

    def stops_of(self, s: State, pi: int, p: int) -> list[int]:
        """The paths where a travelling piece of kind pi stops (`stop where`), judged for
        p where the piece stands now (worked out once per piece kind and seat: a stop is
        a place, as a rule)."""
        key = (pi, p)
        kept = self._stop_paths.get(key)
        if kept is not None:
            return kept
        g = self.game
        P = g.pieces[pi]
        stops: list[int] = []
        if P.travel is not None and P.travel.stop is not None:
            for k in P.allowed:
                env = {"player": p, "from": location("path", k), "at": location("path", k)}
                try:
                    if g.interp.program(P.travel.stop, P.source).run(env, s, NO_ANSWERS):
                        stops.append(k)
                except Exception:  # noqa: BLE001 - a stop that needs more than a place: no guide
                    stops = []
                    break
        self._stop_paths[key] = stops
        return stops

    def _stop_distances(self, s: State, pi: int, p: int) -> dict[int, int]:
        """Steps along the paths the piece may take to the nearest stop it has not just
        been to (`visited`, kept by the player: so it tours the stops, each of which may
        trade something else)."""
        b = self.game.board
        seen = self.visited.get((pi, p), ())
        key = (pi, p, tuple(seen))
        kept = self.stops.get(key)
        if kept is not None:
            return kept
        stops = self.stops_of(s, pi, p)
        fresh = [k for k in stops if not any(set(b.path_ends[k]) & ends for ends in seen)] or stops
        allowed = self.game.pieces[pi].allowed_set
        dist = dict.fromkeys(fresh, 0)
        todo = list(fresh)
        for k in todo:  # breadth first over the paths the piece may stand on
            if dist[k] >= MAX_TRAVEL_STEPS:
                continue
            for c in b.path_ends[k]:
                for x in b.corner_paths[c]:
                    if x not in dist and x in allowed:
                        dist[x] = dist[k] + 1
                        todo.append(x)
        if len(self.stops) > 64:
            self.stops.clear()
        self.stops[key] = dist
        return dist


def _progress(g: Game, e: Any, env: dict, s: State, source) -> float:
    """How far a condition has come, 0..1: 1 when it holds; an `and` by the share of its
    parts that hold; a comparison of numbers (`a >= b`) by how near a comes to b."""
    op = e.op
    if op == "and":
        return sum(_progress(g, x, env, s, source) for x in e.args) / max(1, len(e.args))
    if op == "or":
        return max((_progress(g, x, env, s, source) for x in e.args), default=0.0)
    if op in ("ge", "gt") and len(e.args) == 2:
        a = g.interp.program(e.args[0], source).run(env, s, NO_ANSWERS)
        b = g.interp.program(e.args[1], source).run(env, s, NO_ANSWERS)
        if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool):
            target = b + (1 if op == "gt" else 0)
            return 1.0 if a >= target else max(0.0, a / target) if target > 0 else 0.0
    return 1.0 if g.interp.program(e, source).run(env, s, NO_ANSWERS) else 0.0


def _discard_limit(g: Game) -> int:
    """The hand size past which a rule's `discard_half(N)` takes half: N, or 0 for none."""
    todo = [e for rule in g.ruleset.rules for h in rule.hooks for e in h.effects]
    while todo:
        e = todo.pop()
        todo.extend(e.body)
        todo.extend(e.orelse)
        x = e.expr
        if x is not None and x.op == "call" and x.value == "discard_half" and x.args and x.args[0].op == "num":
            return int(x.args[0].value)  # type: ignore[arg-type]
    return 0
