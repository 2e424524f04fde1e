"""Every state the engine reaches saves and loads back equal: whole games with uniformly
random agents of every shipped scenario and example, checked before every action
(tests/engine/soundness.py: live, the same text, decision and observations read back,
the same next state played from the copy read back). A wait inside a rule is read back
by what its primitive declares, whatever it offers (resources, seats, token kinds,
cards, totals); a wait the primitive could not have offered is refused."""

from __future__ import annotations

import json
from functools import cache

import pytest

import catandsl
from catandsl.engine import StateError
from catandsl.players import UniformPlayer
from tests.budget import count
from tests.conftest import BROKEN_FILES, ROOT, SCENARIO_FILES, tb_first_draw
from tests.engine.soundness import check_cheap, play_checked, round_trip, variant

PLAYABLE = [name for name in SCENARIO_FILES if name not in BROKEN_FILES]
TB = "scenarios/traders_barbarians/traders_and_barbarians.catan"
# games per file (tests/budget.py scales them): one with the most players and the
# defaults; Traders & Barbarians also with its variants (Catan for Two, the Event Cards,
# the Harbormaster). A deeper run plays every file's variants in turn.
GAMES = {TB: 3}


@cache
def scenario(name: str):
    return catandsl.load(ROOT / name)


@pytest.mark.slow
@pytest.mark.parametrize("name", PLAYABLE)
def test_every_state_of_random_games_round_trips(name):
    sc = scenario(name)
    for k in range(count(GAMES.get(name, 1))):
        players, options = variant(sc, k)
        g = catandsl.new_game(sc, players, options, 7000 + k)
        seats = [UniformPlayer(100 * k + p) for p in range(players)]
        s, n = play_checked(g, seats, check_cheap)
        assert s.is_terminal() and n == s.actions_applied


def test_a_draw_of_a_token_kind_round_trips():
    s = tb_first_draw("draw_from_site")
    assert s.is_chance_node() and all(isinstance(v, str) for v, _ in s.pending[-1].waiting[2])
    back = round_trip(s)
    a = s.sample_chance()
    s.apply_action(a)
    back.apply_action(a)
    assert back == s


def _waiting(s, waiting) -> str:
    data = json.loads(s.serialize())
    data["pending"][-1]["waiting"] = waiting
    return json.dumps(data)


@pytest.mark.parametrize("bad", [
    ["draw_from_site", -1, [["no_such_token", 1]]],  # a kind the game has no draw for
    ["draw_from_site", -1, [[3, 1]]],  # a number where the primitive draws token kinds
    ["draw_from_site", -1, [[True, 1]]],
    ["draw_from_site", -1, [["sand", 0]]],  # a weight that is no chance
    ["draw_from_site", -1, [["sand", 1.5]]],
    ["draw_from_site", 0, [["sand", 1]]],  # a seat waiting on chance
    ["draw_from_site", -1, []],
    ["choose_resource", 0, ["gold_bars"]],  # a choice of a resource the game lacks
    ["choose_resource", 0, [["brick"]]],
    ["choose_player", 0, [7]],  # a seat not in the game
    ["choose_player", 9, [1]],
    ["roll_dice", -1, [[99, 1]]],  # a total no dice of a rule show
    ["no_such_primitive", -1, [[2, 1]]],
])
def test_a_wait_its_primitive_could_not_offer_is_refused(bad):
    s = tb_first_draw("draw_from_site")
    with pytest.raises(StateError) as e:
        s.game.deserialize_state(_waiting(s, bad))
    assert e.value.code == "state/prompt" and e.value.field == "pending"


def test_a_wait_its_primitive_offers_is_read_back_whatever_its_values():
    s = tb_first_draw("draw_from_site")
    g = s.game
    for waiting in (["choose_resource", 2, ["brick", "ore"]], ["choose_player", 1, [0, 3]]):
        back = g.deserialize_state(_waiting(s, waiting))
        assert back.current_player() == waiting[1]
        assert [g.actions[a].to_json()[("resource" if "resource" in waiting[0] else "player")]
                for a in back.legal_actions()] == waiting[2]
