"""Placing pieces: where a piece may stand (its sites, the distance rule, connections,
upgrades, blocking neutral pieces), the `build` activity (at cost), free placements
(`build_free`, Road Building), and the set-up's placements and `collect last`.

A piece's static sites (`PieceInfo.allowed`: its `where` over the board, inside the
frame) are computed once by the game; here the state decides the rest.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from operator import lt
from typing import Any, ClassVar

from catandsl.rules import costs, damage, network, neutral, sites, travel
from catandsl.rules import words as w
from catandsl.rules.base import (
    Action,
    Activity,
    EngineError,
    IllegalAction,
    Prompt,
    action_source,
    activity,
    all_but,
    ids_on_sites,
    location,
    seats_ok,
)
from catandsl.rules.play import NO_ANSWERS, FreshPaths, Game, PieceInfo, State
from catandsl.rules.registry import BOARD, FLOW, HANDS, PLAYER_PIECES, effect


@dataclass(frozen=True, order=True)
class Build(Action):
    """Place a piece on a site id (intersection, path or hex id, by the piece's site)."""

    KIND: ClassVar[str] = "build"
    HEADING: ClassVar[str] = "Build"
    WRITES: ClassVar[frozenset[str]] = frozenset((BOARD, HANDS))
    piece: str
    at: int

    def words(self, told: w.Told) -> str:
        return f"build {w.piece_words(told.game, self.piece)} {w.piece_site_words(told, self.piece, self.at)}"

    def listed_under(self) -> tuple[str, str]:
        """One group per piece: `Build road`."""
        return f"{self.KIND}:{self.piece}", f"{self.HEADING} {w.spoken(self.piece)}"


@action_source
def build_actions(game: Game) -> list[Action]:
    return [a for p in game.pieces if not p.neutral for a in _builds(p.name, p.sites)]


@lru_cache(maxsize=256)
def _builds(piece: str, sites: tuple[int, ...]) -> tuple[Build, ...]:
    """Build(piece, k) for each site: the same objects for every game of a scenario (its
    games put the same pieces on the same sites), so the action tables' cache finds a
    game's actions by identity, not field by field."""
    return tuple(Build(piece, k) for k in sites)


# ---- where a piece may stand ------------------------------------------------------------


def targets(s: State, p: int, pi: int, mode: str, step: Any = None) -> list[int]:
    """Action ids of every site where player p may place piece pi now; `mode` is
    "normal" (bought), "free" or "setup" (`step`: the set-up step). The list may be
    kept and shared: never edit it."""
    g = s.game
    P = g.pieces[pi]
    if s.placed[p][pi] + s.pieces_lost[p][pi] >= P.limit and not (s.damaged and damage.has_damaged(s, p, pi)):
        return []  # (a repair needs no piece from the supply)
    # Bought or built free, where nothing but the pieces on the board decides (no set-up
    # step, no damaged piece, no neutral piece that blocks it, no traveller), the sites
    # change only when a piece is placed, moved or lifted: kept on the network till then.
    if P.placed_where is not None:  # judged afresh: it may read anything, not only the board
        return list(map(g.build_id[pi].__getitem__, places(s, p, pi, mode, step)))
    kept = step is None and mode != "setup" and not s.damaged and not P.blockers and P.travel is None
    if kept:
        known = network.of(s).targets
        hit = known.get((p, pi, mode))
        if hit is not None and hit[0] is P:  # (P: a board whose hexes changed has its own)
            return hit[1]
    if _open_everywhere(s, P, mode, step):  # the ids of every site, but a few
        out = all_but(ids_on_sites(g, pi), P.allowed, _refused_near(s, p, P, mode, step))
    else:
        out = list(map(g.build_id[pi].__getitem__, places(s, p, pi, mode, step)))
    if kept:
        known[(p, pi, mode)] = (P, out)
    return out


def places(s: State, p: int, pi: int, mode: str = "normal", step: Any = None) -> list[int]:
    """The site ids, ascending, where `can_place` lets player p put piece pi now (its
    supply aside). Only sites next to the player's own pieces are tested when the piece
    must connect to them, be placed touching the last one or upgrade one; a piece that
    may stand anywhere is refused only near a piece on the board (the distance rule, an
    occupant, a blocking neutral piece), so the sites far from every piece pass on its
    `where` alone. The cost is that of the answer, never of the board."""
    P = s.game.pieces[pi]
    if P.placed_where is not None:
        return [k for k in _places(s, p, pi, P, mode, step) if builder_may(s, p, P, k)]
    return _places(s, p, pi, P, mode, step)


def builder_may(s: State, p: int, P: PieceInfo, k: int) -> bool:
    """The piece's `placed where` holds for player p on site k (none: it does)."""
    if P.placed_where is None:
        return True
    where = s.game.interp.program(P.placed_where, P.source)
    return bool(where.run({"player": p, "at": location(P.site, k)}, s, NO_ANSWERS))


def _places(s: State, p: int, pi: int, P: PieceInfo, mode: str, step: Any) -> list[int]:
    if _open_everywhere(s, P, mode, step):
        return all_but(P.allowed, P.allowed, _refused_near(s, p, P, mode, step))
    if P.site == "path" and P.connects and P.travel is None and step is None and mode != "setup" and \
            not (s.damaged and damage.has_damaged(s, p, pi)):
        return _joining_paths(s, p, P)  # (a road or ship bought or built free: the common case)
    near = _near(s, p, P, mode, step)
    if near is None:
        return _open_corners(s, p, P, mode, step)
    allowed = P.allowed_set
    return [k for k in near if k in allowed and can_place(s, p, pi, k, mode, step)]


def _open_everywhere(s: State, P: PieceInfo, mode: str, step: Any) -> bool:
    """An intersection piece that needs no connection, with no `where` of the step and
    not `new` (the common case of a starting settlement): only `_refused_near` fails."""
    return (P.site == "intersection" and P.upgrades < 0 and (mode == "setup" or not P.connects)
            and (step is None or (not step.touching_last and step.where is None)))


def _near(s: State, p: int, P: PieceInfo, mode: str, step: Any) -> Any:
    """The sites `can_place` may accept, ascending (a few more do no harm), or None for an
    intersection piece that needs no connection (`_open_corners`)."""
    b = s.game.board
    touching_last = step is not None and step.touching_last
    if P.site == "intersection":
        if touching_last:  # at an end of the player's own last path
            last = s.last_path[p]
            return b.path_ends[last] if last >= 0 else ()
        if P.upgrades >= 0 and (step is None or not step.fresh):
            return sorted(network.of(s).corners[p])  # on an own piece it replaces
        if mode == "setup" or not P.connects:
            return None
        return sorted(network.frontier_corners(s, p))  # at an end of an own path piece
    if P.site != "path":
        return ()  # a player's piece never stands on a hex
    if mode != "setup" and s.damaged and damage.has_damaged(s, p, P.index):
        return s.damaged  # only a repair, on an own damaged piece
    if mode == "setup" and touching_last:  # at the player's own last building
        last = s.last_corner[p]
        return b.corner_paths[last] if last >= 0 else ()
    net = network.of(s)
    if P.travel is not None:
        if mode == "setup":
            return P.allowed
        return sorted({x for c in net.corners[p] for x in b.corner_paths[c]})  # at an own building
    if not P.connects:
        return P.allowed
    corners = network.frontier_corners(s, p)
    corners.update(net.corners[p])
    return sorted({x for c in corners for x in b.corner_paths[c]})


def _joining_paths(s: State, p: int, P: PieceInfo) -> list[int]:
    """The empty paths, ascending, where p's path piece P joins p's pieces, found from
    the intersections it may join them at, not path by path (what `can_place` accepts
    among `_near`'s sites, `path_connects` read the other way round): every path at an
    own piece P connects to, and at an end of an own path piece P connects to unless an
    opponent's piece stands there; then its `where` and the neutral pieces blocking it."""
    b = s.game.board
    net = network.of(s)
    owner, piece, path_piece = s.corner_owner, s.corner_piece, s.path_piece
    connects = P.connects
    at = [c for c in net.corners[p] if piece[c] in connects]
    ends = b.path_ends
    for x in net.paths[p]:
        if path_piece[x] in connects:
            for c in ends[x]:
                if owner[c] == -1 or owner[c] == p:
                    at.append(c)
    path_owner, corner_paths = s.path_owner, b.corner_paths
    out = {x for c in at for x in corner_paths[c] if path_owner[x] == -1}
    out &= P.allowed_set
    if P.blockers:
        return sorted(k for k in out if not neutral.blocks_site(s, "path", k, P.blockers))
    return sorted(out)


def _near_pieces(s: State, P: PieceInfo) -> set[int]:
    """The intersections where, for an intersection piece that needs no connection, the
    pieces on the board may matter: those taken, within the distance rule of one, or at
    a neutral piece that blocks it. Anywhere else only its `where` may refuse it."""
    g = s.game
    b = g.board
    distance, blockers = P.distance, P.blockers
    if P.upgrades >= 0:  # `place city new`: where the piece it upgrades could stand
        base = g.pieces[P.upgrades]
        distance, blockers = max(distance, base.distance), blockers + base.blockers
    within = g.within[distance] if distance > 1 else None
    near: set[int] = set()
    for corners in network.of(s).corners:
        near.update(corners)
        if within is not None:
            for c in corners:
                near.update(within[c])  # (the distance rule is symmetric)
    for n in blockers:
        on_hex = g.pieces[n].site == "hex"
        for at in neutral.sites_of(s, n):
            if at >= 0 and on_hex:
                near.update(b.hex_corners[at])
                near.add(b.hex_centre[at])  # (-1 for a hex with no centre point: no site)
            elif at >= 0:
                near.update(b.path_ends[at])
    return near


def _refused_near(s: State, p: int, P: PieceInfo, mode: str, step: Any) -> list[int]:
    """The sites of the piece that `can_place` refuses, ascending: all near the pieces."""
    allowed = P.allowed_set
    return sorted(k for k in _near_pieces(s, P) if k in allowed and not can_place(s, p, P.index, k, mode, step))


def _open_corners(s: State, p: int, P: PieceInfo, mode: str, step: Any) -> list[int]:
    """The intersections where an intersection piece that needs no connection may stand
    when the set-up step has a `where` or places a piece `new`: `can_place` decides near
    the pieces on the board, elsewhere only the `where` (and, for `new`, the sites of the
    piece it upgrades)."""
    g = s.game
    near = _near_pieces(s, P)
    base = g.pieces[P.upgrades] if P.upgrades >= 0 else None
    where = step.where if step is not None else None
    holds = g.interp.on_board(where, step.source) if where is not None and step is not None else None
    out = []
    for k in P.allowed:
        if base is not None and k not in base.allowed_set:
            continue
        if k in near:
            if can_place(s, p, P.index, k, mode, step):
                out.append(k)
        elif holds is None or holds({"at": location(P.site, k), "player": p}):
            out.append(k)
    return out


def can_place(s: State, p: int, pi: int, k: int, mode: str = "normal", step: Any = None) -> bool:
    g = s.game
    b = g.board
    P = g.pieces[pi]
    if s.damaged and P.site == "path" and mode != "setup" and damage.has_damaged(s, p, pi):
        # V2.4: no new piece of this kind while one is damaged; building one repairs it
        return damage.is_damaged(s, k) and s.path_owner[k] == p and s.path_piece[k] == pi
    if P.blockers and neutral.blocks_site(s, P.site, k, P.blockers):
        return False  # B.5: a neutral piece that `blocks` this piece stands on or beside the site
    if P.site == "intersection":
        distance = P.distance
        if P.upgrades >= 0:
            if step is None or not step.fresh:
                return s.corner_owner[k] == p and s.corner_piece[k] in P.upgrades_from
            # `place city new`: where the piece it upgrades could stand, under its distance rule
            base = g.pieces[P.upgrades]
            if k not in base.allowed_set or (base.blockers and neutral.blocks_site(
                    s, "intersection", k, base.blockers)):
                return False
            distance = max(distance, base.distance)
        if s.corner_owner[k] != -1:
            return False
        if distance > 1:
            owner = s.corner_owner
            for m in g.within[distance][k]:
                if owner[m] != -1:
                    return False
        if mode != "setup" and P.connects:
            for x in b.corner_paths[k]:  # an intact piece: a damaged one reaches nothing new
                if s.path_owner[x] == p and s.path_piece[x] in P.connects and not damage.is_damaged(s, x):
                    break
            else:
                return False
        if step is not None and step.touching_last:
            if s.last_path[p] < 0 or k not in b.path_ends[s.last_path[p]]:  # the player's own last path
                return False
    elif P.travel is not None:  # beside whatever stands on the path (rules/travel.py)
        if not travel.can_place(s, p, P, k, mode, step is not None and step.touching_last):
            return False
    elif P.site == "path":
        if s.path_owner[k] != -1:
            return False
        if mode == "setup" and step is not None and step.touching_last:
            if s.last_corner[p] not in b.path_ends[k]:  # the player's own last building
                return False
        elif P.connects:
            if not path_connects(s, p, k, P.connects):
                return False
    else:
        return False
    if step is not None and step.where is not None:
        if not g.interp.on_board(step.where, step.source)({"at": location(P.site, k), "player": p}):
            return False
    return builder_may(s, p, P, k)


def path_connects(s: State, p: int, k: int, connects: tuple[int, ...]) -> bool:
    """A path piece touches, at one of its ends, an own building it connects to, or an
    own path piece it connects to across an intersection without an opponent's building
    (so a road and a ship meet only at an own building)."""
    b = s.game.board
    for c in b.path_ends[k]:
        o = s.corner_owner[c]
        if o == p and s.corner_piece[c] in connects:
            return True
        if o != -1 and o != p:
            continue  # an opponent's building blocks the way through
        for x in b.corner_paths[c]:
            if x != k and s.path_owner[x] == p and s.path_piece[x] in connects:
                return True
    return False


def affordable(hand: list[int], cost: tuple[int, ...]) -> bool:
    return not any(map(lt, hand, cost))  # (no count short of the cost: compared in C)


def pay(s: State, p: int, cost: tuple[int, ...]) -> None:
    hand, bank = s.hands[p], s.bank
    for r, n in enumerate(cost):
        if n:
            hand[r] -= n
            bank[r] += n


# ---- placing -------------------------------------------------------------------------------


def place(s: State, p: int, pi: int, k: int, free: bool = True, by: int = -1) -> None:
    """Put seat p's piece pi on site k, paid for already (`free` false) or free, placed
    by the player `by` (-1: p itself), and tell the rules."""
    g = s.game
    P = g.pieces[pi]
    if P.site == "path" and s.damaged and damage.is_damaged(s, k):
        damage.repair(s, k)  # the piece stands up again: nothing new is placed
        return
    s.placed[p][pi] += 1
    if P.travel is not None:
        travel.place(s, p, pi, k)
    elif P.site == "intersection":
        if P.upgrades >= 0 and s.corner_owner[k] == p and s.corner_piece[k] in P.upgrades_from:
            s.placed[p][s.corner_piece[k]] -= 1  # the piece it replaces goes back to the player
        network.put_corner(s, k, p, pi)
        if p < g.num_players:  # a neutral seat places nothing `touching last`
            s.last_corner[p] = k
    else:
        network.put_path(s, k, p, pi)
        if p < g.num_players:
            s.last_path[p] = k
        if P.movement is not None:
            note_fresh(s, k)  # B.4: not moved in the turn it is built
    s.emit("built", {"player": p, "piece": P.name, "at": location(P.site, k), "free": free, "by": p if by < 0 else by})
    if P.site == "path" and P.travel is None and p < g.num_players:
        sites.check_reached(s, p, k)  # a route that reaches a site (its hooks run first)


def apply_build(s: State, p: int, act: Build) -> None:
    g = s.game
    place(s, p, g.piece_index[act.piece], act.at)


def note_fresh(s: State, k: int) -> None:
    """Remember that the movable piece on path k was placed this turn."""
    if s.stage != "turn":
        return
    f = s.fresh_paths
    s.fresh_paths = FreshPaths.of(s.turns, (*f.paths, k) if f.turn == s.turns else (k,))


def built_this_turn(s: State, k: int) -> bool:
    """Whether the movable piece on path k was placed this turn."""
    f = s.fresh_paths
    return f.turn == s.turns and k in f.paths


def pieces_on_board(s: State) -> list[list[int]]:
    """Per player, per piece kind, the pieces on the board, counting one lifted off it to
    be moved (a prompt's `lifted()`) and those attached to a piece on it as placed: what
    `state.placed` must say."""
    g = s.game
    counted = [[0] * len(g.pieces) for _ in range(g.num_seats)]
    for owners, pieces in ((s.corner_owner, s.corner_piece), (s.path_owner, s.path_piece)):
        for o, pi in zip(owners, pieces):
            if o >= 0:
                counted[o][pi] += 1
    for e in s.travellers:
        counted[e.player][e.piece] += 1
    for _code, _site, seat, pi in s.attachments:  # attached to a piece on the board
        counted[seat][pi] += 1
    for prompt in s.pending:
        lifted = prompt.lifted()
        if lifted is not None:
            counted[lifted[0]][lifted[1]] += 1
    return counted


def refusal(s: State, p: int, act: Action, mode: str) -> IllegalAction | None:
    """Why a Build is refused: no piece left, cannot afford it (bought), or not a site."""
    if not isinstance(act, Build):
        return None
    g = s.game
    pi = g.piece_index[act.piece]
    P = g.pieces[pi]
    text = f"build {act.piece} at {g.location_name(P.site, act.at)}"
    if mode != "setup" and s.damaged and damage.has_damaged(s, p, pi) and not damage.is_damaged(s, act.at):
        return IllegalAction("action/invalid_target", f"{text}: a damaged {P.name} must be repaired first")
    if mode == "normal":
        if s.placed[p][pi] + s.pieces_lost[p][pi] >= P.limit:
            return IllegalAction("action/not_legal", f"{text}: no {P.name} left")
        if can_place(s, p, pi, act.at):
            return IllegalAction("action/cannot_afford", f"{text}: cannot afford it")
    for n in P.blockers:
        if neutral.blocks_site(s, P.site, act.at, (n,)):
            return IllegalAction("action/invalid_target", f"{text}: blocked by the {g.pieces[n].name}")
    return IllegalAction("action/invalid_target", f"{text}: not a legal site")


# ---- the `build` activity ----------------------------------------------------------------


def _legal_builds(s: State, p: int, names: frozenset[str] | None) -> list[int]:
    g = s.game
    pieces = g.pieces
    hand = s.hands[p]
    placed = s.placed[p]
    lost = s.pieces_lost[p]
    out: list[int] = []
    for k in g.own_pieces:
        P = pieces[k]
        if names is not None and P.name not in names:
            continue  # not allowed in this phase
        # a fixed cost is read from the table; only a cost with expressions is evaluated
        if not affordable(hand, P.cost if P.varying is None else costs.cost_of(s, p, "piece", k).cards):
            continue
        if placed[k] + lost[k] >= P.limit and not (s.damaged and damage.has_damaged(s, p, k)):
            continue  # none left (a repair needs none from the supply)
        out += targets(s, p, k, "normal")
    return out


def _apply_bought(s: State, p: int, act: Build) -> None:
    pi = s.game.piece_index[act.piece]
    P = s.game.pieces[pi]
    pay(s, p, P.cost if P.varying is None else costs.cost_of(s, p, "piece", pi).cards)
    place(s, p, pi, act.at, free=False)


BUILD = activity(Activity(
    "build", "place a piece at its cost", _legal_builds, {Build: _apply_bought},
    names="piece", subject=lambda game, act: act.piece,
    refusal=lambda s, p, act: refusal(s, p, act, "normal")))


# ---- free placements ------------------------------------------------------------------------


def _nowhere_to_build(s: State, player: int, pieces: list[str], count: int) -> str:
    """Why `build_free` can place nothing now ("" when it can place one)."""
    g = s.game
    kinds = [g.piece_index[p] for p in pieces if p in g.piece_index]
    if count <= 0 or len(kinds) < len(pieces) or any(g.pieces[k].neutral for k in kinds) or \
            any(targets(s, player, k, "free") for k in kinds):
        return ""
    return f"no {' or '.join(pieces)} can be placed"


@effect("player: player, pieces: list<piece>, count: int 0..100", writes=(BOARD, FLOW),
        refuses=_nowhere_to_build, pieces=PLAYER_PIECES)
def build_free(s: State, player: int, pieces: list[str], count: int) -> None:
    """The player places `count` pieces of these kinds at no cost (as many as there are
    places for). A card played or an action taken whose rule says so is refused when
    none can be placed: nothing is spent on it."""
    kinds = [s.game.piece_index[p] for p in pieces]
    if any(s.game.pieces[k].neutral for k in kinds):
        raise EngineError("build_free() places a player's pieces, not " +
                          ", ".join(p for p, k in zip(pieces, kinds) if s.game.pieces[k].neutral))
    if count > 0:
        s.push(FreeBuild(player, kinds, count))


@dataclass
class FreeBuild(Prompt):
    """`player` places up to `count` more pieces of the kinds `pieces` for free; the
    rest lapses when none can be placed."""

    KIND: ClassVar[str] = "free_build"
    player: int
    pieces: list[int]
    count: int

    def check(self, game: Game) -> str:
        if not seats_ok(game, self.player) or not all(
                0 <= p < len(game.pieces) and not game.pieces[p].neutral for p in self.pieces):
            return "not a player and pieces"
        return super().check(game)

    def step(self, s: State) -> bool:
        if self.legal(s):
            return False
        s.pending.pop()
        return True

    def actor(self, s: State) -> int:
        return self.player

    def legal(self, s: State) -> list[int]:
        out: list[int] = []
        for pi in self.pieces:
            out += targets(s, self.player, pi, "free")
        return out

    def apply(self, s: State, act: Action) -> None:
        assert isinstance(act, Build)
        self.count -= 1
        if self.count <= 0:
            s.pending.pop()
        apply_build(s, self.player, act)

    def refusal(self, s: State, act: Action) -> IllegalAction | None:
        return refusal(s, self.player, act, "free")


# ---- the set-up --------------------------------------------------------------------------


def collect(s: State, p: int, corner: int, count: int = 1) -> None:
    """`collect last [N]`: N resources (1 by default, whatever the piece produces) from
    each hex around the piece just placed whose terrain produces a fixed resource, as
    far as the bank has them."""
    g = s.game
    if corner < 0:
        return
    for h in g.board.corner_hexes[corner]:
        r = g.hex_resource[h]
        if r >= 0:
            n = min(count, s.bank[r])
            s.bank[r] -= n
            s.hands[p][r] += n
