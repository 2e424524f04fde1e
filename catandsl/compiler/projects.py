"""`project NAME "Title" { requires where COND; stage { cost ...; points N } ... }`: a
thing any player may build in stages (a wonder, a great bridge). The declaration lowers
to `model.Project`; the engine's side is catandsl/rules/projects.py."""

from __future__ import annotations

from catandsl.compiler.context import Shape, name_and_title, no_block, single_number, source_of
from catandsl.compiler.lowering import Lowering
from catandsl.compiler.scopes import Scope
from catandsl.ir import model
from catandsl.syntax import ast

MAX_STAGES = 20


def declare_project(low: Lowering, e: ast.Entry) -> None:
    name, title = name_and_title(e, "project")
    if e.block is None or e.where is not None:
        raise Shape(e.span, f"project `{name.name}` needs a block: "
                    "`{ requires where ...; stage { cost ... } stage { cost ... } }`")
    low.declare_once("project", name)
    block = e.block
    low.later(lambda: _lower_project(low, name, title, block, e.span))


def _lower_project(low: Lowering, name: ast.Word, title: str, block: ast.Block, span) -> model.Project | None:
    stages: list[model.Stage] = []
    requires = None
    for st in block.stmts:
        try:
            if isinstance(st, ast.Entry) and st.head.name == "stage":
                stages.append(_stage(low, st))
            elif isinstance(st, ast.Entry) and st.head.name == "requires":
                if st.where is None or st.phrases or st.block is not None:
                    raise Shape(st.span, "write `requires where CONDITION` (`player` and `level` in scope)")
                scope = Scope({"player": "player", "level": "int"}, low.hooks.names)
                requires, t = low.hooks.value(st.where, scope, "a project's requirement")
                if t not in ("bool", "any"):
                    low.ctx.error("E0504", f"a requirement must be true or false, not {t}", st.where.span)
            else:
                raise Shape(st.span, "a project holds `requires where ...` and `stage { cost ...; points N }`")
        except Shape as err:
            low.ctx.error("E0304", err.message, err.span, help=err.help)
    if not stages:
        low.ctx.error("E0305", f"project `{name.name}` has no stage: add `stage {{ cost ... }}`", name.span)
        return None
    if len(stages) > MAX_STAGES:
        low.ctx.error("E0304", f"project `{name.name}` has {len(stages)} stages; the limit is {MAX_STAGES}",
                      name.span)
        return None
    return model.Project(name.name, title, tuple(stages), requires, source_of(span))


def _stage(low: Lowering, e: ast.Entry) -> model.Stage:
    from catandsl.compiler.costs import lower_cost

    if e.phrases or e.where is not None or e.block is None:
        raise Shape(e.span, "write `stage { cost brick + ore; points 1 }`")
    cost: tuple[model.Amount, ...] = ()
    varying: tuple[model.VaryingAmount, ...] = ()
    points = 0
    for st in e.block.stmts:
        if isinstance(st, ast.Cost):
            cost, varying = lower_cost(low, st, level=True)
        elif isinstance(st, ast.Entry) and st.head.name == "points":
            no_block(st)
            points = single_number(st, 0, 100).value
        else:
            raise Shape(st.span, "a stage holds `cost ...` and `points N`")
    if not cost and not varying:
        raise Shape(e.span, "a stage costs something: `stage { cost brick + ore }`")
    return model.Stage(cost, points, source_of(e.span), varying)
