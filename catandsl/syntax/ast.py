"""The abstract syntax tree: frozen dataclasses, every node with its source span.

The tree mirrors grammars/catan.lark. Most declarations are `Entry`s (a head word,
phrases, an optional `where`, an optional block); the compiler gives each head word
its meaning. Hooks and expressions have their own nodes.
"""

from __future__ import annotations

from dataclasses import dataclass

from catandsl.diagnostics import Span


@dataclass(frozen=True)
class Node:
    """Every node: where in the source it stands."""

    span: Span


# ---- terms: the pieces of an entry's phrases ------------------------------------------


@dataclass(frozen=True)
class Word(Node):
    """A name (`road`, `NE`, `on`) or a one-character legend symbol (`~`)."""

    name: str


@dataclass(frozen=True)
class Number(Node):
    """A whole number: `19`, `-1`."""

    value: int


@dataclass(frozen=True)
class Str(Node):
    """A quoted string: a title, a label, a map picture."""

    value: str
    long: bool = False  # a """triple-quoted""" string (map pictures)


@dataclass(frozen=True)
class Range(Node):
    """`3..4`: the numbers from `low` to `high`."""

    low: int
    high: int


@dataclass(frozen=True)
class Coord(Node):
    """`(q, r)`: a hex by its axial coordinates."""

    q: int
    r: int


@dataclass(frozen=True)
class Ratio(Node):
    """`2:1`: a trade rate, `give` for `get`."""

    give: int
    get: int


@dataclass(frozen=True)
class Repeat(Node):
    """`forest x4`: a term repeated `count` times."""

    term: Term
    count: int


@dataclass(frozen=True)
class Phrase(Node):
    """The terms of an entry between its commas: `item seed "the seed's" default`."""

    terms: tuple[Term, ...]


@dataclass(frozen=True)
class ListTerm(Node):
    """`[forest x4, desert]`: a bracketed list of phrases."""

    items: tuple[Phrase, ...]


Term = Word | Number | Str | Range | Coord | Ratio | Repeat | ListTerm


# ---- expressions ------------------------------------------------------------------------


@dataclass(frozen=True)
class Lit(Node):
    """A literal in an expression: a number, a string, `true` or `false`."""

    value: int | str | bool


@dataclass(frozen=True)
class Var(Node):
    """A name in an expression: a bound variable, a declared name or a parameter."""

    name: str


@dataclass(frozen=True)
class Call(Node):
    """`name(args)`: a query called from an expression."""

    name: str
    args: tuple[Expr, ...]


@dataclass(frozen=True)
class Unary(Node):
    """`not x` or `-x`."""

    op: str  # "not" | "neg"
    operand: Expr


@dataclass(frozen=True)
class Binary(Node):
    """`left op right`: comparison, arithmetic, `and`, `or`."""

    op: str  # "and" "or" "eq" "ne" "lt" "le" "gt" "ge" "add" "sub" "mul"
    left: Expr
    right: Expr


@dataclass(frozen=True)
class Pair(Node):
    """`(first, second)`: two values as one."""

    first: Expr
    second: Expr


@dataclass(frozen=True)
class ListExpr(Node):
    """`[a, b, c]`: a list of values."""

    items: tuple[Expr, ...]


@dataclass(frozen=True)
class Place(Node):
    """`(1, -1) N`: an intersection (a hex's N or S corner), `(1, -1) NE` a path (a side)."""

    first: Expr
    second: Expr
    part: Word


@dataclass(frozen=True)
class Index(Node):
    """`places[0]`: one item of a list, counted from 0."""

    target: Expr
    index: Expr


Expr = Lit | Var | Call | Unary | Binary | Pair | ListExpr | Place | Index


# ---- effects (statements inside a hook) -------------------------------------------------


@dataclass(frozen=True)
class CallStmt(Node):
    """An effect called as a statement: `produce(roll)`."""

    call: Call


