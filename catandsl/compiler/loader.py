"""Reading .catan files safely: size, encoding, NUL bytes, missing files, directories and
anything else that is not a regular file (a FIFO would block forever) all become
diagnostics; imports stay inside their root."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from catandsl.diagnostics import Diagnostic, Span
from catandsl.syntax.parser import MAX_FILE_BYTES, decode_source


def display_name(path: Path) -> str:
    """Paths in diagnostics: relative to the working directory when inside it."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)
    except (OSError, RuntimeError):  # a loop of links (RuntimeError before Python 3.13)
        return str(path)


def read_source(path: Path, at: Span | None = None) -> tuple[str | None, Diagnostic | None]:
    """-> (text, None) or (None, diagnostic). `at` is the import that asked for it."""
    name = display_name(path)
    where = at or Span(name, 1, 1)
    try:
        # O_NONBLOCK: opening a FIFO returns at once instead of waiting for a writer; what
        # is read is checked on the open descriptor, so nothing can be swapped in between.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        return None, Diagnostic("E0005", f"no such file: {name}", where,
                                help="check the path; imports are relative to the importing file")
    except IsADirectoryError:
        return None, Diagnostic("E0006", f"{name} is a directory, not a .catan file", where)
    except OSError as e:
        return None, Diagnostic("E0007", f"cannot read {name}: {e.strerror or e}", where)
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            return None, Diagnostic("E0006", f"{name} is a directory, not a .catan file", where)
        if not stat.S_ISREG(st.st_mode):
            return None, Diagnostic("E0006", f"{name} is not a regular file (a device, a pipe or "
                                    "a socket)", where, help="name a .catan file")
        if st.st_size > MAX_FILE_BYTES:
            return None, Diagnostic(
                "E0001", f"{name} is {st.st_size:,} bytes; the limit is {MAX_FILE_BYTES:,}",
                Span(name, 1, 1), help="split the scenario with `import`")
        with os.fdopen(fd, "rb") as f:
            fd = -1  # the file object closes it now
            data = f.read(MAX_FILE_BYTES + 1)  # a file that grows meanwhile is cut here
    except OSError as e:
        return None, Diagnostic("E0007", f"cannot read {name}: {e.strerror or e}", where)
    finally:
        if fd >= 0:
            os.close(fd)
    return decode_source(data, name)
