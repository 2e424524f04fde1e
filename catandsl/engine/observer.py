"""Observations as fixed-size numbers, in OpenSpiel's sense: one flat tensor per player
with named slices, a string form, and a legal-action mask over the game's action table.

The tensor shows what `state.observation(player)` shows, and it is laid out from the
state's own fields (`state.FIELDS`), so a field the engine gains is observed without
being listed here:

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
  the engine has no face-down hexes);
- in a game with domestic trade, the trade as the observation's `trade` shows it
  (rules/trade.py `observed`): the proposed offer (`offer_by`, `offer_to` one-hot over
  the seats, `offer_give`, `offer_get` per item, `offer_answers` per seat: accepted,
  declined, countered; `offer_counters` per seat: give and get), and the player's own
  draft (`draft_give`, `draft_get`, `draft_to`); another seat's draft is never shown.

    obs = Observer(game)
    obs.size, obs.slices["hands"]                # (start, stop) into the tensor
    obs.tensor(state, player)                    # list[float] of obs.size
    obs.string(state, player)                    # the observation as sorted JSON
    obs.legal_mask(state)                        # list[int] of game.num_distinct_actions()

Speed. The layout (`Layout`) is planned once and shared by the games whose fresh states
have the same shapes (the games of one scenario, player count and options). A `Tensor`
keeps one seat's numbers in a buffer (a list, or a numpy array: catandsl/adapters/arrays.py)
and, at each `update`, rewrites only the fields whose values differ from those it last
wrote: the comparison runs over the state's own lists in C, and a step changes a few
fields. `Observer.reference` makes the same numbers the straightforward way, from
`state.observation(player)`; the tests hold the two equal on every shipped scenario.
"""

from __future__ import annotations

import json
from functools import partial
from itertools import chain, compress, repeat
from operator import attrgetter, itemgetter, ne
from struct import Struct
from typing import TYPE_CHECKING, Any

from catandsl.engine import flow
from catandsl.engine.state import DECLARED, FIELDS, State
from catandsl.rules import play, scoring, trade
from catandsl.rules.base import PROMPTS

if TYPE_CHECKING:
    from catandsl.engine.game import Game

STAGES = ("setup", "turn", "over")
_STAGE_AT = {s: k for k, s in enumerate(STAGES)}
WHOLE = "whole"  # a field the view shows as its count only (the deck)
MAX_LAYOUTS = 32


def _shape(v: Any) -> Any:
    """A fresh value's shape: None for a scalar, else [row shapes...]."""
    if isinstance(v, list):
        return [_shape(x) for x in v]
    return None


def _size(shape: Any) -> int:
    return 1 if shape is None else sum(_size(x) for x in shape)


class FieldPlan:
    """Where one field of the state lies in the tensor, and how the views hide it."""

    __slots__ = ("name", "shape", "hidden", "start", "stop", "len_at", "count", "rows", "hiding")

    def __init__(self, name: str, shape: Any, hidden: bool):
        self.name = name
        self.shape = shape  # its shape in a fresh state (_shape)
        self.hidden = hidden  # some seat's view hides some of it
        self.start = self.stop = self.len_at = 0
        self.count: tuple[int, int] | None = None  # the FIELD#count slice
        # for a list of flat rows (hands: [seat][resource]), each row's fresh length
        self.rows: tuple[int, ...] | None = None
        if isinstance(shape, list) and shape and all(isinstance(x, list) and not any(x) for x in shape):
            self.rows = tuple(len(x) for x in shape)
        # per viewer and per seat whose turn it is: None (shown), WHOLE, or the rows hidden
        self.hiding: list[list[Any]] = []


