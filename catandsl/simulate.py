"""Many bot games of one scenario, in one process, several, or on a Ray cluster, with
statistics per seat.

Game `i` of a run with seed `S` is played with its own seed `game_seed(S, i)` (board
shuffle, dice and bots alike), so a game's result does not depend on how many workers
share the run, on which machine it runs or in which order they finish: results are
gathered by index, and a Ray run equals a local run game by game. Ray tasks carry the
compiled scenario (its IR as JSON), so the nodes of a cluster need no copy of the file.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path


def game_seed(seed: int, index: int) -> int:
    """The seed of game `index` in a run seeded `seed`: a stable hash (not `hash()`,
    which changes with PYTHONHASHSEED) so neighbouring runs do not share games."""
    digest = hashlib.blake2b(f"catandsl-simulate:{seed}:{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") % (2**31 - 1)


@dataclass(frozen=True)
class Spec:
    """Everything a worker needs to play game `index`."""

    file: str
    players: int
    options: tuple[tuple[str, str], ...]
    bots: tuple[str, ...]
    seed: int
    ir: str | None = None  # the compiled scenario as JSON (Ray tasks), else read from `file`
    history: bool = False  # keep every action of each game (`Result.history`)


@dataclass(frozen=True)
class Result:
    """How game `index` of a run ended. `winner` is the one seat that won (None when nobody
    won alone); `winners` every seat that won, as `catandsl.queries.winners` says."""

    index: int
    seed: int
    winner: int | None
    turns: int
    reason: str
    actions: int
    scores: tuple[int, ...]
    error: str | None = None
    start_player: int = -1  # the seat that placed first: `balance` counts wins by turn order
    winners: tuple[int, ...] = ()
    history: tuple[int, ...] | None = None  # every action id applied, chance outcomes too, when asked


def _bot(kind: str, seed: int):
    from catandsl.players import make_bot

    return make_bot(kind, seed)


_SCENARIOS: dict[str, object] = {}


def _scenario(spec: Spec):
    key = spec.ir if spec.ir is not None else spec.file
    if key not in _SCENARIOS:
        import catandsl
        from catandsl import verdicts

        if spec.ir is not None:
            _SCENARIOS[key] = catandsl.Scenario.from_json(json.loads(spec.ir))
        else:  # a file that checked clean and is unchanged comes from its note, uncompiled
            _SCENARIOS[key] = verdicts.recall_scenario(Path(spec.file)) or catandsl.load(spec.file)
    return _SCENARIOS[key]


def play_one(spec: Spec, index: int) -> Result:
    """Play game `index` of the run to its end (every game ends: the engine bounds it)."""
    from catandsl.board import BoardError
    from catandsl.engine import EngineError, IllegalAction, new_game
    from catandsl.engine.queries import winners

    s = game_seed(spec.seed, index)
    history: list[int] = []
    try:
        game = new_game(_scenario(spec), spec.players, dict(spec.options), s)
        seats = [_bot(spec.bots[p % len(spec.bots)], s * 100 + p) for p in range(game.num_players)]
        state = game.new_initial_state()
        actions = 0
        while not state.is_terminal():
            a = (state.sample_chance() if state.is_chance_node()
                 else seats[state.current_player()].choose(state))
            state.apply_action(a)
            actions += 1
            if spec.history:
                history.append(a)
    except (EngineError, IllegalAction, BoardError) as e:
        # a deal `check` did not sample may break the map: that game is an error, the run goes on
        return Result(index, s, None, 0, "error", 0, (), f"{type(e).__name__}: {e}",
                      history=tuple(history) if spec.history else None)
    winner = state.winner if state.winner >= 0 else None
    return Result(index, s, winner, state.turns, state.reason, actions, tuple(state.scores()),
                  start_player=state.start_player, winners=tuple(winners(state)),
                  history=tuple(history) if spec.history else None)


def _play_index(args) -> Result:
    spec, index = args
    return play_one(spec, index)


def play_batch(spec: Spec, indices: list[int]) -> list[Result]:
    """A Ray task: several games of the run, so each task is worth its scheduling."""
    return [play_one(spec, i) for i in indices]


@dataclass
class Summary:
    """What a `simulate` run gives: its settings and every game's result."""

    games: int
    players: int
    bots: tuple[str, ...]
    seed: int
    workers: int
    results: list[Result] = field(default_factory=list)
    seconds: float = 0.0

    def to_json(self) -> dict:
        ok = [r for r in self.results if r.error is None]
        wins = [sum(1 for r in ok if r.winner == p) for p in range(self.players)]
        capped = sum(1 for r in ok if r.winner is None)
        n = len(ok) or 1
        return {
            "games": self.games,
            "players": self.players,
            "bots": [self.bots[p % len(self.bots)] for p in range(self.players)],
            "seed": self.seed,
            "workers": self.workers,
            "wins": wins,
            "win_rate": [round(w / n, 4) for w in wins],
            "no_winner": capped,
            "turn_cap_share": round(capped / n, 4),
            "mean_turns": round(sum(r.turns for r in ok) / n, 2),
            "mean_actions": round(sum(r.actions for r in ok) / n, 2),
            "longest_game": max((r.actions for r in ok), default=0),
            "ends": {reason: sum(1 for r in ok if r.reason == reason)
                     for reason in sorted({r.reason for r in ok})},
            "mean_scores": [round(sum(r.scores[p] for r in ok) / n, 2) for p in range(self.players)],
            "errors": [{"game": r.index, "seed": r.seed, "error": r.error}
                       for r in self.results if r.error is not None],
            "seconds": round(self.seconds, 3),
            "games_per_second": round(len(self.results) / self.seconds, 3) if self.seconds else None,
        }


