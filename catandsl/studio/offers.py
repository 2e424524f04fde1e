"""What the page offers a player: the legal actions, grouped by kind for buttons and by
site for clicks on the board, read from the engine alone (`legal_actions`, each
action's JSON form, its words from `catandsl.rules.words.describe`), so any scenario the
engine runs is playable without page code of its own."""

from __future__ import annotations

from typing import Any

# Headings for the engine's own action kinds (the kinds are the engine's, never a
# scenario's); any other kind is headed by its name.
TITLES = {
    "roll_dice": "Roll", "end_turn": "End turn", "build": "Build", "buy_card": "Buy", "play_card": "Play a card",
    "bank_trade": "Trade with the bank", "new_offer": "Offer a trade to the others",
    "offer_add:give": "Your offer gives", "offer_add:get": "Your offer asks for", "offer_remove": "Take off the offer",
    "offer_to": "Offer it to", "propose": "The offer", "accept": "Answer the offer", "trade_with": "Trade with",
    "discard": "Discard", "move": "Move", "steal": "Rob", "take": "Take", "choose_resource": "Choose a resource",
    "choose_player": "Choose a player", "pass": "Pass", "take_action": "Actions", "build_stage": "Build a stage",
    "pick_up": "Pick up", "put_down": "Put down", "travel": "Travel", "build_for": "Build for",
    "place_harbor": "Place a harbor", "damage": "Damage",
    "remove_from_intersection": "Remove", "remove_from_path": "Remove",
}
# kinds shown together under one heading (an offer's answers, a draft's partner, its end)
SAME_GROUP = {"decline": "accept", "counter": "accept", "offer_to_all": "offer_to", "withdraw": "propose"}
# kinds shown under one heading per value of a field (an item to give, or to get)
SPLIT_BY = {"offer_add": "side"}


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
        key = SAME_GROUP.get(a.KIND, a.KIND)
        if key == "build" and where is not None:  # one group per piece: "Build road"
            key = f"build:{getattr(a, 'piece', '')}"
        elif key in SPLIT_BY:
            key = f"{key}:{getattr(a, SPLIT_BY[key])}"
        group = groups.get(key)
        if group is None:
            title = TITLES.get(key, TITLES.get(key.partition(":")[0], key.replace("_", " ")))
            if key.startswith("build:"):
                title = f"Build {key.partition(':')[2]}"
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
