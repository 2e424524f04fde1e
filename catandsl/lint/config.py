"""`[tool.catandsl.lint]` in pyproject.toml: rules switched off and the thresholds of the
balance warnings. Read with tomllib; every mistake in it is a `ConfigError` with the
file and the key, which the command line prints as a usage error (exit 2)."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, fields, replace
from pathlib import Path

from catandsl.lint.codes import CODES


class ConfigError(Exception):
    """A pyproject.toml whose `[tool.catandsl.lint]` cannot be used."""


@dataclass(frozen=True)
class LintConfig:
    """What a lint run checks. The thresholds are the balance warnings' (docs/lint.md)."""

    ignore: tuple[str, ...] = ()
    samples: int = 64  # deals of a shuffled map
    seed: int = 1  # the first deal's seed; deal k has seed + k
    strong_intersection: int = 12  # pips around one intersection above this: L0208
    scarce_share: float = 0.5  # a resource below this fraction of an even share: L0204
    harbor_share: float = 0.6  # a 2:1 harbor's resource below this fraction: L0205
    distribution_distance: float = 0.25  # numbers' total variation distance from the usual: L0206
    clump: int = 3  # this many hexes of one terrain touching: L0203


MAX_SAMPLES = 10_000
_RANGES = {
    "samples": (1, MAX_SAMPLES), "seed": (0, 2**31), "strong_intersection": (1, 36), "clump": (2, 100),
    "scarce_share": (0.0, 1.0), "harbor_share": (0.0, 1.0), "distribution_distance": (0.0, 1.0),
}


def find_pyproject(start: Path) -> Path | None:
    """The nearest pyproject.toml in `start` or a folder above it (as ruff and pytest look)."""
    start = start.resolve()
    for folder in (start, *start.parents):
        candidate = folder / "pyproject.toml"
        if candidate.is_file():
            return candidate
    return None


def load_config(path: Path | None) -> LintConfig:
    """The lint settings of one pyproject.toml (defaults when None or without the table)."""
    if path is None:
        return LintConfig()
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as e:
        raise ConfigError(f"cannot read {path}: {e}") from None
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{path} is not valid TOML: {e}") from None
    table = data.get("tool", {}).get("catandsl", {}).get("lint", {})
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: [tool.catandsl.lint] must be a table")
    return from_table(table, str(path))


def from_table(table: dict, where: str) -> LintConfig:
    known = {f.name: f for f in fields(LintConfig)}
    config = LintConfig()
    for key in sorted(table):
        value = table[key]
        if key not in known:
            raise ConfigError(f"{where}: [tool.catandsl.lint] has no setting `{key}`; "
                              f"settings: {', '.join(known)}")
        if key == "ignore":
            if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
                raise ConfigError(f'{where}: `ignore` is a list of codes, as ignore = ["L0202"]')
            unknown = [c for c in value if c not in CODES]
            if unknown:
                raise ConfigError(f"{where}: `ignore` names {unknown[0]}, which is no lint code "
                                  "(`catandsl explain` lists them)")
            config = replace(config, ignore=tuple(value))
            continue
        lo, hi = _RANGES[key]
        wanted = float if isinstance(lo, float) else int
        if isinstance(value, bool) or not isinstance(value, (int, float)) or \
                (wanted is int and not isinstance(value, int)) or not lo <= value <= hi:
            kind = "a whole number" if wanted is int else "a number"
            raise ConfigError(f"{where}: `{key}` must be {kind} from {lo} to {hi}, not {value!r}")
        config = replace(config, **{key: wanted(value)})  # type: ignore[arg-type]
    return config
