"""Records of simulated games, one per game, for analysis: `catandsl simulate --out
games.jsonl` (JSON lines, `pandas.read_json(path, lines=True)`) or `--out games.parquet`
(Parquet through pyarrow, the `parquet` extra; `pandas.read_parquet(path)`).

Every record holds the run it belongs to and how its game ended:

    game          the game's index in the run (0, 1, ...); records are in this order
    seed          the game's own seed (board, dice and bots), from the run's seed and the index
    run_seed      the run's seed (`--seed`)
    scenario      the scenario's declared name
    options       every option's item, chosen or default: {name: item}
    players       how many seats play
    bots          the bot at each seat, seat 0 first
    winner        the one seat that won, or null when nobody won alone
    winners       every seat that won: [winner], the seats sharing a victory, or []
    reason        why the game ended (`victory`, `turn_limit`, a scenario's own end, `error`)
    turns         turns played
    actions       actions applied, chance outcomes included
    points        victory points per seat at the end
    start_player  the seat that placed first
    error         why the game stopped, or null
    history       with `--actions` only: every action id applied, in order, chance outcomes
                  included; with the seed and the options it replays the game
                  (`game.new_initial_state()`, then `apply_action` on each)

Seats are numbered from 0, as everywhere in JSON and the API.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from catandsl.simulate import Result

SUFFIXES = {".jsonl": "jsonl", ".ndjson": "jsonl", ".parquet": "parquet"}
ROWS_PER_GROUP = 4096  # Parquet row groups: bounded memory, and few enough groups to read fast


class RecordsUnavailable(Exception):
    """The records cannot be written in the format asked: an unknown suffix, or Parquet
    without pyarrow."""


@dataclass(frozen=True)
class Run:
    """What every record of one run shares."""

    scenario: str
    run_seed: int
    players: int
    bots: tuple[str, ...]
    options: dict[str, str]

    def record(self, r: Result) -> dict[str, Any]:
        """One game's record (see the module's docstring)."""
        out: dict[str, Any] = {
            "game": r.index, "seed": r.seed, "run_seed": self.run_seed, "scenario": self.scenario,
            "options": dict(sorted(self.options.items())), "players": self.players,
            "bots": [self.bots[p % len(self.bots)] for p in range(self.players)],
            "winner": r.winner, "winners": list(r.winners), "reason": r.reason, "turns": r.turns,
            "actions": r.actions, "points": list(r.scores), "start_player": r.start_player, "error": r.error,
        }
        if r.history is not None:
            out["history"] = list(r.history)
        return out


class Sink(Protocol):
    """Where records go, one game at a time."""

    def write(self, result: Result) -> None: ...

    def close(self) -> None: ...


def records_format(path: Path) -> str:
    """`jsonl` or `parquet`, from the file's suffix; RecordsUnavailable for another."""
    kind = SUFFIXES.get(path.suffix.lower())
    if kind is None:
        raise RecordsUnavailable(f"the file must end in {', '.join(SUFFIXES)} (JSON lines or Parquet)")
    if kind == "parquet":
        import importlib.util

        if importlib.util.find_spec("pyarrow") is None:
            raise RecordsUnavailable("Parquet needs pyarrow: pip install 'catandsl[parquet]' "
                                     "(or write games.jsonl)")
    return kind


def open_records(path: Path, run: Run, history: bool = False) -> Sink:
    """A sink writing `run`'s records to `path`, in the format its suffix names.
    RecordsUnavailable for a format that cannot be written, OSError for the file."""
    if records_format(path) == "parquet":
        return ParquetRecords(path, run, history)
    return JsonLines(path, run)


class JsonLines:
    """One JSON object per line, written as each game ends."""

    def __init__(self, path: Path, run: Run):
        self.run = run
        self.file = path.open("w", encoding="utf-8")

    def write(self, result: Result) -> None:
        self.file.write(json.dumps(self.run.record(result), separators=(",", ":")) + "\n")

    def close(self) -> None:
        self.file.close()


class ParquetRecords:
    """A Parquet file with one row per game, its columns typed once for the run (so runs
    of one scenario concatenate), written in row groups as games end."""

    def __init__(self, path: Path, run: Run, history: bool):
        import pyarrow as pa
        import pyarrow.parquet as pq

        self.run = run
        fields = [("game", pa.int64()), ("seed", pa.int64()), ("run_seed", pa.int64()), ("scenario", pa.string()),
                  ("options", pa.map_(pa.string(), pa.string())), ("players", pa.int64()),
                  ("bots", pa.list_(pa.string())), ("winner", pa.int64()), ("winners", pa.list_(pa.int64())),
                  ("reason", pa.string()), ("turns", pa.int64()), ("actions", pa.int64()),
                  ("points", pa.list_(pa.int64())), ("start_player", pa.int64()), ("error", pa.string())]
        if history:
            fields.append(("history", pa.list_(pa.int64())))
        self.schema = pa.schema(fields)
        self.rows: list[dict[str, Any]] = []
        self.writer = pq.ParquetWriter(str(path), self.schema)

    def write(self, result: Result) -> None:
        row = self.run.record(result)
        row["options"] = list(row["options"].items())  # a Parquet map is a list of pairs
        self.rows.append(row)
        if len(self.rows) >= ROWS_PER_GROUP:
            self._flush()

    def _flush(self) -> None:
        import pyarrow as pa

        if self.rows:
            self.writer.write_table(pa.Table.from_pylist(self.rows, schema=self.schema))
            self.rows = []

    def close(self) -> None:
        try:
            self._flush()
        finally:
            self.writer.close()
