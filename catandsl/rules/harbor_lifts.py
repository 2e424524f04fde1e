"""A harbor lifted off the board by a rule: `lift_harbor(at)` puts the harbor token a
player laid on the spot at path `at` back in the supply, and the spot is empty again, so
that `place_harbor` lays a token there or elsewhere (a harbor moved, a harbor lost to a
storm). A harbor the map laid is part of the board and stays, as does an empty spot or
a path that is no harbor spot. Trade rates follow at once: rates are read from what lies
on the spots whenever a game places harbors in play."""

from __future__ import annotations

from catandsl.rules.base import Location
from catandsl.rules.harbors import HarborLookups
from catandsl.rules.play import State
from catandsl.rules.registry import HANDS, effect


@effect("at: path", writes=HANDS)
def lift_harbor(s: State, at: Location) -> None:
    """The harbor token a player laid on the harbor spot at path `at` goes back to the
    supply, and the spot is empty again (`place_harbor` lays one there later); a harbor
    the map laid, an empty spot and a path that is no harbor spot stay as they are."""
    t = s.game.lookups(HarborLookups)
    spot = t.spot_of_path.get(int(at[1]), -1)
    if spot < 0 or t.start[spot] >= 0 or s.harbor_at[spot] < 0:
        return
    s.harbor_supply[s.harbor_at[spot]] += 1
    s.harbor_at[spot] = -1
