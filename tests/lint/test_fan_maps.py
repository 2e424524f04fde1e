"""The fan maps in examples/fan_maps/: each one's lint output is golden, the broken and
unfair ones say so, and every legal one (no errors) plays a complete game of greedy bots
to a victory.

    python tests/lint/test_fan_maps.py --update    # rewrite tests/lint/golden/fan_maps/
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from catandsl.lint import LintConfig, lint_path
from catandsl.lint.formats import to_text

ROOT = Path(__file__).resolve().parents[2]
MAPS = sorted((ROOT / "examples" / "fan_maps").glob("*.catan"))
GOLDEN = ROOT / "tests" / "lint" / "golden" / "fan_maps"
CONFIG = LintConfig(samples=16)  # fewer deals than the default keeps the suite quick
# what each broken or unfair map must be found to be
EXPECTED = {
    "broken_pool": {"E0403"}, "broken_harbor": {"E0404"}, "broken_islands": {"L0101"},
    "crowded": {"L0102"}, "unfair_hot_center": {"L0201", "L0208"}, "unfair_no_ore": {"L0204", "L0205"},
}


def _lint(path: Path) -> str:
    return to_text([lint_path(path.relative_to(ROOT), CONFIG)])


@pytest.fixture(autouse=True)
def _in_checkout(monkeypatch):
    monkeypatch.chdir(ROOT)


def test_the_collection():
    assert len(MAPS) >= 12
    assert len([m for m in MAPS if m.stem in EXPECTED]) >= 4
    for path in MAPS:  # each says what it is
        assert path.read_text(encoding="utf-8").startswith("# "), path.name


@pytest.mark.parametrize("path", MAPS, ids=lambda p: p.stem)
def test_lint_output_is_golden(path):
    assert _lint(path) == (GOLDEN / f"{path.stem}.txt").read_text(encoding="utf-8"), \
        "run: python tests/lint/test_fan_maps.py --update"


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_broken_and_unfair_maps_are_found(name):
    result = lint_path(Path("examples/fan_maps") / f"{name}.catan", CONFIG)
    assert EXPECTED[name] <= {d.code for d in result.diagnostics}


LEGAL = [p for p in MAPS if not p.stem.startswith(("broken_", "crowded"))]


@pytest.mark.parametrize("path", LEGAL, ids=lambda p: p.stem)
def test_a_legal_map_plays_a_complete_game(path):
    from catandsl.engine import new_game
    from catandsl.players import BOTS, play_game

    result = lint_path(path.relative_to(ROOT), CONFIG)
    assert result.scenario is not None and result.errors == 0, to_text([result])
    scenario = result.scenario
    game = new_game(scenario, scenario.players_min, {}, 1)
    state, _ = play_game(game, [BOTS["greedy"](100 + i) for i in range(game.num_players)], seed=1)
    assert state.is_terminal() and state.reason == "victory", (state.reason, state.turns)
    assert state.scores()[state.winner] >= game.victory


if __name__ == "__main__" and "--update" in sys.argv:
    import os

    os.chdir(ROOT)
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for path in MAPS:
        (GOLDEN / f"{path.stem}.txt").write_text(_lint(path), encoding="utf-8")
    print(f"updated {GOLDEN.relative_to(ROOT)}")
