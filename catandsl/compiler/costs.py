"""Costs: `cost 3 ore + 2 grain` (fixed amounts) and `cost (level + 1) paper + ore`
(a count in brackets is an expression, evaluated each time the cost is checked and
paid). A fixed amount lowers to `model.Amount`, an expression to `model.VaryingAmount`;
the engine keeps the fixed ones in its flat tables and evaluates the others
(catandsl/rules/costs.py).

What a count may read: `player` (the buyer) and, in a project's stage, `level` (the
stages built before it), the scenario's params and every query (`counter(player,
level)`, `pieces_left(player, settlement)`). Its misuse has codes of its own: a count
that is not a number (E0523), a name a cost cannot see (E0524), a count that can go
below 0 (E0525: every read counts as 0 or more, so `level - 1` can, `level + 1` cannot).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

from catandsl.compiler.context import Shape, source_of
from catandsl.compiler.scopes import Scope
from catandsl.ir import model
from catandsl.syntax import ast

MAX_COST = 1000  # a fixed amount counts 1 to this many of a resource
INF = float("inf")


def lower_cost(low, node: ast.Cost, tokens: bool = False, level: bool = False
               ) -> tuple[tuple[model.Amount, ...], tuple[model.VaryingAmount, ...]]:
    """A cost's fixed amounts and its amounts that are expressions; resources, and
    tokens too where `tokens` (a scenario action's); `level` in scope where `level` (a
    project's stage)."""
    fixed: list[model.Amount] = []
    varying: list[model.VaryingAmount] = []
    for a in node.amounts:
        low.ctx.refer("resource|token" if tokens else "resource", a.resource, context="a cost")
        if a.expr is not None:
            count = _count(low, a.expr, level)
            if count is not None:
                varying.append(model.VaryingAmount(a.resource.name, count, source_of(a.span)))
            continue
        if not 1 <= a.count <= MAX_COST:
            raise Shape(a.span, f"a cost counts 1 to {MAX_COST} of a resource")
        fixed.append(model.Amount(a.resource.name, a.count))
    return tuple(fixed), tuple(varying)


def scope_names(level: bool) -> dict[str, str]:
    """The names a cost's count sees, with their types."""
    return {"player": "player", "level": "int"} if level else {"player": "player"}


def _count(low, node, level: bool) -> model.Expr | None:
    """The count of one amount, checked: names (E0524), type (E0523), sign (E0525)."""
    variables = scope_names(level)
    names = low.hooks.names
    for var in _vars(node):
        if var.name not in variables and not names.meanings(var.name):
            seen = ", ".join(f"`{v}`" for v in variables)
            low.ctx.error("E0524", f"a cost cannot read `{var.name}`", var.span,
                          help=f"a cost's count sees {seen}, the scenario's params and declared names, "
                               "and queries: `counter(player, NAME)`"
                               + ("" if level else "; `level` is a project stage's"))
            return None
    reported = len(low.ctx.diagnostics)
    expr, t = low.hooks.value(node, Scope(variables, names), "a cost")
    if len(low.ctx.diagnostics) > reported:
        return None  # its own error said what is wrong (a type, a choice): one report a mistake
    if t not in ("int", "any"):
        low.ctx.error("E0523", f"a cost counts a number of cards, not {t}", node.span,
                      help="write a number: `cost (counter(player, level) + 1) grain`")
        return None
    lowest = least(expr)
    if lowest < 0:
        low.ctx.error("E0525", "this count can go below 0, and a cost counts 0 or more cards", node.span,
                      help="each read (a name, a query) counts as 0 or more, so numbers, sums and products "
                           "of reads stay at 0 or more: `(level + 1) paper`; a count that falls as a value "
                           "rises names its values: `if_else(level == 0, 2, 1)`")
        return None
    return expr


def _vars(node) -> Iterator[ast.Var]:
    """The bare names an expression reads (not the names of calls)."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, ast.Var):
            yield n
            continue
        if not dataclasses.is_dataclass(n) or isinstance(n, ast.Lit):
            continue
        for f in dataclasses.fields(n):
            v = getattr(n, f.name)
            if isinstance(v, tuple):
                stack.extend(x for x in v if isinstance(x, ast.Node))
            elif isinstance(v, ast.Node) and not isinstance(v, ast.Word):
                stack.append(v)


def least(e: model.Expr) -> float:
    """The least value a count can take, every read (a name, a query) counted as 0 or
    more: -inf when nothing bounds it below."""
    return _bounds(e)[0]


def _bounds(e: model.Expr) -> tuple[float, float]:
    if e.op == "num" and isinstance(e.value, int) and not isinstance(e.value, bool):
        return float(e.value), float(e.value)  # nine digits at most (E0110): a float holds it
    if e.op == "neg":
        lo, hi = _bounds(e.args[0])
        return -hi, -lo
    if e.op in ("add", "sub", "mul"):
        (alo, ahi), (blo, bhi) = _bounds(e.args[0]), _bounds(e.args[1])
        if e.op == "add":
            return alo + blo, ahi + bhi
        if e.op == "sub":
            return alo - bhi, ahi - blo
        products = [_times(x, y) for x in (alo, ahi) for y in (blo, bhi)]
        return min(products), max(products)
    if e.op == "call" and e.value == "if_else" and len(e.args) == 3:
        (alo, ahi), (blo, bhi) = _bounds(e.args[1]), _bounds(e.args[2])
        return min(alo, blo), max(ahi, bhi)
    if e.op == "call" and e.value == "sum_of" and len(e.args) == 1 and e.args[0].op == "list":
        items = [_bounds(x) for x in e.args[0].args]
        return sum(lo for lo, _ in items), sum(hi for _, hi in items)
    return 0.0, INF  # a read: a name, a param, a query


def _times(x: float, y: float) -> float:
    return 0.0 if x == 0 or y == 0 else x * y
