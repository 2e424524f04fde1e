"""Seafarers in the language: stdlib/seafarers.catan and the scenarios "Heading for New
Shores" and "The Four Islands" (scenarios/seafarers/), checked against the rules and the
JSettlers2 reference layouts (tests/fixtures/layouts).

These tests read the compiled IR only, so they compile with `compile_path` (no trial
game); the engine's own tests play the scenarios.
"""

from __future__ import annotations

import json
import subprocess
from collections import Counter
from pathlib import Path

import pytest

from catandsl.board import instantiate
from catandsl.compiler import compile_path
from catandsl.diagnostics import format_all
from catandsl.ir import configure

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "scenarios" / "seafarers"
NEW_SHORES = SCENARIOS / "heading_for_new_shores.catan"
FOUR_ISLANDS = SCENARIOS / "four_islands.catan"
LAYOUTS = Path(__file__).resolve().parents[1] / "fixtures" / "layouts" / "jsettlers2_seafarers.json"
REFERENCE = {NEW_SHORES: "SC_NSHO", FOUR_ISLANDS: "SC_4ISL"}
# JSettlers2's terrain names -> the project's
JS_TERRAIN = {"clay": "hills", "ore": "mountains", "sheep": "pasture", "wheat": "fields",
              "wood": "forest", "desert": "desert", "gold": "gold"}
SEEDS = range(1, 9)


def _compiled(path: Path):
    scenario, diags, sources = compile_path(path)
    assert scenario is not None, format_all(diags, sources)
    assert not [d for d in diags if d.is_error], format_all(diags, sources)
    return scenario


@pytest.fixture(scope="module")
def new_shores():
    return _compiled(NEW_SHORES)


@pytest.fixture(scope="module")
def four_islands():
    return _compiled(FOUR_ISLANDS)


def _land(ruleset, board) -> dict[tuple[int, int], str]:
    out = {}
    for k, h in enumerate(board.hexes):
        name = board.terrain(k)
        if not ruleset.terrains[name].water:
            out[h] = name
    return out


def _numbers(board) -> dict[tuple[int, int], int]:
    return {h: n for h, n in ((h, board.graph.nodes[("hex", *h)]["number"]) for h in board.hexes) if n}


def _rule(ruleset, name: str):
    (rule,) = [r for r in ruleset.rules if r.name == name]
    return rule


def _layout(path: Path, players: int) -> dict:
    layouts = json.loads(LAYOUTS.read_text(encoding="utf-8"))[REFERENCE[path]]["layouts"]
    layout = layouts[f"{players}_players"]
    return layouts["4_players"] if isinstance(layout, str) else layout


# ---- the library ---------------------------------------------------------------------------


def test_the_library_compiles_and_declares_the_general_rules(new_shores):
    rs = configure(new_shores, 4, {})
    ship = rs.pieces["ship"]
    assert ship.site == "path" and ship.limit == 15
    assert {a.name: a.count for a in ship.cost} == {"lumber": 1, "wool": 1}
    assert set(ship.connects) == {"ship", "settlement", "city"}
    assert ship.movement.open_end_only and ship.movement.not_built_this_turn
    assert ship.movement.per_turn == 1 and ship.movement.blocked_by == ("pirate",)
    # ships move in the phases that allow `move`: after the roll, by default
    assert [(p.name, [a.activity for a in p.allows if a.activity == "move"]) for p in rs.turn.phases] == \
        [("roll", []), ("main", ["move"])]
    assert "ship" in rs.pieces["settlement"].connects
    pirate = rs.pieces["pirate"]
    assert pirate.neutral and pirate.site == "hex"
    assert pirate.blocks == ("ship",) and pirate.steals_from == ("ship",)
    assert rs.terrains["gold"].choice
    assert "longest_road" not in rs.awards and "longest_trade_route" in rs.awards
    assert rs.awards["longest_trade_route"].points == 2 and rs.awards["longest_trade_route"].min == 5
    steps = [s for r in rs.setup.rounds for s in r.steps if s.action == "place"]
    assert [s.pieces for s in steps if s.touching_last] == [("road", "ship")] * 2


def test_the_library_defaults_victory_to_12(tmp_path):
    f = tmp_path / "tiny.catan"
    f.write_text('scenario "Tiny" {\n  uses seafarers\n  map { hex (0, 0) forest 8 }\n}\n')
    scenario = _compiled(f)
    assert configure(scenario, 3, {}).settings["victory"] == 12


def _moving_phases(rs) -> list[str]:
    return [p.name for p in rs.turn.phases if any(a.activity == "move" for a in p.allows)]


def test_ship_moves_timing_is_an_option(new_shores):
    assert _moving_phases(configure(new_shores, 3, {})) == ["main"]
    assert _moving_phases(configure(new_shores, 3, {"ship_moves": "any_time"})) == ["roll", "main"]
    both = {"ship_moves": "any_time", "trade_build": "separate"}
    assert _moving_phases(configure(new_shores, 3, both)) == ["roll", "trade", "main"]
    assert _moving_phases(configure(new_shores, 3, {"trade_build": "separate"})) == ["trade", "main"]


