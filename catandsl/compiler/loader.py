"""Reading .catan files safely: size, encoding, NUL bytes, missing files and directories
all become diagnostics; imports stay inside their root."""

from __future__ import annotations

from pathlib import Path

from catandsl.diagnostics import Diagnostic, Span
from catandsl.syntax.parser import MAX_FILE_BYTES, check_text_limits


def display_name(path: Path) -> str:
    """Paths in diagnostics: relative to the working directory when inside it."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def read_source(path: Path, at: Span | None = None) -> tuple[str | None, Diagnostic | None]:
    """-> (text, None) or (None, diagnostic). `at` is the import that asked for it."""
    name = display_name(path)
    where = at or Span(name, 1, 1)
    try:
        if not path.exists():
            return None, Diagnostic("E0005", f"no such file: {name}", where,
                                    help="check the path; imports are relative to the importing file")
        if path.is_dir():
            return None, Diagnostic("E0006", f"{name} is a directory, not a .catan file", where)
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            return None, Diagnostic(
                "E0001", f"{name} is {size:,} bytes; the limit is {MAX_FILE_BYTES:,}",
                Span(name, 1, 1), help="split the scenario with `import`")
        data = path.read_bytes()
    except OSError as e:
        return None, Diagnostic("E0007", f"cannot read {name}: {e.strerror or e}", where)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        line_start = data.rfind(b"\n", 0, e.start) + 1
        # columns count characters, as everywhere else, not bytes
        col = len(data[line_start:e.start].decode("utf-8", "replace")) + 1
        return None, Diagnostic("E0002", f"{name} is not valid UTF-8 (byte 0x{data[e.start]:02x})",
                                Span(name, line, col), help="save the file as UTF-8 text")
    if text.startswith("\ufeff"):
        text = text[1:]
    diag = check_text_limits(text, name)
    if diag is not None:
        return None, diag
    return text, None
