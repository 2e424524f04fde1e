"""What a game's page shows a person beside the board, read from the scenario's own
declarations and from what the person's seat may see:

- `costs`: the building-cost card, each piece a player pays for and each deck's card,
  with its cost (the pieces and decks the scenario declares, in its order); a cost with
  a count that is an expression is what it costs the seat now (`varies` marks it; a
  spectator sees its fixed amounts), so the card changes as the values do;
- `terrains`: the legend of the terrains on the board (or in its pools, face down
  ones too) with the resource each produces and the colour the board draws it in;
- `dice`: the last roll of the dice, its total, each named die's face and who rolled;
- `recent`: the moves made since the seat's own last one, each in the words the seat
  reads (another seat's secret veiled) with the site it was made on, so the page
  lights each a moment, one after the other, at a pace a person can follow;
- `collapsed`: a run of one seat's identical lines (a draft changed five times: "P2:
  changes the offer") as one line with its count;
- `by_card`: how many cards the seat gives or takes now one card per action (a
  discard, a gold hex's choice), so the page lets it choose them together and confirm
  once.
"""

from __future__ import annotations

from typing import Any

RECENT = 40  # moves read since the seat's own last one (a round of bots, their drafts of offers included)
LOOK_BACK = 400  # log entries searched for the last roll and the seat's last move


def costs(game, state=None, seat: int = -1) -> list[dict[str, Any]]:
    """The building-cost card: `{"name", "cost": {resource: n}}` per piece a player
    pays for, then per deck's card; `"varies": true` on a cost with a count that is an
    expression, which is what it costs `seat` in `state` now (its fixed amounts without
    a seat)."""
    from catandsl.rules import costs as priced
    from catandsl.rules.words import spoken

    varying = game.lookups(priced.CostLookups)
    seated = state is not None and 0 <= seat < game.num_players

    def entry(name: str, what: str, k: int, fixed: tuple[int, ...], varies: bool) -> dict[str, Any]:
        cost = priced.cost_of(state, seat, what, k).cards if varies and seated else fixed
        out = {"name": name, "cost": {r: n for r, n in zip(game.resources, cost) if n}}
        return {**out, "varies": True} if varies else out

    out: list[dict[str, Any]] = []
    for p in game.pieces:
        if p.neutral or not (any(p.cost) or p.varying is not None):
            continue
        out.append(entry(spoken(p.name), "piece", p.index, p.cost, p.varying is not None))
    for k, d in enumerate(game.decks):
        if any(game.deck_cost[k]) or varying.decks[k] is not None:
            out.append(entry(f"{spoken(d.name)} card", "deck", k, game.deck_cost[k], varying.decks[k] is not None))
    return out


def costs_vary(game) -> bool:
    """Whether a cost of the game has a count that is an expression (its card is then
    read afresh for each view)."""
    from catandsl.rules.costs import CostLookups

    return game.lookups(CostLookups).varies


def terrains(game) -> list[dict[str, Any]]:
    """The legend: each declared terrain on the board or in one of the map's pools, in
    declaration order, with what it produces (`choice`: a resource of the player's
    choosing) and its colour."""
    from catandsl.render import palette
    from catandsl.rules.words import spoken

    declared = game.ruleset.terrains
    board = game.board
    present = {board.terrain_names[t] for t in board.hex_terrain if 0 <= t < len(board.terrain_names)}
    m = game.ruleset.map
    for pool in (m.pools if m is not None else ()):
        present.update(a.name for a in pool.tiles)
    out = []
    for name, t in declared.items():
        if name not in present:
            continue
        produces = spoken(t.produces) if t.produces else ("a resource of your choice" if t.choice else "")
        out.append({"name": spoken(name), "produces": produces, "water": t.water,
                    "colour": palette.terrain_colour(name, t)})
    return out


def resource_colours(game) -> dict[str, str]:
    """Each resource's colour: its terrain's (the cost card's chips)."""
    from catandsl.render import palette

    return {r: palette.resource_colour(r, game.ruleset.terrains) for r in game.resources}


def dice(game, state, entries: list[dict]) -> dict[str, Any] | None:
    """The last roll: `total`, `faces` (each named die, when the dice are named) and
    `by` (the seat that rolled, -1 unknown); None before the first."""
    if not getattr(state, "last_roll", 0):
        return None
    by = -1
    for e in reversed(entries[-LOOK_BACK:]):
        if e.get("kind") in ("roll", "roll_faces"):
            by = e.get("seat", -1)
            break
    faces = [{"die": name, "face": f} for name, f in zip(game.dice_names, getattr(state, "last_faces", ()))]
    return {"total": state.last_roll, "faces": faces, "by": by}


def recent(game, entries: list[dict], seat: int) -> list[dict[str, Any]]:
    """The moves since the seat's own last one (at most RECENT): `seat` who made it
    (-1 chance), `line` as the seat reads it, `site` when it was made on one, `n` its
    number in the game (a page that follows every move lights only the new ones)."""
    from catandsl.players.base import entry_as_read, entry_line

    start = len(entries)
    stop = max(0, len(entries) - LOOK_BACK)
    while start > stop and entries[start - 1].get("player") != seat:
        start -= 1
    out: list[dict[str, Any]] = []
    first = max(start, len(entries) - RECENT)
    for n, e in enumerate(entries[first:], first):
        item: dict[str, Any] = {"seat": e.get("seat", e.get("player", -1)),
                                "line": entry_line(entry_as_read(e, seat)), "times": 1, "n": n}
        where = game.action_site(game.actions[e["action"]])
        if where is not None:
            item["site"] = {"kind": where[0], "at": where[1]}
        last = out[-1] if out else None
        if last is not None and "site" not in item and "site" not in last and last["line"] == item["line"]:
            last["times"] += 1
            last["n"] = n
            continue
        out.append(item)
    for item in out:
        if item["times"] > 1:
            item["line"] += f" (\u00d7{item['times']})"
    return out


def collapsed(lines: list[str]) -> list[str]:
    """The log's lines with each run of one identical line (no notes under it) as one
    line ending in its count: `P2: changes the offer (×5)`."""
    out: list[str] = []
    runs: list[int] = []
    for line in lines:
        if out and line == out[-1] and not line.startswith(" "):
            runs[-1] += 1
            continue
        out.append(line)
        runs.append(1)
    return [line if n == 1 else f"{line} (\u00d7{n})" for line, n in zip(out, runs)]


def by_card(state, seat: int) -> dict[str, Any] | None:
    """`{"kind", "count"}` when the seat gives or takes cards one per action now (the
    prompt is a CardByCard and the seat is the one it asks), else None."""
    from catandsl.rules.base import CardByCard

    if not state.pending or state.is_terminal() or state.is_chance_node():
        return None
    top = state.top()
    if not isinstance(top, CardByCard) or state.current_player() != seat:
        return None
    owed = next((n for p, n in top.owed if p == seat and n > 0), 0)
    return {"kind": top.KIND, "count": owed} if owed else None
