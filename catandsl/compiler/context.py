"""What every compiler stage shares: the diagnostics found so far, deferred name
references, and helpers to read an entry's phrases with good errors."""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field

from catandsl.diagnostics import Diagnostic, Sources, Span
from catandsl.ir import model
from catandsl.syntax import ast
from catandsl.syntax.parser import MAX_DIGITS

# A file with more errors than this is not worth reading further: the first ones are
# what its author needs, and a flood of them (a hostile file) would cost seconds.
MAX_ERRORS = 200


class TooManyErrors(Exception):
    """Raised by `Context.error` once MAX_ERRORS errors are recorded; ends the compile."""


def source_of(span: Span) -> model.Source:
    return model.Source(span.file, span.line, span.column)


def did_you_mean(name: str, known) -> str | None:
    match = difflib.get_close_matches(name, sorted(known), n=1, cutoff=0.6)
    return f"did you mean `{match[0]}`?" if match else None


@dataclass
class Reference:
    """A use of a declared name, resolved once every file is read."""

    kind: str  # resource, terrain, piece, card, deck, award, option, rule, ...
    name: str
    span: Span
    context: str  # what refers to it, for the message


@dataclass
class Context:
    """What one compilation gathers: sources, diagnostics, declarations and references."""

    sources: Sources = field(default_factory=Sources)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    references: list[Reference] = field(default_factory=list)
    declared: dict[str, dict[str, Span]] = field(default_factory=dict)
    errors: int = 0  # errors recorded through `error`
    # island and area names read by rules and conditions, with where and the IR name
    # that reads them: each configuration's map must name those its rules read (checked
    # in validate.py)
    island_uses: list[tuple[str, Span, model.Expr]] = field(default_factory=list)
    area_uses: list[tuple[str, Span, model.Expr]] = field(default_factory=list)
    mark_uses: list[tuple[str, Span, model.Expr]] = field(default_factory=list)
    map_hexes: int = 0  # hexes of every map lowered so far (maps.MAX_SCENARIO_HEXES)

    # ---- diagnostics -----------------------------------------------------------------
    def error(self, code: str, message: str, span: Span, help: str | None = None, notes=()):
        d = Diagnostic(code, message, span, help=help, notes=tuple(notes))
        if d in self.diagnostics:
            return  # (a declaration read once per variant, a turn with `when` inside: said once)
        self.diagnostics.append(d)
        self.errors += 1
        if self.errors >= MAX_ERRORS:
            raise TooManyErrors()

    def warning(self, code: str, message: str, span: Span, help: str | None = None):
        self.diagnostics.append(Diagnostic(code, message, span, severity="warning", help=help))

    def unknown_word(self, head: ast.Word, table, what: str) -> None:
        """An entry whose head word the block does not know, with a "did you mean"."""
        hint = did_you_mean(head.name, table)
        self.error("E0301", f"unknown {what} `{head.name}`", head.span,
                   help=hint or "expected one of: " + ", ".join(sorted(table)))

    @property
    def failed(self) -> bool:
        return any(d.is_error for d in self.diagnostics)

    # ---- names -----------------------------------------------------------------------
    def declare(self, kind: str, name: str, span: Span) -> None:
        self.declared.setdefault(kind, {}).setdefault(name, span)

    def is_declared(self, kind: str, name: str) -> bool:
        return name in self.declared.get(kind, {})

    def refer(self, kind: str, word: ast.Word | str, span: Span | None = None, context: str = ""):
        if isinstance(word, ast.Word):
            self.references.append(Reference(kind, word.name, word.span, context))
        else:
            assert span is not None, "a name given as text needs its span"
            self.references.append(Reference(kind, word, span, context))

    # the kinds of name a rule's expression may name: a counter named like one of them
    # would make every use of the name ambiguous
    VALUE_KINDS = ("resource", "terrain", "piece", "card", "token", "award", "deck", "site", "action",
                   "project", "measure", "area", "island", "param", "die")

    def check_counter_names(self) -> None:
        """A counter named like a resource, a card or any other name a rule reads is E0303
        at the counter's declaration, not a confusing type error at every use."""
        for name, span in sorted(self.declared.get("counter", {}).items()):
            clash = next((k for k in self.VALUE_KINDS if self.is_declared(k, name)), None)
            if clash is not None:
                self.error("E0303", f"counter `{name}` has the name of a {clash}", span,
                           help=f"give the counter a name of its own, such as `{name}_count`",
                           notes=(f"the {clash} `{name}` is declared at {self.declared[clash][name]}",))

    def check_references(self) -> None:
        """Report every reference to a name never declared, with a "did you mean"."""
        reported = set()
        for ref in self.references:
            kinds = ref.kind.split("|")
            if any(self.is_declared(k, ref.name) for k in kinds):
                continue
            if (ref.kind, ref.name, ref.span) in reported:
                continue  # a legend symbol refers once for each of its cells
            reported.add((ref.kind, ref.name, ref.span))
            known = set()
            for k in kinds:
                known |= set(self.declared.get(k, {}))
            what = " or ".join(f"item of option `{k[5:]}`" if k.startswith("item:") else k for k in kinds)
            where = f" in {ref.context}" if ref.context else ""
            hint = did_you_mean(ref.name, known)
            if hint is None and known:
                shown = ", ".join(sorted(known)[:12])
                hint = f"known {what} names: {shown}"
            self.error("E0302", f"unknown {what} `{ref.name}`{where}", ref.span, help=hint)


