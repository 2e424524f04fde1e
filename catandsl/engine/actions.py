"""Every kind of action, in one place for embedders: frozen dataclasses with a stable
JSON form (`to_json`, `action_from_json`), numbered through the game's sorted table
(`Game.actions`, `Game.action_id`). Each is defined beside the rule that owns it
(catandsl/rules/); this module only gathers them.
"""

from catandsl.engine.flow import EndTurn, Pass, StartPlayer
from catandsl.rules.base import ACTIONS, Action, action_from_json
from catandsl.rules.card_draws import DrawnCard
from catandsl.rules.cards import BuyCard, Draw, PlayCard
from catandsl.rules.choices import ChoosePlayer, ChooseResource, ChooseToken
from catandsl.rules.custom import TakeAction
from catandsl.rules.damage import Damage
from catandsl.rules.dice import Roll, RollDice, RollFaces, RuleRoll
from catandsl.rules.draws import DrawToken
from catandsl.rules.hands import Discard
from catandsl.rules.harbors import DrawHarbor, PlaceHarbor
from catandsl.rules.movement import PickUp, PutDown
from catandsl.rules.neutral import Move, Steal, Stolen, Take
from catandsl.rules.placement import Build
from catandsl.rules.projects import BuildStage
from catandsl.rules.roll_cards import RevealCard
from catandsl.rules.seats import BuildFor
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

ACTION_TYPES = ACTIONS  # kind -> class, every kind registered by the rule modules

__all__ = [
    "ACTION_TYPES", "Accept", "Action", "BankTrade", "Build", "BuildFor", "BuildStage", "BuyCard",
    "ChoosePlayer", "ChooseResource", "ChooseToken", "Counter", "Damage", "Decline", "Discard", "Draw", "DrawHarbor",
    "DrawnCard", "DrawToken", "EndTurn", "Move", "NewOffer", "OfferAdd", "OfferRemove", "OfferTo", "OfferToAll", "Pass",
    "PickUp", "PlaceHarbor", "PlayCard", "Propose", "PutDown", "RevealCard", "Roll", "RollDice", "RollFaces",
    "RuleRoll", "StartPlayer", "Steal", "Stolen", "Take", "TakeAction", "TradeWith", "Travel", "Withdraw",
    "action_from_json",
]
