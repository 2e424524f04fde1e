"""Hostile input: every case ends in a located diagnostic, in bounded time and memory.

A `.catan` file from a stranger is untrusted. Each case below is written into tmp_path
and compiled with `compile_path`; the result must be a specific diagnostic code with a
line, within MEMORY_LIMIT bytes of Python allocations, and never an exception. Time is
bounded by work, never by the clock: a watchdog of HANG_LIMIT (tests/watchdog.py) only
catches a hang (a shared machine under load must never fail these), and the costly case
(one big map in many configurations) counts the boards it builds. A few cases also go
through `python -m catandsl check`, which must exit 1 (2 for usage errors) and print no
traceback.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import pytest

from catandsl.checks import check_path
from catandsl.compiler import compile_path
from catandsl.diagnostics import CatanError, format_text
from catandsl.syntax.parser import MAX_FILE_BYTES, parse
from tests.watchdog import no_hang

ROOT = Path(__file__).resolve().parents[1]
HANG_LIMIT = 60.0  # seconds: catches a hang, never a slow machine
MEMORY_LIMIT = 64 << 20  # peak bytes allocated by Python while compiling

HEAD = 'scenario "Hostile" {\n  uses base\n'
MAP = '''  map {
    rows """
      f8  h5
    """
    legend { f forest; h hills }
  }
'''


def scenario(body: str) -> str:
    return HEAD + body + MAP + "}\n"


def with_map_line(line: str) -> str:
    """The small scenario with one more line in its map."""
    return HEAD + MAP.replace("\n  }\n", f"\n    {line}\n  }}\n") + "}\n"


def condition(expr: str) -> str:
    return scenario(f"  rule r {{\n    on dice_rolled if {expr} {{\n      produce(roll)\n    }}\n  }}\n")


# ---- the cases: name -> (build(tmp_path) -> path to compile, expected code) ------------


def write(path: Path, data: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(data, str):
        data = data.encode("utf-8")
    path.write_bytes(data)
    return path


def text_case(name: str, text: str | bytes) -> Callable[[Path], Path]:
    return lambda tmp: write(tmp / f"{name}.catan", text)


def chain(tmp: Path, length: int) -> Path:
    """main imports 01, which imports 02, ... a chain of `length` files."""
    for i in range(1, length + 1):
        nxt = f'import "{i + 1:02d}.catan"\n' if i < length else ""
        write(tmp / "chain" / f"{i:02d}.catan", f"{nxt}ruleset link{i:02d} {{\n}}\n")
    return write(tmp / "chain" / "main.catan", scenario('  import "01.catan"\n'))


def cycle(tmp: Path) -> Path:
    write(tmp / "cycle" / "a.catan", 'import "b.catan"\nruleset a {\n}\n')
    write(tmp / "cycle" / "b.catan", 'import "a.catan"\nruleset b {\n}\n')
    return write(tmp / "cycle" / "main.catan", scenario('  import "a.catan"\n'))


def self_import(tmp: Path) -> Path:
    return write(tmp / "self" / "main.catan", scenario('  import "main.catan"\n'))


def many_imports(tmp: Path) -> Path:
    for i in range(80):
        write(tmp / "many" / f"part{i:02d}.catan", f"ruleset part{i:02d} {{\n}}\n")
    imports = "".join(f'  import "part{i:02d}.catan"\n' for i in range(80))
    return write(tmp / "many" / "main.catan", scenario(imports))


def escaping_symlink(tmp: Path) -> Path:
    outside = write(tmp / "outside" / "secret.catan", "ruleset secret {\n}\n")
    (tmp / "root").mkdir()
    os.symlink(outside, tmp / "root" / "link.catan")
    return write(tmp / "root" / "main.catan", scenario('  import "link.catan"\n'))


def import_directory(tmp: Path) -> Path:
    (tmp / "dirimport" / "folder.catan").mkdir(parents=True)
    return write(tmp / "dirimport" / "main.catan", scenario('  import "folder.catan"\n'))


def import_huge(tmp: Path) -> Path:
    write(tmp / "hugeimport" / "big.catan", "# " + "x" * MAX_FILE_BYTES + "\n")
    return write(tmp / "hugeimport" / "main.catan", scenario('  import "big.catan"\n'))


def import_fifo(tmp: Path) -> Path:
    (tmp / "fifo").mkdir()
    os.mkfifo(tmp / "fifo" / "pipe.catan")  # reading it would block for ever
    return write(tmp / "fifo" / "main.catan", scenario('  import "pipe.catan"\n'))


def import_long_name(tmp: Path) -> Path:
    return write(tmp / "long" / "main.catan", scenario(f'  import "{"a" * 300}.catan"\n'))


def imports_over_4_MiB(tmp: Path) -> Path:
    """Sixty files, each within the 1 MiB of a file, over 4 MiB together."""
    filler = "# " + "x" * 80_000 + "\n"
    for i in range(60):
        write(tmp / "bulk" / f"part{i:02d}.catan", filler + f"ruleset bulk{i:02d} {{\n}}\n")
    return write(tmp / "bulk" / "main.catan", scenario("".join(f'  import "part{i:02d}.catan"\n' for i in range(60))))


def big_maps_in_many_options(tmp: Path) -> Path:
    """Ninety option items, each with its own 2,500-hex map."""
    rows = "\n".join(("      " if r % 2 == 0 else "        ") + "f8  " * 50 for r in range(50))
    items = "; ".join(f"item s{i}" + (" default" if i == 0 else "") for i in range(90))
    maps = "".join(f'  when size is s{i} {{\n    map {{\n      rows """\n{rows}\n      """\n'
                   f"      legend {{ f forest }}\n    }}\n  }}\n" for i in range(90))
    return write(tmp / "maps.catan", HEAD + f"  option size {{ {items} }}\n" + maps + "}\n")


def directory(tmp: Path) -> Path:
    (tmp / "a_folder.catan").mkdir()
    return tmp / "a_folder.catan"


def symlink_loop(tmp: Path) -> Path:
    os.symlink(tmp / "b.catan", tmp / "a.catan")
    os.symlink(tmp / "a.catan", tmp / "b.catan")
    return tmp / "a.catan"


def picture(cells_per_row: int, rows: int) -> str:
    lines = "\n".join("      " + "f   " * cells_per_row for _ in range(rows))
    return HEAD + f'  map {{\n    rows """\n{lines}\n    """\n    legend {{ f forest }}\n  }}\n}}\n'


def hex_lines(count: int) -> str:
    lines = "".join(f"    hex ({i % 101}, {i // 101}) forest\n" for i in range(count))
    return HEAD + "  map {\n" + lines + "  }\n}\n"


CASES: dict[str, tuple[Callable[[Path], Path], str | None]] = {
    # input and size
    "over_1_MiB": (text_case("huge", "# " + "x" * MAX_FILE_BYTES + "\n"), "E0001"),
    "half_a_million_tokens": (text_case("tokens", scenario("  resources " + ", ".join(["a"] * 250_000) + "\n")),
                              "E0001"),
    "invalid_utf8": (text_case("latin1", b'scenario "Caf\xe9" {\n}\n'), "E0002"),
    "nul_byte": (text_case("nul", scenario("  victory 1\x000\n")), "E0003"),
    "binary_garbage": (text_case("garbage", bytes(range(256)) * 64), "E0002"),
    # nesting
    "brackets_5000_deep": (text_case("brackets", scenario("  tokens " + "[" * 5000 + "]" * 5000 + "\n")), "E0004"),
    "brackets_never_closed": (text_case("open", scenario("  tokens " + "[" * 5000 + "\n")), "E0004"),
    "blocks_5000_deep": (text_case("blocks", HEAD + "  a {\n" * 5000 + "  }\n" * 5000 + "}\n"), "E0004"),
    "not_5000_times": (text_case("not", condition("not " * 5000 + "true")), "E0004"),
    "sum_of_5000_terms": (text_case("sum", condition("+".join(["1"] * 5000) + " == 2")), "E0004"),
    "parentheses_5000_deep": (text_case("parens", condition("(" * 5000 + "true" + ")" * 5000)), "E0004"),
    "minus_5000_times": (text_case("minus", condition("-" * 5000 + "1 == 2")), "E0004"),
    # maps
    "picture_of_10100_hexes": (text_case("picture", picture(101, 100)), "E0408"),
    "one_row_of_10001_hexes": (text_case("row", picture(10_001, 1)), "E0408"),
    "10001_hex_lines": (text_case("hexlines", hex_lines(10_001)), "E0001"),
    "forest_x999999999_in_a_pool": (text_case("pool", with_map_line("pool p shuffled [forest x999999999]")), "E0304"),
    "6_x999999999_in_numbers": (text_case("numbers", with_map_line("numbers shuffled [6 x999999999]")), "E0304"),
    "3_1_x999999999_harbors": (text_case("harbors", with_map_line("harbors shuffled [3:1 x999999999] at [(0, 0) W]")),
                               "E0304"),
    "option_of_5000_items": (text_case("options", scenario("  option size {\n" + "".join(
        f"    item s{i}{' default' if i == 0 else ''}\n" for i in range(5000)) + "  }\n")), "E0606"),
    # a flood of errors
    "20000_unknown_names": (text_case("names", scenario("  piece wall {\n    on path\n    cost "
                                                       + " + ".join(f"r{i}" for i in range(20_000))
                                                       + "\n  }\n")), "E0008"),
    # numbers and the work they ask for
    "a_number_of_5000_digits": (text_case("digits", scenario("  victory 1" + "0" * 5000 + "\n")), "E0110"),
    "distance_rule_of_1e9": (text_case("distance", scenario(
        "  piece tower {\n    on intersection\n    distance 999999999\n  }\n")), "E0304"),
    "for_twelve_deep": (text_case("fors", scenario("  rule r {\n    on turn_started {\n" + "".join(
        f"      for v{i} in players() {{\n" for i in range(12)) + "      produce(2)\n" + "      }\n" * 12
        + "    }\n  }\n")), "E0512"),
    "let_chain_that_squares": (text_case("squares", scenario("  rule r {\n    on dice_rolled {\n      let v = roll\n"
        + "      let v = v * v\n" * 40 + "      take_from_bank(player, wool, v)\n    }\n  }\n")), "E0701"),
    "two_hundred_fifty_resources": (text_case("resources", scenario(
        "  resources " + ", ".join(f"r{i}" for i in range(250)) + "\n")), "E0608"),
    "offers_of_1000_cards": (text_case("offers", scenario("  trade domestic { cards 1000 }\n")), "E0304"),
    "a_thousand_tokens_traded": (text_case("tokens", scenario(
        "".join(f"  token t{i} {{ supply 1 }}\n" for i in range(1000))
        + "  trade domestic { tokens " + ", ".join(f"t{i}" for i in range(1000)) + " }\n")), None),
    "a_rule_that_triggers_itself": (text_case("loop", scenario(
        "  rule r {\n    on game_started {\n      for p in players() { for q in players() { for r in players() "
        "{ take_from_bank(p, wool, 0) } } }\n    }\n  }\n")), None),
    "nth_of_nothing_and_past_the_end": (text_case("nth", scenario(
        "  rule r {\n    on dice_rolled { take_from_bank(player, wool, nth([], 3) + nth([1, 2], 9)) }\n  }\n")),
        None),
    "choose_among_nobody": (text_case("nobody", scenario(
        "  rule r {\n    on dice_rolled {\n      let v = choose_player(player, [])\n"
        "      take_from_bank(v, wool, 1)\n    }\n  }\n")), None),  # the choice lapses, its block with it
    "number_of_an_intersection": (text_case("number", scenario(
        "  rule r {\n    on built(settlement) { take_from_bank(player, wool, number(at)) }\n  }\n")), "E0701"),
    "without_a_resource_still_produced": (text_case("nowool", scenario("  without resource wool\n")), "E0607"),
    "without_the_turn_in_one_option": (text_case("noturn", scenario(
        "  option v {\n    item a default\n    item b\n  }\n  when v is b {\n    without turn turn\n  }\n")), "E0305"),
    # digits inside a word or a picture cell, past the 4,300 Python converts
    "dice_of_5000_digit_sides": (text_case("dice", scenario("  dice 2d" + "9" * 5000 + "\n")), "E0304"),
    "picture_cell_of_5000_digits": (text_case("cell", HEAD + MAP.replace("h5", "h" + "5" * 5000) + "}\n"), "E0110"),
    "a_title_with_a_terminal_escape": (text_case("escape", 'scenario "Red \x1b[31m" {\n  uses base\n}\n'), "E0003"),
    "ninety_2500_hex_maps": (big_maps_in_many_options, "E0408"),
    # imports
    "import_a_fifo": (import_fifo, "E0006"),
    "import_a_name_of_300_characters": (import_long_name, "E0007"),
    "sixty_imports_over_4_MiB": (imports_over_4_MiB, "E0205"),
    "import_chain_of_20": (lambda tmp: chain(tmp, 20), "E0205"),
    "import_cycle": (cycle, "E0204"),
    "import_itself": (self_import, "E0204"),
    "80_imports": (many_imports, "E0205"),
    "import_dot_dot_passwd": (text_case("dotdot", scenario('  import "../../etc/passwd"\n')), "E0203"),
    "import_absolute_path": (text_case("absolute", scenario('  import "/etc/passwd"\n')), "E0203"),
    "import_symlink_leaving_root": (escaping_symlink, "E0203"),
    "import_a_directory": (import_directory, "E0006"),
    "import_a_huge_file": (import_huge, "E0001"),
    # paths
    "path_is_a_directory": (directory, "E0006"),
    "path_does_not_exist": (lambda tmp: tmp / "missing.catan", "E0005"),
    "path_is_a_loop_of_links": (symlink_loop, "E0007"),
}


def measured_compile(path: Path):
    """Every stage of `check` (the trial game included), under the hang watchdog: the
    result and the peak bytes."""
    with no_hang(HANG_LIMIT, f"checking {path.name}"):
        result = check_path(path)
    tracemalloc.start()
    try:
        check_path(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return result, peak


@pytest.mark.parametrize("case", list(CASES))
def test_hostile_input_gives_a_located_diagnostic(tmp_path, case):
    build, code = CASES[case]
    path = build(tmp_path)
    (scenario_, diags, sources), peak = measured_compile(path)
    assert all(d.span.line >= 1 and d.span.column >= 1 for d in diags)
    if code is None:  # hostile-looking, but within every bound: it checks clean
        assert scenario_ is not None and not diags, [(d.code, d.message) for d in diags]
    else:
        assert scenario_ is None
        hits = [d for d in diags if d.code == code]
        assert hits, [(d.code, d.message) for d in diags]
        rendered = format_text(hits[0], sources)
        assert code in rendered and "\x1b" not in rendered
    assert peak < MEMORY_LIMIT, f"{case} allocated {peak / 2**20:.0f} MiB"


def test_a_big_map_is_built_once_for_all_its_configurations(tmp_path, monkeypatch):
    # 8 player counts times 30 option items are 240 configurations, all with the same
    # 2,500-hex map: building it 240 times took about a minute.
    rows = "\n".join(("      " if r % 2 == 0 else "        ") + "f8  " * 50 for r in range(50))
    items = "; ".join(f"item s{i}" + (" default" if i == 0 else "") for i in range(30))
    path = write(tmp_path / "big.catan", HEAD + "  players 1..8\n" + f"  option size {{ {items} }}\n"
                 + f'  map {{\n    rows """\n{rows}\n    """\n    legend {{ f forest }}\n  }}\n}}\n')
    import catandsl.board as board

    built = []
    real = board.instantiate
    monkeypatch.setattr(board, "instantiate", lambda *a, **k: built.append(1) or real(*a, **k))
    scenario_, diags, _ = compile_path(path)
    assert scenario_ is not None and not diags, diags
    # once to check it, once for each trial game (the fewest and the most players); not
    # once per configuration (240)
    assert len(built) <= 1 + 2, f"the one map was built {len(built)} times"


def test_reading_stops_at_the_limit_without_reading_the_file(tmp_path, monkeypatch):
    # The size is checked from the file system before a byte is read.
    path = write(tmp_path / "huge.catan", b"#" * (MAX_FILE_BYTES + 1))
    monkeypatch.setattr(Path, "read_bytes", lambda self: pytest.fail("read a file over the limit"))
    _, diags, _ = compile_path(path)
    assert [d.code for d in diags] == ["E0001"]


@pytest.mark.parametrize(
    "text, code",
    [
        ("#" * (MAX_FILE_BYTES + 1), "E0001"),
        ("ruleset r {\n\0}\n", "E0003"),
        ("ruleset r { x " + "[" * 3000 + " }", "E0004"),
    ],
    ids=["too_large", "nul", "deep"],
)
def test_parse_alone_applies_the_limits(text, code):
    with no_hang(HANG_LIMIT, "parsing"), pytest.raises(CatanError) as info:
        parse(text, "hostile.catan")
    assert [d.code for d in info.value.diagnostics] == [code]
    assert info.value.diagnostics[0].span.line >= 1


def test_the_deepest_expression_accepted_survives_every_later_stage(tmp_path):
    # The parser's depth limit must leave room for the stages that recurse over the IR.
    from catandsl import ir
    from catandsl.syntax.parser import MAX_TREE_DEPTH

    for depth in range(MAX_TREE_DEPTH, 0, -2):  # an even count of `not` keeps it true
        path = write(tmp_path / "deep.catan", condition("not " * depth + "true"))
        scenario_, diags, _ = compile_path(path)
        if scenario_ is not None:
            break
    assert depth > MAX_TREE_DEPTH // 2
    data = json.loads(json.dumps(ir.scenario_to_json(scenario_)))
    assert ir.scenario_from_json(data) == scenario_
    proc = run_cli("compile", str(path))
    assert proc.returncode == 0, proc.stderr


# ---- the command line ----------------------------------------------------------------

CLI_CASES = ["nul_byte", "brackets_5000_deep", "import_dot_dot_passwd", "path_does_not_exist",
             "path_is_a_directory", "picture_of_10100_hexes", "invalid_utf8"]


def run_cli(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1"}
    return subprocess.run([sys.executable, "-m", "catandsl", *args], capture_output=True,
                          text=True, timeout=60, cwd=ROOT, env=env)


@pytest.mark.parametrize("case", CLI_CASES)
def test_cli_check_reports_hostile_input(tmp_path, case):
    build, code = CASES[case]
    proc = run_cli("check", str(build(tmp_path)))
    output = proc.stdout + proc.stderr
    assert proc.returncode == 1, output
    assert "Traceback" not in output
    assert "internal error" not in output
    assert code in output


@pytest.mark.parametrize("args", [["check"], ["check", "--no-such-option", "a.catan"], ["no-such-command"]],
                         ids=["missing_file_argument", "unknown_option", "unknown_command"])
def test_cli_usage_errors_exit_2(args):
    proc = run_cli(*args)
    output = proc.stdout + proc.stderr
    assert proc.returncode == 2, output
    assert "Traceback" not in output
