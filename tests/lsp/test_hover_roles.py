"""A word that means different things in different places hovers with the part of
docs/language.md for the place it is written in: `points` in a traveller's `travels`
block, in a token or counter, in a piece; `in` of a `for` loop and `in` as a membership
test; `points(...)` called, the query."""

from __future__ import annotations

from pathlib import Path

from catandsl.lsp import analysis as an

TEXT = '''scenario roles "Roles" {
  uses base
  token curse { supply 10; points -1 }
  counter conquered {
    points -1
  }
  piece castle {
    on intersection
    upgrades city
    cost 2 brick + 2 ore
    limit 2
    points 3
  }
  piece wagon {
    on path
    limit 2
    travels { points 2; step_cost 1 }
  }
  rule curse {
    on dice_rolled(12) {
      for p in players() {  # "in" in a comment { is no block
        if p in opponents(player) and points(p) >= 3 { give_tokens(p, curse, 1) }
      }
    }
  }
  map { hex (0, 0) forest 8 }
}
'''


def _hover(tmp_path: Path, line_text: str, word: str, nth: int = 0) -> str:
    path = tmp_path / "roles.catan"
    path.write_text(TEXT, encoding="utf-8")
    a = an.analyse(TEXT, str(path))
    assert a.diagnostics == []
    lines = TEXT.split("\n")
    line = next(n for n, t in enumerate(lines) if line_text in t)
    column = -1
    for _ in range(nth + 1):
        column = lines[line].index(f"{word}", column + 1)
    hover = an.hover(a, line, column + 1)
    assert hover is not None
    return hover


def test_points_in_travels_hovers_with_the_points_of_a_turn(tmp_path):
    hover = _hover(tmp_path, "travels {", "points")
    assert hover.startswith("`points`: written in a `travels` block")
    assert "the points of a turn" in hover
    assert "may be negative" not in hover


def test_points_in_a_token_or_a_counter_hovers_with_points_that_count_off(tmp_path):
    for line_text in ("token curse", "    points -1"):
        hover = _hover(tmp_path, line_text, "points")
        assert "may be negative" in hover, line_text
        assert "step_cost" not in hover and "the points of a turn" not in hover, line_text


def test_points_in_a_piece_hovers_with_its_row(tmp_path):
    hover = _hover(tmp_path, "points 3", "points")
    assert hover.startswith("`points`: written in a `piece` block")
    assert "victory points while it stands on the board" in hover


def test_points_in_a_card_an_award_and_a_stage_hover_with_their_parts():
    text = ('scenario s "S" {\n  deck d {\n    card v 5 { points 1; hidden }\n  }\n'
            '  award a {\n    points 2\n  }\n  project p "P" {\n    stage { cost ore; points 1 }\n  }\n}\n')
    lines = text.split("\n")
    found = {}
    for n, line in enumerate(lines):
        if "points" in line:
            role = an.role_at(text, n, line.index("points") + 1)
            found[role.block] = an.role_doc("points", role)
    assert "victory points while held" in found["card"]
    assert found["award"].endswith("`points N`: victory points to its holder (required);")
    assert "the points it adds" in found["stage"]


def test_points_called_hovers_as_the_query(tmp_path):
    hover = _hover(tmp_path, "if p in", "points")
    assert hover.startswith("```\npoints(player: player) -> int\n```")


def test_in_of_a_for_loop_and_in_as_membership(tmp_path):
    loop = _hover(tmp_path, "for p in", "in", nth=0)
    assert "`for NAME in LIST { ... }`" in loop
    membership = _hover(tmp_path, "if p in", "in", nth=0)
    assert membership.startswith("`in`: a membership test in an expression")
    assert "`at in coast`" in membership and "for NAME" not in membership


def test_the_role_is_read_while_the_file_does_not_parse():
    text = 'scenario s "S" {\n  piece wagon {\n    travels { points 2; step_cost\n'
    role = an.role_at(text, 2, 16)
    assert role is not None and role.block == "travels" and not role.call
    assert an.role_doc("points", role) is not None


def test_every_role_finds_its_part_of_the_document():
    """A heading renamed or a row reworded in docs/language.md must not leave a role
    hovering with its first line alone."""
    for (word, kind), (heading, pattern) in an.ROLE_DOCS.items():
        assert an.section_part(heading, pattern), (word, kind, heading)
