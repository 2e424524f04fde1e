"""Resource cards in hand: taking from the bank, Monopoly, counting, and discarding half
on a 7 (A.7), one card per action so the action space stays small."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from catandsl.rules import words as w
from catandsl.rules.base import Action, CardByCard, action_source
from catandsl.rules.play import Game, State
from catandsl.rules.registry import FLOW, HANDS, effect, query


@effect("player: player, resource: resource, count: int >= 0", writes=HANDS)
def take_from_bank(s: State, player: int, resource: str, count: int) -> None:
    """The player takes up to `count` of a resource from the bank."""
    r = s.game.res_index[resource]
    k = min(count, s.bank[r])
    s.bank[r] -= k
    s.hands[player][r] += k


@effect("player: player, resource: resource", writes=HANDS)
def monopoly(s: State, player: int, resource: str) -> None:
    """Every other player gives the player all their cards of the resource."""
    r = s.game.res_index[resource]
    for p in range(s.game.num_players):
        if p != player:
            s.hands[player][r] += s.hands[p][r]
            s.hands[p][r] = 0


@query("player: player", returns="int", reads=HANDS)
def resource_cards(s: State, player: int) -> int:
    """Resource cards in hand."""
    return sum(s.hands[player])


@query("players: list<player>", returns="int", reads=HANDS)
def resource_cards_of(s: State, players: list[int]) -> int:
    """Resource cards the listed players hold together (`resource_cards_of(opponents(player))`)."""
    return sum(sum(s.hands[p]) for p in sorted(set(players)))


@effect("over: int >= 0", writes=(HANDS, FLOW))
def discard_half(s: State, over: int) -> None:
    """Every player holding more than `over` resource cards discards half, rounded down."""
    n = s.game.num_players
    owed = []
    for k in range(n):
        p = (s.turn_player + k) % n
        total = sum(s.hands[p])
        if total > over:
            owed.append([p, total // 2])
    if owed:
        s.push(Discarding(owed))


@dataclass(frozen=True, order=True)
class Discard(Action):
    """Discard one card of a resource (to the bank)."""

    KIND: ClassVar[str] = "discard"
    HEADING: ClassVar[str] = "Discard"
    WRITES: ClassVar[frozenset[str]] = frozenset((HANDS,))
    resource: str

    def words(self, told: w.Told) -> str:
        return f"discard {w.amount(1, self.resource)}"


@action_source
def discard_actions(game: Game) -> list[Action]:
    return [Discard(r) for r in game.resources]


@dataclass(frozen=True)
class DiscardIds:
    """The discard actions' ids, by resource."""

    by_resource: tuple[int, ...]

    @classmethod
    def build(cls, game: Game) -> DiscardIds:
        return cls(tuple(game.action_id[Discard(r)] for r in game.resources))


@dataclass
class Discarding(CardByCard):
    """Players discard, in seat order from the active player, one card per action (to
    the bank): `owed` is [[player, cards still to discard], ...]."""

    KIND: ClassVar[str] = "discard"

    def legal(self, s: State) -> list[int]:
        ids = s.game.lookups(DiscardIds).by_resource
        return [ids[r] for r, n in enumerate(s.hands[self.actor(s)]) if n > 0]

    def move(self, s: State, player: int, r: int) -> None:
        s.hands[player][r] -= 1
        s.bank[r] += 1
