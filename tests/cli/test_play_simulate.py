"""`play --html/--svg` and `simulate` through the command line."""

import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from html.parser import HTMLParser

from catandsl.cli import main
from tests.conftest import ROOT


def run(*args):
    p = subprocess.run([sys.executable, "-m", "catandsl", *args], cwd=ROOT, capture_output=True, text=True)
    assert "Traceback" not in p.stdout + p.stderr
    return p


def test_play_writes_html_replay_and_final_state_svg(tmp_path):
    html, svg = tmp_path / "replay.html", tmp_path / "final.svg"
    p = run("play", "scenarios/base.catan", "--players", "4", "--seed", "1", "--bots", "greedy",
            "--format", "json", "--html", str(html), "--svg", str(svg))
    assert p.returncode == 0, p.stderr
    summary = json.loads(p.stdout)
    page = html.read_text()
    HTMLParser().feed(page)
    start = page.index('id="replay-data">') + len('id="replay-data">')
    data = json.loads(page[start:page.index("</script>", start)])
    assert data["final"]["scores"] == summary["scores"]
    turn_frames = [f for f in data["frames"] if f["label"].startswith("turn")]
    assert len(turn_frames) == summary["turns"]
    assert data["frames"][-1]["scores"] == summary["scores"]
    root = ET.fromstring(svg.read_text())
    pieces = [e for e in root.iter() if "piece" in e.get("class", "").split()]
    legend = [int(e.get("data-vp")) for e in root.iter() if e.get("class") == "legend-entry"]
    assert legend == summary["scores"]
    assert sum(1 for e in pieces if e.get("data-piece") == "robber") == 1
    assert sum(1 for e in pieces if e.get("data-piece") in ("settlement", "city")) >= 8


def simulate_json(workers):
    p = run("simulate", "scenarios/base.catan", "--games", "20", "--workers", str(workers), "--seed", "5",
            "--format", "json")
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


def test_simulate_results_do_not_depend_on_workers():
    one, two = simulate_json(1), simulate_json(2)
    for key in ("wins", "win_rate", "no_winner", "turn_cap_share", "mean_turns", "mean_actions", "mean_scores"):
        assert one[key] == two[key], key
    assert one["games"] == 20 and sum(one["wins"]) + one["no_winner"] == 20
    assert one["errors"] == [] and one["games_per_second"] > 0


def test_simulate_text_table(tmp_path):
    p = run("simulate", "scenarios/base.catan", "--games", "3", "--seed", "2", "--players", "3",
            "--bots", "greedy,random")
    assert p.returncode == 0, p.stderr
    for text in ("P1", "P3", "win rate", "turn cap", "mean turns", "games per second"):
        assert text in p.stdout, text
    assert "P4" not in p.stdout


def test_play_with_the_search_bot():
    p = run("play", "examples/seven_hex_island.catan", "--players", "2", "--seed", "3", "--bots", "mcts:4,greedy",
            "--format", "json")
    assert p.returncode == 0, p.stderr
    summary = json.loads(p.stdout)
    assert summary["bots"] == ["mcts:4", "greedy"] and summary["reason"] == "victory"


def test_simulate_usage_errors():
    assert main(["simulate", "scenarios/base.catan", "--games", "2", "--bots", "mcts:0"]) == 2
    assert main(["simulate", "scenarios/base.catan", "--games", "2", "--bots", "clever"]) == 2
    assert main(["simulate", "scenarios/base.catan", "--games", "0"]) == 2
    assert main(["simulate", "scenarios/base.catan", "--games", "2", "--format", "xml"]) == 2
    assert main(["simulate", "scenarios/base.catan", "--games", "2", "--option", "layout=spiral"]) == 2
    assert main(["simulate", "no-such-file.catan", "--games", "2"]) == 1
