"""What the page offers a player: the legal actions, grouped by kind for buttons and by
site for clicks on the board, read from the engine alone (`legal_actions`, each
action's JSON form, its words from `catandsl.rules.words.describe`, its group's heading
from its kind, `Action.listed_under`), so any scenario the engine runs is playable
without page code of its own."""

from __future__ import annotations

from typing import Any


def seat_label(game, seat: int) -> str:
    from catandsl.players.base import seat_label as label

    return label(game, seat)


def action_label(game, aid: int, state=None, seat: int | None = None) -> str:
    """A button's words: the action in rulebook words (`catandsl.rules.words.describe`,
    the one place that words actions), as `seat` may read them in `state`."""
    from catandsl.rules.words import describe

    return describe(game, aid, seat, state=state, actor=-1 if seat is None else seat)


def offers(state, seat: int) -> dict[str, Any]:
    """The seat's legal actions now: `groups` by kind (in the order of the action
    table), each action with its id, label, JSON and site (the bank's trades with the
    seat's `rates`, cards given for one, per resource); `sites` maps `kind:at` to the
    ids of the actions on that site."""
    game = state.game
    groups: dict[str, dict[str, Any]] = {}
    sites: dict[str, list[int]] = {}
    if state.is_terminal() or state.is_chance_node() or state.current_player() != seat:
        return {"groups": [], "sites": {}}
    for aid in state.legal_actions():
        a = game.actions[aid]
        where = game.action_site(a)
        key, title = a.listed_under()  # the kind's own heading (rules/base.py `Action.HEADING`)
        group = groups.get(key)
        if group is None:
            group = groups[key] = {"kind": key, "title": title, "actions": []}
        item: dict[str, Any] = {"id": aid, "label": action_label(game, aid, state, seat), "action": a.to_json()}
        if where is not None:
            item["site"] = {"kind": where[0], "at": where[1]}
            sites.setdefault(f"{where[0]}:{where[1]}", []).append(aid)
        group["actions"].append(item)
    if "bank_trade" in groups:  # the seat's rate per resource: the bank's, or a harbor's
        from catandsl.rules.trade import trade_rate

        groups["bank_trade"]["rates"] = {r: trade_rate(state, seat, k) for k, r in enumerate(game.resources)}
    return {"groups": list(groups.values()), "sites": sites}


def site_actions(game) -> dict[tuple[str, int], list[int]]:
    """Every action of the game's table by the site it names (to find the engine's
    reason when a click on a site matches no legal action)."""
    out: dict[tuple[str, int], list[int]] = {}
    for aid, a in enumerate(game.actions):
        where = game.action_site(a)
        if where is not None:
            out.setdefault(where, []).append(aid)
    return out
