"""Fresh episodes (extra `rl`): a reset without a seed plays the next game the
environment's own generator draws (board, dice, bots), a seeded reset followed by
unseeded ones replays the same games, in Gymnasium, PettingZoo and OpenSpiel alike."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("pettingzoo", reason="the `rl` extra is not installed")  # CI installs it (.ci/run)
import numpy as np  # noqa: E402

from catandsl.adapters.gymnasium import CatanEnv  # noqa: E402
from catandsl.adapters.pettingzoo import CatanAECEnv  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
RANDOM_MAP = {"layout": "random"}


def _played(state) -> str:
    """What a game has become, its seed left out (two games differ in what happened)."""
    data = state.to_json()
    del data["seed"]
    return json.dumps(data, sort_keys=True)


def _gym_episodes(env: CatanEnv, first_seed: int | None, episodes: int) -> list[tuple[int, str]]:
    out = []
    for k in range(episodes):
        _, info = env.reset(seed=first_seed if k == 0 else None)
        for _ in range(30):  # the same learner in every episode: its first legal action
            _, _, terminated, truncated, _ = env.step(int(np.flatnonzero(env.action_masks())[0]))
            if terminated or truncated:
                break
        out.append((info["seed"], _played(env.state)))
    return out


def test_gymnasium_resets_without_a_seed_play_new_games():
    env = CatanEnv("base", players=3, options=RANDOM_MAP)
    episodes = _gym_episodes(env, 11, 4)
    assert episodes[0][0] == 11
    assert len({seed for seed, _ in episodes}) == 4 and len({game for _, game in episodes}) == 4
    boards = set()
    for seed, _ in episodes:
        env.reset(seed=seed)
        boards.add(tuple(env.game.board.hex_terrain))
    assert len(boards) == 4  # a map dealt at random is dealt anew


def test_gymnasium_a_seeded_reset_then_unseeded_ones_replay_the_same_games():
    one = _gym_episodes(CatanEnv("base", players=3), 11, 3)
    other = _gym_episodes(CatanEnv("base", players=3), 11, 3)
    assert one == other
    assert _gym_episodes(CatanEnv("base", players=3), 12, 3) != one
    # the constructor's seed stands for the first reset's; None draws from fresh entropy
    assert _gym_episodes(CatanEnv("base", players=3, seed=11), None, 3) == one


def _pettingzoo_episodes(env: CatanAECEnv, first_seed: int | None, episodes: int) -> list[tuple[int, str]]:
    out = []
    for k in range(episodes):
        env.reset(seed=first_seed if k == 0 else None)
        seed = env.infos["player_0"]["seed"]
        for _ in range(60):
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                break
            env.step(int(np.flatnonzero(obs["action_mask"])[-1]))
        out.append((seed, _played(env.state)))
    return out


def test_pettingzoo_resets_without_a_seed_play_new_games_and_replay_after_a_seed():
    episodes = _pettingzoo_episodes(CatanAECEnv("base", players=3, options=RANDOM_MAP), 5, 4)
    assert episodes[0][0] == 5
    assert len({seed for seed, _ in episodes}) == 4 and len({game for _, game in episodes}) == 4
    assert _pettingzoo_episodes(CatanAECEnv("base", players=3, options=RANDOM_MAP), 5, 4) == episodes


def test_openspiel_new_initial_states_deal_new_games_in_a_fixed_sequence():
    pyspiel = pytest.importorskip("pyspiel")
    from catandsl.adapters import openspiel

    openspiel.register()
    params = {"scenario": "base", "players": 3, "seed": 7, "options": "layout=random"}

    def boards(game) -> list[tuple[int, ...]]:
        return [tuple(game.new_initial_state().inner.game.board.hex_terrain) for _ in range(4)]

    first = boards(pyspiel.load_game("catandsl", params))
    assert len(set(first)) == 4
    assert first[0] == tuple(pyspiel.load_game("catandsl", params).engine.board.hex_terrain)  # the game of `seed`
    assert boards(pyspiel.load_game("catandsl", params)) == first
    game = pyspiel.load_game("catandsl", params)
    observer = game.make_py_observer()
    a, z = game.observer.observer.slices["hex_terrain"]
    for terrain in first:  # each episode's observation shows its own board
        observer.set_from(game.new_initial_state(), 0)
        assert tuple(observer.tensor[a:z].astype(int)) == terrain
