"""The shipped scenarios as data, for `catandsl list`: each one's name, aliases, file,
title, player counts and options (or its errors, when it does not compile)."""

from __future__ import annotations


def shipped_entries() -> list[dict]:
    """Every shipped scenario as data (compiled, without the trial game)."""
    from catandsl import resources
    from catandsl.compiler import compile_path

    root = resources.scenarios_dir() if resources.shipped_scenarios() else None
    out = []
    for s in resources.shipped_scenarios():
        entry: dict = {"name": s.name, "aliases": list(s.aliases),
                       "file": s.path.relative_to(root).as_posix() if root else s.path.name}
        scenario, diags, _ = compile_path(s.path)
        if scenario is None:
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
    return out
