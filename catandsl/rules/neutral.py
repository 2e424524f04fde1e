"""Neutral pieces (robber, pirate, any piece declared `neutral`): moving one, robbing a
player it touches, and what it blocks.

A neutral piece stands on a hex or on a path. A kind may have several pieces (`count`):
`state.neutral_at` keeps one site per piece (`game.neutral_slots[kind]` says where; a
kind's sites in order, -1 off the board first), at most one piece of a kind per site.
Moving one of several says which: `Move(piece, at, src)` lifts the piece on `src` (-1:
one off the board); a kind of one piece moves with `src` -1.

`move_piece(player, pieces)` asks the player to move one of these pieces (`Moving`);
a piece's `movable_by` (a condition on `player`, the mover) leaves it out for a player
for whom it is false, and with no piece left the move lapses. After the move, the mover
chooses a victim among the owners of the pieces it `steals from` that have something
to take (`Stealing`); a resource card is then drawn by chance (`Robbing`). A piece
whose `takes` names tokens robs a resource card or a token: with more than one kind to
take, the mover says which (`Taking`). `move_piece_from(player, pieces, sites)` moves
only a piece standing on one of the sites; `relocate` and `relocate_from` move as
`move_piece` and `move_piece_from` do and rob nobody.

Blocking: `blocks_site(state, kind, site, pieces)` is the one test behind `blocks`
(placing on or next to the piece) and `blocked_by` (moving away from it): a piece on a
hex blocks the hex and the intersections and paths around it; a piece on a path blocks
the path, its two ends and its two hexes. `blocks production` is for pieces on hexes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, ClassVar

from catandsl.rules import words as w
from catandsl.rules.base import (
    LOCATION_CODE,
    Action,
    EngineError,
    IllegalAction,
    Location,
    Prompt,
    action_source,
    all_but,
    ids_of_kind,
    ids_on_sites,
    location,
    paths_next_to,
    seats_ok,
)
from catandsl.rules.play import NO_ANSWERS, Game, State
from catandsl.rules.registry import FLOW, HANDS, NEUTRAL, NEUTRAL_PIECES, TOKENS, effect, query

if TYPE_CHECKING:
    from collections.abc import Iterable



@dataclass(frozen=True, order=True)
class Move(Action):
    """Move a neutral piece to a site id (a hex or a path, by the piece's site). For a
    kind of several pieces, `src` is the site of the piece it lifts (-1: a piece off the
    board); a kind of one piece moves with `src` -1."""

    KIND: ClassVar[str] = "move"
    HEADING: ClassVar[str] = "Move"
    WRITES: ClassVar[frozenset[str]] = frozenset((NEUTRAL,))
    piece: str
    at: int
    src: int = -1

    def words(self, told: w.Told) -> str:
        piece = w.piece_words(told.game, self.piece)
        if self.src >= 0:  # one of several pieces: the site it leaves
            piece += " " + w.piece_site_words(told, self.piece, self.src, "from")
        return f"move {piece} {w.piece_site_words(told, self.piece, self.at, 'to')}"


@dataclass(frozen=True, order=True)
class Steal(Action):
    """Choose the player to rob."""

    KIND: ClassVar[str] = "steal"
    HEADING: ClassVar[str] = "Rob"
    WRITES: ClassVar[frozenset[str]] = frozenset((FLOW,))
    player: int

    def words(self, told: w.Told) -> str:
        return f"rob {w.seat_words(told.game, self.player)}"


@dataclass(frozen=True, order=True)
class Stolen(Action):
    """Chance outcome: the resource card taken from the robbed player's hand."""

    KIND: ClassVar[str] = "stolen"
    HEADING: ClassVar[str] = "Steal a card"
    WRITES: ClassVar[frozenset[str]] = frozenset((HANDS,))
    resource: str

    def words(self, told: w.Told) -> str:
        """`steal brick from P2`: which card, only to the thief and the robbed player."""
        victim = getattr(told.asked, "victim", -1)
        source = f" from {w.seat_words(told.game, victim)}" if victim >= 0 else ""
        what = w.spoken(self.resource) if told.sees(told.actor, victim) else "a card"
        return f"steal {what}{source}"


@dataclass(frozen=True, order=True)
class Take(Action):
    """What a robbery takes, when the robbing piece `takes` tokens too: `resource` (a
    resource card, drawn by chance as usual) or a token name (one token of that kind)."""

    KIND: ClassVar[str] = "take"
    HEADING: ClassVar[str] = "Take"
    WRITES: ClassVar[frozenset[str]] = frozenset((HANDS, TOKENS))
    what: str

    def words(self, told: w.Told) -> str:
        return "take a resource card" if self.what == "resource" else f"take {w.a(w.spoken(self.what))} token"


@action_source
def neutral_actions(game: Game) -> Iterable[Action]:
    out: list[Action] = []
    for p in game.pieces:
        if p.neutral:  # several pieces to a kind: also which one, from where to where
            out += _moves(p.name, p.sites, p.count > 1)
    out += [Steal(p) for p in range(game.num_players)]
    out += [Stolen(r) for r in game.resources]
    takes = {w for p in game.pieces for w in p.takes if w in game.token_index}
    if takes:  # a robbery that may take a token: the mover says what
        out += [Take(w) for w in sorted(takes | {"resource"})]
    return out


@lru_cache(maxsize=256)
def _moves(piece: str, sites: tuple[int, ...], several: bool) -> tuple[Move, ...]:
    """A neutral piece's moves (the same objects for every game of a scenario, as
    placement._builds)."""
    out = [Move(piece, k) for k in sites]
    if several:
        out += [Move(piece, k, src) for k in sites for src in sites if src != k]
    return tuple(out)


@dataclass(frozen=True)
class RobberyIds:
    """The robbery actions' ids, by victim, resource and what is taken."""

    steal: tuple[int, ...]  # by victim
    stolen: tuple[int, ...]  # by resource
    take: dict[str, int]  # by what

    @classmethod
    def build(cls, game: Game) -> RobberyIds:
        ids = game.action_id
        return cls(tuple(ids[Steal(p)] for p in range(game.num_players)),
                   tuple(ids[Stolen(r)] for r in game.resources),
                   {a.what: k for a, k in ids.items() if isinstance(a, Take)})


@dataclass(frozen=True)
class MoveIds:
    """Action ids of the moves that lift one of several pieces: [kind][(src, at)]."""

    lifting: dict[int, dict[tuple[int, int], int]]

    @classmethod
    def build(cls, game: Game) -> MoveIds:
        out: dict[int, dict[tuple[int, int], int]] = {}
        for k in ids_of_kind(game, Move):
            a = game.actions[k]
            if a.src >= 0:
                out.setdefault(game.piece_index[a.piece], {})[(a.src, a.at)] = k
        return cls(out)


# ---- where the pieces stand ---------------------------------------------------------------------


def sites_of(s: State, pi: int) -> list[int]:
    """The sites of the pieces of neutral kind pi, in order (-1: off the board)."""
    return [s.neutral_at[u] for u in s.game.neutral_slots[pi]]


def put_pieces(s: State, pi: int, sites: Iterable[int]) -> None:
    """Stand the pieces of neutral kind pi on these sites (as many as it has; -1 off the
    board), kept in order."""
    slots = s.game.neutral_slots[pi]
    here = sorted(sites)
    if len(here) != len(slots):
        raise EngineError(f"the {s.game.pieces[pi].name} has {len(slots)} piece(s), not {len(here)}")
    for u, at in zip(slots, here):
        s.neutral_at[u] = at


@effect("pieces: list<piece>", writes=NEUTRAL, pieces=NEUTRAL_PIECES)
def return_to_start(s: State, pieces: list[str]) -> None:
    """These neutral pieces go back to where the map started them (the robber flees to
    the desert); a piece the map did not place leaves the board."""
    for pi in _neutral_kinds(s, pieces, "return_to_start"):
        put_pieces(s, pi, [s.game.neutral_start[u] for u in s.game.neutral_slots[pi]])


# ---- blocking --------------------------------------------------------------------------------


def blocks_site(s: State, kind: str, k: int, pieces: Iterable[int]) -> bool:
    """Whether one of these neutral pieces keeps site k (an intersection, path or hex,
    by `kind`) blocked: a piece on a hex blocks it and the sites around it, a piece on a
    path blocks the path, its two ends and its two hexes."""
    g = s.game
    b = g.board
    hexes = b.corner_hexes[k] if kind == "intersection" else b.path_hexes[k] if kind == "path" else (k,)
    for n in pieces:
        on_hex = g.pieces[n].site == "hex"
        for at in sites_of(s, n):
            if at < 0:
                continue
            if on_hex:
                if at in hexes:
                    return True
            elif (k == at if kind == "path" else k in b.path_ends[at] if kind == "intersection"
                  else k in b.path_hexes[at]):
                return True
    return False


def blockers_of(game: Game, what: str) -> tuple[int, ...]:
    """The neutral pieces whose `blocks` names `what` (a piece name, or `production`)."""
    return tuple(pi for pi in game.neutral if what in game.pieces[pi].blocks)


def blocked_hexes(s: State, what: str) -> list[int]:
    """The hexes a neutral piece that blocks `what` stands on."""
    g = s.game
    return sorted({at for pi in blockers_of(g, what) if g.pieces[pi].site == "hex"
                   for at in sites_of(s, pi) if at >= 0})


def blocked_paths(s: State, what: str) -> set[int]:
    """The paths where `what` may not be placed: around a blocking piece's hex, or under
    a blocking piece on a path."""
    g = s.game
    paths = g.board.hex_paths
    out = {x for h in blocked_hexes(s, what) for x in paths[h]}
    out.update(at for pi in blockers_of(g, what) if g.pieces[pi].site == "path"
               for at in sites_of(s, pi) if at >= 0)
    return out


def blocks_path(s: State, what: str, path: int) -> bool:
    return blocks_site(s, "path", path, blockers_of(s.game, what))


# ---- moving -----------------------------------------------------------------------------------


@effect("player: player, pieces: list<piece>", writes=(NEUTRAL, HANDS, FLOW), pieces=NEUTRAL_PIECES)
def move_piece(s: State, player: int, pieces: list[str]) -> None:
    """The player moves one of these neutral pieces and robs a player it now touches."""
    s.push(Moving(player, _neutral_kinds(s, pieces, "move_piece")))


@effect("player: player, pieces: list<piece>, sites: list<site>", writes=(NEUTRAL, HANDS, FLOW), pieces=NEUTRAL_PIECES)
def move_piece_from(s: State, player: int, pieces: list[str], sites: list[Location]) -> None:
    """The player moves one of these neutral pieces that stands on one of the sites and
    robs a player it now touches; with none of them there, nothing happens."""
    _move_from(s, player, pieces, sites, "move_piece_from", robs=True)


@effect("player: player, pieces: list<piece>", writes=(NEUTRAL, FLOW), pieces=NEUTRAL_PIECES)
def relocate(s: State, player: int, pieces: list[str]) -> None:
    """The player moves one of these neutral pieces as `move_piece` does, but nobody is
    robbed (a move bought for a token)."""
    s.push(Moving(player, _neutral_kinds(s, pieces, "relocate"), [], False))


@effect("player: player, pieces: list<piece>, sites: list<site>", writes=(NEUTRAL, FLOW), pieces=NEUTRAL_PIECES)
def relocate_from(s: State, player: int, pieces: list[str], sites: list[Location]) -> None:
    """The player moves one of these neutral pieces that stands on one of the sites, as
    `move_piece_from` does, but nobody is robbed (the barbarian a wagon chases away);
    with none of them there, nothing happens."""
    _move_from(s, player, pieces, sites, "relocate_from", robs=False)


def _move_from(s: State, player: int, pieces: list[str], sites: list[Location], primitive: str, robs: bool) -> None:
    kinds = _neutral_kinds(s, pieces, primitive)
    codes = {LOCATION_CODE[s.game.pieces[k].site] for k in kinds}
    at = sorted({int(k) for code, k in sites if code in codes})
    if at:
        s.push(Moving(player, kinds, at, robs))


def _neutral_kinds(s: State, pieces: list[str], primitive: str) -> list[int]:
    """The kinds of these pieces, every one neutral (a rule naming another is an error)."""
    kinds = [s.game.piece_index[p] for p in pieces]
    if not all(s.game.pieces[k].neutral for k in kinds):
        raise EngineError(f"{primitive}() takes neutral pieces, not " +
                          ", ".join(p for p, k in zip(pieces, kinds) if not s.game.pieces[k].neutral))
    return kinds


def may_move(s: State, player: int, pi: int) -> bool:
    """A piece's `movable_by` condition, with `player` the mover (none: anyone)."""
    P = s.game.pieces[pi]
    if P.movable_by is None:
        return True
    return bool(s.game.interp.program(P.movable_by, P.source).run({"player": player}, s, NO_ANSWERS))


def destinations(s: State, player: int, pi: int, sites: list[int]) -> list[int]:
    """The sites among `sites` the player may move a piece of kind pi to now: its
    `moves_to` condition, with `at` the site and `player` the mover (none: all)."""
    P = s.game.pieces[pi]
    if P.moves_to is None:
        return sites
    run = s.game.interp.program(P.moves_to, P.source).run
    return [k for k in sites if run({"player": player, "at": location(P.site, k)}, s, NO_ANSWERS)]


@dataclass
class Moving(Prompt):
    """`player` moves one of the neutral pieces `pieces` to another hex."""

    KIND: ClassVar[str] = "move"
    player: int
    pieces: list[int]
    sources: list[int] = field(default_factory=list)  # only a piece on one of these sites (empty: any)
    robs: bool = True  # the mover robs a player the piece now touches (not after `relocate`, `relocate_from`)

    def check(self, game: Game) -> str:
        if not seats_ok(game, self.player) or not all(p in game.neutral for p in self.pieces):
            return "not a player and neutral pieces"
        b = game.board
        sizes = {"hex": len(b.hexes), "path": len(b.paths), "intersection": len(b.intersections)}
        if not all(isinstance(k, int) and 0 <= k < sizes[game.pieces[pi].site]
                   for pi in self.pieces for k in self.sources):
            return "sources must be ids of the pieces' sites"
        return super().check(game)

    def step(self, s: State) -> bool:
        if self.legal(s):
            return False
        s.pending.pop()  # no piece this player may move: the move lapses
        return True

    def actor(self, s: State) -> int:
        return self.player

    def legal(self, s: State) -> list[int]:
        g = s.game
        out: list[int] = []
        for pi in self.pieces:
            if not may_move(s, self.player, pi):
                continue
            ids = g.build_id[pi]
            here = sites_of(s, pi)
            P = g.pieces[pi]
            if P.count == 1:
                if not self.sources or here[0] in self.sources:
                    if P.moves_to is None:  # anywhere but here: the board's size, copied in slices
                        out += all_but(ids_on_sites(g, pi), P.allowed, [here[0]] if here[0] in P.allowed_set else ())
                    else:
                        elsewhere = [h for h in P.allowed if h != here[0]]
                        out += [ids[h] for h in destinations(s, self.player, pi, elsewhere)]
                continue
            taken = set(here)
            # one piece of a kind per site
            free = destinations(s, self.player, pi, [k for k in P.allowed if k not in taken])
            lifting = g.lookups(MoveIds).lifting[pi]
            for src in sorted(taken):
                if self.sources and src not in self.sources:
                    continue
                out += [ids[k] for k in free] if src < 0 else [lifting[(src, k)] for k in free]
        return out

    def apply(self, s: State, act: Action) -> None:
        assert isinstance(act, Move)
        g = s.game
        s.pending.pop()
        pi = g.piece_index[act.piece]
        here = sites_of(s, pi)
        src = here[0] if len(here) == 1 else act.src
        here.remove(src)
        put_pieces(s, pi, here + [act.at])
        victims = _victims(s, self.player, pi, act.at) if self.robs else []
        if victims:
            s.push(Stealing(self.player, victims, pi if _takes_tokens(g, pi) else -1))
        kind = g.pieces[pi].site
        s.emit("moved", {"player": self.player, "piece": act.piece, "from": location(kind, src),
                         "at": location(kind, act.at)})

    def refusal(self, s: State, act: Action) -> IllegalAction | None:
        if isinstance(act, Move):
            g = s.game
            pi = g.piece_index[act.piece]
            P = g.pieces[pi]
            where = g.location_name(P.site, act.at)
            here = sites_of(s, pi)
            if pi in self.pieces and P.count > 1 and act.at in here:
                return IllegalAction("action/invalid_target",
                                     f"move {act.piece} at {where}: a {act.piece} already stands there")
            if pi in self.pieces and self.sources and (act.src if P.count > 1 else here[0]) not in self.sources:
                return IllegalAction("action/invalid_target",
                                     f"move {act.piece}: only a {act.piece} on one of the named sites moves now")
            if pi in self.pieces and P.count > 1 and act.src not in here:
                lifted = g.location_name(P.site, act.src) if act.src >= 0 else "off the board"
                return IllegalAction("action/invalid_target",
                                     f"move {act.piece} from {lifted}: no {act.piece} stands there")
            if pi in self.pieces and act.at in P.allowed and not destinations(s, self.player, pi, [act.at]):
                return IllegalAction("action/invalid_target",
                                     f"move {act.piece} at {where}: its `moves_to` condition is false there now")
            return IllegalAction("action/invalid_target",
                                 f"move {act.piece} at {where}: not a legal {P.site}")
        return None


# ---- robbing ------------------------------------------------------------------------------------


def _takes_tokens(game: Game, pi: int) -> bool:
    return any(w in game.token_index for w in game.pieces[pi].takes)


def take_options(s: State, pi: int, victim: int) -> list[str]:
    """What a robbery with piece pi may take from the victim now: "resource" (a card,
    when the piece takes resources and the victim holds one) and the token kinds it
    `takes` that the victim holds."""
    g = s.game
    takes = g.pieces[pi].takes
    out = []
    if (not takes or "resource" in takes) and sum(s.hands[victim]) > 0:
        out.append("resource")
    held = s.tokens_held[victim] if s.tokens_held else ()
    for what in takes:
        t = g.token_index.get(what, -1)
        if t >= 0 and held[t] > 0:
            out.append(what)
    return out


def _victims(s: State, thief: int, pi: int, h: int) -> list[int]:
    g = s.game
    steals = g.pieces[pi].steals_from
    if h < 0:
        return []
    tokens = _takes_tokens(g, pi)

    def has(o: int) -> bool:
        return bool(take_options(s, pi, o)) if tokens else sum(s.hands[o]) > 0

    b = g.board
    # what the piece touches: a hex's paths (ships on a sea hex's edges) and corners; a
    # path itself (the road under it) and its two ends
    paths, corners = (b.hex_paths[h], b.hex_corners[h]) if g.pieces[pi].site == "hex" else ((h,), b.path_ends[h])
    out = set()
    n = g.num_players  # a neutral seat is never robbed
    for x in paths:
        o = s.path_owner[x]
        if 0 <= o < n and o != thief and s.path_piece[x] in steals and has(o):
            out.add(o)
    for c in corners:
        o = s.corner_owner[c]
        if 0 <= o < n and o != thief and s.corner_piece[c] in steals and has(o):
            out.add(o)
    return sorted(out)


@dataclass
class Stealing(Prompt):
    """`thief` picks whom to rob among `victims`; `piece` is the robbing piece when it
    may take tokens too (else -1)."""

    KIND: ClassVar[str] = "steal"
    thief: int
    victims: list[int]
    piece: int

    def check(self, game: Game) -> str:
        if not seats_ok(game, self.thief, *self.victims) or not (self.piece == -1 or self.piece in game.neutral):
            return "not a player, victims and a neutral piece"
        return super().check(game)

    def actor(self, s: State) -> int:
        return self.thief

    def legal(self, s: State) -> list[int]:
        ids = s.game.lookups(RobberyIds).steal
        return [ids[v] for v in self.victims]

    def apply(self, s: State, act: Action) -> None:
        assert isinstance(act, Steal)
        s.pending.pop()
        if self.piece >= 0:
            options = take_options(s, self.piece, act.player)
            if len(options) > 1:
                s.push(Taking(self.thief, act.player, options))
            elif options:
                rob(s, self.thief, act.player, options[0])
            return
        s.push(Robbing(self.thief, act.player))


def rob(s: State, thief: int, victim: int, what: str) -> None:
    """A resource card (drawn by chance: `Robbing`) or one token of the named kind."""
    if what == "resource":
        s.push(Robbing(thief, victim))
        return
    t = s.game.token_index[what]
    s.tokens_held[victim][t] -= 1
    s.tokens_held[thief][t] += 1


@dataclass
class Taking(Prompt):
    """`thief` says what to take from `victim`: one of `options`."""

    KIND: ClassVar[str] = "take"
    thief: int
    victim: int
    options: list[str]

    def check(self, game: Game) -> str:
        if not seats_ok(game, self.thief, self.victim) or not all(
                w == "resource" or w in game.token_index for w in self.options):
            return "not a thief, a victim and what may be taken"
        return super().check(game)

    def step(self, s: State) -> bool:
        if self.legal(s):
            return False
        s.pending.pop()  # a rule took it all first: nothing left to take
        return True

    def actor(self, s: State) -> int:
        return self.thief

    def legal(self, s: State) -> list[int]:
        ids = s.game.lookups(RobberyIds).take
        return [ids[w] for w in self.options]

    def apply(self, s: State, act: Action) -> None:
        assert isinstance(act, Take)
        s.pending.pop()
        rob(s, self.thief, self.victim, act.what)


@dataclass
class Robbing(Prompt):
    """Chance: the card `thief` draws from `victim`'s hand, each card equally likely."""

    KIND: ClassVar[str] = "rob"
    chance: ClassVar[bool] = True
    thief: int
    victim: int

    def check(self, game: Game) -> str:
        return "" if seats_ok(game, self.thief, self.victim) else "not a thief and a victim"

    def step(self, s: State) -> bool:
        if sum(s.hands[self.victim]):
            return False
        s.pending.pop()  # a rule emptied the hand first: nothing to draw
        return True

    def outcomes(self, s: State) -> list[tuple[int, float]]:
        hand = s.hands[self.victim]
        total = sum(hand)
        ids = s.game.lookups(RobberyIds).stolen
        return [(ids[r], n / total) for r, n in enumerate(hand) if n]

    def apply(self, s: State, act: Action) -> None:
        assert isinstance(act, Stolen)
        s.pending.pop()
        r = s.game.res_index[act.resource]
        s.hands[self.victim][r] -= 1
        s.hands[self.thief][r] += 1
        s.chance_count += 1


# ---- queries --------------------------------------------------------------------------------




@query("pieces: list<piece>", returns="bool", reads=NEUTRAL, pieces=NEUTRAL_PIECES)
def at_start(s: State, pieces: list[str]) -> bool:
    """Whether every piece of these neutral kinds stands where the map started it (the
    robber on the desert): what `return_to_start` would change nothing of."""
    return all(sites_of(s, pi) == sorted(s.game.neutral_start[u] for u in s.game.neutral_slots[pi])
               for pi in _neutral_kinds(s, pieces, "at_start"))


@query("at: site, piece: piece", returns="int", reads=NEUTRAL)
def neutral_on(s: State, at: Location, piece: str) -> int:
    """How many pieces of a neutral kind stand on the site (a barbarian on a path)."""
    (pi,) = _neutral_kinds(s, [piece], "neutral_on")
    code, k = at
    if code != LOCATION_CODE[s.game.pieces[pi].site]:
        return 0
    return sites_of(s, pi).count(k)


@query("at: path, piece: piece", returns="int", reads=NEUTRAL)
def neutral_next_to(s: State, at: Location, piece: str) -> int:
    """How many pieces of a neutral kind stand on the paths that share an end with this
    path (a barbarian in front of a wagon)."""
    (pi,) = _neutral_kinds(s, [piece], "neutral_next_to")
    if s.game.pieces[pi].site != "path":
        return 0
    near = set(paths_next_to(s.game, at[1]))
    return sum(1 for k in sites_of(s, pi) if k in near)
