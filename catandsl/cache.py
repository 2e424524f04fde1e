"""A per-user cache of things that are slow to rebuild and cheap to keep: the built
parser (catandsl/syntax/parser.py) and the summary of the shipped scenarios that
`catandsl list` prints (catandsl/catalog.py). Each file's name carries a hash of
everything its content depends on, so a changed input is a new name, never a stale read.

The cache is only ever read where no other user can write:

- It lives in a per-user directory, `$XDG_CACHE_HOME/catandsl` (an absolute
  XDG_CACHE_HOME only, as the XDG spec says) or else `~/.cache/catandsl`, created with
  mode 0o700. Not the system temp directory: there any local user could create the
  directory first and plant a file that every later process trusted.
- The directory is opened with O_NOFOLLOW and checked on the open descriptor (fstat):
  a real directory, owned by our effective uid, not group or other writable. A cache
  file is opened relative to that descriptor, with O_NOFOLLOW, and checked the same way
  on its own descriptor before a byte is read. Checking descriptors, not paths, leaves
  no window between check and use; and since nobody else can create, rename or replace
  entries in a directory that is ours and not writable by others, a file that passes
  cannot be swapped afterwards (only root could, and root can do anything anyway).
- If any check fails (another owner, open permissions, a symlink, no home, a read-only
  disk, a platform without O_NOFOLLOW or dir_fd), nothing is read or written: the
  caller rebuilds. A refusal costs time, never correctness.
- A file is written only into the directory verified above: to a new temporary file
  (O_CREAT | O_EXCL | O_NOFOLLOW, mode 0o600), then renamed over the cache file, so a
  reader never sees half a file and two processes may race harmlessly.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
from pathlib import Path

KEEP = 8  # files of one kind kept (see prune)
SUPPORTED = (
    hasattr(os, "geteuid")
    and hasattr(os, "O_NOFOLLOW")
    and hasattr(os, "O_DIRECTORY")
    and {os.open, os.rename, os.unlink, os.stat} <= os.supports_dir_fd
    and os.listdir in os.supports_fd
)


def stamp(paths) -> str:
    """Each file by its path, size and modification time (as Python's bytecode cache
    judges a source): a key part that changes when one of them does."""
    parts = []
    for path in paths:
        st = os.stat(path)
        parts.append(f"{path}\0{st.st_size}\0{st.st_mtime_ns}")
    return "\0".join(parts)


def lark_stamp() -> str:
    """The installed Lark, by its module file's path, size and modification time, read
    without importing it (an import costs as much as the rest of a cached check)."""
    from importlib.util import find_spec

    spec = find_spec("lark")
    if spec is None or spec.origin is None:
        return "no lark"
    return stamp([spec.origin])


def directory() -> Path:
    """Where the cache is: `$XDG_CACHE_HOME/catandsl` or `~/.cache/catandsl`."""
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    root = Path(xdg) if os.path.isabs(xdg) else Path.home() / ".cache"
    return root / "catandsl"


def _private(st: os.stat_result, is_kind) -> bool:
    """Ours alone: the right kind of file, owned by us, writable by nobody else."""
    return is_kind(st.st_mode) and st.st_uid == os.geteuid() and st.st_mode & 0o022 == 0


def open_directory() -> int | None:
    """A descriptor of the verified private cache directory (the caller closes it), or
    None: rebuild without the cache."""
    if not SUPPORTED:
        return None
    try:
        path = directory()
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        with contextlib.suppress(FileExistsError):
            os.mkdir(path, 0o700)
        fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
    except (OSError, RuntimeError):  # RuntimeError: Path.home() found no home
        return None
    try:
        if _private(os.fstat(fd), stat.S_ISDIR):
            return fd
    except OSError:
        pass
    os.close(fd)
    return None


def read(dir_fd: int, name: str) -> bytes | None:
    """The bytes of a private cache file in the verified directory, or None."""
    try:
        # O_NONBLOCK: opening a FIFO must not hang (nothing but us can make one here).
        fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK, dir_fd=dir_fd)
    except OSError:  # missing, or a symlink (ELOOP)
        return None
    with os.fdopen(fd, "rb") as f:
        try:
            if not _private(os.fstat(fd), stat.S_ISREG):
                return None
            return f.read()
        except OSError:
            return None


def write(dir_fd: int, name: str, data: bytes) -> None:
    """Write a cache file atomically; a cache that cannot be written is only a slower
    next start."""
    tmp = f".{name}.{os.getpid()}.{secrets.token_hex(8)}.tmp"
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600, dir_fd=dir_fd)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        # POSIX rename replaces the old file atomically (os.replace is not in supports_dir_fd)
        os.rename(tmp, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(tmp, dir_fd=dir_fd)


def prune(dir_fd: int, prefix: str, keep: int = KEEP) -> None:
    """Remove all but the `keep` newest files whose names start with `prefix`, so the
    cache does not grow with every change of the inputs, while a few installations (two
    checkouts, two Python versions) sharing it keep their own files."""
    with contextlib.suppress(OSError):
        names = [n for n in os.listdir(dir_fd) if n.startswith(prefix)]
        if len(names) <= keep:
            return
        ages = {n: os.stat(n, dir_fd=dir_fd, follow_symlinks=False).st_mtime_ns for n in names}
        for old in sorted(names, key=lambda n: (ages[n], n))[:-keep]:
            os.unlink(old, dir_fd=dir_fd)
