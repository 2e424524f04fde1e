"""Mutation fuzzing: broken versions of valid files give diagnostics, never a traceback.

Valid files (the stdlib, the scenarios, a few small inline scenarios) are cut into
crude tokens (words, single punctuation characters, runs of whitespace) and mutated:
a token deleted, duplicated or swapped with another, the text truncated, or random
characters and bytes inserted (quotes, braces, NUL, unicode, invalid UTF-8). Each
mutant is written to a file and compiled with `compile_path`, which must return
diagnostics with a code and a location, or a scenario, within a time bound.

The main test runs count(400) examples (tests/budget.py: 400 at the default depth); each
compiles a mutant, dealing a shuffled map 64 times, so it is among the suite's larger costs.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from catandsl.compiler import compile_path
from catandsl.diagnostics import format_text
from tests.budget import count
from tests.watchdog import no_hang

ROOT = Path(__file__).resolve().parents[2]
CODE = re.compile(r"E\d{4}")
TOKEN = re.compile(r"\s+|\w+|[^\w\s]")
HANG_SECONDS = 60.0  # catches a hang, never a slow machine

TINY = '''scenario "Tiny" {
  uses base
  victory 8
  map {
    rows """
      f8  h5
        p3
    """
    legend { f forest; h hills; p pasture }
    harbors fixed [3:1 at (0, 0) W]
    start robber on hills
  }
}
'''

RULES = '''scenario "Rules" {
  uses base
  option length {
    item short 8 default
    item long 12
  }
  victory length
  for 3 players {
    without largest_army
  }
  rule bonus {
    on dice_rolled(2) if roll == 2 and not (roll > 3) {
      let r = choose_resource(player)
      take_from_bank(player, r, 1)
    }
  }
  map {
    rows at (0, -1) """
        ?   ?
      ?   ?   ?
        ?   ?
    """
    legend { ? land }
    pool land shuffled [forest x2, hills x2, fields x2, desert]
    numbers shuffled [6, 8, 5, 9, 10, 4] skip [desert] avoid_adjacent [6, 8]
    start robber on desert
  }
}
'''

RULESET = """ruleset extra {
  uses base
  resources cloth
  terrain weave { produces cloth }
  piece wagon {
    on path where land(at)
    cost cloth + 2 grain
    limit 3
    moves { open_end; per_turn 1 }
  }
  award merchant {
    points 1
    min 1
    measure played(player, [knight])
  }
}
"""


def _seeds() -> list[tuple[str, str]]:
    files = sorted(ROOT.glob("stdlib/*.catan")) + sorted(ROOT.glob("scenarios/**/*.catan"))
    seeds = [(str(p.relative_to(ROOT)), p.read_text(encoding="utf-8")) for p in files]
    return seeds + [("tiny", TINY), ("rules", RULES), ("ruleset", RULESET)]


SEEDS = _seeds()
TOKENS = {name: TOKEN.findall(text) for name, text in SEEDS}

# Characters a hostile or clumsy author types: the language's own punctuation, quotes
# that open strings and pictures, NUL, a BOM, line separators, emoji, keywords.
NASTY = [
    '"', '"""', "{", "}", "[", "]", "(", ")", "\0", "\n", "\r\n", "#", ",", ";", ":",
    "..", "-", "+", "x4", "7", "99999999999999999999", "é", "\u2028", "\ufeff", "🎲",
    "\\", "\t", "on", "if", "not", "for", "uses", "import", "where", "map", "rows",
    "legend", "piece", "let", "x",
]


KINDS = ["delete", "duplicate", "swap", "truncate", "insert", "replace", "replace", "number"]
WORDS = sorted({t for tokens in TOKENS.values() for t in tokens if re.fullmatch(r"\w+", t)})
NUMBERS = [0, 1, 2, 3, 6, 7, 8, 12, 13, 19, 64, 500, 10**6, 10**30]


def _as_bytes(b: bytes) -> str:
    # Raw bytes ride along as surrogate escapes and are written back as the same bytes.
    return b.decode("utf-8", "surrogateescape")


insertions = st.one_of(
    st.sampled_from(NASTY),
    st.text(max_size=6),
    st.binary(min_size=1, max_size=3).map(_as_bytes),
)


@st.composite
def mutants(draw) -> tuple[str, str]:
    name = draw(st.sampled_from([n for n, _ in SEEDS]))
    tokens = list(TOKENS[name])
    steps = []
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(KINDS))
        i = draw(st.integers(0, len(tokens) - 1)) if tokens else 0
        if kind == "delete" and tokens:
            del tokens[i]
        elif kind == "duplicate" and tokens:
            tokens.insert(i, tokens[i])
        elif kind == "swap" and tokens:
            j = draw(st.integers(0, len(tokens) - 1))
            tokens[i], tokens[j] = tokens[j], tokens[i]
        elif kind == "replace" and tokens:
            # a word or number from any seed: mostly still parses, so it reaches the checks
            tokens[i] = draw(st.sampled_from(WORDS))
        elif kind == "number" and tokens:
            tokens[i] = str(draw(st.sampled_from(NUMBERS)))
        elif kind == "truncate":
            tokens = tokens[:i]
        else:
            tokens.insert(i, draw(insertions))
        steps.append(f"{kind}@{i}")
    return name + " " + " ".join(steps), "".join(tokens)


@pytest.fixture(scope="module")
def work(tmp_path_factory) -> Path:
    # module-scoped: Hypothesis runs many examples in one call of the test function
    return tmp_path_factory.mktemp("fuzz")


def check_compiles_to_diagnostics(work: Path, text: str) -> None:
    path = work / "mutant.catan"
    path.write_bytes(text.encode("utf-8", "surrogateescape"))
    with no_hang(HANG_SECONDS, "compiling"):
        scenario, diags, sources = compile_path(path)  # must not raise, whatever the input
    for d in diags:
        assert CODE.fullmatch(d.code), d
        assert d.span.line >= 1 and d.span.column >= 1, d
        rendered = format_text(d, sources)
        assert d.code in rendered
    assert (scenario is None) == any(d.is_error for d in diags)


@pytest.mark.parametrize("name", [n for n, _ in SEEDS])
def test_seeds_are_valid(work, name):
    # Every seed compiles, so every error the fuzzer sees comes from a mutation.
    path = work / "seed.catan"
    path.write_text(dict(SEEDS)[name], encoding="utf-8")
    scenario, diags, _ = compile_path(path)  # not the engine's trial game (E0701)
    assert scenario is not None and not diags, diags


@settings(max_examples=count(400), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutants())
def test_mutants_give_diagnostics_not_tracebacks(work, mutant):
    _, text = mutant
    check_compiles_to_diagnostics(work, text)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200))
def test_random_text_gives_diagnostics(work, text):
    check_compiles_to_diagnostics(work, text)
