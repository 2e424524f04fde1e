"""A construct misused in a way only play can show stops the rule, and `check` reports
it as E0701 at the rule's line (the trial game reaches every one of these: each runs on
every roll): a `replace_piece` whose `by` stands on another kind of site, a
`choose_traveller` of a piece that does not travel, a `fix_dice` total the dice never
roll, a place off the board."""

from __future__ import annotations

import pytest

from catandsl.checks import check_path

TEXT = '''scenario stops "Stops" {
  uses base
  rule r {
    on dice_rolled { STATEMENT }
  }
  map {
    rows """
      f8  p5  h4
        m10 f6
    """
    legend { f forest; p pasture; h hills; m mountains }
  }
}
'''

CASES = {
    "a settlement replaced by a road": "replace_piece(player, player, [settlement], road)",
    "a road picked as a traveller": "let w = choose_traveller(player, player, road)",
    "a total the dice never roll": "fix_dice(13)",
    "an intersection off the board": "take_from_bank(player, wool, if_else(occupied((9, 9) N), 1, 0))",
}


@pytest.mark.parametrize("statement", list(CASES.values()), ids=list(CASES))
def test_check_reports_the_stop_at_the_rule(tmp_path, statement):
    path = tmp_path / "stops.catan"
    path.write_text(TEXT.replace("STATEMENT", statement), encoding="utf-8")
    scenario, diagnostics, _ = check_path(path)
    assert scenario is None
    assert [(d.code, d.span.line) for d in diagnostics] == [("E0701", 4)], [d.message for d in diagnostics]


def test_the_same_rule_without_the_misuse_checks_clean(tmp_path):
    path = tmp_path / "stops.catan"
    path.write_text(TEXT.replace("STATEMENT", "replace_piece(player, player, [city], settlement)"), encoding="utf-8")
    scenario, diagnostics, _ = check_path(path)
    assert scenario is not None and not diagnostics, [d.message for d in diagnostics]
