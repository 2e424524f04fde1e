"""Lark's syntax errors -> Diagnostics, in the author's words.

Two tools: a table naming every terminal the way an author would ("`}`", "a name",
"end of line"), and `match_examples`, which finds the common mistake whose parser state
matches the failure (missing brace, trailing comma, ...) and gives it its own code.
"""

from __future__ import annotations

from lark import Lark
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from catandsl.diagnostics import Diagnostic, Span

TOKEN_WORDS = {
    "NAME": "a name",
    "NUMBER": "a number",
    "STRING": "a string",
    "LONG_STRING": 'a """picture"""',
    "RANGE": "a range like 3..4",
    "REPEAT": "a repeat like x4",
    "SYMBOL": "a legend symbol",
    "_NL": "end of line",
    "$END": "end of file",
    "LBRACE": "`{`",
    "RBRACE": "`}`",
    "LSQB": "`[`",
    "RSQB": "`]`",
    "LPAR": "`(`",
    "RPAR": "`)`",
    "COMMA": "`,`",
    "COLON": "`:`",
    "SEMICOLON": "`;`",
    "PLUS": "`+`",
    "MINUS": "`-`",
    "STAR": "`*`",
    "EQUAL": "`=`",
    "LESSTHAN": "`<`",
    "MORETHAN": "`>`",
    "__ANON_0": "`==`",
    "__ANON_1": "`!=`",
    "__ANON_2": "`<=`",
    "__ANON_3": "`>=`",
}


def token_words(name: str) -> str:
    if name in TOKEN_WORDS:
        return TOKEN_WORDS[name]
    if name.isupper() and name.isalpha():
        return f"`{name.lower()}`"  # a keyword
    return name


# Common mistakes: (code, message, help) -> example texts that fail the same way.
MISTAKES: dict[tuple[str, str, str], list[str]] = {
    (
        "E0103",
        "a block is not closed: `}` is missing",
        "every `{` needs a matching `}`; check the block that starts above",
    ): [
        "ruleset r {\n  piece road {\n    limit 15\n",
        "scenario \"s\" {\n",
        "ruleset r { piece p { on path }\n",
    ],
    (
        "E0104",
        "trailing comma: a list of names ends with `,`",
        "remove the last `,`, or put a long list inside [ ] where a trailing comma is allowed",
    ): [
        "ruleset r {\n  resources brick, lumber,\n}",
        "ruleset r {\n  connects road,\n}",
        "ruleset r { a b, }",
    ],
    (
        "E0105",
        "a block must start with `{` on the same line",
        "write `piece road {` with the brace on the line of the declaration",
    ): [
        "ruleset r\n{\n}",
        'scenario "s"\n{\n}',
    ],
    (
        "E0106",
        "a coordinate is written (q, r) with a comma",
        "write the hex as (q, r), for example (2, -1)",
    ): [
        "ruleset r { hex (1 2) }",
        "ruleset r { hex (1 -2) }",
    ],
    (
        "E0107",
        "a declaration must be inside `ruleset NAME { }` or `scenario \"Title\" { }`",
        "wrap the declarations in a ruleset or scenario block",
    ): [
        "piece road { }",
        "resources brick",
        "victory 10",
    ],
    (
        "E0108",
        "unbalanced `}`: there is no open block to close",
        "remove the extra `}` or add the missing `{`",
    ): [
        "ruleset r { }\n}",
        "ruleset r { a b }}",
    ],
}

_mistake_cache: dict[int, dict] = {}


def _examples():
    # match_examples wants {label: [texts]}; the label must be hashable.
    return {k: v for k, v in MISTAKES.items()}


def syntax_diagnostic(e: UnexpectedInput, text: str, filename: str, parser: Lark) -> Diagnostic:
    line = getattr(e, "line", 1) or 1
    column = getattr(e, "column", 1) or 1
    if isinstance(e, UnexpectedEOF) or (
        isinstance(e, UnexpectedToken) and e.token.type == "$END"
    ):
        line, column = _end_position(text)
    span = Span(filename, max(line, 1), max(column, 1))

    label = None
    try:
        label = e.match_examples(parser.parse, _examples(), use_accepts=True)
    except Exception:  # noqa: BLE001 - an example that itself misbehaves must not hide the error
        label = None

    expected = sorted(_expected(e))
    expected_words = ", ".join(token_words(t) for t in expected[:8])
    if len(expected) > 8:
        expected_words += ", ..."

    if isinstance(e, UnexpectedCharacters):
        ch = text[e.pos_in_stream] if 0 <= e.pos_in_stream < len(text) else "?"
        if ch == '"':
            return Diagnostic(
                "E0109",
                "a string is not closed on this line",
                span,
                help='close the string with `"`; use """triple quotes""" for a picture over several lines',
            )
        return Diagnostic(
            "E0102",
            f"unexpected character {ch!r}",
            span,
            help=f"expected {expected_words}" if expected_words else None,
        )
    if label is not None:
        code, message, help_ = label
        return Diagnostic(code, message, span, help=help_)
    found = _found(e)
    return Diagnostic(
        "E0101",
        f"unexpected {found}",
        span,
        help=f"expected {expected_words}" if expected_words else None,
    )


def _expected(e: UnexpectedInput) -> set[str]:
    if isinstance(e, UnexpectedToken):
        acc = e.accepts or e.expected
        return {t for t in acc if t not in ("COMMENT",)}
    if isinstance(e, UnexpectedCharacters):
        return set(e.allowed or ())
    if isinstance(e, UnexpectedEOF):
        return set(e.expected or ())
    return set()


def _found(e: UnexpectedInput) -> str:
    if isinstance(e, UnexpectedToken):
        tok = e.token
        if tok.type == "$END":
            return "end of file"
        if tok.type == "_NL":
            return "end of line"
        return f"{token_words(tok.type)} `{tok}`" if tok.type in ("NAME", "NUMBER") else token_words(tok.type)
    return "end of file"


def _end_position(text: str) -> tuple[int, int]:
    stripped = text.rstrip()
    line = stripped.count("\n") + 1
    col = len(stripped) - (stripped.rfind("\n") + 1) + 1
    return line, max(col, 1)
