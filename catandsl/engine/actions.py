"""Actions: frozen dataclasses with a stable JSON form, numbered through a sorted table.

Every action a game can ever offer is listed once, when the game is made, from the
ruleset and the board (pieces x sites, resources, cards, seats). The list is sorted by
(kind, fields), so the int id of an action depends only on the scenario, the player
count, the options and the board, never on insertion or hash order.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import ClassVar


@dataclass(frozen=True, order=True)
class Action:
    KIND: ClassVar[str] = "action"

    def to_json(self) -> dict:
        out: dict = {"kind": self.KIND}
        for f in fields(self):
            out[f.name] = getattr(self, f.name)
        return out

    def key(self) -> tuple:
        return (self.KIND,) + tuple(getattr(self, f.name) for f in fields(self))


@dataclass(frozen=True, order=True)
class RollDice(Action):
    """Ask for the production roll (offered only when a card could be played first)."""

    KIND: ClassVar[str] = "roll_dice"


@dataclass(frozen=True, order=True)
class Roll(Action):
    """Chance outcome: the dice total."""

    KIND: ClassVar[str] = "roll"
    total: int


@dataclass(frozen=True, order=True)
class Build(Action):
    """Place a piece on a site id (intersection, path or hex id, by the piece's site)."""

    KIND: ClassVar[str] = "build"
    piece: str
    at: int


@dataclass(frozen=True, order=True)
class Move(Action):
    """Move a neutral piece (robber) to a hex id."""

    KIND: ClassVar[str] = "move"
    piece: str
    at: int


@dataclass(frozen=True, order=True)
class Steal(Action):
    """Choose the player to rob."""

    KIND: ClassVar[str] = "steal"
    player: int


@dataclass(frozen=True, order=True)
class Stolen(Action):
    """Chance outcome: the resource card taken from the robbed player's hand."""

    KIND: ClassVar[str] = "stolen"
    resource: str


@dataclass(frozen=True, order=True)
class Discard(Action):
    KIND: ClassVar[str] = "discard"
    resource: str


@dataclass(frozen=True, order=True)
class BankTrade(Action):
    """Give the best rate's number of `give` to the bank for one `get`."""

    KIND: ClassVar[str] = "bank_trade"
    give: str
    get: str


@dataclass(frozen=True, order=True)
class BuyCard(Action):
    KIND: ClassVar[str] = "buy_card"
    deck: str


@dataclass(frozen=True, order=True)
class Draw(Action):
    """Chance outcome: the card drawn from a deck."""

    KIND: ClassVar[str] = "draw"
    deck: str
    card: str


@dataclass(frozen=True, order=True)
class PlayCard(Action):
    KIND: ClassVar[str] = "play_card"
    card: str


@dataclass(frozen=True, order=True)
class ChooseResource(Action):
    KIND: ClassVar[str] = "choose_resource"
    resource: str


@dataclass(frozen=True, order=True)
class ChoosePlayer(Action):
    KIND: ClassVar[str] = "choose_player"
    player: int


@dataclass(frozen=True, order=True)
class EndTurn(Action):
    KIND: ClassVar[str] = "end_turn"


@dataclass(frozen=True, order=True)
class StartPlayer(Action):
    """Chance outcome: the start player (A.4.1; rolling with re-rolls of ties is uniform)."""

    KIND: ClassVar[str] = "start_player"
    player: int


@dataclass(frozen=True, order=True)
class Offer(Action):
    """The active player offers the others `give` for `get` (A.8). A bundle is resource
    names joined by "+" in declaration order, e.g. "brick+brick" or "wool+ore"."""

    KIND: ClassVar[str] = "offer"
    give: str
    get: str


@dataclass(frozen=True, order=True)
class Accept(Action):
    """Answer to an offer: willing to trade."""

    KIND: ClassVar[str] = "accept"


@dataclass(frozen=True, order=True)
class Decline(Action):
    KIND: ClassVar[str] = "decline"


@dataclass(frozen=True, order=True)
class TradeWith(Action):
    """The proposer trades with one of the players who accepted."""

    KIND: ClassVar[str] = "trade_with"
    player: int


@dataclass(frozen=True, order=True)
class CancelOffer(Action):
    KIND: ClassVar[str] = "cancel_offer"


@dataclass(frozen=True, order=True)
class PickUp(Action):
    """Lift an own movable piece (a ship) off a path id to move it (B.4); the next
    action puts it down."""

    KIND: ClassVar[str] = "pick_up"
    piece: str
    at: int


@dataclass(frozen=True, order=True)
class PutDown(Action):
    """Put the lifted piece down on a path id, by the rules for a new piece."""

    KIND: ClassVar[str] = "put_down"
    piece: str
    at: int


@dataclass(frozen=True, order=True)
class Take(Action):
    """What a robbery takes, when the robbing piece `takes` tokens too: `resource` (a
    resource card, drawn by chance as usual) or a token name (one token of that kind)."""

    KIND: ClassVar[str] = "take"
    what: str


ACTION_TYPES: dict[str, type[Action]] = {
    t.KIND: t
    for t in (RollDice, Roll, Build, Move, Steal, Stolen, Discard, BankTrade, BuyCard, Draw,
              PlayCard, ChooseResource, ChoosePlayer, EndTurn, StartPlayer, Offer, Accept,
              Decline, TradeWith, CancelOffer, PickUp, PutDown, Take)
}


def action_from_json(data: dict) -> Action:
    data = dict(data)
    kind = data.pop("kind")
    if kind not in ACTION_TYPES:
        raise ValueError(f"unknown action kind {kind!r}")
    return ACTION_TYPES[kind](**data)
