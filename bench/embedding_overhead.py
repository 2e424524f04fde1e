"""Steps per second of the same random games played through each way in: the raw engine
(`state.legal_now()` / `apply_action`), the raw engine with the Observer's tensor and
mask made at every decision (the straightforward way, `Observer.reference` and
`legal_mask`, as lists; and the kept numpy buffers of adapters/arrays.py), the PettingZoo
AEC environment, the Gymnasium environment (seat 0 learning, the others bots), the
vector environment (several such games in one process), and the JSON-lines protocol
(`catandsl engine` in a subprocess). A step is one applied action, chance outcomes
included. Every way plays the same games: each decision picks uniformly among the legal
actions with one shared generator, so every way applies the same actions.

Warm: each way plays one game before it is timed; then the ways take turns `--repeats`
times and each keeps its best. CPU time of this process (time.process_time) is what is
measured, less disturbed by a loaded machine than the wall clock; the protocol's work
is in another process, so it alone is timed by the wall clock. Not a test: figures
depend on the machine; the ratios are what to compare.

    python bench/embedding_overhead.py [--scenario base] [--players 3] [--games 3] [--seed 1] [--repeats 3]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from catandsl.players.random_player import below  # noqa: E402  (the random players' own draw)


def _pick(rng: random.Random, legal) -> int:
    return int(legal[below(rng, len(legal))])


class SharedBot:
    """A bot that picks uniformly from the generator every other decision uses."""

    def __init__(self, rng: random.Random):
        self.rng = rng

    def choose(self, state) -> int:
        return _pick(self.rng, state.legal_now())


def raw(game, seed: int, observe: str = "") -> int:
    from catandsl.engine.observer import Observer

    obs = Observer(game)
    arrays = None
    if observe == "arrays":
        from catandsl.adapters.arrays import ArrayObserver

        arrays = ArrayObserver(obs)
    rng = random.Random(seed)
    s = game.new_initial_state()
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply_action(s.sample_chance())
            continue
        p = s.current_player()
        if arrays is not None:
            arrays.tensor(s, p)
            arrays.mask(s)
        elif observe == "reference":
            obs.reference(s, p)
            obs.legal_mask(s)
        s.apply_action(_pick(rng, s.legal_now()))
    return s.actions_applied


def pettingzoo(scenario, players: int, seed: int) -> int:
    from catandsl.adapters.pettingzoo import CatanAECEnv

    env = CatanAECEnv(scenario, players=players)
    env.reset(seed=seed)
    rng = random.Random(seed)
    for _ in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated else _pick(rng, obs["action_mask"].nonzero()[0]))
    return env.state.actions_applied


def gymnasium(scenario, players: int, seed: int) -> int:
    from catandsl.adapters.gymnasium import CatanEnv

    rng = random.Random(seed)
    env = CatanEnv(scenario, players=players, opponents=[SharedBot(rng)] * players)
    env.reset(seed=seed)
    done = False
    while not done:
        _, _, terminated, truncated, _ = env.step(_pick(rng, env.action_masks().nonzero()[0]))
        done = terminated or truncated
    return env.state.actions_applied


def vector(scenario, players: int, seeds: list[int]) -> int:
    """The games of `seeds` side by side in one CatanVectorEnv, each to its end."""
    from catandsl.adapters.vector import CatanVectorEnv

    rngs = [random.Random(s) for s in seeds]
    envs = CatanVectorEnv(len(seeds), scenario, players=players)
    for env, rng in zip(envs.envs, rngs):
        env.opponents = [SharedBot(rng)] * players
    envs.reset(seed=list(seeds))
    over = [False] * len(seeds)
    steps = sum(env.state.actions_applied for env in envs.envs)  # the bots' and chance's before a first decision
    while not all(over):
        masks = envs.action_masks()
        actions = [_pick(rng, m.nonzero()[0]) if m.any() else 0 for rng, m in zip(rngs, masks)]
        before = [(env.state, env.state.actions_applied) for env in envs.envs]
        _, _, terminated, truncated, _ = envs.step(actions)
        for k, env in enumerate(envs.envs):  # every action applied counts, a next game's too
            state, applied = before[k]
            steps += env.state.actions_applied - (applied if env.state is state else 0)
            over[k] = over[k] or bool(terminated[k] or truncated[k])
    return steps


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
            _pick(rng, legal["actions"])
        call({"call": "apply", "state": state, "action": a})
    steps = call({"call": "status", "state": state})["actions_applied"]
    call({"call": "close", "state": state})
    return steps


def main() -> int:
    import catandsl

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scenario", default="base", help="a shipped scenario's name or a .catan file")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--no-protocol", action="store_true", help="leave the protocol out")
    a = ap.parse_args()
    from catandsl.diagnostics import CatanError
    from catandsl.resources import find_scenario

    a.scenario = str(find_scenario(a.scenario) or a.scenario)
    try:
        scenario = catandsl.load(a.scenario)
    except CatanError as e:
        print(e, file=sys.stderr)
        return 2
    seeds = [a.seed + k for k in range(a.games)]
    games = {s: catandsl.new_game(scenario, players=a.players, seed=s) for s in seeds}
    ways: list[tuple[str, Callable[[int], int], bool]] = [
        ("raw engine", lambda s: raw(games[s], s), False),
        ("engine + reference tensor and mask", lambda s: raw(games[s], s, "reference"), False),
        ("engine + numpy tensor and mask", lambda s: raw(games[s], s, "arrays"), False),
        ("PettingZoo AEC env", lambda s: pettingzoo(scenario, a.players, s), False),
        ("Gymnasium env", lambda s: gymnasium(scenario, a.players, s), False),
    ]
    proc = None
    if not a.no_protocol:
        proc = subprocess.Popen([sys.executable, "-m", "catandsl", "engine"], cwd=ROOT, text=True,
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        ways.append(("protocol (wall clock)", lambda s: protocol(proc, a.scenario, a.players, s), True))
    best: dict[str, tuple[int, float]] = {}

    def timed(name: str, play: Callable[[], int], wall: bool) -> None:
        clock = time.perf_counter if wall else time.process_time
        t = clock()
        steps = play()
        dt = clock() - t
        if name not in best or dt < best[name][1]:
            best[name] = (steps, dt)

    warm = a.seed + 10_000  # a game of its own, before the timed ones
    games[warm] = catandsl.new_game(scenario, players=a.players, seed=warm)
    for _, play, _ in ways:
        play(warm)
    vector(scenario, a.players, [warm])
    for _ in range(a.repeats):
        for name, play, wall in ways:
            timed(name, lambda play=play: sum(play(s) for s in seeds), wall)
        timed(f"vector env ({a.games} games at once)", lambda: vector(scenario, a.players, seeds), False)
    if proc is not None:
        proc.stdin.close()
        proc.wait()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    steps0, dt0 = best["raw engine"]
    print(f"{a.games} random games of {scenario.title}, {a.players} players (uniform over legal actions), "
          f"best of {a.repeats}; load average {load:.2f}")
    for name, (steps, dt) in best.items():
        rate = steps / dt
        print(f"  {name:38s} {steps:8d} steps {rate:10,.0f} steps/s  x{(dt / steps) / (dt0 / steps0):5.2f} "
              "the raw engine's time")
    return 0


if __name__ == "__main__":
    sys.exit(main())
