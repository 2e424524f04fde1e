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
    span: Span


# ---- terms: the pieces of an entry's phrases ------------------------------------------


@dataclass(frozen=True)
class Word(Node):
    """A name (`road`, `NE`, `on`) or a one-character legend symbol (`~`)."""

    name: str


@dataclass(frozen=True)
class Number(Node):
    value: int


@dataclass(frozen=True)
class Str(Node):
    value: str
    long: bool = False  # a """triple-quoted""" string (map pictures)


@dataclass(frozen=True)
class Range(Node):
    low: int
    high: int


@dataclass(frozen=True)
class Coord(Node):
    q: int
    r: int


@dataclass(frozen=True)
class Ratio(Node):
    give: int
    get: int


@dataclass(frozen=True)
class Repeat(Node):
    """`forest x4`: a term repeated `count` times."""

    term: Term
    count: int


@dataclass(frozen=True)
class Phrase(Node):
    terms: tuple[Term, ...]


@dataclass(frozen=True)
class ListTerm(Node):
    items: tuple[Phrase, ...]


Term = Word | Number | Str | Range | Coord | Ratio | Repeat | ListTerm


# ---- expressions ------------------------------------------------------------------------


@dataclass(frozen=True)
class Lit(Node):
    value: int | str | bool


@dataclass(frozen=True)
class Var(Node):
    name: str


@dataclass(frozen=True)
class Call(Node):
    name: str
    args: tuple[Expr, ...]


@dataclass(frozen=True)
class Unary(Node):
    op: str  # "not" | "neg"
    operand: Expr


@dataclass(frozen=True)
class Binary(Node):
    op: str  # "and" "or" "eq" "ne" "lt" "le" "gt" "ge" "add" "sub" "mul"
    left: Expr
    right: Expr


@dataclass(frozen=True)
class Pair(Node):
    first: Expr
    second: Expr


@dataclass(frozen=True)
class ListExpr(Node):
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
    call: Call


@dataclass(frozen=True)
class IfStmt(Node):
    condition: Expr
    then: tuple[Effect, ...]
    orelse: tuple[Effect, ...]


@dataclass(frozen=True)
class LetStmt(Node):
    name: str
    value: Expr


@dataclass(frozen=True)
class ForStmt(Node):
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
    stmts: tuple[Stmt, ...]


@dataclass(frozen=True)
class Entry(Node):
    head: Word
    phrases: tuple[Phrase, ...]
    where: Expr | None
    block: Block | None


@dataclass(frozen=True)
class Amount(Node):
    count: int
    resource: Word


@dataclass(frozen=True)
class Cost(Node):
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
    name: Word


@dataclass(frozen=True)
class Import(Node):
    path: Str


@dataclass(frozen=True)
class ForPlayers(Node):
    low: int
    high: int
    word: Word  # must be `players`
    body: Block


@dataclass(frozen=True)
class WhenOption(Node):
    option: Word
    item: Word
    body: Block


@dataclass(frozen=True)
class Without(Node):
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
    name: Word
    body: Block


@dataclass(frozen=True)
class Scenario(Node):
    name: Word | None
    title: Str
    body: Block


@dataclass(frozen=True)
class File(Node):
    items: tuple[Ruleset | Scenario | Uses | Import, ...]
