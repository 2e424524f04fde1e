"""Arguments written as constants (`[road]`, `7`) are checked once, when the rule is
compiled, if they pass; one that fails is still refused only when the rule runs (a branch
never taken never fails), and a constant list is a fresh list at every evaluation."""

from __future__ import annotations

import pytest

from catandsl.engine import EngineError
from catandsl.ir import model
from catandsl.rules.play import NO_ANSWERS
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
    code = g.interp.program(expr).run  # compiles: the rule may never run
    with pytest.raises(EngineError, match=r"longest_route\(\): `pieces` must be .*castle"):
        code({"player": 0}, s, NO_ANSWERS)


def test_a_constant_that_passes_is_not_checked_again(monkeypatch):
    g = base_game(4)
    s = blank(g)
    checked: list[object] = []
    piece = g.interp.types["piece"]
    monkeypatch.setitem(g.interp.types, "piece", lambda v: checked.append(v) or piece(v))
    monkeypatch.setattr(g.interp, "_checked", {})  # (each primitive's checks, made again)
    code = g.interp.program(_call("longest_route", PLAYER, _names("road"))).run
    assert checked == ["road"]  # at compile time
    assert [code({"player": p}, s, NO_ANSWERS) for p in range(4)] == [0, 0, 0, 0]
    assert checked == ["road"]  # and never again


def test_a_constant_list_is_a_fresh_list_each_time():
    g = base_game(4)
    s = blank(g)
    code = g.interp.program(_names("road", "ship")).run
    first = code({}, s, NO_ANSWERS)
    first.append("city")
    assert code({}, s, NO_ANSWERS) == ["road", "ship"]


def test_a_program_that_asks_is_an_error_where_no_answer_can_be_taken():
    from catandsl.engine.interpreter import NeedChoice
    from catandsl.rules.play import Answers

    g = base_game(4)
    s = blank(g)
    expr = _call("choose_resource", PLAYER)
    program = g.interp.program(expr)
    assert program.asks and g.interp.program(expr) is program  # compiled once, then kept
    # a condition or a measure takes no answer: the rule is wrong, and the error says so
    with pytest.raises(EngineError, match=r"choose_resource\(\) asks a player, which a condition"):
        program.run({"player": 1}, s, NO_ANSWERS)
    # a statement is run with answers of its own: the choice comes back to be asked, and
    # an answer given is taken
    with pytest.raises(NeedChoice) as asked:
        program.run({"player": 1}, s, Answers([]))
    assert asked.value.player == 1 and asked.value.options == list(g.resources)
    assert program.run({"player": 1}, s, Answers(["ore"])) == "ore"
    assert not g.interp.program(_names("road")).asks


def test_a_board_condition_reads_the_board_alone():
    g = base_game(4)
    holds = g.interp.on_board(model.Expr("bool", (), value=True), None)
    assert holds({}) is True
    reads_state = g.interp.on_board(_call("longest_route", PLAYER, _names("road")), None)
    with pytest.raises(EngineError, match="reads the state of play"):
        reads_state({"player": 0})
