"""catandsl: a language and runtime for Catan scenarios.

The stages are public functions, each returning a value or raising `CatanError`
carrying every diagnostic it found::

    tree = catandsl.parse(text, "island.catan")
    problems = catandsl.check(tree)          # list of Diagnostic, empty when clean
    scenario = catandsl.compile(tree)        # the IR (catandsl.ir.Scenario)
    scenario = catandsl.load("scenarios/base.catan")   # all stages from a path
    board = catandsl.board_for(scenario, players=4, seed=7)
    game = catandsl.new_game(scenario, players=4, seed=7)
    state = game.new_initial_state()         # OpenSpiel-style: legal_actions, apply_action
    pos = catandsl.position(game)            # a position built by hand (catandsl.Position)
    catandsl.queries.route_length(state, 0)  # questions about a state (docs/embedding.md)
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from catandsl.diagnostics import CatanError, Diagnostic, Sources, Span
    from catandsl.syntax.ast import File

# Nothing is imported here at the start: `catandsl --version` and every command load
# only the stages they use (the parser alone costs as much as starting Python).
__version__ = "0.1.0"


def parse(text: str | bytes, filename: str = "<input>") -> File:
    """One file's text (a str, or the bytes of a file: UTF-8) -> its AST, or CatanError
    with the diagnostics; ArgumentError for a text or file name of another type."""
    if not isinstance(text, (str, bytes)) or not isinstance(filename, str):
        from catandsl.engine import ArgumentError

        raise ArgumentError(f"parse takes a file's text (str, or bytes in UTF-8) and its name (str), "
                            f"not {type(text).__name__} and {type(filename).__name__}")
    from catandsl.syntax.parser import parse as parse_text

    return parse_text(text, filename)


def check(tree) -> list[Diagnostic]:
    """Every diagnostic of a parsed file (errors and warnings), a trial game included."""
    from catandsl.checks import check_ast

    _, diags = check_ast(tree)
    return diags


def compile(tree):  # noqa: A001 - the stage is called compile
    """A parsed file -> its IR, or CatanError."""
    from catandsl.compiler import compile_ast
    from catandsl.diagnostics import CatanError

    scenario, diags = compile_ast(tree)
    if scenario is None:
        raise CatanError(diags)
    return scenario


def load(path: str | Path):
    """A .catan file -> its IR (all stages, the trial game included), or CatanError."""
    from catandsl.checks import check_path
    from catandsl.diagnostics import CatanError

    scenario, diags, _ = check_path(path)
    if scenario is None:
        raise CatanError(diags)
    return scenario


def board_for(scenario, players: int | None = None, options: dict | None = None, seed: int = 0):
    """One concrete board of a compiled scenario (or of a .catan file given by its path),
    for a player count (the most the scenario allows by default), options and seed: the
    arguments as `new_game` takes them."""
    from catandsl.board import instantiate
    from catandsl.engine.game import check_arguments
    from catandsl.ir import configure

    if isinstance(scenario, (str, Path)):
        scenario = load(scenario)
    sc, n, opts, seed_n = check_arguments("board_for", scenario, players, options, seed)
    return instantiate(configure(sc, n, opts), seed_n)


def new_game(scenario, players: int | None = None, options: dict | None = None, seed: int = 0):
    """A game of a compiled scenario, or of a .catan file given by its path, for a player
    count (the most the scenario allows by default), options and seed."""
    from catandsl.engine import new_game as _new_game

    if isinstance(scenario, (str, Path)):
        scenario = load(scenario)
    return _new_game(scenario, players, options, seed)


def position(game, state=None, *, players: int | None = None, options: dict | None = None, seed: int = 0):
    """A position builder (`catandsl.Position`) on a game's blank first turn, or on a
    copy of `state`: see docs/embedding.md. `game` is a Game, or a scenario or .catan
    path to start one from (with `players`, `options`, `seed` as for `new_game`)."""
    from catandsl.engine import Game
    from catandsl.engine.position import Position

    if not isinstance(game, Game):
        game = new_game(game, players, options, seed)
    return Position(game, state)


def __getattr__(name: str):
    """The embedding API, imported on first use: `Position`, `queries`, `Observer`,
    `Scenario` (the IR's root type, with `Scenario.from_json`), and the diagnostics'
    types `CatanError`, `Diagnostic`, `Sources`, `Span`."""
    if name in ("CatanError", "Diagnostic", "Sources", "Span"):
        from catandsl import diagnostics

        return getattr(diagnostics, name)
    if name == "Position":
        from catandsl.engine.position import Position

        return Position
    if name == "queries":
        from catandsl.engine import queries

        return queries
    if name == "Observer":
        from catandsl.engine.observer import Observer

        return Observer
    if name == "Scenario":
        from catandsl.ir.model import Scenario

        return Scenario
    raise AttributeError(f"module 'catandsl' has no attribute {name!r}")


__all__ = ["position", "Position", "queries", "Observer", "Scenario", "new_game", "CatanError", "Diagnostic",
           "Sources", "Span", "parse", "check", "compile", "load", "board_for"]
