"""Write the playthrough files of tests/playthroughs/ (OpenSpiel style).

A playthrough is one seeded game with fixed bots, dumped step by step: for each step the
player to act, the number of legal actions, the scores, a compact state line and the
action taken (id and text); every SERIALIZE_EVERY steps, and at the end, the whole
`serialize()`. tests/playthroughs/test_playthroughs.py replays the recorded action ids
and compares the dump line by line.

    python scripts/regenerate_playthroughs.py            # rewrite every file
    python scripts/regenerate_playthroughs.py --check    # exit 1 if any file is stale

Regenerate whenever the engine changes what a game does, and read the diff first.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

OUT = ROOT / "tests" / "playthroughs"
SERIALIZE_EVERY = 25
REGENERATE = "python scripts/regenerate_playthroughs.py"


@dataclass(frozen=True)
class Spec:
    name: str
    scenario: str  # relative to the repository root
    players: int
    seed: int
    bots: tuple[str, ...]


SPECS = (
    Spec("base_4p_seed1", "scenarios/base.catan", 4, 1, ("greedy", "greedy", "greedy", "greedy")),
    Spec("base_3p_seed2", "scenarios/base.catan", 3, 2, ("greedy", "random", "greedy")),
)


def new_game(spec: Spec):
    from catandsl import new_game as make

    return make(ROOT / spec.scenario, spec.players, {}, spec.seed)


def bot_actions(spec: Spec, max_actions: int = 100_000) -> list[int]:
    """The action ids of the game the spec's bots play (seats seeded seed*100 + seat,
    as `catandsl play` does)."""
    from catandsl.players import GreedyPlayer, RandomPlayer

    game = new_game(spec)
    kinds = {"random": RandomPlayer, "greedy": GreedyPlayer}
    seats = [kinds[spec.bots[p]](spec.seed * 100 + p) for p in range(spec.players)]
    state = game.new_initial_state()
    actions = []
    while not state.is_terminal() and len(actions) < max_actions:
        a = state.sample_chance() if state.is_chance_node() else seats[state.current_player()].choose(state)
        actions.append(a)
        state.apply_action(a)
    return actions


def header(spec: Spec, game) -> list[str]:
    return [
        f"# catandsl playthrough {spec.name}: generated, do not edit; regenerate with {REGENERATE}",
        f"scenario: {spec.scenario}",
        f"players: {spec.players}",
        f"seed: {spec.seed}",
        f"bots: {','.join(spec.bots)}",
        f"num_distinct_actions: {game.num_distinct_actions()}",
    ]


def _who(p: int) -> str:
    return f"P{p + 1}" if p >= 0 else ("chance" if p == -1 else f"none({p})")


def state_line(game, state) -> str:
    from catandsl.render.snapshot import snapshot

    snap = snapshot(game, state)
    hands = " ".join(".".join(map(str, h)) for h in snap.hands)
    built = []
    for p in range(game.num_players):
        counts = {}
        for placed in snap.pieces:
            if placed.owner == p:
                counts[placed.piece] = counts.get(placed.piece, 0) + 1
        built.append(",".join(f"{k}={counts[k]}" for k in sorted(counts)) or "-")
    neutral = ",".join(f"{x.piece}@{x.at}" for x in snap.pieces if x.owner < 0) or "-"
    return (f"{snap.stage} turn {snap.turns} | hands {hands} | bank {'.'.join(map(str, snap.bank))} "
            f"| pieces {' '.join(built)} | {neutral}")


def dump(spec: Spec, actions: list[int]) -> list[str]:
    """The playthrough lines of the game that plays `actions` from the initial state.
    Raises ValueError naming the step if a recorded action is not legal."""
    game = new_game(spec)
    state = game.new_initial_state()
    lines = header(spec, game) + [""]
    for step, a in enumerate(actions):
        legal = state.legal_actions()
        lines.append(f"step {step}")
        lines.append(f"  current: {_who(state.current_player())}  legal: {len(legal)}")
        lines.append(f"  scores: {' '.join(map(str, state.scores()))}")
        lines.append(f"  state: {state_line(game, state)}")
        if step % SERIALIZE_EVERY == 0:
            lines.append(f"  serialized: {state.serialize()}")
        if a not in legal:
            raise ValueError(f"step {step}: recorded action {a} is not legal here")
        lines.append(f"  action: {a} {state.action_to_string(a)}")
        state.apply_action(a)
    winner = state.winner if isinstance(state.winner, int) and state.winner >= 0 else None
    lines += [
        "",
        f"final: terminal {state.is_terminal()} winner {_who(winner) if winner is not None else 'none'} "
        f"reason {state.reason or '-'} turns {state.turns} steps {len(actions)}",
        f"  scores: {' '.join(map(str, state.scores()))}",
        f"  returns: {' '.join(f'{r:g}' for r in state.returns())}",
        f"  state: {state_line(game, state)}",
        f"  serialized: {state.serialize()}",
    ]
    return lines


def recorded_actions(text: str) -> list[int]:
    return [int(line.split()[1]) for line in text.splitlines() if line.startswith("  action: ")]


def main() -> int:
    ap = argparse.ArgumentParser(description="Write the playthrough files of tests/playthroughs/.")
    ap.add_argument("--check", action="store_true", help="only report stale files")
    args = ap.parse_args()
    stale = 0
    for spec in SPECS:
        path = OUT / f"{spec.name}.txt"
        text = "\n".join(dump(spec, bot_actions(spec))) + "\n"
        if args.check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                print(f"stale: {path.relative_to(ROOT)}")
                stale += 1
            continue
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path.relative_to(ROOT)} ({text.count(chr(10))} lines)")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
