"""`when OPTION is ITEM { ... }` inside a `turn`, a `setup` or a `dice` block: the block is
read once per choice of the items of the options it names, as if each reading were
written out under its own `when` (one declaration per choice, in sections that exclude
each other). From a small scenario of its own."""

from __future__ import annotations

import pytest

from catandsl.ir import configure
from tests.conftest import FIVE_HEX_ROWS, compile_text

SCENARIO = """
scenario timing "When to feast" {
  uses base
  option feast_time {
    item early "before building" default
    item late "after building"
    item never "no feast"
  }
  option starts {
    item one "resources from the second settlement" default
    item both "from both"
  }
  option doubles {
    item kept default
    item rerolled
  }
  action feast "Hold a feast" {
    cost grain
    on take { take_from_bank(player, wool, 1) }
  }
  setup {
    round forward {
      place settlement
      place road touching last
      when starts is both { collect last }
    }
    round backward {
      place settlement
      place road touching last
      collect last
    }
  }
  dice 2d6 {
    when doubles is rerolled { reroll 2, 12 }
  }
  turn {
    phase roll { roll; play }
    when feast_time is early {
      phase feasting { feast }
    }
    phase main {
      trade; build; buy; play
      when feast_time is late { feast }
    }
  }
  map {""" + FIVE_HEX_ROWS + """    start robber on forest
  }
}
"""


@pytest.fixture(scope="module")
def scenario(tmp_path_factory):
    s, diags = compile_text(tmp_path_factory.mktemp("when"), SCENARIO)
    assert s is not None and not [d for d in diags if d.is_error], diags
    return s


def phases(scenario, **chosen):
    rs = configure(scenario, 3, chosen)
    return [(p.name, [a.activity if a.activity != "actions" else a.names[0] for a in p.allows])
            for p in rs.turn.phases]


def test_a_when_around_a_phase_and_around_a_line_of_one(scenario):
    assert phases(scenario) == [("roll", ["roll", "play"]), ("feasting", ["feast"]),
                                ("main", ["trade", "build", "buy", "play"])]
    assert phases(scenario, feast_time="late") == [("roll", ["roll", "play"]),
                                                   ("main", ["trade", "build", "buy", "play", "feast"])]
    assert phases(scenario, feast_time="never") == [("roll", ["roll", "play"]),
                                                    ("main", ["trade", "build", "buy", "play"])]


def test_a_when_around_a_set_up_step(scenario):
    def steps(**chosen):
        return [[step.action for step in rnd.steps] for rnd in configure(scenario, 3, chosen).setup.rounds]
    assert steps() == [["place", "place"], ["place", "place", "collect"]]
    assert steps(starts="both") == [["place", "place", "collect"], ["place", "place", "collect"]]


def test_a_when_around_a_line_of_the_dice(scenario):
    assert configure(scenario, 3, {}).dice.reroll == ()
    assert configure(scenario, 3, {"doubles": "rerolled"}).dice.reroll == (2, 12)


def test_an_outer_when_keeps_only_its_own_choices(tmp_path):
    late = "      when feast_time is late { feast }\n    }\n  }\n"
    text = SCENARIO.replace("  turn {\n", "  when starts is both {\n  turn {\n").replace(late, late + "  }\n")
    s, diags = compile_text(tmp_path, text)
    assert s is not None and not [d for d in diags if d.is_error], diags
    assert [p.name for p in configure(s, 3, {"starts": "both"}).turn.phases] == ["roll", "feasting", "main"]
    assert [p.name for p in configure(s, 3, {}).turn.phases] == ["roll", "main"]  # base's turn


@pytest.mark.parametrize("old, new, code, message", [
    ("when feast_time is late { feast }", "when feast_tiem is late { feast }", "E0304", "is not declared before"),
    ("when feast_time is late { feast }", "when feast_time is later { feast }", "E0302", "later"),
    ("phase roll { roll; play }", "phase roll { roll; plya }", "E0308", "plya"),
    ("      trade; build; buy; play\n      when feast_time is late { feast }",
     "      when feast_time is late { trade; build; buy; play; feast }", "E0304", "allows nothing when"),
])
def test_a_when_inside_that_cannot_be_is_located(tmp_path, old, new, code, message):
    s, diags = compile_text(tmp_path, SCENARIO.replace(old, new))
    hits = [d for d in diags if d.code == code and message in d.message]
    assert hits and all(d.span == hits[0].span for d in hits) and hits[0].span.line > 30, \
        [(d.code, d.message) for d in diags]
    assert len({d.message for d in hits}) == len(hits)  # each said once, not once per reading
