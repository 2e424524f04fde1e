"""The TextMate grammar (editors/vscode/syntaxes/catan.tmLanguage.json) against the
language it highlights.

No Node or Oniguruma here: the grammar's regexes are run with Python's `re`, and
`tokenize` below is a small port of TextMate's line-by-line matching (at each position
the pattern whose match starts first wins, ties to the earlier pattern; a begin/end
rule spans lines until its end matches). The grammar uses only what both engines read
the same way (classes, `\\b`, `^`, `$`, lookahead, fixed-width lookbehind), which
`test_the_regexes_are_portable` holds it to.

Checked at test time against the sources of truth, so a word added later fails here
instead of going unhighlighted: every keyword of grammars/catan.lark (its alphabetic
literals) is highlighted as a keyword or constant, and every head word of the
compiler's tables (BODY, PIECE, MAP) as a head word; every shipped .catan file
tokenizes with no character left unmatched but whitespace.

After adding a head word to the compiler, rewrite the grammar's list with

    python tests/editors/test_textmate.py --update
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # so that `python tests/editors/test_textmate.py --update` works too
    sys.path.insert(0, str(ROOT))
GRAMMAR_FILE = ROOT / "editors" / "vscode" / "syntaxes" / "catan.tmLanguage.json"
GRAMMAR = json.loads(GRAMMAR_FILE.read_text("utf-8"))

from catandsl.compiler.declarations import BODY  # noqa: E402
from catandsl.compiler.maps import MAP  # noqa: E402
from catandsl.compiler.pieces import PIECE  # noqa: E402
from catandsl.syntax.parser import keywords  # noqa: E402

HEADS = sorted(set(BODY) | set(PIECE) | set(MAP))

SAMPLES = sorted(p for d in ("stdlib", "scenarios", "examples") for p in (ROOT / d).rglob("*.catan"))


def _rules(patterns: list[dict]) -> list[dict]:
    """The patterns with `include`s and nested `patterns` flattened, in order."""
    out: list[dict] = []
    for p in patterns:
        if "include" in p:
            out += _rules([GRAMMAR["repository"][p["include"].lstrip("#")]])
        elif "patterns" in p and "match" not in p and "begin" not in p:
            out += _rules(p["patterns"])
        else:
            out.append(p)
    return out


RULES = _rules(GRAMMAR["patterns"])


def _scope(rule: dict, match: re.Match) -> str:
    """The scope of the match's first captured group if it has one, else the rule's."""
    captures = rule.get("captures", {})
    if "1" in captures and match.lastindex:
        return captures["1"]["name"]
    return rule.get("name", "")


def tokenize(text: str) -> tuple[list[tuple[int, int, int, str]], list[tuple[int, str]]]:
    """(line, start, end, scope) of every token, and (line, text) of every character run
    no rule matched (whitespace aside)."""
    tokens: list[tuple[int, int, int, str]] = []
    unmatched: list[tuple[int, str]] = []
    inside: dict | None = None  # the begin/end rule open across lines
    for n, line in enumerate(text.split("\n")):
        pos = 0
        while pos < len(line):
            if inside is not None:
                end = re.compile(inside["end"]).search(line, pos)
                stop = end.end() if end else len(line)
                tokens.append((n, pos, stop, inside["name"]))
                pos = stop
                if end:
                    inside = None
                continue
            best = None
            for rule in RULES:
                m = re.compile(rule.get("match") or rule["begin"]).search(line, pos)
                if m and m.end() > m.start() and (best is None or m.start() < best[1].start()):
                    best = (rule, m)
            if best is None:
                rest = line[pos:].strip()
                if rest:
                    unmatched.append((n, rest))
                break
            rule, m = best
            if line[pos:m.start()].strip():
                unmatched.append((n, line[pos:m.start()].strip()))
            if "begin" in rule:
                inside = rule
                tokens.append((n, m.start(), m.end(), rule["name"]))
                end = re.compile(rule["end"]).search(line, m.end())
                if end:
                    tokens.append((n, m.end(), end.end(), rule["name"]))
                    inside = None
                    pos = end.end()
                else:
                    pos = len(line)
                continue
            tokens.append((n, m.start(), m.end(), _scope(rule, m)))
            pos = m.end()
    return tokens, unmatched


def scope_of(text: str, word: str) -> str | None:
    for n, start, end, scope in tokenize(text)[0]:
        line = text.split("\n")[n]
        if line[start:end].strip() == word:
            return scope
    return None


def test_the_regexes_are_portable():
    for rule in RULES:
        for key in ("match", "begin", "end"):
            if key in rule:
                re.compile(rule[key])  # Python reads it
                # nothing that Oniguruma and Python read differently
                assert not re.search(r"\\[hHGAzZ]|\(\?<[^=!]|[*+?}]\+|\\p\{|\(\?[imx]", rule[key]), rule[key]


@pytest.mark.parametrize("word", sorted(keywords()))
def test_every_keyword_of_the_lark_grammar_is_highlighted(word):
    scope = scope_of(f"x {word} y", word)
    assert scope is not None and scope.split(".")[0] in ("keyword", "storage", "constant"), (word, scope)


@pytest.mark.parametrize("word", HEADS)
def test_every_head_word_of_the_compiler_is_highlighted(word):
    for text in (f"  {word} x", f"piece p {{ {word} x }}", f"a; {word} x"):
        scope = scope_of(text, word)
        assert scope is not None and scope.startswith("keyword"), (text, scope)


def test_a_head_word_is_not_a_keyword_elsewhere():
    assert scope_of("  connects road, limit", "limit") == "variable.other.catan"


def test_the_grammar_s_literal_tokens():
    text = 'on built(settlement) if x >= -2 { let n = 3..4 }  # note\n  bank 3:1 x4 ~ "s"'
    found = {text.split("\n")[n][s:e].strip(): scope for n, s, e, scope in tokenize(text)[0]}
    assert found["built"] == "support.function.catan"
    assert found["3..4"] == "constant.numeric.range.catan"
    assert found["3:1"] == "constant.numeric.ratio.catan"
    assert found["x4"] == "constant.numeric.repeat.catan"
    assert found["# note"] == "comment.line.number-sign.catan"
    assert found['"s"'] == "string.quoted.double.catan"
    assert found[">="] == "keyword.operator.catan"


def test_a_picture_spans_lines():
    text = 'map {\n  rows """\n    f8 # not a comment\n  """\n  legend { f forest }\n}'
    tokens, unmatched = tokenize(text)
    assert not unmatched
    assert (2, 0, len(text.split("\n")[2]), "string.quoted.triple.catan") in tokens
    assert scope_of(text, "legend") == "keyword.other.head.catan"


def test_there_are_samples():
    assert len(SAMPLES) >= 8


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_a_shipped_file_tokenizes_without_unmatched_spans(path):
    _, unmatched = tokenize(path.read_text(encoding="utf-8"))
    assert unmatched == []


def update() -> None:
    """Write the compiler's head words into the grammar's `head` pattern."""
    head = GRAMMAR["repository"]["head"]
    head["match"] = "(?:^|(?<=[{;]))\\s*\\b(" + "|".join(HEADS) + ")\\b"
    GRAMMAR_FILE.write_text(json.dumps(GRAMMAR, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__" and sys.argv[1:] == ["--update"]:
    update()
