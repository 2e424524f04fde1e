"""Places in expressions: `(1, -1) N` (an intersection: a hex's top or bottom corner, or
C, a hub hex's centre), `(1, -1) NE` (a path: one of the hex's sides), `list[0]` (a
list's item, counted from 0) and `x in list`."""

from __future__ import annotations

from catandsl.compiler.context import did_you_mean
from catandsl.compiler.scopes import Lowerer, Scope
from catandsl.ir import model
from catandsl.rules.registry import compatible
from catandsl.syntax import ast

CORNERS = ("N", "S", "C")
SIDES = ("NE", "E", "SE", "SW", "W", "NW")


def expr(low: Lowerer, node, scope: Scope) -> tuple[model.Expr, str]:
    if isinstance(node, ast.Place):
        return _place(low, node, scope)
    if isinstance(node, ast.Index):
        return _index(low, node, scope)
    return _member(low, node, scope)


def _place(low: Lowerer, node: ast.Place, scope: Scope) -> tuple[model.Expr, str]:
    q, qt = low.expr(node.first, scope)
    r, rt = low.expr(node.second, scope)
    for side, t in ((node.first, qt), (node.second, rt)):
        if not compatible("int", t):
            low.ctx.error("E0504", f"a coordinate is a number, not {t}", side.span)
    part = node.part.name
    if part in CORNERS:
        type_ = "intersection"
    elif part in SIDES:
        type_ = "path"
    else:
        hint = did_you_mean(part.upper(), CORNERS + SIDES)
        low.ctx.error("E0522", f"`{part}` is neither a corner nor a side of a hex", node.part.span,
                      help=(f"{hint}; " if hint else "") + "an intersection is a hex's N or S corner "
                      "(C: a hub's centre), a path one of its sides NE, E, SE, SW, W, NW")
        type_ = "site"
    return model.Expr("place", (q, r), value=part), type_


def _literal(e: model.Expr) -> int | None:
    if e.op == "num" and isinstance(e.value, int) and not isinstance(e.value, bool):
        return e.value
    if e.op == "neg" and e.args[0].op == "num" and isinstance(e.args[0].value, int):
        return -e.args[0].value
    return None


def _index(low: Lowerer, node: ast.Index, scope: Scope) -> tuple[model.Expr, str]:
    target, tt = low.expr(node.target, scope)
    index, it = low.expr(node.index, scope)
    elem = "any"
    if tt.startswith("list<"):
        elem = tt[5:-1]
    elif tt != "any":
        low.ctx.error("E0522", f"only a list has items to pick, not {tt}", node.target.span)
    if not compatible("int", it):
        low.ctx.error("E0504", f"a list's item is picked by a number, not {it}", node.index.span)
    k = _literal(index)
    if k is not None and (k < 0 or (target.op == "list" and k >= len(target.args))):
        size = f" of {len(target.args)} items" if target.op == "list" else ""
        low.ctx.error("E0522", f"item {k} is past the list{size}", node.index.span,
                      help="items are counted from 0: `places[0]` is the first; `count(places)` says how many")
    return model.Expr("index", (target, index)), elem


def _member(low: Lowerer, node: ast.Binary, scope: Scope) -> tuple[model.Expr, str]:
    left, lt = low.expr(node.left, scope)
    right, rt = low.expr(node.right, scope, expected=f"list<{lt}>")
    if rt.startswith("list<"):
        elem = rt[5:-1]
        if not (compatible(elem, lt) or compatible(lt, elem)):
            low.ctx.error("E0504", f"a list of {elem} never holds {lt}", node.span)
    elif rt != "any":
        low.ctx.error("E0522", f"`in` asks whether a list holds a value; this is {rt}, not a list",
                      node.right.span, help="write `at in east_coast`, `(0, 0) in hexes_around(at)`")
    return model.Expr("in", (left, right)), "bool"
