"""A scenario's own actions (`action NAME "Title" { cost ...; per_turn N; on take if
COND { EFFECTS } }`): a player takes one in a phase that allows it (by its name, or
`actions` for all), when they can pay its cost, have taken it fewer than `per_turn`
times this turn, and its condition holds; its effects then run as the hooks of
`action_taken(NAME)`. A cost may name tokens (`cost 2 coin`): the player pays them from
the tokens they hold back to the token's general supply."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from catandsl.rules import costs
from catandsl.rules import words as w
from catandsl.rules.base import Action, Activity, IllegalAction, action_source, activity
from catandsl.rules.placement import affordable, pay
from catandsl.rules.play import NO_ANSWERS, Game, State
from catandsl.rules.registry import EVERYTHING


@dataclass(frozen=True, order=True)
class TakeAction(Action):
    """Take the scenario's action `action` (its effects say what it does)."""

    KIND: ClassVar[str] = "take_action"
    HEADING: ClassVar[str] = "Actions"
    WRITES: ClassVar[frozenset[str]] = EVERYTHING
    action: str

    def words(self, told: w.Told) -> str:
        """`take the action "Move a barbarian (1 trade token)"`: the action's own title."""
        declared = next((a for a in told.game.custom_actions if a.name == self.action), None)
        return f'take the action "{declared.title if declared is not None else w.spoken(self.action)}"'


@action_source
def custom_actions(game: Game) -> list[Action]:
    return [TakeAction(a.name) for a in game.custom_actions]


@dataclass(frozen=True)
class CustomLookups:
    """The declared actions' ids and costs."""

    ids: tuple[int, ...]  # per declared action
    costs: tuple[tuple[int, ...], ...]
    index: dict[str, int]
    token_costs: tuple[tuple[int, ...], ...]  # per declared action, per token kind

    @classmethod
    def build(cls, game: Game) -> CustomLookups:
        t = game.lookups(costs.CostLookups)  # the fixed vectors, derived there
        return cls(tuple(game.action_id[TakeAction(a.name)] for a in game.custom_actions), t.action_cards,
                   {a.name: k for k, a in enumerate(game.custom_actions)}, t.action_tokens)


def available(s: State, p: int, k: int) -> str:
    """Why player p may not take declared action k now ("" if they may)."""
    g = s.game
    a = g.custom_actions[k]
    if s.acted[k] >= a.per_turn:
        return f"taken {a.per_turn} time(s) this turn already"
    if a.varying_cost:
        cards, tokens = costs.cost_of(s, p, "action", k)
    else:  # a fixed cost: the tables alone
        t = g.lookups(CustomLookups)
        cards, tokens = t.costs[k], t.token_costs[k]
    if not affordable(s.hands[p], cards) or not affordable(s.tokens_held[p], tokens):
        return "cannot afford it"
    env = {"player": p, "action": a.name}
    if a.condition is not None and not g.interp.program(a.condition, a.source).run(env, s, NO_ANSWERS):
        return "its condition does not hold"
    return g.interp.unable("action_taken", a.name, env, s)  # (a `build_free` with nowhere to build)


def _legal(s: State, p: int, names: frozenset[str] | None) -> list[int]:
    g = s.game
    t = g.lookups(CustomLookups)
    return [t.ids[k] for k, a in enumerate(g.custom_actions)
            if (names is None or a.name in names) and not available(s, p, k)]


def _apply(s: State, p: int, act: TakeAction) -> None:
    t = s.game.lookups(CustomLookups)
    k = t.index[act.action]
    cards, tokens = costs.cost_of(s, p, "action", k)
    pay(s, p, cards)
    held, supply = s.tokens_held[p], s.token_supply
    for i, n in enumerate(tokens):
        if n:
            held[i] -= n
            supply[i] += n
    s.acted[k] += 1
    s.emit("action_taken", {"player": p, "action": act.action})


def _refusal(s: State, p: int, act: TakeAction) -> IllegalAction:
    k = s.game.lookups(CustomLookups).index[act.action]
    why = available(s, p, k) or "not now"
    code = "action/cannot_afford" if why == "cannot afford it" else "action/not_legal"
    return IllegalAction(code, f"take_action {act.action}: {why}")


ACTIONS_ACTIVITY = activity(Activity(
    "actions", "take one of the scenario's own actions (a phase may name them one by one)",
    _legal, {TakeAction: _apply}, names="action", subject=lambda game, act: act.action,
    refusal=_refusal))
