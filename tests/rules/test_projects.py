"""Projects built in stages (rules/projects.py): the first stage makes its buyer the
owner, only the owner goes on, a requirement and a cost per stage, refusals with typed
reasons, points per stage, a victory on completion, the event each stage raises, and
the state checked on load. On a three-hex map with two players."""

from __future__ import annotations

import json

import pytest

from catandsl.compiler import compile_path
from catandsl.engine import IllegalAction, StateError
from catandsl.engine import actions as A
from catandsl.rules.projects import project_level, project_owner
from tests.conftest import THREE_HEXES, game_of

SCENARIO = """
scenario "Tower" {
  uses base
  players 2..3
  project tower "The Tower" {
    requires where resource_cards(player) >= 3 or level > 0
    stage { cost brick + lumber }
    stage { cost 2 brick; points 1 }
    stage { cost 2 lumber; points 2 }
  }
  victory "The tower stands" where project_level(tower) == 3 and project_owner(tower) == player
  rule first_stone {
    on stage_built(tower) if level == 1 { take_from_bank(player, wool, 1) }
  }
  turn {
    phase roll { roll; play }
    phase main { trade; build; buy; play; projects tower }
  }
""" + THREE_HEXES
BRICK, LUMBER, WOOL = 0, 1, 2  # the base game's resource order: brick, lumber, wool, grain, ore


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    return game_of(tmp_path_factory, SCENARIO, players=2)


def act(s, action, player=None):
    s.apply_action(s.game.action_id[action], player)


def started(game, player: int = 0):
    """Past the set-up, `player` in the main phase, hands empty."""
    s = game.new_initial_state()
    act(s, A.StartPlayer(player))
    while s.stage == "setup":
        s.apply_action(s.legal_actions()[0])
    s.bank = [b + sum(h[r] for h in s.hands) for r, b in enumerate(s.bank)]
    s.hands = [[0] * len(game.resources) for _ in s.hands]
    s.changed()
    if not s.is_chance_node():
        act(s, A.RollDice())
    act(s, A.Roll(3))  # no hex has a 3
    return s


def give(s, p, **counts):
    for name, n in counts.items():
        r = s.game.res_index[name]
        s.hands[p][r] += n
        s.bank[r] -= n
    s.changed()


def refusal(s, action, player=None):
    before = s.serialize()
    with pytest.raises(IllegalAction) as e:
        act(s, action, player)
    assert s.serialize() == before  # a refused action changes nothing
    return e.value.code


def test_resources_are_in_the_order_the_test_assumes(game):
    assert game.resources[:3] == ("brick", "lumber", "wool")


def test_the_first_stage_claims_the_project_and_raises_its_event(game):
    s = started(game)
    give(s, 0, brick=2, lumber=1)  # 3 cards: the requirement holds
    assert game.action_id[A.BuildStage("tower")] in s.legal_actions()
    act(s, A.BuildStage("tower"))
    assert (project_level(s, "tower"), project_owner(s, "tower")) == (1, 0)
    assert s.hands[0][BRICK] == 1 and s.hands[0][LUMBER] == 0
    assert s.hands[0][WOOL] == 1  # the rule on stage_built(tower) with level 1


def test_the_requirement_is_checked_before_buying(game):
    s = started(game)
    give(s, 0, brick=1, lumber=1)  # can pay, but holds only 2 cards
    assert game.action_id[A.BuildStage("tower")] not in s.legal_actions()
    assert refusal(s, A.BuildStage("tower")) == "project/requirement"


def test_only_the_owner_goes_on_stage_by_stage_for_points_and_the_victory(game):
    s = started(game)
    give(s, 0, brick=2, lumber=1)
    act(s, A.BuildStage("tower"))
    act(s, A.EndTurn())
    if not s.is_chance_node():
        act(s, A.RollDice())
    act(s, A.Roll(3))
    give(s, 1, brick=5, lumber=5)
    assert refusal(s, A.BuildStage("tower"), 1) == "project/owned"
    act(s, A.EndTurn())
    if not s.is_chance_node():
        act(s, A.RollDice())
    act(s, A.Roll(3))
    base = s.scores()[0]
    give(s, 0, brick=1)  # the second stage costs 2 brick; the owner holds 2 now
    act(s, A.BuildStage("tower"))
    assert project_level(s, "tower") == 2 and s.scores()[0] == base + 1
    assert refusal(s, A.BuildStage("tower")) == "project/cannot_afford"
    give(s, 0, lumber=2)
    act(s, A.BuildStage("tower"))
    assert s.is_terminal() and s.winner == 0 and s.reason == "victory"
    assert s.scores()[0] == base + 3


def test_a_complete_project_is_refused_with_its_reason(game):
    s = started(game)
    s.project_level, s.project_owner = [3], [0]
    s.changed()
    give(s, 0, brick=5, lumber=5)
    assert refusal(s, A.BuildStage("tower")) == "project/complete"


def test_the_state_is_checked_on_load(game):
    s = started(game)
    data = json.loads(s.serialize())
    data["project_owner"] = [1]  # an owner, but no stage built
    with pytest.raises(StateError):
        game.deserialize_state(json.dumps(data))
    data["project_owner"], data["project_level"] = [0], [4]  # more stages than declared
    with pytest.raises(StateError):
        game.deserialize_state(json.dumps(data))
    data["project_level"] = [2]
    assert game.deserialize_state(json.dumps(data)).project_level == [2]


@pytest.mark.parametrize("body, code, words", [
    ('project tower "T" { requires where true }', "E0305", "no stage"),
    ('project tower "T" { stage { cost brick } }', "E0305", "no phase of the turn"),
    ('project tower "T" { stage brick }', "E0304", "stage { cost"),
    ('project tower "T" { stage { points 1 } }', "E0304", "costs something"),
    ('project tower "T" { requires where resource_cards(player) }', "E0504", "true or false"),
])
def test_misuse_is_located(tmp_path, body, code, words):
    path = tmp_path / "t.catan"
    path.write_text('scenario "T" {\n  uses base\n  ' + body + '\n  map { hex (0, 0) forest 8 }\n}\n',
                    encoding="utf-8")
    scenario, diags, _ = compile_path(path)
    hits = [d for d in diags if d.code == code]
    assert scenario is None and hits, [(d.code, d.message) for d in diags]
    assert any(words in d.message + " " + (d.help or "") for d in hits)
    assert all(d.span.line == 3 for d in hits)
