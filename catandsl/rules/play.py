"""What the rules see of a play: a game's tables and a state's data, as protocols.

The rules are functions over a `State`: its data, `s.game`'s tables, and the few calls
below (`push`, `top`, `emit`, ...). The engine's Game and State say that they are these
(engine/game.py, engine/state.py), so the rules and the turn flow read a game through
this module and never import the engine, which stands above them. The records a game's
tables are made of (a piece kind, a card, a phase of the turn) and what an action's
words may read (`Told`) are here too, beside the game that holds them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol, TypeVar

from catandsl.board import Board
from catandsl.ir import model
from catandsl.ir.ruleset import Ruleset

T = TypeVar("T")
Code = Callable[[dict[str, Any], Any, Any], Any]  # compiled code: (env, state, answers) -> value

EVERYONE = None  # the viewer who reads every secret (the log of `play`, an author)
SPECTATOR = -1  # the viewer with no seat: reads no secret


@dataclass(frozen=True)
class MoveInfo:
    """A piece's `moves` block as the engine reads it."""

    per_turn: int
    open_end: bool
    not_built_this_turn: bool
    blocked_by: tuple[int, ...]  # neutral piece kinds

    @classmethod
    def of(cls, m: model.Movement, piece_index: dict[str, int]) -> MoveInfo:
        return cls(int(m.per_turn), bool(m.open_end_only), bool(m.not_built_this_turn),
                   tuple(piece_index[n] for n in m.blocked_by if n in piece_index))


class Varying(NamedTuple):
    """The amounts of one cost that are expressions (`cost (level + 1) paper`), beside
    its fixed vector: each (resource or token kind, count, where it is written);
    rules/costs.py evaluates them."""

    cards: tuple[tuple[int, model.Expr, model.Source | None], ...]
    tokens: tuple[tuple[int, model.Expr, model.Source | None], ...]  # an action's


class PieceInfo:
    """One piece kind, as the engine reads it."""

    __slots__ = ("index", "name", "site", "cost", "limit", "points", "produces", "distance",
                 "connects", "upgrades", "upgrades_from", "neutral", "blocks", "steals_from", "allowed",
                 "allowed_set", "sites", "source", "movement", "blockers", "movable_by", "moves_to", "takes",
                 "travel", "count", "placed_where", "route_length", "varying")

    index: int
    name: str
    site: str
    cost: tuple[int, ...]
    limit: int
    points: int
    produces: int
    distance: int
    connects: tuple[int, ...]  # piece kinds
    upgrades: int  # the piece kind it replaces (the first, with `or`), or -1
    upgrades_from: frozenset[int]  # every kind it may replace (`upgrades A or B`)
    route_length: int  # what one piece adds to a route (`route_length N`; 1 by default)
    neutral: bool
    blocks: tuple[str, ...]  # `production` and piece names
    steals_from: tuple[int, ...]
    allowed: tuple[int, ...]  # the sites it may stand on, on the board as it is
    allowed_set: frozenset[int]
    # the sites it may ever stand on: `allowed`, or on a board whose hexes may change
    # (rules/hexes.py) every site its `where` may come to allow; the action table's
    sites: tuple[int, ...]
    source: model.Source | None
    movement: MoveInfo | None
    blockers: tuple[int, ...]  # neutral piece kinds that keep it off their sites
    movable_by: model.Expr | None
    moves_to: model.Expr | None  # where a mover may take it, judged in play (`at`, `player`)
    takes: tuple[str, ...]
    travel: model.Travel | None  # a piece that travels path by path (rules/travel.py)
    count: int  # pieces of a neutral kind (1 for a player's piece)
    placed_where: model.Expr | None  # judged at each placement (`player`, `at`): rules/placement.py
    # its cost's amounts that are expressions (rules/costs.py), None for a fixed cost:
    # `cost` holds the fixed amounts either way
    varying: Varying | None


@dataclass(frozen=True)
class CardInfo:
    """A card as the engine reads it: its deck, count, points and when it may be played."""

    index: int
    deck: int
    name: str
    count: int
    points: int
    hidden: bool
    playable: bool  # some rule reacts to playing it
    condition: model.Expr | None = None  # `playable where`: when the holder may play it
    source: model.Source | None = None


