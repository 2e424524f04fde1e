"""`build_free_on(player, pieces, count, sites)` (catandsl/rules/free_sites.py): a free
placement kept to the sites a rule chose."""

from __future__ import annotations

import pytest

import catandsl
from catandsl.players import GreedyPlayer
from catandsl.rules.base import paths_next_to
from catandsl.rules.placement import targets
from tests.conftest import compile_text
from tests.engine.soundness import check_board, check_cheap

SOURCE = """
scenario momentum "Momentum" {
  uses base
  rule momentum {
    on built(road) if not free { build_free_on(player, [road], 1, next_paths(at)) }
  }
  map {
    rows \"\"\"
      f8  p5  h4
        m10 f6
    \"\"\"
    legend { f forest; p pasture; h hills; m mountains }
  }
}
"""


def test_the_free_road_goes_next_to_the_road_bought(tmp_path):
    path = tmp_path / "momentum.catan"
    path.write_text(SOURCE, encoding="utf-8")
    game = catandsl.new_game(catandsl.load(path), 3, {}, 1)
    road = game.piece_index["road"]
    s = game.new_initial_state()
    bots = [GreedyPlayer(p) for p in range(3)]
    seen = 0
    while not s.is_terminal() and seen < 5:
        a = s.sample_chance() if s.is_chance_node() else bots[s.current_player()].choose(s)
        act = game.actions[a]
        bought = s.stage == "turn" and not s.pending and act.KIND == "build" and act.piece == "road"
        s.apply_action(a)
        if bought and s.pending and s.top().KIND == "free_build_on":
            p = s.current_player()
            near = set(paths_next_to(game, act.at))
            legal = s.legal_actions()
            assert legal and legal == [x for x in targets(s, p, road, "free") if game.actions[x].at in near]
            seen += 1
        check_cheap(s)
    assert seen == 5
    check_board(s)


@pytest.mark.parametrize("old, new, code", [
    ("next_paths(at)", "at", "E0504"),  # a site, not a list of sites
    ("[road]", "[robber]", "E0504"),  # a neutral piece
    ("1, next_paths", "101, next_paths", "E0511"),
])
def test_a_bad_call_is_a_diagnostic(tmp_path, old, new, code):
    _, diags = compile_text(tmp_path, SOURCE.replace(old, new))
    assert [d.code for d in diags] == [code]
