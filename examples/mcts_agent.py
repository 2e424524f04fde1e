"""A small Monte Carlo tree search over the engine's own calls: `clone()` to try a line
of play, `chance_outcomes()` to sample dice, steals and draws with their probabilities,
`legal_actions()` and `apply_action()`. Open-loop UCT: the tree is keyed by the
players' actions, chance is sampled afresh on every descent; a playout is a few random
actions, then the position is scored by victory points (a won game scores 1).

    python examples/mcts_agent.py            # MCTS (seat 0) against the random bot, a few games

`tests/embedding/test_examples.py` checks that it beats the random bot.
"""

from __future__ import annotations

import math
import random
import sys
from bisect import bisect_left
from pathlib import Path

import catandsl
from catandsl.players import RandomPlayer, play_game
from catandsl.rules.trade import TradeLookups


def candidates(state) -> list[int]:
    """The legal actions, opening a domestic offer left out as RandomPlayer leaves it out:
    composing one takes many steps, and a random bot never accepts wisely."""
    actions = state.legal_actions()
    new = state.game.lookups(TradeLookups).new_offer
    k = bisect_left(actions, new)
    if new >= 0 and k < len(actions) and actions[k] == new and len(actions) > 1:
        actions = actions[:k] + actions[k + 1:]
    return actions


def evaluate(s) -> list[float]:
    """Per seat, in 0..1: victory points, and a little for what the seat's buildings
    are likely to produce (dice pips of the numbered hexes they touch) and its cards."""
    g, b = s.game, s.game.board
    pips = [0.0] * g.num_players
    for total, hexes in enumerate(b.number_hexes):
        weight = 6 - abs(7 - total) if hexes else 0
        for h in hexes:
            for c in b.hex_corners[h]:
                if s.corner_owner[c] >= 0:
                    pips[s.corner_owner[c]] += weight * g.pieces[s.corner_piece[c]].produces
    scale = g.victory + 2.0
    return [min((pts + 0.05 * pip + 0.02 * sum(hand)) / scale, 0.99)
            for pts, pip, hand in zip(s.scores(), pips, s.hands)]


class Node:
    __slots__ = ("visits", "value", "children")

    def __init__(self) -> None:
        self.visits = 0
        self.value = 0.0  # summed outcome for the player who chose the action leading here
        self.children: dict[int, Node] = {}


class MCTSPlayer:
    def __init__(self, simulations: int = 24, playout: int = 16, c: float = 1.2, seed: int = 0):
        self.simulations, self.playout, self.c = simulations, playout, c
        self.rng = random.Random(seed)

    def choose(self, state) -> int:
        actions = candidates(state)
        if len(actions) == 1:
            return actions[0]
        root = Node()
        for _ in range(self.simulations):
            self._simulate(state.clone(), root)
        tried = [a for a in actions if a in root.children]
        return max(tried, key=lambda a: (root.children[a].value / root.children[a].visits, root.children[a].visits))

    def _chance(self, s) -> None:
        outcomes = s.chance_outcomes()
        x, acc = self.rng.random(), 0.0
        for a, p in outcomes:
            acc += p
            if x < acc:
                s.apply_action(a)
                return
        s.apply_action(outcomes[-1][0])

    def _simulate(self, s, root: Node) -> None:
        node, path = root, []  # path: (child node, the player who chose it)
        while not s.is_terminal():
            if s.is_chance_node():
                self._chance(s)
                continue
            player, actions = s.current_player(), candidates(s)
            untried = [a for a in actions if a not in node.children]
            if untried:
                a = self.rng.choice(untried)
                node.children[a] = child = Node()
                s.apply_action(a)
                path.append((child, player))
                break
            log_n = math.log(node.visits + 1)
            a = max(actions, key=lambda x: node.children[x].value / node.children[x].visits
                    + self.c * math.sqrt(log_n / node.children[x].visits))
            node = node.children[a]
            s.apply_action(a)
            path.append((node, player))
        values = self._playout(s)
        root.visits += 1
        for child, player in path:
            child.visits += 1
            child.value += values[player]

    def _playout(self, s) -> list[float]:
        for _ in range(self.playout):
            if s.is_terminal():
                break
            if s.is_chance_node():
                self._chance(s)
            else:
                s.apply_action(self.rng.choice(candidates(s)))
        if s.is_terminal():
            return [max(r, 0.0) for r in s.returns()]
        return evaluate(s)


def match(games: int, seed: int = 0, simulations: int = 24) -> int:
    """Games the MCTS player (seat 0) wins against the random bot on the seven-hex island."""
    scenario = catandsl.load(Path(__file__).with_name("seven_hex_island.catan"))
    wins = 0
    for k in range(games):
        game = catandsl.new_game(scenario, players=2, seed=seed + k)
        state, _ = play_game(game, [MCTSPlayer(simulations, seed=seed + k), RandomPlayer(seed + k)], log=False)
        wins += state.winner == 0
    return wins


if __name__ == "__main__":
    n = int(sys.argv[1]) if sys.argv[1:] else 6
    print(f"MCTS won {match(n)} of {n} games against the random bot")
