"""The commands for people validating maps: `lint` (check's diagnostics and the map's
structure and balance findings), `explain` (a code's documentation) and `balance`
(pips, a draft, and win rates of bot games with a fairness verdict)."""

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
from catandsl.cli.common import EXIT_ERRORS, fail, simulate_with_progress, version
from catandsl.diagnostics import printable
from catandsl.render.titles import players_text

app = typer.Typer()


class LintFormat(StrEnum):
    """`lint --format`: caret text, JSON, SARIF 2.1.0 for code scanning, or GitHub
    workflow annotations (catandsl.lint.formats)."""

    text = "text"
    json = "json"
    sarif = "sarif"
    github = "github"


@app.command()
def lint(
    files: Annotated[list[str], typer.Argument(
        help=".catan files, folders (every .catan file under them) or shipped scenario names to lint")],
    fmt: Annotated[LintFormat, typer.Option("--format", help="text, json, sarif or github")] = LintFormat.text,
    samples: Annotated[int | None, typer.Option(
        "--samples", min=1, help="deals of a shuffled map to check (default 64)")] = None,
    seed: Annotated[int | None, typer.Option("--seed", min=0, help="the first deal's seed (default 1)")] = None,
    strict: Annotated[bool, typer.Option("--strict", help="exit 1 on warnings too")] = False,
    config: Annotated[Path | None, typer.Option(
        "--config", help="a pyproject.toml (default: the nearest one above the working folder)")] = None,
    output: Annotated[Path | None, typer.Option("-o", "--output", help="write the report to a file")] = None,
) -> None:
    """Check scenario files and lint their maps: structure errors (L01xx) and balance
    warnings (L02xx). Exit 0 clean, 1 errors (or warnings with --strict), 2 usage."""
    from dataclasses import replace

    from catandsl.lint import ConfigError, find_pyproject, lint_path, load_config
    from catandsl.lint.config import MAX_SAMPLES
    from catandsl.lint.formats import to_github, to_json, to_sarif, to_text

    if samples is not None and samples > MAX_SAMPLES:
        raise typer.BadParameter(f"{samples}: at most {MAX_SAMPLES:,}", param_hint="--samples")
    paths = lint_paths(files)
    check_outputs([(output, "-o")], tuple(paths))
    if config is not None and not config.is_file():
        fail(f"no such file: {config} (--config)")
    try:
        settings = load_config(config if config is not None else find_pyproject(Path.cwd()))
    except ConfigError as e:
        fail(str(e))
    if samples is not None:
        settings = replace(settings, samples=samples)
    if seed is not None:
        settings = replace(settings, seed=seed)
    results = [lint_path(p, settings) for p in paths]
    render = {LintFormat.text: to_text, LintFormat.json: to_json, LintFormat.github: to_github,
              LintFormat.sarif: lambda rs: to_sarif(rs, version())}[fmt]
    text = render(results)
    if output is not None:
        write_output(output, text, "-o")
    else:
        sys.stdout.write(text)
    if any(r.errors for r in results) or (strict and any(r.warnings for r in results)):
        raise typer.Exit(EXIT_ERRORS)


def lint_paths(args: list[str]) -> list[Path]:
    """The files to lint: each file or shipped scenario named, and every .catan file
    under each folder named (as `fmt DIR` walks it); a folder without one is a usage
    error."""
    from catandsl.cli.editor import catan_files

    out: list[Path] = []
    for arg in args:
        path = Path(arg)
        if path.is_dir():
            found = catan_files([path])
            if not found:
                fail(f"no .catan file under {arg}")
            out.extend(found)
        else:
            out.append(scenario_path(arg))
    return out


@app.command()
def explain(code: Annotated[str, typer.Argument(help="a diagnostic or lint code: E0302, L0201")]) -> None:
    """Print the documentation of a diagnostic (E....) or lint (L....) code."""
    import difflib

    from catandsl.lint.explain import explain as doc_of
    from catandsl.lint.explain import sections

    text = doc_of(code)
    if text is None:
        close = difflib.get_close_matches(code.strip().upper(), list(sections()), n=3, cutoff=0.6)
        hint = f"; did you mean {' or '.join(close)}?" if close else ""
        fail(f"no code {code!r}{hint} (codes look like E0302 or L0201)")
    sys.stdout.write(text)


@app.command()
def balance(
    file: Annotated[str, typer.Argument(help="the .catan file (or a shipped scenario's name)")],
    players: Annotated[int | None, typer.Option("--players", help="player count (default: the most)")] = None,
    samples: Annotated[int, typer.Option(
        "--samples", min=1, max=10_000, help="deals of a shuffled map to measure")] = 64,
    seed: Annotated[int, typer.Option(
        "--seed", min=0, help="the first deal's seed, and the games' run seed")] = 1,
    option: Annotated[list[str] | None, typer.Option("--option", help="NAME=ITEM, repeatable")] = None,
    games: Annotated[int, typer.Option(
        "--simulate", min=0, max=100_000, help="also play G games of bots (--bots)")] = 0,
    bots: Annotated[str, typer.Option(
        "--bots", help="the bots of --simulate: random, greedy, mcts, mcts:N (cycled over seats); "
                       "the verdict holds for them")] = "greedy",
    workers: Annotated[int, typer.Option("--workers", min=1, help="processes playing the games")] = 1,
    html: Annotated[Path | None, typer.Option(
        "--html", help="write a self-contained HTML page with the plots")] = None,
    fmt: Annotated[Format, typer.Option("--format", help="text or json")] = Format.text,
) -> None:
    """Pips per resource and number, the strongest intersections, each seat's production
    under a greedy snake draft; with --simulate, win rates per seat and a fairness verdict
    (for the bots that played)."""
    from catandsl.board import BoardError
    from catandsl.compiler.loader import display_name
    from catandsl.diagnostics import Span
    from catandsl.ir import ConfigurationError, configure
    from catandsl.lint.balance import measure, verdict, wins_in_turn_order

    names = tuple(bot_names(bots))
    path = scenario_path(file)
    check_outputs([(html, "--html")], (path,))
    options = parse_options(option)
    scenario = compile_or_exit(path)
    n = players or scenario.players_max
    try:
        rs = configure(scenario, n, options)
        if rs.map is None:
            fail(f"{scenario.title} has no map for {players_text(n, n)}")
        report = measure(rs, seed, samples, Span(display_name(path), 1, 1))
    except ConfigurationError as e:
        fail(str(e))
    except BoardError as e:
        board_failed(e, seed, fmt)
    if games:
        from catandsl.simulate import simulate as run

        summary = simulate_with_progress(run, path, games, seed=seed, players=n, workers=workers, bots=names,
                                         options=options)
        report.games = verdict(wins_in_turn_order(summary.results, n))
        report.games["games"] = games
        report.games["bots"] = list(names)
        report.games["errors"] = sum(1 for r in summary.results if r.error is not None)
    if html is not None:
        from catandsl.lint.report import ReportUnavailable, render_report

        try:
            write_output(html, render_report(report), "--html")
        except ReportUnavailable as e:
            fail(str(e))
    if fmt == Format.json:
        print(json.dumps(report.to_json(), indent=2))
    else:
        print(printable(_balance_text(report)))


def _balance_text(b) -> str:
    """The balance report as text."""
    from catandsl.lint.balance import WEAK

    total = sum(b.resource_pips.values()) or 1
    deals = f"{b.deals} deals from seed {b.seed}" if b.deals > 1 else "a fixed map"
    lines = [f"{b.title}: {players_text(b.players, b.players)}, {deals}",
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
    return "\n".join(lines)
