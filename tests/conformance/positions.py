"""The fixed positions of the conformance tests: the shipped scenarios' games (compiled
once) and positions built with `catandsl.position` (any hex's name of a site will do:
sites.py), with the set-ups several tests share (points to win, a wagon, neutral seats'
pieces). Playing them: play.py."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import catandsl
from catandsl.engine import actions as A
from catandsl.engine.position import Position
from tests.conformance.play import act
from tests.conformance.sites import side

ROOT = Path(__file__).resolve().parents[2]

BASE = "scenarios/base.catan"
NEW_SHORES = "scenarios/seafarers/heading_for_new_shores.catan"
FOUR_ISLANDS = "scenarios/seafarers/four_islands.catan"
CLOTH = "scenarios/seafarers/cloth_for_catan.catan"
TB = "scenarios/traders_barbarians/traders_and_barbarians.catan"


@cache
def scenario(path: str):
    return catandsl.load(ROOT / path)


def game(path: str = BASE, players: int = 4, seed: int = 1, **options: str):
    """A game of a shipped scenario, compiled once per (path, players, seed, options)."""
    return _game(path, players, seed, tuple(sorted(options.items())))


@cache
def _game(path: str, players: int, seed: int, options: tuple[tuple[str, str], ...]):
    return catandsl.new_game(scenario(path), players, dict(options), seed)


class Named(Position):
    """A position builder that takes any hex's name of a site: `(q, r, "NE")` for the
    intersection at a hex's upper right corner too, not only the name the board keeps."""

    def location(self, kind: str, at) -> int:
        b = self.game.board
        if isinstance(at, tuple) and len(at) == 3 and kind != "hex":
            look = b.intersection_id if kind == "intersection" else b.path_id
            return look(*at)
        return super().location(kind, at)


def position(g) -> Named:
    """Turn 1, seat 0 about to roll, nothing on the board, empty hands; the neutral
    pieces where the map starts them."""
    return Named(g)


def main(pos: Named, seat: int = 0) -> Named:
    """The seat's turn, past the dice: trading and building."""
    return pos.turn(seat, rolled=True)


# ---- victory ------------------------------------------------------------------------------------


def spread_corners(g, n: int) -> list[int]:
    """n intersections where settlements may stand, none next to another, none on a harbor
    (where a building may earn more than its own points)."""
    b = g.board
    out: list[int] = []
    for c in g.pieces[g.piece_index["settlement"]].allowed:
        if b.corner_harbor[c] < 0 and all(c != x and c not in b.corner_neighbours[x] for x in out):
            out.append(c)
            if len(out) == n:
                return out
    raise AssertionError(f"no {n} spread intersections")


def with_points(pos, seat: int, points: int):
    """Give the seat `points` victory points in cities (2 each) and settlements (1)."""
    g = pos.game
    cities = min(points // 2, g.pieces[g.piece_index["city"]].limit)
    spots = spread_corners(g, cities + points - 2 * cities)
    for k, c in enumerate(spots):
        pos.place(seat, "city" if k < cities else "settlement", c)
    return pos


def wins_at(g, target: int) -> None:
    """Seat 0 wins in its turn on reaching `target` points (here by buying a Victory Point
    card), and not a point earlier."""
    for before, over in ((target - 2, False), (target - 1, True)):
        pos = with_points(position(g), 0, before).hand(0, ore=1, wool=1, grain=1)
        s = main(pos).state()
        act(s, A.BuyCard("development"), A.Draw("development", "victory_point"))
        assert s.points(0) == before + 1 and s.is_terminal() == over
        assert s.winner == (0 if over else -1)


# ---- Traders & Barbarians ---------------------------------------------------------------------------

# Where a wagon's load in a test comes from: a stack other than the castle's, whose draws
# some tests count.
SOURCE = {"glass": 2, "marble": 1, "sand": 1, "tools": 2}


def wagon(g, at, level: int = 1, gold: int = 5, seat: int = 0, **goods: int) -> Named:
    """Seat 0's turn after the roll (both rolls with two players); each player 5 gold and
    level 1 as the set-up leaves them; the seat's wagon on `at` with its level, gold and
    load (taken from a stack)."""
    pos = position(g)
    for p in range(g.num_players):
        pos.tokens(p, gold=5, level=1)
    now = pos.state()
    stock, supply = now.token_stock, now.token_supply
    for good, n in goods.items():
        stock[SOURCE[good]][g.token_index[good]] -= n
        supply[g.token_index[good]] += n
    pos.edit(token_stock=stock, token_supply=supply)
    return main(pos.place(seat, "wagon", at).tokens(seat, gold=gold, level=level, **goods))


def seat_piece(pos: Named, seat: int, piece: str, at) -> Named:
    """A piece of a neutral seat, put down as it stands (the builder's `place` takes the
    players' seats only)."""
    g = pos.game
    s = pos.state()
    pi = g.piece_index[piece]
    k = pos.location(g.pieces[pi].site, at)
    placed = s.placed
    placed[seat][pi] += 1
    if g.pieces[pi].site == "intersection":
        s.corner_owner[k], s.corner_piece[k] = seat, pi
        return pos.edit(corner_owner=s.corner_owner, corner_piece=s.corner_piece, placed=placed)
    s.path_owner[k], s.path_piece[k] = seat, pi
    return pos.edit(path_owner=s.path_owner, path_piece=s.path_piece, placed=placed)


def step(s, *paths) -> None:
    """The wagon on the first path steps along the others."""
    from catandsl.rules.travel import Travel

    g = s.game
    ids = [side(g, *p) if isinstance(p, tuple) else p for p in paths]
    for a, b in zip(ids, ids[1:]):
        act(s, Travel("wagon", a, b))


def left(s, seat: int = 0) -> int:
    """The moving points the seat's wagon has left this turn (0 once it stopped)."""
    from catandsl.rules.travel import travel_points

    return travel_points(s, seat, "wagon")
