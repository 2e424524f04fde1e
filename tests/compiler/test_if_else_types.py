"""`if_else(condition, a, b)` has the type of its branches: two numbers an int, two lists
of words a `list<str>` (so a computed list reaches `choose_option` and is judged there,
when the game runs: E0701 in `check`), and branches of two types are E0504 naming both."""

from __future__ import annotations

from catandsl.checks import check_path
from tests.conftest import compile_text

RULE = "__RULE__"
BASE = f"""scenario branches "Branches" {{
  uses base
  rule branches {{
    on turn_started {{
      {RULE}
    }}
  }}
  map {{
    rows \"\"\"
      f8  p5  h4
        m10 f6
    \"\"\"
    legend {{ f forest; p pasture; h hills; m mountains }}
  }}
}}
"""


def _errors(tmp_path, rule: str) -> list:
    _, diags = compile_text(tmp_path, BASE.replace(RULE, rule))
    return [d for d in diags if d.is_error]


def test_an_if_else_of_two_lists_of_words_is_a_list_of_words(tmp_path):
    rule = ('let o = choose_option(player, if_else(points(player) > 5, ["Wealth", "Peace"], ["Wisdom"]))\n'
            '      if o == "Wisdom" { take_from_bank(player, ore, 1) }')
    assert _errors(tmp_path, rule) == []


def test_a_computed_list_of_options_stops_the_rule_in_check(tmp_path):
    """The list is not written out, so its words are no actions of the game: check's
    trial game stops at the rule, as docs/language.md says (E0701), not E0504."""
    rule = 'let o = choose_option(player, if_else(points(player) > 5, ["Wealth", "Peace"], ["Wisdom"]))'
    path = tmp_path / "branches.catan"
    path.write_text(BASE.replace(RULE, rule), encoding="utf-8")
    _, diags, _ = check_path(path)
    errors = [d for d in diags if d.is_error]
    assert [d.code for d in errors] == ["E0701"]
    assert errors[0].span.line == 5 and "Wisdom" in errors[0].message


def test_a_computed_list_of_words_written_in_another_rule_is_offered(tmp_path):
    """The game numbers an action for each word any rule writes out: a computed list of
    such words is offered, and check plays on."""
    rule = ('let o = choose_option(player, if_else(points(player) > 5, ["Wealth", "Peace"], ["Wisdom"]))\n'
            '      if o == "Wisdom" { take_from_bank(player, ore, 1) }\n'
            '    }\n    on dice_rolled(12) {\n'
            '      let w = choose_option(player, ["Wealth", "Peace", "Wisdom"])')
    path = tmp_path / "branches.catan"
    path.write_text(BASE.replace(RULE, rule), encoding="utf-8")
    _, diags, _ = check_path(path)
    assert [d.code for d in diags if d.is_error] == []


def test_branches_of_two_types_are_e0504_naming_both(tmp_path):
    errors = _errors(tmp_path, "let n = if_else(points(player) > 5, 2, [1])")
    assert [d.code for d in errors] == ["E0504"]
    assert errors[0].message == "the branches of `if_else` differ: `then` is int, `otherwise` is list<int>"
    assert (errors[0].span.line, errors[0].span.column) == (5, 15)


def test_numbers_stay_an_int_and_lists_keep_their_items(tmp_path):
    assert _errors(tmp_path, "take_from_bank(player, ore, if_else(points(player) > 5, 2, 1))") == []
    assert _errors(tmp_path, "build_free(player, if_else(points(player) > 5, [road], [settlement]), 1)") == []
    # the branches' type is checked where the value goes, like either branch would be
    wrong = _errors(tmp_path, "take_from_bank(player, ore, if_else(points(player) > 5, [1], [2]))")
    assert [d.code for d in wrong] == ["E0504"]
    assert "must be int, not list<int>" in wrong[0].message
    words = _errors(tmp_path, 'let w = if_else(points(player) > 5, "a", "b")\n      let n = w + 1')
    assert [d.code for d in words] == ["E0504"]


def test_a_player_or_nobody(tmp_path):
    """`-1` beside a player, as `==` allows it: the value is a player (or nobody)."""
    rule = ("let p = if_else(points(player) > 5, player, -1)\n"
            "      if p != -1 { take_from_bank(p, ore, 1) }")
    assert _errors(tmp_path, rule) == []
