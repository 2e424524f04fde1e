"""The compiler: the base game as declared, variants, names, imports."""


import pytest

from catandsl.compiler import compile_path
from catandsl.ir import configure
from tests.conftest import ROOT, compile_text

SMALL_MAP = """
  map {
    rows """ + '"""' + """
      f6  p8
    """ + '"""' + """
    legend { f forest; p pasture }
  }
"""


def small(body: str, header: str = 'scenario "t" {\n  uses base\n') -> str:
    return header + body + "\n}\n"


@pytest.fixture(scope="module")
def base():
    scenario, diags, _ = compile_path(ROOT / "scenarios/base.catan")
    assert scenario is not None, diags
    return scenario


def test_base_game_is_declared_in_the_language(base):
    rs = configure(base, 4)
    assert rs.resources == ("brick", "lumber", "wool", "grain", "ore")
    assert rs.bank == dict.fromkeys(rs.resources, 19)
    assert sum(rs.bank.values()) == 95
    road, settlement, city = rs.pieces["road"], rs.pieces["settlement"], rs.pieces["city"]
    assert (road.limit, settlement.limit, city.limit) == (15, 5, 4)
    assert [(a.name, a.count) for a in city.cost] == [("ore", 3), ("grain", 2)]
    assert city.upgrades == "settlement" and city.points == 2 and city.produces == 2
    assert settlement.distance == 2
    deck = rs.decks["development"]
    assert sum(c.count for c in deck.cards) == 25
    assert {c.name: c.count for c in deck.cards} == {
        "knight": 14, "victory_point": 5, "road_building": 2, "year_of_plenty": 2, "monopoly": 2}
    assert deck.play_per_turn == 1 and deck.not_turn_bought
    assert {a.name: (a.points, a.min) for a in rs.awards.values()} == {
        "longest_road": (2, 5), "largest_army": (2, 3)}
    assert rs.settings["victory"] == 10
    assert [r.order for r in rs.setup.rounds] == ["forward", "backward"]
    assert rs.trades["bank"].give == 4
    assert {r.name for r in rs.rules} >= {"production", "seven", "deck:development"}


def test_base_options_choose_the_map(base):
    beginner = configure(base, 4).map
    random = configure(base, 4, {"layout": "random"}).map
    assert all(h.terrain for h in beginner.hexes) and len(beginner.hexes) == 19
    assert all(h.pool == "land" for h in random.hexes)
    assert random.numbers[0].method == "spiral"
    assert [t.letter for t in random.numbers[0].tokens][:3] == ["A", "B", "C"]
    assert len(beginner.harbors[0].spots) == 9


def test_unknown_option_item_and_player_count_are_refused(base):
    from catandsl.ir import ConfigurationError

    with pytest.raises(ConfigurationError):
        configure(base, 5)
    with pytest.raises(ConfigurationError):
        configure(base, 4, {"layout": "spiral"})


def test_for_players_when_and_without(tmp_path):
    text = small("""
  option size { item short 8 default; item long 12 }
  victory size
  for 3 players { victory 7 }
  when size is long { turn_limit 99 }
  without largest_army
""" + SMALL_MAP)
    s, diags = compile_text(tmp_path, text)
    assert s is not None, diags
    assert configure(s, 4).settings["victory"] == 8
    assert configure(s, 4, {"size": "long"}).settings["victory"] == 12
    assert configure(s, 3).settings["victory"] == 7
    assert configure(s, 4, {"size": "long"}).settings["turn_limit"] == 99
    assert configure(s, 4).settings["turn_limit"] == 500
    assert "largest_army" not in configure(s, 4).awards


def test_unknown_names_get_did_you_mean(tmp_path):
    s, diags = compile_text(tmp_path, small("""
  piece boat {
    on path where watr(at)
    cost lumbr + wool
    connects road, setlement
  }
""" + SMALL_MAP))
    assert s is None
    by_code = {}
    for d in diags:
        by_code.setdefault(d.code, []).append(d)
    msgs = " | ".join(f"{d.code} {d.message} {d.help}" for d in diags)
    assert "unknown resource `lumbr`" in msgs and "did you mean `lumber`?" in msgs
    assert "unknown piece `setlement`" in msgs and "`settlement`" in msgs
    assert "unknown primitive `watr`" in msgs and "`water`" in msgs
    assert len(diags) >= 3  # every error in one run


def test_rule_type_errors(tmp_path):
    s, diags = compile_text(tmp_path, small("""
  rule r {
    on dice_rolled if roll {
      produce(player)
      land(roll)
      take_from_bank(player, brick)
    }
    on nowhere { }
  }
""" + SMALL_MAP))
    codes = sorted(d.code for d in diags)
    assert s is None
    assert "E0504" in codes  # condition is a number; produce(player)
    assert "E0507" in codes  # a query as a statement
    assert "E0503" in codes  # wrong number of arguments
    assert "E0501" in codes  # unknown event


def test_duplicate_declaration_in_one_block(tmp_path):
    s, diags = compile_text(tmp_path, small("""
  resources brick, brick
""" + SMALL_MAP))
    assert s is None
    assert any(d.code == "E0303" for d in diags)