@dataclass(frozen=True)
class PhaseInfo:
    """A phase of the turn: whether it rolls, and the activities it allows."""

    name: str
    rolls: bool  # allows `roll`: the phase ends with the dice
    allows: dict[str, frozenset[str] | None]  # activity -> names it is restricted to (None: all)


@dataclass(frozen=True)
class Told:
    """What an action's words may read besides the action itself: the game, who reads
    them (`viewer`: a seat, SPECTATOR, or EVERYONE), who takes the action (`actor`: the
    decider, or for a chance outcome the seat it concerns; -1 unknown), the state it is
    taken in (before it) and the prompt it answers (`state.top()` then), when known."""

    game: Game
    viewer: int | None = EVERYONE
    actor: int = -1
    state: State | None = None
    asked: Any = None

    def sees(self, *owners: int) -> bool:
        """Whether the viewer may read a secret of these seats (a card drawn, a card
        stolen): everyone's reader does, and so does each owner."""
        return self.viewer is EVERYONE or (self.viewer is not None and self.viewer >= 0 and self.viewer in owners)

    @property
    def board_game(self) -> Game:
        """The game on the board as it stands (hexes changed in play), else as dealt."""
        return self.state.game if self.state is not None else self.game


class Traveller(NamedTuple):
    """A piece that travels path by path (rules/travel.py) as the state keeps it: whose,
    which kind, the path it stands on, the points it has `left` for the rest of turn
    `turn` (STOPPED there: it stopped), and the last turn it `moved` (-1: never). A
    record is replaced, never edited, so a state's copy shares it; it serializes as the
    list of its fields, in this order."""

    player: int
    piece: int
    path: int
    left: int
    turn: int
    moved: int


class Partner(NamedTuple):
    """A player trades with a site (rules/sites.py): its route reached it."""

    site: int
    player: int


class YieldLimit(NamedTuple):
    """In turn `turn`, every piece of kind `piece` yields at most `most` from a hex
    (rules/production.py's `limit_yield`)."""

    turn: int
    piece: int
    most: int


class HexChange(NamedTuple):
    """Hex `hex` now has this terrain (an index into the board's terrain names) and
    number token (0 for none) (rules/hexes.py)."""

    hex: int
    terrain: int
    number: int


class VictoryToken(NamedTuple):
    """Special victory points that lie under a player's building at an intersection and
    leave the board with it (rules/islands.py's `vp_token`)."""

    player: int
    intersection: int
    points: int


class IslandTag(NamedTuple):
    """A player's mark on an island, such as `home` (rules/islands.py's `mark_island`)."""

    player: int
    tag: str
    island: int


class DeclinedOffer(NamedTuple):
    """A domestic offer that every player it asked declined this turn, so it is not made
    again (rules/trade.py): who proposed it, the seats asked (a bit each) and its terms.
    It serializes as the flat list [proposer, asked, *give, *get] (`row`)."""

    proposer: int
    asked: int
    give: tuple[int, ...]
    get: tuple[int, ...]

    def row(self) -> list[int]:
        return [self.proposer, self.asked, *self.give, *self.get]

    @classmethod
    def of_row(cls, row: list[int], items: int) -> DeclinedOffer:
        """The record a serialized row holds, for a game that trades `items` items."""
        return cls(row[0], row[1], tuple(row[2:2 + items]), tuple(row[2 + items:]))


class MovesMade(tuple):
    """The moves of movable pieces the active player has made in turn `turn`
    (rules/movement.py): a tuple laid out as [turn, moves], empty (NO_MOVES) until a
    first move, so it serializes and is observed as the list it always was; read it
    through `turn` and `moves`, build it with `of`. One type for both (not a named
    tuple or the empty tuple) so that the field has one declared type that a compiled
    read can check."""

    __slots__ = ()

    @classmethod
    def of(cls, turn: int, moves: int) -> MovesMade:
        return cls((turn, moves))

    @property
    def turn(self) -> int:
        return self[0] if self else -1

    @property
    def moves(self) -> int:
        return self[1] if self else 0


NO_MOVES = MovesMade()  # `moved` before any move: serializes as [], as it always has


