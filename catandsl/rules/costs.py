"""What a thing costs a player now: a piece, a deck's card, a scenario's action, a
project's next stage.

A cost's fixed amounts (`cost 3 ore + 2 grain`) are a resource vector in the game's
flat tables, as they always were; amounts that are expressions (`cost (level + 1)
paper`) are kept beside them as a `Varying`, or None for a cost that is fixed, so the
flag is read once per kind and a fixed cost never reaches the interpreter. `cost_of` is
the one answer to "what does this cost this player now", for the engine's legal actions
and payments, the bots' affordability and the studio's cost card alike.

A count is evaluated with `player` (the buyer) and, for a stage, `level` (the stages
built before it) in scope. A count below 0 stops the game with an `EngineError` naming
the cost's line (the compiler refuses counts that can go below 0, E0525, so only a query
that can, such as `points`, reaches this): a negative count would pay the buyer from the
bank, so it is never clamped into a silent free build.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from catandsl.ir import model
from catandsl.rules.base import EngineError
from catandsl.rules.play import NO_ANSWERS, Game, State, Varying


class Price(NamedTuple):
    """A cost as the buyer pays it: resource cards, and an action's tokens."""

    cards: tuple[int, ...]
    tokens: tuple[int, ...] = ()


def varying(game: Game, amounts: tuple[model.VaryingAmount, ...],
            token_index: dict[str, int] | None = None) -> Varying | None:
    """A declaration's amounts that are expressions, or None when its cost is fixed."""
    if not amounts:
        return None
    res = game.res_index
    cards = tuple((res[a.name], a.count, a.source) for a in amounts if a.name in res)
    tokens = tuple((token_index[a.name], a.count, a.source) for a in amounts
                   if a.name not in res and token_index is not None and a.name in token_index)
    return Varying(cards, tokens)


@dataclass(frozen=True)
class CostLookups:
    """The costs of decks, actions and stages: their fixed vectors (a piece's and a
    deck's are the game's own tables) and what varies."""

    decks: tuple[Varying | None, ...]
    actions: tuple[Varying | None, ...]
    stages: tuple[tuple[Varying | None, ...], ...]  # [project][stage]
    action_cards: tuple[tuple[int, ...], ...]  # [action] resource vector
    action_tokens: tuple[tuple[int, ...], ...]  # [action] per token kind
    stage_cards: tuple[tuple[tuple[int, ...], ...], ...]  # [project][stage] resource vector
    varies: bool  # some cost of the game is an expression (a piece's too)

    @classmethod
    def build(cls, game: Game) -> CostLookups:
        token_index = game.token_index
        decks = tuple(varying(game, d.varying_cost) for d in game.decks)
        actions = tuple(varying(game, a.varying_cost, token_index) for a in game.custom_actions)
        projects = tuple(game.ruleset.projects.values())
        stages = tuple(tuple(varying(game, st.varying_cost) for st in p.stages) for p in projects)
        tokens = []
        for a in game.custom_actions:
            v = [0] * len(token_index)
            for amount in a.token_cost:
                v[token_index[amount.name]] += amount.count
            tokens.append(tuple(v))
        varies = any(x is not None for x in (*decks, *actions, *(v for row in stages for v in row),
                                             *(P.varying for P in game.pieces)))
        return cls(decks, actions, stages, tuple(game.cost_vector(a.cost) for a in game.custom_actions),
                   tuple(tokens), tuple(tuple(game.cost_vector(st.cost) for st in p.stages) for p in projects),
                   varies)


def cost_of(s: State, p: int, what: str, k: int) -> Price:
    """What `what` ("piece", "deck", "action" or "stage") number k costs player p now
    (a stage: project k's next one)."""
    g = s.game
    if what == "piece":
        P = g.pieces[k]
        return Price(P.cost if P.varying is None else _evaluate(s, P.cost, P.varying.cards, {"player": p}))
    t = g.lookups(CostLookups)
    if what == "deck":
        v = t.decks[k]
        fixed = g.deck_cost[k]
        return Price(fixed if v is None else _evaluate(s, fixed, v.cards, {"player": p}))
    if what == "action":
        fixed, tokens = t.action_cards[k], t.action_tokens[k]
        v = t.actions[k]
        if v is None:
            return Price(fixed, tokens)
        env = {"player": p}
        return Price(_evaluate(s, fixed, v.cards, env), _evaluate(s, tokens, v.tokens, env))
    if what == "stage":
        level = s.project_level[k]
        fixed = t.stage_cards[k][level]
        v = t.stages[k][level]
        return Price(fixed if v is None else _evaluate(s, fixed, v.cards, {"player": p, "level": level}))
    raise ValueError(f"nothing is priced as {what!r}")


def nominal(fixed: tuple[int, ...], v: Varying | None) -> tuple[int, ...]:
    """A cost read before any game state exists (a bot's weighting of the resources): the
    fixed amounts and one of each resource a count names."""
    if v is None:
        return fixed
    out = list(fixed)
    for r, _e, _src in v.cards:
        out[r] += 1
    return tuple(out)


def _evaluate(s: State, fixed: tuple[int, ...], terms, env: dict) -> tuple[int, ...]:
    if not terms:
        return fixed
    interp = s.game.interp
    out = list(fixed)
    for r, expr, source in terms:
        n = interp.program(expr, source).run(env, s, NO_ANSWERS)
        if not isinstance(n, int) or isinstance(n, bool):
            raise EngineError(f"a cost counts a number of cards, not {n!r}", source)
        if n < 0:
            raise EngineError(f"a cost's count came to {n}: a cost counts 0 or more of a resource", source)
        out[r] += n
    return tuple(out)
