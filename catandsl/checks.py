"""The last stage of `check`: start a game and play a few random legal moves, so a
scenario the engine cannot run is reported like any other error (E0701, at the rule's
line). It sits above the compiler and the engine: the compiler never plays."""

from __future__ import annotations

import random
from pathlib import Path

from catandsl.compiler import compile_ast, compile_path
from catandsl.diagnostics import Diagnostic, Sources, Span
from catandsl.ir import model

CHECK_SEED = 1
TRIAL_ACTIONS = 120


def trial_play(scenario: model.Scenario, players: int, options: dict[str, str], span: Span
               ) -> Diagnostic | None:
    from catandsl.engine import EngineError, new_game

    rng = random.Random(f"check:{players}")
    try:
        state = new_game(scenario, players, options, CHECK_SEED).new_initial_state()
        for _ in range(TRIAL_ACTIONS):
            if state.is_terminal():
                break
            if state.is_chance_node():
                state.apply_action(state.sample_chance())
                continue
            legal = state.legal_actions()
            if not legal:
                return Diagnostic("E0701", f"the game stops with nothing to do for player "
                                  f"{state.current_player() + 1}", span,
                                  help="a prompt or phase offers no action; check the turn and the rules")
            state.apply_action(rng.choice(legal))
    except EngineError as e:
        src = e.source
        where = Span(src.file, src.line, src.column) if src is not None else span
        return Diagnostic("E0701", f"the engine cannot run this scenario: {e.message}", where,
                          help="this rule asks for something the engine cannot do")
    return None


def trial_diagnostics(scenario: model.Scenario, span: Span) -> list[Diagnostic]:
    """The trial games of a compiled scenario: the fewest and the most players, with the
    default options (set-up and map variants differ most there)."""
    defaults = {o.name: o.default for o in scenario.options}
    for players in sorted({scenario.players_min, scenario.players_max}):
        d = trial_play(scenario, players, defaults, span)
        if d is not None:
            return [d]
    return []


def check_ast(tree, sources: Sources | None = None, root: Path | None = None
              ) -> tuple[model.Scenario | None, list[Diagnostic]]:
    """Every stage of `check` on a parsed file: compile, then the trial games."""
    scenario, diags = compile_ast(tree, sources, root)
    if scenario is None or not _is_scenario(tree):
        return scenario, diags
    extra = trial_diagnostics(scenario, tree.span)
    return (None if extra else scenario), diags + extra


def check_path(path: str | Path) -> tuple[model.Scenario | None, list[Diagnostic], Sources]:
    """Every stage of `check` on a file: read, parse, compile, then the trial games."""
    scenario, diags, sources = compile_path(path)
    if scenario is None or not scenario.sections or is_library(scenario):
        return scenario, diags, sources
    extra = trial_diagnostics(scenario, Span(str(path), 1, 1))
    return (None if extra else scenario), diags + extra, sources


def _is_scenario(tree) -> bool:
    from catandsl.syntax import ast

    return any(isinstance(i, ast.Scenario) for i in tree.items)


def is_library(scenario: model.Scenario) -> bool:
    """A file of rulesets alone (no map anywhere) is a library: it is not played."""
    return not any(isinstance(d, model.Map) for sec in scenario.sections for d in sec.decls)
