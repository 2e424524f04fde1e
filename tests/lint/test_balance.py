"""`catandsl balance`: the figures on a map small enough to check by hand, the
statistics against known values, the fairness verdict on a map built to favour the first
seat (unfair) and on the base game with its shuffled layout (fair), and the HTML page.

The verdict's test: wins by seat in turn order against equal shares, chi-square goodness
of fit, unfair when p < 0.01. The games are seeded (run seed 1), so each verdict is the
same on every run."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from catandsl.cli import main
from catandsl.compiler import compile_path
from catandsl.diagnostics import Span
from catandsl.ir import configure
from catandsl.lint.balance import chi_square_sf, measure, verdict, wilson

ROOT = Path(__file__).resolve().parents[2]
UNFAIR = "tests/fixtures/lint/unfair_first_seat.catan"


@pytest.fixture(autouse=True)
def _in_checkout(monkeypatch):
    monkeypatch.chdir(ROOT)


def balance(capsys, *args) -> tuple[int, str, str]:
    code = main(["balance", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_figures_of_a_small_fixed_map():
    scenario, diags, _ = compile_path(ROOT / UNFAIR)
    assert scenario is not None, diags
    b = measure(configure(scenario, 2, {}), 1, 64, Span(UNFAIR, 1, 1))
    assert b.deals == 1  # a fixed map is measured once
    assert b.resource_pips == {"brick": 5, "lumber": 2, "wool": 2, "grain": 5, "ore": 5}
    assert b.strongest[0] == ((0, 0, "N"), 14, (5, 6, 8))
    # seat 1 takes the 14-pip spot; its neighbours (11 and 12 pips) are closed to seat 2
    assert b.draft == [14, 8]


def test_a_shuffled_map_is_measured_over_its_deals():
    scenario, _, _ = compile_path(ROOT / "scenarios/base.catan")
    rs = configure(scenario, 4, {"layout": "random"})
    b = measure(rs, 1, 16, Span("base", 1, 1))
    assert b.deals == 16
    assert sum(b.resource_pips.values()) == pytest.approx(58)  # every deal lays the same 18 tokens
    assert b.number_pips[6] == pytest.approx(10) and b.number_pips[2] == pytest.approx(1)
    again = measure(rs, 1, 16, Span("base", 1, 1))
    assert again.to_json() == b.to_json()


def test_statistics_against_known_values():
    # chi-square critical values at 5% (tables): 3.841 (1 df), 7.815 (3 df), 9.488 (4 df)
    assert chi_square_sf(3.841, 1) == pytest.approx(0.05, abs=1e-4)
    assert chi_square_sf(7.815, 3) == pytest.approx(0.05, abs=1e-4)
    assert chi_square_sf(9.488, 4) == pytest.approx(0.05, abs=1e-4)
    assert chi_square_sf(0.0, 3) == 1.0
    low, high = wilson(5, 10)
    assert (round(low, 4), round(high, 4)) == (0.2366, 0.7634)
    assert verdict([10, 10, 10])["verdict"] == "no seat advantage found"
    assert verdict([30, 5, 5])["verdict"] == "unfair"
    # p between 0.01 and 0.05 (chi-square 6.86 on 2 df: p = 0.032): not "fair", not shown unfair
    assert verdict([22, 10, 10])["verdict"] == "inconclusive"


def test_the_verdict_on_an_unfair_map_is_unfair(capsys):
    # 40 games: greedy bots trade toward what they lack, which narrows the first seat's
    # lead (75% of 20 games is not past the 1% threshold; 80% of 40 is)
    code, out, _ = balance(capsys, UNFAIR, "--simulate", "40")
    assert code == 0
    assert "verdict at the 1% level: unfair" in out, out


def test_the_verdict_on_the_base_game_is_fair(capsys):
    code, out, _ = balance(capsys, "scenarios/base.catan", "--option", "layout=random", "--simulate", "32",
                           "--format", "json")
    assert code == 0
    games = json.loads(out)["games"]
    assert games["decided"] == 32 and games["verdict"] == "no seat advantage found", games
    assert games["bots"] == ["greedy"]


def test_the_html_page_holds_its_plots(capsys, tmp_path):
    page = tmp_path / "report.html"
    code, out, _ = balance(capsys, UNFAIR, "--simulate", "4", "--html", str(page))
    assert code == 0, out
    text = page.read_text(encoding="utf-8")
    assert text.count("<svg") == 4  # the heat map, resources, the draft, the win rates
    assert "Verdict at the 1% level, for greedy bots:" in text and "Intersection strength" in text
    assert "<script" not in text and "src=" not in text  # self-contained


def test_the_html_page_without_matplotlib_is_a_usage_error(capsys, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    code, _, err = balance(capsys, UNFAIR, "--html", str(tmp_path / "r.html"))
    assert code == 2 and "pip install 'catandsl[report]'" in err


def test_text_output_and_usage_errors(capsys):
    code, out, _ = balance(capsys, UNFAIR)
    assert code == 0
    assert "greedy snake draft, pips per seat: seat 1 14.0, seat 2 8.0" in out
    assert balance(capsys, UNFAIR, "--option", "nope=x")[0] == 2
    assert balance(capsys, UNFAIR, "--format", "xml")[0] == 2
    assert balance(capsys, "tests/fixtures/bad/E0302_unknown_resource.catan")[0] == 1


def test_balance_plays_the_bots_asked_for(capsys):
    code, out, _ = balance(capsys, UNFAIR, "--simulate", "2", "--bots", "mcts:3", "--format", "json")
    assert code == 0
    games = json.loads(out)["games"]
    assert games["bots"] == ["mcts:3"] and games["games"] == 2
    code, out, _ = balance(capsys, UNFAIR, "--simulate", "2", "--bots", "mcts:3")
    assert "2 games of mcts:3 bots" in out and "verdict at the 1% level" in out
    assert balance(capsys, UNFAIR, "--simulate", "2", "--bots", "clever")[0] == 2
