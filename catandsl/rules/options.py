"""A choice among named options inside a rule: `choose_option(player, ["Wool", "Ore",
"Peace"])` lets the player pick one of the words written in the list, and the rule runs
on with it (`if o == "Peace" { ... }`). The options are written out in the rule, so the
game numbers an action for each word any rule offers; a list computed while the game
runs stops the rule (E0701 in `check`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from catandsl.rules.base import Action, EngineError, action_source
from catandsl.rules.play import Game, State
from catandsl.rules.registry import FLOW, choice

if TYPE_CHECKING:
    from catandsl.rules import words as w


@dataclass(frozen=True, order=True)
class PickOption(Action):
    """A named option picked for `choose_option`."""

    KIND: ClassVar[str] = "pick_option"
    HEADING: ClassVar[str] = "Choose an option"
    WRITES: ClassVar[frozenset[str]] = frozenset((FLOW,))
    option: str

    def words(self, told: w.Told) -> str:
        return f'choose "{self.option}"'


def written_options(game: Game) -> list[str]:
    """Every word a rule's `choose_option` lists, sorted: the actions the game numbers."""
    out: set[str] = set()
    todo = [e.expr for e in game.effects if e.expr is not None]
    while todo:
        x = todo.pop()
        if x.op == "call" and x.value == "choose_option" and len(x.args) == 2 and x.args[1].op == "list":
            out.update(str(item.value) for item in x.args[1].args if item.op == "str")
        todo.extend(x.args)
    return sorted(out)


@action_source
def option_actions(game: Game) -> list[Action]:
    return [PickOption(o) for o in written_options(game)]


@choice("player: player, options: list<str>", returns="str", answer=PickOption)
def choose_option(s: State, player: int, options: list[str]) -> list[str]:
    """The player picks one of the options written in the list (`choose_option(player,
    ["Wool", "Ore"])`), each offered once; the list is written out in the rule, not
    computed."""
    ids = s.game.action_id
    picks = list(dict.fromkeys(str(o) for o in options))
    missing = [o for o in picks if PickOption(o) not in ids]
    if missing:
        raise EngineError("choose_option() offers the options written in its list, not " + ", ".join(missing))
    return picks
