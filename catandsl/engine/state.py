"""State: one point of one play, as plain typed data, and the OpenSpiel-style calls.

The data falls in two parts (boardgame.io's `ctx` and `G`):

- **flow**, changed only by the turn interpreter (engine/flow.py): `stage`, the set-up
  position, whose turn, the phase, the `pending` stack of prompts, the end;
- **game data**, changed by actions and by rule primitives (catandsl/rules/): hands,
  the bank, cards, the pieces on the board, awards, tokens, island marks.

Every pending decision is a typed prompt on `pending` (top last), defined beside the
primitive that asks it (catandsl/rules/); with nothing pending, the decision is the
set-up's next placement or the active player's turn (flow.SETUP, flow.TURN). The
calls below only dispatch to `top()`; the rules are functions over this data.

`serialize()` writes every field (`FIELDS`) and the prompts as JSON, sorted, so equal
states serialize to equal text; `Game.deserialize_state` reads it back, checked.
"""

from __future__ import annotations

import json
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from catandsl.engine import flow
from catandsl.rules import play, roll_cards, scoring, trade
from catandsl.rules.base import CHANCE, TERMINAL, IllegalAction, Prompt
from catandsl.rules.harbors import HarborLookups
from catandsl.rules.hexes import HexLookups
from catandsl.rules.play import (
    NO_FRESH_PATHS,
    NO_MOVES,
    DeclinedOffer,
    FreshPaths,
    Game,
    HexChange,
    IslandTag,
    MovesMade,
    Partner,
    Traveller,
    VictoryToken,
    YieldLimit,
)
from catandsl.rules.registry import EVERYTHING, bits

if TYPE_CHECKING:
    from catandsl.rules.network import Network

FORMAT = 2  # the serialized form's version

# Fields written by serialize(), each a JSON scalar or a list (of lists) of ints/strings.
FIELDS = (
    # flow
    "stage", "setup_pos", "start_player", "turn_player", "turns", "phase", "roll_requested",
    "winner", "winners", "reason", "seed", "chance_count", "actions_applied",
    # game data
    "hands", "bank", "cards", "new_cards", "played", "played_turn", "deck",
    "corner_owner", "corner_piece", "path_owner", "path_piece", "neutral_at", "placed",
    "award_holder", "last_roll", "last_corner", "last_path", "vp_tokens", "island_tags",
    "moved", "fresh_paths", "token_stock", "token_supply", "tokens_held", "partners",
    "offers_made", "offers_declined", "acted", "harbor_at", "harbor_supply", "travellers",
    "project_level", "project_owner", "roll_deck", "roll_year", "damaged", "yield_limits",
    "turn_rolls", "discarded", "counters", "face_down", "hidden_tiles", "hidden_numbers", "hex_changes",
    "last_faces", "fixed_roll", "pieces_lost", "piece_levels", "attachments", "stacked",
)


_M64 = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15  # 2**64 / the golden ratio: SplitMix64's step


def chance_number(seed: int, n: int) -> float:
    """A number in [0, 1) fixed by a game seed and n: the n-th output of SplitMix64 (a
    counter-based generator: no state to seed, which cost a Mersenne Twister seeding per
    draw) started at the seed, any seed first folded into 64 bits."""
    z = ((seed if 0 <= seed <= _M64 else _fold(seed)) + (n + 1) * _GOLDEN) & _M64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
    return ((z ^ (z >> 31)) >> 11) * 2.0**-53


def pick_outcome(outcomes: list[tuple[int, float]], x: float) -> int:
    """The outcome that a number x in [0, 1) falls on, the outcomes laid end to end by
    their probabilities."""
    acc = 0.0
    for a, pr in outcomes:
        acc += pr
        if x < acc:
            return a
    return outcomes[-1][0]


def _fold(seed: int) -> int:
    """A seed outside 0..2**64-1 as 64 bits: its sign and 64-bit words mixed in turn."""
    z = _GOLDEN if seed < 0 else 0
    v = abs(seed)
    while v:
        z = (z + (v & _M64)) & _M64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
        z ^= z >> 31
        v >>= 64
    return z


