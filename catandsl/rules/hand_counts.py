"""A player's hand as data: how many cards of one resource they hold, so a rule can say
"each player with 3 or more ore" or give away all cards of a kind."""

from __future__ import annotations

from catandsl.rules.play import State
from catandsl.rules.registry import HANDS, query


@query("player: player, resource: resource", returns="int", reads=HANDS)
def cards_of(s: State, player: int, resource: str) -> int:
    """How many cards of the resource the player holds (`cards_of(p, ore) >= 3`)."""
    return s.hands[player][s.game.res_index[resource]]