def test_gold_at_set_up_is_an_option(new_shores):
    assert configure(new_shores, 3, {}).params["setup_gold"] == 1
    assert configure(new_shores, 3, {"setup_gold": "nothing"}).params["setup_gold"] == 0
    rule = _rule(configure(new_shores, 3, {}), "setup_gold")
    assert rule.hooks[0].event == "collected" and rule.hooks[0].filters == ("settlement",)


# ---- Heading for New Shores ---------------------------------------------------------------


def test_new_shores_options(new_shores):
    for players in (3, 4):
        assert configure(new_shores, players, {}).settings["victory"] == 14
        assert configure(new_shores, players, {"target": "old"}).settings["victory"] == 13
        assert configure(new_shores, players, {}).params["island_bonus"] == 1  # the seed
        assert configure(new_shores, players, {"island_bonus": "current"}).params["island_bonus"] == 2


def test_new_shores_starts_on_the_main_island(new_shores):
    rs = configure(new_shores, 3, {})
    settle = [s for r in rs.setup.rounds for s in r.steps if s.pieces == ("settlement",)]
    assert len(settle) == 2 and all(s.where is not None for s in settle)
    assert all(s.where.value == "on_island" for s in settle)


# C.4: (main island, small islands) per terrain
NEW_SHORES_LAND = {
    3: ({"fields": 3, "hills": 2, "mountains": 2, "pasture": 4, "forest": 3},
        {"gold": 2, "fields": 1, "hills": 2, "mountains": 2, "pasture": 1}),
    4: ({"desert": 1, "fields": 4, "hills": 3, "mountains": 3, "pasture": 4, "forest": 4},
        {"gold": 2, "fields": 1, "hills": 2, "mountains": 2, "pasture": 1, "forest": 1}),
}
NEW_SHORES_NUMBERS = {
    3: (Counter({2: 1, 3: 1, 4: 1, 5: 2, 6: 2, 8: 2, 9: 1, 10: 2, 11: 2}),
        Counter({3: 1, 4: 2, 5: 1, 8: 1, 9: 1, 10: 1, 12: 1})),
    4: (Counter({2: 1, 3: 2, 4: 2, 5: 2, 6: 2, 8: 2, 9: 2, 10: 2, 11: 2, 12: 1}),
        Counter({2: 1, 3: 1, 4: 1, 5: 1, 6: 1, 8: 1, 9: 1, 10: 1, 11: 1})),
}


# The 4th/5th edition's tables and starting hexes (JSettlers2's layouts); the seed's are the
# defaults, tested in tests/engine/test_seed_editions.py.
FIFTH = {"edition": "fifth", "tables": "fifth", "harbor_setup": "shuffled"}  # harbors dealt: their pool shows


@pytest.mark.parametrize("players", [3, 4])
def test_new_shores_land_and_numbers_per_area(new_shores, players):
    rs = configure(new_shores, players, FIFTH)
    for seed in SEEDS:
        board = instantiate(rs, seed)
        land, numbers = _land(rs, board), _numbers(board)
        main = {board.hexes[k] for i in board.island_names["main"] for k in board.islands[i]}
        wanted = (NEW_SHORES_LAND[players], NEW_SHORES_NUMBERS[players])
        for area, want_land, want_numbers in (
            ([h for h in land if h in main], *(t[0] for t in wanted)),
            ([h for h in land if h not in main], *(t[1] for t in wanted)),
        ):
            assert Counter(land[h] for h in area) == Counter(want_land), seed
            assert Counter(numbers[h] for h in area if h in numbers) == want_numbers, seed
        assert len(board.harbors) == {3: 8, 4: 9}[players]
        assert Counter(h.type.resource for h in board.harbors)[None] == {3: 3, 4: 4}[players]
        robber = board.hexes[board.starts["robber"]]
        if players == 3:  # C.2: the hills with the 12, on a small island
            assert (land[robber], numbers[robber]) == ("hills", 12) and robber not in main
        else:
            assert land[robber] == "desert"
        assert rs.terrains[board.terrain(board.starts["pirate"])].water


# ---- The Four Islands -----------------------------------------------------------------------


def test_four_islands_options(four_islands):
    assert configure(four_islands, 3, {}).settings["victory"] == 12
    assert configure(four_islands, 4, {}).settings["victory"] == 12
    assert configure(four_islands, 4, {"target_4": "island_traders"}).settings["victory"] == 13
    assert configure(four_islands, 3, {"target_4": "island_traders"}).settings["victory"] == 12
    assert configure(four_islands, 3, {}).params["foreign_bonus"] == 1
    assert configure(four_islands, 3, {"foreign_bonus": "flat"}).params["foreign_bonus"] == 2


def test_four_islands_marks_home_islands_when_the_set_up_ends(four_islands):
    rs = configure(four_islands, 4, {})
    hook = _rule(rs, "home_islands").hooks[0]
    assert hook.event == "setup_ended"
    text = repr(hook)
    assert "islands_of" in text and "mark_island" in text
    special = [r for r in rs.rules if r.category == "special_victory"]
    assert len(special) == 1
    text = repr(special[0])
    for name in ("in_setup", "island_marked", "first_on", "islands_with", "nth", "vp_token"):
        assert f"'{name}'" in text, name


