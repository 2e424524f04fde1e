"""The game log `play` prints: seats are P1..Pn everywhere in text (JSON keeps seats from 0),
chance outcomes are labelled by what they are (start, dice, steal, card), a roll shows who
got what, a bank trade its rate and direction, a domestic trade both sides."""

import json
import re
from collections import Counter

import pytest

from catandsl import new_game
from catandsl.cli import main
from catandsl.players import GreedyPlayer, UniformPlayer, play_game
from catandsl.players.base import CHANCE_LABELS, entry_line, log_lines
from tests.conftest import ROOT

BASE = ROOT / "scenarios" / "base.catan"
CLOTH = ROOT / "scenarios" / "seafarers" / "cloth_for_catan.catan"
LINE = re.compile(r"^(P[1-4]|start|dice|steal|card): (.+)$")
SEAT = re.compile(r"\bP(\d+)\b")


@pytest.fixture(scope="module")
def greedy():
    game = new_game(BASE, 4, {}, 1)
    state, entries = play_game(game, [GreedyPlayer(100 + p) for p in range(4)], seed=1)
    return game, state, entries


@pytest.fixture(scope="module")
def uniform():
    """Bots that trade with each other and the bank, play every card, discard."""
    game = new_game(BASE, 4, {}, 1)
    state, entries = play_game(game, [UniformPlayer(10 + p) for p in range(4)], seed=1)
    return game, state, entries


def replayed(game, entries):
    """(entry, state before, state after) for every entry."""
    state = game.new_initial_state()
    for e in entries:
        before = state.clone()
        state.apply_action(e["action"])
        yield e, before, state.clone()


def amounts(text):
    """'2 brick, 1 ore' -> Counter"""
    out = Counter()
    for part in text.split(", "):
        n, name = part.split(" ", 1)
        out[name] += int(n)
    return out


def hand(game, state, p):
    return Counter({r: n for r, n in zip(game.resources, state.hands[p]) if n})


def test_the_printed_log_names_seats_and_labels_chance(capsys):
    assert main(["play", str(BASE), "--players", "4", "--seed", "1", "--bots", "greedy"]) == 0
    lines = capsys.readouterr().out.splitlines()
    body, result = lines[:-1], lines[-1]
    labels = Counter()
    for line in body:
        if line.startswith("      "):
            continue
        m = LINE.match(line)
        assert m, line
        labels[m.group(1)] += 1
        assert "start_player" not in line and "stolen" not in line and not re.search(r"(steal|robs) \d", line)
        for seat in SEAT.findall(line):
            assert 1 <= int(seat) <= 4, line
    assert labels["start"] == 1 and labels["dice"] > 0 and labels["steal"] > 0 and labels["card"] > 0
    first = re.match(r"^start: P(\d) goes first$", body[0])
    assert first and body[1].startswith(f"P{first.group(1)}: builds a settlement at the corner of ")
    assert result.startswith("winner: P")


