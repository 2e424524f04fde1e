"""The canonical layout of a .catan file (`catandsl fmt`).

The formatter works on the token stream (`parser.lexemes`), not the tree: Lark's parser
drops comments, and a layout written from tokens keeps every comment and every line
break where the author put them, and formats a construct added to the grammar later
without knowing it. What it decides:

- indentation: two spaces per open `{`; a line inside `(` or `[` starts under the text
  that follows the bracket on its line, or two spaces in when the bracket ends its line
  (`harbors fixed [`); a line opening with closers lines up with the line that opened
  them;
- spacing inside a line: one space between tokens, none inside brackets, before `,`,
  `;`, `)` and `]`, around the `:` of a ratio, after a unary `-`, or between a call's
  name and its `(` (a name *and a space* before `(` is a coordinate, and stays so),
  or before the `[` of an item written against its list (`coast[0]`);
- blank lines: at most one in a row, none right after an opening or before a closing
  bracket, none at the start or end of the file, one after each top-level block;
- alignment: in a run of consecutive one-line statements `HEAD NAME { ... }` with the
  same head word the blocks line up (`terrain hills     { produces brick }`); in a run
  of one-line entries whose heads are different short keys (a legend's `~ sea`) the
  second token lines up; trailing comments in a run of consecutive code lines line up,
  two spaces after the longest commented line;
- a number written against a name stays so (`dice 2d6`);
- `\"\"\"pictures\"\"\"` (map rows) are copied as drawn, byte for byte.

Every reformatted text is parsed again and its tree compared with the original's
(positions aside), so a layout bug can only ever refuse to format, never change meaning.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, is_dataclass

from catandsl.diagnostics import CatanError, Span
from catandsl.syntax.parser import Lexeme, keywords, lexemes, parse

INDENT = 2
SHORT_KEY = 2  # a head word this short, different on every line of a run, is a table key

_OPEN = {"(": ")", "[": "]", "{": "}"}
_CLOSE = {")", "]", "}"}
_NO_SPACE_BEFORE = {",", ";", ")", "]", ":"}
_NO_SPACE_AFTER = {"(", "[", ":"}
# After these a `-` is a sign, not a subtraction.
_OPERATORS = {"(", "[", "{", ",", ";", "=", "==", "!=", "<", "<=", ">", ">=", "+", "-", "*", ":"}
_WORDS = {"NAME", "NUMBER", "STRING", "SYMBOL", "RANGE", "REPEAT", "ON"}


@dataclass
class _Line:
    tokens: list[Lexeme] = field(default_factory=list)  # code, no comment
    comment: str | None = None
    indent: int = 0
    starts_statement: bool = False  # begins a statement (not a continuation inside brackets)
    balanced: bool = True  # opens and closes no bracket across lines
    verbatim: bool = False  # holds a multi-line picture
    top_level_close: bool = False  # closes a top-level block
    pads: dict[int, int] = field(default_factory=dict)  # token index -> extra spaces before it
    comment_column: int | None = None

    @property
    def blank(self) -> bool:
        return not self.tokens and self.comment is None


def format_source(text: str, filename: str = "<input>") -> str:
    """The canonical layout of `text`; raises CatanError (the parser's diagnostics) when
    the text does not parse, and LayoutError if the layout would change its meaning."""
    before = parse(text, filename)
    lines = _lines(lexemes(text, filename))
    _indent(lines)
    lines = _blank_lines(lines)
    _align(lines)
    out = _render(lines)
    try:
        after = parse(out, filename)
    except CatanError:
        after = None
    if after is None or _strip(after) != _strip(before):
        # never write a file whose meaning the layout changed: a bug here must be loud
        raise LayoutError(f"{filename}: the layout would change what the file means; it is left as it is")
    return out


class LayoutError(Exception):
    """The formatter's own bug (its output would parse differently): not the file's fault."""


# ---- lines ---------------------------------------------------------------------------


def _lines(tokens: list[Lexeme]) -> list[_Line]:
    lines = [_Line()]
    for tok in tokens:
        if tok.type == "_NL":
            lines.append(_Line())
        elif tok.type == "COMMENT":
            lines[-1].comment = tok.text.rstrip()
        else:
            lines[-1].tokens.append(tok)
            if "\n" in tok.text:
                lines[-1].verbatim = True
    return lines


def _indent(lines: list[_Line]) -> None:
    """Each line's indent from the brackets open at its start (see the module's doc)."""
    stack: list[tuple[str, int, int]] = []  # (opener, indent of its content, indent of its closer)
    statement_indent = 0
    for line in lines:
        toks = line.tokens
        lead = 0
        while lead < len(toks) and toks[lead].text in _CLOSE and lead < len(stack):
            lead += 1
        if lead:
            line.indent = stack[-lead][2]
            del stack[-lead:]
        else:
            line.indent = stack[-1][1] if stack else 0
        line.starts_statement = bool(toks) and (not stack or stack[-1][0] == "{")
        if line.starts_statement:
            statement_indent = line.indent
        depth = len(stack)
        offsets: list[int] | None = None
        for j in range(lead, len(toks)):
            tok = toks[j]
            if tok.text in _OPEN:
                if tok.text == "{":
                    stack.append(("{", statement_indent + INDENT, statement_indent))
                elif j == len(toks) - 1:  # a hanging bracket: its lines two spaces in
                    stack.append((tok.text, line.indent + INDENT, line.indent))
                else:  # text after the bracket: its lines start under that text
                    offsets = offsets or _offsets(line)
                    stack.append((tok.text, line.indent + offsets[j + 1], line.indent))
            elif tok.text in _CLOSE and stack:
                closed = stack.pop()
                if closed[0] == "{":
                    statement_indent = closed[2]
        line.balanced = not lead and len(stack) == depth
        line.top_level_close = bool(toks) and toks[-1].text == "}" and not stack


# ---- spacing inside a line -----------------------------------------------------------


def _space(prev: Lexeme, tok: Lexeme, before_prev: Lexeme | None) -> str:
    if prev.text in _NO_SPACE_AFTER or tok.text in _NO_SPACE_BEFORE:
        return ""
    if tok.text == "(" and prev.type == "CALL_NAME":
        return ""
    if prev.text == "{" and tok.text == "}":
        return ""
    if prev.text == "-" and _is_sign(before_prev):
        return ""
    if prev.text == "-" and tok.type == "NUMBER" and _touch(prev, tok) and before_prev is not None \
            and before_prev.type == "NAME" and not _touch(before_prev, prev):
        return ""  # a negative number in an entry's phrase: `points -1`
    if prev.type == "NUMBER" and tok.type == "NAME" and _touch(prev, tok):
        return ""  # `2d6` is written as one word
    if tok.text == "[" and _touch(prev, tok) and (prev.text in (")", "]") or (
            prev.type == "NAME" and prev.text not in _KEYWORDS)):
        return ""  # `coast[0]`, `ends(at)[1]`: an item of a list, written against it
    return " "


def _touch(prev: Lexeme, tok: Lexeme) -> bool:
    return prev.line == tok.line and prev.column + len(prev.text) == tok.column


def _is_sign(before: Lexeme | None) -> bool:
    return before is None or before.text in _OPERATORS or before.text in _SIGN_AFTER


_KEYWORDS = keywords()  # read from the grammar: a word added there is a keyword here too
_SIGN_AFTER = _KEYWORDS - {"true", "false"}  # `if -x`, `and -x`: a keyword, then a sign


def _offsets(line: _Line) -> list[int]:
    """Where each token of the line starts in its code (`_code`)."""
    out, column = [], 0
    toks = line.tokens
    for i, tok in enumerate(toks):
        if i:
            column += len(_space(toks[i - 1], tok, toks[i - 2] if i >= 2 else None)) + line.pads.get(i, 0)
        out.append(column)
        column += len(tok.text)
    return out


def _code(line: _Line) -> str:
    out = []
    toks = line.tokens
    for i, tok in enumerate(toks):
        if i:
            out.append(_space(toks[i - 1], tok, toks[i - 2] if i >= 2 else None))
            out.append(" " * line.pads.get(i, 0))
        out.append(tok.text)
    return "".join(out)


# ---- alignment -----------------------------------------------------------------------


def _align(lines: list[_Line]) -> None:
    for run in _runs(lines, _is_simple):
        _align_after_head(run)
        _align_keys(run)
    for run in _runs(lines, lambda ln: bool(ln.tokens) and not ln.verbatim, same_indent=False):
        commented = [ln for ln in run if ln.comment is not None]
        if len(commented) >= 2:
            width = max(ln.indent + len(_code(ln)) for ln in commented)
            for ln in commented:
                ln.comment_column = width + 2 - ln.indent


def _runs(lines: list[_Line], keep, same_indent: bool = True) -> list[list[_Line]]:
    """Maximal runs of consecutive lines (with the same indent) that `keep` accepts."""
    runs: list[list[_Line]] = []
    current: list[_Line] = []
    for line in lines:
        if keep(line) and (not current or not same_indent or current[-1].indent == line.indent):
            current.append(line)
            continue
        runs.append(current)
        current = [line] if keep(line) else []
    runs.append(current)
    return [r for r in runs if len(r) >= 2]


def _is_simple(line: _Line) -> bool:
    """A whole statement on one line."""
    return line.starts_statement and line.balanced and not line.verbatim and line.tokens[0].text not in _CLOSE


def _align_after_head(run: list[_Line]) -> None:
    """Same head word on each line, then one word and a one-line block: the blocks line
    up (`terrain hills     { produces brick }`)."""
    groups: list[list[_Line]] = []
    for line in run:
        if groups and groups[-1][0].tokens[0].text == line.tokens[0].text:
            groups[-1].append(line)
        else:
            groups.append([line])
    for group in groups:
        members = [ln for ln in group if len(ln.tokens) >= 3 and ln.tokens[1].type in _WORDS
                   and ln.tokens[2].text == "{"]
        if len(members) < 2:
            continue
        width = max(len(ln.tokens[1].text) for ln in members)
        for ln in members:
            ln.pads[2] = width - len(ln.tokens[1].text)


def _align_keys(run: list[_Line]) -> None:
    """Different short keys at the head of each line (a legend): the second token lines up."""
    heads = [ln.tokens[0].text for ln in run]
    if len(set(heads)) != len(heads) or any(len(h) > SHORT_KEY for h in heads):
        return
    if any(len(ln.tokens) < 2 or ln.tokens[0].type not in _WORDS or ln.tokens[0].text in _KEYWORDS for ln in run):
        return
    width = max(len(h) for h in heads)
    for ln in run:
        ln.pads[1] = width - len(ln.tokens[0].text)


# ---- output --------------------------------------------------------------------------


def _blank_lines(lines: list[_Line]) -> list[_Line]:
    """The lines with the blank ones where the layout wants them (before alignment, so
    that a run of lines to align is the same whatever blank lines the input had)."""
    out: list[_Line] = []
    previous: _Line | None = None  # the last line kept that was not blank
    pending_blank = False
    for line in lines:
        if line.blank:
            pending_blank = previous is not None
            continue
        opens_after = previous is not None and bool(previous.tokens) and previous.tokens[-1].text in _OPEN
        closes = bool(line.tokens) and line.tokens[0].text in _CLOSE
        if previous is not None and previous.top_level_close and line.indent == 0:
            pending_blank = True
        if pending_blank and not opens_after and not closes:
            out.append(_Line())
        pending_blank = False
        out.append(line)
        previous = line
    return out


def _render(lines: list[_Line]) -> str:
    out = [_render_line(line) for line in lines]
    return "\n".join(out) + "\n" if out else ""


def _render_line(line: _Line) -> str:
    code = _code(line)
    text = " " * line.indent + code if code else " " * line.indent
    if line.comment is not None:
        if not code:
            text += line.comment
        else:
            column = line.comment_column or len(code) + 2
            text += " " * (column - len(code)) + line.comment
    return text.rstrip()


# ---- the check that meaning is kept ------------------------------------------------------


def _strip(node):
    """A tree without positions, for comparing two parses."""
    if isinstance(node, Span):
        return None
    if is_dataclass(node) and not isinstance(node, type):
        return (type(node).__name__, tuple(_strip(getattr(node, f.name)) for f in fields(node)))
    if isinstance(node, tuple | list):
        return tuple(_strip(x) for x in node)
    return node
