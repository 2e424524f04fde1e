"""Playthroughs (OpenSpiel style): replay each recorded game and compare its dump line by
line with the file. A failure means the engine now plays these actions differently;
if that is intended, regenerate the files (python scripts/regenerate_playthroughs.py)
and review the diff."""

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("regenerate_playthroughs",
                                               ROOT / "scripts" / "regenerate_playthroughs.py")
regen = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = regen  # dataclasses look their module up
_spec.loader.exec_module(regen)

HOW = f"if the change is intended, run `{regen.REGENERATE}` and review the diff"


@pytest.mark.parametrize("spec", regen.SPECS, ids=lambda s: s.name)
def test_playthrough(spec):
    path = regen.OUT / f"{spec.name}.txt"
    assert path.exists(), f"{path} is missing; {HOW}"
    expected = path.read_text(encoding="utf-8").splitlines()
    actions = regen.recorded_actions("\n".join(expected))
    assert actions, f"{path.name} records no actions; {HOW}"
    try:
        got = regen.dump(spec, actions)
    except ValueError as e:
        pytest.fail(f"{path.name}: {e}; {HOW}")
    for k, (want, have) in enumerate(zip(expected, got), start=1):
        if want != have:
            pytest.fail(f"{path.name}:{k} differs\n  file:   {want[:300]}\n  engine: {have[:300]}\n{HOW}")
    assert len(got) == len(expected), f"{path.name}: {len(expected)} lines in the file, {len(got)} now; {HOW}"


def test_files_end_in_a_finished_game():
    for spec in regen.SPECS:
        text = (regen.OUT / f"{spec.name}.txt").read_text(encoding="utf-8")
        assert "\nfinal: terminal True " in text, spec.name
