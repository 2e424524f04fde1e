"""What an embedding program may get wrong: every public entry point checks what it is
given and raises the project's own typed error (ArgumentError, ConfigurationError,
IllegalAction, StateError, EngineError), never an IndexError or a silent default; a
refused call leaves the state as it was."""

from __future__ import annotations

from pathlib import Path

import pytest

import catandsl
from catandsl.engine import ArgumentError, EngineError, IllegalAction
from catandsl.engine import actions as A
from catandsl.ir.ruleset import ConfigurationError
from tests.conftest import base_game, base_scenario
from tests.engine.helpers import blank, to_main

ROOT = Path(__file__).resolve().parents[2]


def test_new_game_arguments():
    sc = base_scenario()
    with pytest.raises(ConfigurationError) as e:
        catandsl.new_game(sc, players=0)  # not silently the largest count
    assert e.value.code == "players/out_of_range"
    with pytest.raises(ConfigurationError):
        catandsl.new_game(sc, players=9)
    for bad in ({"players": "4"}, {"players": True}, {"seed": "7"}, {"options": ["layout"]},
                {"options": {"layout": 3}}):
        with pytest.raises(ArgumentError):
            catandsl.new_game(sc, **bad)
    with pytest.raises(ArgumentError):
        catandsl.new_game(42)
    with pytest.raises(catandsl.CatanError):
        catandsl.new_game(ROOT / "no-such-file.catan")
    assert catandsl.new_game(sc).num_players == sc.players_max  # None: the most players


def test_state_calls_with_bad_arguments_change_nothing():
    g = base_game(4)
    s = blank(g)
    before = s.serialize()
    for bad in (99, -1, "0", None, 1.5, True):
        with pytest.raises(ArgumentError):
            s.observation(bad)
    for bad in (10**6, -1, "3", None):
        with pytest.raises(ArgumentError):
            s.action_to_string(bad)
        with pytest.raises(ArgumentError):
            g.action(bad)
        with pytest.raises(IllegalAction) as e:
            s.apply_action(bad)
        assert e.value.code == "action/unknown"
    with pytest.raises(ArgumentError):
        g.action_id_of(A.Roll(99))
    with pytest.raises(IllegalAction) as e:
        s.apply_action(s.legal_actions()[0], player=3)
    assert e.value.code == "action/not_your_turn"
    assert s.serialize() == before


def test_a_player_that_is_not_a_seat_is_an_argument_error_everywhere():
    """Every call that takes a player refuses one that is not a seat the same way
    (ArgumentError), never an IndexError or another seat's answer (-1 read from the end);
    `legal_actions` and `apply_action` also take CHANCE."""
    g = base_game(4)
    s = blank(g)
    before = s.serialize()
    for bad in (99, 4, -1, -2, "0", None, 1.5, True):
        for call in (s.points, s.public_points, s.observation):
            with pytest.raises(ArgumentError):
                call(bad)
    for bad in (99, 4, -2, -4, "1", 1.5, True):
        with pytest.raises(ArgumentError):
            s.legal_actions(bad)
        with pytest.raises(ArgumentError):
            s.apply_action(s.legal_actions()[0], player=bad)
    assert s.is_chance_node() and s.legal_actions(catandsl.engine.CHANCE) == s.legal_actions()
    assert s.legal_actions(0) == [] and s.points(3) == s.scores()[3]
    assert s.serialize() == before


def test_action_site_takes_an_action_of_the_game_or_its_id():
    g = base_game(4)
    build = next(a for a in g.actions if isinstance(a, A.Build))
    where = (g.pieces[g.piece_index[build.piece]].site, build.at)
    assert g.action_site(build) == g.action_site(g.action_id_of(build)) == where
    assert g.action_site(g.end_turn_id) is None  # an action that names no site
    for bad in (-1, "x", None, 10**6, True, 2.0, A.Roll(99)):
        with pytest.raises(ArgumentError):
            g.action_site(bad)


def test_board_for_takes_its_arguments_as_new_game_does():
    sc = base_scenario()
    with pytest.raises(ConfigurationError) as e:
        catandsl.board_for(sc, players=0)  # not silently the largest count
    assert e.value.code == "players/out_of_range"
    for bad in ({"players": "4"}, {"players": True}, {"seed": "7"}, {"options": ["layout"]}):
        with pytest.raises(ArgumentError):
            catandsl.board_for(sc, **bad)
    with pytest.raises(ArgumentError):
        catandsl.board_for(42)
    assert catandsl.board_for(sc).hexes == catandsl.board_for(sc, players=sc.players_max).hexes
    assert catandsl.board_for(ROOT / "scenarios" / "base.catan", 3, {}, 2).hexes == \
        catandsl.board_for(sc, 3, {}, 2).hexes


def test_parse_takes_a_files_text_or_its_bytes():
    text = (ROOT / "scenarios" / "base.catan").read_text(encoding="utf-8")
    assert catandsl.parse(text.encode("utf-8"), "base.catan") == catandsl.parse(text, "base.catan")
    for bad in ((None,), (42,), (["scenario"],), (text, None), (text, 3)):
        with pytest.raises(ArgumentError):
            catandsl.parse(*bad)
    with pytest.raises(catandsl.CatanError) as e:
        catandsl.parse(b"scenario x \xff", "x.catan")
    assert [d.code for d in e.value.diagnostics] == ["E0002"] and e.value.diagnostics[0].span.column == 12


def test_sampling_where_no_chance_is_refused():
    g = base_game(4)
    s = blank(g)
    to_main(s)
    assert not s.is_chance_node() and s.chance_outcomes() == []
    with pytest.raises(IllegalAction):
        s.sample_chance()


def test_a_finished_game_takes_no_action():
    g = base_game(4)
    s = blank(g)
    s.stage = "over"
    s.changed()
    assert s.legal_actions() == [] and s.current_player() == catandsl.engine.TERMINAL
    with pytest.raises(IllegalAction) as e:
        s.apply_action(g.end_turn_id)
    assert e.value.code == "action/game_over"


def test_a_rule_that_cannot_run_ends_the_game_with_its_line(tmp_path):
    rule = "  rule debt {\n    on dice_rolled(12) { take_from_bank(player, wool, roll - 20) }\n  }"
    text = (ROOT / "scenarios" / "base.catan").read_text(encoding="utf-8").replace("uses base", "uses base\n" + rule, 1)
    f = tmp_path / "debt.catan"
    f.write_text(text, encoding="utf-8")
    from catandsl.compiler import compile_path

    sc, diags, _ = compile_path(f)  # compiles: the count is computed, not written
    assert sc is not None, diags
    s = blank(catandsl.new_game(sc, 4, {}, 1))
    with pytest.raises(EngineError) as e:
        s.apply_action(A.Roll(12))
    line = text.splitlines().index("    on dice_rolled(12) { take_from_bank(player, wool, roll - 20) }") + 1
    assert f"debt.catan:{line}:" in str(e.value) and "must be >= 0, not -8" in str(e.value)
    assert s.is_terminal() and s.reason == "rule_error" and s.legal_actions() == []
