"""`catandsl balance`: how a map shares out its production, and with `--simulate` how
often each seat wins.

- Pips (the ways two dice roll a number, of 36) per resource and per number, the mean
  over `samples` deals of a shuffled map.
- The strongest intersections of the deal `seed` lays (the board `play --seed` uses).
- A greedy snake draft: the set-up's rounds in their order (forward, backward), each
  placement on the free intersection with the most pips, under the piece's distance
  rule; what each seat collects is its expected production, in pips.
- With games: wins by seat in turn order (seat 1 placed first) with Wilson 95%
  intervals, and a chi-square goodness-of-fit test of the wins against equal shares.
  The verdict, at the ALPHA level, follows the test: "unfair" when p < ALPHA;
  "inconclusive" when p < WEAK only (some evidence, not enough at ALPHA); else "no
  seat advantage found" (which is not proof of fairness: few games find only large
  differences). It holds for the bots that played (`--bots`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from catandsl.board import geometry as geo
from catandsl.diagnostics import Span
from catandsl.ir.ruleset import Ruleset
from catandsl.lint.maps import MapView, pips, placements

ALPHA = 0.01  # the fairness test's significance level
WEAK = 0.05  # below this but not ALPHA, the verdict is inconclusive
Z95 = 1.959964


@dataclass
class Balance:
    """How a map shares out its production: pips, the strongest spots, the draft and, with games, wins by seat."""

    title: str
    players: int
    seed: int
    deals: int  # deals measured (1 for a fixed map)
    resource_pips: dict[str, float]
    number_pips: dict[int, float]  # pips a number's tokens hold, mean over deals
    strongest: list[tuple[geo.Intersection, int, tuple[int, ...]]]  # on the `seed` deal
    draft: list[float]  # mean pips each seat's set-up collects, seat 1 first
    heat: dict[geo.Intersection, int] = field(default_factory=dict)  # pips per intersection, `seed` deal
    view: MapView | None = None  # the `seed` deal, for the picture
    games: dict | None = None  # the simulation's figures, when run

    def to_json(self) -> dict:
        return {
            "scenario": self.title, "players": self.players, "seed": self.seed, "deals": self.deals,
            "resource_pips": {r: round(v, 2) for r, v in self.resource_pips.items()},
            "number_pips": {str(n): round(v, 2) for n, v in self.number_pips.items()},
            "strongest": [{"intersection": list(x), "pips": p, "numbers": list(ns)} for x, p, ns in self.strongest],
            "draft": [round(v, 2) for v in self.draft],
            "games": self.games,
        }


def measure(rs: Ruleset, seed: int, samples: int, span: Span) -> Balance:
    from catandsl.board.instantiate import deal

    per_resource: dict[str, float] = {}
    per_number: dict[int, float] = {}
    draft = [0.0] * rs.players
    first = deal(rs, seed)
    view0 = MapView(rs, first, span)
    deals = 0
    for k in range(samples):
        d = first if k == 0 else deal(rs, seed + k)
        if k == 1 and d.fixed(first):
            break  # a fixed map: every deal is the first
        view = view0 if k == 0 else MapView(rs, d, span)
        deals += 1
        for r, p in view.resource_pips().items():
            per_resource[r] = per_resource.get(r, 0) + p
        for h in view.hexes:
            n = view.number(h)
            t = view.terrain(h)
            if n is not None and t is not None and not t.water:
                per_number[n] = per_number.get(n, 0) + pips(n)
        for seat, p in enumerate(snake_draft(view, rs)):
            draft[seat] += p
    heat = {x: view0.corner_pips(x) for x in view0.intersections()}
    ranked = sorted(heat, key=lambda x: (-heat[x], geo.intersection_key(x)))[:5]
    strongest = [(x, heat[x], tuple(sorted(n for h in geo.intersection_hexes(x)
                                           if (n := view0.number(h)) is not None))) for x in ranked]
    return Balance(rs.title, rs.players, seed, deals,
                   {r: v / deals for r, v in per_resource.items()},
                   {n: per_number[n] / deals for n in sorted(per_number)},
                   strongest, [v / deals for v in draft], heat, view0)


def snake_draft(view: MapView, rs: Ruleset) -> list[int]:
    """Pips each seat's set-up placements touch when every placement takes the free
    intersection with the most pips (ties: geometric order)."""
    each, piece = placements(rs)
    out = [0] * rs.players
    if not each or piece is None or rs.setup is None:
        return out
    pips = {x: view.corner_pips(x) for x in view.intersections()}
    free = sorted(pips, key=lambda x: (-pips[x], geo.intersection_key(x)))
    blocked: set[geo.Intersection] = set()
    reach = max(0, piece.distance - 1)
    for rnd in rs.setup.rounds:
        order = list(range(rs.players))
        if rnd.order == "backward":
            order.reverse()
        placing = sum(1 for s in rnd.steps if s.action == "place" and all(
            rs.pieces[p].site == "intersection" and not rs.pieces[p].neutral for p in s.pieces if p in rs.pieces))
        for seat in order:
            for _ in range(placing):
                spot = next((x for x in free if x not in blocked), None)
                if spot is None:
                    break
                out[seat] += pips[spot]
                near, frontier = {spot}, [spot]
                for _ in range(reach):
                    frontier = [n for f in frontier for n in geo.intersection_neighbours(f) if n not in near]
                    near.update(frontier)
                blocked |= near
    return out


# ---- the games -----------------------------------------------------------------------


def wilson(wins: int, games: int) -> tuple[float, float]:
    """The Wilson score interval (95%) of a win rate."""
    if games == 0:
        return (0.0, 1.0)
    p = wins / games
    denom = 1 + Z95 ** 2 / games
    centre = (p + Z95 ** 2 / (2 * games)) / denom
    half = Z95 * math.sqrt(p * (1 - p) / games + Z95 ** 2 / (4 * games ** 2)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def chi_square_sf(x: float, df: int) -> float:
    """P(X >= x) for a chi-square variable of `df` degrees of freedom: the regularized
    upper gamma Q(df/2, x/2), from Q(1/2) = erfc and Q(1) = exp by the recurrence
    Q(a + 1, y) = Q(a, y) + y^a e^-y / Γ(a + 1)."""
    if df < 1:
        return 1.0
    y = x / 2
    if df % 2:
        a, q = 0.5, math.erfc(math.sqrt(y))
    else:
        a, q = 1.0, math.exp(-y)
    while a < df / 2:
        q += math.exp(a * math.log(y) - y - math.lgamma(a + 1)) if y > 0 else 0.0
        a += 1
    return min(1.0, max(0.0, q))


def verdict(wins_by_seat: list[int]) -> dict:
    """Win rates with intervals, and the chi-square test of equal shares among the
    games someone won."""
    decided = sum(wins_by_seat)
    seats = len(wins_by_seat)
    expected = decided / seats if seats else 0
    stat = sum((w - expected) ** 2 / expected for w in wins_by_seat) if expected else 0.0
    p = chi_square_sf(stat, seats - 1) if expected else 1.0
    return {
        "decided": decided,
        "wins": wins_by_seat,
        "win_rate": [round(w / decided, 4) if decided else 0.0 for w in wins_by_seat],
        "interval": [[round(v, 4) for v in wilson(w, decided)] for w in wins_by_seat],
        "test": f"chi-square goodness of fit against equal shares, {seats - 1} degrees of freedom",
        "chi_square": round(stat, 3),
        "p_value": float(f"{p:.3g}"),  # three significant figures: a tiny p stays readable
        "alpha": ALPHA,
        "verdict": ("unfair" if decided and p < ALPHA else "inconclusive" if decided and p < WEAK
                    else "no seat advantage found"),
    }


def wins_in_turn_order(results, players: int) -> list[int]:
    """Wins by seat in turn order: seat 1 is whoever placed first in that game."""
    wins = [0] * players
    for r in results:
        if r.error is None and r.winner is not None and r.start_player >= 0:
            wins[(r.winner - r.start_player) % players] += 1
    return wins
