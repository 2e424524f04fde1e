"""`simulate --out`: one record per game, as JSON lines or Parquet, that agree with the
summary, replay to the same end with their actions, and name the winners as the
protocol does."""

import json

import pytest

from catandsl.cli import main
from tests.conftest import ROOT

BASE = str(ROOT / "scenarios" / "base.catan")
ISLAND = str(ROOT / "examples" / "seven_hex_island.catan")


def simulate(capsys, *args) -> dict:
    code = main(["simulate", *args, "--format", "json"])
    out = capsys.readouterr().out
    assert code == 0, out
    return json.loads(out)


def read_lines(path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_json_lines_hold_one_record_per_game_agreeing_with_the_summary(tmp_path, capsys):
    out = tmp_path / "games.jsonl"
    summary = simulate(capsys, BASE, "--games", "5", "--seed", "7", "--players", "3", "--bots", "greedy,random",
                       "--option", "layout=random", "--out", str(out))
    records = read_lines(out)
    assert [r["game"] for r in records] == list(range(5))
    assert len({r["seed"] for r in records}) == 5
    for r in records:
        assert r["run_seed"] == 7 and r["scenario"] == "base" and r["players"] == 3
        assert r["bots"] == ["greedy", "random", "greedy"]
        assert r["options"]["layout"] == "random" and set(r["options"]) >= {"layout"}  # defaults named too
        assert len(r["points"]) == 3 and r["error"] is None and "history" not in r
        assert r["winners"] == ([r["winner"]] if r["winner"] is not None else r["winners"])
        if r["reason"] == "victory":
            assert r["winner"] is not None and r["points"][r["winner"]] == max(r["points"])
    assert [sum(1 for r in records if r["winner"] == p) for p in range(3)] == summary["wins"]
    assert sum(r["turns"] for r in records) / 5 == pytest.approx(summary["mean_turns"], abs=0.01)
    assert sum(r["actions"] for r in records) / 5 == pytest.approx(summary["mean_actions"], abs=0.01)


def test_records_do_not_depend_on_workers(tmp_path, capsys):
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    simulate(capsys, ISLAND, "--games", "6", "--seed", "3", "--out", str(one))
    simulate(capsys, ISLAND, "--games", "6", "--seed", "3", "--workers", "2", "--out", str(two))
    assert one.read_bytes() == two.read_bytes()


def test_the_actions_of_a_record_replay_its_game(tmp_path, capsys):
    import catandsl

    out = tmp_path / "games.jsonl"
    simulate(capsys, BASE, "--games", "2", "--seed", "5", "--players", "4", "--out", str(out), "--actions")
    scenario = catandsl.load(BASE)
    for r in read_lines(out):
        assert len(r["history"]) == r["actions"]
        state = catandsl.new_game(scenario, r["players"], r["options"], r["seed"]).new_initial_state()
        for a in r["history"]:
            state.apply_action(a)
        assert state.is_terminal() and state.scores() == r["points"] and state.turns == r["turns"]
        assert (state.winner if state.winner >= 0 else None) == r["winner"]


def test_parquet_holds_the_same_records(tmp_path, capsys):
    pq = pytest.importorskip("pyarrow.parquet", reason="the parquet extra")
    lines, parquet = tmp_path / "games.jsonl", tmp_path / "games.parquet"
    simulate(capsys, ISLAND, "--games", "5", "--seed", "2", "--out", str(lines), "--actions")
    simulate(capsys, ISLAND, "--games", "5", "--seed", "2", "--out", str(parquet), "--actions")
    rows = pq.read_table(parquet).to_pylist()
    for row in rows:
        row["options"] = dict(row["options"])  # a Parquet map reads back as pairs
    assert rows == read_lines(lines)


def test_parquet_without_pyarrow_is_a_usage_error_before_any_game(tmp_path, capsys, monkeypatch):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "pyarrow" else real(name, *a))
    played = []
    monkeypatch.setattr("catandsl.simulate.play_one", lambda *a: played.append(a))
    out = tmp_path / "games.parquet"
    assert main(["simulate", ISLAND, "--games", "2", "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "pyarrow" in err and "(--out)" in err
    assert played == [] and not out.exists()


@pytest.mark.parametrize(("args", "words"), [
    (["--out", "games.csv"], ["games.csv", ".jsonl", ".parquet"]),
    (["--actions"], ["--actions", "--out"]),
])
def test_record_usage_errors(tmp_path, capsys, monkeypatch, args, words):
    monkeypatch.chdir(tmp_path)
    assert main(["simulate", ISLAND, "--games", "1", *args]) == 2
    err = capsys.readouterr().err
    assert all(w in err for w in words) and not list(tmp_path.iterdir())
