"""A payment a rule computes: `return_to_bank(player, resource, count)` puts cards of
one resource back in the bank, so a cost that depends on a value is a condition and a
payment (`on take if cards_of(player, ore) >= level + 1 { return_to_bank(player, ore,
level + 1) ... }`), where a declared `cost` is a fixed bundle."""

from __future__ import annotations

from catandsl.rules.play import State
from catandsl.rules.registry import HANDS, effect


@effect("player: player, resource: resource, count: int 0..1000", writes=HANDS)
def return_to_bank(s: State, player: int, resource: str, count: int) -> None:
    """The player puts `count` cards of the resource back in the bank (all they hold of
    it when fewer): a payment whose size a rule computes."""
    r = s.game.res_index[resource]
    k = min(count, s.hands[player][r])
    s.hands[player][r] -= k
    s.bank[r] += k
