"""What the conformance tests share: the shipped scenarios' games (compiled once), fixed
positions built with `catandsl.position`, sites named by hex and corner, forced dice,
and the few assertions every rule test makes (an action is refused and changes nothing).

Sites are named the way the board names them (catandsl/board/geometry.py): a hex is
`(q, r)`, an intersection one of its six corners (`"N"`, `"NE"`, ... `"NW"`), a path one
of its six sides (`"NE"`, `"E"`, ... `"NW"`); any hex's name of a site will do.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

import catandsl
from catandsl.engine import IllegalAction
from catandsl.engine import actions as A
from catandsl.engine.position import Position

ROOT = Path(__file__).resolve().parents[2]

BASE = "scenarios/base.catan"
NEW_SHORES = "scenarios/seafarers/heading_for_new_shores.catan"
FOUR_ISLANDS = "scenarios/seafarers/four_islands.catan"
CLOTH = "scenarios/seafarers/cloth_for_catan.catan"
TB = "scenarios/traders_barbarians/traders_and_barbarians.catan"

# Landmarks of Heading for New Shores for 4 players (seed 1, harbors shuffled): HOME is a
# coastal intersection of the main island under the sea hexes (1,2) and (2,2); the sea
# path P1 leads north to C1, a corner of the small island's hex (2,1) (a gold field);
# its coast P2 leads on to C2, a corner of both of that island's hexes; MAIN3 are three
# road paths from HOME inland.
HOME, C1, C2 = (1, 3, "N"), (2, 1, "S"), (2, 1, "SE")
P1, P2 = (2, 2, "W"), (2, 1, "SE")
MAIN3 = [(1, 3, "NE"), (2, 3, "W"), (1, 4, "NE")]


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

    def site(self, kind: str, at) -> int:
        b = self.game.board
        if isinstance(at, tuple) and len(at) == 3 and kind != "hex":
            look = b.intersection_id if kind == "intersection" else b.path_id
            return look(*at)
        return super().site(kind, at)


def position(g) -> Named:
    """Turn 1, seat 0 about to roll, nothing on the board, empty hands; the neutral
    pieces where the map starts them."""
    return Named(g)


def main(pos: Named, seat: int = 0) -> Named:
    """The seat's turn, past the dice: trading and building."""
    return pos.turn(seat, rolled=True)


# ---- sites --------------------------------------------------------------------------------


def hexid(g, q: int, r: int) -> int:
    return g.board.hex_id(q, r)


def corner(g, q: int, r: int, name: str) -> int:
    return g.board.intersection_id(q, r, name)


def side(g, q: int, r: int, name: str) -> int:
    return g.board.path_id(q, r, name)


def other_end(g, path: int, end: int) -> int:
    a, b = g.board.path_ends[path]
    return b if a == end else a


def ring(g, q: int, r: int) -> list[int]:
    """The six sides of a hex, clockwise from its upper right."""
    return [side(g, q, r, x) for x in ("NE", "E", "SE", "SW", "W", "NW")]


def line(g, start: int, paths: list[int]) -> list[int]:
    """The intersections along a line of paths from `start`, both ends included."""
    out = [start]
    for k in paths:
        out.append(other_end(g, k, out[-1]))
    return out


def trail(g, start: int, n: int, piece: str = "road", avoid: frozenset[int] = frozenset()) -> list[int]:
    """n paths the piece may stand on, in a line from intersection `start` that never
    comes back to an intersection nor touches one of `avoid` (the first path found at
    each step, so the same board gives the same line)."""
    b = g.board
    allowed = g.pieces[g.piece_index[piece]].allowed_set
    paths: list[int] = []
    seen = [start]
    while len(paths) < n:
        c = seen[-1]
        nxt = next(k for k in b.corner_paths[c] if k in allowed and other_end(g, k, c) not in seen
                   and other_end(g, k, c) not in avoid)
        paths.append(nxt)
        seen.append(other_end(g, nxt, c))
    return paths