class Layout:
    """The tensor's layout, planned from a fresh state of a game: `size`, `slices` (name
    -> (start, stop)), the prompt kinds of the `prompt` one-hot, and a plan per observed
    field. Shared by every game whose fresh state has the same shapes (`layout_of`)."""

    def __init__(self, game: Game, fresh: State):
        n = game.num_players
        full = fresh.to_json()
        self.num_players = n
        self.num_hexes = len(game.board.hexes)
        self.prompt_kinds: tuple[str, ...] = tuple(
            sorted({type(p).KIND for p in flow.STANDING.values()} | set(PROMPTS)))
        self.prompt_at = {k: i for i, k in enumerate(self.prompt_kinds)}
        # every seat's view with every seat to play: what each may see when
        views: list[list[dict]] = [[{}] * n for _ in range(n)]
        for t in range(n):
            fresh.turn_player = t
            for p in range(n):
                views[p][t] = fresh._view(p)
        fresh.turn_player = 0
        self.fields: list[FieldPlan] = []
        layout: list[tuple[str, int]] = [("seat", n), ("to_act", 1), ("prompt", len(self.prompt_kinds)),
                                         ("stage", len(STAGES)), ("scores", n)]
        for f in FIELDS:
            if f == "stage" or f not in views[0][0] or isinstance(full[f], str):
                continue  # stage is one-hot above; the seed is hidden; strings are left out
            shape = _shape(full[f])
            plan = FieldPlan(f, shape, any(_hides(full[f], views[p][t][f]) for p in range(n) for t in range(n)))
            plan.hiding = [[_hidden_part(full[f], views[p][t][f]) for t in range(n)] for p in range(n)]
            self.fields.append(plan)
            layout.append((f, _size(shape)))
            if isinstance(shape, list):
                layout.append((f + "#len", 1))
            if plan.hidden:
                layout.append((f + "#count", len(shape) if shape and any(isinstance(x, list) for x in shape) else 1))
        layout += [("hex_terrain", self.num_hexes), ("hex_number", self.num_hexes)]
        self.trade = tuple(trade.observed(game))  # the trade's slices (none without domestic trade)
        layout += self.trade
        self.slices: dict[str, tuple[int, int]] = {}
        at = 0
        for name, k in layout:
            self.slices[name] = (at, at + k)
            at += k
        self.size = at
        for plan in self.fields:
            plan.start, plan.stop = self.slices[plan.name]
            plan.len_at = self.slices[plan.name + "#len"][0] if isinstance(plan.shape, list) else -1
            plan.count = self.slices.get(plan.name + "#count")
        self.get = attrgetter(*(p.name for p in self.fields))  # the observed fields' values, in order
        self.field_at = {p.name: k for k, p in enumerate(self.fields)}
        # the count of actions applied: a number every action changes, the one field an
        # action that changes its prompt alone writes (Tensor.update)
        self.applied = self.field_at.get("actions_applied", -1)
        if self.applied >= 0 and self.fields[self.applied].shape is not None:
            self.applied = -1
        self.hidden_fields = tuple(k for k, p in enumerate(self.fields) if p.hidden)
        _check_counts(self, fresh)

    def board(self, game: play.Game) -> list[float]:
        """`hex_terrain` then `hex_number` of a game's board as dealt."""
        b = game.board
        return [float(t) for t in b.hex_terrain] + [float(_number(b, h)) for h in range(len(b.hexes))]


_LAYOUTS: dict[tuple, Layout] = {}


def layout_of(game: Game) -> Layout:
    """The layout of a game's tensor: the one already planned for a game whose fresh
    state has the same shapes (the games of one scenario, player count and options), or
    planned now."""
    fresh = State(game)
    key = (game.num_players, len(game.board.hexes), tuple(sorted(PROMPTS)), _shapes(fresh),
           tuple(trade.observed(game)))
    known = _LAYOUTS.get(key)
    if known is not None:
        return known
    if len(_LAYOUTS) >= MAX_LAYOUTS:
        _LAYOUTS.clear()
    layout = _LAYOUTS[key] = Layout(game, fresh)
    return layout


def _shapes(fresh: State) -> tuple:
    """What the layout reads of a fresh state: each field's kind and lengths (the
    state's fields nest two deep at most)."""
    out: list[Any] = []
    for v in attrgetter(*FIELDS)(fresh):
        if isinstance(v, list):
            out.append(tuple(len(x) if isinstance(x, list) else -1 for x in v))
        else:
            out.append(type(v).__name__)
    return tuple(out)


