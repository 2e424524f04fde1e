"""The adapters (extra `rl`): PettingZoo's api_test and Gymnasium's check_env pass for
every shipped scenario, the latter without a warning on the registered ids
(`gymnasium.make("catandsl/Base-v0")`); the vector environment plays the games its
single environments play; OpenSpiel's random-simulation test and MCTS bot run on one."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest

from catandsl import resources

pytest.importorskip("pettingzoo", reason="the `rl` extra is not installed")  # CI installs it (.ci/run)
import gymnasium as gym  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402

from catandsl.adapters import load_scenario  # noqa: E402
from catandsl.adapters.gymnasium import EPISODE_STEPS, CatanEnv, env_id  # noqa: E402
from catandsl.adapters.pettingzoo import CatanAECEnv  # noqa: E402
from catandsl.adapters.vector import CatanVectorEnv  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = [s.name for s in resources.shipped_scenarios()]
TINY = str(ROOT / "examples" / "seven_hex_island.catan")


def players_for(name: str) -> int:
    """3 where the scenario plays 3, else its nearest count (5 for the 5-6 player island)."""
    sc = load_scenario(name)
    return min(max(3, sc.players_min), sc.players_max)


def test_every_shipped_scenario_is_offered():
    assert {"base", "traders_and_barbarians"} <= set(SHIPPED) and len(SHIPPED) >= 5


@pytest.mark.parametrize("name", SHIPPED)
def test_pettingzoo_api_test(name):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its advice to prefer a Box space: the mask needs a Dict
        api_test(CatanAECEnv(name, players=players_for(name), seed=0), num_cycles=20, verbose_progress=False)


@pytest.mark.parametrize("name", SHIPPED)
def test_gymnasium_make_and_check_env_say_nothing(name):
    env = gym.make(env_id(name), players=players_for(name))
    assert env.spec.id == env_id(name) and env.spec.max_episode_steps == EPISODE_STEPS
    assert env.unwrapped.scenario is load_scenario(name)  # (compiled once per process)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # any warning fails: check_env is silent
        check_env(env.unwrapped)


def test_every_shipped_scenario_is_registered_and_a_file_through_scenario_v0():
    ids = [k for k in gym.registry if k.startswith("catandsl/")]
    assert sorted(ids) == sorted([env_id(n) for n in SHIPPED] + ["catandsl/Scenario-v0"])
    assert env_id("heading_for_new_shores") == "catandsl/HeadingForNewShores-v0"
    env = gym.make("catandsl/Scenario-v0", scenario=TINY, players=2)
    obs, info = env.reset(seed=3)
    assert env.unwrapped.game.num_players == 2 and obs.shape == env.observation_space.shape and info["seed"] == 3
    with pytest.raises(TypeError):
        gym.make("catandsl/Scenario-v0")  # which scenario: a file or a name is needed


def test_a_pettingzoo_game_runs_to_its_end_with_masked_random_agents():
    env = CatanAECEnv(TINY, players=2)
    env.reset(seed=5)
    rng = np.random.default_rng(0)
    steps, final = 0, {}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            action, final[agent] = None, reward
        else:
            legal = np.flatnonzero(obs["action_mask"])
            action = int(rng.choice(legal))
        env.step(action)
        steps += 1
    assert env.state.is_terminal() and steps > 10
    assert sorted(final.values()) in ([-1.0, 1.0], [0.0, 0.0]) and env.agents == []


def test_gymnasium_terminates_on_a_win_and_refuses_a_masked_action():
    env = CatanEnv(TINY, players=2, seed=2)
    obs, _ = env.reset(seed=2)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    before = env.state.serialize()
    _, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated) == (-1.0, False, False) and info["illegal"].startswith("action/")
    assert env.state.serialize() == before
    rng = np.random.default_rng(1)
    done = False
    while not done:
        a = int(rng.choice(np.flatnonzero(env.action_masks())))
        obs, reward, terminated, truncated, info = env.step(a)
        done = terminated or truncated
    assert terminated and info["reason"] == "victory" and reward in (1.0, -1.0)
    assert env.observation_space.contains(obs)


def test_the_vector_env_plays_what_its_single_envs_play():
    envs = gym.make_vec("catandsl/Scenario-v0", num_envs=3, vectorization_mode="vector_entry_point",
                        scenario=TINY, players=2)
    assert isinstance(envs.unwrapped, CatanVectorEnv) and envs.observation_space.shape[0] == 3
    singles = [CatanEnv(TINY, players=2) for _ in range(3)]
    obs, infos = envs.reset(seed=20)
    for k, env in enumerate(singles):
        one, info = env.reset(seed=20 + k)
        assert np.array_equal(obs[k], one) and infos["seed"][k] == info["seed"]
    rng = np.random.default_rng(0)
    ended = np.zeros(3, bool)
    episodes = 0
    for _ in range(1500):
        masks = envs.unwrapped.action_masks()
        assert masks.dtype == bool and all(np.array_equal(m, e.action_masks()) for m, e in zip(masks, singles))
        actions = [int(rng.choice(np.flatnonzero(m))) if m.any() else 0 for m in masks]  # (an ended game: ignored)
        obs, rewards, terminated, truncated, _ = envs.step(actions)
        for k, env in enumerate(singles):
            if ended[k]:  # the vector reset this game at this step (autoreset): the single one too
                one, _ = env.reset()
                assert np.array_equal(obs[k], one) and rewards[k] == 0.0
                ended[k] = False
                continue
            one, reward, te, tr, _ = env.step(actions[k])
            assert np.array_equal(obs[k], one) and (rewards[k], terminated[k], truncated[k]) == (reward, te, tr)
            ended[k] = te or tr
            episodes += ended[k]
    assert episodes >= 3
    sync = gym.make_vec("catandsl/Scenario-v0", num_envs=2, vectorization_mode="sync", scenario=TINY, players=2)
    obs, _ = sync.reset(seed=20)
    assert np.array_equal(obs[0], singles[0].reset(seed=20)[0])


def test_gymnasium_opponents_by_a_bots_name():
    from catandsl.players import MCTSPlayer

    env = CatanEnv(TINY, players=2, seed=2, opponents="mcts:3")
    env.reset(seed=2)
    assert all(isinstance(b, MCTSPlayer) and b.budget == 3 for b in env.bots)
    with pytest.raises(ValueError):
        CatanEnv(TINY, players=2, seed=2, opponents="clever")


def test_openspiel_random_simulation_and_mcts():
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python.algorithms import mcts

    from catandsl.adapters import openspiel

    openspiel.register()
    game = pyspiel.load_game("catandsl", {"scenario": TINY, "players": 2, "seed": 3, "max_game_length": 300})
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)
    rng = np.random.RandomState(1)
    bot = mcts.MCTSBot(game, uct_c=2, max_simulations=6, evaluator=mcts.RandomRolloutEvaluator(1, rng),
                       random_state=rng)
    state, moves = game.new_initial_state(), 0
    while not state.is_terminal() and moves < 4:
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
            continue
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        moves += 1
    assert moves == 4
    observer = game.make_py_observer()
    observer.set_from(state, 0)
    assert observer.tensor.size == sum(v.size for v in observer.dict.values()) and observer.dict["seat"][0] == 1.0