def test_import_and_uses(tmp_path):
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "extra.catan").write_text("ruleset extra {\n  param bonus 3\n  victory 11\n}\n")
    s, diags = compile_text(tmp_path, small('  import "lib/extra.catan"\n' + SMALL_MAP))
    assert s is not None, diags
    rs = configure(s, 4)
    assert rs.settings["victory"] == 11 and rs.params["bonus"] == 3
    assert any("extra.catan" in f for f in s.files)


def test_import_errors(tmp_path):
    imports = '  import "../outside.catan"\n  import "missing.catan"\n  uses basee\n'
    s, diags = compile_text(tmp_path, small(imports + SMALL_MAP))
    codes = {d.code for d in diags}
    assert {"E0203", "E0202", "E0201"} <= codes
    assert any("did you mean `base`" in (d.help or "") for d in diags)


def test_import_cycle(tmp_path):
    (tmp_path / "a.catan").write_text('import "b.catan"\nruleset a { }\n')
    (tmp_path / "b.catan").write_text('import "a.catan"\nruleset b { }\n')
    s, diags = compile_text(tmp_path, small('  import "a.catan"\n' + SMALL_MAP))
    assert any(d.code == "E0204" for d in diags)


def test_map_picture_coordinates(tmp_path):
    s, diags = compile_text(tmp_path, small("""
  map {
    rows at (2, -1) """ + '"""' + """
        f   p
      w   h   m
    """ + '"""' + """
    legend { f forest; p pasture; w fields; h hills; m mountains }
  }
"""))
    assert s is not None, diags
    hexes = {(h.q, h.r): h.terrain for h in configure(s, 4).map.hexes}
    assert hexes == {(2, -1): "forest", (3, -1): "pasture", (1, 0): "fields", (2, 0): "hills", (3, 0): "mountains"}


def test_every_stdlib_and_scenario_file_compiles():
    files = sorted((ROOT / "stdlib").glob("*.catan")) + sorted((ROOT / "scenarios").rglob("*.catan"))
    assert files
    for f in files:
        # the language's check; the trial game (E0701, the engine's part) is left out:
        # the Seafarers scenarios compile before the engine runs ships and gold
        s, diags, _ = compile_path(f)
        assert s is not None, (f, diags)
        assert not [d for d in diags if d.is_error]


def test_examples_good_and_bad():
    good, diags, _ = compile_path(ROOT / "examples/seven_hex_island.catan")
    assert good is not None, diags
    assert (good.players_min, good.players_max) == (2, 3)
    bad, diags, _ = compile_path(ROOT / "examples/broken_island.catan")
    assert bad is None
    assert [(d.code, d.span.line) for d in diags] == [("E0302", 16)]


def test_a_second_map_or_setting_in_one_variant_is_reported(tmp_path):
    s, diags = compile_text(tmp_path, small("""
  victory 8
  victory 9
  map { hex (0, 0) forest 8 }
  map { hex (0, 0) forest 6 }
  for 3 players { victory 7 }
"""))
    assert s is None
    found = sorted((d.code, d.span.line, d.message) for d in diags)
    assert found == [("E0303", 5, "setting `victory` is declared twice"),
                     ("E0303", 7, "`map` is declared twice")]


def test_a_name_of_two_kinds_is_read_as_the_kind_its_place_asks_for(tmp_path):
    """A scenario's own piece `knight` beside the base game's card `knight`: the base
    award's `played(player, [knight])` asks for cards, so it reads the card. With the deck
    and the award removed nothing is left to name the card; with them kept, the award
    counts knight cards and the piece is built as any piece."""
    knight = """
  piece knight {
    on intersection where land(at)
    cost ore + wool
    limit 3
    points 1
  }
"""
    removed = small("  without deck development\n  without award largest_army\n" + knight + SMALL_MAP)
    s, diags = compile_text(tmp_path, removed)
    assert s is not None and not diags, [(d.code, d.span, d.message) for d in diags]
    assert "knight" in configure(s, 4).pieces and "largest_army" not in configure(s, 4).awards
    kept = small(knight + SMALL_MAP)
    s, diags = compile_text(tmp_path, kept)
    assert s is not None and not diags, [(d.code, d.span, d.message) for d in diags]
    rs = configure(s, 4)
    assert "knight" in rs.pieces and any(c.name == "knight" for c in rs.decks["development"].cards)
    # the deck removed but the award kept: the award names a card `without` took away
    s, diags = compile_text(tmp_path, small("  without deck development\n" + knight + SMALL_MAP))
    assert s is None and [(d.code, d.span.file.endswith("base.catan")) for d in diags] == [("E0607", True)]


@pytest.mark.parametrize("letter, ok", [("Za", True), ("Q", True), ("ZA", False), ("za", False), ("Zab", False)])
def test_spiral_token_letters_go_on_past_z_with_a_small_letter(tmp_path, letter, ok):
    text = SPIRAL_LETTERS.replace("LETTER", letter)
    _, diags = compile_text(tmp_path, text)
    bad = [d for d in diags if "token letter" in d.message]
    assert (not bad) == ok, [d.message for d in diags]


SPIRAL_LETTERS = '''
scenario "Letters" {
  uses base
  map {
    rows """
        ?   ?
      ?   ?   ?
        ?   ?
    """
    legend { ? land }
    pool land shuffled [forest x7]
    numbers spiral [A 5, B 2, C 6, D 3, E 8, F 10, LETTER 9]
  }
}
'''