class Observer:
    """A game's observations: the tensor (`tensor`, its `size` and `slices`), the string
    form and the legal-action mask. Cheap to make: the layout is shared (`layout_of`)."""

    def __init__(self, game: Game):
        self.game = game
        self.layout = layout_of(game)
        self.size = self.layout.size
        self.slices = self.layout.slices
        self.prompt_kinds = self.layout.prompt_kinds
        self._tensors: dict[int, Tensor] = {}

    def tensor(self, state: State, player: int) -> list[float]:
        """What `player` may see, as `self.size` numbers (ints and floats) laid out by
        `self.slices`: a new list."""
        t = self._tensors.get(player)
        if t is None:
            t = self._tensors[player] = self.tracker(self.game.check_seat(player, "observation"),
                                                     [0.0] * self.size)
        return t.update(state)[:]

    def tracker(self, player: int, buffer: Any) -> Tensor:
        """A `Tensor`: `player`'s numbers kept in `buffer` (a list or array of `size`)."""
        return Tensor(self.layout, self.game.check_seat(player, "observation"), buffer)

    def reference(self, state: State, player: int) -> list[float]:
        """The tensor made the straightforward way, from `state.observation(player)`:
        what `tensor` must equal (slow: a fresh list and every field flattened)."""
        n = self.layout.num_players
        view = state._view(player)  # observation() without copies: checks the seat; read only
        out = [0.0] * self.size
        put = partial(_put, out, self.slices)
        put("seat", [float(p == player) for p in range(n)])
        put("to_act", [float(state.current_player() == player)])
        kind = type(state._top()).KIND
        put("prompt", [float(k == kind) for k in self.prompt_kinds])
        put("stage", [float(state.stage == s) for s in STAGES])
        put("scores", [float(x) for x in view["scores"]])
        for plan in self.layout.fields:
            f, shape = plan.name, plan.shape
            values: list[float] = []
            counts: list[float] | None = [] if plan.hidden else None
            _flatten(shape, view[f], values, counts)
            put(f, values)
            if isinstance(shape, list):
                put(f + "#len", [float(len(view[f]) if isinstance(view[f], list) else len(shape))])
            if counts is not None:
                put(f + "#count", counts)
        a, _ = self.slices["hex_terrain"]
        board = self.layout.board(state.game.base)  # the board as dealt
        out[a:a + len(board)] = board
        if self.layout.trade:
            for name, values in trade.observed_values(state.game, view["trade"], player).items():
                put(name, values)
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


_STALE = object()  # what a Tensor "last wrote" for a field it must write: equal to nothing
_TRADING = repeat((trade.Offering, trade.Composing))  # the prompts observed_sources reads
HOT_UPDATES = 256  # a field unchanged for this many updates is compared with the cold ones again
ALWAYS_AFTER = 16  # a number changed at this many updates in a row is written at every update


def _getter(kind: Any, keys: list) -> Any:
    """attrgetter or itemgetter of `keys` that always returns a tuple (one key too)."""
    if not keys:
        return lambda _: ()
    if len(keys) == 1:
        one = kind(keys[0])
        return lambda x: (one(x),)
    return kind(*keys)


