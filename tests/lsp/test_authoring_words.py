"""The language server knows the words of the constructs for authors: a hover with the
section of docs/language.md, a completion where the word may be written."""

from __future__ import annotations

from pathlib import Path

from catandsl.lsp import analysis as an

TEXT = '''scenario tiny "Tiny" {
  uses base
  map {
    rows """
      f8  p5  h4  m10
    """
    legend { f forest; p pasture; h hills; m mountains }
    harbors shuffled [wool 2:1 x2, 3:1 x2] at [(0, 0) NW, (1, 0) NE, (2, 0) NE, (3, 0) SE] max_clump 1
  }
}
'''


def _analysis(tmp_path: Path) -> an.Analysis:
    path = tmp_path / "tiny.catan"
    path.write_text(TEXT, encoding="utf-8")
    return an.analyse(TEXT, str(path))


def test_the_file_compiles(tmp_path):
    assert _analysis(tmp_path).diagnostics == []


def test_hover_max_clump_shows_where_and_its_section(tmp_path):
    a = _analysis(tmp_path)
    line = TEXT.split("\n").index(next(t for t in TEXT.split("\n") if "max_clump" in t))
    text = an.hover(a, line, TEXT.split("\n")[line].index("max_clump") + 2)
    assert text.startswith("`max_clump`: written in a `harbors shuffled` line")
    assert "deals the shuffled harbors again" in text


def test_max_clump_completes_inside_a_line(tmp_path):
    a = _analysis(tmp_path)
    labels = {c.label for c in an.completions(a, None, 7, 12)}
    assert "max_clump" in labels


# the primitives of these constructs, each known to hover (its signature and doc) and to
# completion (a snippet), from the registry
PRIMITIVES = ["remove_piece", "replace_piece", "owned_next_to", "pieces_next_to", "piece_at", "discard_random",
              "pay_to_bank",
              "choose_card", "choose_token", "choose_option", "build_free_on",
              "terrain_hexes", "corners", "sides", "cards_of", "return_to_bank", "fix_dice",
              "take_from_hand", "remove_from_supply", "pieces_left",
              "choose_traveller", "travellers", "add_travel_points_on", "send_traveller",
              "set_piece_level", "piece_level", "piece_sites", "attach_piece", "attached",
              "choose_number", "sealed_bid", "stack_cards", "stack_size", "draw_from_stack",
              "take_from_stack", "board_hexes", "board_intersections", "board_paths",
              "choose_resource_among", "choose_intersection", "network_reach", "move_piece_to", "lift_piece",
              "lift_harbor"]


def test_every_new_primitive_hovers_and_completes(tmp_path):
    path = tmp_path / "calls.catan"
    text = "\n".join(PRIMITIVES)
    path.write_text(text, encoding="utf-8")
    a = an.analyse(text, str(path))
    labels = {c.label: c for c in an.completions(_analysis(tmp_path), None, 1, 2)}
    for line, name in enumerate(PRIMITIVES):
        hover = an.hover(a, line, 1)
        assert hover.startswith(f"```\n{name}(") and "\n```\n" in hover, name
        insert = labels[name].insert  # a snippet, or the call itself for one with no parameter
        assert insert.startswith(f"{name}(${{1:") or insert == f"{name}()", name


def test_hover_placed_in_a_piece_shows_its_section(tmp_path):
    piece = "  piece road {\n    on path\n    placed where owned_next_to(player, at, [road]) <= 1\n  }\n"
    text = TEXT.replace("  map {", piece + "  map {")
    path = tmp_path / "tiny.catan"
    path.write_text(text, encoding="utf-8")
    a = an.analyse(text, str(path))
    line = next(n for n, t in enumerate(text.split("\n")) if "placed where" in t)
    hover = an.hover(a, line, 6)
    assert hover.startswith("`placed`: written in a piece's block")
    assert "judged each time the piece is placed" in hover


def test_hover_shared_in_a_counter_shows_its_section(tmp_path):
    text = TEXT.replace("  map {", "  counter tide { shared }\n  map {")
    path = tmp_path / "tiny.catan"
    path.write_text(text, encoding="utf-8")
    a = an.analyse(text, str(path))
    assert a.diagnostics == []
    line = next(n for n, t in enumerate(text.split("\n")) if "shared" in t)
    hover = an.hover(a, line, text.split("\n")[line].index("shared") + 1)
    assert hover.startswith("`shared`: written in a counter's block")
    assert "whichever player" in hover  # the section of docs/language.md


def test_the_new_piece_and_deck_words_hover_with_their_sections():
    route = an.head_word_doc("route_length")
    assert route is not None and "a piece's block" in route and "adds to a route" in route
    reshuffle = an.head_word_doc("reshuffle")
    assert reshuffle is not None and "a deck's block" in reshuffle and "runs out" in reshuffle


def test_reshuffle_completes_at_the_start_of_a_line_in_a_deck(tmp_path):
    text = 'scenario d "D" {\n  uses base\n  deck tidings {\n    res\n  }\n  map { hex (0, 0) forest 8 }\n}\n'
    a = an.analyse(text, str(tmp_path / "d.catan"))
    labels = {c.label for c in an.completions(a, None, 3, 7)}
    assert "reshuffle" in labels and "route_length" in labels


NUMBERS = '''scenario path "Path" {
  uses base
  map {
    rows at (0, -1) """
        ?   ?
      ?   ?   ?
        ?   ?
    """
    legend { ? land }
    pool land shuffled [forest x2, hills, fields, pasture, mountains, desert]
    mark path [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, 0)]
    mark east_coast [(1, -1) E, (1, 0) E]
    numbers along path [5, 9, 4, 10, 3, 11] keep [3, 11] off east_coast
    start robber on desert
  }
}
'''


def test_the_words_of_a_number_plan_by_place_hover_with_their_items(tmp_path):
    path = tmp_path / "path.catan"
    path.write_text(NUMBERS, encoding="utf-8")
    a = an.analyse(NUMBERS, str(path))
    assert a.diagnostics == []
    lines = NUMBERS.split("\n")
    line = next(n for n, t in enumerate(lines) if "numbers along" in t)
    along = an.hover(a, line, lines[line].index("along") + 1)
    assert along.startswith("`along`: written in a `numbers` line") and "a number path" in along
    keep = an.hover(a, line, lines[line].index("keep") + 1)
    assert keep.startswith("`keep`: written in a `numbers` line") and "the mark's places are or touch" in keep
    labels = {c.label for c in an.completions(a, None, line, lines[line].index("keep"))}
    assert {"keep", "along"} <= labels


def test_a_word_shown_only_in_a_table_row_hovers_with_that_row():
    upgrades = an.head_word_doc("upgrades")
    assert upgrades is not None and "`upgrades P or Q` replaces either kind" in upgrades
