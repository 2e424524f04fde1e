"""The language server knows the words for places, `var` and `define`: hover on `var`,
`define` and `mark` reads their sections of docs/language.md; hover on a define's name
shows its signature; completion offers the defines and marks of the document."""

from __future__ import annotations

from catandsl.lsp.analysis import analyse, completions, hover

TEXT = '''scenario s "S" {
  uses base
  # one ore to a player
  define pay(p, good) { take_from_bank(p, good, 1) }
  rule r {
    on built(road) if at in coast {
      var n = 0
      pay(player, ore)
    }
  }
  map {
    hex (0, 0) forest 8
    mark coast [(0, 0) NE, (0, 0) W]
  }
}
'''


def _at(word: str, line_text: str) -> tuple[int, int]:
    lines = TEXT.split("\n")
    k = next(i for i, line in enumerate(lines) if line_text in line)
    return k, lines[k].index(word) + 1


def test_hover_on_the_new_keywords_reads_their_sections():
    a = analyse(TEXT, "s.catan")
    assert "names one that later statements" in hover(a, *_at("var", "var n"))
    assert "names a block of effects" in hover(a, *_at("define", "define pay"))
    assert "names places of the map" in hover(a, *_at("mark", "mark coast"))


def test_hover_on_a_define_shows_its_signature_and_comment():
    a = analyse(TEXT, "s.catan")
    text = hover(a, *_at("pay", "pay(player"))
    assert "define pay(p, good) { ... }" in text and "one ore to a player" in text


def test_completion_offers_defines_and_marks():
    a = analyse(TEXT, "s.catan")
    line, _ = _at("pay", "pay(player")
    labels = {(c.label, c.kind) for c in completions(a, None, line, 6)}
    assert ("pay", "define") in labels and ("coast", "mark") in labels
    assert ("var", "keyword") in {(c.label, c.kind) for c in completions(a, None, line, 0)}


COSTS = '''scenario s "S" {
  uses base
  counter level
  piece tower {
    on intersection
    cost (counter(player, level) + 1) ore
  }
  project wall "Wall" {
    stage { cost (level + 1) brick }
  }
  turn {
    phase roll { roll; play }
    phase main { trade; build; buy; play; projects }
  }
  map { hex (0, 0) forest 8 }
}
'''


def test_a_cost_that_depends_on_a_value_is_known_to_hover_and_completion():
    a = analyse(COSTS, "s.catan")
    assert not [d for d in a.diagnostics if d.is_error]
    lines = COSTS.split("\n")
    k = next(i for i, line in enumerate(lines) if "cost (counter" in line)
    assert "a count in brackets in a cost is an expression" in hover(a, k, lines[k].index("cost") + 1)
    inside = lines[k].index("counter")  # right after `(`: what the count may read
    offered = {(c.label, c.kind) for c in completions(a, None, k, inside)}
    assert ("player", "variable") in offered and ("level", "counter") in offered
    assert ("level", "variable") not in offered  # `level` of a stage only
    s = next(i for i, line in enumerate(lines) if "stage {" in line)
    offered = {(c.label, c.kind) for c in completions(a, None, s, lines[s].index("level"))}
    assert ("level", "variable") in offered and ("pieces_left", "primitive") in offered
