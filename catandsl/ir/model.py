"""The compiled scenario (IR): plain frozen dataclasses, JSON-serializable.

A `Scenario` is a list of `Section`s. The first sections are unconditional; the others
apply only for some player counts or option items (`for 3 players { }`,
`when layout is random { }`). Each section holds declarations (`Decl`), keyed by
(kind, name): a later declaration with the same key replaces an earlier one and a
`Remove` takes one away. `catandsl.ir.configure` folds the sections for one player
count and choice of options into a `Ruleset`, the resolved view the board and engine
read. Nothing here is code: expressions are data (`Expr`), evaluated by the engine
through the primitives registered in `catandsl.rules`.

Every dataclass that is a member of a union carries a class-level `KIND`, written as
`"kind"` in JSON. `catandsl.ir.codec` derives both the JSON form and the JSON Schema
from these type hints, so the three cannot drift apart.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, ClassVar

from catandsl.ir import codec

FORMAT_VERSION = 2


@dataclass(frozen=True)
class Source:
    """Where a declaration came from, so later stages can point at the .catan line."""

    file: str
    line: int
    column: int


# ---- expressions and effects -------------------------------------------------------


@dataclass(frozen=True)
class Expr:
    """An expression tree.

    op is one of: num, str, bool (value holds the literal); var (value is the name of an
    event parameter, a `let`, or a declared name); param (value is an option/param name);
    call (value is the primitive's name); list, pair; and, or, not, neg; eq, ne, lt, le,
    gt, ge; add, sub, mul; place (args q and r, value the corner N, S or C of an
    intersection or the side of a path); index (a list and a position from 0); in (a value
    and a list).
    """

    op: str
    args: tuple[Expr, ...] = ()
    value: int | str | bool | None = None


@dataclass(frozen=True)
class Effect:
    """A statement of a hook: op is call (expr), if (expr, body, orelse), let (name,
    expr) or for (name, expr, body)."""

    op: str
    expr: Expr | None = None
    name: str | None = None
    body: tuple[Effect, ...] = ()
    orelse: tuple[Effect, ...] = ()
    source: Source | None = None


@dataclass(frozen=True)
class Hook:
    """`on EVENT(filters) if CONDITION { EFFECTS }`."""

    event: str
    filters: tuple[str | int, ...]
    condition: Expr | None
    effects: tuple[Effect, ...]
    source: Source | None = None


# ---- building blocks ---------------------------------------------------------------


@dataclass(frozen=True)
class Amount:
    """A count of something named: `3 ore`, `forest x4`."""

    name: str
    count: int


@dataclass(frozen=True)
class VaryingAmount:
    """`(level + 1) paper` in a cost: a count that is an expression (a number, with
    `player` and, in a project's stage, `level` in scope), evaluated each time the cost
    is checked or paid; a cost's fixed amounts stay `Amount`s."""

    name: str
    count: Expr
    source: Source | None = None


@dataclass(frozen=True)
class HarborType:
    """A harbor: `3:1` (any resource) or `brick 2:1`."""

    give: int
    get: int
    resource: str | None = None


@dataclass(frozen=True)
class EdgeRef:
    """A hex side: side is one of NE, E, SE, SW, W, NW of hex (q, r)."""

    q: int
    r: int
    side: str
    source: Source | None = None


@dataclass(frozen=True)
class Movement:
    """How a placed piece may move (ships): only the end of an open route, how many
    moves per turn, not a piece built this turn, not away from a blocking piece. When
    it may move is said by the turn's phases (`move`)."""

    open_end_only: bool = False
    per_turn: int = 1
    not_built_this_turn: bool = False
    blocked_by: tuple[str, ...] = ()


@dataclass(frozen=True)
class Travel:
    """A piece that travels path by path (a wagon): each turn it has `points` (read with
    `player` when its first step of the turn is taken); a step onto a path sharing an end
    with its own costs `cost` (read with `player`, `from` and `at`, the path entered) and
    needs `enter` to hold; after a step onto a path where `stop` holds, it travels no
    further this turn. Travellers stand beside other pieces: they never block a path."""

    points: Expr
    cost: Expr
    enter: Expr | None = None
    stop: Expr | None = None


# ---- declarations ------------------------------------------------------------------


@dataclass(frozen=True)
class Resource:
    """`resource NAME`: a kind of card the bank holds and the terrains produce."""

    KIND: ClassVar[str] = "resource"
    name: str
    source: Source | None = None


@dataclass(frozen=True)
class Terrain:
    """A hex type. `water` hexes hold ships and harbors; a land terrain produces a
    resource, nothing, or a resource of the owner's choice (`choice`). A `hub` terrain
    (land, producing nothing) gives each of its hexes a centre point and spur paths
    from it to the hex's corners that touch other land (see catandsl.board.graph)."""

    KIND: ClassVar[str] = "terrain"
    name: str
    water: bool = False
    produces: str | None = None
    choice: bool = False
    source: Source | None = None
    hub: bool = False


@dataclass(frozen=True)
class Bank:
    """`bank`: how many cards of each resource the bank starts with."""

    KIND: ClassVar[str] = "bank"
    name: str
    amounts: tuple[Amount, ...]
    source: Source | None = None


@dataclass(frozen=True)
class Piece:
    """A piece: where it stands (`site`: path, intersection or hex, with a `where`
    condition), what it costs, how many each player has (`limit`), what it is worth,
    what it must connect to, what it replaces (`upgrades`), and for a neutral piece
    (robber, pirate) what it blocks (`production`, or piece kinds it keeps off the sites
    around it) and whom it robs. `movable_by` is a condition on
    the mover (`player`): a player for whom it is false may not choose this piece,
    whichever rule or card moves it; `moves_to` one on the destination (`at`), judged
    in play. `takes` lists what a robbery may take: `resource`
    (a resource card) and token names; empty means a resource card, as in the base
    game; with several, the mover chooses. `count` is how many pieces of a neutral kind
    stand on the board (one robber; three pieces on paths), each moved on its own."""

    KIND: ClassVar[str] = "piece"
    name: str
    site: str
    where: Expr | None = None
    cost: tuple[Amount, ...] = ()
    limit: int | None = None
    points: int = 0
    produces: int = 0
    distance: int = 0
    connects: tuple[str, ...] = ()
    upgrades: str | None = None
    # `upgrades settlement or city`: further kinds it may replace besides `upgrades`
    upgrades_or: tuple[str, ...] = ()
    neutral: bool = False
    blocks: tuple[str, ...] = ()
    steals_from: tuple[str, ...] = ()
    movement: Movement | None = None
    travel: Travel | None = None
    movable_by: Expr | None = None
    # where a neutral piece may be moved, judged when it moves (`at` the destination,
    # `player` the mover); a move with no destination allowed lapses
    moves_to: Expr | None = None
    # who may place it where, judged at each placement (`player` the builder, `at` the
    # site): the builder's own network, hand or counters, which `where` cannot read
    placed_where: Expr | None = None
    takes: tuple[str, ...] = ()
    count: int = 1
    source: Source | None = None
    # `route_length N`: what one piece of a path kind adds to a route (`longest_route`)
    route_length: int = 1
    # `cost (level + 1) grain`: the amounts of its cost that are expressions
    varying_cost: tuple[VaryingAmount, ...] = ()


@dataclass(frozen=True)
class Card:
    """A card of a deck; `playable_if` (a condition with `player`, the holder) says when
    it may be played, besides the deck's own limits."""

    name: str
    count: int
    points: int = 0
    hidden: bool = False
    playable_if: Expr | None = None
    source: Source | None = None


@dataclass(frozen=True)
class Deck:
    """`deck NAME`: its cards, its cost and how its cards may be played."""

    KIND: ClassVar[str] = "deck"
    name: str
    cards: tuple[Card, ...]
    cost: tuple[Amount, ...] = ()
    play_per_turn: int = 1
    not_turn_bought: bool = True
    source: Source | None = None
    # `reshuffle`: when the deck runs out, the cards played from it and set aside go
    # back into it (progress cards returned under their stack)
    reshuffle: bool = False
    varying_cost: tuple[VaryingAmount, ...] = ()  # a card's cost amounts that are expressions


@dataclass(frozen=True)
class Award:
    """A special card held by the one player with the strictly largest `measure` of at
    least `min`."""

    KIND: ClassVar[str] = "award"
    name: str
    title: str
    points: int
    min: int
    measure: Expr
    source: Source | None = None
    # `neutral_seats compete`: the measure is read for the neutral seats too, and one may
    # hold the award (its points go to nobody): Longest Road in Catan for Two
    seats: bool = False


@dataclass(frozen=True)
class Trade:
    """A way to trade: `bank` (give:get with the bank) or `domestic` (between players:
    offers composed card by card, any number of cards a side; an offer every player it
    asked declined is not made again in that turn). `tokens` (domestic): the token
    kinds a side may hold besides resource cards (`tokens gold`), never on both sides."""

    KIND: ClassVar[str] = "trade"
    name: str
    give: int = 0
    get: int = 0
    source: Source | None = None
    tokens: tuple[str, ...] = ()


@dataclass(frozen=True)
class Token:
    """A kind of counter that is not a resource card (spice): it never counts toward a
    hand's cards, is never discarded, traded or taken by a Monopoly. `supply` is every
    token there is; `reserve`, when given, is the general supply beside the board, and
    the stocks of the map's sites plus `reserve` must make `supply` (E0425); without
    it, the general supply is what the sites leave. A player holding N tokens scores
    `points` victory points per `per` tokens, rounded down."""

    KIND: ClassVar[str] = "token"
    name: str
    supply: int
    reserve: int | None = None
    points: int = 0
    per: int = 1
    source: Source | None = None


@dataclass(frozen=True)
class SiteKind:
    """A kind of map site (a market): where its sites stand (`on`: intersection), the
    tokens each starts with (`stock`, taken from the token's supply), whether each
    carries a number token (`numbered`, given in the map's `sites` line), whether no
    piece may be built on it (`no_building`), and whether a route that reaches it is
    closed, so that its movable pieces never move (`closes_routes`). A player whose
    route reaches a site trades with it from then on (event `site_reached`)."""

    KIND: ClassVar[str] = "site"
    name: str
    on: str = "intersection"
    stock: tuple[Amount, ...] = ()
    numbered: bool = False
    no_building: bool = False
    closes_routes: bool = False
    source: Source | None = None


@dataclass(frozen=True)
class TieBreak:
    """How the winner is found when the game ends without one (`end_game`): players
    are ranked by each key in turn, highest first; each key is an int expression with
    `player` in scope. Players equal on every key share the victory."""

    KIND: ClassVar[str] = "tie_break"
    name: str
    keys: tuple[Expr, ...]
    source: Source | None = None


@dataclass(frozen=True)
class Setting:
    """A scalar of the ruleset: victory, turn_limit, title, ... `param` names an option
    whose chosen item's value replaces `value`."""

    KIND: ClassVar[str] = "setting"
    name: str
    value: int | str | None = None
    param: str | None = None
    source: Source | None = None


@dataclass(frozen=True)
class Param:
    """A named number that hooks read (`island_bonus`); options set them."""

    KIND: ClassVar[str] = "param"
    name: str
    value: int
    source: Source | None = None


@dataclass(frozen=True)
class SetupStep:
    """`place settlement`, `place road or ship touching last`, `collect last`;
    `optional`: the player may pass instead (`place settlement optional`); `fresh`
    (`place city new`): a piece that upgrades another stands on an empty intersection
    where the piece it upgrades could, under its distance rule; `count` (`collect last
    2`): the resources each producing hex pays (1 by default)."""

    action: str
    pieces: tuple[str, ...] = ()
    touching_last: bool = False
    where: Expr | None = None
    optional: bool = False
    source: Source | None = None
    fresh: bool = False
    count: int = 1


@dataclass(frozen=True)
class SetupRound:
    """One round of the set-up: order is forward (clockwise from the start player) or
    backward (counter-clockwise from the last player); `from_last` starts a forward
    round with the player who placed last."""

    order: str
    steps: tuple[SetupStep, ...]
    from_last: bool = False
    source: Source | None = None


@dataclass(frozen=True)
class Setup:
    """`setup`: the rounds of placements before the first turn."""

    KIND: ClassVar[str] = "setup"
    name: str
    rounds: tuple[SetupRound, ...]
    source: Source | None = None


@dataclass(frozen=True)
class Allow:
    """What a phase allows: an activity (`roll`, `trade`, `build`, `buy`, `play`,
    `move`, `actions`), restricted to the named pieces, decks, trades or actions when
    `names` is not empty."""

    activity: str
    names: tuple[str, ...] = ()


@dataclass(frozen=True)
class Phase:
    """A phase of the turn and what it allows. A phase `between_turns` belongs to no
    player's turn: once the active player ends the turn, each other player in turn order
    (from the left) takes it, then the next turn starts. A phase `between_rolls` is the
    active player's between one roll of the dice and the next (`rolls 2`): it stands
    outside the sequence of phases and ends with the next roll."""

    name: str
    allows: tuple[Allow, ...]
    source: Source | None = None
    between_turns: bool = False
    between_rolls: bool = False


@dataclass(frozen=True)
class Turn:
    """The phases of a regular turn, in order (see engine/flow.py)."""

    KIND: ClassVar[str] = "turn"
    name: str
    phases: tuple[Phase, ...]
    source: Source | None = None


@dataclass(frozen=True)
class Dice:
    """`dice 2d6`: `count` dice of `sides` sides, summed; totals in `reroll` are rolled
    again (so they never come up)."""

    KIND: ClassVar[str] = "dice"
    name: str
    count: int
    sides: int
    reroll: tuple[int, ...] = ()
    source: Source | None = None
    rolls: int = 1  # `rolls 2`: the dice are rolled this many times a turn, each resolved in turn
    distinct: bool = False  # `rolls 2 distinct`: a later roll is rolled again until its total is new
    # `named red, white`: each die's name, in order; a roll is then each die's face
    # (rules read one with `die(red)`), not the total alone
    names: tuple[str, ...] = ()


@dataclass(frozen=True)
class RollCard:
    """`card 6 drought x2`: `count` cards showing the total `total`, with an event (the
    name rules filter on, `on card_revealed(drought)`) or none ("")."""

    total: int
    event: str
    count: int


@dataclass(frozen=True)
class RollCards:
    """`roll_cards { card 2 windfall; card 3 x2; ...; new_year 5 }`: a deck whose
    revealed card is the roll in place of the dice. The deck is rebuilt when the cards
    above its New Year card are used up; `unused` cards lie under that card, so each
    year that many cards are never revealed (0: the whole deck is used)."""

    KIND: ClassVar[str] = "roll_cards"
    name: str
    cards: tuple[RollCard, ...]
    unused: int = 0
    source: Source | None = None


@dataclass(frozen=True)
class Measure:
    """`measure knights played(player, [knight])`: a number per player, named so that
    rules can ask who leads by it (`leaders(knights)`) or trails a player
    (`below(player, knights)`)."""

    KIND: ClassVar[str] = "measure"
    name: str
    expr: Expr
    source: Source | None = None


@dataclass(frozen=True)
class Victory:
    """`victory "Title" where COND`: a player for whom the condition holds (`player` in
    scope) wins, checked when the points target is."""

    KIND: ClassVar[str] = "victory"
    name: str
    title: str
    condition: Expr
    source: Source | None = None


@dataclass(frozen=True)
class Stage:
    """One stage of a project: what it costs and the points it adds to the owner."""

    cost: tuple[Amount, ...] = ()
    points: int = 0
    source: Source | None = None
    # its cost amounts that are expressions (`level`, the stages built before it, in scope)
    varying_cost: tuple[VaryingAmount, ...] = ()


@dataclass(frozen=True)
class Project:
    """`project NAME "Title" { requires where COND; stage { cost ...; points N } ... }`: a
    shared thing built in stages. The first stage bought makes its buyer the owner; only
    the owner buys the next stages, in order, each when `requires` holds (`player` and
    `level`, the stages built so far, in scope) and its cost is paid."""

    KIND: ClassVar[str] = "project"
    name: str
    title: str
    stages: tuple[Stage, ...]
    requires: Expr | None = None
    source: Source | None = None


@dataclass(frozen=True)
class CustomAction:
    """`action NAME "Title" { ... }`: an action of the scenario's own, taken in a phase
    that allows it, at most `per_turn` times a turn, when its cost is paid and its
    condition (`player` in scope) holds; its effects are the hooks of
    `action_taken(NAME)`. `cost` holds the resource cards it costs, `token_cost` the
    tokens (returned to their general supply)."""

    KIND: ClassVar[str] = "action"
    name: str
    title: str
    cost: tuple[Amount, ...] = ()
    per_turn: int = 1
    condition: Expr | None = None
    source: Source | None = None
    token_cost: tuple[Amount, ...] = ()
    # its cost amounts that are expressions, of resource cards or tokens
    varying_cost: tuple[VaryingAmount, ...] = ()


@dataclass(frozen=True)
class Rule:
    """A named group of hooks; `category` records the construct it came from
    (rule, special_victory, card)."""

    KIND: ClassVar[str] = "rule"
    name: str
    hooks: tuple[Hook, ...]
    category: str = "rule"
    source: Source | None = None


# ---- the map -------------------------------------------------------------------------


@dataclass(frozen=True)
class HexSlot:
    """One hex of the map: a fixed terrain, or a slot filled from a tile pool; an
    optional fixed number token."""

    q: int
    r: int
    terrain: str | None = None
    pool: str | None = None
    number: int | None = None
    source: Source | None = None


@dataclass(frozen=True)
class TilePool:
    """Tiles dealt onto the map's hexes that name the pool. `max_clump` (0: any) bounds
    how many hexes of one land terrain may touch in a group: the pool is dealt again
    until no group is larger. A `hidden` pool is a face-down stack: its hexes lie face
    down, counting as the `cover` terrain, until a rule reveals one (a tile drawn from
    the stack at a chance node; rules/hexes.py)."""

    name: str
    tiles: tuple[Amount, ...]
    shuffled: bool = True
    source: Source | None = None
    max_clump: int = 0
    hidden: bool = False
    cover: str | None = None  # a hidden pool's face-down terrain (None: the first water terrain)


@dataclass(frozen=True)
class Counter:
    """`counter NAME` (or `counter NAME { per turn }`): a number each player keeps,
    starting at 0, that rules set and read (`set_counter`, `add_to_counter`,
    `counter`): a once-a-turn flag, steps counted in a move. `per_turn` sets every
    player's back to 0 when a turn begins. It is no token: nobody holds it; it scores
    only with `points P` (P per 1 of it, P may be negative)."""

    KIND: ClassVar[str] = "counter"
    name: str
    per_turn: bool = False
    source: Source | None = None
    # victory points for each 1 of it (`points -1`: a building conquered, counted off)
    points: int = 0
    # one value for the whole game, whichever player a rule names (a scenario-wide variable)
    shared: bool = False


@dataclass(frozen=True)
class NumberToken:
    """A number token: its value and its letter (the spiral's order)."""

    value: int
    letter: str | None = None


@dataclass(frozen=True)
class NumberPlan:
    """How number tokens are laid: fixed (in the map cells), shuffled onto the producing
    hexes of the named pools (all when empty), along the spiral in letter order, or
    `hidden`: a face-down stack for the hidden pool in `onto`, a token drawn for each
    producing tile revealed, among those its `skip`, `keep_off` and `avoid_adjacent`
    allow there (rules.hexes.hidden_choices).
    `avoid_adjacent` lists numbers that may not touch each other (6, 8)."""

    method: str
    tokens: tuple[NumberToken, ...] = ()
    onto: tuple[str, ...] = ()
    skip: tuple[str, ...] = ()
    avoid_adjacent: tuple[int, ...] = ()
    start_corner: int | None = None
    source: Source | None = None
    keep_off: tuple[NumberBan, ...] = ()
    # `numbers along path [5, 2, 6, ...]` (method "along"): the hex paths of the marks
    # named, one of which the seed picks; the tokens are laid in order along it
    along: tuple[tuple[tuple[int, int], ...], ...] = ()


@dataclass(frozen=True)
class NumberBan:
    """`keep [6, 8] off [gold]`: none of these numbers on a hex of these terrains;
    `keep [6, 8] off east_coast`: nor on the hexes of a map's mark (`place` its name)."""

    numbers: tuple[int, ...]
    terrains: tuple[str, ...]
    hexes: tuple[tuple[int, int], ...] = ()
    place: str | None = None


@dataclass(frozen=True)
class HarborPlan:
    """Harbor tokens and the hex sides they go on: fixed (in order), shuffled, or placed
    (the players draw the tokens and place them on the spots in the set-up)."""

    method: str
    harbors: tuple[HarborType, ...]
    spots: tuple[EdgeRef, ...]
    source: Source | None = None
    # shuffled: at most this many harbors of one kind on spots next to each other in the
    # list (0: no limit), so a deal never lines up two wool harbors
    max_clump: int = 0


@dataclass(frozen=True)
class FramePiece:
    """A frame piece spanning `length` sea positions, with connector letters at its two
    ends; an extension piece has left == right == "X"."""

    left: str
    right: str
    length: int
    label: str | None = None
    source: Source | None = None


@dataclass(frozen=True)
class Frame:
    """`frame`: the lettered pieces of sea around the map."""

    pieces: tuple[FramePiece, ...]
    terrain: str = "sea"
    extension_joints: tuple[str, ...] = ()
    source: Source | None = None


@dataclass(frozen=True)
class Start:
    """Where a neutral piece starts: a hex, the hex of a terrain (and number), or off
    the board; for a kind of several pieces (`count`), one hex each (`hexes`); for a
    piece on paths, one path each (`paths`, a hex and a side)."""

    piece: str
    q: int | None = None
    r: int | None = None
    terrain: str | None = None
    number: int | None = None
    off_board: bool = False
    hexes: tuple[tuple[int, int], ...] = ()
    paths: tuple[EdgeRef, ...] = ()
    source: Source | None = None
    # a seat's own piece placed before the set-up (`start settlement of neutral 1 at
    # (0, -2) N`): "player" or "neutral", the seat's number counting from 1, and the
    # corner of (q, r) it stands on (a piece on a path names its side in `paths`)
    seat: str | None = None
    seat_number: int = 0
    corner: str | None = None

    def key(self) -> str:
        """What a `start` outside the map replaces: a neutral piece's start, or one seat's piece."""
        return self.piece if self.seat is None else f"{self.piece} of {self.seat} {self.seat_number}"


@dataclass(frozen=True)
class StartOverride:
    """`start PIECE ...` outside the map: for the variant it is declared in, the piece
    starts there whichever map the variant has (it replaces the map's own `start`)."""

    KIND: ClassVar[str] = "start"
    name: str  # the piece
    start: Start
    source: Source | None = None


@dataclass(frozen=True)
class HarborsOverride:
    """`harbors ...` outside the map: for the variant it is declared in, these harbors
    replace the map's own `harbors` lines (`harbors placed [...] at [...]`); or, with no
    plans and a `method` (`harbors placed` alone), the map's own tokens and spots are
    kept and laid that way (the players place them)."""

    KIND: ClassVar[str] = "harbors"
    name: str  # always "harbors": one per variant
    plans: tuple[HarborPlan, ...]
    source: Source | None = None
    method: str | None = None


@dataclass(frozen=True)
class Mark:
    """`mark east_coast [(3, 0) NE, (3, 0) N, (2, 1)]`: places a rule names, in order, as
    a list: hexes (`part` ""), intersections (N, S or C) and paths (a side)."""

    name: str
    places: tuple[tuple[int, int, str], ...]
    source: Source | None = None


@dataclass(frozen=True)
class Area:
    """`area strip [(0, 0), (1, 0), (2, -1) N]`: hexes and intersections a rule can name
    (`in_area(at, strip)`); an area holds its hexes' corners too."""

    name: str
    hexes: tuple[tuple[int, int], ...] = ()
    corners: tuple[tuple[int, int, str], ...] = ()
    source: Source | None = None
    # where each hex and each intersection is written, in the same order (an error
    # points at the item, not at the line)
    hex_sources: tuple[Source, ...] = ()
    corner_sources: tuple[Source, ...] = ()


@dataclass(frozen=True)
class IslandName:
    """Names the island(s) holding the given hexes, for rules (`on_island(at, main)`)."""

    name: str
    hexes: tuple[tuple[int, int], ...]
    source: Source | None = None


@dataclass(frozen=True)
class SitePlacement:
    """A site of kind `site` on the intersection (q, r, corner), corner N or S (the
    board's intersection ids), with its number token when the kind is numbered."""

    site: str
    q: int
    r: int
    corner: str
    number: int | None = None
    source: Source | None = None


@dataclass(frozen=True)
class Map:
    """`map NAME`: its hexes, pools, numbers, harbors, frame and named places."""

    KIND: ClassVar[str] = "map"
    name: str
    hexes: tuple[HexSlot, ...]
    pools: tuple[TilePool, ...] = ()
    numbers: tuple[NumberPlan, ...] = ()
    harbors: tuple[HarborPlan, ...] = ()
    frame: Frame | None = None
    starts: tuple[Start, ...] = ()
    islands: tuple[IslandName, ...] = ()
    sites: tuple[SitePlacement, ...] = ()
    source: Source | None = None
    areas: tuple[Area, ...] = ()
    marks: tuple[Mark, ...] = ()


@dataclass(frozen=True)
class Remove:
    """`without KIND NAME`: takes an earlier declaration away."""

    KIND: ClassVar[str] = "remove"
    name: str
    of: str  # the kind of declaration removed
    source: Source | None = None


Decl = (
    Resource | Terrain | Bank | Piece | Deck | Award | Trade | Token | Counter | SiteKind | TieBreak
    | Setting | Param | Setup | Turn | Dice | RollCards | Measure | Victory | CustomAction | Project | Rule
    | Map | StartOverride | HarborsOverride | Remove
)
DECL_TYPES: tuple[type, ...] = (
    Resource, Terrain, Bank, Piece, Deck, Award, Trade, Token, Counter, SiteKind, TieBreak, Setting,
    Param, Setup, Turn, Dice, RollCards, Measure, Victory, CustomAction, Project, Rule, Map, StartOverride,
    HarborsOverride, Remove,
)


# ---- the scenario --------------------------------------------------------------------


@dataclass(frozen=True)
class OptionItem:
    """An `item` of an option: its name, its value and its title."""

    name: str
    value: int | None = None
    title: str | None = None


@dataclass(frozen=True)
class Option:
    """`option NAME`: the items a game may choose and the default."""

    name: str
    items: tuple[OptionItem, ...]
    default: str
    title: str | None = None
    source: Source | None = None


@dataclass(frozen=True)
class Choice:
    """An option set to one item: where a `when` section applies."""

    option: str
    item: str


@dataclass(frozen=True)
class Section:
    """Declarations that apply when the player count is in `players` (any count when
    empty) and every `choices` option has that item."""

    decls: tuple[Decl, ...]
    players: tuple[int, ...] = ()
    choices: tuple[Choice, ...] = ()


class Kept:
    """What the engine works out from a compiled scenario and keeps for as long as the
    scenario lives, so that its next game is cheap: the games made so far as templates
    (engine/game.py's `new_game`), the action tables they number their actions by, and
    the domestic trade's legal lists by action table (rules/trade.py). It belongs to its
    Scenario, so it goes when the scenario goes; it is no part of the scenario's value
    (not compared, hashed, serialized or copied: a copy of the scenario starts empty)."""

    __slots__ = ("templates", "action_tables", "legal_trades")

    def __init__(self) -> None:
        self.templates: dict[Any, Any] = {}  # (players, options) -> engine/game.py's templates
        self.action_tables: dict[Any, Any] = {}  # what the actions are -> the numbered table
        self.legal_trades: dict[Any, Any] = {}  # trade action ids -> legal lists by position

    def __reduce__(self) -> tuple:
        return (Kept, ())

    def clear(self) -> None:
        self.templates.clear()
        self.action_tables.clear()
        self.legal_trades.clear()


@dataclass(frozen=True)
class Scenario:
    """A compiled scenario: its title, player counts, options and sections."""

    name: str
    title: str
    players_min: int
    players_max: int
    options: tuple[Option, ...]
    sections: tuple[Section, ...]
    files: tuple[str, ...] = ()
    format_version: int = FORMAT_VERSION
    # what the engine derives from the scenario and keeps while it lives: not part of it
    kept: Kept = field(default_factory=Kept, init=False, compare=False, repr=False)

    @classmethod
    def from_json(cls, data: Any) -> Scenario:
        """A compiled scenario from `catandsl compile --json` output (the text or the
        parsed object); IRFormatError if it is not one of this format version."""
        if isinstance(data, (str, bytes)):
            try:
                data = json.loads(data)
            except (ValueError, RecursionError) as e:
                raise codec.IRFormatError(f"$: not JSON: {e}") from None
        if isinstance(data, dict) and data.get("format_version", FORMAT_VERSION) != FORMAT_VERSION:
            raise codec.IRFormatError(f"$.format_version: this engine reads {FORMAT_VERSION}, "
                                f"not {data.get('format_version')!r}")
        return codec.from_json(cls, data)

    def to_json(self) -> Any:
        """The scenario as JSON data (what `catandsl compile --json` prints)."""
        return codec.to_json(self)


def scenario_to_json(s: Scenario) -> dict:
    return codec.to_json(s)


def scenario_from_json(data: Any) -> Scenario:
    return codec.from_json(Scenario, data)


def json_schema() -> dict:
    """The JSON Schema (draft 2020-12) of every compiled scenario."""
    return codec.json_schema(
        Scenario,
        **{"$id": "https://catandsl.dev/schema/scenario.json",
           "title": "catandsl compiled scenario",
           "description": f"The IR of a compiled .catan scenario, format version {FORMAT_VERSION}."})
