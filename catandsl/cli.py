"""The `catandsl` command.

Exit codes: 0 fine, 1 diagnostics with errors (or a game that stopped), 2 usage error
(an unknown option, bot, scenario name, or an output file that cannot be written). Every
error a user can cause is printed as a diagnostic or a one-line message; an unexpected
exception is reported as an internal error with a request to file a bug (exit 70), never
as a raw traceback.

A scenario argument is a path to a .catan file or, when no such file exists, the name of
a scenario shipped with catandsl (`catandsl play base`; `catandsl list` shows them).
Text output names seats P1..Pn; JSON output numbers them from 0, as the API does.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import NoReturn, Protocol, TypeGuard

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


def version() -> str:
    """The installed distribution's version, or the package's own when catandsl runs
    from a source tree that was never installed."""
    from importlib import metadata

    try:
        return metadata.version("catandsl")
    except metadata.PackageNotFoundError:
        from catandsl import __version__

        return __version__


class _Exit(Exception):
    def __init__(self, code: int):
        self.code = code


def _fail(message: str, code: int = EXIT_USAGE) -> NoReturn:
    """One line on stderr, `catandsl: MESSAGE`, and the exit code."""
    print(printable(f"catandsl: {message}"), file=sys.stderr)
    raise _Exit(code)


class _UsageError(Protocol):
    def show(self) -> None: ...


def _is_usage_error(e: Exception) -> TypeGuard[_UsageError]:
    # typer ships its own copy of click; its errors are ClickExceptions with .show()
    import typer

    click_error = next(c for c in typer.BadParameter.__mro__ if c.__name__ == "ClickException")
    return isinstance(e, click_error)


def _console(stderr: bool = False):
    """A rich console that prints text as it is: no markup, no emoji codes (`:100:` in a
    location, `[bold]` in a title), no highlighting. Colour comes only from `_say`'s styles."""
    from rich.console import Console

    return Console(stderr=stderr, highlight=False, soft_wrap=True, markup=False, emoji=False)


def _say(console, *parts: str | tuple[str, str]) -> None:
    """Print one line of plain text pieces and (text, style) pieces; every text as it is,
    control characters made visible."""
    from rich.text import Text

    console.print(Text.assemble(*((printable(p[0]), p[1]) if isinstance(p, tuple) else printable(p)
                                  for p in parts)))


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
        _say(err, (head, f"bold {colour}"))
        if rest:
            _say(err, rest)
        err.print()


# ---- scenario arguments --------------------------------------------------------------------


def scenario_path(arg: str | Path) -> Path:
    """The file a scenario argument names: the path itself when it exists (or looks like
    a path: it ends in .catan or has a folder in it, so the compiler reports a missing
    file as usual), else the shipped scenario of that name. A bare name that is neither
    is a usage error, with the closest shipped names."""
    from catandsl import resources

    path = Path(arg)
    text = str(arg)
    if path.exists():
        return path
    shipped = resources.find_scenario(text)
    if shipped is not None:
        return shipped
    if text.endswith(".catan") or "/" in text or os.sep in text:
        return path
    import difflib

    canonical = {n: s.name for s in resources.shipped_scenarios() for n in (s.name, *s.aliases)}
    close = list(dict.fromkeys(canonical[m] for m in difflib.get_close_matches(text, list(canonical), n=5,
                                                                                cutoff=0.5)))[:3]
    hint = f"; did you mean {' or '.join(close)}?" if close else ""
    _fail(f"no file or shipped scenario named {text!r}{hint} (`catandsl list` shows the shipped scenarios)")


