"""A player's piece moved by a rule from one intersection to another (a knight that
rides along its owner's roads, one that drives off a weaker one), written from four
small parts: `network_reach(player, at, via)` lists the intersections the player
reaches from `at` along their own path pieces of the kinds `via`,
`choose_intersection(player, sites)` lets a player pick one of a list, and
`move_piece_to(at, to)` moves the piece on `at` to the empty `to`, its level with it;
`lift_piece(at)` sends the piece on a site back to its owner's supply, with no choice
(the piece a displaced one could not flee with).

A move is not a build: no cost, no `built` event, no distance rule (a rule that wants
one checks it); the piece keeps its owner and its kind, and routes and points are
measured again, as after a removal."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from catandsl.rules import network, piece_state, removal
from catandsl.rules import words as w
from catandsl.rules.base import Action, Location, action_source, location, rules_call
from catandsl.rules.play import Game, State
from catandsl.rules.registry import BOARD, FLOW, choice, effect, query


@dataclass(frozen=True, order=True)
class PickIntersection(Action):
    """The intersection picked for `choose_intersection`."""

    KIND: ClassVar[str] = "pick_intersection"
    HEADING: ClassVar[str] = "Choose an intersection"
    SITE: ClassVar[str | None] = "intersection"
    WRITES: ClassVar[frozenset[str]] = frozenset((FLOW,))
    at: int

    def words(self, told: w.Told) -> str:
        return f"choose {w.intersection_words(told.board_game, self.at)}"


@action_source
def pick_intersection_actions(game: Game) -> list[Action]:
    if not rules_call(game, "choose_intersection"):  # (other games number none)
        return []
    return [PickIntersection(k) for k in range(len(game.board.intersections))]


@choice("player: player, sites: list<intersection>", returns="intersection", answer=PickIntersection)
def choose_intersection(s: State, player: int, sites: list[Location]) -> list[int]:
    """The player picks one of the listed intersections (`choose_intersection(player,
    network_reach(player, at, [road]))`), each offered once; with none listed the choice
    lapses with the rest of its block."""
    return sorted({int(k) for code, k in sites if code == "i"})


@query("player: player, at: intersection, via: list<piece>", returns="list<intersection>", reads=BOARD)
def network_reach(s: State, player: int, at: Location, via: list[str]) -> list[Location]:
    """The intersections the player reaches from `at` along their own pieces of the kinds
    `via` (roads), ascending, `at` left out: a route passes an empty intersection or one
    of the player's own pieces, and stops at another player's piece, which it reaches
    (`occupied(c)` and `owner(c)` tell the empty ones from a rival's knight)."""
    g = s.game
    b = g.board
    kinds = {g.piece_index[p] for p in via}
    start = int(at[1])
    seen = {start}
    frontier = [start]
    while frontier:
        c = frontier.pop()
        if c != start and s.corner_owner[c] not in (-1, player):
            continue  # a rival's piece: reached, not passed
        for x in b.corner_paths[c]:
            if s.path_owner[x] != player or s.path_piece[x] not in kinds:
                continue
            for d in b.path_ends[x]:
                if d not in seen:
                    seen.add(d)
                    frontier.append(d)
    return [location("intersection", c) for c in sorted(seen - {start})]


@effect("at: intersection, to: intersection", writes=BOARD)
def move_piece_to(s: State, at: Location, to: Location) -> None:
    """The player's piece on intersection `at` moves to intersection `to`, keeping its
    owner, kind and level, the pieces attached to it and special victory points under it
    (no cost, no `built` event); nothing when no piece stands on `at` or one already stands on `to`."""
    k, d = int(at[1]), int(to[1])
    seat, pi = s.corner_owner[k], s.corner_piece[k]
    if seat < 0 or s.corner_owner[d] >= 0 or k == d:
        return
    level = piece_state.piece_level(s, at)
    if s.vp_tokens:  # special victory points lie under their building: they move with it
        s.vp_tokens = [v._replace(intersection=d) if v.intersection == k else v for v in s.vp_tokens]
    piece_state.carry(s, 0, k, d)  # (before the lift, which would send them to the supply)
    removal.lift(s, "intersection", k)
    s.placed[seat][pi] += 1
    network.put_corner(s, d, seat, pi)
    if level:
        piece_state.set_piece_level(s, to, level)


@effect("at: site", writes=BOARD)
def lift_piece(s: State, at: Location) -> None:
    """The player's piece on the intersection or path `at` goes back to its owner's
    supply, as `remove_piece` sends it, with nobody choosing; nothing for an empty site
    or a hex."""
    code, k = at[0], int(at[1])
    if code == "i" and s.corner_owner[k] >= 0:
        removal.lift(s, "intersection", k)
    elif code == "p" and s.path_owner[k] >= 0:
        removal.lift(s, "path", k)
