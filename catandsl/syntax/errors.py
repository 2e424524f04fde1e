"""Lark's syntax errors -> Diagnostics, in the author's words.

Two tools: a table naming every terminal the way an author would ("`}`", "a name",
"end of line"), and a table of common mistakes (missing brace, trailing comma, ...):
a failure whose parser state and offending token match one of a mistake's examples
gets that mistake's code.
"""

from __future__ import annotations

from lark import Lark, Token
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
    "CALL_NAME": "a call like land(at)",
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
        "ruleset r {\n  piece road\n  {\n  }\n}",
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

# per parser (the one parser.py makes, kept for the process): the examples' failures
_mistake_cache: dict[Lark, list] = {}


def _mistake_states(parser: Lark) -> list:
    """(label, LALR state, token type) of every example's failure, computed once per parser."""
    key = parser
    if key not in _mistake_cache:
        found = []
        for label, texts in MISTAKES.items():
            for text in texts:
                try:
                    parser.parse(text)
                except UnexpectedInput as ut:
                    if isinstance(ut, UnexpectedToken) and ut.state is not None:
                        found.append((label, ut.state.position, ut.token.type))
        _mistake_cache[key] = found
    return _mistake_cache[key]


def _match_mistake(e: UnexpectedInput, parser: Lark):
    """The mistake whose example fails in the same LALR state on the same kind of token.

    Lark's `match_examples` also compares the depth of the parser's stack, so an example
    written at the top level never matched the same mistake inside a nested block; the
    state on top of the stack is what decides which tokens were acceptable."""
    if not isinstance(e, UnexpectedToken) or e.state is None:
        return None
    position, token_type = e.state.position, e.token.type
    for label, state, example_token in _mistake_states(parser):
        if state == position and example_token == token_type:
            return label
    return None


def syntax_diagnostic(e: UnexpectedInput, text: str, filename: str, parser: Lark) -> Diagnostic:
    line = getattr(e, "line", 1) or 1
    column = getattr(e, "column", 1) or 1
    at_end = isinstance(e, UnexpectedEOF) or (
        isinstance(e, UnexpectedToken) and e.token.type == "$END"
    )
    if at_end:
        line, column = _end_position(text)
    span = Span(filename, max(line, 1), max(column, 1))

    label = _match_mistake(e, parser)
    if label is None and at_end and "RBRACE" in _expected(e):
        label = _mistake("E0103")  # the file ends where a `}` could still close a block
    if label is not None and label[0] == "E0103":
        code, message, help_ = label
        return Diagnostic(code, message, span, help=help_, notes=_open_block(e))

    expected = sorted(_expected(e))
    expected_words = ", ".join(token_words(t) for t in expected[:8])
    if len(expected) > 8:
        expected_words += ", ..."

    if isinstance(e, UnexpectedCharacters):
        pos = e.pos_in_stream  # always set by the lexer; Lark types it optional
        ch = text[pos] if pos is not None and 0 <= pos < len(text) else "?"
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


def _mistake(code: str) -> tuple[str, str, str]:
    return next(label for label in MISTAKES if label[0] == code)


def _open_block(e: UnexpectedInput) -> tuple[str, ...]:
    """A note naming where the innermost block still open at the error starts."""
    parser_state = getattr(getattr(e, "interactive_parser", None), "parser_state", None)
    if parser_state is None:
        return ()
    braces = [v for v in parser_state.value_stack if isinstance(v, Token) and v.type == "LBRACE"]
    if not braces:
        return ()
    return (f"the block opened at line {braces[-1].line}, column {braces[-1].column} is not closed",)


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
        words = token_words(tok.type).removeprefix("a ")  # "unexpected number `0`"
        return f"{words} `{tok}`" if tok.type in ("NAME", "NUMBER") else words
    return "end of file"


def _end_position(text: str) -> tuple[int, int]:
    stripped = text.rstrip()
    line = stripped.count("\n") + 1
    col = len(stripped) - (stripped.rfind("\n") + 1) + 1
    return line, max(col, 1)
