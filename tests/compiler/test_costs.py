"""Counts in brackets in a cost (compiler/costs.py): lowered beside the fixed amounts,
the names a cost sees, the type of a count, and the sign analysis that refuses a count
that can go below 0 (every read taken as 0 or more)."""

from __future__ import annotations

import pytest

from catandsl.ir import model
from tests.conftest import compile_text

TEMPLATE = """scenario "Costs" {
  uses base
  param bonus 2
  counter lore
  piece tower {
    on intersection
    cost COST
  }
  project wall "Wall" {
    stage { cost brick }
    stage { cost STAGE }
  }
  turn {
    phase roll { roll; play }
    phase main { trade; build; buy; play; projects }
  }
  map { hex (0, 0) forest 8 }
}
"""


def compiled(tmp_path, cost: str = "ore", stage: str = "brick"):
    scenario, diags = compile_text(tmp_path, TEMPLATE.replace("STAGE", stage).replace("COST", cost))
    return scenario, [(d.code, d.span.line) for d in diags]


def decl(scenario, cls, name):
    return next(d for s in scenario.sections for d in s.decls if isinstance(d, cls) and d.name == name)


def test_fixed_and_varying_amounts_are_lowered_apart(tmp_path):
    scenario, diags = compiled(tmp_path, "2 ore + (counter(player, lore) + bonus) grain", "(level * 2) brick + ore")
    assert diags == []
    tower = decl(scenario, model.Piece, "tower")
    assert tower.cost == (model.Amount("ore", 2),)
    assert [a.name for a in tower.varying_cost] == ["grain"] and tower.varying_cost[0].count.op == "add"
    stage = decl(scenario, model.Project, "wall").stages[1]
    assert stage.cost == (model.Amount("ore", 1),) and stage.varying_cost[0].count.op == "mul"


def test_a_fixed_cost_compiles_as_before(tmp_path):
    scenario, _ = compiled(tmp_path, "3 ore + 2 grain")
    tower = decl(scenario, model.Piece, "tower")
    assert tower.varying_cost == () and tower.cost == (model.Amount("ore", 3), model.Amount("grain", 2))


@pytest.mark.parametrize("count", [
    "level + 1", "bonus * 2", "if_else(level == 0, 3, if_else(level == 1, 2, 1))", "sum_of([1, 2])",
    "(level + 1) * (level + 1)", "-1 * -2", "5 - 2",
])
def test_counts_that_stay_at_0_or_more_pass(tmp_path, count):
    _, diags = compiled(tmp_path, "ore", f"({count}) brick")
    assert diags == []


@pytest.mark.parametrize("count", [
    "3 - level", "-level", "level * -1", "if_else(level == 0, 1, -1)", "sum_of([1, -2])", "2 - 3",
    "0 - counter(player, lore)",
])
def test_counts_that_can_go_below_0_are_e0525(tmp_path, count):
    _, diags = compiled(tmp_path, "ore", f"({count}) brick + ore")
    assert [code for code, _ in diags] == ["E0525"]


def test_a_count_that_is_not_a_number_is_e0523(tmp_path):
    _, diags = compiled(tmp_path, "(counter(player, lore) > 0) ore")
    assert diags == [("E0523", 7)]
    _, diags = compiled(tmp_path, "(ore) ore")  # a resource's name is no number either
    assert diags == [("E0523", 7)]
    _, diags = compiled(tmp_path, "(lore + 1) ore")  # a counter is read with counter(): its own error
    assert diags == [("E0504", 7)]


def test_a_name_a_cost_cannot_see_is_e0524(tmp_path):
    assert compiled(tmp_path, "(level + 1) ore")[1] == [("E0524", 7)]  # `level` is a stage's
    assert compiled(tmp_path, "(at) ore")[1] == [("E0524", 7)]  # no site in a cost
    assert compiled(tmp_path, "(levle + 1) ore")[1] == [("E0524", 7)]
    assert compiled(tmp_path, "ore", "(level + 1) brick")[1] == []  # a stage sees its level


def test_a_choice_in_a_count_asks_nobody(tmp_path):
    _, diags = compiled(tmp_path, "(choose_number(player, 0, 3)) ore")
    assert diags == [("E0510", 7)]


def test_a_neutral_piece_has_no_cost_that_varies(tmp_path):
    text = TEMPLATE.replace("COST", "ore").replace("STAGE", "brick").replace(
        "  turn {", "  piece ghost {\n    on hex\n    neutral\n    cost (bonus) ore\n  }\n  turn {")
    _, diags = compile_text(tmp_path, text)
    assert [d.code for d in diags] == ["E0304"]
