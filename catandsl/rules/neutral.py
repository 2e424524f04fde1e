"""Neutral pieces (robber, pirate, any piece declared `neutral`): moving one, robbing a
player it touches, and what it blocks.

`move_piece(player, pieces)` asks the player to move one of these pieces (`Moving`);
a piece's `movable_by` (a condition on `player`, the mover) leaves it out for a player
for whom it is false, and with no piece left the move lapses. After the move, the mover
chooses a victim among the owners of the pieces it `steals from` that have something
to take (`Stealing`); a resource card is then drawn by chance (`Robbing`). A piece
whose `takes` names tokens robs a resource card or a token: with more than one kind to
take, the mover says which (`Taking`).

Blocking: `blocked_at(state, hexes, pieces)` is the one test behind `blocks` (placing
next to the piece), `blocked_by` (moving away from it) and `blocks production`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from catandsl.rules.base import Action, EngineError, IllegalAction, Prompt, action_source, seats_ok, site
from catandsl.rules.registry import FLOW, HANDS, NEUTRAL, TOKENS, effect

if TYPE_CHECKING:
    from collections.abc import Iterable

    from catandsl.engine.game import Game
    from catandsl.engine.state import State


@dataclass(frozen=True, order=True)
class Move(Action):
    """Move a neutral piece (robber, pirate) to a hex id."""

    KIND: ClassVar[str] = "move"
    WRITES: ClassVar[frozenset[str]] = frozenset((NEUTRAL,))
    piece: str
    at: int


@dataclass(frozen=True, order=True)
class Steal(Action):
    """Choose the player to rob."""

    KIND: ClassVar[str] = "steal"
    WRITES: ClassVar[frozenset[str]] = frozenset((FLOW,))
    player: int


@dataclass(frozen=True, order=True)
class Stolen(Action):
    """Chance outcome: the resource card taken from the robbed player's hand."""

    KIND: ClassVar[str] = "stolen"
    WRITES: ClassVar[frozenset[str]] = frozenset((HANDS,))
    resource: str


@dataclass(frozen=True, order=True)
class Take(Action):
    """What a robbery takes, when the robbing piece `takes` tokens too: `resource` (a
    resource card, drawn by chance as usual) or a token name (one token of that kind)."""

    KIND: ClassVar[str] = "take"
    WRITES: ClassVar[frozenset[str]] = frozenset((HANDS, TOKENS))
    what: str


@action_source
def neutral_actions(game: Game) -> Iterable[Action]:
    out: list[Action] = [Move(p.name, k) for p in game.pieces if p.neutral for k in p.allowed]
    out += [Steal(p) for p in range(game.num_players)]
    out += [Stolen(r) for r in game.resources]
    takes = {w for p in game.pieces for w in p.takes if w in game.token_index}
    if takes:  # a robbery that may take a token: the mover says what
        out += [Take(w) for w in sorted(takes | {"resource"})]
    return out


@dataclass(frozen=True)
class RobberyIds:
    steal: tuple[int, ...]  # by victim
    stolen: tuple[int, ...]  # by resource
    take: dict[str, int]  # by what

    @classmethod
    def build(cls, game: Game) -> RobberyIds:
        ids = game.action_id
        return cls(tuple(ids[Steal(p)] for p in range(game.num_players)),
                   tuple(ids[Stolen(r)] for r in game.resources),
                   {a.what: k for a, k in ids.items() if isinstance(a, Take)})


# ---- blocking --------------------------------------------------------------------------------


def blocked_at(s: State, hexes: Iterable[int], pieces: Iterable[int]) -> bool:
    """Whether one of these neutral pieces stands on one of these hexes."""
    at = s.neutral_at
    hexes = tuple(hexes)
    return any(at[n] >= 0 and at[n] in hexes for n in pieces)


def blockers_of(game: Game, what: str) -> tuple[int, ...]:
    """The neutral pieces whose `blocks` names `what` (a piece name, or `production`)."""
    return tuple(pi for pi in game.neutral if what in game.pieces[pi].blocks)


def blocked_hexes(s: State, what: str) -> list[int]:
    return sorted({s.neutral_at[pi] for pi in blockers_of(s.game, what) if s.neutral_at[pi] >= 0})


