"""The guide beside the board (studio/guide.py) through the API: the building-cost card and the
terrains' legend from the scenario's declarations, the last roll, the moves since the
person's last one, the bank's rates, and a discard's cards confirmed at once (all of
them tried first: a refused one changes nothing)."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from catandsl.studio.app import create_app
from tests.conftest import THREE_HEXES, base_game, game_of
from tests.studio.pages import SEAT, force_discard


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    with TestClient(create_app(tmp_path_factory.mktemp("empty"), watch=False), base_url="http://127.0.0.1:8000",
                    raise_server_exceptions=False) as c:
        yield c


def _game(client, ref="shipped:base", **kw):
    r = client.post("/api/games", json={"ref": ref, "seed": 4, "seat": SEAT, "bots": "greedy", "players": 3, **kw})
    assert r.status_code == 200, r.text[:300]
    v = r.json()
    return v, client.app.state.studio.matches.get(v["id"])


def test_the_cost_card_and_the_legend_come_from_the_declarations(client):
    v, match = _game(client)
    costs = {c["name"]: c["cost"] for c in v["costs"]}
    assert costs["road"] == {"brick": 1, "lumber": 1}
    assert costs["city"] == {"grain": 2, "ore": 3}
    assert costs["development card"] == {"ore": 1, "wool": 1, "grain": 1}
    assert "robber" not in costs  # a neutral piece costs nobody anything
    terrains = {t["name"]: t["produces"] for t in v["terrains"]}
    assert terrains["hills"] == "brick" and terrains["desert"] == "" and "gold" not in terrains
    v, _ = _game(client, "shipped:cloth_for_catan", players=4)
    assert {t["name"] for t in v["terrains"]} >= {"sea", "forest"}


def _to_turn(client, match, v):
    """Play the set-up by the first offer till the person's turn."""
    for _ in range(200):
        if v["stage"] == "turn" and v["your_move"]:
            return v
        first = v["offers"]["groups"][0]["actions"][0]["id"]
        v = client.post(f"/api/games/{v['id']}/act", json={"action": first}).json()
    raise AssertionError("the set-up did not end")


def test_the_dice_the_recent_moves_and_the_rates(client):
    v, match = _game(client)
    v = _to_turn(client, match, v)
    assert v["dice"] is None or v["dice"]["total"] == match.state.last_roll
    # the bots placed since the person's last move: their moves, with their sites
    assert v["recent"] and all(r["seat"] != SEAT for r in v["recent"])
    assert any("site" in r for r in v["recent"])
    for _ in range(60):  # the person ends turns (or answers a prompt): the bots play theirs, the dice roll
        if match.state.turns >= 4:
            break
        offered = [a for g in v["offers"]["groups"] for a in g["actions"]]
        pick = next((a for a in offered if a["action"]["kind"] in ("roll_dice", "end_turn")), offered[0])
        v = client.post(f"/api/games/{v['id']}/act", json={"action": pick["id"]}).json()
    assert v["dice"]["total"] == match.state.last_roll and 2 <= v["dice"]["total"] <= 12
    assert v["dice"]["by"] in range(3)
    bank = [g for g in v["offers"]["groups"] if g["kind"] == "bank_trade"]
    if bank:
        assert set(bank[0]["rates"].values()) <= {2, 3, 4}


def test_a_discard_is_chosen_together_and_confirmed_once(client):
    v, match = _game(client)
    v = _to_turn(client, match, v)
    force_discard(match)
    v = client.get(f"/api/games/{v['id']}").json()
    need = sum(match.state.hands[SEAT]) // 2  # the base game's discard: half the hand, rounded down
    assert v["by_card"] == {"kind": "discard", "count": need}
    ids = {a["action"]["resource"]: a["id"] for g in v["offers"]["groups"] for a in g["actions"]
           if a["action"]["kind"] == "discard"}
    s = match.state
    before = s.serialize()
    held = dict(zip(match.game.resources, s.hands[SEAT]))
    # more of one resource than the hand holds: refused, and nothing changes
    poor = min(held, key=lambda r: held[r])
    r = client.post(f"/api/games/{v['id']}/act", json={"actions": [ids[poor]] * (held[poor] + 1)})
    assert 400 <= r.status_code < 500 and r.json()["error"]["code"].startswith("action/")
    assert match.state.serialize() == before
    r = client.post(f"/api/games/{v['id']}/act", json={"actions": ["x"]})
    assert r.status_code == 400 and match.state.serialize() == before
    # more cards than owed: refused whole
    chosen = [ids[r] for r in held for _ in range(held[r])][:need]
    r = client.post(f"/api/games/{v['id']}/act", json={"actions": chosen[:-1] + chosen[:1] * 99})
    assert 400 <= r.status_code < 500 and match.state.serialize() == before
    logged = len(match.entries)
    r = client.post(f"/api/games/{v['id']}/act", json={"actions": chosen})
    assert r.status_code == 200, r.text[:300]
    discarded = [e for e in match.entries[logged:] if e["player"] == SEAT and e["kind"] == "discard"]
    assert len(discarded) == need
    assert r.json()["by_card"] is None


def test_a_run_of_one_line_is_one_line_with_its_count():
    from catandsl.studio.guide import collapsed

    lines = ["P2: changes the offer"] * 5 + ["P2: offers 1 ore for 1 wool to everyone", "dice: P3 rolls 8",
                                             "      P3 gets 1 ore", "      P3 gets 1 ore", "P3: ends the turn"]
    assert collapsed(lines) == ["P2: changes the offer (\u00d75)", "P2: offers 1 ore for 1 wool to everyone",
                                "dice: P3 rolls 8", "      P3 gets 1 ore", "      P3 gets 1 ore", "P3: ends the turn"]


RISING = """
scenario "Rising" {
  uses base
  players 2..3
  piece tower {
    on intersection
    cost (pieces_placed(player, tower) + 1) ore + brick
  }
""" + THREE_HEXES


def test_a_cost_that_depends_on_a_value_is_the_seats_own_now(tmp_path_factory):
    from catandsl.studio import guide

    game = game_of(tmp_path_factory, RISING, players=2)
    s = game.new_initial_state()
    towers = {c["name"]: c for c in guide.costs(game, s, 0)}
    assert towers["tower"] == {"name": "tower", "cost": {"brick": 1, "ore": 1}, "varies": True}
    assert "varies" not in towers["road"] and guide.costs_vary(game)
    s.placed[0][game.piece_index["tower"]] = 2  # as if two stood on the board: the third costs 3 ore
    assert {c["name"]: c["cost"] for c in guide.costs(game, s, 0)}["tower"] == {"brick": 1, "ore": 3}
    assert {c["name"]: c["cost"] for c in guide.costs(game, s, 1)}["tower"] == {"brick": 1, "ore": 1}
    # a spectator, or no game yet: the fixed amounts, marked as varying
    assert {c["name"]: c for c in guide.costs(game)}["tower"] == {"name": "tower", "cost": {"brick": 1}, "varies": True}
    assert not guide.costs_vary(base_game(3))
