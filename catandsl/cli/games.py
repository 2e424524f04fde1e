"""The commands that play games: `play` (one game, its log), `simulate` (many games, their
statistics and records) and `engine` (games driven by another program over JSON lines).

Text output names seats P1..Pn; JSON output and records number them from 0, as the API does.
"""

from __future__ import annotations

import json
import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from catandsl.cli.arguments import (
    Format,
    board_failed,
    bot_names,
    check_outputs,
    compile_or_exit,
    parse_options,
    scenario_path,
    write_output,
)
from catandsl.cli.common import EXIT_ERRORS, console, fail, say, simulate_with_progress
from catandsl.diagnostics import printable

app = typer.Typer()

BOTS_HELP = "comma-separated: random, greedy, mcts, mcts:N (cycled over seats)"


class Backend(StrEnum):
    """Where `simulate` plays its games."""

    local = "local"
    ray = "ray"


@app.command()
def play(
    file: Annotated[str, typer.Argument(help="the .catan file (or a shipped scenario's name)")],
    players: Annotated[int | None, typer.Option("--players", help="player count (default: the most)")] = None,
    seed: Annotated[int, typer.Option("--seed", help="the seed of the board and the dice")] = 1,
    bots: Annotated[str, typer.Option("--bots", help=BOTS_HELP)] = "random",
    option: Annotated[list[str] | None, typer.Option("--option", help="NAME=ITEM, repeatable")] = None,
    fmt: Annotated[Format, typer.Option("--format", help="text (the log) or json (a summary)")] = Format.text,
    log: Annotated[Path | None, typer.Option("--log", help="also write the readable log to this file")] = None,
    picture: Annotated[Path | None, typer.Option(
        "--svg", help="also draw the final state (board and pieces) to this SVG")] = None,
    html: Annotated[Path | None, typer.Option(
        "--html", help="also write a self-contained HTML page replaying the game")] = None,
) -> None:
    """Bots play one game; print a readable log and the final scores."""
    from catandsl.board import BoardError
    from catandsl.engine import EngineError, IllegalAction, new_game
    from catandsl.engine.queries import winners
    from catandsl.ir import ConfigurationError
    from catandsl.players import make_bot, play_game
    from catandsl.players.base import log_lines, seat_name
    from catandsl.render.titles import game_title

    names = bot_names(bots)
    path = scenario_path(file)
    check_outputs([(log, "--log"), (picture, "--svg"), (html, "--html")], (path,))
    options = parse_options(option)
    scenario = compile_or_exit(path)
    try:
        game = new_game(scenario, players or scenario.players_max, options, seed)
    except ConfigurationError as e:
        fail(str(e))
    except BoardError as e:
        board_failed(e, seed, fmt)
    n = game.num_players
    seats = [make_bot(names[i % len(names)], seed * 100 + i) for i in range(n)]
    try:
        state, entries = play_game(game, seats, seed=seed)
    except (EngineError, IllegalAction) as e:
        fail(f"the game stopped: {e}", EXIT_ERRORS)
    lines = log_lines(entries)
    scores = state.scores()
    won = winners(state)
    summary = {
        "scenario": scenario.title, "players": n, "seed": seed, "bots": [names[i % len(names)] for i in range(n)],
        "winner": state.winner if state.winner >= 0 else None, "winners": won, "scores": scores,
        "victory_target": game.victory, "turns": state.turns, "reason": state.reason, "actions": len(entries),
    }
    who = " and ".join(seat_name(p) for p in won) or "none"
    result = [f"winner: {who} ({state.reason}) after {state.turns} turns; scores "
              + ", ".join(f"{seat_name(i)} {v}" for i, v in enumerate(scores))]
    title = game_title(scenario, n, options, seed)
    if log:
        write_output(log, "\n".join(lines + result) + "\n", "--log")
    if picture:
        from catandsl.render.state_svg import render_state

        write_output(picture, render_state(game, state, title=title), "--svg")
    if html:
        from catandsl.render.replay import render_replay

        write_output(html, render_replay(game, entries, title=title), "--html")
    if fmt == Format.json:
        print(json.dumps(summary))
    else:
        print(printable("\n".join(lines + result)))


