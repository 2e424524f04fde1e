"""Questions about a state, answered by the rule modules that play the game (routes,
production, placement, movement, scoring), never by a second copy of the rules. Each
takes a State and names (pieces by name); seats are 0-based.

    route_length(state, 0)                     # over all the seat's path pieces
    route_length(state, 0, ["ship"])           # over ships only
    networks(state, 0)                         # separate networks: sorted path ids each
    on_closed_route(state, path_id)            # a path piece on a line between two anchors
    production(state)                          # {roll total: [per seat {resource: n}]}
    legal_places(state, 0, "settlement")       # site ids where the seat may build it now
    points_breakdown(state, 0)                 # {"pieces": {...}, "cards": {...}, ...}
    winners(state)                             # [2]; [0, 2] sharing a victory; [] for none

What a caller passes besides the state is declared `object` and checked here
(ArgumentError): a compiled build refuses a mismatch of a declared type with a TypeError
before a check could run.
"""

from __future__ import annotations

from typing import Any

from catandsl.engine.errors import StateError
from catandsl.engine.state import State
from catandsl.rules import movement, placement, routes, scoring
from catandsl.rules import production as production_rules
from catandsl.rules.base import ArgumentError
from catandsl.rules.islands import special_points
from catandsl.rules.production import Choosing
from catandsl.rules.sites import token_points


def _pieces(s: State, names: object, site: str) -> tuple[int, ...]:
    g = s.game
    if names is None:
        return tuple(p.index for p in g.pieces if p.site == site and not p.neutral)
    if not isinstance(names, list):
        raise ArgumentError(f"pieces are a list of piece names, not {names!r}")
    out = []
    for n in names:
        if not isinstance(n, str) or n not in g.piece_index:
            raise ArgumentError(f"no piece {n!r} in this game")
        out.append(g.piece_index[n])
    return tuple(sorted(out))


def route_length(s: State, player: object, pieces: object = None) -> int:
    """The seat's longest continuous route over these path pieces (all by default), as
    Longest Road and Longest Trade Route measure it."""
    p = s.game.check_seat(player, "route_length")
    return routes.route_length(s, p, _pieces(s, pieces, "path"))


def networks(s: State, player: object, pieces: object = None) -> list[list[int]]:
    """The seat's separate networks of path pieces: pieces joined end to end, where an
    opponent's building cuts the way through (as for routes). Each a sorted list of path
    ids; the list sorted."""
    g = s.game
    player = g.check_seat(player, "networks")
    kinds = set(_pieces(s, pieces, "path"))
    b = g.board
    mine = [k for k, o in enumerate(s.path_owner) if o == player and s.path_piece[k] in kinds]
    mine += [e.path for e in s.travellers if e.player == player and e.piece in kinds]
    own = set(mine)
    seen: set[int] = set()
    out = []
    for start in sorted(own):
        if start in seen:
            continue
        group, stack = [], [start]
        seen.add(start)
        while stack:
            k = stack.pop()
            group.append(k)
            for c in b.path_ends[k]:
                if s.corner_owner[c] not in (-1, player):
                    continue  # an opponent's building: the network stops here
                for x in b.corner_paths[c]:
                    if x in own and x not in seen:
                        seen.add(x)
                        stack.append(x)
        out.append(sorted(group))
    return sorted(out)


def on_closed_route(s: State, path: object) -> bool:
    """Whether the path piece on `path` is on a closed route: a line of its owner's
    pieces through it links two of the owner's buildings (or sites that close routes),
    whatever else branches off the line (movement.on_closed_route)."""
    b = s.game.board
    if not isinstance(path, int) or isinstance(path, bool) or not 0 <= path < len(b.paths) or s.path_owner[path] < 0:
        raise ArgumentError(f"no player's piece on path {path!r}")
    return movement.on_closed_route(s, path)


def production(s: State, totals: object = None) -> dict[int, list[dict[str, int]]]:
    """What each roll total would pay each seat now (blocked hexes left out, the bank's
    shortage ignored): {total: [per seat {resource: count}]}; a terrain of the owner's
    choice (gold) counts under "choice". Runs the game's own production on a copy."""
    g = s.game
    out: dict[int, list[dict[str, int]]] = {}
    possible = [t for t, _ in g.dice_totals]
    if totals is not None and not (isinstance(totals, list) and all(t in possible for t in totals)):
        raise ArgumentError(f"totals are some of the dice totals {possible}, not {totals!r}")
    for t in sorted(set(totals)) if isinstance(totals, list) else possible:
        c = s.clone()
        c.pending = []
        c.hands = [[0] * len(g.resources) for _ in range(g.num_players)]
        c.bank = [10**6] * len(g.resources)  # on a copy: the bank never runs short here
        production_rules.produce(c, t)
        rows: list[dict[str, int]] = [
            {r: n for r, n in zip(g.resources, c.hands[p]) if n} for p in range(g.num_players)]
        for prompt in c.pending:
            if isinstance(prompt, Choosing):
                for p, n in prompt.owed:
                    rows[p]["choice"] = rows[p].get("choice", 0) + n
        out[t] = rows
    return out


def legal_places(s: State, player: object, piece: object, mode: object = "normal") -> list[int]:
    """The site ids where the seat may place this piece now under the placement rules:
    `mode` "normal" (bought in a turn, cost aside), "free" or "setup"."""
    g = s.game
    p = g.check_seat(player, "legal_places")
    if not isinstance(piece, str) or piece not in g.piece_index or g.pieces[g.piece_index[piece]].neutral:
        raise ArgumentError(f"no player's piece {piece!r} in this game")
    if not isinstance(mode, str) or mode not in ("normal", "free", "setup"):
        raise ArgumentError(f"mode is normal, free or setup, not {mode!r}")
    pi = g.piece_index[piece]
    return sorted(g.actions[a].at for a in placement.targets(s, p, pi, mode))


def points_breakdown(s: State, player: object) -> dict[str, Any]:
    """The seat's victory points by source: {"pieces": {name: points}, "cards": {...},
    "awards": {...}, "special": n, "tokens": n, "total": n}; `total` is
    `state.points(player)`."""
    g = s.game
    player = g.check_seat(player, "points_breakdown")
    out: dict[str, Any] = {
        "pieces": {P.name: n * P.points for P, n in zip(g.pieces, s.placed[player]) if n and P.points},
        "cards": {c.name: n * c.points for c, n in zip(g.cards, s.cards[player]) if n and c.points},
        "awards": {a.name: a.points for a, h in zip(g.awards, s.award_holder) if h == player},
        "special": special_points(s, player),
        "tokens": token_points(s, player) if g.token_names else 0,
    }
    out["total"] = scoring.points(s, player)
    parts = sum(out["pieces"].values()) + sum(out["cards"].values()) + sum(out["awards"].values()) + \
        out["special"] + out["tokens"]
    if parts != out["total"]:  # the breakdown misses a source scoring.points counts
        raise StateError(f"points_breakdown: the parts sum to {parts}, not {out['total']}")
    return out


def winners(s: State) -> list[int]:
    """Every seat that won: the winner alone, the seats sharing a victory (`end_game` with
    players equal on every key of the tie-break; `state.winner` is -1 then), or [] when
    nobody did (the game goes on, or it ended at a limit)."""
    return [s.winner] if s.winner >= 0 else list(s.winners)


QUERIES = {f.__name__: f for f in (route_length, networks, on_closed_route, production, legal_places,
                                   points_breakdown, winners)}
