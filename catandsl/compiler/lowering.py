"""The lowering under way: where each declaration goes, and what every handler reads.

A handler (the body table in declarations.py, and the modules it hands whole
declarations to: turns.py, projects.py, supplies.py) reads the `Context` and the hook
lowering, and emits declarations into the current section (a `for` or `when` opens a
new one); `later` emits one once every name is declared. The body table itself stands
above the handlers it calls, so they see the lowering through this class alone.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from catandsl.compiler import defines
from catandsl.compiler.context import Context, Shape, need_word, no_more, terms
from catandsl.compiler.hooks import HookLowering
from catandsl.diagnostics import Span
from catandsl.ir import model
from catandsl.syntax import ast


@dataclass
class SectionBuilder:
    """The declarations of one section (player counts and option choices) being lowered."""

    players: tuple[int, ...]
    choices: tuple[model.Choice, ...]
    decls: list = field(default_factory=list)


class Pending:
    """A declaration whose lowering waits until every name is declared (rules)."""

    def __init__(self, make):
        self.make = make


class Lowering:
    """The sections being filled, and the context and hook lowering every handler reads."""

    def __init__(self, ctx: Context, hooks: HookLowering):
        self.ctx = ctx
        self.hooks = hooks
        self.sections: list[SectionBuilder] = [SectionBuilder((), ())]
        self.declared_once: dict[tuple, Span] = {}  # (guard, file, kind, name) -> first span

    @property
    def guard(self) -> tuple[tuple[int, ...], tuple[model.Choice, ...]]:
        s = self.sections[-1]
        return s.players, s.choices

    def emit(self, decl) -> None:
        self.sections[-1].decls.append(decl)

    def later(self, make) -> None:
        """Emit the declaration `make()` returns once every name is declared."""
        self.emit(Pending(make))

    def declare_once(self, kind: str, w: ast.Word) -> None:
        """A second declaration in the same file for the same variant (`for`/`when`) is a
        mistake; in another file or variant it is the way to replace one."""
        key = (self.guard, w.span.file, kind, w.name)
        first = self.declared_once.get(key)
        if first is not None:
            what = f"`{w.name}`" if kind == w.name else f"{kind} `{w.name}`"
            self.ctx.error("E0303", f"{what} is declared twice", w.span,
                           help="remove one of them, or use `for`/`when` for a variant",
                           notes=(f"first declared at {first}",))
            return
        self.declared_once[key] = w.span
        self.ctx.declare(kind, w.name, w.span)

    def named_block(self, e: ast.Entry, kind: str, example: str) -> ast.Word:
        """`KIND NAME { ... }`: the name, declared once, and a block required."""
        items = terms(e)
        name = need_word(items, 0, e, f"the {kind}'s name")
        no_more(items, 1, kind)
        self.declare_once(kind, name)
        if e.block is None:
            raise Shape(e.span, f"{kind} `{name.name}` needs a block", help=example)
        return name

    def unknown(self, head: ast.Word, table: dict, what: str) -> None:
        self.ctx.unknown_word(head, table, what)

    def finish(self) -> list[model.Section]:
        defines.check_unused(self.hooks)
        out = []
        for s in self.sections:
            decls = []
            for d in s.decls:
                if isinstance(d, Pending):
                    d = d.make()
                if d is not None:
                    decls.append(d)
            if decls:
                out.append(model.Section(tuple(decls), s.players, s.choices))
        return out
