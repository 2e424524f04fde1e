"""No seat's page holds another seat's secrets: in every shipped scenario, a person
plays against bots through the studio's API, and every answer (the game, each move, the
replay of the game) is checked against the state's true hidden values: another seat's
resource hand and development cards (their contents), its hidden victory points (a
bot's first draw from a deck is a victory point card, so every scenario with such a
card has one to hide), the card a bot drew and the card a robbery took (their log lines as the owner
reads them). The saved game is the person's own file of the whole game and is not a
view (docs/studio.md)."""

from __future__ import annotations

import random
import re

import pytest
from starlette.testclient import TestClient

from catandsl import resources
from catandsl.players.base import entry_line
from catandsl.studio.app import create_app
from tests.budget import count
from tests.studio.helpers import ROOT

SHIPPED = sorted(resources.shipped_scenarios(), key=lambda s: s.name)
SEAT = 0


def test_every_scenario_file_is_shipped():
    """The scenarios below are every file under scenarios/, so a new one is checked too."""
    files = {p.resolve() for p in (ROOT / "scenarios").glob("**/*.catan")}
    assert files == {s.path.resolve() for s in SHIPPED}


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    folder = tmp_path_factory.mktemp("empty")
    with TestClient(create_app(folder, watch=False), base_url="http://127.0.0.1:8000",
                    raise_server_exceptions=False) as c:
        yield c


def _dicts(node, under: str = ""):
    """Every JSON object in an answer with the key it sits under."""
    if isinstance(node, dict):
        yield under, node
        for k, v in node.items():
            yield from _dicts(v, k)
    elif isinstance(node, list):
        for v in node:
            yield from _dicts(v, under)


def _hide_a_point_card(match) -> list[str]:
    """A bot's first card drawn from a deck holding a hidden victory point card is
    that card: a real draw among the game's actions (a card dealt by hand would make
    the bot be asked before its rolls, which the game's replay would not have). The
    list gets the card's name once it is drawn."""
    from catandsl.engine.actions import Draw
    from catandsl.rules.cards import Drawing

    g = match.game
    hidden = [c for c in g.cards if c.hidden and c.points]
    dealt: list[str] = []
    apply = match._apply

    def rigged(aid: int, who: int) -> None:
        s = match.state
        top = s.pending[-1] if s.pending else None
        if who == -1 and not dealt and isinstance(top, Drawing) and top.player != SEAT:
            for c in hidden:
                if c.deck == top.deck and s.deck[c.index] > 0:
                    aid = g.action_id[Draw(g.decks[c.deck].name, c.name)]
                    dealt.append(c.name)
                    break
        apply(aid, who)

    match._apply = rigged
    return dealt


class Secrets:
    """What the checks saw, so the test can say it checked something."""

    def __init__(self) -> None:
        self.hidden_points = self.hands = self.cards = self.lines = 0


def check_answer(answer: dict, s, seen: Secrets, *, lines: list[str]) -> None:
    """`answer` (a game view or a replay frame, of the seat's) holds none of the other
    seats' secrets as they stand in the state `s`."""
    g = s.game
    players = {p["seat"]: p for p in answer["players"]}
    own_hand = dict(zip(g.resources, s.hands[SEAT]))
    own_cards = {c.name: n for c, n in zip(g.cards, s.cards[SEAT]) if n}
    objects = [(k, d) for k, d in _dicts(answer) if k != "played"]
    for p in range(g.num_players):
        if p == SEAT:
            assert players[p]["points"] == s.points(p)
            continue
        true, public = s.points(p), s.public_points(p)
        assert players[p]["points"] == public
        assert players[p]["hand"] is None and players[p]["cards"] is None
        assert players[p]["hand_count"] == sum(s.hands[p]) and players[p]["card_count"] == sum(s.cards[p])
        legend = re.search(rf'class="legend-entry" data-player="{p}" data-vp="(\d+)"', answer["svg"])
        assert legend is not None and int(legend.group(1)) == public
        if true != public:
            seen.hidden_points += 1
            assert f"P{p + 1}: {true} VP" not in answer["svg"]
        hand = dict(zip(g.resources, s.hands[p]))
        if sum(s.hands[p]) >= 2 and hand != own_hand:
            seen.hands += 1
            assert all(d != hand for _, d in objects), f"P{p + 1}'s hand {hand} is in the answer"
        cards = {c.name: n for c, n in zip(g.cards, s.cards[p]) if n}
        if cards and cards != own_cards:
            seen.cards += 1
            assert all(d != cards for _, d in objects), f"P{p + 1}'s cards {cards} are in the answer"
    shown = "\n".join(answer["log"])
    for line in lines:
        seen.lines += 1
        assert line not in shown, f"a secret line reached seat {SEAT}: {line}"


