"""The position builder (catandsl.Position) and the state's JSON Schema: positions set
up by hand play on, refuse what the rules refuse when asked to apply them, and are
checked on the way out with typed errors."""

from __future__ import annotations

import json
import sys
from functools import cache
from pathlib import Path

import jsonschema
import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # so that `python tests/embedding/test_position.py --update` works too
    sys.path.insert(0, str(ROOT))

import catandsl  # noqa: E402
from catandsl.engine import StateError  # noqa: E402
from catandsl.engine.position import PositionError  # noqa: E402
from catandsl.engine.state_schema import state_schema  # noqa: E402
from catandsl.players import RandomPlayer, play_game  # noqa: E402

SCHEMA = ROOT / "docs" / "state.schema.json"
# a chain of five road paths from (0,0) N, and the intersections along it
ROADS = [(1, -1, "W"), (0, -1, "NE"), (1, -2, "W"), (0, -2, "NE"), (0, -2, "NW")]
CORNERS = [(0, 0, "N"), (1, -2, "S"), (0, -1, "N"), (1, -3, "S"), (0, -2, "N"), (0, -3, "S")]


@cache
def base():
    return catandsl.load(ROOT / "scenarios" / "base.catan")


def game(seed: int = 1):
    return catandsl.new_game(base(), players=4, seed=seed)


def test_a_peer_style_rule_test_in_a_few_lines():
    """An opponent's settlement cuts a road: 5 roads become routes of 2 and 3."""
    pos = catandsl.position(game()).place(0, "settlement", CORNERS[0])
    for path in ROADS:
        pos.place(0, "road", path)
    assert catandsl.queries.route_length(pos.state(), 0) == 5
    s = pos.place(1, "settlement", CORNERS[2]).state()
    assert catandsl.queries.route_length(s, 0) == 3
    assert len(catandsl.queries.networks(s, 0)) == 2
    assert s.award_holder == [-1] * len(s.game.awards)  # 3 < the 5 Longest Road needs


def test_awards_are_recomputed_and_the_position_plays_on():
    pos = catandsl.position(game()).place(0, "settlement", CORNERS[0])
    for path in ROADS:
        pos.place(0, "road", path)
    s = pos.state()
    g = s.game
    assert s.award_holder[[a.name for a in g.awards].index("longest_road")] == 0
    assert catandsl.queries.points_breakdown(s, 0) == {
        "pieces": {"settlement": 1}, "cards": {}, "awards": {"longest_road": 2}, "special": 0,
        "tokens": 0, "total": 3}
    t = s.clone()
    for _ in range(300):  # the position plays on: every step legal, the checker happy after it
        if t.is_terminal():
            break
        t.apply_action(t.sample_chance() if t.is_chance_node() else t.legal_actions()[-1])
    assert t.actions_applied > 0
    assert g.deserialize_state(t.serialize()) == t


def test_rules_and_cost_are_explicit():
    g = game()
    pos = catandsl.position(g).place(0, "settlement", CORNERS[0])
    with pytest.raises(PositionError) as e:  # not connected to anything of seat 0
        pos.place(0, "road", (2, -3, "W"), rules=True)
    assert e.value.code == "position/illegal_place"
    with pytest.raises(PositionError) as e:
        pos.place(0, "road", ROADS[0], pay=True, rules=True)
    assert e.value.code == "position/cannot_afford"
    pos.hand(0, brick=1, lumber=1).place(0, "road", ROADS[0], pay=True, rules=True)
    s = pos.state()
    assert s.hands[0] == [0] * len(g.resources)
    assert s.bank == list(g.bank_start)  # paid back to the bank
    with pytest.raises(PositionError) as e:  # the distance rule
        pos.place(1, "settlement", CORNERS[1], rules=True)
    assert e.value.code == "position/illegal_place"
    s = pos.place(1, "settlement", CORNERS[1]).state()  # without the rules: put down as asked
    assert s.corner_owner[g.board.intersections.index(CORNERS[1])] == 1


def test_cards_tokens_turn_and_neutral_pieces():
    g = game()
    robber = g.board.hexes[g.pieces[g.piece_index["robber"]].allowed[0]]
    s = (catandsl.position(g)
         .turn(2, turns=7, rolled=True)
         .cards(2, held={"knight": 2, "monopoly": 1}, bought={"monopoly": 1}, played={"knight": 3})
         .neutral("robber", robber)
         .state())
    assert (s.turn_player, s.turns, s.current_player()) == (2, 7, 2)
    assert s.cards[2][g.card_index["knight"]] == 2 and s.new_cards[g.card_index["monopoly"]] == 1
    assert sum(s.deck) == sum(c.count for c in g.cards) - 6
    assert s.award_holder[[a.name for a in g.awards].index("largest_army")] == 2
    assert s.neutral_at[g.piece_index["robber"]] == g.board.hexes.index(robber)
    with pytest.raises(PositionError) as e:
        catandsl.position(g).cards(1, bought={"knight": 1})
    assert e.value.code == "position/unknown"