@dataclass(frozen=True)
class IfStmt(Node):
    """`if CONDITION { ... } else { ... }`."""

    condition: Expr
    then: tuple[Effect, ...]
    orelse: tuple[Effect, ...]


@dataclass(frozen=True)
class LetStmt(Node):
    """`let name = value`: a name for the rest of the block."""

    name: str
    value: Expr


@dataclass(frozen=True)
class ForStmt(Node):
    """`for name in iterable { ... }`."""

    var: str
    iterable: Expr
    body: tuple[Effect, ...]


@dataclass(frozen=True)
class VarStmt(Node):
    """`var total = 0`: a value later statements of the same run may change."""

    name: str
    value: Expr


@dataclass(frozen=True)
class AssignStmt(Node):
    """`total = total + 1`: a `var` given a new value."""

    name: str
    value: Expr


Effect = CallStmt | IfStmt | LetStmt | ForStmt | VarStmt | AssignStmt


# ---- declarations -----------------------------------------------------------------------


@dataclass(frozen=True)
class Block(Node):
    """`{ ... }`: the statements of a declaration's body."""

    stmts: tuple[Stmt, ...]


@dataclass(frozen=True)
class Entry(Node):
    """A declaration: a head word, phrases, an optional `where` and an optional block."""

    head: Word
    phrases: tuple[Phrase, ...]
    where: Expr | None
    block: Block | None


@dataclass(frozen=True)
class Amount(Node):
    """`3 ore`: a count of one resource; `(level + 1) paper`: a count that is an
    expression (`expr`, with `count` 1 beside it), evaluated when the cost is paid."""

    count: int
    resource: Word
    expr: Expr | None = None


@dataclass(frozen=True)
class Cost(Node):
    """`cost brick + lumber`: what something costs."""

    amounts: tuple[Amount, ...]


@dataclass(frozen=True)
class Placement(Node):
    """`on path where land(at)`: where a piece may stand."""

    site: Word
    where: Expr | None


@dataclass(frozen=True)
class Hook(Node):
    """`on EVENT(filter) if CONDITION { EFFECTS }`."""

    event: Word
    filters: tuple[Word | Number, ...]
    condition: Expr | None
    effects: tuple[Effect, ...]


@dataclass(frozen=True)
class Uses(Node):
    """`uses base`: a ruleset this file builds on."""

    name: Word


@dataclass(frozen=True)
class Import(Node):
    """`import "file.catan"`: another file's declarations."""

    path: Str


@dataclass(frozen=True)
class ForPlayers(Node):
    """`for 2 players { ... }`: declarations for some player counts only."""

    low: int
    high: int
    word: Word  # must be `players`
    body: Block


@dataclass(frozen=True)
class WhenOption(Node):
    """`when layout is beginner { ... }`: declarations for one option item."""

    option: Word
    item: Word
    body: Block


@dataclass(frozen=True)
class Without(Node):
    """`without robber`, `without award longest_road`: drops an inherited declaration."""

    kind: Word
    name: Word | None


@dataclass(frozen=True)
class Define(Node):
    """`define deliver(player, good) { EFFECTS }` (a block of effects, `body` None) or
    `define pips(h) = EXPR` (a value, `effects` empty)."""

    name: Word
    params: tuple[Word, ...]
    effects: tuple[Effect, ...]
    body: Expr | None


Stmt = Entry | Cost | Placement | Hook | Uses | Import | ForPlayers | WhenOption | Without | Define


@dataclass(frozen=True)
class Ruleset(Node):
    """`ruleset NAME { ... }`: rules a scenario may use."""

    name: Word
    body: Block


@dataclass(frozen=True)
class Scenario(Node):
    """`scenario NAME "title" { ... }`: a playable scenario."""

    name: Word | None
    title: Str
    body: Block


@dataclass(frozen=True)
class File(Node):
    """A whole file: its rulesets, scenarios, `uses` and `import`s."""

    items: tuple[Ruleset | Scenario | Uses | Import, ...]
