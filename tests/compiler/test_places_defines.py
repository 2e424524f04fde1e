"""What the compiler says about places, marks, `var` and `define` used wrongly: each
mistake its code at its line (E0440, E0503, E0505, E0510, E0520, E0521, E0522), and
the constructs formatted by `catandsl fmt` the same way twice."""

from __future__ import annotations

import pytest

from catandsl.syntax.fmt import format_source as format_text
from tests.conftest import compile_text

MAP = '''
  map {
    rows """
      f8  f5
        h6  m9
    """
    legend { f forest; h hills; m mountains }
    start robber at (1, 1)
    MARKS
  }
'''


def scenario(body: str, marks: str = "") -> str:
    return 'scenario s "S" {\n  uses base\n' + body + MAP.replace("MARKS", marks) + "}\n"


def codes(tmp_path, text: str) -> list[tuple[str, int]]:
    _, diags = compile_text(tmp_path, text)
    return [(d.code, d.span.line) for d in diags if d.severity == "error"]


CASES = {
    "recursion": ('''  define a(p) { b(p) }
  define b(p) { a(p) }
  rule r { on dice_rolled(3) { a(player) } }
''', "", "E0520"),
    "itself": ('''  define a(p) = a(p) + 1
  rule r { on dice_rolled(3) if a(1) > 2 { take_from_bank(player, ore, 1) } }
''', "", "E0520"),
    "value as statement": ('''  define v(p) = p + 1
  rule r { on dice_rolled(3) { v(1) } }
''', "", "E0520"),
    "block as value": ('''  define b(p) { take_from_bank(p, ore, 1) }
  rule r { on dice_rolled(3) if b(player) { take_from_bank(player, ore, 1) } }
''', "", "E0520"),
    "twice": ('''  define b(p) { take_from_bank(p, ore, 1) }
  define b(q) { take_from_bank(q, ore, 1) }
''', "", "E0520"),
    "a primitive's name": ('''  define count(p) = p
''', "", "E0520"),
    "inside when": ('''  option o "O" { item a 1 "A" default; item b 2 "B" }
  when o is b { define b(p) { take_from_bank(p, ore, 1) } }
''', "", "E0520"),
    "arguments": ('''  define b(p, r) { take_from_bank(p, r, 1) }
  rule r { on dice_rolled(3) { b(player) } }
''', "", "E0503"),
    "the caller's names": ('''  define b(r) { take_from_bank(player, r, 1) }
  rule r { on dice_rolled(3) { b(ore) } }
''', "", "E0505"),
    "a choice read twice": ('''  define twice(r) = if_else(r == ore, 2, 0) + if_else(r == ore, 1, 0)
  rule r { on dice_rolled(3) { take_from_bank(player, ore, twice(choose_resource(player))) } }
''', "", "E0510"),
    "a let changed": ('''  rule r { on dice_rolled(3) { let n = 1; n = 2; take_from_bank(player, ore, n) } }
''', "", "E0521"),
    "a loop's name changed": ('''  rule r { on dice_rolled(3) { for p in players() { p = 1 } } }
''', "", "E0521"),
    "an undeclared var": ('''  rule r { on dice_rolled(3) { n = 2 } }
''', "", "E0505"),
    "a var of another type": ('''  rule r { on dice_rolled(3) { var n = 1; n = ore } }
''', "", "E0504"),
    "neither corner nor side": ('''  rule r { on dice_rolled(3) if owner((0, 0) X) == -1 { end_game("x") } }
''', "", "E0522"),
    "an item of a number": ('''  rule r { on dice_rolled(3) if roll[0] == 1 { take_from_bank(player, ore, 1) } }
''', "", "E0522"),
    "past the list": ('''  rule r { on dice_rolled(3) if [1, 2][2] == 1 { take_from_bank(player, ore, 1) } }
''', "", "E0522"),
    "in a number": ('''  rule r { on dice_rolled(3) if 1 in roll { take_from_bank(player, ore, 1) } }
''', "", "E0522"),
    "a list never holding it": ('''  rule r { on dice_rolled(3) if ore in [1, 2] { take_from_bank(player, ore, 1) } }
''', "", "E0504"),
    "a mark off the map": ("", "mark far [(0, 0), (7, 7) N]", "E0440"),
    "a mark's bad side": ("", "mark far [(0, 0) Q]", "E0440"),
    "a mark named twice": ("", "mark a [(0, 0)]; mark a [(1, 0)]", "E0304"),
    "keep off an unknown mark": ("", "numbers shuffled [] keep [6] off nowhere", "E0440"),
    "a path that jumps": ("", "mark p [(0, 0), (1, 1)]\n    numbers along p [] ", "E0440"),
    "a path of paths": ("", "mark p [(0, 0) NE]\n    numbers along p [] ", "E0440"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_each_mistake_has_its_code(tmp_path, name):
    body, marks, code = CASES[name]
    found = codes(tmp_path, scenario(body, marks))
    assert code in [c for c, _ in found], found


def test_a_rule_reading_a_mark_of_another_map_is_told(tmp_path):
    text = scenario('''  rule r { on built(road) if at in coast { take_from_bank(player, ore, 1) } }
''')
    found = codes(tmp_path, text)
    assert ("E0440", 3) in found or ("E0505", 3) in found


def test_a_define_never_called_is_checked_too(tmp_path):
    text = scenario('''  define b(p) { take_from_bonk(p, ore, 1) }
''')
    assert ("E0502", 3) in codes(tmp_path, text)


def test_a_clean_file_compiles(tmp_path):
    text = scenario('''  define pay(p, good) { take_from_bank(p, good, 1) }
  define double(x) = x * 2
  rule r {
    on built(road) if at in coast and coast[0] == (0, 0) NE {
      var n = 0
      for c in ends(at) { n = n + double(1) }
      pay(player, ore)
    }
  }
''', "mark coast [(0, 0) NE, (0, 0) W]")
    assert codes(tmp_path, text) == []


def test_the_formatter_lays_the_new_forms_out_once_and_for_all():
    text = scenario('''  define pay(p,good){take_from_bank(p,good,1)}
  define double(x)=x*2
  rule r {
    on built(road) if at in coast and coast[0]==(0,0) NE {
      var n=0
      for c in ends(at)[0 ] {n=n+double(1)}
    }
  }
''', "mark coast [(0,0) NE,(0, 0) W]")
    once = format_text(text)
    assert format_text(once) == once
    assert "coast[0] == (0, 0) NE" in once and "define double(x) = x * 2" in once and "var n = 0" in once


def test_defines_calling_defines_are_bounded(tmp_path):
    """Six levels of a block calling the one below ten times would expand to a million
    statements: the compiler stops at its bound, once, and says why."""
    levels = ["  define b1(p) { take_from_bank(p, ore, 1) }"]
    for k in range(2, 7):
        levels.append(f"  define b{k}(p) {{ " + "; ".join([f"b{k - 1}(p)"] * 10) + " }")
    text = scenario("\n".join(levels) + "\n  rule r { on dice_rolled(3) { b6(player) } }\n")
    _, diags = compile_text(tmp_path, text)
    bound = [d for d in diags if d.code == "E0520" and "times" in d.message]
    assert len(bound) == 1, [(d.code, d.message) for d in diags]