class State(flow.Running):
    """The engine's state: the play's data (rules/play.py's State, where each field is
    described) with the OpenSpiel-style calls."""

    pending: list[Prompt]  # interruptions of the flow, top last

    __slots__ = FIELDS + ("pending", "game", "_legal", "_chance", "_outcomes", "_network", "_changed", "_steps",
                          "_short", "_setup_legal", "_writes")

    def __init__(self, game: Game):
        """The state before anything happened; see `initial` for the game's start."""
        game = game.base  # the board as dealt
        self.game = game
        n, R, b = game.num_players, len(game.resources), game.board
        C, K = len(game.cards), len(game.pieces)
        self.stage = "setup"
        self.setup_pos = 0
        self.start_player = -1
        self.turn_player = 0
        self.turns = 0
        self.phase = 0
        self.roll_requested = False
        self.pending = []
        self.winner = -1
        self.winners = []
        self.reason = ""
        self.seed = game.seed
        self.chance_count = 0
        self.actions_applied = 0
        self.hands = [[0] * R for _ in range(n)]
        self.bank = list(game.bank_start)
        self.cards = [[0] * C for _ in range(n)]
        self.new_cards = [0] * C
        self.played = [[0] * C for _ in range(n)]
        self.played_turn = [0] * len(game.decks)
        self.deck = [c.count for c in game.cards]
        self.corner_owner = [-1] * len(b.intersections)
        self.corner_piece = [-1] * len(b.intersections)
        self.path_owner = [-1] * len(b.paths)
        self.path_piece = [-1] * len(b.paths)
        self.neutral_at = list(game.neutral_start)
        self.placed = [[0] * K for _ in range(game.num_seats)]
        self.pieces_lost = [[0] * K for _ in range(game.num_seats)]
        self.piece_levels = []
        self.attachments = []
        self.stacked = [0] * C
        self.award_holder = [-1] * len(game.awards)
        self.last_roll = 0
        self.fixed_roll = 0
        self.last_faces = [0] * len(game.dice_names)
        self.last_corner = [-1] * n
        self.last_path = [-1] * n
        self.vp_tokens = []
        self.island_tags = []
        self.moved = NO_MOVES
        self.fresh_paths = NO_FRESH_PATHS
        self.token_stock = [list(site.stock) for site in game.sites]
        self.token_supply = list(game.token_reserve)
        self.tokens_held = [[0] * len(game.token_names) for _ in range(n)]
        self.partners = []
        self.offers_made = 0
        self.offers_declined = []
        self.acted = [0] * len(game.custom_actions)
        harbors = game.lookups(HarborLookups)
        self.harbor_at = list(harbors.start)
        self.harbor_supply = list(harbors.supply)
        self.travellers = []
        self.project_level = [0] * len(game.ruleset.projects)
        self.project_owner = [-1] * len(game.ruleset.projects)
        self.roll_deck, self.roll_year = roll_cards.start(game)
        self.damaged = []
        self.yield_limits = []
        self.turn_rolls = []
        self.discarded = [0] * C
        self.counters = [[0] * len(game.counter_names) for _ in range(n)]
        for seat, pi, k in game.seat_starts:  # the seats' pieces placed before the set-up
            if game.pieces[pi].site == "intersection":
                self.corner_owner[k], self.corner_piece[k] = seat, pi
            else:
                self.path_owner[k], self.path_piece[k] = seat, pi
            self.placed[seat][pi] += 1
        hexes = game.lookups(HexLookups)
        self.face_down = list(hexes.face_down)
        self.hidden_tiles = [list(row) for row in hexes.tiles]
        self.hidden_numbers = [list(row) for row in hexes.numbers]
        self.hex_changes = []
        self._legal: tuple[int, ...] | None = None
        self._chance: bool | None = None  # is_chance_node(), until the next action
        self._outcomes: list[tuple[int, float]] | None = None  # chance_outcomes(), until the next action
        # each seat's pieces and route lines (rules/network.py): derived on first use, not serialized
        self._network: Network | None = None
        self._changed = 0  # the parts written by the action being applied (registry.PART_BITS)
        self._steps = 0  # rule statements run for the action being applied (flow.MAX_STATEMENTS)
        # how many times the fields may have been written: every action but one that changes
        # the deciding prompt alone (Action.PROMPT_ONLY, flow.apply), and every changed()
        # and forget_derived(). An observer that saw this very state at this count, with
        # fewer actions applied, knows the fields it read are as they were (the observer's
        # Tensor); a state edited by hand is one whose changed() was called.
        self._writes = 0
        # the players found short of victory since an action last wrote something victory
        # reads, one bit each: until one does, there is no need to look again (flow.apply)
        self._short = 0
        # the set-up step's legal actions, by (actions applied, set-up position) when found
        self._setup_legal: tuple[tuple[int, int], list[int]] | None = None

    @classmethod
    def initial(cls, game: Game) -> State:
        s = cls(game)
        s.emit("game_started", {})
        flow.advance(s)
        return s

    def clone(self) -> State:
        s = State.__new__(State)
        s.game = self.game
        # each field by its declared shape (_SHAPES): a value, a list of values, a list of lists
        for f, v in zip(_VALUES, _get_values(self)):
            setattr(s, f, v)
        for f, v in zip(_LISTS, _get_lists(self)):
            setattr(s, f, v[:])
        for f, v in zip(_GRIDS, _get_grids(self)):
            setattr(s, f, [x[:] if type(x) is list else x for x in v])
        s.pending = [p.copy() for p in self.pending]
        s._legal = self._legal
        s._chance = self._chance
        s._outcomes = self._outcomes
        s._network = None if self._network is None else self._network.share()
        s._changed = 0
        s._steps = 0
        s._writes = 0
        s._short = self._short
        s._setup_legal = self._setup_legal
        return s

    def __deepcopy__(self, memo: dict) -> State:
        """copy.deepcopy (what OpenSpiel uses to clone a Python state) is clone(): the
        game, shared by every state of it, is never copied."""
        return self.clone()

    def changed(self) -> None:
        """Call after editing the data directly (tests building a fixed position)."""
        self._legal = None
        self._chance = None
        self._outcomes = None
        self._network = None
        self._changed = bits(EVERYTHING)
        self._writes += 1
        self._short = 0
        self._setup_legal = None

    def forget_derived(self) -> None:
        """Drop what was worked out from the hidden data (legal actions, chance outcomes,
        players found short of victory) after it was redrawn (engine/infostate.py); the
        pieces' network stays, as the board is unchanged."""
        self._legal = None
        self._chance = None
        self._outcomes = None
        self._short = 0
        self._writes += 1

    def resample_from_infostate(self, player: object, rng: object) -> State:
        """A state consistent with what `player` observes (OpenSpiel's name): the same
        observation for `player`, the opponents' hands and cards, the deck, the cards
        bought this turn and the seed drawn with `rng` (engine/infostate.py)."""
        from catandsl.engine.infostate import resample

        return resample(self, player, rng)

    def to_json(self) -> dict:
        """What `serialize()` writes, as a dict of the caller's own lists."""
        out = self._json()
        for f, v in zip(_LISTS, _get_lists(self)):
            out[f] = v[:]
        for f, v in zip(_GRIDS, _get_grids(self)):
            out[f] = [x[:] if type(x) is list else x for x in v]
        for f in _RECORDS:
            out[f] = [list(r) for r in getattr(self, f)]
        out["offers_declined"] = [o.row() for o in self.offers_declined]
        return out

    def _json(self) -> dict:
        """What `serialize()` writes; the fields' lists are the state's own (to be read only)."""
        out: dict[str, Any] = {f: getattr(self, f) for f in FIELDS}
        # the records that are not written as the list of their fields: as the lists
        # they always were (engine/validate.py reads them back)
        out["moved"] = list(self.moved)
        out["fresh_paths"] = list(self.fresh_paths)
        if self.offers_declined:
            out["offers_declined"] = [o.row() for o in self.offers_declined]
        out["pending"] = [p.to_json() for p in self.pending]
        out["format"] = FORMAT
        return out

    def serialize(self) -> str:
        return json.dumps(self._json(), sort_keys=True, separators=(",", ":"))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.serialize() == other.serialize()

    __hash__ = None  # type: ignore[assignment]

    # ---- what the rules call ---------------------------------------------------------

    def emit(self, event: str, env: dict[str, Any]) -> None:
        """Queue the hooks on an event, in declaration order (flow.emit)."""
        flow.emit(self, event, env)

    def push(self, prompt: Prompt) -> None:
        self.pending.append(prompt)

    def top(self) -> Prompt:
        """The decision the game waits for: the top prompt (a copy: the state's own
        changes only in play), else the flow's own (which holds nothing)."""
        return self.pending[-1].copy() if self.pending else flow.STANDING[self.stage]

    def _top(self) -> Prompt:
        """top(), the state's own prompt: for the engine, which alone changes it."""
        return self.pending[-1] if self.pending else flow.STANDING[self.stage]

    def before_roll(self) -> bool:
        """In a regular turn, the dice of this turn are still to come."""
        return self.stage == "turn" and self.game.roll_phase >= self.phase

    # ---- who acts ---------------------------------------------------------------------

    def is_terminal(self) -> bool:
        return self.stage == "over"

    def is_chance_node(self) -> bool:
        if self._chance is None:
            self._chance = self.stage != "over" and flow.is_chance(
                self, self.pending[-1] if self.pending else flow.STANDING[self.stage])
        return self._chance

    def current_player(self) -> int:
        if self.stage == "over":
            return TERMINAL
        if self._chance if self._chance is not None else self.is_chance_node():
            return CHANCE
        return (self.pending[-1] if self.pending else flow.STANDING[self.stage]).actor(self)

    # The public calls below that take a player or an action declare it `object` and
    # check it themselves: a compiled build refuses a mismatch of a declared type with a
    # TypeError, before the call's own check could raise the typed error.

    def legal_actions(self, player: object = None) -> list[int]:
        """The legal action ids, ascending (a new list); with `player`, those of that
        seat: none unless it is to act (CHANCE: the chance outcomes' ids at a chance
        node). ArgumentError for a player that is neither a seat nor CHANCE."""
        if player is not None:
            p = self._seat_or_chance(player, "legal_actions")
            if p != self.current_player():
                return []
        return list(self.legal_now())

    def legal_now(self) -> tuple[int, ...]:
        """The legal action ids, ascending, kept until the next action (a tuple: the
        same one until then, with nothing copied)."""
        if self._legal is None:
            self._legal = tuple(flow.legal(self))
        return self._legal

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """(action id, probability) of each outcome at a chance node (a new list)."""
        return list(self._outcomes_now())

    def _outcomes_now(self) -> list[tuple[int, float]]:
        """chance_outcomes(), kept until the next action (the engine's own: never edited)."""
        if self._outcomes is None:
            self._outcomes = self._top().outcomes(self) if self.is_chance_node() else []
        return self._outcomes

    def sample_chance(self) -> int:
        """A chance outcome drawn with `chance_number(seed, chance outcomes applied so
        far)`: the same game gives the same draws everywhere, and a clone draws what its
        original would."""
        outcomes = self._outcomes if self._outcomes is not None else self._outcomes_now()
        if not outcomes:
            raise IllegalAction("action/not_legal", "this is not a chance node: "
                                + ("the game is over" if self.stage == "over" else
                                   f"player {self.current_player()} is to act"))
        return pick_outcome(outcomes, chance_number(self.seed, self.chance_count))

    # ---- applying ---------------------------------------------------------------------

    def apply_action(self, action: object, player: object = None) -> None:
        """Apply a legal action (an id or an Action), as `player` if given (a seat, or
        CHANCE); IllegalAction otherwise, ArgumentError for a player that is neither,
        with the state unchanged."""
        p = None if player is None else self._seat_or_chance(player, "apply_action")
        flow.apply(self, flow.action_id(self, action), p)

    def _seat_or_chance(self, player: object, what: str) -> int:
        """`player` if it is a seat or CHANCE; ArgumentError otherwise."""
        if type(player) is int and player == CHANCE:
            return CHANCE
        return self.game.check_seat(player, what)

    # ---- the end ------------------------------------------------------------------------

    def scores(self) -> list[int]:
        return [scoring.points(self, p) for p in range(self.game.num_players)]

    def points(self, player: object) -> int:
        """The seat's victory points, hidden ones (victory point cards) included;
        ArgumentError for a player that is not a seat."""
        return scoring.points(self, self.game.check_seat(player, "points"))

    def public_points(self, player: object) -> int:
        """The seat's victory points as the other players see them; ArgumentError for a
        player that is not a seat."""
        return scoring.public_points(self, self.game.check_seat(player, "public_points"))

    def returns(self) -> list[float]:
        n = self.game.num_players
        if self.stage != "over":
            return [0.0] * n
        winners = [self.winner] if self.winner >= 0 else self.winners
        if not winners:
            return [0.0] * n
        return [1.0 if p in winners else -1.0 for p in range(n)]

    # ---- showing ------------------------------------------------------------------------

    def action_to_string(self, action_id: object) -> str:
        return self.game.action_to_string(action_id)

    def observation(self, player: object) -> dict:
        """What `player` may see: their own hand and cards; opponents' resource hands and
        development cards as counts only (so a stolen card's identity stays hidden); the
        deck as a count; public pieces, awards, played cards and the bank in full; the
        pending prompts, another seat's draft of a trade offer hidden (`Prompt.seen_by`),
        and `trade`, the domestic trade as the player sees it (rules/trade.trade_view:
        the proposed offer, its answers and counter-offers, and the player's own draft).
        The seed is left out: with it, future draws (the deck order) could be computed."""
        return self._seen(self.game.check_seat(player, "observation"), self.to_json())

    def _view(self, player: int) -> dict:
        """observation(), sharing the state's own lists (for readers such as the
        Observer, which only read it)."""
        return self._seen(player, self._json())

    def _seen(self, player: int, data: dict) -> dict:
        g = self.game
        g.check_seat(player, "observation")
        data["hands"] = [row if p == player else sum(row) for p, row in enumerate(data["hands"])]
        data["cards"] = [row if p == player else sum(row) for p, row in enumerate(data["cards"])]
        data["deck"] = sum(self.deck)
        data["stacked"] = sum(self.stacked)  # face down, as the deck
        if player != self.turn_player:
            data["new_cards"] = sum(self.new_cards)
        del data["seed"]
        data["scores"] = [
            scoring.points(self, p) if p == player else scoring.public_points(self, p)
            for p in range(g.num_players)
        ]
        # a prompt holding a seat's secret (a draft of an offer) hides it from the others
        data["pending"] = [p.seen_by(player) for p in self.pending]
        data["trade"] = trade.trade_view(self, player)
        return data

    def __str__(self) -> str:
        return (f"turn {self.turns} player {self.turn_player} stage {self.stage} "
                f"scores {self.scores()} bank {self.bank}")


