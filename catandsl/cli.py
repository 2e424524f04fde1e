"""The `catandsl` command.

Exit codes: 0 fine, 1 diagnostics with errors, 2 usage error. Every error a user can
cause is printed as a diagnostic; an unexpected exception is reported as an internal
error with a request to file a bug (exit 70), never as a raw traceback.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Protocol, TypeGuard

from catandsl.diagnostics import printable

EXIT_OK, EXIT_ERRORS, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 70


def main(argv: list[str] | None = None) -> int:
    try:
        import typer  # noqa: F401
    except ImportError:
        print("catandsl: the command line needs its extras: pip install 'catandsl[cli]'", file=sys.stderr)
        return EXIT_USAGE
    from typer.main import get_command

    command = get_command(_app())
    try:
        command.main(args=argv if argv is not None else sys.argv[1:], prog_name="catandsl",
                     standalone_mode=False)
    except SystemExit as e:  # typer.Exit inside commands
        return int(e.code or 0)
    except _Exit as e:
        return e.code
    except KeyboardInterrupt:
        return 130
    except Exception as e:  # noqa: BLE001 - the last line of defence against tracebacks
        if _is_usage_error(e):
            e.show()
            return EXIT_USAGE
        print(printable(f"catandsl: internal error: {type(e).__name__}: {e}\n"
                        "This is a bug in catandsl, not in your file; please report it with the file "
                        "that caused it."), file=sys.stderr)
        return EXIT_INTERNAL
    return EXIT_OK


class _Exit(Exception):
    def __init__(self, code: int):
        self.code = code


class _UsageError(Protocol):
    def show(self) -> None: ...


def _is_usage_error(e: Exception) -> TypeGuard[_UsageError]:
    # typer ships its own copy of click; its errors are ClickExceptions with .show()
    import typer

    click_error = next(c for c in typer.BadParameter.__mro__ if c.__name__ == "ClickException")
    return isinstance(e, click_error)


def _console(stderr: bool = False):
    from rich.console import Console

    return Console(stderr=stderr, highlight=False, soft_wrap=True)


def _print_diagnostics(diags, sources, fmt: str) -> None:
    from catandsl.diagnostics import format_text, to_json

    if fmt == "json":
        print(to_json(diags))
        return
    err = _console(stderr=True)
    for d in diags:
        colour = "red" if d.is_error else "yellow"
        text = format_text(d, sources)
        head, _, rest = text.partition("\n")
        err.print(f"[bold {colour}]{_escape(head)}[/]")
        if rest:
            err.print(_escape(rest))
        err.print()


def _escape(text: str) -> str:
    """Text from a file for rich to print: markup and control characters escaped."""
    from rich.markup import escape

    return escape(printable(text))


def _compile_or_exit(file: Path, fmt: str = "text"):
    from catandsl.checks import check_path

    scenario, diags, sources = check_path(file)
    if diags:
        _print_diagnostics(diags, sources, fmt)
    if scenario is None:
        raise _Exit(EXIT_ERRORS)
    return scenario


def _check_format(fmt: str) -> None:
    if fmt not in ("text", "json"):
        import typer

        raise typer.BadParameter(f"{fmt!r}: use text or json", param_hint="--format")


def _parse_options(pairs: list[str]) -> dict[str, str]:
    out = {}
    for p in pairs or []:
        if "=" not in p:
            import typer

            raise typer.BadParameter(f"{p!r}: write options as NAME=ITEM", param_hint="--option")
        k, v = p.split("=", 1)
        out[k.strip()] = v.strip()
    return out


def _app():
    import typer

    app = typer.Typer(
        add_completion=False,
        no_args_is_help=True,
        help="A language and runtime for Catan scenarios.",
        pretty_exceptions_enable=False,
    )

    @app.command()
    def check(
        files: list[Path] = typer.Argument(..., help=".catan files to check"),
        format: str = typer.Option("text", "--format", help="text or json"),
    ):
        """Parse and check scenario files; print every diagnostic."""
        from catandsl.checks import check_path

        _check_format(format)
        failed = False
        all_json = []
        for f in files:
            scenario, diags, sources = check_path(f)
            if format == "json":
                all_json.append({"file": str(f), "ok": scenario is not None,
                                 "diagnostics": [d.to_json() for d in diags]})
            else:
                _print_diagnostics(diags, sources, "text")
                if scenario is not None:
                    _console().print(f"[green]ok[/] {_escape(str(f))}: {_escape(scenario.title)} "
                                     f"({scenario.players_min}-{scenario.players_max} players)")
            failed |= scenario is None
        if format == "json":
            print(json.dumps(all_json, indent=2))
        raise _Exit(EXIT_ERRORS if failed else EXIT_OK)

    @app.command("compile")
    def compile_(
        file: Path = typer.Argument(..., help="the .catan file"),
        as_json: bool = typer.Option(True, "--json/--summary", help="print the IR as JSON"),
        output: Path = typer.Option(None, "-o", "--output", help="write to a file"),
    ):
        """Compile a scenario and print its IR (validated against the schema)."""
        from catandsl import ir

        scenario = _compile_or_exit(file)
        data = ir.to_json(scenario)
        text = json.dumps(data, indent=2) if as_json else (
            f"{scenario.title}: {len(scenario.sections)} sections, {len(scenario.options)} options")
        if output:
            output.write_text(text + "\n", encoding="utf-8")
        else:
            print(text)

    @app.command()
    def schema():
        """Print the JSON Schema (draft 2020-12) of the compiled scenario."""
        from catandsl import ir

        print(json.dumps(ir.json_schema(), indent=2))

    @app.command()
    def render(
        file: Path = typer.Argument(..., help="the .catan file"),
        output: Path = typer.Option(..., "-o", "--output", help="board.svg or board.png"),
        seed: int = typer.Option(1, "--seed", help="the seed that shuffles pools"),
        players: int = typer.Option(None, "--players", help="player count (default: the most)"),
        option: list[str] = typer.Option([], "--option", help="NAME=ITEM, repeatable"),
        coordinates: bool = typer.Option(False, "--coordinates", help="label hexes with (q, r)"),
    ):
        """Draw one board of a scenario as SVG (or PNG)."""
        from catandsl.board import BoardError, instantiate
        from catandsl.ir import ConfigurationError, configure
        from catandsl.render.svg import render_board, render_png

        scenario = _compile_or_exit(file)
        try:
            rs = configure(scenario, players or scenario.players_max, _parse_options(option))
            board = instantiate(rs, seed)
        except (ConfigurationError, BoardError) as e:
            print(printable(f"catandsl: {e}"), file=sys.stderr)
            raise _Exit(EXIT_USAGE if isinstance(e, ConfigurationError) else EXIT_ERRORS) from None
        svg = render_board(board, coordinates=coordinates, title=f"{scenario.title} — seed {seed}")
        suffix = output.suffix.lower()
        if suffix == ".png":
            try:
                render_png(svg, output)
            except RuntimeError as e:
                print(printable(f"catandsl: {e}"), file=sys.stderr)
                raise _Exit(EXIT_USAGE) from None
        elif suffix == ".svg":
            output.write_text(svg, encoding="utf-8")
        else:
            raise typer.BadParameter("the output must end in .svg or .png", param_hint="-o")
        _console().print(f"wrote {_escape(str(output))}: {len(board.hexes)} hexes")

    @app.command()
    def play(
        file: Path = typer.Argument(..., help="the .catan file"),
        players: int = typer.Option(None, "--players", help="player count (default: the most)"),
        seed: int = typer.Option(1, "--seed", help="the seed of the board and the dice"),
        bots: str = typer.Option("random", "--bots", help="comma-separated: random, greedy (cycled over seats)"),
        option: list[str] = typer.Option([], "--option", help="NAME=ITEM, repeatable"),
        fmt: str = typer.Option("text", "--format", help="text (the log) or json (a summary)"),
        log: Path = typer.Option(None, "--log", help="also write the readable log to this file"),
        picture: Path = typer.Option(None, "--svg", help="also draw the final state (board and pieces) to this SVG"),
        html: Path = typer.Option(None, "--html", help="also write a self-contained HTML page replaying the game"),
    ):
        """Bots play one game; print a readable log and the final scores."""
        _check_format(fmt)
        from catandsl.engine import EngineError, IllegalAction, new_game
        from catandsl.ir import ConfigurationError
        from catandsl.players import BOTS, play_game

        scenario = _compile_or_exit(file)
        names = [b.strip() for b in bots.split(",") if b.strip()]
        unknown = [b for b in names if b not in BOTS]
        if unknown or not names:
            raise typer.BadParameter(f"unknown bot {unknown[0] if unknown else '(none)'}; bots: {', '.join(BOTS)}",
                                     param_hint="--bots")
        try:
            game = new_game(scenario, players or scenario.players_max, _parse_options(option), seed)
        except ConfigurationError as e:
            print(printable(f"catandsl: {e}"), file=sys.stderr)
            raise _Exit(EXIT_USAGE) from None
        n = game.num_players
        seats = [BOTS[names[i % len(names)]](seed * 100 + i) for i in range(n)]
        try:
            state, entries = play_game(game, seats, seed=seed)
        except (EngineError, IllegalAction) as e:
            print(printable(f"catandsl: the game stopped: {e}"), file=sys.stderr)
            raise _Exit(EXIT_ERRORS) from None
        lines = []
        for entry in entries:
            lines.append(f"{_seat(entry['player'])}: {entry['text']}")
            lines.extend(f"      {note}" for note in entry.get("notes", ()))
        scores = state.scores()
        winner = state.winner if state.winner is not None and state.winner >= 0 else None
        summary = {
            "scenario": scenario.title, "players": n, "seed": seed, "bots": [names[i % len(names)] for i in range(n)],
            "winner": winner, "scores": scores, "victory_target": game.victory,
            "turns": state.turns, "reason": state.reason, "actions": len(entries),
        }
        if getattr(state, "winners", None):  # a shared victory (end_game's tie_break)
            summary["winners"] = list(state.winners)
        result = [f"winner: {'P' + str(winner + 1) if winner is not None else 'none'} ({state.reason}) "
                  f"after {state.turns} turns; scores " + ", ".join(f"P{i + 1} {v}" for i, v in enumerate(scores))]
        if log:
            log.write_text("\n".join(lines + result) + "\n", encoding="utf-8")
        if picture:
            from catandsl.render.state_svg import render_state

            picture.write_text(render_state(game, state, title=f"{scenario.title} — seed {seed}"),
                               encoding="utf-8")
        if html:
            from catandsl.render.replay import render_replay

            html.write_text(render_replay(game, entries, title=f"{scenario.title} — seed {seed}"),
                            encoding="utf-8")
        if fmt == "json":
            print(json.dumps(summary))
        else:
            print(printable("\n".join(lines + result)))

    @app.command()
    def simulate(
        file: Path = typer.Argument(..., help="the .catan file"),
        games: int = typer.Option(100, "--games", min=1, help="how many games"),
        workers: int = typer.Option(1, "--workers", min=1, help="processes playing games in parallel"),
        seed: int = typer.Option(1, "--seed", help="the run's seed; game i gets a seed derived from it and i"),
        players: int = typer.Option(None, "--players", help="player count (default: the most)"),
        bots: str = typer.Option("random", "--bots", help="comma-separated: random, greedy (cycled over seats)"),
        option: list[str] = typer.Option([], "--option", help="NAME=ITEM, repeatable"),
        fmt: str = typer.Option("text", "--format", help="text (a table) or json (a summary)"),
    ):
        """Bots play many games; print win rate per seat, turn-cap share, mean turns, speed."""
        from catandsl.engine import EngineError, new_game
        from catandsl.ir import ConfigurationError
        from catandsl.players import BOTS
        from catandsl.simulate import simulate as run

        _check_format(fmt)
        scenario = _compile_or_exit(file)
        names = tuple(b.strip() for b in bots.split(",") if b.strip())
        unknown = [b for b in names if b not in BOTS]
        if unknown or not names:
            raise typer.BadParameter(f"unknown bot {unknown[0] if unknown else '(none)'}; bots: random, greedy",
                                     param_hint="--bots")
        options = _parse_options(option)
        n = players or scenario.players_max
        try:  # a configuration problem is a usage error, found before any worker starts
            new_game(scenario, n, options, seed)
        except ConfigurationError as e:
            print(printable(f"catandsl: {e}"), file=sys.stderr)
            raise _Exit(EXIT_USAGE) from None
        except EngineError as e:
            print(printable(f"catandsl: the game cannot start: {e}"), file=sys.stderr)
            raise _Exit(EXIT_ERRORS) from None
        summary = _simulate_with_progress(run, file, games, seed=seed, players=n, workers=workers,
                                          bots=names, options=options)
        data = summary.to_json()
        data["scenario"] = scenario.title
        if fmt == "json":
            print(json.dumps(data))
        else:
            _print_simulation(data)
        if data["errors"]:
            for err in data["errors"][:5]:
                print(printable(f"catandsl: game {err['game']} (seed {err['seed']}) stopped: {err['error']}"),
                      file=sys.stderr)
            raise _Exit(EXIT_ERRORS)

    return app


def _simulate_with_progress(run, file, games, **kw):
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    console = _console(stderr=True)
    with Progress(TextColumn("games"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=console, transient=True) as bar:
        task = bar.add_task("games", total=games)
        return run(file, games, progress=lambda done: bar.update(task, completed=done), **kw)


def _print_simulation(data: dict) -> None:
    from rich.table import Table

    out = _console()
    n = data["games"]
    out.print(f"{_escape(data['scenario'])}: {n} games, {data['players']} players, seed {data['seed']}, "
              f"{data['workers']} worker{'s' if data['workers'] != 1 else ''}")
    table = Table("seat", "bot", "wins", "win rate", "mean VP")
    for p in range(data["players"]):
        table.add_row(f"P{p + 1}", data["bots"][p], str(data["wins"][p]), f"{100 * data['win_rate'][p]:.1f}%",
                      f"{data['mean_scores'][p]:.2f}")
    out.print(table)
    out.print(f"no winner (turn cap): {data['no_winner']} ({100 * data['turn_cap_share']:.1f}%)")
    out.print(f"mean turns: {data['mean_turns']:.1f}; mean actions: {data['mean_actions']:.1f}")
    out.print(f"games per second: {data['games_per_second']} ({data['seconds']:.2f} s)")


def _seat(player: int) -> str:
    return "dice" if player < 0 else f"P{player + 1}"


