"""Cloth for Catan, the language side: the scenario file compiles and checks clean, its
map is JSettlers2's SC_CLVI hex for hex and village for village, its cloth adds up to
50, its options behave, and its constructs (token, site, sites, tie_break, movable_by,
takes) lower to the IR the engine reads."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from catandsl.board import instantiate
from catandsl.compiler import compile_path
from catandsl.ir import configure, model

ROOT = Path(__file__).resolve().parents[2]
CLOTH = ROOT / "scenarios" / "seafarers" / "cloth_for_catan.catan"
LAYOUTS = ROOT / "tests" / "fixtures" / "layouts" / "jsettlers2_seafarers.json"
TERRAIN = {"clay": "hills", "ore": "mountains", "sheep": "pasture", "wheat": "fields",
           "wood": "forest", "gold": "gold", "desert": "desert"}
HARBOR = {"clay": "brick", "ore": "ore", "sheep": "wool", "wheat": "grain", "wood": "lumber"}


@pytest.fixture(scope="module")
def scenario() -> model.Scenario:
    compiled, diags, _ = compile_path(CLOTH)
    assert compiled is not None, [(d.code, d.message) for d in diags]
    assert not diags, [(d.code, d.message) for d in diags]
    return compiled


@pytest.fixture(scope="module")
def layout() -> dict:
    return json.loads(LAYOUTS.read_text(encoding="utf-8"))["SC_CLVI"]["layouts"]["4_players"]


def test_the_scenario_checks_clean_with_its_trial_game():
    from catandsl.checks import check_path

    scenario, diags, _ = check_path(CLOTH)
    assert scenario is not None and not diags, [(d.code, d.message) for d in diags]


@pytest.mark.parametrize("players", [3, 4])
def test_map_is_sc_clvi_hex_for_hex(scenario, layout, players):
    rs = configure(scenario, players)
    board = instantiate(rs, 7)
    land = {}
    for g in layout["hex_groups"]:
        for area in g["land_areas"]:
            for h in area["hexes"]:
                land[tuple(h["axial_qr"])] = None  # shuffled
    for h in layout["fixed_hexes"]["hexes"]:
        land[tuple(h["axial_qr"])] = TERRAIN[h["type"]]
    board_land = {h: board.terrain(k) for k, h in enumerate(board.hexes)
                  if not rs.terrains[board.terrain(k)].water}
    assert set(board_land) == set(land)
    for h, t in land.items():
        if t is not None:
            assert board_land[h] == t, h
    # the main islands: the pool of JSettlers2 (with the robber's fields fixed)
    main = Counter(board_land[h] for h, t in land.items() if t is None)
    pool = Counter({TERRAIN[k]: v for g in layout["hex_groups"] for k, v in g["hex_type_pool"].items()})
    assert main == pool
    # every position next to land is sea (the frame adds more sea around it)
    near = {(q + dq, r + dr) for q, r in land for dq, dr in
            ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))} - set(land)
    assert all(h in board.hex_index and rs.terrains[board.terrain(board.hex_index[h])].water
               for h in near)
    # harbors: the edges and the shuffled kinds
    ports = layout["ports"]
    assert {(h.land, h.water) for h in board.harbors} == {
        (tuple(x["land_hex"]["axial_qr"]), tuple(x["water_hex"]["axial_qr"])) for x in ports["locations"]}
    kinds = Counter(("3:1" if h.type.resource is None else HARBOR_NAME(h.type)) for h in board.harbors)
    expected = Counter()
    for k, v in ports["port_type_pool"].items():
        expected["3:1" if k.startswith("generic") else HARBOR[k.split("_")[0]] + " 2:1"] += v
    assert kinds == expected
    # the robber on JSettlers2's robber hex, the fields with the 12; the pirate
    assert board.hexes[board.starts["robber"]] == tuple(layout["robber_start"]["axial_qr"])
    assert board.terrain(board.starts["robber"]) == "fields"
    assert board.hexes[board.starts["pirate"]] == tuple(layout["pirate_start"]["axial_qr"])


def HARBOR_NAME(t) -> str:
    return f"{t.resource} {t.give}:{t.get}"


def test_numbers_are_sc_clvi(scenario, layout):
    rs = configure(scenario, 4)
    fixed = [s for s in rs.map.hexes if s.number is not None]
    assert [(s.q, s.r, s.terrain, s.number) for s in fixed] == [(0, 3, "fields", 12)]
    shuffled = Counter(t.value for plan in rs.map.numbers for t in plan.tokens) + Counter([12])
    dice = Counter({int(k): v for g in layout["hex_groups"] for k, v in g["dice_pool"].items()})
    assert shuffled == dice
    assert all(plan.onto == ("main",) for plan in rs.map.numbers)


def test_villages_are_sc_clvi_village_for_village(scenario, layout):
    rs = configure(scenario, 3)
    mine = {(s.q, s.r, s.corner): s.number for s in rs.map.sites if s.site == "village"}
    ref = {(*v["axial_corner"]["hex_qr"], v["axial_corner"]["corner"]): v["dice"]
           for v in layout["cloth"]["villages"]}
    assert mine == ref
    assert len(mine) == 8
    assert {v["starting_cloth"] for v in layout["cloth"]["villages"]} == {5}
    village = rs.sites["village"]
    assert village.stock == (model.Amount("cloth", 5),)
    assert village.numbered and village.no_building and village.closes_routes
    # every village touches its tribe island, named `tribe`
    tribe = next(i for i in rs.map.islands if i.name == "tribe")
    assert {(s.q, s.r) for s in rs.map.sites} == set(tribe.hexes)


def test_cloth_adds_up_to_50(scenario, layout):
    for players in (3, 4):
        rs = configure(scenario, players)
        cloth = rs.tokens["cloth"]
        on_sites = sum(a.count for s in rs.map.sites for a in rs.sites[s.site].stock if a.name == "cloth")
        assert (cloth.supply, cloth.reserve, on_sites) == (50, 10, 40)
        assert cloth.reserve == layout["cloth"]["general_supply_cloth"]
        assert (cloth.points, cloth.per) == (1, 2)


def test_rules_of_the_scenario(scenario):
    for players in (3, 4):
        rs = configure(scenario, players)
        assert rs.settings["victory"] == 14
        assert "longest_trade_route" not in rs.awards and "largest_army" in rs.awards
        # the set-up: snake, then a third round from the player who placed last; only it collects
        rounds = rs.setup.rounds
        assert [(r.order, r.from_last) for r in rounds] == [
            ("forward", False), ("backward", False), ("forward", True)]
        assert [any(s.action == "collect" for s in r.steps) for r in rounds] == [False, False, True]
        pirate = rs.pieces["pirate"]
        assert pirate.takes == ("resource", "cloth")
        assert pirate.movable_by == model.Expr("gt", (
            model.Expr("call", (model.Expr("var", value="player"), model.Expr("var", value="village")),
                       value="trading_sites"), model.Expr("num", value=0)))
        assert rs.pieces["robber"].movable_by is None
        for name in ("settlement", "robber"):
            assert "on_island" in repr(rs.pieces[name].where)
        events = {h.event for r in rs.rules for h in r.hooks if r.name in ("cloth_trade", "depletion")}
        assert events == {"site_reached", "dice_rolled"}
        ends = [h for r in rs.rules if r.name == "depletion" for h in r.hooks]
        assert all(h.effects[0].expr == model.Expr("call", (model.Expr("str", value="villages_depleted"),),
                                                    value="end_game") for h in ends)


def test_tie_break_option(scenario):
    def keys(options=None):
        rs = configure(scenario, 4, options)
        return [k.value for k in rs.tie_break.keys]

    assert keys() == ["points", "resource_cards", "tokens"]
    assert keys({"tie": "cloth"}) == ["points", "tokens"]
    assert configure(scenario, 4, {"tie": "cloth"}).tokens == configure(scenario, 4).tokens


def test_language_md_shows_the_real_file():
    text = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    body = CLOTH.read_text(encoding="utf-8")
    assert f"```catan\n{body}```" in text, "docs/language.md does not show cloth_for_catan.catan as it is"


def test_no_scenario_name_in_the_package():
    """The language side names neither the scenario nor its cloth and villages."""
    for part in ("compiler", "ir", "rules", "syntax", "board"):
        for path in (ROOT / "catandsl" / part).rglob("*.py"):
            text = path.read_text(encoding="utf-8").lower()
            assert "cloth" not in text and "village" not in text, path


# ---- misuse ------------------------------------------------------------------------------

TINY = '''scenario "Tiny" {{
  uses seafarers
  {decls}
  map {{
    rows """
      f8  ~   p5
    """
    legend {{ f forest; p pasture; ~ sea }}
    {map}
    start robber at (0, 0)
    start pirate at (1, 0)
  }}
}}
'''


def compile_text(tmp_path, decls: str, map_: str = ""):
    path = tmp_path / "t.catan"
    path.write_text(TINY.format(decls=decls, map=map_), encoding="utf-8")
    scenario, diags, _ = compile_path(path)
    return scenario, [(d.code, d.message, d.help) for d in diags]


def test_good_tiny(tmp_path):
    scenario, diags = compile_text(
        tmp_path, "token cloth { supply 10 }\n site village { on intersection; stock cloth 5; number }",
        "sites village [(0, 0) N 9, (2, 0) S 4]")
    assert scenario is not None, diags
    rs = configure(scenario, 3)
    assert rs.tokens["cloth"] == model.Token("cloth", 10, source=rs.tokens["cloth"].source)
    assert [(s.q, s.r, s.corner, s.number) for s in rs.map.sites] == [(0, 0, "N", 9), (2, 0, "S", 4)]


@pytest.mark.parametrize("decls, map_, code, words", [
    # more on the sites than the supply, without a reserve
    ("token cloth { supply 8 }\n site village { on intersection; stock cloth 5 }",
     "sites village [(0, 0) N, (2, 0) S]", "E0425", "more than the supply"),
    ("token cloth { supply 8; reserve 9 }", "", "E0425", "more than the supply"),
    # a numbered kind without a number, and a number on a kind without
    ("token cloth { supply 10 }\n site village { on intersection; stock cloth 5; number }",
     "sites village [(0, 0) N, (2, 0) S 4]", "E0304", "no number token"),
    ("token cloth { supply 10 }\n site village { on intersection; stock cloth 5 }",
     "sites village [(0, 0) N 9]", "E0304", "has a number token"),
    ("site village { on intersection }", "sites village [(0, 0) NE]", "E0304", "N or S"),
    ("site village { on intersection }", "sites village [(0, 0) N, (0, 0) N]", "E0304", "two sites"),
    ("site village { on hex }", "", "E0304", "on an intersection"),
    ("site village { stock cloth 5 }\n token cloth { supply 5 }", "", "E0305", "where it stands"),
    ("token cloth { points 1 per 2 }", "", "E0305", "how many"),
    ("token cloth { supply 5; colour red }", "", "E0301", "token property"),
    # names are checked
    ("token cloth { supply 5 }\n rule r { on dice_rolled if tokens(player, \"cloth\") > 1 { end_game(\"x\") } }",
     "", "E0504", "must be token"),
    ("rule r { on dice_rolled if tokens(player, linen) > 1 { end_game(\"x\") } }", "", "E0505", "linen"),
    ("rule r { on site_reached(hamlet) { end_game(\"x\") } }", "", "E0302", "hamlet"),
    ("piece beast { neutral; on hex; takes resource or silk }", "", "E0302", "silk"),
    ("piece beast { neutral; on hex; movable_by where resource_cards(player) }", "", "E0504", "true or false"),
    ("piece beast { neutral; on hex; movable_by army }", "", "E0304", "movable_by where"),
    ("tie_break points(player), terrain(player)", "", "E0504", "terrain"),
    ("tie_break end_game(\"x\")", "", "E0506", "effect"),
])
def test_misuse(tmp_path, decls, map_, code, words):
    scenario, diags = compile_text(tmp_path, decls, map_)
    assert scenario is None
    hits = [d for d in diags if d[0] == code]
    assert hits, diags
    assert any(words in (m + " " + (h or "")) for _, m, h in hits), hits


def test_quoted_token_name_gets_a_hint(tmp_path):
    _, diags = compile_text(
        tmp_path, "token cloth { supply 5 }\n rule r { on dice_rolled { give_tokens(player, \"cloth\", 1) } }")
    assert ("E0504", "argument `token` of `give_tokens` must be token, not str",
            "a declared name is written without quotes") in diags


def test_tie_break_keys_are_expressions(tmp_path):
    """A key may be any number of `player`: a sum, a product, a param (the docs promise it;
    the grammar once took a single call)."""
    scenario, diags = compile_text(
        tmp_path, "param bonus 2\n tie_break points(player) + bonus, resource_cards(player) * 2")
    assert scenario is not None and not diags, diags
    rs = configure(scenario, 3)
    assert [k.op for k in rs.tie_break.keys] == ["add", "mul"]
    assert rs.tie_break.keys[0].args[1] == model.Expr("param", value="bonus")


def test_a_type_error_found_by_the_trial_game_points_at_the_call(tmp_path):
    """`vp_token` wants an intersection; in `on built(road)` `at` is a path. The trial
    game that ends `check` finds it (E0701) at the call's line and column."""
    from catandsl.checks import check_path

    path = tmp_path / "t.catan"
    path.write_text(TINY.format(decls="rule r { on built(road) { vp_token(player, at, 1) } }", map=""),
                    encoding="utf-8")
    _, diags, _ = check_path(path)
    [d] = [d for d in diags if d.code == "E0701"]
    assert (d.span.line, d.span.column) != (1, 1)
    line = path.read_text(encoding="utf-8").split("\n")[d.span.line - 1]
    assert line[d.span.column - 1:].startswith("vp_token(")
