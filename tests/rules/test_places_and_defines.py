"""Places in rules (`(q, r)`, `(q, r) N`, `(q, r) NE`, `list[k]`, `x in list`,
`paths_at`, a map's `mark`), `var` and `define` (compiler/places.py, compiler/defines.py,
engine/places.py), on a board of four hexes of its own: each action says what it counts
in a hand or a token, so every test reads one number."""

from __future__ import annotations

import json

import pytest

from catandsl.engine import actions as A
from tests.conftest import game_of
from tests.engine.helpers import act, blank, legal

SCENARIO = '''
scenario places "Places" {
  uses base
  token tally { supply 50 }
  define pay(p, good, n) {
    take_from_bank(p, good, n)
    give_tokens(p, tally, n)
  }
  define twice(x) = x * 2
  action count_forest "Count the forests of the west" {
    on take {
      var n = 0
      for h in west {
        if terrain(h) == forest { n = n + 1 }
      }
      give_tokens(player, tally, n)
    }
  }
  action pay_twice "Two payments" {
    on take {
      pay(player, ore, 1)
      pay(player, grain, twice(1))
    }
  }
  action read_places "Read places" {
    on take if (0, 0) N in ends((0, 0) NE) and west[0] == (0, 0) and not (1, 1) in west {
      give_tokens(player, tally, count(paths_at((0, 0) S)) + twice(count(coast)))
    }
  }
  action ask_around "Each player names a resource; count the ore" {
    on take {
      var ore_named = 0
      for p in players() {
        let r = choose_resource(p)
        if r == ore { ore_named = ore_named + 1 }
      }
      give_tokens(player, tally, ore_named)
    }
  }
  turn {
    phase roll { roll; play }
    phase main { trade; build; buy; play; count_forest; pay_twice; read_places; ask_around }
  }
  map {
    rows """
      f8  f5
        h6  m9
    """
    legend { f forest; h hills; m mountains }
    mark west [(0, 0), (0, 1), (1, 0)]
    mark coast [(0, 0) NE, (0, 0) W, (1, 1) S]
    start robber at (1, 1)
  }
}
'''


@pytest.fixture(scope="module")
def g(tmp_path_factory):
    return game_of(tmp_path_factory, SCENARIO)


def _take(g, name: str):
    s = blank(g)
    act(s, A.Roll(8))
    act(s, A.TakeAction(name))
    return s


def tally(g, s, seat: int = 0) -> int:
    from catandsl.rules.sites import tokens

    return tokens(s, seat, "tally")


def test_a_var_counts_across_the_loop_over_a_mark(g):
    """`west` holds (0, 0) forest, (0, 1) hills and (1, 0) forest."""
    s = _take(g, "count_forest")
    assert tally(g, s) == 2


def test_a_define_runs_where_it_is_called_with_its_own_arguments(g):
    s = _take(g, "pay_twice")
    ore, grain = g.res_index["ore"], g.res_index["grain"]
    assert s.hands[0][ore] == 1 and s.hands[0][grain] == 2 and tally(g, s) == 3


def test_places_lists_items_and_membership(g):
    """(0, 0) N ends (0, 0) NE; (0, 0) S has three paths; the coast mark lists 3 places."""
    s = _take(g, "read_places")
    assert tally(g, s) == 3 + 2 * 3


def test_a_var_keeps_its_value_through_choices_and_a_saved_game(g):
    """A loop that asks every player: the state is saved and read back between answers,
    and the var still counts what the loop saw."""
    s = blank(g)
    act(s, A.Roll(8))
    act(s, A.TakeAction("ask_around"))
    answers = ["ore", "grain", "ore"]
    for k, r in enumerate(answers):
        s = g.deserialize_state(s.serialize())
        choice = next(a for a in legal(s) if getattr(a, "resource", None) == r)
        assert s.current_player() == k
        act(s, choice)
    assert tally(g, s) == 2
    assert not any(k.startswith("#") for f in json.loads(s.serialize()).get("pending", []) for k in
                   (f.get("env") or {}) if isinstance(f, dict))


def test_the_mark_is_the_list_of_its_places_in_order(g):
    from catandsl.engine.game import marked

    coast = next(m for m in g.ruleset.map.marks if m.name == "coast")
    b = g.board
    assert marked(b, coast) == [["p", b.path_index[(0, 0, "NE")]], ["p", b.path_index[(0, 0, "W")]],
                                ["i", b.intersection_index[(1, 1, "S")]]]
