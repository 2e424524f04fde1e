"""`simulate --backend ray`: the games as Ray tasks on a local Ray instance started by the
test equal the local backend's game by game (same per-game seeds, results by index)."""

from __future__ import annotations

import pytest

from catandsl.simulate import simulate
from tests.conftest import ROOT

ray = pytest.importorskip("ray", reason="Ray is in the `ray` extra; .ci/run installs it")

TINY = str(ROOT / "examples" / "seven_hex_island.catan")
GAMES = 8


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    yield
    ray.shutdown()


def test_a_ray_run_equals_a_local_run_game_by_game(local_ray):
    kw = {"seed": 7, "players": 3, "bots": ("greedy", "random")}
    local = simulate(TINY, GAMES, workers=1, **kw)
    seen = []
    remote = simulate(TINY, GAMES, workers=2, backend="ray", progress=seen.append, **kw)
    assert [r.index for r in remote.results] == list(range(GAMES))
    assert remote.results == local.results  # seed, winner, turns, reason, actions, scores
    assert sorted(seen) == seen and seen[-1] == GAMES
    assert not any(r.error for r in remote.results)
    assert len({r.seed for r in remote.results}) == GAMES


def test_the_cli_refuses_an_unknown_backend():
    from catandsl.cli import main

    assert main(["simulate", TINY, "--games", "1", "--backend", "cloud"]) == 2
    assert main(["simulate", TINY, "--games", "1", "--address", "ray://x:1"]) == 2
