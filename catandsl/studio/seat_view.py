"""What one seat of a hosted game sees, and what a spectator sees, built from the
engine's observation alone.

A seat's page is made from `state.observation(seat)`: its own hand and cards, the
others' as counts, points as that seat may count them (another seat's hidden victory
point cards left out), the trade as that seat sees it, the log as that seat reads it
(`entry_as_read`: a card another drew, what another stole, in veiled words). A
spectator has no seat: every hand and card is a count, every score the public one,
no draft of an offer, the log as `SPECTATOR` reads it.

The board picture is `render_state` for the viewer: the pieces, marks and face-down
hexes it shows are all public, and its legend gives the points the viewer may count
(the same as the observation's, so viewers who count the same points share a picture).
The view holds named fields only, never the observation itself, so a field the engine
adds does not reach a page unasked.

`tests/studio/test_rooms.py` checks it the strong way: a view is the same for the
real state and for any state the engine deals to agree with what the viewer sees
(`engine/infostate.resample`).
"""

from __future__ import annotations

from typing import Any

from catandsl.rules.words import SPECTATOR

LOG_SHOWN = 300  # log lines a page gets


def _count(v) -> int:
    return sum(v) if isinstance(v, list) else int(v)


def observed(state, viewer: int) -> dict:
    """The observation the viewer's page is built from: the seat's own, or for a
    spectator a seat's with that seat's secrets made counts as for anyone else."""
    if viewer >= 0:
        return state.observation(viewer)
    seen = state.observation(0)
    seen["hands"] = [_count(v) for v in seen["hands"]]
    seen["cards"] = [_count(v) for v in seen["cards"]]
    seen["scores"] = [state.public_points(p) for p in range(state.game.num_players)]
    seen["trade"] = {**seen.get("trade", {}), "draft": None}
    return seen


def board_svg(game, state, viewer: int, title: str) -> str:
    """The board as the viewer may see it: `render_state` for that viewer (pieces,
    marks, face-down hexes: all public; the legend's points those the viewer may count)."""
    from catandsl.render.state_svg import render_state

    return render_state(game, state, title=title, viewer=viewer)


def players_of(game, seen: dict, viewer: int) -> list[dict[str, Any]]:
    """Each seat's row as the viewer sees it: hand and cards by name for the viewer's
    own seat, counts for every other."""
    from catandsl.render import palette
    from catandsl.studio.offers import seat_label

    rows = []
    for p in range(game.num_players):
        hand, cards = seen["hands"][p], seen["cards"][p]
        mine = p == viewer and isinstance(hand, list)
        rows.append({
            "seat": p, "name": seat_label(game, p), "colour": palette.player_colour(p), "you": p == viewer,
            "points": seen["scores"][p],
            "hand": dict(zip(game.resources, hand)) if mine else None,
            "hand_count": _count(hand),
            "cards": {c.name: n for c, n in zip(game.cards, cards) if n} if mine else None,
            "card_count": _count(cards),
            "played": {c.name: n for c, n in zip(game.cards, seen["played"][p]) if n},
            "awards": [a.title for k, a in enumerate(game.awards) if seen["award_holder"][k] == p],
            "tokens": {t: n for t, n in zip(game.token_names, seen["tokens_held"][p]) if n},
        })
    return rows


def log_of(entries: list[dict], viewer: int) -> list[str]:
    from catandsl.players.base import entry_as_read, log_lines

    reader = viewer if viewer >= 0 else SPECTATOR
    return log_lines([entry_as_read(e, reader) for e in entries])


def status_of(game, state, viewer: int, stopped: dict | None) -> str:
    from catandsl.studio.offers import seat_label

    if stopped is not None:
        return f"the game stopped: {stopped['message']}"
    if state.is_terminal():
        winners = [state.winner] if state.winner >= 0 else list(state.winners)
        names = " and ".join(seat_label(game, p) for p in winners) or "nobody"
        return f"game over: {names} won ({state.reason}) after {state.turns} turns"
    where = f"turn {state.turns}" if state.stage == "turn" else "set-up"
    if state.is_chance_node():
        return f"{where}: chance"
    who = state.current_player()
    if who == viewer:
        return f"{where}: your move ({seat_label(game, viewer)})"
    return f"{where}: {seat_label(game, who)} is to act"


def seat_view(game, state, entries: list[dict], viewer: int, title: str, layer=None,
              stopped: dict | None = None, pictures: dict | None = None) -> dict[str, Any]:
    """The page of `viewer` (a seat, or SPECTATOR): the board, the players, the trade,
    the log, and when it is the viewer's move the actions on offer. `pictures`, when
    given, keeps the board's pictures of this very state by the points their legend
    shows (the viewers who count the same points share one drawing)."""
    from catandsl.studio.offers import offers
    from catandsl.studio.pictures import with_sites

    seen = observed(state, viewer)
    on_offer = offers(state, viewer) if viewer >= 0 and stopped is None else {"groups": [], "sites": {}}
    targets = {(i["site"]["kind"], i["site"]["at"]) for grp in on_offer["groups"] for i in grp["actions"]
               if "site" in i}
    shown = tuple(seen["scores"])
    svg = pictures.get(shown) if pictures is not None else None
    if svg is None:
        svg = board_svg(game, state, viewer, title)
        if pictures is not None:
            pictures[shown] = svg
    if layer is not None:
        svg = with_sites(svg, layer, targets)
    elif svg.startswith("<?xml"):
        svg = svg[svg.index("?>") + 2:].lstrip()
    lines = log_of(entries, viewer)
    chance = state.is_chance_node()
    to_act = -1 if chance or state.is_terminal() else state.current_player()
    return {
        "seat": viewer, "title": title, "stage": state.stage, "turn": state.turns,
        "phase": game.phases[state.phase].name if state.stage == "turn" else "",
        "to_act": to_act, "your_move": viewer >= 0 and to_act == viewer and stopped is None,
        "over": state.is_terminal(), "winner": state.winner, "winners": list(state.winners), "reason": state.reason,
        "status": status_of(game, state, viewer, stopped), "players": players_of(game, seen, viewer),
        "bank": dict(zip(game.resources, seen["bank"])), "deck": seen["deck"], "victory": game.victory,
        "offers": on_offer, "trade": seen.get("trade") or {"offer": None, "draft": None},
        "log": lines[-LOG_SHOWN:], "log_length": len(lines), "svg": svg,
    }
