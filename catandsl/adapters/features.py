"""A feature observation a learner can use: per hex, per intersection, per path and per
seat, named after the scenario's own declarations (its terrains, pieces, resources,
cards, awards and prompts), with the layout exported as names.

    features = FeatureObserver(Observer(game))
    x = features.tensor(state, seat)          # float32 (size,)
    features.names[k]                         # "hex[12].terrain=forest", "player[+1].points", ...
    features.blocks["hex"]                    # Block(start, rows, columns): x[start:stop] is rows x len(columns)
    x[b.start:b.stop].reshape(b.rows, len(b.columns))

Blocks, in order (each row-major; `columns` names the numbers of one row):

- `hex` (one row per hex of the board): `terrain=T` one-hot over the scenario's terrains
  (the board as it stands: a face-down hex shows its cover, a changed hex its new
  terrain), `pips` (the chance a roll pays it, in 36ths: the pips on a 2d6 number
  token; 0 for none), `face_down`, and one column per neutral piece kind that stands
  on hexes (`robber`, `pirate`): 1 where one stands;
- `intersection` and `path` (one row per site): `owner=me`, `owner=+1`, ... (the seats
  after the viewer's, in turn order), `owner=neutral` where the game has neutral seats,
  and `piece=P` one-hot over the piece kinds that stand on that kind of site (a
  neutral piece included where it stands);
- `player` (one row per seat, the viewer's first, then in turn order): `hand` (cards in
  hand), `cards` (development cards held), `points` (as the viewer may see them: its
  own in full, the others' public points), `award=A` per award held, `played=C` per
  card played, `placed=P` per piece kind on the board;
- `me` (one row): the viewer's own `hand=R` per resource and `card=C` per card held;
- `game` (one row): `to_act`, `prompt=K` one-hot over the prompt kinds, `stage=S`,
  `bank=R` per resource, `deck` (cards left), `last_roll`;
- with domestic trade, `offer` (one row): the proposed offer's `give=X` and `get=X` per
  item (the resources, then the tokens traded), and the viewer's own draft's
  `draft_give=X` and `draft_get=X`; and `trade` (one row per seat, the viewer's first):
  `proposer`, `asked`, `accepted`, `declined`, `countered`, its counter-offer's
  `counter_give=X` and `counter_get=X`, and `draft_to` (the partner of the viewer's draft).

Everything is read from the seat's own tensor (engine/observer.py's `Tensor`, which
shows what `state.observation(seat)` shows) and from the public board as it stands, so
a feature never tells one seat another's secret. Counts are raw (not scaled).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from catandsl.adapters.arrays import legal_mask
from catandsl.engine.observer import STAGES, Observer, Tensor
from catandsl.rules.trade import TradeLookups

PIPS_SCALE = 36  # `pips` is a number's chance in 36ths: the dots printed on a 2d6 token
SEAT_BLOCKS = frozenset(("player", "trade"))  # blocks of one row per seat, the viewer's first


@dataclass(frozen=True)
class Block:
    """Rows of equal width in the feature vector: `start`, `rows`, the `columns` of one
    row; it ends at `stop`."""

    start: int
    rows: int
    columns: tuple[str, ...]

    @property
    def stop(self) -> int:
        return self.start + self.rows * len(self.columns)


class FeatureObserver:
    """Named features of what one seat may see, as float32 arrays (see the module)."""

    def __init__(self, observer: Observer):
        self.observer = observer
        self.layout = layout = observer.layout
        g = observer.game
        b = g.board
        n = g.num_players
        self.num_actions = g.num_distinct_actions()
        self._n, self._seats = n, g.num_seats
        owners = ["owner=me"] + [f"owner=+{k}" for k in range(1, n)] + (["owner=neutral"] if g.num_seats > n else [])
        site_pieces = {kind: [p for p in g.pieces if p.site == kind] for kind in ("hex", "intersection", "path")}
        hex_neutral = [p for p in site_pieces["hex"] if p.neutral]
        blocks = [
            ("hex", len(b.hexes), [f"terrain={t}" for t in b.terrain_names] + ["pips", "face_down"]
             + [p.name for p in hex_neutral]),
            ("intersection", len(b.intersections), owners + [f"piece={p.name}" for p in site_pieces["intersection"]]),
            ("path", len(b.paths), owners + [f"piece={p.name}" for p in site_pieces["path"]]),
            ("player", n, ["hand", "cards", "points"] + [f"award={a.name}" for a in g.awards]
             + [f"played={c.name}" for c in g.cards] + [f"placed={p.name}" for p in g.pieces if not p.neutral]),
            ("me", 1, [f"hand={r}" for r in g.resources] + [f"card={c.name}" for c in g.cards]),
            ("game", 1, ["to_act"] + [f"prompt={k}" for k in layout.prompt_kinds] + [f"stage={s}" for s in STAGES]
             + [f"bank={r}" for r in g.resources] + ["deck", "last_roll"]),
        ]
        self._items = g.lookups(TradeLookups).items if layout.trade else ()
        if self._items:
            items = self._items
            blocks += [
                ("offer", 1, [f"{side}={x}" for side in ("give", "get", "draft_give", "draft_get") for x in items]),
                ("trade", n, ["proposer", "asked", "accepted", "declined", "countered"]
                 + [f"counter_{side}={x}" for side in ("give", "get") for x in items] + ["draft_to"]),
            ]
        self.blocks: dict[str, Block] = {}
        self.names: list[str] = []
        at = 0
        for name, rows, columns in blocks:
            block = self.blocks[name] = Block(at, rows, tuple(columns))
            at = block.stop
            for r in range(rows):
                seats = name in SEAT_BLOCKS
                row = "me" if seats and r == 0 else f"+{r}" if seats else str(r)
                self.names += [f"{name}[{row}].{c}" if rows > 1 or seats else f"{name}.{c}" for c in columns]
        self.size = at
        # where each piece kind's one-hot column lies in its site's block (-1: not there)
        self._piece_col = np.full(len(g.pieces) + 1, -1, np.intp)  # (index -1, no piece: the last)
        for kind in ("intersection", "path"):
            cols = self.blocks[kind].columns
            for p in site_pieces[kind]:
                self._piece_col[p.index] = cols.index(f"piece={p.name}")
        # each neutral slot's piece kind and the block/column it shows in
        self._slots = [(slot, p) for p in g.pieces if p.neutral for slot in _slots_of(g, p.index)]
        self._dice = dict(g.dice_totals)
        self._boards: dict[int, tuple[Any, np.ndarray]] = {}
        self._tensors: dict[int, Tensor] = {}

    def _hex_rows(self, game: Any) -> np.ndarray:
        """The board's part of the hex block (terrain one-hot, pips) as it stands."""
        kept = self._boards.get(id(game.board))
        if kept is not None and kept[0] is game.board:
            return kept[1]
        b = game.board
        block = self.blocks["hex"]
        rows = np.zeros((block.rows, len(block.columns)), np.float32)
        rows[np.arange(block.rows), np.asarray(b.hex_terrain, np.intp)] = 1.0
        pips = block.columns.index("pips")
        for h, number in enumerate(b.hex_number):
            rows[h, pips] = round(self._dice.get(number, 0.0) * PIPS_SCALE, 6) if number else 0.0
        if len(self._boards) >= 8:
            self._boards.clear()
        self._boards[id(b)] = (b, rows)
        return rows

    def tensor(self, state: Any, player: int, out: np.ndarray | None = None) -> np.ndarray:
        """`player`'s features: a new array, or written into `out`."""
        t = self._tensors.get(player)
        if t is None:
            t = self._tensors[player] = self.observer.tracker(player, np.zeros(self.layout.size, np.float32))
        raw = t.update(state)
        x = np.zeros(self.size, np.float32) if out is None else out
        if out is not None:
            x[:] = 0.0
        sl = self.layout.slices
        n, me = self._n, player

        def part(name: str) -> np.ndarray:
            a, z = sl[name]
            return raw[a:z]

        def block(name: str) -> np.ndarray:
            bk = self.blocks[name]
            return x[bk.start:bk.stop].reshape(bk.rows, len(bk.columns))

        hexes = block("hex")
        hexes[:] = self._hex_rows(state.game)
        cols = self.blocks["hex"].columns
        face_down = list(state.face_down)
        if face_down:
            hexes[face_down, cols.index("face_down")] = 1.0
        for kind in ("intersection", "path"):
            rows = block(kind)
            owner = part("corner_owner" if kind == "intersection" else "path_owner").astype(np.intp)
            piece = part("corner_piece" if kind == "intersection" else "path_piece").astype(np.intp)
            site = np.arange(len(owner))
            mine = owner >= 0
            rel = np.where(owner < n, (owner - me) % n, n)  # neutral seats: the column after the players'
            rows[site[mine], rel[mine]] = 1.0
            col = self._piece_col[piece]
            has = col >= 0
            rows[site[has], col[has]] = 1.0
        neutral_at = part("neutral_at")
        for slot, p in self._slots:
            at = int(neutral_at[slot]) if slot < len(neutral_at) else -1
            if at < 0:
                continue
            if p.site == "hex":
                hexes[at, cols.index(p.name)] = 1.0
            else:
                c = self._piece_col[p.index]
                if c >= 0:
                    block(p.site)[at, c] = 1.0
        players = block("player")
        order = [(me + k) % n for k in range(n)]
        pcols = self.blocks["player"].columns
        hands = part("hands#count")
        cards = part("cards#count")
        scores = part("scores")
        players[:, pcols.index("hand")] = hands[order]
        players[:, pcols.index("cards")] = cards[order]
        players[:, pcols.index("points")] = scores[order]
        g = self.observer.game
        holders = part("award_holder")
        for k, a in enumerate(g.awards):
            holder = int(holders[k])
            if 0 <= holder < n:
                players[(holder - me) % n, pcols.index(f"award={a.name}")] = 1.0
        C = len(g.cards)
        if C:
            first = pcols.index(f"played={g.cards[0].name}")
            players[:, first:first + C] = part("played").reshape(-1, C)[:n][order]
        own = [p for p in g.pieces if not p.neutral]
        if own:
            placed = part("placed").reshape(g.num_seats, len(g.pieces))
            first = pcols.index(f"placed={own[0].name}")
            players[:, first:first + len(own)] = placed[:n][order][:, [p.index for p in own]]
        R = len(g.resources)
        mine_row = block("me")[0]
        mine_row[:R] = part("hands").reshape(n, R)[me]
        if C:
            mine_row[R:R + C] = part("cards").reshape(n, C)[me]
        row = block("game")[0]
        k = 0
        row[k] = part("to_act")[0]
        k += 1
        row[k:k + len(self.layout.prompt_kinds)] = part("prompt")
        k += len(self.layout.prompt_kinds)
        row[k:k + len(STAGES)] = part("stage")
        k += len(STAGES)
        row[k:k + R] = part("bank")
        k += R
        row[k] = part("deck#count")[0] if "deck#count" in sl else 0.0
        row[k + 1] = part("last_roll")[0]
        if self._items:
            block("offer")[0] = np.concatenate([part(f) for f in ("offer_give", "offer_get", "draft_give",
                                                                  "draft_get")])
            I2 = 2 * len(self._items)
            seat_rows = np.concatenate([part("offer_by").reshape(n, 1), part("offer_to").reshape(n, 1),
                                        part("offer_answers").reshape(n, 3), part("offer_counters").reshape(n, I2),
                                        part("draft_to").reshape(n, 1)], axis=1)
            block("trade")[:] = seat_rows[order]
        return x

    def mask(self, state: Any, out: np.ndarray | None = None) -> np.ndarray:
        return legal_mask(state, self.num_actions, out)


def _slots_of(game: Any, kind: int) -> tuple[int, ...]:
    """The neutral_at slots of a neutral piece kind: its first piece's, then its others'."""
    extra = game.neutral_slots[kind] if kind < len(game.neutral_slots) else ()
    return tuple(dict.fromkeys((kind, *extra)))