class FreshPaths(tuple):
    """The paths where movable pieces were placed in turn `turn` (such a piece cannot
    move in the turn it is placed: rules/placement.py). A tuple laid out as [turn, path,
    ...] and empty before any placement, so it serializes and is observed as the flat
    list it always was; read it through `turn` and `paths`, build it with `of`."""

    __slots__ = ()

    @classmethod
    def of(cls, turn: int, paths: Iterable[int]) -> FreshPaths:
        return cls((turn, *paths))

    @property
    def turn(self) -> int:
        return self[0] if self else -1

    @property
    def paths(self) -> tuple[int, ...]:
        return self[1:]

    def without(self, path: int) -> FreshPaths:
        """The same turn's paths less `path` (the turn is never taken for a path)."""
        return FreshPaths.of(self.turn, [k for k in self.paths if k != path]) if self else self


NO_FRESH_PATHS = FreshPaths()


class LookupsOf(Protocol):
    """`Game.lookups`: what a rule module derives once from a game and reads in play,
    by the module's class (its `build(game)`)."""

    def __call__(self, cls: type[T], /) -> T: ...


class Answers:
    """The answers given so far to the choices of the statement being run."""

    __slots__ = ("values", "next")

    def __init__(self, values: list[Any]):
        self.values, self.next = values, 0


# what a program is run with when it may take no answer (a condition, a measure, a key):
# a choice in it is an error; no answer is ever taken from it (`next` moves only over values)
NO_ANSWERS = Answers([])


class Program(Protocol):
    """An expression compiled for a game (engine/interpreter.py's Program): `run(env,
    state, answers)`, with NO_ANSWERS unless the caller asks its choices."""

    asks: bool
    run: Code


class Interpreter(Protocol):
    """The running of a scenario's expressions, as the rules call it (engine/interpreter.py)."""

    statements: dict[int, Program]  # effect statement id -> its program
    awards: dict[int, Program]  # award -> its measure's program

    def program(self, e: model.Expr, source: model.Source | None = None) -> Program: ...

    def on_board(self, expr: model.Expr, source: model.Source | None) -> Callable[[dict[str, Any]], bool]: ...

    def hooks(self, event: str) -> tuple[str, tuple[tuple[tuple, Code | None, tuple[int, ...]], ...]]: ...

    def unable(self, event: str, subject: str, env: dict[str, Any], state: Any) -> str: ...


