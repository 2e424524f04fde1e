"""The parser cache never unpickles a file another user could have written.

A cache at a shared path, `<temp dir>/catandsl-lark-cache/catan-<hash>.lark.cache`, read
by Lark with a plain `pickle.load`, would let any local user create that directory first
and plant a file that runs code in every later process. So the cache lives in a private
per-user directory that is checked (owner, mode, no symlink) before anything in it is
read, and nothing reads the shared path.

Each case runs `parse` in a fresh subprocess whose HOME, XDG_CACHE_HOME and TMPDIR point
into tmp_path, so the real caches (and the shared system temp directory) are never
touched; the shared path is recomputed under that TMPDIR as Lark's reader would. A
hostile file is a pickle whose `__reduce__` creates a marker directory: the marker
existing afterwards means the file was unpickled. The child reports how many times it
built a Lark parser from the grammar, so "built 0" means the cache was used and "built
1" means it was refused (or missing). Owners other than ours need root to arrange; those
cases are skipped otherwise. No case depends on time.
"""

from __future__ import annotations

import hashlib
import json
import os
import pickle
import re
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from catandsl import resources

ROOT = Path(__file__).resolve().parents[2]
HANG_LIMIT = 60.0  # seconds: catches a hang, never a slow machine
NOBODY = 65534
IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0
needs_root = pytest.mark.skipif(not IS_ROOT, reason="giving a file another owner needs root")

pytestmark = pytest.mark.skipif(
    not hasattr(os, "O_NOFOLLOW") or not hasattr(os, "geteuid"), reason="the cache is POSIX only"
)

CHILD = r"""
import json, sys
import lark
built = []
_init = lark.Lark.__init__
def counting_init(self, *args, **kwargs):
    built.append(1)
    _init(self, *args, **kwargs)
lark.Lark.__init__ = counting_init
from catandsl.syntax.parser import parse
tree = parse("ruleset r {\n  victory 10\n}\n", "t.catan")
assert tree.items[0].body.stmts[0].head.name == "victory", tree
print(json.dumps({"built": len(built)}))
"""


class Payload:
    """Unpickling this creates `marker`: proof that a planted file was unpickled."""

    def __init__(self, marker: Path):
        self.marker = str(marker)

    def __reduce__(self):
        return (os.mkdir, (self.marker,))


# ---- helpers ---------------------------------------------------------------------------


def child_env(tmp_path: Path, xdg: bool = True) -> dict[str, str]:
    env = dict(os.environ)
    env["HOME"] = str(tmp_path / "home")
    env["TMPDIR"] = str(tmp_path / "tmp")
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env.pop("XDG_CACHE_HOME", None)
    if xdg:
        env["XDG_CACHE_HOME"] = str(tmp_path / "xdg")
    for d in ("home", "tmp"):
        (tmp_path / d).mkdir(exist_ok=True)
    return env


def run_child(env: dict[str, str], code: str = CHILD) -> dict:
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=HANG_LIMIT
    )
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def cache_dir(tmp_path: Path) -> Path:
    return tmp_path / "xdg" / "catandsl"


def hostile_bytes(marker: Path, lark_format: bool = False) -> bytes:
    data = pickle.dumps(Payload(marker))
    # Lark's cache format: a hash line, then pickles; Lark unpickles before comparing it.
    return b"0" * 64 + b"\n" + data if lark_format else data


def shared_cache_path(tmp_path: Path) -> Path:
    """The shared path: tempfile.gettempdir() is $TMPDIR in the child."""
    grammar = resources.grammar_path().read_text(encoding="utf-8")
    h = hashlib.sha256(grammar.encode()).hexdigest()[:16]
    return tmp_path / "tmp" / "catandsl-lark-cache" / f"catan-{h}.lark.cache"


def plant_shared(tmp_path: Path, marker: Path, owner: int | None) -> Path:
    """A hostile cache at the shared path, in a directory "someone else" made first."""
    path = shared_cache_path(tmp_path)
    path.parent.mkdir(parents=True)
    path.write_bytes(hostile_bytes(marker, lark_format=True))
    os.chmod(path.parent, 0o777)
    os.chmod(path, 0o666)
    if owner is not None:
        os.chown(path.parent, owner, owner)
        os.chown(path, owner, owner)
    return path


def snapshot(d: Path) -> dict[str, tuple[int, int, int]]:
    return {p.name: (p.stat().st_ino, p.stat().st_mtime_ns, p.stat().st_size) for p in d.iterdir()}


def mode(p: Path) -> int:
    return stat.S_IMODE(os.lstat(p).st_mode)


# ---- the shared path -------------------------------------------------------------------


@pytest.mark.parametrize("owner", [None, pytest.param(NOBODY, marks=needs_root)], ids=["open-mode", "other-owner"])
def test_planted_file_is_live_for_lark_cache_reader(tmp_path, owner):
    """Control: the file planted at the shared path does run code when Lark's own cache
    reader reads it, so the absence of the marker below means something."""
    marker = tmp_path / "ran"
    path = plant_shared(tmp_path, marker, owner)
    code = (
        "from lark import Lark\n"
        f"Lark('start: \"a\"', parser='lalr', cache={str(path)!r})\n"
        "print('{}')\n"
    )
    run_child(child_env(tmp_path), code)
    assert marker.exists()


@pytest.mark.parametrize("owner", [None, pytest.param(NOBODY, marks=needs_root)], ids=["open-mode", "other-owner"])
def test_the_shared_temp_path_is_never_read_or_written(tmp_path, owner):
    marker = tmp_path / "ran"
    path = plant_shared(tmp_path, marker, owner)
    before = snapshot(path.parent)
    env = child_env(tmp_path)
    run_child(env)
    run_child(env)  # the second run has a cache of its own to load
    assert not marker.exists(), "the planted pickle at the shared temp path was unpickled"
    assert snapshot(path.parent) == before


