"""A scenario-wide variable: `counter NAME { shared }` has one value for the whole game,
whichever player a rule names (catandsl/rules/counters.py)."""

from __future__ import annotations

import catandsl
from catandsl.rules.counters import add_to_counter, counter, set_counter
from tests.conftest import compile_text

SOURCE = """
scenario tide "Tide" {
  uses base
  counter tide { shared }
  counter mine
  rule rising {
    on dice_rolled(12) { add_to_counter(player, tide, 1) }
  }
  map { hex (0, 0) forest 8 }
}
"""


def test_every_player_reads_and_writes_the_one_value(tmp_path):
    path = tmp_path / "tide.catan"
    path.write_text(SOURCE, encoding="utf-8")
    s = catandsl.new_game(catandsl.load(path), 3, {}, 1).new_initial_state()
    add_to_counter(s, 0, "tide", 2)
    add_to_counter(s, 2, "tide", 1)
    assert [counter(s, p, "tide") for p in range(3)] == [3, 3, 3]
    set_counter(s, 1, "tide", 7)
    assert counter(s, 2, "tide") == 7
    add_to_counter(s, 1, "mine", 4)  # a counter of each player's own stays each player's
    assert [counter(s, p, "mine") for p in range(3)] == [0, 4, 0]


def test_a_shared_counter_scores_nobody(tmp_path):
    _, diags = compile_text(tmp_path, SOURCE.replace("counter tide { shared }", "counter tide { shared; points 1 }"))
    assert [d.code for d in diags] == ["E0304"]
    assert "a `shared` counter belongs to nobody" in diags[0].message


def test_a_counter_line_it_does_not_know_is_a_diagnostic(tmp_path):
    _, diags = compile_text(tmp_path, SOURCE.replace("counter tide { shared }", "counter tide { sharde }"))
    assert [d.code for d in diags] == ["E0304"]
    assert "`shared` (one value for the whole game)" in diags[0].message
