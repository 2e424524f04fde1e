"""Steps per second of the same random games played four ways: the raw engine
(`state.legal_actions()` / `apply_action`), the raw engine with the Observer's tensor and
mask made at every decision (what an RL environment must compute), the PettingZoo AEC
environment (tensor, mask and numpy arrays per step), and the JSON-lines protocol
(`catandsl engine` in a subprocess: one `legal_actions` and one `apply` or
`sample_chance`+`apply` round trip per step). A step is one applied action, chance
outcomes included. Not a test: figures depend on the machine.

    python bench/embedding_overhead.py [--scenario base] [--players 3] [--games 3] [--seed 1]
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def raw(game, seed: int, observe: bool) -> int:
    from catandsl.engine.observer import Observer

    obs = Observer(game) if observe else None
    rng = random.Random(seed)
    s = game.new_initial_state()
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply_action(s.sample_chance())
            continue
        if obs is not None:
            obs.tensor(s, s.current_player())
            obs.legal_mask(s)
        legal = s.legal_actions()
        s.apply_action(legal[rng.randrange(len(legal))])
    return s.actions_applied


def pettingzoo(scenario, players: int, seed: int) -> int:
    import numpy as np

    from catandsl.adapters.pettingzoo import CatanAECEnv

    env = CatanAECEnv(scenario, players=players, seed=seed)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return env.state.actions_applied


def protocol(proc, scenario_path: str, players: int, seed: int) -> int:
    def call(msg: dict) -> dict:
        proc.stdin.write(json.dumps(msg) + "\n")
        proc.stdin.flush()
        reply = json.loads(proc.stdout.readline())
        assert reply["ok"], reply
        return reply["result"]

    rng = random.Random(seed)
    state = call({"call": "new_game", "path": scenario_path, "players": players, "seed": seed})["state"]
    while True:
        legal = call({"call": "legal_actions", "state": state})
        if not legal["actions"]:
            break
        a = call({"call": "sample_chance", "state": state})["action"] if legal["chance"] else \
            legal["actions"][rng.randrange(len(legal["actions"]))]
        call({"call": "apply", "state": state, "action": a})
    steps = call({"call": "status", "state": state})["actions_applied"]
    call({"call": "close", "state": state})
    return steps


def main() -> int:
    import catandsl

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scenario", default=str(ROOT / "scenarios" / "base.catan"))
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    scenario = catandsl.load(a.scenario)
    games = [catandsl.new_game(scenario, players=a.players, seed=a.seed + k) for k in range(a.games)]
    rows = []

    def timed(name: str, play) -> None:
        t = time.perf_counter()
        steps = sum(play(k) for k in range(a.games))
        dt = time.perf_counter() - t
        rows.append((name, steps, steps / dt))

    timed("raw engine", lambda k: raw(games[k], a.seed + k, False))
    timed("engine + Observer tensor and mask", lambda k: raw(games[k], a.seed + k, True))
    timed("PettingZoo AEC env", lambda k: pettingzoo(scenario, a.players, a.seed + k))
    proc = subprocess.Popen([sys.executable, "-m", "catandsl", "engine"], cwd=ROOT, text=True,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    timed("protocol (catandsl engine)", lambda k: protocol(proc, a.scenario, a.players, a.seed + k))
    proc.stdin.close()
    proc.wait()
    base = rows[0][2]
    print(f"{a.games} random games of {scenario.title}, {a.players} players (uniform over legal actions)")
    for name, steps, rate in rows:
        print(f"  {name:36s} {steps:8d} steps {rate:10,.0f} steps/s  x{base / rate:5.1f} the raw engine's time")
    return 0


if __name__ == "__main__":
    sys.exit(main())