@app.command()
def simulate(
    file: Annotated[str, typer.Argument(help="the .catan file (or a shipped scenario's name)")],
    games: Annotated[int, typer.Option("--games", min=1, help="how many games")] = 100,
    workers: Annotated[int, typer.Option("--workers", min=1, help="processes playing games in parallel")] = 1,
    seed: Annotated[int, typer.Option(
        "--seed", help="the run's seed; game i gets a seed derived from it and i")] = 1,
    players: Annotated[int | None, typer.Option("--players", help="player count (default: the most)")] = None,
    bots: Annotated[str, typer.Option("--bots", help=BOTS_HELP)] = "random",
    option: Annotated[list[str] | None, typer.Option("--option", help="NAME=ITEM, repeatable")] = None,
    fmt: Annotated[Format, typer.Option("--format", help="text (a table) or json (a summary)")] = Format.text,
    out: Annotated[Path | None, typer.Option(
        "--out", help="also write one record per game: games.jsonl (JSON lines) or games.parquet "
                      "(needs pyarrow)")] = None,
    actions: Annotated[bool, typer.Option(
        "--actions", help="with --out: each record also lists every action of its game")] = False,
    backend: Annotated[Backend, typer.Option(
        "--backend", help="local (processes on this machine) or ray (needs catandsl[ray])")] = Backend.local,
    address: Annotated[str | None, typer.Option(
        "--address", help="with --backend ray: the cluster to join (default: a local Ray instance of "
                          "--workers CPUs)")] = None,
) -> None:
    """Bots play many games; print win rate per seat, turn-cap share, mean turns, speed; --out records each."""
    from catandsl.board import BoardError
    from catandsl.engine import EngineError, new_game
    from catandsl.ir import ConfigurationError
    from catandsl.records import RecordsUnavailable, Run, open_records, records_format
    from catandsl.simulate import simulate as run

    if address is not None and backend != Backend.ray:
        fail("--address is for --backend ray")
    if backend == Backend.ray:
        import importlib.util

        if importlib.util.find_spec("ray") is None:
            fail("--backend ray needs Ray: pip install 'catandsl[ray]'")
    if actions and out is None:
        fail("--actions is for --out: the records hold the actions")
    names = tuple(bot_names(bots))
    path = scenario_path(file)
    check_outputs([(out, "--out")], (path,))
    if out is not None:
        try:
            records_format(out)
        except RecordsUnavailable as e:
            fail(f"cannot write {out} (--out): {e}")
    scenario = compile_or_exit(path)
    options = parse_options(option)
    n = players or scenario.players_max
    try:  # a configuration problem is a usage error, found before any worker starts
        game = new_game(scenario, n, options, seed)
    except ConfigurationError as e:
        fail(str(e))
    except BoardError as e:
        board_failed(e, seed, fmt)
    except EngineError as e:
        fail(f"the game cannot start: {e}", EXIT_ERRORS)
    sink = None
    if out is not None:
        try:
            sink = open_records(out, Run(scenario.name, seed, n, names, dict(game.ruleset.options)), actions)
        except OSError as e:
            fail(f"cannot write {out} (--out): {e.strerror or e}")
    try:
        summary = simulate_with_progress(run, path, games, seed=seed, players=n, workers=workers, bots=names,
                                         options=options, backend=backend.value, address=address,
                                         history=actions, on_result=sink.write if sink else None)
    finally:
        if sink is not None:
            sink.close()
    data = summary.to_json()
    data["scenario"] = scenario.title
    if fmt == Format.json:
        print(json.dumps(data))
    else:
        _print_simulation(data)
    if data["errors"]:
        for err in data["errors"][:5]:
            print(printable(f"catandsl: game {err['game']} (seed {err['seed']}) stopped: {err['error']}"),
                  file=sys.stderr)
        raise typer.Exit(EXIT_ERRORS)


def _print_simulation(data: dict) -> None:
    from rich.table import Table

    n = data["games"]
    say(f"{data['scenario']}: {n} games, {data['players']} players, seed {data['seed']}, "
        f"{data['workers']} worker{'s' if data['workers'] != 1 else ''}")
    table = Table("seat", "bot", "wins", "win rate", "mean VP")
    for p in range(data["players"]):
        table.add_row(f"P{p + 1}", data["bots"][p], str(data["wins"][p]), f"{100 * data['win_rate'][p]:.1f}%",
                      f"{data['mean_scores'][p]:.2f}")
    out = console()
    out.print(table)
    out.print(f"no winner (turn cap): {data['no_winner']} ({100 * data['turn_cap_share']:.1f}%)")
    out.print(f"mean turns: {data['mean_turns']:.1f}; mean actions: {data['mean_actions']:.1f}")
    out.print(f"games per second: {data['games_per_second']} ({data['seconds']:.2f} s)")


@app.command()
def engine() -> None:
    """Serve the embedding API as JSON lines on stdin/stdout (docs/embedding.md)."""
    from catandsl.protocol import serve

    raise typer.Exit(serve())
