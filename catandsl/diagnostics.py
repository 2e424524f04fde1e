"""Diagnostics: the one shape every error a user can cause takes.

A `Diagnostic` is data (code, severity, message, span, notes, help); `format_text`
renders it the way a compiler does (file:line:col, the source line, a caret),
and `to_json` gives the same facts to programs. Stages collect diagnostics and
raise `CatanError` carrying all of them, so an embedder gets every problem of a
file at once.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Span:
    """A region of a source file; lines and columns count from 1."""

    file: str
    line: int
    column: int
    end_line: int | None = None
    end_column: int | None = None

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"

    def to_json(self) -> dict:
        return {
            "file": self.file,
            "line": self.line,
            "column": self.column,
            "end_line": self.end_line,
            "end_column": self.end_column,
        }


NO_SPAN = Span("<none>", 0, 0)

ERROR = "error"
WARNING = "warning"
NOTE = "note"


@dataclass(frozen=True)
class Diagnostic:
    """A problem found in a user's file: code, message, where, severity, help and notes."""

    code: str
    message: str
    span: Span = NO_SPAN
    severity: str = ERROR
    help: str | None = None
    notes: tuple[str, ...] = ()

    @property
    def is_error(self) -> bool:
        return self.severity == ERROR

    def to_json(self) -> dict:
        return {
            "code": self.code,
            "severity": self.severity,
            "message": self.message,
            "span": self.span.to_json(),
            "help": self.help,
            "notes": list(self.notes),
        }


class CatanError(Exception):
    """Raised by a stage that found errors; carries every diagnostic it found."""

    def __init__(self, diagnostics: Iterable[Diagnostic]):
        self.diagnostics = tuple(diagnostics)
        first = self.diagnostics[0] if self.diagnostics else None
        super().__init__(
            f"{first.span}: {first.code}: {first.message}" if first else "catandsl error"
        )


@dataclass
class Sources:
    """Source texts by file name, so diagnostics can quote the offending line."""

    texts: dict[str, str] = field(default_factory=dict)

    def add(self, filename: str, text: str) -> None:
        self.texts[filename] = text

    def line(self, filename: str, line: int) -> str | None:
        text = self.texts.get(filename)
        if text is None or line < 1:
            return None
        lines = text.split("\n")  # as Lark counts lines: form feeds are not breaks
        return lines[line - 1].rstrip("\r") if line <= len(lines) else None


_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
EXCERPT = 100  # characters of a long source line shown around the column


def printable(text: str) -> str:
    """Text safe for a terminal: control characters (a terminal escape in a title from
    someone else's file) shown as `\\x1b`, never sent raw."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def format_text(diag: Diagnostic, sources: Sources | None = None) -> str:
    """Render one diagnostic as text: location, code, message, quoted line, caret, help."""
    span = diag.span
    head = f"{span}: {diag.severity}[{diag.code}]: {diag.message}"
    out = [head]
    src = sources.line(span.file, span.line) if sources else None
    if src is not None and span.column >= 1:
        src = src.replace("\t", " ")
        column = span.column
        width = 1
        if span.end_line == span.line and span.end_column and span.end_column > span.column:
            width = span.end_column - span.column
        if len(src) > EXCERPT:  # a long line: the part around the column, marked
            start = max(0, column - 1 - EXCERPT // 2)
            src = ("..." if start else "") + src[start:start + EXCERPT] + ("..." if start + EXCERPT < len(src) else "")
            column = column - start + (3 if start else 0)
        width = max(1, min(width, max(1, len(src) - column + 1)))
        gutter = f"{span.line:>5}"
        out.append(f"{gutter} | {src}")
        out.append(f"{' ' * len(gutter)} | {' ' * (column - 1)}{'^' * width}")
    for note in diag.notes:
        out.append(f"   note: {note}")
    if diag.help:
        out.append(f"   help: {diag.help}")
    return printable("\n".join(out))


def format_all(diags: Iterable[Diagnostic], sources: Sources | None = None) -> str:
    return "\n\n".join(format_text(d, sources) for d in diags)


def to_json(diags: Iterable[Diagnostic]) -> str:
    return json.dumps([d.to_json() for d in diags], indent=2)


def sort_key(diag: Diagnostic) -> tuple:
    s = diag.span
    return (s.file, s.line, s.column, diag.code, diag.message)