class Tensor:
    """One seat's tensor kept in `buffer` (a list, or a float32 numpy array, of the
    layout's size): `update(state)` rewrites the fields whose values differ from those
    it last wrote, and the per-state parts (`to_act`, `prompt`, `stage`, `scores`), and
    returns the buffer. The values are compared, not tracked, so any state of a game of
    this layout may come next (a clone, another game's, one edited by hand)."""

    def __init__(self, layout: Layout, player: int, buffer: Any):
        self.layout = layout
        self.player = player
        self.buffer = buffer
        buffer[:] = [0.0] * layout.size
        buffer[layout.slices["seat"][0] + player] = 1.0
        self._one = _scalar_sink(buffer, layout.size)  # where single numbers are written
        self._run = _run_maker(buffer, self._one)  # where runs of numbers are written
        self._shown: list[Any] = [_STALE] * len(layout.fields)
        self._writers = [_writer(plan, buffer, self._one, self._run, player) for plan in layout.fields]
        self._copies = [_copier(plan.name) for plan in layout.fields]
        # The fields are compared in two groups: the hot ones (changed in the last
        # HOT_UPDATES updates) one by one, the cold ones (most: the board, the cards,
        # what a scenario does not use) all at once, one tuple against the tuple of what
        # they showed, until one of them changes and joins the hot ones.
        self._updates = 0
        self._changed_at = [0] * len(layout.fields)  # the update that last saw each field change
        self._streak = [0] * len(layout.fields)  # updates in a row that saw it change
        # Numbers that change at nearly every step (a count of actions applied) are
        # written at every update, uncompared: a float per update costs less than
        # finding them changed among the hot fields.
        self._always: list[int] = []
        self._always_at: list[int] = []
        self._always_get: Any = _getter(attrgetter, [])
        # the observed fields the scores read when last counted, or None: count every time
        self._score_reads: frozenset[int] | None = None
        self._score_names: frozenset[str] = frozenset()  # the state's attributes the scores read
        self._score_always = False  # the scores read a number written at every update: count every time
        self._hot: list[int] = []
        self._cold: list[int] = list(range(len(layout.fields)))
        if layout.applied >= 0:  # (changed by every action: written at every update from the start)
            self._always.append(layout.applied)
            self._cold.remove(layout.applied)
        self._hot_before: tuple = ()
        self._regroup()
        self._cold_shown: tuple | None = None  # None: compare the cold group field by field
        self._at = (layout.slices["to_act"][0], layout.slices["prompt"][0], layout.slices["stage"][0])
        self._game: Any = None
        self._base: Any = None
        self._turn = -1
        self._kind = self._stage = -1
        self._scores: list[float] = []
        self._score_game: Any = None
        self._to_act: bool | None = None
        # the state last seen, its count of writes and of actions applied (update)
        self._seen: Any = None
        self._seen_writes = self._seen_applied = -1
        # the trade as last written (None: zeros): the offer's parts as they were
        # (trade.observed_sources) and the draft's (to, give, get); and where their runs lie
        self._offer: tuple | None = None
        self._draft: tuple[int, list[int], list[int]] | None = None
        a, z = layout.slices["scores"]
        self._put_scores = self._run(a, z - a)
        if layout.trade:
            sl, names = layout.slices, [name for name, _ in layout.trade]
            self._offer_at = (sl[names[0]][0], sl["draft_give"][0])
            self._draft_at = (sl["draft_give"][0], sl[names[-1]][1])
            self._items = sl["draft_give"][1] - sl["draft_give"][0]
            self._put_offer = self._run(self._offer_at[0], self._offer_at[1] - self._offer_at[0])
            self._put_draft = self._run(self._draft_at[0], self._draft_at[1] - self._draft_at[0])

    def update(self, s: State) -> Any:
        lay, buf = self.layout, self.buffer
        # The same state played on since it was last seen, by actions that changed their
        # prompt alone (its count of writes has not moved): its fields are as they were,
        # nothing to compare. After another state, a hand edit (changed() counts as a
        # write) or no action at all, the fields are compared.
        alone = s is self._seen and s._writes == self._seen_writes and s.actions_applied != self._seen_applied
        self._seen, self._seen_writes, self._seen_applied = s, s._writes, s.actions_applied
        if s.game is not self._game:
            self._new_game(s)
            alone = False
        if s.turn_player != self._turn:
            self._new_turn(s.turn_player)
            alone = False
        self._updates += 1
        if self._always:
            one = self._one
            for at, v in zip(self._always_at, self._always_get(s)):
                one[at] = float(v) if isinstance(v, (int, float)) else 0.0
        changed = [] if alone else self._compare(s)  # (the count of actions applied is written above)
        to_act = s.current_player() == self.player
        if to_act is not self._to_act:
            self._to_act = to_act
            self._one[self._at[0]] = float(to_act)
        kind = lay.prompt_at.get(type(s.pending[-1] if s.pending else s._top()).KIND, -1)
        if kind != self._kind:
            self._one_hot(self._at[1], self._kind, kind)
            self._kind = kind
        if not alone:  # (the stage is a field)
            stage = _STAGE_AT.get(s.stage, -1)
            if stage != self._stage:
                self._one_hot(self._at[2], self._stage, stage)
                self._stage = stage
        reads = self._score_reads
        if reads is None or (changed and not reads.isdisjoint(changed)) or s.game is not self._score_game or \
                self._score_always:
            self._count_scores(s)
        if lay.trade and (self._offer is not None or self._draft is not None or
                          any(map(isinstance, s.pending, _TRADING))):
            self._write_trade(s)  # (no trade shown without a trade's prompt: nothing to write)
        return buf

    def _compare(self, s: State) -> list[int]:
        """Write the fields whose values differ from what they showed; the changed ones."""
        shown = self._shown
        values = self._hot_get(s)
        before = self._hot_before
        if values != before:  # (one comparison in C when no hot field changed)
            changed = list(compress(self._hot, map(ne, values, before)))
            self._write(s, changed, values, self._hot_at)
            self._hot_before = self._hot_shown(shown)
        else:
            changed = []
        values = self._cold_get(s)
        if values != self._cold_shown:
            cold = self._cold
            moved = list(compress(cold, map(ne, values, self._cold_shown_get(shown))))
            if moved:
                self._write(s, moved, values, self._cold_at)
                changed += moved
            if self._cold_shown is None:  # a recheck, after the turn changed what is hidden
                self._cold_shown = self._cold_shown_get(shown)
            elif moved:
                self._hot += moved
                self._cold = [k for k in cold if k not in moved]
                self._regroup()
        elif self._updates % HOT_UPDATES == 0:
            self._cool()
        return changed

    def _write(self, s: State, fields: list[int], values: tuple, at: dict[int, int]) -> None:
        """Write the changed `fields` (their values at `at[field]` in `values`) and keep
        what they show now."""
        writers, copies, shown, turn, now = self._writers, self._copies, self._shown, s.turn_player, self._updates
        changed_at, streak = self._changed_at, self._streak
        for k in fields:
            v = values[at[k]]
            writers[k](v, turn)
            shown[k] = copies[k](v)
            streak[k] = streak[k] + 1 if changed_at[k] == now - 1 else 1
            changed_at[k] = now
            if streak[k] >= ALWAYS_AFTER and self.layout.fields[k].shape is None and k in self._hot_at:
                self._always.append(k)
        if self._always and self._always[-1] in self._hot_at:  # joined just now
            self._hot = [k for k in self._hot if k not in self._always]
            self._regroup()

    def _cool(self) -> None:
        """Fields of the hot group that have not changed for HOT_UPDATES updates go back to
        the cold group."""
        since = self._updates - HOT_UPDATES
        cooled = [k for k in self._hot if self._changed_at[k] <= since]
        if cooled:
            self._hot = [k for k in self._hot if k not in cooled]
            self._cold += cooled
            self._regroup()

    def _regroup(self) -> None:
        """The getters of each group's values and of what they showed, after a move."""
        names = [p.name for p in self.layout.fields]
        self._hot.sort()
        self._cold.sort()
        self._hot_get = _getter(attrgetter, [names[k] for k in self._hot])
        self._hot_shown = _getter(itemgetter, self._hot)
        self._hot_at = {k: i for i, k in enumerate(self._hot)}
        self._hot_before = self._hot_shown(self._shown)  # what the hot fields showed, kept as one tuple
        self._cold_get = _getter(attrgetter, [names[k] for k in self._cold])
        self._cold_shown_get = _getter(itemgetter, self._cold)
        self._cold_at = {k: i for i, k in enumerate(self._cold)}
        self._cold_shown = self._cold_shown_get(self._shown)
        self._always.sort()
        self._always_get = _getter(attrgetter, [names[k] for k in self._always])
        self._always_at = [self.layout.fields[k].start for k in self._always]
        self._score_always = self._score_reads is not None and not self._score_reads.isdisjoint(self._always)

    def _write_trade(self, s: State) -> None:
        """The trade's slices: the offer's run rewritten when the offer changed, zeros when
        there is none; the player's draft entry by entry where it changed (a draft
        changes by a card at a time)."""
        offer, draft = trade.observed_sources(s, self.player) if s.pending else (None, None)
        buf, one = self.buffer, self._one
        if offer is None:
            if self._offer is not None:
                a, z = self._offer_at
                buf[a:z] = [0.0] * (z - a)
                self._offer = None
        else:
            now = (offer.proposer, offer.to, offer.give, offer.get, offer.accepted, offer.declined, offer.counters)
            if now != self._offer:
                a, z = self._offer_at
                self._put_offer(*trade.offer_run(s.game, offer))
                self._offer = (now[0], now[1], now[2][:], now[3][:], now[4][:], now[5][:], _rows_copy(now[6]))
        last = self._draft
        if draft is None:
            if last is not None:
                a, z = self._draft_at
                buf[a:z] = [0.0] * (z - a)
                self._draft = None
            return
        to, give, get = draft
        n = self._items
        if last is not None and to == last[0] and len(give) == len(get) == n:
            if give == last[1] and get == last[2]:
                return  # (as written)
            a = self._draft_at[0]
            if give != last[1]:
                for i in compress(range(n), map(ne, give, last[1])):
                    one[a + i] = float(give[i])
            if get != last[2]:
                a += n
                for i in compress(range(n), map(ne, get, last[2])):
                    one[a + i] = float(get[i])
        else:
            a, z = self._draft_at
            self._put_draft(*trade.draft_run(s.game, draft, self.player))
        self._draft = (to, give[:n], get[:n])

    def _one_hot(self, at: int, before: int, now: int) -> None:
        if before >= 0:
            self._one[at + before] = 0.0
        if now >= 0:
            self._one[at + now] = 1.0

    def _new_game(self, s: State) -> None:
        """A state of another game (or of a changed board): the board as dealt, written
        once per game."""
        self._game = s.game
        if s.game.base is not self._base:
            self._base = s.game.base
            lay = self.layout
            a, z = lay.slices["hex_terrain"][0], lay.slices["hex_number"][1]
            self.buffer[a:z] = lay.board(self._base)

    def _new_turn(self, turn: int) -> None:
        """What the view hides may change with the turn: rewrite what it changes."""
        before, self._turn = self._turn, turn
        for k in self.layout.hidden_fields:
            hiding = self.layout.fields[k].hiding[self.player]
            if before < 0 or hiding[before] != hiding[turn]:
                self._shown[k] = _STALE
                if k in self._cold_at:  # (a stale field in the hot group is compared anyway)
                    self._cold_shown = None
        self._hot_before = self._hot_shown(self._shown)

    def _count_scores(self, s: State) -> None:
        """The scores as State.observation shows them (the seat's own points, the others'
        public points), noting the fields they read: until one of those changes, they
        stay as they are (the counting reads the state and nothing else). The names read
        at the last count of this game are handed to the recorder beforehand (no lookup
        fails for them) and stay noted: a name read once is watched for the rest of the
        game, more than the counting needs, never less."""
        lay, p = self.layout, self.player
        seen = _Recorder(s, self._score_names if s.game is self._score_game else ())
        scores = [float(scoring.points(seen, q) if q == p else scoring.public_points(seen, q))
                  for q in range(lay.num_players)]
        self._score_names = names = frozenset(seen.names)
        self._score_game = s.game
        fields = names - {"game"}
        self._score_reads = frozenset(lay.field_at[f] for f in fields) if fields <= lay.field_at.keys() else None
        self._score_always = self._score_reads is not None and not self._score_reads.isdisjoint(self._always)
        if scores != self._scores:
            self._scores = scores
            self._put_scores(*scores)


