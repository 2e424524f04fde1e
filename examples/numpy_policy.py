"""Train a small masked policy with numpy alone (pip install 'catandsl[rl]'), in the
Gymnasium environment with the feature observation, and play it against random.

The policy scores each legal action by its kind (the action's `kind` and piece, read
from the game's own action table: `build settlement`, `bank_trade`, `end_turn`, ...
whatever the scenario offers) and, per kind, by what the action's site yields (the pips
of the hexes around an intersection, from the `hex` rows of the feature observation); a
softmax over the legal actions only (the mask) picks. It learns by REINFORCE over the
first turns of many games: each decision is credited with what the seat gained after
it in the episode (victory points, `player[me].points` in the features, and a little
for each card its hand gained, `player[me].hand`), less the mean credit of decisions in
that turn. Turns are counted, not decisions, so ending turns sooner earns nothing. It
never opens a domestic offer (as the random bot by default): composing one is a run of
steps that gains nothing a turn's credit could tell apart, so a policy that learned to
like them would compose and withdraw drafts until the game's action limit.

    python examples/numpy_policy.py [STEPS] [GAMES]

`tests/embedding/test_examples.py` trains it for a few thousand steps and counts its
wins against the random bot beside those of a uniformly random player in its seat.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from catandsl.adapters.gymnasium import CatanEnv
from catandsl.engine.actions import NewOffer
from catandsl.players import RandomPlayer

TINY = str(Path(__file__).resolve().parent / "seven_hex_island.catan")
TURNS = 20  # a training episode: a game's first turns (its set-up, and what the set-up yields)
INCOME = 0.3  # credit per card the hand gains (production, mostly), beside a victory point's 1
SHARPER = 0.25  # the temperature in play: the preferences learned, four times as sharp


def action_kinds(game) -> tuple[list[str], np.ndarray]:
    """Each action's kind as an index: the names, and the index of every action id."""
    names: dict[str, int] = {}
    kind_of = np.zeros(game.num_distinct_actions(), np.intp)
    for a, act in enumerate(game.actions):
        piece = getattr(act, "piece", None)
        name = act.KIND + (f" {piece}" if isinstance(piece, str) else "")
        kind_of[a] = names.setdefault(name, len(names))
    return list(names), kind_of


def offer_opener(game) -> int:
    """The id of the action that opens a domestic offer, or -1 where the scenario has none."""
    return game.action_id.get(NewOffer(), -1)


def without_offers(mask: np.ndarray, opens_offer: int) -> np.ndarray:
    """The mask less opening a domestic offer, unless it is the only legal action."""
    if opens_offer >= 0 and mask[opens_offer] and mask.sum() > 1:
        mask = mask.copy()
        mask[opens_offer] = False
    return mask


def intersections_of(game) -> np.ndarray:
    """Each action's intersection (a settlement or city built there), or -1."""
    out = np.full(game.num_distinct_actions(), -1, np.intp)
    for a, act in enumerate(game.actions):
        where = game.action_site(act)
        if where is not None and where[0] == "intersection":
            out[a] = where[1]
    return out


class Policy:
    """Per action kind: a preference, and a weight on what the action's site yields."""

    def __init__(self, env: CatanEnv, rng: np.random.Generator, temperature: float = 1.0):
        g, f = env.game, env.observer
        self.names, self.kind_of = action_kinds(g)
        self.site_of = intersections_of(g)
        hexes = f.blocks["hex"]
        self.pips = hexes.start + np.arange(hexes.rows) * len(hexes.columns) + hexes.columns.index("pips")
        self.around = np.zeros((len(g.board.intersections) + 1, hexes.rows))  # (the last row: no site)
        for c, around in enumerate(g.board.corner_hexes):
            self.around[c, list(around)] = 1.0
        self.points = f.names.index("player[me].points")
        self.hand = f.names.index("player[me].hand")
        self.opens_offer = offer_opener(g)
        self.bias = np.zeros(len(self.names))
        self.site = np.zeros(len(self.names))
        self.rng = rng
        self.temperature = temperature

    def act(self, obs: np.ndarray, mask: np.ndarray) -> tuple[int, tuple]:
        """An action drawn from the policy, and what learning from it needs."""
        legal = np.flatnonzero(without_offers(mask, self.opens_offer))
        kinds = self.kind_of[legal]
        yields = self.around[self.site_of[legal]] @ obs[self.pips] / 10.0  # pips around each site
        logits = (self.bias[kinds] + self.site[kinds] * yields) / self.temperature
        p = np.exp(logits - logits.max())
        p /= p.sum()
        k = min(int(np.searchsorted(np.cumsum(p), self.rng.random())), len(legal) - 1)
        return int(legal[k]), (k, kinds, yields, p)

    def learn(self, episode: list, advantage: np.ndarray, rate: float) -> None:
        """REINFORCE: raise the log-probability of each action taken by its advantage."""
        K = len(self.bias)
        for (k, kinds, yields, p), adv in zip(episode, advantage):
            grad = np.bincount(kinds, weights=-p, minlength=K)
            grad[kinds[k]] += 1.0
            grad_site = np.bincount(kinds, weights=-p * yields, minlength=K)
            grad_site[kinds[k]] += yields[k]
            self.bias += rate * adv * grad
            self.site += rate * adv * grad_site