def secret_lines(match) -> list[str]:
    """The true lines of the log entries the seat may not read (a card another seat
    drew, a card a robbery took between two others)."""
    return [entry_line(e) for e in match.entries
            if e.get("readers") is not None and SEAT not in e["readers"]]


@pytest.mark.parametrize("shipped", SHIPPED, ids=lambda s: s.name)
def test_a_seats_answers_hold_no_other_seats_secrets(client, shipped):
    matches = client.app.state.studio.matches
    r = client.post("/api/games", json={"ref": f"shipped:{shipped.name}", "seed": 5, "seat": SEAT,
                                        "bots": "greedy"})
    assert r.status_code == 200, r.text[:300]
    gid = r.json()["id"]
    match = matches.get(gid)
    dealt = _hide_a_point_card(match)
    seen = Secrets()
    rng = random.Random(shipped.name)
    answer = client.get(f"/api/games/{gid}").json()
    for move in range(count(160)):
        check_answer(answer, match.state, seen, lines=secret_lines(match) if move % 8 == 0 else [])
        if answer["over"]:
            break
        ids = [a["id"] for grp in answer["offers"]["groups"] for a in grp["actions"]]
        # the person ends a turn often enough for the bots to play many
        ends = [a["id"] for grp in answer["offers"]["groups"] for a in grp["actions"]
                if a["action"].get("kind") == "end_turn"]
        r = client.post(f"/api/games/{gid}/act",
                        json={"action": ends[0] if ends and rng.random() < 0.5 else rng.choice(ids)})
        assert r.status_code in (200, 400, 409), r.text[:300]
        answer = r.json() if r.status_code == 200 else client.get(f"/api/games/{gid}").json()
    check_answer(answer, match.state, seen, lines=secret_lines(match))
    replay = client.post("/api/replays", json={"game": gid}).json()
    last = client.get(f"/api/replays/{replay['id']}/{replay['steps']}").json()
    # the replay plays the actions again: its state has no card dealt by hand
    final = client.app.state.studio.replays.get(replay["id"]).final
    check_answer(last, final, seen, lines=secret_lines(match)[-6:])
    if any(c.hidden and c.points for c in match.game.cards):  # seat 1 drew one, and it stayed hidden
        assert dealt and seen.hidden_points, "no hidden victory point card was drawn and checked"
    assert seen.hands and seen.cards and seen.lines, vars(seen)


def test_face_down_hexes_stay_face_down_on_a_seats_board():
    """A map with a hidden pool: the seat's board draws each face-down hex as a tile's
    back (one colour for all) with no number, however many turns are played."""
    with TestClient(create_app(ROOT / "examples", watch=False), base_url="http://127.0.0.1:8000",
                    raise_server_exceptions=False) as client:
        r = client.post("/api/games", json={"ref": "dir:fog_bank.catan", "seed": 3, "seat": SEAT, "bots": "greedy"})
        assert r.status_code == 200, r.text[:300]
        answer = r.json()
        match = client.app.state.studio.matches.get(answer["id"])
        rng = random.Random(3)
        for _ in range(count(40)):
            down = len(match.state.face_down)
            assert down and answer["svg"].count('class="hex face-down"') == down
            if answer["over"]:
                break
            ids = [a["id"] for grp in answer["offers"]["groups"] for a in grp["actions"]]
            answer = client.post(f"/api/games/{answer['id']}/act", json={"action": rng.choice(ids)}).json()