class _Recorder:
    """A state seen through a recorder of the attributes read (`names`, with the `known`
    ones noted beforehand): the first read of a name records it and keeps the state's
    value (the very object) in the recorder's own dict, where the reads after it find it
    at once (the counting reads the state and changes nothing, so a value read once
    stays the state's); a known name is there from the start."""

    def __init__(self, state: State, known: Any = ()):
        self._state = state
        self.names: set[str] = set(known)
        for name in known:
            self.__dict__[name] = getattr(state, name)

    def __getattr__(self, name: str) -> Any:  # (runs only for a name not read before)
        self.names.add(name)
        v = self.__dict__[name] = getattr(self._state, name)
        return v


def _copier(field: str) -> Any:
    """How to keep what a field showed, by its declared type (as State.clone copies it):
    a value as it is, a list copied, a list of lists row by row."""
    declared = DECLARED[field]
    if declared.startswith("list[list"):
        return _rows_copy
    return list.copy if declared.startswith("list") else _same


def _same(v: Any) -> Any:
    return v


def _rows_copy(v: list) -> list:
    return [x[:] if type(x) is list else x for x in v]


def _scalar_sink(buffer: Any, size: int) -> Any:
    """Where a Tensor writes single numbers into `buffer`: a float32 array's memory
    through a memoryview (which stores a Python float as float32, rounded as numpy
    rounds it, for a fraction of numpy's cost per item), else the buffer itself."""
    try:
        view = memoryview(buffer)
    except TypeError:  # a list
        return buffer
    if view.format == "f" and view.ndim == 1 and view.c_contiguous and len(view) == size and not view.readonly:
        return view
    return buffer


