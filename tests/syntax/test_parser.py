"""The parser: AST shapes, spans, newline rules, and syntax errors in the author's words."""

import pytest

from catandsl.diagnostics import CatanError
from catandsl.syntax import ast
from catandsl.syntax.parser import parse


def body(text):
    return parse(text, "t.catan").items[0].body.stmts


def test_entry_with_phrases_and_block():
    (piece,) = body("ruleset r {\n  piece road {\n    limit 15\n    connects road, city\n  }\n}")
    assert isinstance(piece, ast.Entry) and piece.head.name == "piece"
    limit, connects = piece.block.stmts
    assert limit.phrases[0].terms[0] == ast.Number(limit.phrases[0].terms[0].span, 15)
    assert [p.terms[0].name for p in connects.phrases] == ["road", "city"]


def test_spans_point_at_the_source():
    (entry,) = body("ruleset r {\n   victory 10\n}")
    assert (entry.span.line, entry.span.column) == (2, 4)
    assert (entry.head.span.end_column) == 11


def test_terms_coord_range_ratio_repeat_list():
    (e,) = body("ruleset r { x (1, -2) 3..4 3:1 forest x4 [a 1, b] }")
    coord, rng, ratio, rep, lst = e.phrases[0].terms
    assert (coord.q, coord.r) == (1, -2)
    assert (rng.low, rng.high) == (3, 4)
    assert (ratio.give, ratio.get) == (3, 1)
    assert rep.count == 4 and rep.term.name == "forest"
    assert len(lst.items) == 2


def test_cost_bundle():
    (c,) = body("ruleset r { cost 3 ore + 2 grain + wool }")
    assert [(a.count, a.resource.name) for a in c.amounts] == [(3, "ore"), (2, "grain"), (1, "wool")]


def test_hook_with_filter_condition_and_effects():
    (h,) = body("ruleset r {\n on built(settlement) if not land(at) and roll != 7 {\n  let n = 2\n  produce(n)\n } \n}")
    assert isinstance(h, ast.Hook)
    assert h.event.name == "built" and h.filters[0].name == "settlement"
    assert isinstance(h.condition, ast.Binary) and h.condition.op == "and"
    assert isinstance(h.effects[0], ast.LetStmt) and isinstance(h.effects[1], ast.CallStmt)


def test_expression_precedence():
    (h,) = body("ruleset r { on turn_ended if 1 + 2 * 3 == 7 or false { } }")
    cond = h.condition
    assert cond.op == "or"
    eq = cond.left
    assert eq.op == "eq" and eq.left.op == "add" and eq.left.right.op == "mul"


def test_call_needs_no_space_before_paren():
    (e,) = body("ruleset r { hex (1, 2) forest }")
    assert isinstance(e.phrases[0].terms[0], ast.Coord)
    (m,) = body("ruleset r { measure army(player) }")
    assert isinstance(m.phrases[0].terms[0], ast.Call)


def test_newlines_inside_brackets_are_ignored_and_semicolons_separate():
    stmts = body("ruleset r {\n  a [1,\n   2,\n  ]; b\n\n\n  c\n}")
    assert [s.head.name for s in stmts] == ["a", "b", "c"]


def test_long_string_keeps_its_lines():
    (e,) = body('ruleset r { rows """\n  a b\n   c\n""" }')
    s = e.phrases[0].terms[0]
    assert s.long and s.value.split("\n")[1] == "  a b"


def test_if_else_chain():
    (h,) = body("ruleset r { on turn_ended { if true { produce(1) } "
                "else if false { produce(2) } else { produce(3) } } }")
    stmt = h.effects[0]
    assert isinstance(stmt.orelse[0], ast.IfStmt)
    assert len(stmt.orelse[0].orelse) == 1


@pytest.mark.parametrize(
    "text, code, line, col",
    [
        ("ruleset r {\n  piece road {\n    limit 15\n", "E0103", 3, 13),
        ("ruleset r {\n  resources brick, lumber,\n}", "E0104", 2, 27),
        ("ruleset r\n{\n}", "E0105", 1, 10),
        ("ruleset r { hex (1 2) }", "E0106", 1, 20),
        ("victory 10", "E0107", 1, 1),
        ("ruleset r { }\n}", "E0108", 2, 1),
        ('ruleset r { title "abc }', "E0109", 1, 19),
        ("ruleset r { a ! }", "E0102", 1, 15),
    ],
)
def test_common_mistakes_have_their_own_codes(text, code, line, col):
    with pytest.raises(CatanError) as e:
        parse(text, "t.catan")
    d = e.value.diagnostics[0]
    assert (d.code, d.span.line, d.span.column) == (code, line, col)
    assert d.help


def test_unexpected_token_names_what_was_expected():
    with pytest.raises(CatanError) as e:
        parse("ruleset r { on built( { } }", "t.catan")
    d = e.value.diagnostics[0]
    assert d.code == "E0101"
    assert "expected" in d.help


def test_bracket_depth_limit():
    with pytest.raises(CatanError) as e:
        parse("ruleset r { a " + "[" * 5000 + "]" * 5000 + " }", "t.catan")
    assert e.value.diagnostics[0].code == "E0004"