def blocked_paths(s: State, what: str) -> set[int]:
    paths = s.game.board.hex_paths
    return {x for h in blocked_hexes(s, what) for x in paths[h]}


def blocks_path(s: State, what: str, path: int) -> bool:
    return blocked_at(s, s.game.board.path_hexes[path], blockers_of(s.game, what))


# ---- moving -----------------------------------------------------------------------------------


@effect("player: player, pieces: list<piece>", writes=(NEUTRAL, HANDS, FLOW))
def move_piece(s: State, player: int, pieces: list[str]) -> None:
    """The player moves one of these neutral pieces and robs a player it now touches."""
    kinds = [s.game.piece_index[p] for p in pieces]
    if not all(s.game.pieces[k].neutral for k in kinds):
        raise EngineError("move_piece() moves neutral pieces, not " +
                          ", ".join(p for p, k in zip(pieces, kinds) if not s.game.pieces[k].neutral))
    s.push(Moving(player, kinds))


def may_move(s: State, player: int, pi: int) -> bool:
    """A piece's `movable_by` condition, with `player` the mover (none: anyone)."""
    P = s.game.pieces[pi]
    if P.movable_by is None:
        return True
    return bool(s.game.interp.value(P.movable_by, {"player": player}, s, P.source))


@dataclass
class Moving(Prompt):
    """`player` moves one of the neutral pieces `pieces` to another hex."""

    KIND: ClassVar[str] = "move"
    player: int
    pieces: list[int]

    def check(self, game: Game) -> str:
        if not seats_ok(game, self.player) or not all(p in game.neutral for p in self.pieces):
            return "not a player and neutral pieces"
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
            here = s.neutral_at[pi]
            out += [ids[h] for h in g.pieces[pi].allowed if h != here]
        return out

    def apply(self, s: State, act: Action) -> None:
        assert isinstance(act, Move)
        g = s.game
        s.pending.pop()
        pi = g.piece_index[act.piece]
        src = s.neutral_at[pi]
        s.neutral_at[pi] = act.at
        victims = _victims(s, self.player, pi, act.at)
        if victims:
            s.push(Stealing(self.player, victims, pi if _takes_tokens(g, pi) else -1))
        s.emit("moved", {"player": self.player, "piece": act.piece, "from": site("hex", src),
                         "at": site("hex", act.at)})

    def refusal(self, s: State, act: Action) -> IllegalAction | None:
        if isinstance(act, Move):
            P = s.game.pieces[s.game.piece_index[act.piece]]
            return IllegalAction("action/invalid_target",
                                 f"move {act.piece} at {s.game.site_name(P.site, act.at)}: not a legal hex")
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
    for w in takes:
        t = g.token_index.get(w, -1)
        if t >= 0 and held[t] > 0:
            out.append(w)
    return out


def _victims(s: State, thief: int, pi: int, h: int) -> list[int]:
    g = s.game
    steals = g.pieces[pi].steals_from
    if h < 0:
        return []
    tokens = _takes_tokens(g, pi)

    def has(o: int) -> bool:
        return bool(take_options(s, pi, o)) if tokens else sum(s.hands[o]) > 0

    out = set()
    for x in g.board.hex_paths[h]:  # pieces on paths (ships on a sea hex's edges)
        o = s.path_owner[x]
        if o >= 0 and o != thief and s.path_piece[x] in steals and has(o):
            out.add(o)
    for c in g.board.hex_corners[h]:
        o = s.corner_owner[c]
        if o >= 0 and o != thief and s.corner_piece[c] in steals and has(o):
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
        ids = s.game.table(RobberyIds).steal
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
        ids = s.game.table(RobberyIds).take
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
        ids = s.game.table(RobberyIds).stolen
        return [(ids[r], n / total) for r, n in enumerate(hand) if n]

    def apply(self, s: State, act: Action) -> None:
        assert isinstance(act, Stolen)
        s.pending.pop()
        r = s.game.res_index[act.resource]
        s.hands[self.victim][r] -= 1
        s.hands[self.thief][r] += 1
        s.chance_count += 1
