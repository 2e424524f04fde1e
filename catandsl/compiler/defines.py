"""`define`: a block of effects (`define deliver(player, good) { ... }`) or a value
(`define pips(h) = ...`) with parameters, and `var` with its assignments.

A `define` is expanded where it is called: a block becomes the statements of its body
after one `let` per parameter, a value the expression of its body with each parameter
replaced by its argument. The names of each expansion are renamed (`deliver#3.good`), so
a block's names never meet its caller's and a block sees only its parameters. A
`define` never calls itself, directly or through others (E0520), so every expansion
ends and a rule stays as bounded as one written out."""

from __future__ import annotations

import dataclasses

from catandsl.compiler.context import did_you_mean, source_of
from catandsl.compiler.scopes import Lowerer, Scope
from catandsl.ir import model
from catandsl.rules import registry
from catandsl.rules.registry import CHOICE, RANDOM, compatible
from catandsl.syntax import ast

# `define`s calling `define`s: far past what a scenario needs, short of a blow-up of
# the expanded rules (each level may multiply them)
MAX_DEFINE_DEPTH = 8
# calls expanded in one scenario, and the nodes of one value once its arguments are put
# in: a few hundred in a real scenario; past these, `define`s calling `define`s several
# times each would multiply the rules out of all proportion
MAX_EXPANSIONS = 5_000
MAX_VALUE_NODES = 5_000


def declare(low: Lowerer, node: ast.Define, guarded: bool) -> None:
    """Note a `define` (once every body is read, hooks are lowered and may call it)."""
    ctx, name = low.ctx, node.name.name
    if guarded:
        ctx.error("E0520", f"`define {name}` stands inside `for` or `when`", node.span,
                  help="a `define` serves the whole scenario: put it at the top of the ruleset or scenario")
        return
    if name in registry.PRIMITIVES:
        ctx.error("E0520", f"`{name}` is a primitive; a `define` takes a name of its own", node.name.span)
        return
    earlier = low.defines.get(name)
    if earlier is not None and earlier.span != node.span:
        ctx.error("E0520", f"`define {name}` is given twice", node.name.span,
                  help=f"the first is at {earlier.span.file}:{earlier.span.line}")
        return
    seen: set[str] = set()
    for p in node.params:
        if p.name in seen:
            ctx.error("E0520", f"parameter `{p.name}` is named twice", p.span)
        seen.add(p.name)
    low.defines[name] = node


def check_unused(low: Lowerer) -> None:
    """Lower every `define` once with parameters of any type, so a mistake in one that
    no rule calls (an unknown name, a primitive misspelled) is reported too."""
    for name in sorted(low.defines):
        d = low.defines[name]
        scope = Scope({p.name: "any" for p in d.params}, low.names, f"{name}#0.")
        low.expanding.append(name)
        try:
            if d.body is not None:
                low.expr(d.body, scope)
            else:
                low.effects(d.effects, scope)
        finally:
            low.expanding.pop()


def _enter(low: Lowerer, node: ast.Call, block: bool, scope: Scope) -> ast.Define | None:
    """The `define` a call names, or None when the call is wrong (reported)."""
    d = low.defines[node.name]
    ctx = low.ctx
    if (d.body is None) != block:
        if block:
            ctx.error("E0520", f"`{node.name}` is a value (`define {node.name}(...) = ...`); it changes "
                      "nothing on its own", node.span, help="use it inside a condition or as an argument")
        else:
            ctx.error("E0520", f"`{node.name}` is a block of effects; it has no value", node.span,
                      help="call it as a statement on its own line")
    elif len(node.args) != len(d.params):
        ctx.error("E0503", f"`{node.name}` takes {len(d.params)} argument(s), not {len(node.args)}",
                  node.span, help=f"define {node.name}({', '.join(p.name for p in d.params)})")
    elif node.name in low.expanding:
        chain = " -> ".join(low.expanding[low.expanding.index(node.name):] + [node.name])
        ctx.error("E0520", f"`{node.name}` calls itself ({chain})", node.span,
                  help="a `define` may call other `define`s, never itself: repeat with `for` over a list")
    elif len(low.expanding) >= MAX_DEFINE_DEPTH:
        ctx.error("E0520", f"`define`s call each other more than {MAX_DEFINE_DEPTH} deep", node.span,
                  help="write the innermost ones out")
    elif low.expansions >= MAX_EXPANSIONS:
        low.expansions += 1  # (said once: every later call is refused without a word)
        if low.expansions == MAX_EXPANSIONS + 1:
            ctx.error("E0520", f"the scenario's `define`s are called more than {MAX_EXPANSIONS:,} times, "
                      "counting the calls inside them", node.span,
                      help="a `define` that calls others several times multiplies them; loop with `for` instead")
    else:
        return d
    for a in node.args:
        low.expr(a, scope)
    return None