def _run_maker(buffer: Any, one: Any) -> Any:
    """`run(at, n)`: a function that writes its n arguments (numbers) into the buffer
    from `at` on. Into a float32 array's memory (`one` a memoryview: _scalar_sink) they
    are packed by a `struct.Struct` of n floats, which rounds each as numpy does (a C
    cast of the double) for a fraction of what numpy's conversion of a list costs."""
    if isinstance(one, memoryview):
        def packed(at: int, n: int) -> Any:
            return partial(Struct(f"{n}f").pack_into, one, 4 * at)
        return packed

    def listed(at: int, n: int) -> Any:
        def put(*values: Any) -> None:
            buffer[at:at + n] = values
        return put
    return listed


def _writer(plan: FieldPlan, buf: Any, one: Any, run: Any, player: int) -> Any:
    """A function (value, seat to play) that writes one field's entries into `buf`
    (single numbers into `one`: _scalar_sink) exactly as `Observer.reference` lays them
    out: the common shapes directly, anything else through `_flatten` (the reference's
    own code)."""
    a, z, len_at, count = plan.start, plan.stop, plan.len_at, plan.count
    shape, n = plan.shape, plan.stop - plan.start
    hiding = plan.hiding[player]
    zeros = [0.0] * n
    put = run(a, n)  # the whole field's run
    put_count = run(count[0], count[1] - count[0]) if count is not None else None
    # what this writer last wrote of the field's length and of what the view hid (a
    # write of the same skips them: the buffer holds them already); None: unknown
    last: list[Any] = [None, None]

    def general(v: Any, turn: int) -> None:
        seen = _seen(v, hiding[turn])
        values: list[float] = []
        counts: list[float] | None = [] if count is not None else None
        _flatten(shape, seen, values, counts)
        buf[a:z] = (values + zeros)[:n]
        if len_at >= 0:
            one[len_at] = float(len(seen) if isinstance(seen, list) else len(shape))
        if counts is not None and count is not None:
            buf[count[0]:count[1]] = (counts + [0.0] * (count[1] - count[0]))[:count[1] - count[0]]
        last[0] = last[1] = None

    if shape is None:
        def scalar(v: Any, turn: int) -> None:
            one[a] = float(v) if isinstance(v, (int, float)) else 0.0
        return scalar
    if not shape or shape[0] is None:  # a flat list (_flatten's one step)
        def flat(v: Any, turn: int) -> None:
            if hiding[turn] is not None:
                general(v, turn)
                return
            k = len(v)
            if k >= n:
                if n:
                    put(*v[:n]) if k > n else put(*v)
            else:
                buf[a:a + k] = v
                buf[a + k:z] = zeros[:n - k]
            if last[0] != k:
                one[len_at] = float(k)
                last[0] = k
            if count is not None:
                one[count[0]] = float(sum(x for x in v if isinstance(x, int)))
        return flat
    rows = plan.rows
    if rows is not None:  # rows of ints, each as long as in a fresh state: row by row
        rows_list = list(rows)
        put_row = [run(a + sum(rows[:i]), rows[i]) for i in range(len(rows))]

        def table(v: Any, turn: int) -> None:
            hide = hiding[turn]
            if hide == WHOLE or list(map(len, v)) != rows_list:
                general(v, turn)
                return
            if hide is None:
                put(*chain.from_iterable(v))
            elif last[1] is hide:  # the hidden rows are zeros already: the others only
                for i, row in enumerate(v):
                    if i not in hide and row:
                        put_row[i](*row)
            else:
                put(*chain.from_iterable(zeros[:len(row)] if i in hide else row for i, row in enumerate(v)))
            last[1] = hide
            if last[0] is None:
                one[len_at] = float(len(v))
                last[0] = len(v)
            if put_count is not None:
                put_count(*map(sum, v))
        return table
    return general


