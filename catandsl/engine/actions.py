"""Every kind of action, in one place for embedders: frozen dataclasses with a stable
JSON form (`to_json`, `action_from_json`), numbered through the game's sorted table
(`Game.actions`, `Game.action_id`), each wording itself (`catandsl.rules.words`).

Each kind is defined once, beside the rule that owns it (catandsl/rules/, and the turn's
own in engine/flow.py), and registers itself by its `KIND` (`rules.base.ACTIONS`); this
module gathers the registry, so a new kind is exported here without being listed. The
names under TYPE_CHECKING are for type checkers only (tests/engine/test_action_registry.py
checks that they are the registry's).
"""

# ruff: noqa: F401  (the names under TYPE_CHECKING are read by type checkers only)
from typing import TYPE_CHECKING

import catandsl.rules  # (every rule module registers its kinds)
from catandsl.engine import flow  # (the turn's own kinds: end_turn, pass, start_player)
from catandsl.rules.base import ACTIONS, Action, action_from_json

if TYPE_CHECKING:
    from catandsl.engine.flow import EndTurn, Pass, StartPlayer
    from catandsl.rules.bids import Bid, PickNumber
    from catandsl.rules.card_draws import DrawnCard
    from catandsl.rules.cards import BuyCard, Draw, PlayCard
    from catandsl.rules.choices import ChoosePlayer, ChooseResource, ChooseToken
    from catandsl.rules.custom import TakeAction
    from catandsl.rules.damage import Damage
    from catandsl.rules.dice import Roll, RollDice, RollFaces, RuleRoll
    from catandsl.rules.draws import DrawToken
    from catandsl.rules.hand_picks import TakeFromHand
    from catandsl.rules.hands import Discard
    from catandsl.rules.harbors import DrawHarbor, PlaceHarbor
    from catandsl.rules.hexes import RevealNumber, RevealTile
    from catandsl.rules.losses import Lost
    from catandsl.rules.movement import PickUp, PutDown
    from catandsl.rules.neutral import Move, Steal, Stolen, Take
    from catandsl.rules.options import PickOption
    from catandsl.rules.picks import PickCard, PickToken
    from catandsl.rules.piece_moves import PickIntersection
    from catandsl.rules.placement import Build
    from catandsl.rules.projects import BuildStage
    from catandsl.rules.removal import RemoveFromIntersection, RemoveFromPath
    from catandsl.rules.roll_cards import RevealCard
    from catandsl.rules.seats import BuildFor
    from catandsl.rules.stacks import DrawnFromStack, Stacked
    from catandsl.rules.trade import (
        Accept,
        BankTrade,
        Counter,
        Decline,
        NewOffer,
        OfferAdd,
        OfferRemove,
        OfferTo,
        OfferToAll,
        Propose,
        TradeWith,
        Withdraw,
    )
    from catandsl.rules.travel import Travel
    from catandsl.rules.traveller_picks import PickTraveller

ACTION_TYPES = ACTIONS  # kind -> class, every kind registered by the rule modules


def _gather() -> list[str]:
    """Each registered kind's class under its own name in this module; the names."""
    names = []
    for kind in sorted(ACTIONS):
        cls = ACTIONS[kind]
        if globals().get(cls.__name__, cls) is not cls:
            raise ValueError(f"two action classes are named {cls.__name__}")
        globals()[cls.__name__] = cls
        names.append(cls.__name__)
    return names


KIND_NAMES = tuple(sorted(_gather()))
__all__ = ["ACTION_TYPES", "Action", "KIND_NAMES", "action_from_json", *KIND_NAMES]
