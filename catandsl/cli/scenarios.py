"""The commands about scenario files: `check`, `list`, `compile`, `schema`, `render`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from catandsl.cli.arguments import (
    Format,
    board_failed,
    check_outputs,
    compile_or_exit,
    parse_options,
    scenario_path,
    write_output,
)
from catandsl.cli.common import EXIT_ERRORS, fail, print_diagnostics, say
from catandsl.diagnostics import printable
from catandsl.render.titles import players_text

app = typer.Typer()


@app.command()
def check(
    files: Annotated[list[str], typer.Argument(help=".catan files (or shipped scenario names) to check")],
    fmt: Annotated[Format, typer.Option("--format", help="text or json")] = Format.text,
) -> None:
    """Parse and check scenario files; print every diagnostic."""
    from catandsl import verdicts

    paths = [scenario_path(f) for f in files]
    failed = False
    all_json = []
    for f, path in zip(files, paths):
        # an unchanged file that checked clean before answers from its note (catandsl/verdicts.py)
        summary = verdicts.recall(path)
        diags: list = []
        sources = None
        if summary is None:
            from catandsl.checks import check_path

            scenario, diags, sources = check_path(path)
            if scenario is not None:
                summary = {"title": scenario.title, "players_min": scenario.players_min,
                           "players_max": scenario.players_max}
                if not diags:
                    verdicts.note(path, scenario, sources)
        if fmt == Format.json:
            all_json.append({"file": f, "path": str(path), "ok": summary is not None,
                             "diagnostics": [d.to_json() for d in diags]})
        else:
            print_diagnostics(diags, sources, "text")
            if summary is not None:
                say(("ok", "green"), f" {f}: {summary['title']} "
                    f"({players_text(summary['players_min'], summary['players_max'])})")
        failed |= summary is None
    if fmt == Format.json:
        print(json.dumps(all_json, indent=2))
    if failed:
        raise typer.Exit(EXIT_ERRORS)


@app.command("list")
def list_(fmt: Annotated[Format, typer.Option("--format", help="text or json")] = Format.text) -> None:
    """The scenarios shipped with catandsl: name, title, player counts and options."""
    from catandsl.catalog import shipped_entries

    entries = shipped_entries()
    if fmt == Format.json:
        print(json.dumps(entries, indent=2))
    else:
        _print_shipped(entries)
    if any("errors" in e for e in entries):
        raise typer.Exit(EXIT_ERRORS)


def _print_shipped(entries: list[dict]) -> None:
    if not entries:
        print("no scenarios are shipped with this installation")
        return
    for e in entries:
        if "errors" in e:
            print(printable(f"{e['name']}: does not compile ({len(e['errors'])} errors): "
                            f"catandsl check {e['name']}"))
            continue
        players = players_text(e["players"]["min"], e["players"]["max"])
        aliases = f" (also: {', '.join(e['aliases'])})" if e["aliases"] else ""
        print(printable(f"{e['name']}: {e['title']}, {players}{aliases}"))
        for o in e["options"]:
            items = ", ".join(i["name"] + ("*" if i["default"] else "") for i in o["items"])
            title = f" ({o['title']})" if o["title"] else ""
            print(printable(f"    --option {o['name']}=ITEM{title}: {items}"))
    print("* the default item. Play one with: catandsl play NAME --players N --seed S")


@app.command("compile")
def compile_(
    file: Annotated[str, typer.Argument(help="the .catan file (or a shipped scenario's name)")],
    as_json: Annotated[bool, typer.Option("--json/--summary", help="print the IR as JSON")] = True,
    output: Annotated[Path | None, typer.Option("-o", "--output", help="write to a file")] = None,
) -> None:
    """Compile a scenario and print its IR (validated against the schema)."""
    from catandsl import ir

    path = scenario_path(file)
    check_outputs([(output, "-o")], (path,))
    scenario = compile_or_exit(path)
    data = ir.to_json(scenario)
    text = json.dumps(data, indent=2) if as_json else (
        f"{scenario.title}: {len(scenario.sections)} sections, {len(scenario.options)} options")
    if output:
        write_output(output, text + "\n", "-o")
    else:
        print(text)


@app.command()
def schema() -> None:
    """Print the JSON Schema (draft 2020-12) of the compiled scenario."""
    from catandsl import ir

    print(json.dumps(ir.json_schema(), indent=2))


@app.command()
def render(
    file: Annotated[str, typer.Argument(help="the .catan file (or a shipped scenario's name)")],
    output: Annotated[Path, typer.Option("-o", "--output", help="board.svg or board.png")],
    seed: Annotated[int, typer.Option("--seed", help="the seed that shuffles pools")] = 1,
    players: Annotated[int | None, typer.Option("--players", help="player count (default: the most)")] = None,
    option: Annotated[list[str] | None, typer.Option("--option", help="NAME=ITEM, repeatable")] = None,
    coordinates: Annotated[bool, typer.Option("--coordinates", help="label hexes with (q, r)")] = False,
) -> None:
    """Draw one board of a scenario as SVG (or PNG), as a game starts on it."""
    from catandsl.board import BoardError, instantiate
    from catandsl.ir import ConfigurationError, configure
    from catandsl.render.state_svg import render_map
    from catandsl.render.svg import png_bytes
    from catandsl.render.titles import board_title

    path = scenario_path(file)
    check_outputs([(output, "-o")], (path,))
    suffix = output.suffix.lower()
    if suffix not in (".svg", ".png"):
        fail(f"cannot write {output} (-o): the output must end in .svg or .png")
    options = parse_options(option)
    scenario = compile_or_exit(path)
    count = players or scenario.players_max
    try:
        rs = configure(scenario, count, options)
        board = instantiate(rs, seed)
        title = board_title(scenario, count, options, seed)
    except ConfigurationError as e:
        fail(str(e))
    except BoardError as e:
        board_failed(e, seed)
    svg = render_map(board, rs, coordinates=coordinates, title=title)
    if suffix == ".png":
        try:
            data: str | bytes = png_bytes(svg)
        except RuntimeError as e:
            fail(str(e))
    else:
        data = svg
    write_output(output, data, "-o")
    say(f"wrote {output}: {title}, {len(board.hexes)} hexes")