def test_json_keeps_seats_from_zero(capsys):
    assert main(["play", str(BASE), "--players", "4", "--seed", "1", "--bots", "greedy", "--format", "json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert main(["play", str(BASE), "--players", "4", "--seed", "1", "--bots", "greedy"]) == 0
    result = capsys.readouterr().out.splitlines()[-1]
    assert result.startswith(f"winner: P{summary['winner'] + 1} ")
    assert f"P{summary['winner'] + 1} {summary['scores'][summary['winner']]}" in result


def test_entries_carry_label_seat_and_kind(greedy):
    game, state, entries = greedy
    for e in entries:
        assert set(e) >= {"player", "action", "kind", "who", "seat", "text", "notes"}
        assert e["kind"] == game.actions[e["action"]].KIND
        if e["player"] >= 0:
            assert e["who"] == f"P{e['player'] + 1}" and e["seat"] == e["player"]
        else:
            assert e["who"] == CHANCE_LABELS.get(e["kind"], "chance")
    assert log_lines(entries[:1]) == [entry_line(entries[0])]


def test_a_steal_names_thief_victim_and_card(greedy):
    game, _, entries = greedy
    steals = 0
    for e, before, after in replayed(game, entries):
        if e["kind"] != "stolen":
            continue
        m = re.match(r"^P(\d) steals (\w+) from P(\d)$", e["text"])
        assert m, e["text"]
        thief, card, victim = int(m.group(1)) - 1, m.group(2), int(m.group(3)) - 1
        assert hand(game, after, thief) - hand(game, before, thief) == Counter({card: 1})
        assert hand(game, before, victim) - hand(game, after, victim) == Counter({card: 1})
        steals += 1
    assert steals > 0
    robs = [(k, e) for k, e in enumerate(entries) if e["kind"] == "steal"]
    for k, e in robs:  # the decision names the victim the chance line names
        victim = e["text"].removeprefix("robs ")
        nxt = entries[k + 1]
        if nxt["kind"] == "stolen":
            assert nxt["text"].startswith(f"{e['who']} steals ") and nxt["text"].endswith(f" from {victim}")


def test_a_roll_shows_who_got_what(greedy):
    game, _, entries = greedy
    produced = 0
    for e, before, after in replayed(game, entries):
        if e["kind"] != "roll":
            continue
        assert re.match(r"^P\d rolls \d+$", e["text"]), e["text"]
        for p in range(game.num_players):
            gained = hand(game, after, p) - hand(game, before, p)
            notes = [n for n in e["notes"] if n.startswith(f"P{p + 1} gets ")]
            if gained:
                assert notes == [f"P{p + 1} gets " + ", ".join(f"{n} {r}" for r, n in
                                 sorted(gained.items(), key=lambda x: game.resources.index(x[0])))]
                produced += 1
            else:
                assert notes == []
    assert produced > 50


def test_a_bank_trade_shows_its_rate_and_direction(uniform):
    game, _, entries = uniform
    trades = 0
    for e, before, after in replayed(game, entries):
        if e["kind"] != "bank_trade":
            continue
        m = re.match(r"^trades (\d) (\w+) for 1 (\w+) with the bank$", e["text"])
        assert m, e["text"]
        n, give, get = int(m.group(1)), m.group(2), m.group(3)
        assert n in (2, 3, 4)
        p = e["player"]
        assert hand(game, before, p) - hand(game, after, p) == Counter({give: n})
        assert hand(game, after, p) - hand(game, before, p) == Counter({get: 1})
        trades += 1
    assert trades > 0


def test_a_domestic_trade_shows_both_sides(uniform):
    game, _, entries = uniform
    trades = 0
    for e, before, after in replayed(game, entries):
        if e["kind"] != "trade_with":
            continue
        m = re.match(r"^trades (.+) for (.+) with P(\d)$", e["text"])
        assert m, e["text"]
        p, other = e["player"], int(m.group(3)) - 1
        assert hand(game, before, p) - hand(game, after, p) == amounts(m.group(1))
        assert hand(game, after, p) - hand(game, before, p) == amounts(m.group(2))
        assert hand(game, after, other) - hand(game, before, other) == amounts(m.group(1))
        trades += 1
    assert trades > 0
    terms = r"\d \w+(, \d \w+)* for \d \w+(, \d \w+)*"
    offers = [e["text"] for e in entries if e["kind"] == "propose"]
    assert any(t.startswith("offers ") for t in offers) and any(t.startswith("counters ") for t in offers)
    assert all(re.match(rf"^(offers {terms} to (everyone|P\d)|counters with {terms})$", t) for t in offers), offers
    steps = [e["text"] for e in entries if e["kind"] in ("offer_add", "offer_remove")]
    assert steps and all(re.match(r"^(adds 1 \w+ to|takes 1 \w+ off) the cards (offered|asked for)$", t) for t in steps)


def test_a_card_draw_names_the_buyer_and_the_card(greedy):
    _, _, entries = greedy
    draws = [(k, e) for k, e in enumerate(entries) if e["kind"] == "draw"]
    assert draws
    for k, e in draws:
        buyer = entries[k - 1]
        assert buyer["kind"] == "buy_card" and buyer["text"] == "buys a development card"
        assert e["who"] == "card" and e["text"].startswith(f"{buyer['who']} draws a development card: ")


def test_a_monopoly_shows_who_lost_what(greedy):
    game, _, entries = greedy
    seen = 0
    for k, e in enumerate(entries):
        if e["kind"] == "play_card" and e["text"] == "plays Monopoly":
            choice = entries[k + 1]
            assert choice["kind"] == "choose_resource"
            resource = choice["text"].removeprefix("chooses ")
            gets = [n for n in choice["notes"] if n.startswith(f"{e['who']} gets ")]
            loses = [n for n in choice["notes"] if " loses " in n]
            total = sum(int(n.split(" ")[2]) for n in loses)
            if total:
                assert gets == [f"{e['who']} gets {total} {resource}"]
            seen += 1
    assert seen > 0


def test_tokens_from_a_village_are_shown():
    game = new_game(CLOTH, 4, {}, 2)
    _, entries = play_game(game, [GreedyPlayer(p) for p in range(4)], seed=2)
    cloth = [n for e in entries for n in e["notes"] if re.match(r"^P\d gets .*\d cloth", n)]
    assert cloth


def test_an_entry_of_the_old_shape_still_prints():
    assert entry_line({"player": -1, "action": 0, "text": "roll 8"}) == "chance: roll 8"
    assert entry_line({"player": 2, "action": 0, "text": "end_turn"}) == "P3: end_turn"


RAID = '''
scenario raid "Raid" {
  uses base
  rule raid {
    on dice_rolled if roll == 8 {
      steal(player, opponents(player))
      produce(roll)
    }
  }
  map {
    rows """
      f8  h5  m4
        p6  w9
    """
    legend { f forest; h hills; m mountains; p pasture; w fields }
    start robber off board
  }
}
'''


def test_a_steal_followed_by_production_names_the_thief(tmp_path):
    """The robbery's chance outcome also runs the rest of its rule (here production on
    the same roll), so hands alone do not say who stole: P1 gains lumber from the 8
    while P3 robs P2."""
    import catandsl
    from catandsl.engine.actions import Roll, Steal
    from catandsl.players.base import logged_apply

    path = tmp_path / "raid.catan"
    path.write_text(RAID, encoding="utf-8")
    game = new_game(catandsl.load(path), 3, {}, 1)
    state = catandsl.position(game).place(0, "settlement", (0, 0, "N")).hand(1, ore=1) \
        .turn(2, phase="roll").state()
    entries = [logged_apply(game, state, game.action_id[Roll(8)], -1)]
    entries.append(logged_apply(game, state, game.action_id[Steal(1)], 2))
    assert state.is_chance_node()
    entries.append(logged_apply(game, state, state.legal_actions()[0], -1))
    assert state.hands[2][game.res_index["ore"]] == 1 and state.hands[0][game.res_index["lumber"]] >= 1
    assert [entry_line(e) for e in entries[1:]] == ["P3: robs P2", "steal: P3 steals ore from P2"]
    assert entries[2]["seat"] == 2
    # the notes show what the rest of the rule did, and not the stolen card again
    # (the roll's own production paid P1 a lumber before; the raid's `produce` another)
    assert entries[0]["notes"] == entries[2]["notes"] == ["P1 gets 1 lumber"]