def _seen(v: Any, hide: Any) -> Any:
    """A field as the view shows it: whole as its count, or some rows as theirs."""
    if hide is None or not isinstance(v, list):
        return v
    if hide == WHOLE:
        return sum(v)
    return [sum(row) if i in hide else row for i, row in enumerate(v)]


def _hidden_part(full: Any, seen: Any) -> Any:
    """What a view hides of a field: None, WHOLE (shown as a number) or the rows it
    shows as numbers."""
    if not isinstance(full, list):
        return None
    if not isinstance(seen, list):
        return WHOLE
    rows = frozenset(k for k, (x, y) in enumerate(zip(full, seen)) if isinstance(x, list) and not isinstance(y, list))
    return rows or None


def _check_counts(layout: Layout, fresh: State) -> None:
    """The Tensor writes a hidden part's count as its sum (what State.observation shows
    for it): check that on a state whose hidden numbers all differ, for every view."""
    if not layout.hidden_fields:
        return
    probe = fresh.clone()
    k = 0
    for i in layout.hidden_fields:
        v = getattr(probe, layout.fields[i].name)
        for j, x in enumerate(v):
            if isinstance(x, list):
                x[:] = range(k + 1, k + 1 + len(x))
                k += len(x)
            else:
                v[j] = k = k + 1
    n = layout.num_players
    for t in range(n):
        probe.turn_player = t
        for p in range(n):
            view = probe._view(p)
            for i in layout.hidden_fields:
                plan = layout.fields[i]
                if _seen(getattr(probe, plan.name), plan.hiding[p][t]) != view[plan.name]:
                    raise AssertionError(f"the Observer shows a hidden part of {plan.name} as its sum, "
                                         "but State.observation shows it otherwise")


def _hides(full: Any, seen: Any) -> bool:
    if isinstance(full, list) and not isinstance(seen, list):
        return True
    return isinstance(full, list) and any(_hides(x, y) for x, y in zip(full, seen))


def _put(out: list[float], slices: dict[str, tuple[int, int]], name: str, values: list[float]) -> None:
    """`values` written into the field `name`'s slice of `out`, cut or padded with zeros to it."""
    a, z = slices[name]
    out[a:z] = (values + [0.0] * (z - a))[: z - a]


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