def _prefix(low: Lowerer, name: str) -> str:
    low.expansions += 1
    return f"{name}#{low.expansions}."


def call_block(low: Lowerer, node: ast.CallStmt, scope: Scope) -> model.Effect | None:
    """`deliver(player, glass)` as a statement: its parameters named with `let`, then its
    body, as one block (an `if true`)."""
    d = _enter(low, node.call, True, scope)
    if d is None:
        return None
    prefix = _prefix(low, d.name.name)
    lets, types = [], {}
    for p, a in zip(d.params, node.call.args):
        value, t = low.expr(a, scope)
        lets.append(model.Effect("let", expr=value, name=prefix + p.name, source=source_of(a.span)))
        types[p.name] = t
    low.expanding.append(d.name.name)
    try:
        body = low.effects(d.effects, Scope(types, low.names, prefix))
    finally:
        low.expanding.pop()
    return model.Effect("if", expr=model.Expr("bool", value=True), body=tuple(lets) + body,
                        source=source_of(node.span))


def call_value(low: Lowerer, node: ast.Call, scope: Scope) -> tuple[model.Expr, str]:
    """`pips(at)` in an expression: the define's expression with its parameters replaced
    by the arguments (each argument may be read several times, so none may ask)."""
    d = _enter(low, node, False, scope)
    if d is None or d.body is None:
        return model.Expr("call", value=node.name), "any"
    prefix = _prefix(low, d.name.name)
    args, types = {}, {}
    for p, a in zip(d.params, node.args):
        value, t = low.expr(a, scope)
        if asks(value):
            low.ctx.error("E0510", f"an argument of `{node.name}` asks a player or waits for chance, "
                          "and a `define`'s value may read it more than once", a.span,
                          help="name the value first: `let r = choose_resource(player)`")
        args[prefix + p.name], types[p.name] = value, t
    low.expanding.append(d.name.name)
    try:
        body, t = low.expr(d.body, Scope(types, low.names, prefix))
    finally:
        low.expanding.pop()
    out = substitute(body, args)
    if _larger_than(out, MAX_VALUE_NODES):
        low.ctx.error("E0520", f"`{node.name}` grows to more than {MAX_VALUE_NODES:,} parts once its "
                      "arguments are put in", node.span,
                      help="each use of a parameter repeats its argument: name the argument with `let` first")
        return model.Expr("num", value=0), t
    return out, t


def _larger_than(e: model.Expr, limit: int) -> bool:
    todo, seen = [e], 0
    while todo:
        x = todo.pop()
        seen += 1
        if seen > limit:
            return True
        todo.extend(x.args)
    return False


def assign(low: Lowerer, node: ast.AssignStmt, scope: Scope) -> model.Effect | None:
    """`total = total + 1`: a `var` takes a new value."""
    ctx = low.ctx
    value, t = low.expr(node.value, scope)
    if node.name not in scope.variables:
        hint = did_you_mean(node.name, scope.mutable)
        ctx.error("E0505", f"unknown name `{node.name}`", node.span,
                  help=hint or f"declare it first: `var {node.name} = ...`")
        return None
    if node.name not in scope.mutable:
        ctx.error("E0521", f"`{node.name}` cannot be given a new value: only a `var` can", node.span,
                  help=f"declare it with `var {node.name} = ...` (a `let`, a loop's name and an event's "
                       "parameter keep their value)")
        return None
    held = scope.variables[node.name]
    if not compatible(held, t):
        ctx.error("E0504", f"`{node.name}` holds {held}, not {t}", node.value.span)
    return model.Effect("let", expr=value, name=scope.ir_name(node.name), source=source_of(node.span))


def substitute(e: model.Expr, values: dict[str, model.Expr]) -> model.Expr:
    if e.op == "var" and isinstance(e.value, str) and e.value in values:
        return values[e.value]
    if not e.args:
        return e
    return dataclasses.replace(e, args=tuple(substitute(a, values) for a in e.args))


def asks(e: model.Expr) -> bool:
    """Whether evaluating `e` may ask a player or wait for chance."""
    if e.op == "call":
        prim = registry.PRIMITIVES.get(str(e.value))
        if prim is not None and prim.kind in (CHOICE, RANDOM):
            return True
    return any(asks(a) for a in e.args)
