"""How a picture or a game is named in text: a board's title (only what the board
depends on), a game's title, a player count."""

from __future__ import annotations

import json


def players_text(lo: int, hi: int) -> str:
    """`3 players`, `1 player`, `3-4 players`."""
    return f"{lo} player{'s' if lo != 1 else ''}" if lo == hi else f"{lo}-{hi} players"


def _board_signature(board, ruleset) -> str:
    """What a board picture shows, as text: hexes, numbers, harbors, starts, islands and
    the map's sites (not the seed)."""
    data = board.to_json()
    data.pop("seed", None)
    m = getattr(ruleset, "map", None)
    data["sites"] = [[s.site, s.q, s.r, s.corner, s.number] for s in (m.sites if m is not None else ())]
    return json.dumps(data, sort_keys=True, default=str)


def board_title(scenario, players: int, options: dict[str, str], seed: int) -> str:
    """A board picture's title: the scenario, and only what the board depends on: the
    player count when another count gets another map, each option whose other items
    give another board (its item named), and the seed when another seed shuffles
    another board. Raises the configuration's or the board's error, as `configure` and
    `instantiate` do."""
    from catandsl.board import BoardError, instantiate
    from catandsl.ir import ConfigurationError, configure

    rs = configure(scenario, players, options)
    mine = _board_signature(instantiate(rs, seed), rs)

    def differs(count: int, chosen: dict[str, str], s: int) -> bool:
        try:
            other = configure(scenario, count, chosen)
            return _board_signature(instantiate(other, s), other) != mine
        except (ConfigurationError, BoardError):
            return False

    parts = []
    if any(differs(count, options, seed) for count in range(scenario.players_min, scenario.players_max + 1)
           if count != players):
        parts.append(players_text(players, players))
    for opt in scenario.options:
        item = rs.options.get(opt.name, opt.default)
        if any(differs(players, {**options, opt.name: other.name}, seed) for other in opt.items
               if other.name != item):
            parts.append(f"{opt.name} {item}")
    if any(differs(players, options, other) for other in (seed + 1, seed + 2, seed + 1000)):
        parts.append(f"seed {seed}")
    return scenario.title + (" — " + ", ".join(parts) if parts else "")


def game_title(scenario, players: int, options: dict[str, str], seed: int) -> str:
    """A game's title: the scenario, the player count, the options chosen that are not
    the defaults, and the seed (a game always depends on it: the dice)."""
    defaults = {o.name: o.default for o in scenario.options}
    chosen = [f"{k} {v}" for k, v in sorted(options.items()) if defaults.get(k) != v]
    return f"{scenario.title} — " + ", ".join([players_text(players, players), *chosen, f"seed {seed}"])