class Game(Protocol):
    """One game's tables, fixed for the whole play: the board as dealt, the pieces,
    cards and decks, the turn's phases, the action table (engine/game.py builds them)."""

    ruleset: Ruleset
    seed: int
    board: Board
    base: Game  # the game on the board as dealt (itself, unless hexes changed in play)
    changeable: bool  # hexes may change in play (rules/hexes.py)
    interp: Interpreter
    lookups: LookupsOf
    kept: model.Kept  # what the scenario keeps for its games (caches that live as long as it)
    # seats and victory
    num_players: int
    num_seats: int
    victory: int
    victory_any_turn: bool
    victories: tuple[model.Victory, ...]
    victory_parts: int
    turn_limit: int
    max_actions: int
    # resources, tokens, sites, counters
    resources: tuple[str, ...]
    res_index: dict[str, int]
    bank_start: list[int]
    hex_resource: tuple[int, ...]
    hex_choice: tuple[bool, ...]
    token_names: tuple[str, ...]
    token_index: dict[str, int]
    token_reserve: tuple[int, ...]
    sites: tuple[Any, ...]  # rules/sites.py's SiteInfo
    counter_names: tuple[str, ...]
    counter_index: dict[str, int]
    turn_counters: tuple[int, ...]
    counter_shared: tuple[bool, ...]  # counters with one value for the whole game (rules/counters.py)
    custom_actions: tuple[model.CustomAction, ...]
    # awards
    awards: list[model.Award]
    award_reads: tuple[int, ...]
    award_parts: int
    # pieces
    pieces: list[PieceInfo]
    piece_index: dict[str, int]
    movers: tuple[int, ...]
    travellers: tuple[int, ...]
    neutral: list[int]
    own_pieces: tuple[int, ...]  # the players' kinds
    piece_produces: tuple[int, ...]  # what each kind yields a hex
    blocking: tuple[int, ...]
    within: dict[int, tuple[tuple[int, ...], ...]]
    seat_starts: tuple[tuple[int, int, int], ...]
    neutral_slots: tuple[tuple[int, ...], ...]
    neutral_kind: tuple[int, ...]
    neutral_start: tuple[int, ...]
    # cards and decks
    decks: list[model.Deck]
    deck_index: dict[str, int]
    deck_cost: list[tuple[int, ...]]
    cards: list[CardInfo]
    card_index: dict[str, int]
    # rules: effects and hooks
    effects: list[model.Effect]
    effect_body: list[tuple[int, ...]]
    effect_orelse: list[tuple[int, ...]]
    effect_step: dict[int, int]  # a `for` statement's id -> its step's (engine/flow.py)
    effect_writes: tuple[int, ...]
    hooks: dict[str, list[tuple[model.Hook, tuple[int, ...]]]]
    # set-up and turn
    setup_script: list[tuple[int, int, int]]
    setup_steps: list[list[model.SetupStep]]
    between_turns: tuple[tuple[Any, frozenset[str] | None], ...]  # (rules/base.py's Activity, names)
    roll_phase: int
    between_rolls: int
    phases: tuple[PhaseInfo, ...]
    reachable: list[tuple[tuple[Any, frozenset[str] | None], ...]]
    turn_last: tuple[int, ...]
    # dice
    roll_source: Any  # rules/dice.py's DiceSource or rules/roll_cards.py's CardSource
    rerolled: frozenset[int]
    dice_totals: tuple[tuple[int, float], ...]
    dice_names: tuple[str, ...]
    dice_faces: tuple[tuple[int, ...], ...]
    dice_rolls: int
    dice_distinct: bool
    # actions: every action the game can offer, by id (rules/base.py's Action)
    actions: tuple[Any, ...]
    action_id: dict[Any, int]
    action_writes: Any
    build_id: Any
    activity_of: dict[type, Any]
    end_turn_id: int
    pass_id: int

    def with_hexes(self, changes: list[HexChange]) -> Game: ...

    def cost_vector(self, amounts: Iterable[model.Amount]) -> tuple[int, ...]: ...

    def phase_for(self, phase: int, act: Any) -> int: ...

    def num_distinct_actions(self) -> int: ...

    def action(self, action_id: object) -> Any: ...

    def check_seat(self, player: object, what: str) -> int: ...

    def action_to_string(self, action_id: object) -> str: ...

    def location_name(self, kind: str, at: int) -> str: ...