def train(steps: int = 3000, seed: int = 0, rate: float = 0.2, scenario: str = TINY) -> Policy:
    """A policy trained for `steps` of the learner's decisions (seat 0 of 2, the other a
    RandomPlayer), in episodes of the first TURNS turns of games drawn from the
    environment's generator after `seed`."""
    env = CatanEnv(scenario, players=2, seed=seed, observation="features")
    policy = Policy(env, np.random.default_rng(seed))
    baseline = np.zeros(TURNS + 2)  # the mean credit of a decision in each turn
    done = 0
    while done < steps:
        obs, _ = env.reset()
        episode, gains, turns = [], [], []
        over = False
        while not over:
            points, hand = obs[policy.points], obs[policy.hand]
            a, taken = policy.act(obs, env.action_masks())
            turns.append(min(env.state.turns, TURNS + 1))
            obs, reward, terminated, truncated, _ = env.step(a)
            episode.append(taken)
            gains.append(obs[policy.points] - points + INCOME * max(obs[policy.hand] - hand, 0.0) + reward)
            over = terminated or truncated or env.state.turns > TURNS
            done += 1
        credit = np.cumsum(np.asarray(gains)[::-1])[::-1]  # what followed each decision
        at = np.asarray(turns)
        for t in np.unique(at):
            baseline[t] += 0.1 * (credit[at == t].mean() - baseline[t])
        policy.learn(episode, credit - baseline[at], rate)
    return policy


def match(choose, games: int, seed: int = 100, scenario: str = TINY) -> int:
    """Games won in seat 0 against a RandomPlayer (seeded from each game) by `choose`
    (obs, mask, rng -> an action id: a trained Policy plays at the SHARPER temperature),
    or uniformly at random among the legal actions when None; the games are those of
    seeds `seed`, `seed + 1`, ..."""
    if isinstance(choose, Policy):
        policy = choose
        policy.temperature = SHARPER

        def choose(obs, mask, rng):
            policy.rng = rng
            return policy.act(obs, mask)[0]
    env = CatanEnv(scenario, players=2, observation="features")
    rng = np.random.default_rng(seed)
    wins = 0
    for k in range(games):
        env.opponents = [None, RandomPlayer(seed + k)]
        obs, _ = env.reset(seed=seed + k)
        over, reward = False, 0.0
        while not over:
            mask = env.action_masks()
            a = choose(obs, mask, rng) if choose is not None else int(rng.choice(np.flatnonzero(mask)))
            obs, reward, terminated, truncated, _ = env.step(a)
            over = terminated or truncated
        wins += reward > 0
    return wins


if __name__ == "__main__":
    steps = int(sys.argv[1]) if sys.argv[1:] else 3000
    games = int(sys.argv[2]) if sys.argv[2:] else 40
    trained = train(steps)
    print(f"trained for {steps} steps; kinds it prefers most: "
          + ", ".join(trained.names[k] for k in np.argsort(-trained.bias)[:4])
          + f"; weight on a settlement's site: {trained.site[trained.names.index('build settlement')]:.2f}")
    print(f"wins in {games} games against the random bot: trained {match(trained, games)}, "
          f"uniformly random {match(None, games)}")