@pytest.mark.parametrize("edit, code", [
    (lambda p: p.bank(brick=3), "state/not_conserved"),
    (lambda p: p.edit(placed=[[0, 0, 0, 9]] + [[0, 0, 0, 0]] * 3), "state/over_limit"),
    (lambda p: p.edit(corner_owner=[0] + p._s.corner_owner[1:],  # a road on an intersection
                      corner_piece=[p.game.piece_index["road"]] + p._s.corner_piece[1:]), "state/off_site"),
])
def test_validate_gives_typed_errors(edit, code):
    pos = edit(catandsl.position(game()))
    with pytest.raises(StateError) as e:
        pos.validate()
    assert e.value.code == code


@pytest.mark.parametrize("tamper, code", [
    (lambda d: d.update(format=1), "state/format"),
    (lambda d: d.pop("bank"), "state/fields"),
    (lambda d: d["hands"][0].__setitem__(0, 5), "state/not_conserved"),
    (lambda d: d.update(pending=[{"kind": "nonsense"}]), "state/prompt"),
])
def test_another_version_or_a_tampered_state_is_a_typed_error(tamper, code):
    g = game()
    data = json.loads(g.new_initial_state().serialize())
    tamper(data)
    with pytest.raises(StateError) as e:
        g.deserialize_state(json.dumps(data))
    assert e.value.code == code
    with pytest.raises(StateError) as e:
        g.deserialize_state("{not json")
    assert e.value.code == "state/syntax"


def test_names_the_game_lacks_are_refused():
    pos = catandsl.position(game())
    for call in (lambda: pos.place(9, "road", 0), lambda: pos.place(0, "castle", 0),
                 lambda: pos.place(0, "road", (99, 99, "NE")), lambda: pos.hand(0, gold=1),
                 lambda: pos.turn(0, phase="siesta"), lambda: pos.remove("road", 0)):
        with pytest.raises(PositionError):
            call()


def test_a_position_starts_from_a_scenario_and_seed_too():
    s = catandsl.position(base(), players=3, seed=9).state()
    assert (s.game.num_players, s.game.seed, s.stage, s.turns) == (3, 9, "turn", 1)


def test_a_travelling_piece_shares_a_roads_path_and_is_removed_by_its_site():
    g = catandsl.new_game(catandsl.load(ROOT / "scenarios/traders_barbarians/traders_and_barbarians.catan"),
                          players=3, seed=1)
    road = g.pieces[g.piece_index["road"]].allowed[0]
    pos = catandsl.position(g).place(0, "road", road).place(1, "wagon", road)
    s = pos.state()
    assert s.travellers == [(1, g.piece_index["wagon"], road, 0, -1, -1)] and s.path_owner[road] == 0
    s = pos.remove("wagon", road).state()
    assert s.travellers == [] and s.placed[1][g.piece_index["wagon"]] == 0


def test_a_refused_edit_changes_nothing():
    g = game()
    pos = catandsl.position(g)
    with pytest.raises(PositionError) as e:
        pos.hand(0, brick=2, ore=99)  # the bank has 19 ore
    assert e.value.code == "position/short"
    with pytest.raises(PositionError):
        pos.cards(0, held={"knight": 1}, played={"monopoly": 9})
    s = pos.state()
    assert s.hands[0] == [0] * len(g.resources) and s.cards[0] == [0] * len(g.cards)
    assert s.bank == list(g.bank_start) and s.deck == [c.count for c in g.cards]


def test_the_position_examples_in_the_docs_run():
    """The first two Python blocks of docs/embedding.md, run as written."""
    import os
    import re

    blocks = re.findall(r"```python\n(.*?)```", (ROOT / "docs" / "embedding.md").read_text(), re.S)[:2]
    here = os.getcwd()
    os.chdir(ROOT)  # the docs name scenarios by paths from the repository's root
    try:
        env: dict = {}
        for code in blocks:
            exec(compile(code, "docs/embedding.md", "exec"), env)  # our own docs, not user input
    finally:
        os.chdir(here)
    assert env["state"].corner_piece[env["game"].board.intersections.index((0, 0, "N"))] == \
        env["game"].piece_index["city"]


def test_the_state_schema_is_current_and_describes_real_states():
    assert json.loads(SCHEMA.read_text()) == state_schema(), \
        "run: python tests/embedding/test_position.py --update"
    g = game(3)
    s, _ = play_game(g, [RandomPlayer(k) for k in range(4)], log=False)
    jsonschema.validate(json.loads(s.serialize()), state_schema())
    jsonschema.validate(json.loads(g.new_initial_state().serialize()), state_schema())


if __name__ == "__main__" and sys.argv[1:] == ["--update"]:
    SCHEMA.write_text(json.dumps(state_schema(), indent=2) + "\n")
