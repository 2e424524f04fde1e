"""A compiled scenario is data: `catandsl compile --json` output loads back with
`catandsl.Scenario.from_json` and plays the same game as its source (same seed, same
log), here and through the protocol."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import catandsl
from catandsl.ir.codec import IRFormatError
from catandsl.players import RandomPlayer, play_game
from catandsl.protocol import Session

ROOT = Path(__file__).resolve().parents[2]


def _log(scenario, seed: int) -> list:
    g = catandsl.new_game(scenario, players=3, seed=seed)
    state, log = play_game(g, [RandomPlayer(seed + k) for k in range(3)])
    return [state.serialize()] + log


def test_compile_json_replays_its_sources_game():
    path = ROOT / "scenarios" / "seafarers" / "four_islands.catan"
    p = subprocess.run([sys.executable, "-m", "catandsl", "compile", str(path), "--json"], cwd=ROOT,
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    loaded = catandsl.Scenario.from_json(p.stdout)
    source = catandsl.load(path)
    assert loaded == source
    assert _log(loaded, 11) == _log(source, 11)


def test_through_the_protocol_the_ir_plays_like_the_path():
    source = catandsl.load(ROOT / "scenarios" / "base.catan")
    ses = Session()
    finals = []
    for how in ({"ir": source.to_json()}, {"path": str(ROOT / "scenarios" / "base.catan")}):
        r = ses.handle(json.dumps({"call": "new_game", "players": 3, "seed": 5, **how}))
        s = r["result"]["state"]
        for _ in range(300):
            legal = ses.handle(json.dumps({"call": "legal_actions", "state": s}))["result"]
            if not legal["actions"]:
                break
            a = ses.handle(json.dumps({"call": "sample_chance", "state": s}))["result"]["action"] \
                if legal["chance"] else legal["actions"][len(legal["actions"]) // 2]
            ses.handle(json.dumps({"call": "apply", "state": s, "action": a}))
        finals.append(ses.handle(json.dumps({"call": "serialize", "state": s}))["result"]["text"])
    assert finals[0] == finals[1]


@pytest.mark.parametrize("text", ["{", '{"format_version": 999}', "[]"])
def test_a_broken_or_other_version_scenario_is_a_typed_error(text):
    with pytest.raises(IRFormatError):
        catandsl.Scenario.from_json(text)
