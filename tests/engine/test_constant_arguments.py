"""Arguments written as constants (`[road]`, `7`) are checked once, when the rule is
compiled, if they pass; one that fails is still refused only when the rule runs (a branch
never taken never fails), and a constant list is a fresh list at every evaluation."""

from __future__ import annotations

import pytest

from catandsl.engine import EngineError
from catandsl.ir import model
from tests.conftest import base_game
from tests.engine.helpers import blank


def _call(name: str, *args: model.Expr) -> model.Expr:
    return model.Expr("call", args, value=name)


def _names(*names: str) -> model.Expr:
    return model.Expr("list", tuple(model.Expr("str", (), value=n) for n in names))


PLAYER = model.Expr("var", (), value="player")


def test_a_constant_that_fails_its_check_is_refused_when_run_not_when_compiled():
    g = base_game(4)
    s = blank(g)
    expr = _call("longest_route", PLAYER, _names("castle"))
    code = g.interp.compiled(expr)  # compiles: the rule may never run
    with pytest.raises(EngineError, match=r"longest_route\(\): `pieces` must be .*castle"):
        code({"player": 0}, s, g.interp.no_answers)


def test_a_constant_that_passes_is_not_checked_again(monkeypatch):
    g = base_game(4)
    s = blank(g)
    checked: list[object] = []
    piece = g.interp.types["piece"]
    monkeypatch.setitem(g.interp.types, "piece", lambda v: checked.append(v) or piece(v))
    monkeypatch.setattr(g.interp, "_checked", {})  # (each primitive's checks, made again)
    code = g.interp.compiled(_call("longest_route", PLAYER, _names("road")))
    assert checked == ["road"]  # at compile time
    assert [code({"player": p}, s, g.interp.no_answers) for p in range(4)] == [0, 0, 0, 0]
    assert checked == ["road"]  # and never again


def test_a_constant_list_is_a_fresh_list_each_time():
    g = base_game(4)
    s = blank(g)
    code = g.interp.compiled(_names("road", "ship"))
    first = code({}, s, g.interp.no_answers)
    first.append("city")
    assert code({}, s, g.interp.no_answers) == ["road", "ship"]