# D.5
FOUR_ISLANDS_LAND = {
    3: {"fields": 4, "hills": 4, "mountains": 4, "pasture": 4, "forest": 4},
    4: {"fields": 5, "hills": 4, "mountains": 4, "pasture": 5, "forest": 5},
}
FOUR_ISLANDS_NUMBERS = {
    3: Counter({2: 1, 3: 2, 4: 2, 5: 3, 6: 2, 8: 2, 9: 3, 10: 2, 11: 2, 12: 1}),
    4: Counter({2: 1, 3: 2, 4: 3, 5: 3, 6: 2, 8: 2, 9: 3, 10: 3, 11: 3, 12: 1}),
}


@pytest.mark.parametrize("players", [3, 4])
def test_four_islands_land_and_numbers(four_islands, players):
    rs = configure(four_islands, players, FIFTH)
    for seed in SEEDS:
        board = instantiate(rs, seed)
        land, numbers = _land(rs, board), _numbers(board)
        assert Counter(land.values()) == Counter(FOUR_ISLANDS_LAND[players])
        assert Counter(numbers.values()) == FOUR_ISLANDS_NUMBERS[players]
        assert sorted(len(i) for i in board.islands) == {3: [4, 4, 6, 6], 4: [4, 4, 7, 8]}[players]
        assert len(board.harbors) == 9
        assert numbers[board.hexes[board.starts["robber"]]] == 12  # D.2
        assert rs.terrains[board.terrain(board.starts["pirate"])].water


# ---- both maps against JSettlers2 ----------------------------------------------------------


@pytest.mark.parametrize("path", [NEW_SHORES, FOUR_ISLANDS], ids=lambda p: p.stem)
@pytest.mark.parametrize("players", [3, 4])
def test_maps_match_the_jsettlers2_layouts(path, players, new_shores, four_islands):
    scenario = new_shores if path == NEW_SHORES else four_islands
    layout = _layout(path, players)
    rs = configure(scenario, players, FIFTH)
    board = instantiate(rs, 1)
    land = _land(rs, board)
    # hex for hex: every land hex where JSettlers2 has one, each land area one island
    areas = [{tuple(h["axial_qr"]) for h in area["hexes"]}
             for g in layout["hex_groups"] for area in g["land_areas"]]
    assert set(land) == set().union(*areas)
    islands = sorted(sorted(board.hexes[k] for k in island) for island in board.islands)
    assert islands == sorted(sorted(a) for a in areas)
    # the terrain and number pools, per group of areas
    for g in layout["hex_groups"]:
        hexes = {tuple(h["axial_qr"]) for area in g["land_areas"] for h in area["hexes"]}
        want = Counter({JS_TERRAIN[t]: n for t, n in g["hex_type_pool"].items()})
        assert Counter(land[h] for h in hexes) == want, g["name"]
        numbers = _numbers(board)
        assert Counter(numbers[h] for h in hexes if h in numbers) == Counter(
            {int(k): v for k, v in g["dice_pool"].items()}), g["name"]
    # harbor edge for harbor edge, and the same pool of harbor types
    ports = layout["ports"]
    assert {(h.land, h.water) for h in board.harbors} == {
        (tuple(x["land_hex"]["axial_qr"]), tuple(x["water_hex"]["axial_qr"])) for x in ports["locations"]}
    js_ports = Counter()
    for kind, n in ports["port_type_pool"].items():
        js_ports[None if kind == "generic_3to1" else JS_TERRAIN_RESOURCE[kind.split("_")[0]]] += n
    assert Counter(h.type.resource for h in board.harbors) == js_ports
    # the pirate on JSettlers2's sea hex; the robber on its hex, or on the desert
    assert board.hexes[board.starts["pirate"]] == tuple(layout["pirate_start"]["axial_qr"])
    robber = board.hexes[board.starts["robber"]]
    if "axial_qr" in layout["robber_start"]:
        assert robber == tuple(layout["robber_start"]["axial_qr"])
    else:
        assert land[robber] == "desert"


JS_TERRAIN_RESOURCE = {"clay": "brick", "ore": "ore", "sheep": "wool", "wheat": "grain", "wood": "lumber"}


# ---- nothing in the package knows these scenarios ------------------------------------------


def test_the_package_does_not_name_the_scenarios():
    found = subprocess.run(
        ["grep", "-ril", r"four.islands\|new.shores", str(ROOT / "catandsl")],
        capture_output=True, text=True,
    )
    assert found.stdout == "", found.stdout


def test_language_md_shows_the_real_files():
    """docs/language.md section 11 prints both scenario files as they are."""
    text = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    for path in (NEW_SHORES, FOUR_ISLANDS):
        body = path.read_text(encoding="utf-8")
        assert f"```catan\n{body}```" in text, f"docs/language.md does not show {path.name} as it is"