BACKENDS = ("local", "ray")


def simulate(file: str | Path, games: int, *, seed: int = 1, players: int, workers: int = 1,
             bots: tuple[str, ...] = ("random",), options: dict | None = None,
             progress=None, backend: str = "local", address: str | None = None,
             history: bool = False, on_result: Callable[[Result], None] | None = None) -> Summary:
    """Play `games` games; `progress(done)` is called as they finish. Results in index
    order. `backend` "ray" runs them as Ray tasks: on the cluster at `address`, or on a
    local Ray instance of `workers` CPUs (started here, and shut down after, when none
    is running). `on_result(result)` sees every result in index order, with every action
    of its game in `history` when `history` is set; the summary keeps them without it."""
    spec = Spec(str(file), players, tuple(sorted((options or {}).items())), tuple(bots), seed, history=history)
    summary = Summary(games, players, tuple(bots), seed, workers)
    started = time.perf_counter()

    def keep(r: Result, finished: int) -> None:
        if on_result:
            on_result(r)
        summary.results.append(replace(r, history=None) if r.history is not None else r)
        if progress and finished:
            progress(finished)

    jobs = [(spec, i) for i in range(games)]
    if backend == "ray":  # the tasks report progress as they arrive, out of order
        for r in _simulate_ray(spec, games, workers, address, progress):
            keep(r, 0)
    elif workers <= 1:
        for job in jobs:
            keep(_play_index(job), job[1] + 1)
    else:
        import multiprocessing

        chunk = max(1, min(8, games // (workers * 4) or 1))
        with multiprocessing.get_context("spawn").Pool(workers) as pool:
            for r in pool.imap(_play_index, jobs, chunksize=chunk):
                keep(r, r.index + 1)
    summary.seconds = time.perf_counter() - started
    return summary


def _simulate_ray(spec: Spec, games: int, workers: int, address: str | None, progress) -> list[Result]:
    """The games as Ray tasks in batches; results gathered as they arrive, by index."""
    import ray

    started_here = not ray.is_initialized()
    if started_here:
        kw = {"address": address} if address else {"num_cpus": max(1, workers)}
        ray.init(include_dashboard=False, log_to_driver=False, configure_logging=False, **kw)
    try:
        spec = _with_ir(spec)
        task = ray.remote(play_batch)
        size = max(1, min(64, games // (max(1, workers) * 4) or 1))
        pending = [task.remote(spec, list(range(i, min(i + size, games)))) for i in range(0, games, size)]
        done: dict[int, Result] = {}
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            for result in ray.get(ready[0]):
                done[result.index] = result
            if progress:
                progress(len(done))
        return [done[i] for i in range(games)]
    finally:
        if started_here:
            ray.shutdown()


def _with_ir(spec: Spec) -> Spec:
    return replace(spec, ir=json.dumps(_scenario(spec).to_json()))
