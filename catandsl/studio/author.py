"""The author view of one file: its diagnostics (check's and lint's) with the source
lines they point at, and, when the file compiles, the board `catandsl render` draws for
the chosen player count, option items and seed, with the sites layer for hovering.

A broken file, a configuration the scenario does not offer or a map that cannot be
dealt with this seed gives diagnostics or a typed error in place of the board, never a
server error."""

from __future__ import annotations

from typing import Any

from catandsl.diagnostics import Diagnostic, Sources, format_text
from catandsl.studio.errors import StudioError
from catandsl.studio.library import Entry, Library

EXCERPT_AROUND = 2  # source lines shown before and after a diagnostic's line
MAX_SEED = 2**63 - 1


def diagnostic_json(d: Diagnostic, sources: Sources, library: Library) -> dict[str, Any]:
    """A diagnostic for the page: the JSON form, the file, the text `check` prints, and
    the source lines around it."""
    out = d.to_json()
    span = d.span
    out["file"] = span.file  # relative to the folder the compile ran in (the studio's answers hide the rest)
    out["text"] = format_text(d, sources)
    lines = []
    if span.line >= 1:
        for n in range(max(1, span.line - EXCERPT_AROUND), span.line + EXCERPT_AROUND + 1):
            text = sources.line(span.file, n)
            if text is not None:
                lines.append({"line": n, "text": text, "here": n == span.line})
    out["excerpt"] = lines
    return out


def author_view(library: Library, entry: Entry, players: int | None, options: dict[str, str],
                seed: int) -> dict[str, Any]:
    from catandsl.board import BoardError, instantiate
    from catandsl.checks import is_library
    from catandsl.ir import ConfigurationError, configure
    from catandsl.render.state_svg import render_map
    from catandsl.render.titles import board_title
    from catandsl.studio.pictures import SiteLayer, with_sites

    if not 0 <= seed <= MAX_SEED:
        raise StudioError("request/seed", f"a seed is a whole number from 0 to {MAX_SEED}")
    result = library.linted(entry)
    compiled, _, _ = library.compiled(entry)
    diags = [diagnostic_json(d, result.sources, library) for d in result.diagnostics]
    watched = sorted({rel for name in result.sources.texts if (rel := library.relative(name)) is not None}
                     if entry.ref.startswith("dir:") else ())
    out: dict[str, Any] = {"ref": entry.ref, "label": entry.label, "diagnostics": diags, "watch": watched,
                           "errors": result.errors, "warnings": result.warnings, "svg": None, "problem": None}
    # the board needs a scenario that compiles; the trial game's E0701 does not stop the picture
    scenario = result.scenario or compiled
    if scenario is None:
        return out
    out.update(title=scenario.title, name=scenario.name,
               players={"min": scenario.players_min, "max": scenario.players_max},
               options=[{"name": o.name, "title": o.title, "default": o.default,
                         "items": [{"name": i.name, "title": i.title} for i in o.items]} for o in scenario.options])
    if is_library(scenario):
        out["problem"] = {"code": "scenario/library", "message": "a file of rulesets alone: it has no board"}
        return out
    count = players if players is not None else scenario.players_max
    out["chosen"] = {"players": count, "options": options, "seed": seed}
    try:
        rs = configure(scenario, count, options)
        board = instantiate(rs, seed)
        title = board_title(scenario, count, options, seed)
    except ConfigurationError as e:
        out["problem"] = {"code": e.code, "message": str(e)}
        return out
    except BoardError as e:
        d = e.to_diagnostic()
        out["problem"] = {"code": d.code, "message": f"{d.message} (with seed {seed})"}
        return out
    out["svg"] = with_sites(render_map(board, rs, title=title), SiteLayer(board))
    out["board_title"] = title
    out["counts"] = {"hexes": len(board.hexes), "intersections": len(board.intersections), "paths": len(board.paths)}
    return out
