"""Cards that change hands between players by a rule: one taken at random (`steal`),
one given (`give_resource`, with `choose_from_hand`), and one passed by everyone to
the next player at once (`pass_left`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar

from catandsl.rules.base import CardByCard, seats_ok
from catandsl.rules.choices import ChoiceIds, ChooseResource
from catandsl.rules.neutral import Stealing
from catandsl.rules.registry import FLOW, HANDS, choice, effect

if TYPE_CHECKING:
    from catandsl.engine.game import Game
    from catandsl.engine.state import State


@effect("player: player, among: list<player>", writes=(HANDS, FLOW))
def steal(s: State, player: int, among: list[int]) -> None:
    """The player picks one of the listed players who holds a resource card and takes
    one of their cards at random (a chance node); with nobody to rob, nothing happens."""
    victims = sorted({v for v in among if v != player and sum(s.hands[v]) > 0})
    if victims:
        s.push(Stealing(player, victims, -1))


@choice("player: player", returns="resource", answer=ChooseResource)
def choose_from_hand(s: State, player: int) -> list[str]:
    """The player picks one resource they hold a card of (a card to give away); with an
    empty hand there is nothing to pick: the choice lapses with the rest of its block."""
    return [r for r, n in zip(s.game.resources, s.hands[player]) if n > 0]


@effect("giver: player, receiver: player, resource: resource, count: int 0..100", writes=HANDS)
def give_resource(s: State, giver: int, receiver: int, resource: str, count: int) -> None:
    """The giver hands the receiver up to `count` cards of the resource (as many as they
    hold)."""
    r = s.game.res_index[resource]
    n = min(count, s.hands[giver][r])
    s.hands[giver][r] -= n
    s.hands[receiver][r] += n


@effect("", writes=(HANDS, FLOW))
def pass_left(s: State) -> None:
    """Every player holding a resource card passes one card of their choice to the next
    player in turn order (their left-hand neighbour), all at once: each picks in seat
    order from the active player, and the cards change hands when the last has picked."""
    n = s.game.num_players
    order = [(s.turn_player + k) % n for k in range(n)]
    owed = [[p, 1] for p in order if sum(s.hands[p]) > 0]
    if owed:
        s.push(PassingLeft(owed, []))


@dataclass
class PassingLeft(CardByCard):
    """Players pick the card they pass to the next seat, one after another: `owed` is
    [[player, 1 or 0], ...]; `picks` is [[player, resource index], ...], given only
    when everyone has picked (so nobody passes on a card just received)."""

    KIND: ClassVar[str] = "pass_left"
    picks: list[list[int]] = field(default_factory=list)

    def check(self, game: Game) -> str:
        if not all(len(e) == 2 and seats_ok(game, e[0]) and 0 <= e[1] < len(game.resources)
                   for e in self.picks):
            return "picks must be [[player, resource], ...]"
        return super().check(game)

    def legal(self, s: State) -> list[int]:
        p = self.actor(s)
        picked = [r for q, r in self.picks if q == p]
        ids = s.game.table(ChoiceIds).resource
        return [ids[r] for r, n in enumerate(s.hands[p]) if n - picked.count(r) > 0]

    def move(self, s: State, player: int, r: int) -> None:
        self.picks.append([player, r])

    def step(self, s: State) -> bool:
        if not self.done(s):
            return False
        n = s.game.num_players
        for p, r in self.picks:  # all at once
            s.hands[p][r] -= 1
            s.hands[(p + 1) % n][r] += 1
        s.pending.pop()
        return True
