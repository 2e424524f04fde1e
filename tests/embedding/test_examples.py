"""The embedding examples run: the PettingZoo random agent and the masked Gymnasium loop
play full games, and the small MCTS over clone() and chance_outcomes() beats the random
bot: with 16 simulations a move, seeds 100..105, on the seven-hex island (2 players, 6
points), it must win at least 5 of the 6 games (the random bot in its seat would win
about half; 5 of 6 or better by luck alone has a chance of about 11%, and the seeds are
fixed, so the result is the same on every run).

The numpy policy (examples/numpy_policy.py), trained for 2,000 of its decisions, plays
20 games against the random bot (seeds 100..119) and must win at least 16 of them and
at least 4 more than a uniformly random player wins in its seat in the same games (8).
Trained from seeds 0..7 (at its learning rate of 0.2) it won 18, 18, 19, 18, 17, 20, 16
and 17; the seeds are fixed, so the count is the same on every run."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
sys.path.insert(0, str(EXAMPLES))

import mcts_agent  # noqa: E402


def test_mcts_beats_the_random_bot():
    assert mcts_agent.match(6, seed=100, simulations=16) >= 5


def test_the_numpy_policy_learns_to_beat_random():
    pytest.importorskip("numpy", reason="the `rl` extra is not installed")
    import numpy_policy

    trained = numpy_policy.train(2000, seed=0)
    won, by_chance = numpy_policy.match(trained, 20), numpy_policy.match(None, 20)
    assert won >= 16 and won >= by_chance + 4, (won, by_chance)


def test_the_rl_examples_play_full_games():
    pytest.importorskip("pettingzoo", reason="the `rl` extra is not installed")
    import gymnasium_masked
    import pettingzoo_random

    end = pettingzoo_random.play("base", seed=2)
    assert end["reason"] in ("victory", "turn_limit", "action_limit") and len(end["rewards"]) == 3
    for reward, terminated, truncated in gymnasium_masked.run("base", episodes=1):
        assert terminated != truncated and reward in (-1.0, 0.0, 1.0)
