"""The names a rule sees while it is lowered: the scenario's declared names and their
types (`NameTable`), the names in reach of one statement (`Scope`), and what the
lowering of `define`s and places reads of the hook lowering (`Lowerer`), so those
modules stand below hooks.py, which calls them.
"""

from __future__ import annotations

from typing import Protocol

from catandsl.compiler.context import Context
from catandsl.ir import model
from catandsl.syntax import ast

# Declared names usable in expressions, and the type they have there.
NAME_KINDS = {
    "piece": "piece",
    "resource": "resource",
    "terrain": "terrain",
    "card": "card",
    "award": "award",
    "island": "island",
    "area": "area",
    "project": "project",
    "deck": "deck",
    "token": "token",
    "counter": "counter",
    "site": "site_kind",
    "action": "action",
    "event": "event",
    "measure": "measure",
    "die": "die",
    "mark": "list<site>",
}


class Scope:
    """The names a statement sees, with their types; `ir` the name each has in the
    rule's environment (a `define`'s own names are renamed per call, so they never
    meet the caller's), `mutable` the names declared with `var`."""

    def __init__(self, variables: dict[str, str], names: NameTable, prefix: str = ""):
        self.variables = dict(variables)
        self.names = names
        self.prefix = prefix
        self.ir: dict[str, str] = {v: prefix + v for v in variables} if prefix else {}
        self.mutable: frozenset[str] = frozenset()

    def child(self, extra: dict[str, str], mutable: bool = False) -> Scope:
        s = Scope(self.variables, self.names)
        s.variables.update(extra)
        s.prefix, s.ir = self.prefix, dict(self.ir)
        if self.prefix:
            s.ir.update({v: self.prefix + v for v in extra})
        else:
            for v in extra:
                s.ir.pop(v, None)
        s.mutable = (self.mutable | frozenset(extra)) if mutable else self.mutable - frozenset(extra)
        return s

    def ir_name(self, name: str) -> str:
        return self.ir.get(name, name)


class NameTable:
    """Names declared anywhere in the scenario (known after the first pass), and the
    params/options hooks may read as integers."""

    def __init__(self, ctx: Context, params: set[str]):
        self.ctx = ctx
        self.params = params

    def lookup(self, name: str, expected: str | None = None) -> tuple[str, str] | None:
        """-> (IR op, type) for a declared name, or None. A name declared as several
        kinds (a scenario's piece `knight` beside the base game's card `knight`) is the
        kind its place asks for (`expected`, when it is one of them), else the first."""
        found = self.meanings(name)
        if expected is not None and expected != "any":
            for op, type_ in found:
                if type_ == expected:
                    return (op, type_)
        return found[0] if found else None

    def meanings(self, name: str) -> list[tuple[str, str]]:
        """Every (IR op, type) the name has: an option's or param's value, then each kind
        of declaration that names it."""
        out = [("param", "int")] if name in self.params else []
        out += [("var", type_) for kind, type_ in NAME_KINDS.items() if self.ctx.is_declared(kind, name)]
        return out

    def known(self) -> set[str]:
        out = set(self.params)
        for kind in NAME_KINDS:
            out |= set(self.ctx.declared.get(kind, {}))
        return out


class Lowerer(Protocol):
    """The hook lowering (hooks.py's HookLowering) as `define`s and places read it."""

    ctx: Context
    names: NameTable
    defines: dict[str, ast.Define]  # `define NAME(...)`, by name
    expanding: list[str]  # the `define`s being expanded, outermost first
    expansions: int  # calls of `define`s expanded so far (each renames its names)

    def expr(self, node, scope: Scope, statement: bool = False,
             expected: str | None = None) -> tuple[model.Expr, str]: ...

    def effects(self, nodes, scope: Scope) -> tuple[model.Effect, ...]: ...