def near(g, corners) -> frozenset[int]:
    """The intersections and their neighbours: where another line should not pass."""
    b = g.board
    return frozenset(c for x in corners for c in (x, *b.corner_neighbours[x]))


# ---- acting -------------------------------------------------------------------------------


def act(s, *actions, player: int | None = None) -> None:
    for a in actions:
        s.apply_action(a, player)


def legal(s) -> list:
    return [s.game.actions[a] for a in s.legal_actions()]


def of_kind(s, kind: type) -> list:
    return [a for a in legal(s) if isinstance(a, kind)]


def builds(s, piece: str) -> set[int]:
    """The sites where the player to act may build the piece now."""
    return {a.at for a in of_kind(s, A.Build) if a.piece == piece}


def moves(s, piece: str) -> set[int]:
    return {a.at for a in of_kind(s, A.Move) if a.piece == piece}


def refused(s, action, code: str | None = None) -> str:
    """Apply an action the rules refuse: IllegalAction, with the state unchanged."""
    before = s.serialize()
    with pytest.raises(IllegalAction) as e:
        s.apply_action(action)
    assert s.serialize() == before
    if code is not None:
        assert e.value.code == code
    return e.value.code


def roll(s, total: int) -> None:
    """The dice show `total` (asked for first where a card could be played instead)."""
    if not s.is_chance_node():
        act(s, A.RollDice())
    act(s, A.Roll(total))


def hand(s, seat: int) -> dict[str, int]:
    return dict(zip(s.game.resources, s.hands[seat]))


def cards(s, seat: int) -> int:
    return sum(s.hands[seat])


def held(s, seat: int, token: str) -> int:
    return s.tokens_held[seat][s.game.token_index[token]]


def holder(s, award: str) -> int:
    """The seat holding an award, -1 when it is set aside."""
    return s.award_holder[[a.name for a in s.game.awards].index(award)]


def neutral_sites(s, piece: str) -> list[int]:
    from catandsl.rules.neutral import sites_of

    return sites_of(s, s.game.piece_index[piece])


# ---- victory ------------------------------------------------------------------------------------


def spread_corners(g, n: int, avoid: frozenset[int] = frozenset()) -> list[int]:
    """n intersections where settlements may stand, none next to another or to `avoid`,
    none on a harbor (where a building may earn more than its own points)."""
    b = g.board
    out: list[int] = []
    for c in g.pieces[g.piece_index["settlement"]].allowed:
        if c not in avoid and b.corner_harbor[c] < 0 and all(c != x and c not in b.corner_neighbours[x] for x in out):
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

HUB_AT = {"castle": (0, -2), "quarry": (2, 0), "glassworks": (-2, 2)}
# Where a wagon's load in a test comes from: a stack other than the castle's, whose draws
# some tests count.
SOURCE = {"glass": 2, "marble": 1, "sand": 1, "tools": 2}


def spur(g, hub: str, to: str) -> int:
    """The spur from a trade hex's centre to its corner `to`."""
    return side(g, *HUB_AT[hub], f"C-{to}")


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


def seat_piece(pos: Named, seat: int, piece: str, at) -> Named:
    """A piece of a neutral seat, put down as it stands (the builder's `place` takes the
    players' seats only)."""
    g = pos.game
    s = pos.state()
    pi = g.piece_index[piece]
    k = pos.site(g.pieces[pi].site, at)
    placed = s.placed
    placed[seat][pi] += 1
    if g.pieces[pi].site == "intersection":
        s.corner_owner[k], s.corner_piece[k] = seat, pi
        return pos.edit(corner_owner=s.corner_owner, corner_piece=s.corner_piece, placed=placed)
    s.path_owner[k], s.path_piece[k] = seat, pi
    return pos.edit(path_owner=s.path_owner, path_piece=s.path_piece, placed=placed)
