"""No request can stall the studio: a tampered saved game whose state leaves nobody a
move is refused with a typed error (never a loop or a server error), bots refuse a
state with no legal action, and bot moves are bounded per request.

Work is bounded by counts; the watchdog (tests/watchdog.py) only catches a hang."""

from __future__ import annotations

import json

import pytest
from starlette.testclient import TestClient

import catandsl
from catandsl.players import BOTS
from catandsl.studio.app import create_app
from tests.studio.helpers import ROOT, error_of, make_folder
from tests.watchdog import no_hang

HANG = 120.0  # CPU seconds: only a hang gets near


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return make_folder(tmp_path_factory.mktemp("stalls") / "maps")


@pytest.fixture(scope="module")
def client(folder):
    with TestClient(create_app(folder, watch=False), base_url="http://127.0.0.1:8000",
                    raise_server_exceptions=False) as c:
        yield c


def dead_state(players: int = 2, seed: int = 2):
    """(game, a state text): the island after the start player's first settlement, with
    the start player changed, so the seat to move has no legal action."""
    game = catandsl.new_game(catandsl.load(ROOT / "examples" / "seven_hex_island.catan"), players, {}, seed)
    s = game.new_initial_state()
    s.apply_action(s.sample_chance())
    s.apply_action(s.legal_actions()[0])
    data = json.loads(s.serialize())
    data["start_player"] = 1 - data["start_player"]
    return game, json.dumps(data)


def dead_save(bot: str) -> dict:
    game, text = dead_state()
    return {"format": "catandsl-studio-game", "version": 1, "scenario": "dir:island.catan", "players": 2,
            "options": {}, "seed": 2, "seat": 1, "bots": [bot, bot], "actions": [], "state": text}


@pytest.mark.parametrize("bot", sorted(BOTS))
def test_a_bot_refuses_a_state_with_no_legal_action(bot):
    from catandsl.engine import EngineError
    from catandsl.players.base import NoLegalAction

    game, text = dead_state()
    state = game.new_initial_state()  # the same state edited in memory, as a careless caller could
    state.apply_action(state.sample_chance())
    state.apply_action(state.legal_actions()[0])
    state.start_player = json.loads(text)["start_player"]
    state.changed()
    assert not state.is_terminal() and not state.is_chance_node() and state.legal_actions() == []
    with no_hang(HANG, f"{bot} choosing from nothing"), pytest.raises(NoLegalAction) as caught:
        BOTS[bot](1).choose(state)
    assert isinstance(caught.value, EngineError) and "no legal action" in str(caught.value)


@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_resuming_a_save_nobody_can_move_in_is_a_typed_error(client, bot):
    with no_hang(HANG, "resuming dead saves"):
        for _ in range(5):  # a stuck one would hold a worker thread at full CPU for ever
            err = error_of(client.post("/api/games/resume", json=dead_save(bot)))
            assert err["code"].startswith(("save/", "state/")), err
            err = error_of(client.post("/api/replays", json={"save": dead_save(bot)}))
            assert err["code"].startswith(("save/", "state/")), err
        assert client.get("/api/scenarios").status_code == 200


def test_bots_play_a_bounded_number_of_moves_per_request(client, monkeypatch):
    """With the bound at one move, the bots' first moves of the set-up are played one a
    request: each request on the game plays on, until the person is to move."""
    from catandsl.studio import play

    monkeypatch.setattr(play, "BOT_MOVES", 1)
    view = client.post("/api/games", json={"ref": "dir:island.catan", "players": 3, "seed": 2, "seat": 2,
                                           "bots": "greedy"}).json()
    assert view["bots_moving"] and view["actions_applied"] == 1 and not view["your_move"]
    assert view["status"] == "the bots are moving" and not view["offers"]["groups"]
    err = error_of(client.post(f"/api/games/{view['id']}/act", json={"action": 0}))
    assert err["code"] == "action/not_your_turn"  # that request played one more, and the bots are not done
    seen = [1]
    for _ in range(20):
        view = client.get(f"/api/games/{view['id']}").json()
        seen.append(view["actions_applied"])
        if not view["bots_moving"]:
            break
    assert view["your_move"] and view["offers"]["groups"]
    assert seen == [1, 3], seen  # the start, then P2's settlement (the refused act) and road (the GET)
