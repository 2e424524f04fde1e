"""Observations as fixed-size numbers, in OpenSpiel's sense: one flat tensor per player
with named slices, a string form, and a legal-action mask over the game's action table.

The tensor is made from `state.observation(player)` (so it shows exactly what that
player may see) and laid out from the state's own fields (`state.FIELDS`), so a field
the engine gains is observed without being listed here:

- a number or flag is one entry; `stage` is one-hot (setup, turn, over); other strings
  are left out (`reason` says why a game ended, nothing to decide on);
- a list keeps the length it has in a fresh state (padded with zeros, cut if longer),
  rows of rows row by row, and gets a `FIELD#len` entry with its current length (for
  lists that grow, such as `winners` or `partners`, that length is all that is shown);
- what the observation hides (an opponent's hand, the deck) is zeros in place, with its
  count in `FIELD#count` (one entry per row that may be hidden);
- `seat` (one-hot: whose view this is), `scores` (as the observation shows them),
  `to_act` (1 if this player decides now), `prompt` (one-hot: the kind of decision the
  game waits for), and the board (`hex_terrain`, `hex_number`: static, and public:
  the engine has no face-down hexes).

    obs = Observer(game)
    obs.size, obs.slices["hands"]                # (start, stop) into the tensor
    obs.tensor(state, player)                    # list[float] of obs.size
    obs.string(state, player)                    # the observation as sorted JSON
    obs.legal_mask(state)                        # list[int] of game.num_distinct_actions()
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from catandsl.engine import flow
from catandsl.engine.state import FIELDS, State
from catandsl.rules.base import PROMPTS

if TYPE_CHECKING:
    from catandsl.engine.game import Game

STAGES = ("setup", "turn", "over")


def _shape(v: Any) -> Any:
    """A fresh value's shape: None for a scalar, else [row shapes...]."""
    if isinstance(v, list):
        return [_shape(x) for x in v]
    return None


def _size(shape: Any) -> int:
    return 1 if shape is None else sum(_size(x) for x in shape)


class Observer:
    def __init__(self, game: Game):
        self.game = game
        fresh = State(game)
        full = fresh.to_json()
        views = [fresh.observation(p) for p in range(game.num_players)]
        fresh.turn_player = game.num_players - 1  # what is hidden from a player whose turn it is not
        views += [fresh.observation(p) for p in range(game.num_players)]
        standing = sorted({type(p).KIND for p in flow.STANDING.values()} | set(PROMPTS))
        self.prompt_kinds: tuple[str, ...] = tuple(standing)
        self._fields: list[tuple[str, Any, bool]] = []  # (field, fresh shape, may be hidden)
        layout: list[tuple[str, int]] = [("seat", game.num_players), ("to_act", 1),
                                         ("prompt", len(self.prompt_kinds)), ("stage", len(STAGES)),
                                         ("scores", game.num_players)]
        for f in FIELDS:
            if f == "stage" or f not in views[0] or isinstance(full[f], str):
                continue  # stage is one-hot above; the seed is hidden; strings are left out
            shape = _shape(full[f])
            hidden = any(_hides(full[f], v[f]) for v in views)
            self._fields.append((f, shape, hidden))
            layout.append((f, _size(shape)))
            if isinstance(shape, list):
                layout.append((f + "#len", 1))
            if hidden:
                layout.append((f + "#count", len(shape) if shape and any(isinstance(x, list) for x in shape) else 1))
        b = game.board
        layout += [("hex_terrain", len(b.hexes)), ("hex_number", len(b.hexes))]
        self.slices: dict[str, tuple[int, int]] = {}
        at = 0
        for name, n in layout:
            self.slices[name] = (at, at + n)
            at += n
        self.size = at
        self._board = [float(t) for t in b.hex_terrain] + [float(_number(b, h)) for h in range(len(b.hexes))]

    def tensor(self, state: State, player: int) -> list[float]:
        """What `player` may see, as `self.size` numbers (ints and floats) laid out by
        `self.slices`."""
        g = self.game
        view = state.observation(player, copy=False)  # checks the seat; read only
        out = [0.0] * self.size
        sl = self.slices

        def put(name: str, values: list[float]) -> None:
            a, z = sl[name]
            out[a:z] = (values + [0.0] * (z - a))[: z - a]

        put("seat", [float(p == player) for p in range(g.num_players)])
        put("to_act", [float(state.current_player() == player)])
        kind = type(state.top()).KIND
        put("prompt", [float(k == kind) for k in self.prompt_kinds])
        put("stage", [float(state.stage == s) for s in STAGES])
        put("scores", [float(x) for x in view["scores"]])
        for f, shape, hidden in self._fields:
            values: list[float] = []
            counts: list[float] | None = [] if hidden else None
            _flatten(shape, view[f], values, counts)
            put(f, values)
            if isinstance(shape, list):
                put(f + "#len", [float(len(view[f]) if isinstance(view[f], list) else len(shape))])
            if counts is not None:
                put(f + "#count", counts)
        a, _ = sl["hex_terrain"]
        out[a:a + len(self._board)] = self._board
        return out

    def string(self, state: State, player: int) -> str:
        return json.dumps(state.observation(player), sort_keys=True)

    def legal_mask(self, state: State) -> list[int]:
        """1 for each action id the player to act may take now (all 0 at a chance node or
        the end)."""
        mask = [0] * self.game.num_distinct_actions()
        if not state.is_chance_node() and not state.is_terminal():
            for a in state.legal_now():
                mask[a] = 1
        return mask


def _hides(full: Any, seen: Any) -> bool:
    if isinstance(full, list) and not isinstance(seen, list):
        return True
    return isinstance(full, list) and any(_hides(x, y) for x, y in zip(full, seen))


def _flatten(shape: Any, seen: Any, values: list[float], counts: list[float] | None) -> None:
    """Append the entries of `seen` laid out as `shape` (zeros where it is shorter or
    hidden); for a field that may be hidden, each row's count goes to `counts`."""
    if shape is None:
        values.append(float(seen) if isinstance(seen, (int, float)) else 0.0)
        return
    if not isinstance(seen, list):  # hidden: zeros in place, the count beside
        values.extend([0.0] * _size(shape))
        if counts is not None:
            counts.append(float(seen) if isinstance(seen, (int, float)) else 0.0)
        return
    if not shape or shape[0] is None:  # a flat list of ints (the state's lists are checked): one step
        n = len(shape)
        values.extend(seen[:n])
        values.extend([0.0] * (n - len(seen)))
        if counts is not None:
            counts.append(float(sum(x for x in seen if isinstance(x, int))))
        return
    for k, sub in enumerate(shape):
        if k >= len(seen):
            values.extend([0.0] * _size(sub))
        elif isinstance(sub, list) and not isinstance(seen[k], list):  # a hidden row
            values.extend([0.0] * _size(sub))
            if counts is not None:
                counts.append(float(seen[k]))
        else:
            if isinstance(sub, list) and counts is not None:
                counts.append(float(sum(x for x in seen[k] if isinstance(x, int))))
            _flatten(sub, seen[k], values, None)


def _number(board: Any, h: int) -> int:
    for n, hexes in enumerate(board.number_hexes):
        if h in hexes:
            return n
    return 0