# ---- the new path: refused when anyone else could have written it -------------------------


def valid_cache(tmp_path: Path) -> Path:
    """Run once so that the private cache holds a real parser; return the file."""
    env = child_env(tmp_path)
    assert run_child(env)["built"] == 1
    (path,) = cache_dir(tmp_path).iterdir()
    return path


def open_file(path: Path) -> None:
    os.chmod(path, 0o666)


def other_owner_file(path: Path) -> None:
    os.chown(path, NOBODY, NOBODY)


def symlinked_file(path: Path) -> None:
    """The cache file is a symlink to an otherwise perfect private cache file elsewhere."""
    target = path.parent.parent / "elsewhere.pickle"
    os.rename(path, target)
    os.symlink(target, path)


def open_dir(path: Path) -> None:
    os.chmod(path.parent, 0o777)


def group_writable_dir(path: Path) -> None:
    os.chmod(path.parent, 0o770)


def other_owner_dir(path: Path) -> None:
    os.chown(path.parent, NOBODY, NOBODY)


def symlinked_dir(path: Path) -> None:
    """The cache directory is a symlink to an otherwise perfect private directory."""
    d = path.parent
    target = d.parent / "elsewhere"
    os.rename(d, target)
    os.symlink(target, d, target_is_directory=True)


HOSTILE_SETUPS = [
    pytest.param(open_file, id="file-0o666"),
    pytest.param(other_owner_file, id="file-other-owner", marks=needs_root),
    pytest.param(symlinked_file, id="file-symlink"),
    pytest.param(open_dir, id="dir-0o777"),
    pytest.param(group_writable_dir, id="dir-0o770"),
    pytest.param(other_owner_dir, id="dir-other-owner", marks=needs_root),
    pytest.param(symlinked_dir, id="dir-symlink"),
]


@pytest.mark.parametrize("make_hostile", HOSTILE_SETUPS)
def test_hostile_payload_at_new_path_is_refused(tmp_path, make_hostile):
    marker = tmp_path / "ran"
    path = valid_cache(tmp_path)
    path.write_bytes(hostile_bytes(marker))
    make_hostile(path)
    assert run_child(child_env(tmp_path))["built"] == 1
    assert not marker.exists(), "a hostile pickle in the cache was unpickled"


@pytest.mark.parametrize("make_hostile", HOSTILE_SETUPS)
def test_valid_cache_anyone_could_have_written_is_not_loaded(tmp_path, make_hostile):
    """The owner and mode checks refuse even a genuine cache file, so they do not lean
    on the restricted unpickler; and nothing is written into a directory that fails."""
    path = valid_cache(tmp_path)
    make_hostile(path)
    d = cache_dir(tmp_path)
    dir_ok = make_hostile in (open_file, other_owner_file, symlinked_file)
    before = None if dir_ok else snapshot(d)
    assert run_child(child_env(tmp_path))["built"] == 1
    if dir_ok:
        # the directory is ours: the refused entry is replaced by a private file
        assert not path.is_symlink()
        st = os.lstat(path)
        assert stat.S_ISREG(st.st_mode) and st.st_uid == os.geteuid()
        assert mode(path) & 0o022 == 0
        assert run_child(child_env(tmp_path))["built"] == 0
    else:
        assert snapshot(d) == before


def test_payload_in_a_private_cache_still_cannot_run(tmp_path):
    """Defence in depth: a file that passes the checks is read with an unpickler that
    resolves only the postlexer's class, so a payload naming any function fails to load
    and the parser is rebuilt."""
    marker = tmp_path / "ran"
    path = valid_cache(tmp_path)
    path.write_bytes(hostile_bytes(marker))
    os.chmod(path, 0o600)
    assert run_child(child_env(tmp_path))["built"] == 1
    assert not marker.exists()
    assert run_child(child_env(tmp_path))["built"] == 0  # the rebuilt cache replaced it


# ---- the normal path -------------------------------------------------------------------


@pytest.mark.parametrize("where", ["xdg", "home", "relative-xdg"])
def test_cache_is_private_and_reused(tmp_path, where):
    env = child_env(tmp_path, xdg=where == "xdg")
    if where == "relative-xdg":
        env["XDG_CACHE_HOME"] = "relative/cache"  # not absolute: ignored, as XDG says
    d = cache_dir(tmp_path) if where == "xdg" else tmp_path / "home" / ".cache" / "catandsl"
    assert run_child(env)["built"] == 1
    assert stat.S_ISDIR(os.lstat(d).st_mode) and mode(d) == 0o700
    (path,) = d.iterdir()
    assert re.fullmatch(r"parser-[0-9a-f]{16}\.pickle", path.name), path.name  # named by a hash
    st = os.lstat(path)
    assert stat.S_ISREG(st.st_mode) and st.st_uid == os.geteuid() and mode(path) & 0o077 == 0
    assert run_child(env)["built"] == 0  # loaded, not built
    assert snapshot(d) == {path.name: (st.st_ino, st.st_mtime_ns, st.st_size)}  # not rewritten


def test_no_usable_home_means_no_cache(tmp_path):
    """A cache directory that cannot be created (its parent is a file) is no error."""
    env = child_env(tmp_path)
    (tmp_path / "xdg").write_text("not a directory")
    assert run_child(env)["built"] == 1
    assert run_child(env)["built"] == 1
