"""The turn interpreter: plays any compiled scenario from its Ruleset and Board.

    game = new_game(scenario, players=4, seed=7)
    state = game.new_initial_state()
    while not state.is_terminal():
        a = state.sample_chance() if state.is_chance_node() else pick(state.legal_actions())
        state.apply_action(a)
"""

from catandsl.engine import actions
from catandsl.engine.errors import ArgumentError, EngineError, IllegalAction, StateError
from catandsl.engine.game import Game, new_game
from catandsl.engine.state import State
from catandsl.rules.base import CHANCE, TERMINAL

__all__ = ["actions", "ArgumentError", "EngineError", "IllegalAction", "StateError", "Game", "new_game", "State",
           "CHANCE", "TERMINAL"]
