"""Drawing a token at random from a site's stock (a face-down stack of goods beside a
trade hex): `draw_from_site(at)` is a random value, so the rule waits at a chance node
whose outcomes are the token kinds still in the stock, each as likely as its count.
The rule then does what it likes with the kind drawn (`take_from_site` to hand it to
the player). A stock with nothing left has nothing to draw: the draw lapses with the
rest of its block, like a choice with nothing to choose from."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from catandsl.rules import words as w
from catandsl.rules.base import Action, Location, action_source, rules_call
from catandsl.rules.play import Game, State
from catandsl.rules.registry import TOKENS, random_value
from catandsl.rules.sites import SiteLookups, site_index


@dataclass(frozen=True, order=True)
class DrawToken(Action):
    """Chance outcome: the kind of token drawn from a site's stock."""

    KIND: ClassVar[str] = "draw_token"
    HEADING: ClassVar[str] = "Draw a token"
    WRITES: ClassVar[frozenset[str]] = frozenset((TOKENS,))
    token: str

    def words(self, told: w.Told) -> str:
        return f"draw {w.a(w.spoken(self.token))} token"


@action_source
def draw_actions(game: Game) -> list[Action]:
    if not rules_call(game, "draw_from_site"):
        return []
    return [DrawToken(t) for t in game.lookups(SiteLookups).token_names]


@random_value("at: intersection", returns="token", answer=DrawToken)
def draw_from_site(s: State, at: Location) -> list[tuple[str, int]]:
    """A token kind drawn at random from the stock of the site at `at`, each kind as
    likely as its count there; the token stays in the stock (take it with
    `take_from_site`). An empty stock has nothing to draw: the rest of the block lapses."""
    k = site_index(s.game, at)
    names = s.game.lookups(SiteLookups).token_names
    return [(names[t], n) for t, n in enumerate(s.token_stock[k]) if n > 0]