# ---- reading phrases ------------------------------------------------------------------


def describe(term) -> str:
    if isinstance(term, ast.Word):
        return f"`{term.name}`"
    if isinstance(term, ast.Number):
        return f"the number {term.value}"
    if isinstance(term, ast.Str):
        return "a string"
    if isinstance(term, ast.Coord):
        return f"the hex ({term.q}, {term.r})"
    if isinstance(term, ast.Range):
        return f"the range {term.low}..{term.high}"
    if isinstance(term, ast.Ratio):
        return f"the ratio {term.give}:{term.get}"
    if isinstance(term, ast.ListTerm):
        return "a list"
    if isinstance(term, ast.Repeat):
        return f"a repeat x{term.count}"
    if isinstance(term, ast.Call):
        return f"a call to {term.name}()"
    return "this"


class Shape(Exception):
    """An entry's phrases do not have the shape its head word needs (caught per entry)."""

    def __init__(self, span: Span, message: str, help: str | None = None):
        self.span, self.message, self.help = span, message, help


def terms(entry: ast.Entry) -> list:
    """All terms of an entry, for heads that take one phrase."""
    if len(entry.phrases) > 1:
        raise Shape(entry.phrases[1].span, f"`{entry.head.name}` takes no comma-separated list")
    return list(entry.phrases[0].terms) if entry.phrases else []


def need_word(items: list, i: int, after, what: str = "a name") -> ast.Word:
    if i >= len(items):
        shown = describe(after) if not isinstance(after, ast.Entry) else '`' + after.head.name + '`'
        raise Shape(after.span, f"expected {what} after {shown}")
    t = items[i]
    if not isinstance(t, ast.Word):
        raise Shape(t.span, f"expected {what}, found {describe(t)}")
    return t


def need_number(items: list, i: int, after, what: str = "a number") -> ast.Number:
    if i >= len(items):
        raise Shape(after.span, f"expected {what} after `{getattr(getattr(after, 'head', None), 'name', '')}`")
    t = items[i]
    if not isinstance(t, ast.Number):
        raise Shape(t.span, f"expected {what}, found {describe(t)}")
    return t


def no_more(items: list, i: int, head: str) -> None:
    if i < len(items):
        raise Shape(items[i].span, f"unexpected {describe(items[i])} in `{head}`",
                    help=f"see docs/language.md for the form of `{head}`")


def word_list(entry: ast.Entry, what: str = "a name") -> list[ast.Word]:
    """`connects road, settlement, city`: every phrase a single name."""
    out = []
    if not entry.phrases:
        raise Shape(entry.head.span, f"`{entry.head.name}` needs at least one name")
    for ph in entry.phrases:
        if len(ph.terms) != 1 or not isinstance(ph.terms[0], ast.Word):
            raise Shape(ph.span, f"expected {what} in the list of `{entry.head.name}`")
        out.append(ph.terms[0])
    return out


def single_number(entry: ast.Entry, low: int = 0, high: int = 10**9) -> ast.Number:
    """`limit 15`: one number from `low` to `high` (E0110 already caps its digits)."""
    items = terms(entry)
    n = need_number(items, 0, entry)
    no_more(items, 1, entry.head.name)
    in_range(n, low, high, f"`{entry.head.name}`")
    return n


def digits_value(digits: str) -> int | None:
    """The value of the digits inside a word or a picture cell (`d6`, `f8`), or None when
    there are more than MAX_DIGITS: the parser caps number tokens only (E0110), and Python
    refuses to convert more than 4,300 digits at all."""
    return int(digits) if len(digits) <= MAX_DIGITS else None


def in_range(n: ast.Number, low: int, high: int, what: str) -> int:
    if not low <= n.value <= high:
        raise Shape(n.span, f"{what} is {low:,} to {high:,}, not {n.value:,}")
    return n.value


def no_block(entry: ast.Entry) -> None:
    if entry.block is not None:
        raise Shape(entry.block.span, f"`{entry.head.name}` takes no block")
    if entry.where is not None:
        raise Shape(entry.where.span, f"`{entry.head.name}` takes no `where` condition")


def name_and_title(e: ast.Entry, what: str) -> tuple[ast.Word, str]:
    """`HEAD NAME ["Title"]`: the name, and the title (the name's words without one)."""
    items = terms(e)
    name = need_word(items, 0, e, f"the {what}'s name")
    title = name.name.replace("_", " ")
    if len(items) > 1:
        if not isinstance(items[1], ast.Str):
            raise Shape(items[1].span, f"the {what}'s title is a string")
        title = items[1].value
    no_more(items, 2, e.head.name)
    return name, title