# each field's declared type, as written: the play's data and the engine's own
DECLARED: dict[str, str] = {**play.State.__annotations__, **State.__annotations__}


def _shapes() -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """FIELDS by what `clone` copies of them, read from the class's declared types: the
    values (ints, strings, bools), the lists of values, the lists of lists
    (tests/engine/test_invariants.py checks that a clone shares no list)."""
    values: list[str] = []
    lists: list[str] = []
    grids: list[str] = []
    for f in FIELDS:
        declared = DECLARED[f]
        (grids if declared.startswith("list[list") else lists if declared.startswith("list") else values).append(f)
    return tuple(values), tuple(lists), tuple(grids)


_VALUES, _LISTS, _GRIDS = _shapes()
# the fields that hold named records (rules/play.py), each written as its fields' list
_RECORDS = tuple(f for f in _LISTS if DECLARED[f][5:6].isupper())
_get_values, _get_lists, _get_grids = attrgetter(*_VALUES), attrgetter(*_LISTS), attrgetter(*_GRIDS)


def records(game: Game, field: str, value: Any) -> Any:
    """A field's value as the state holds it, from the form `serialize()` writes (the
    named records from their lists; any other field as it is). It checks nothing:
    engine/validate.py checks the lists first."""
    read = _READ.get(field)
    return value if read is None else read(game, value)


_READ: dict[str, Any] = {
    "vp_tokens": lambda g, v: [VictoryToken(*e) for e in v],
    "island_tags": lambda g, v: [IslandTag(*e) for e in v],
    "partners": lambda g, v: [Partner(*e) for e in v],
    "travellers": lambda g, v: [Traveller(*e) for e in v],
    "yield_limits": lambda g, v: [YieldLimit(*e) for e in v],
    "hex_changes": lambda g, v: [HexChange(*e) for e in v],
    "offers_declined": lambda g, v: [DeclinedOffer.of_row(list(e), len(trade.trade_items(g))) for e in v],
    "moved": lambda g, v: MovesMade(v),
    "fresh_paths": lambda g, v: FreshPaths(v),
}
