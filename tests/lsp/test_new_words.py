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