class State(Protocol):
    """One point of one play, as plain typed data (engine/state.py adds the
    OpenSpiel-style calls). The data falls in two parts: **flow**, changed only by the
    turn interpreter (engine/flow.py), and **game data**, changed by actions and by rule
    primitives."""

    if not TYPE_CHECKING:  # the engine's state keeps its fields in slots, with no __dict__
        __slots__ = ()

    game: Game
    # flow
    stage: str  # "setup", "turn" or "over"
    setup_pos: int  # index into game.setup_script
    start_player: int  # -1 until drawn (a chance node)
    turn_player: int
    turns: int  # turns begun (1 is the first regular turn)
    phase: int  # index into game.phases
    roll_requested: bool  # the active player asked for the dice (RollDice)
    pending: list[Any]  # prompts (rules/base.py): interruptions of the flow, top last
    winner: int  # the single winner, or -1
    winners: list[int]  # players sharing a victory (end_game ties)
    reason: str  # why the game ended: victory, turn_limit, action_limit, or end_game's reason
    seed: int
    chance_count: int  # chance outcomes applied: seeds the next sample
    actions_applied: int  # every applied action, chance outcomes included
    # game data: per player p, per resource r, per card c, per piece kind k
    hands: list[list[int]]  # [p][r]
    bank: list[int]  # [r]
    cards: list[list[int]]  # [p][c] held
    new_cards: list[int]  # [c] bought this turn by the active player
    played: list[list[int]]  # [p][c] played so far
    played_turn: list[int]  # [deck] cards played this turn
    deck: list[int]  # [c] still in the deck
    corner_owner: list[int]  # [intersection] seat or -1
    corner_piece: list[int]  # [intersection] piece kind or -1
    path_owner: list[int]  # [path] seat or -1
    path_piece: list[int]  # [path] piece kind or -1
    # [slot] the site of a neutral piece, or -1 off the board: slot k for the first piece of
    # kind k (a player's kind: always -1), then the further pieces of kinds with a `count`
    # (game.neutral_slots); a kind's sites are kept in order
    neutral_at: list[int]
    placed: list[list[int]]  # [seat][k] pieces on the board: the players', then the neutral seats'
    award_holder: list[int]  # [award] seat or -1
    last_roll: int
    fixed_roll: int  # the total the next roll of the dice comes up (`fix_dice`), 0: none
    last_faces: list[int]  # [die] each named die's face on the last roll of the dice, 0 before one
    last_corner: list[int]  # [p] the intersection p built on last, or -1 (`touching last`)
    last_path: list[int]  # [p] the path p built on last, or -1
    vp_tokens: list[VictoryToken]  # special victory points, in the order earned
    island_tags: list[IslandTag]  # in the order marked
    moved: MovesMade  # the moves made this turn, NO_MOVES before any
    fresh_paths: FreshPaths  # movable pieces placed this turn, NO_FRESH_PATHS before any
    token_stock: list[list[int]]  # [site][token]
    token_supply: list[int]  # [token] the general supply
    tokens_held: list[list[int]]  # [p][token]
    partners: list[Partner]  # in the order trade began
    offers_made: int  # domestic offers proposed this turn
    offers_declined: list[DeclinedOffer]  # this turn's, not to be made again in it (rules/trade.py)
    acted: list[int]  # [custom action] times taken this turn
    harbor_at: list[int]  # [harbor spot] the harbor type lying there, -1 for none (rules/harbors.py)
    harbor_supply: list[int]  # [harbor type] tokens the players have still to place
    travellers: list[Traveller]  # in the order placed (rules/travel.py)
    project_level: list[int]  # [project] stages built (rules/projects.py)
    project_owner: list[int]  # [project] the owner, -1 before its first stage
    roll_deck: list[int]  # [roll card kind] not yet revealed this year (rules/roll_cards.py)
    roll_year: int  # roll cards still to reveal before the New Year card
    damaged: list[int]  # paths whose piece is damaged, ascending (rules/damage.py)
    yield_limits: list[YieldLimit]  # this turn's (rules/production.py)
    turn_rolls: list[int]  # the totals rolled so far this turn (`rolls 2 distinct`)
    discarded: list[int]  # [c] played cards set aside for good (`unplay`)
    counters: list[list[int]]  # [p][counter] (rules/counters.py)
    # [seat][k] pieces taken out of the seat's supply for good (rules/supply.py): with
    # those placed, never more than the piece's limit
    pieces_lost: list[list[int]]
    # [code (0 intersection, 1 path), site, seat, piece kind, level]: the levels rules gave
    # pieces on the board (rules/piece_state.py), ascending, none 0
    piece_levels: list[list[int]]
    # [code (0 intersection, 1 path), site, seat, piece kind]: pieces attached to the piece
    # standing on a site (rules/piece_state.py), ascending; counted in `placed`
    attachments: list[list[int]]
    stacked: list[int]  # [c] cards lying on their deck's stack, face down (rules/stacks.py)
    # hexes that lie face down or changed (rules/hexes.py); `game` is the game on the
    # board `hex_changes` make (Game.with_hexes)
    face_down: list[int]  # hex ids still face down, ascending
    hidden_tiles: list[list[int]]  # [hidden pool][terrain] tiles left in its stack
    hidden_numbers: list[list[int]]  # [hidden pool][number] number tokens left in its stack
    hex_changes: list[HexChange]  # the hexes changed since the deal, in the order they first changed
    # derived, not serialized: each seat's pieces and route lines (rules/network.py), worked
    # out on first use; the parts written by the action being applied (registry.PART_BITS);
    # the rule statements run for it (engine/flow.py stops a rule that triggers itself); the
    # set-up step's legal actions, by (actions applied, set-up position) when found; how
    # many times the fields may have been written (engine/state.py)
    _network: Any
    _changed: int
    _steps: int
    _writes: int
    _setup_legal: tuple[tuple[int, int], list[int]] | None

    # ---- what the rules call ---------------------------------------------------------

    def emit(self, event: str, env: dict[str, Any]) -> None:
        """Queue the hooks on an event, in declaration order."""
        ...

    def push(self, prompt: Any) -> None: ...

    def top(self) -> Any:
        """The decision the game waits for: the top prompt (a copy), else the flow's own."""
        ...

    def is_terminal(self) -> bool: ...

    def is_chance_node(self) -> bool: ...

    def current_player(self) -> int: ...