def _board_failed(e, seed: int, fmt: str = "text") -> NoReturn:
    """A map that cannot be dealt with this seed (`check` deals a sample of seeds, so
    this is a deal it did not try): the board's error at the map's line, as `check`
    shows it."""
    from dataclasses import replace

    from catandsl.diagnostics import Sources

    d = e.to_diagnostic()
    d = replace(d, message=f"{d.message} (with seed {seed})")
    sources = Sources()
    try:
        sources.add(d.span.file, Path(d.span.file).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        pass  # the message stands without the quoted line
    _print_diagnostics([d], sources, fmt)
    raise _Exit(EXIT_ERRORS)


def _compile_or_exit(file: Path, fmt: str = "text"):
    from catandsl.checks import check_path

    scenario, diags, sources = check_path(file)
    if diags:
        _print_diagnostics(diags, sources, fmt)
    if scenario is None:
        raise _Exit(EXIT_ERRORS)
    return scenario


def _players_text(lo: int, hi: int) -> str:
    return f"{lo} player{'s' if lo != 1 else ''}" if lo == hi else f"{lo}-{hi} players"


# ---- output files ----------------------------------------------------------------------------


def _output_problem(path: Path) -> str | None:
    """Why `path` cannot be written, or None: a missing folder, a folder given as the
    file, a file where a folder should be, no permission."""
    if not str(path) or path.name in ("", ".", ".."):
        return "that names a folder, not a file"
    if path.is_dir():
        return "it is a folder; give a file name inside it"
    parent = path.parent
    if not parent.is_dir():
        existing = next((p for p in parent.parents if p.exists()), None) if not parent.exists() else parent
        if existing is not None and existing.exists() and not existing.is_dir():
            return f"{existing} is a file, not a folder"
        return f"the folder {parent} does not exist"
    if path.exists():
        if not os.access(path, os.W_OK):
            return "permission denied"
    elif not os.access(parent, os.W_OK | os.X_OK):
        return f"permission denied: cannot create files in {parent}"
    return None


def _why(e: OSError, path: Path) -> str:
    if isinstance(e, IsADirectoryError):
        return "it is a folder; give a file name inside it"
    if isinstance(e, FileNotFoundError) and not path.parent.is_dir():
        return f"the folder {path.parent} does not exist"
    if isinstance(e, NotADirectoryError):
        return "a part of the path is a file, not a folder"
    if isinstance(e, PermissionError):
        return "permission denied"
    return e.strerror or str(e)


def check_outputs(outputs: list[tuple[Path | None, str]], inputs: tuple[Path, ...] = ()) -> None:
    """Refuse, before any work is done, output files that cannot be written, two outputs
    naming the same file, and an output that would overwrite an input."""
    seen: dict[Path, str] = {}
    for path, option in outputs:
        if path is None:
            continue
        problem = _output_problem(path)
        if problem:
            _fail(f"cannot write {path} ({option}): {problem}")
        key = path.resolve()
        if key in seen:
            _fail(f"{seen[key]} and {option} name the same file, {path}")
        seen[key] = option
        for source in inputs:
            if source.exists() and key == source.resolve():
                _fail(f"cannot write {path} ({option}): it is the scenario file being read")


def write_output(path: Path, data: str | bytes, option: str) -> None:
    """Write one output file; any problem is a one-line usage error (exit 2)."""
    try:
        if isinstance(data, bytes):
            path.write_bytes(data)
        else:
            path.write_text(data, encoding="utf-8")
    except OSError as e:
        _fail(f"cannot write {path} ({option}): {_why(e, path)}")


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


def _bots(bots: str) -> list[str]:
    from catandsl.players import BOT_NAMES, is_bot

    names = [b.strip() for b in bots.split(",") if b.strip()]
    unknown = [b for b in names if not is_bot(b)]
    if unknown or not names:
        import typer

        raise typer.BadParameter(f"unknown bot {unknown[0] if unknown else '(none)'}; bots: {BOT_NAMES}",
                                 param_hint="--bots")
    return names


# ---- board titles ------------------------------------------------------------------------------


def _board_signature(board, ruleset) -> str:
    """What a board picture shows, as text: hexes, numbers, harbors, starts, islands and
    the map's sites (not the seed)."""
    data = board.to_json()
    data.pop("seed", None)
    m = getattr(ruleset, "map", None)
    data["sites"] = [[s.site, s.q, s.r, s.corner, s.number] for s in (m.sites if m is not None else ())]
    return json.dumps(data, sort_keys=True, default=str)


def board_title(scenario, players: int, options: dict[str, str], seed: int) -> str:
    """A board picture's title: the scenario, and only what the board depends on: the
    player count when another count gets another map, each option whose other items
    give another board (its item named), and the seed when another seed shuffles
    another board."""
    from catandsl.board import BoardError, instantiate
    from catandsl.ir import ConfigurationError, configure

    rs = configure(scenario, players, options)
    mine = _board_signature(instantiate(rs, seed), rs)

    def differs(count: int, chosen: dict[str, str], s: int) -> bool:
        try:
            other = configure(scenario, count, chosen)
            return _board_signature(instantiate(other, s), other) != mine
        except (ConfigurationError, BoardError):
            return False

    parts = []
    if any(differs(count, options, seed) for count in range(scenario.players_min, scenario.players_max + 1)
           if count != players):
        parts.append(_players_text(players, players))
    for opt in scenario.options:
        item = rs.options.get(opt.name, opt.default)
        if any(differs(players, {**options, opt.name: other.name}, seed) for other in opt.items
               if other.name != item):
            parts.append(f"{opt.name} {item}")
    if any(differs(players, options, other) for other in (seed + 1, seed + 2, seed + 1000)):
        parts.append(f"seed {seed}")
    return scenario.title + (" — " + ", ".join(parts) if parts else "")


def _game_title(scenario, players: int, options: dict[str, str], seed: int) -> str:
    """A game's title: the scenario, the player count, the options chosen that are not
    the defaults, and the seed (a game always depends on it: the dice)."""
    defaults = {o.name: o.default for o in scenario.options}
    chosen = [f"{k} {v}" for k, v in sorted(options.items()) if defaults.get(k) != v]
    return f"{scenario.title} — " + ", ".join([_players_text(players, players), *chosen, f"seed {seed}"])


# ---- the commands ----------------------------------------------------------------------------


def _app():
    import typer

    app = typer.Typer(
        add_completion=False,
        no_args_is_help=True,
        help="A language and runtime for Catan scenarios. A FILE argument is a path to a .catan file "
             "or the name of a shipped scenario (see `catandsl list`).",
        pretty_exceptions_enable=False,
    )

    def show_version(value: bool) -> None:
        if value:
            print(f"catandsl {version()}")
            raise typer.Exit()

    @app.callback()
    def _root(
        version_: bool = typer.Option(False, "--version", help="print the version and exit",
                                      callback=show_version, is_eager=True),
    ):
        pass

    @app.command()
    def check(
        files: list[str] = typer.Argument(..., help=".catan files (or shipped scenario names) to check"),
        format: str = typer.Option("text", "--format", help="text or json"),
    ):
        """Parse and check scenario files; print every diagnostic."""
        from catandsl.checks import check_path

        _check_format(format)
        paths = [scenario_path(f) for f in files]
        failed = False
        all_json = []
        for f, path in zip(files, paths):
            scenario, diags, sources = check_path(path)
            if format == "json":
                all_json.append({"file": f, "path": str(path), "ok": scenario is not None,
                                 "diagnostics": [d.to_json() for d in diags]})
            else:
                _print_diagnostics(diags, sources, "text")
                if scenario is not None:
                    _say(_console(), ("ok", "green"), f" {f}: {scenario.title} "
                         f"({_players_text(scenario.players_min, scenario.players_max)})")
            failed |= scenario is None
        if format == "json":
            print(json.dumps(all_json, indent=2))
        raise _Exit(EXIT_ERRORS if failed else EXIT_OK)

    @app.command("list")
    def list_(
        fmt: str = typer.Option("text", "--format", help="text or json"),
    ):
        """The scenarios shipped with catandsl: name, title, player counts and options."""
        _check_format(fmt)
        entries, failed = _shipped_entries()
        if fmt == "json":
            print(json.dumps(entries, indent=2))
        else:
            _print_shipped(entries)
        raise _Exit(EXIT_ERRORS if failed else EXIT_OK)

    @app.command("compile")
    def compile_(
        file: str = typer.Argument(..., help="the .catan file (or a shipped scenario's name)"),
        as_json: bool = typer.Option(True, "--json/--summary", help="print the IR as JSON"),
        output: Path = typer.Option(None, "-o", "--output", help="write to a file"),
    ):
        """Compile a scenario and print its IR (validated against the schema)."""
        from catandsl import ir

        path = scenario_path(file)
        check_outputs([(output, "-o")], (path,))
        scenario = _compile_or_exit(path)
        data = ir.to_json(scenario)
        text = json.dumps(data, indent=2) if as_json else (
            f"{scenario.title}: {len(scenario.sections)} sections, {len(scenario.options)} options")
        if output:
            write_output(output, text + "\n", "-o")
        else:
            print(text)

    @app.command()
    def schema():
        """Print the JSON Schema (draft 2020-12) of the compiled scenario."""
        from catandsl import ir

        print(json.dumps(ir.json_schema(), indent=2))

    @app.command()
    def render(
        file: str = typer.Argument(..., help="the .catan file (or a shipped scenario's name)"),
        output: Path = typer.Option(..., "-o", "--output", help="board.svg or board.png"),
        seed: int = typer.Option(1, "--seed", help="the seed that shuffles pools"),
        players: int = typer.Option(None, "--players", help="player count (default: the most)"),
        option: list[str] = typer.Option([], "--option", help="NAME=ITEM, repeatable"),
        coordinates: bool = typer.Option(False, "--coordinates", help="label hexes with (q, r)"),
    ):
        """Draw one board of a scenario as SVG (or PNG), as a game starts on it."""
        from catandsl.board import BoardError, instantiate
        from catandsl.ir import ConfigurationError, configure
        from catandsl.render.state_svg import render_map
        from catandsl.render.svg import png_bytes

        path = scenario_path(file)
        check_outputs([(output, "-o")], (path,))
        suffix = output.suffix.lower()
        if suffix not in (".svg", ".png"):
            _fail(f"cannot write {output} (-o): the output must end in .svg or .png")
        options = _parse_options(option)
        scenario = _compile_or_exit(path)
        count = players or scenario.players_max
        try:
            rs = configure(scenario, count, options)
            board = instantiate(rs, seed)
            title = board_title(scenario, count, options, seed)
        except ConfigurationError as e:
            _fail(str(e))
        except BoardError as e:
            _board_failed(e, seed)
        svg = render_map(board, rs, coordinates=coordinates, title=title)
        if suffix == ".png":
            try:
                data: str | bytes = png_bytes(svg)
            except RuntimeError as e:
                _fail(str(e))
        else:
            data = svg
        write_output(output, data, "-o")
        _say(_console(), f"wrote {output}: {title}, {len(board.hexes)} hexes")

    @app.command()
    def play(
        file: str = typer.Argument(..., help="the .catan file (or a shipped scenario's name)"),
        players: int = typer.Option(None, "--players", help="player count (default: the most)"),
        seed: int = typer.Option(1, "--seed", help="the seed of the board and the dice"),
        bots: str = typer.Option("random", "--bots",
                                 help="comma-separated: random, greedy, mcts, mcts:N (cycled over seats)"),
        option: list[str] = typer.Option([], "--option", help="NAME=ITEM, repeatable"),
        fmt: str = typer.Option("text", "--format", help="text (the log) or json (a summary)"),
        log: Path = typer.Option(None, "--log", help="also write the readable log to this file"),
        picture: Path = typer.Option(None, "--svg", help="also draw the final state (board and pieces) to this SVG"),
        html: Path = typer.Option(None, "--html", help="also write a self-contained HTML page replaying the game"),
    ):
        """Bots play one game; print a readable log and the final scores."""
        _check_format(fmt)
        from catandsl.board import BoardError
        from catandsl.engine import EngineError, IllegalAction, new_game
        from catandsl.ir import ConfigurationError
        from catandsl.players import make_bot, play_game
        from catandsl.players.base import log_lines, seat_name

        names = _bots(bots)
        path = scenario_path(file)
        check_outputs([(log, "--log"), (picture, "--svg"), (html, "--html")], (path,))
        options = _parse_options(option)
        scenario = _compile_or_exit(path)
        try:
            game = new_game(scenario, players or scenario.players_max, options, seed)
        except ConfigurationError as e:
            _fail(str(e))
        except BoardError as e:
            _board_failed(e, seed, fmt)
        n = game.num_players
        seats = [make_bot(names[i % len(names)], seed * 100 + i) for i in range(n)]
        try:
            state, entries = play_game(game, seats, seed=seed)
        except (EngineError, IllegalAction) as e:
            _fail(f"the game stopped: {e}", EXIT_ERRORS)
        lines = log_lines(entries)
        scores = state.scores()
        winner = state.winner if state.winner is not None and state.winner >= 0 else None
        summary = {
            "scenario": scenario.title, "players": n, "seed": seed, "bots": [names[i % len(names)] for i in range(n)],
            "winner": winner, "scores": scores, "victory_target": game.victory,
            "turns": state.turns, "reason": state.reason, "actions": len(entries),
        }
        winners = list(getattr(state, "winners", None) or ())
        if winners:  # a shared victory (end_game's tie_break)
            summary["winners"] = winners
        who = (seat_name(winner) if winner is not None else
               " and ".join(seat_name(p) for p in winners) if winners else "none")
        result = [f"winner: {who} ({state.reason}) after {state.turns} turns; scores "
                  + ", ".join(f"{seat_name(i)} {v}" for i, v in enumerate(scores))]
        title = _game_title(scenario, n, options, seed)
        if log:
            write_output(log, "\n".join(lines + result) + "\n", "--log")
        if picture:
            from catandsl.render.state_svg import render_state

            write_output(picture, render_state(game, state, title=title), "--svg")
        if html:
            from catandsl.render.replay import render_replay

            write_output(html, render_replay(game, entries, title=title), "--html")
        if fmt == "json":
            print(json.dumps(summary))
        else:
            print(printable("\n".join(lines + result)))

    @app.command()
    def simulate(
        file: str = typer.Argument(..., help="the .catan file (or a shipped scenario's name)"),
        games: int = typer.Option(100, "--games", min=1, help="how many games"),
        workers: int = typer.Option(1, "--workers", min=1, help="processes playing games in parallel"),
        seed: int = typer.Option(1, "--seed", help="the run's seed; game i gets a seed derived from it and i"),
        players: int = typer.Option(None, "--players", help="player count (default: the most)"),
        bots: str = typer.Option("random", "--bots",
                                 help="comma-separated: random, greedy, mcts, mcts:N (cycled over seats)"),
        option: list[str] = typer.Option([], "--option", help="NAME=ITEM, repeatable"),
        fmt: str = typer.Option("text", "--format", help="text (a table) or json (a summary)"),
        backend: str = typer.Option("local", "--backend",
                                    help="local (processes on this machine) or ray (needs catandsl[ray])"),
        address: str = typer.Option(None, "--address", help="with --backend ray: the cluster to join "
                                    "(default: a local Ray instance of --workers CPUs)"),
    ):
        """Bots play many games; print win rate per seat, turn-cap share, mean turns, speed."""
        from catandsl.board import BoardError
        from catandsl.engine import EngineError, new_game
        from catandsl.ir import ConfigurationError
        from catandsl.simulate import BACKENDS
        from catandsl.simulate import simulate as run

        _check_format(fmt)
        if backend not in BACKENDS:
            _fail(f"unknown backend {backend!r} (--backend): {', '.join(BACKENDS)}")
        if address is not None and backend != "ray":
            _fail("--address is for --backend ray")
        if backend == "ray":
            import importlib.util

            if importlib.util.find_spec("ray") is None:
                _fail("--backend ray needs Ray: pip install 'catandsl[ray]'")
        names = tuple(_bots(bots))
        path = scenario_path(file)
        scenario = _compile_or_exit(path)
        options = _parse_options(option)
        n = players or scenario.players_max
        try:  # a configuration problem is a usage error, found before any worker starts
            new_game(scenario, n, options, seed)
        except ConfigurationError as e:
            _fail(str(e))
        except BoardError as e:
            _board_failed(e, seed, fmt)
        except EngineError as e:
            _fail(f"the game cannot start: {e}", EXIT_ERRORS)
        summary = _simulate_with_progress(run, path, games, seed=seed, players=n, workers=workers,
                                          bots=names, options=options, backend=backend, address=address)
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

    @app.command()
    def engine():
        """Serve the embedding API as JSON lines on stdin/stdout (docs/embedding.md)."""
        from catandsl.protocol import serve

        raise _Exit(serve())

    _add_lint_commands(app)
    from catandsl.cli_editor import register_editor_commands  # fmt, lsp

    register_editor_commands(app)
    from catandsl.cli_studio import register_studio_commands  # serve

    register_studio_commands(app)
    return app


# ---- list --------------------------------------------------------------------------------------


def _shipped_entries() -> tuple[list[dict], bool]:
    """Every shipped scenario as data (compiled, without the trial game), and whether
    any failed to compile."""
    from catandsl import resources
    from catandsl.compiler import compile_path

    root = resources.scenarios_dir() if resources.shipped_scenarios() else None
    out, failed = [], False
    for s in resources.shipped_scenarios():
        entry: dict = {"name": s.name, "aliases": list(s.aliases),
                       "file": s.path.relative_to(root).as_posix() if root else s.path.name}
        scenario, diags, _ = compile_path(s.path)
        if scenario is None:
            failed = True
            entry["errors"] = [d.to_json() for d in diags if d.is_error]
        else:
            entry.update({
                "scenario": scenario.name, "title": scenario.title,
                "players": {"min": scenario.players_min, "max": scenario.players_max},
                "options": [{"name": o.name, "title": o.title, "default": o.default,
                             "items": [{"name": i.name, "title": i.title, "value": i.value,
                                        "default": i.name == o.default} for i in o.items]}
                            for o in scenario.options],
            })
        out.append(entry)
    return out, failed


def _print_shipped(entries: list[dict]) -> None:
    if not entries:
        print("no scenarios are shipped with this installation")
        return
    for e in entries:
        if "errors" in e:
            print(printable(f"{e['name']}: does not compile ({len(e['errors'])} errors): "
                            f"catandsl check {e['name']}"))
            continue
        players = _players_text(e["players"]["min"], e["players"]["max"])
        aliases = f" (also: {', '.join(e['aliases'])})" if e["aliases"] else ""
        print(printable(f"{e['name']}: {e['title']}, {players}{aliases}"))
        for o in e["options"]:
            items = ", ".join(i["name"] + ("*" if i["default"] else "") for i in o["items"])
            title = f" ({o['title']})" if o["title"] else ""
            print(printable(f"    --option {o['name']}=ITEM{title}: {items}"))
    print("* the default item. Play one with: catandsl play NAME --players N --seed S")


# ---- simulate ----------------------------------------------------------------------------------


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
    _say(out, f"{data['scenario']}: {n} games, {data['players']} players, seed {data['seed']}, "
         f"{data['workers']} worker{'s' if data['workers'] != 1 else ''}")
    table = Table("seat", "bot", "wins", "win rate", "mean VP")
    for p in range(data["players"]):
        table.add_row(f"P{p + 1}", data["bots"][p], str(data["wins"][p]), f"{100 * data['win_rate'][p]:.1f}%",
                      f"{data['mean_scores'][p]:.2f}")
    out.print(table)
    out.print(f"no winner (turn cap): {data['no_winner']} ({100 * data['turn_cap_share']:.1f}%)")
    out.print(f"mean turns: {data['mean_turns']:.1f}; mean actions: {data['mean_actions']:.1f}")
    out.print(f"games per second: {data['games_per_second']} ({data['seconds']:.2f} s)")


# ---- lint, explain, balance (issue 14) -------------------------------------------------------


def _add_lint_commands(app) -> None:
    """`lint`, `explain` and `balance`: kept in one block so other commands merge apart."""
    import typer

    @app.command()
    def lint(
        files: list[str] = typer.Argument(..., help=".catan files (or shipped scenario names) to lint"),
        fmt: str = typer.Option("text", "--format", help="text, json, sarif or github"),
        samples: int = typer.Option(None, "--samples", min=1, help="deals of a shuffled map to check (default 64)"),
        seed: int = typer.Option(None, "--seed", min=0, help="the first deal's seed (default 1)"),
        strict: bool = typer.Option(False, "--strict", help="exit 1 on warnings too"),
        config: Path = typer.Option(None, "--config", help="a pyproject.toml (default: the nearest one above "
                                                         "the working folder)"),
        output: Path = typer.Option(None, "-o", "--output", help="write the report to a file"),
    ):
        """Check scenario files and lint their maps: structure errors (L01xx) and balance
        warnings (L02xx). Exit 0 clean, 1 errors (or warnings with --strict), 2 usage."""
        from dataclasses import replace

        from catandsl.lint import ConfigError, find_pyproject, lint_path, load_config
        from catandsl.lint.config import MAX_SAMPLES
        from catandsl.lint.formats import FORMATS, to_github, to_json, to_sarif, to_text

        if fmt not in FORMATS:
            raise typer.BadParameter(f"{fmt!r}: use {', '.join(FORMATS)}", param_hint="--format")
        if samples is not None and samples > MAX_SAMPLES:
            raise typer.BadParameter(f"{samples}: at most {MAX_SAMPLES:,}", param_hint="--samples")
        paths = [scenario_path(f) for f in files]
        check_outputs([(output, "-o")], tuple(paths))
        if config is not None and not config.is_file():
            _fail(f"no such file: {config} (--config)")
        try:
            settings = load_config(config if config is not None else find_pyproject(Path.cwd()))
        except ConfigError as e:
            _fail(str(e))
        if samples is not None:
            settings = replace(settings, samples=samples)
        if seed is not None:
            settings = replace(settings, seed=seed)
        results = [lint_path(p, settings) for p in paths]
        render = {"text": to_text, "json": to_json, "github": to_github,
                  "sarif": lambda rs: to_sarif(rs, version())}[fmt]
        text = render(results)
        if output is not None:
            write_output(output, text, "-o")
        else:
            sys.stdout.write(text)
        failed = any(r.errors for r in results) or (strict and any(r.warnings for r in results))
        raise _Exit(EXIT_ERRORS if failed else EXIT_OK)

    @app.command()
    def explain(code: str = typer.Argument(..., help="a diagnostic or lint code: E0302, L0201")):
        """Print the documentation of a diagnostic (E....) or lint (L....) code."""
        import difflib

        from catandsl.lint.explain import explain as doc_of
        from catandsl.lint.explain import sections

        text = doc_of(code)
        if text is None:
            close = difflib.get_close_matches(code.strip().upper(), list(sections()), n=3, cutoff=0.6)
            hint = f"; did you mean {' or '.join(close)}?" if close else ""
            _fail(f"no code {code!r}{hint} (codes look like E0302 or L0201)")
        sys.stdout.write(text)

    @app.command()
    def balance(
        file: str = typer.Argument(..., help="the .catan file (or a shipped scenario's name)"),
        players: int = typer.Option(None, "--players", help="player count (default: the most)"),
        samples: int = typer.Option(64, "--samples", min=1, max=10_000, help="deals of a shuffled map to measure"),
        seed: int = typer.Option(1, "--seed", min=0, help="the first deal's seed, and the games' run seed"),
        option: list[str] = typer.Option([], "--option", help="NAME=ITEM, repeatable"),
        games: int = typer.Option(0, "--simulate", min=0, max=100_000, help="also play G games of bots (--bots)"),
        bots: str = typer.Option("greedy", "--bots", help="the bots of --simulate: random, greedy, mcts, mcts:N "
                                 "(cycled over seats); the verdict holds for them"),
        workers: int = typer.Option(1, "--workers", min=1, help="processes playing the games"),
        html: Path = typer.Option(None, "--html", help="write a self-contained HTML page with the plots"),
        fmt: str = typer.Option("text", "--format", help="text or json"),
    ):
        """Pips per resource and number, the strongest intersections, each seat's production
        under a greedy snake draft; with --simulate, win rates per seat and a fairness verdict
        (for the bots that played)."""
        from catandsl.board import BoardError
        from catandsl.compiler.loader import display_name
        from catandsl.diagnostics import Span
        from catandsl.ir import ConfigurationError, configure
        from catandsl.lint.balance import measure, verdict, wins_in_turn_order

        _check_format(fmt)
        names = tuple(_bots(bots))
        path = scenario_path(file)
        check_outputs([(html, "--html")], (path,))
        options = _parse_options(option)
        scenario = _compile_or_exit(path)
        n = players or scenario.players_max
        try:
            rs = configure(scenario, n, options)
            if rs.map is None:
                _fail(f"{scenario.title} has no map for {_players_text(n, n)}")
            report = measure(rs, seed, samples, Span(display_name(path), 1, 1))
        except ConfigurationError as e:
            _fail(str(e))
        except BoardError as e:
            _board_failed(e, seed, fmt)
        if games:
            from catandsl.simulate import simulate as run

            summary = _simulate_with_progress(run, path, games, seed=seed, players=n, workers=workers,
                                              bots=names, options=options)
            report.games = verdict(wins_in_turn_order(summary.results, n))
            report.games["games"] = games
            report.games["bots"] = list(names)
            report.games["errors"] = sum(1 for r in summary.results if r.error is not None)
        if html is not None:
            from catandsl.lint.report import ReportUnavailable, render_report

            try:
                write_output(html, render_report(report), "--html")
            except ReportUnavailable as e:
                _fail(str(e))
        if fmt == "json":
            print(json.dumps(report.to_json(), indent=2))
        else:
            _print_balance(report)


def _print_balance(b) -> None:
    """The balance report as text."""
    from catandsl.lint.balance import WEAK

    total = sum(b.resource_pips.values()) or 1
    deals = f"{b.deals} deals from seed {b.seed}" if b.deals > 1 else "a fixed map"
    lines = [f"{b.title}: {_players_text(b.players, b.players)}, {deals}",
             "pips per resource: " + ", ".join(f"{r} {v:.1f} ({v / total:.0%})" for r, v in b.resource_pips.items()),
             "pips per number: " + ", ".join(f"{n}: {v:.1f}" for n, v in b.number_pips.items()),
             f"strongest intersections (seed {b.seed}): " + ", ".join(
                 f"({x[0]}, {x[1]}) {x[2]} {p} pips ({' + '.join(map(str, ns))})" for x, p, ns in b.strongest),
             "greedy snake draft, pips per seat: " + ", ".join(f"seat {i + 1} {v:.1f}" for i, v in enumerate(b.draft))
             + (f" (spread {max(b.draft) - min(b.draft):.1f})" if b.draft else "")]
    g = b.games
    if g is not None:
        lines.append(f"{g['games']} games of {', '.join(g.get('bots', ['greedy']))} bots, {g['decided']} won"
                     + (f", {g['errors']} stopped by an error" if g["errors"] else "")
                     + "; wins by seat in turn order (seat 1 placed first), 95% intervals:")
        lines += [f"  seat {i + 1}: {w} wins, {r:.0%} [{lo:.0%}, {hi:.0%}]"
                  for i, (w, r, (lo, hi)) in enumerate(zip(g["wins"], g["win_rate"], g["interval"]))]
        lines.append(f"verdict at the {g['alpha']:.0%} level: {g['verdict']} ({g['test']}: chi-square "
                     f"{g['chi_square']}, p = {g['p_value']}; unfair when p < {g['alpha']}, inconclusive when "
                     f"p < {WEAK}; for these bots)")
    print(printable("\n".join(lines)))
