"""Kept parse trees: a file a scenario reads (a standard ruleset it uses, a file it
imports) is parsed once per text, and its tree kept in the per-user cache
(catandsl/cache.py) as JSON, so a check of an edited scenario parses only the file that
changed, not the standard rulesets under it. The scenario's own file is parsed every
time: it is the one being edited, and an unchanged one that checked clean is not
compiled at all (catandsl/verdicts.py).

A tree is found under a hash of the file's name as diagnostics show it (its spans carry
it), its text and the code that parses it (`code_key`: the modules of catandsl.syntax,
the spans' module and the grammar, each by name, size and modification time as
Python's bytecode cache judges a source, and the Python and Lark versions), so a
changed grammar, parser or tree node, or another installed version, is a new name,
never a stale read. Only a file that parses cleanly is kept: one with a syntax error
is parsed again every time and gives its diagnostics as it did.

The JSON names nothing but the tree's own node classes (a fixed table of
catandsl.syntax.ast's dataclasses) and plain values; no code is named or run from it,
and a file that does not decode as a tree is parsed afresh.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import sys
from pathlib import Path
from typing import Any

from catandsl import cache, resources
from catandsl.diagnostics import Span
from catandsl.syntax import ast

FORMAT = 1  # bump when the JSON's shape changes
PREFIX = "tree-"
KEEP = 32  # trees kept (the newest): the standard rulesets and the files being edited
_HERE = Path(__file__).resolve().parent
_code_key: str | None = None
_TUPLE, _SPAN, _SPAN_ELSEWHERE = "(", "@", "@@"
_NODES: dict[str, tuple[type, tuple[str, ...]]] = {
    cls.__name__: (cls, tuple(f.name for f in dataclasses.fields(cls)))
    for cls in vars(ast).values()
    if isinstance(cls, type) and dataclasses.is_dataclass(cls) and cls.__module__ == ast.__name__
}


class _Damaged(ValueError):
    """A kept tree that does not decode: parse the file again."""


def parse(text: str, filename: str) -> ast.File:
    """The tree of `text` (the file `filename`), from the cache when this text was parsed
    before; otherwise parsed (raising CatanError as the parser does) and kept."""
    from catandsl.syntax.parser import parse as parse_text

    dir_fd = cache.open_directory()
    if dir_fd is None:
        return parse_text(text, filename)
    try:
        name = entry_name(text, filename)
        data = cache.read(dir_fd, name)
        if data is not None:
            try:
                tree = decode(json.loads(data), filename)
                if isinstance(tree, ast.File):
                    return tree
            except (ValueError, TypeError, KeyError, IndexError, RecursionError):
                pass  # a damaged tree: parse again and keep it afresh
        tree = parse_text(text, filename)
        try:
            encoded = json.dumps(encode(tree, filename), separators=(",", ":"))
        except (ValueError, TypeError, RecursionError):
            return tree  # a tree that cannot be kept is only a slower next start
        cache.write(dir_fd, name, encoded.encode())
        cache.prune(dir_fd, PREFIX, KEEP)
        return tree
    finally:
        os.close(dir_fd)


def code_key() -> str:
    """A hash of the code a tree comes from: catandsl.syntax's modules and the grammar
    (each by its path, size and modification time), the Python version and Lark's."""
    global _code_key
    if _code_key is None:
        h = hashlib.sha256(f"catandsl-tree:{FORMAT}:{sys.version}".encode())
        # the tree's nodes, their spans (diagnostics.py) and the grammar they are read by
        files = [*sorted(_HERE.glob("*.py")), _HERE.parent / "diagnostics.py", resources.grammar_path()]
        h.update(cache.stamp(files).encode())
        h.update(cache.lark_stamp().encode())
        _code_key = h.hexdigest()
    return _code_key


def entry_name(text: str, filename: str) -> str:
    """The cache file holding the tree of `text` read as `filename` by this parser (its code,
    grammar, Python and Lark versions in the key)."""
    h = hashlib.sha256(f"{code_key()}\0{filename}\0".encode())
    h.update(text.encode("utf-8", "surrogatepass"))
    return f"{PREFIX}{h.hexdigest()[:32]}.json"


def encode(value: Any, filename: str) -> Any:
    """A tree as JSON values: a node is [class name, its fields...], a tuple
    ["(", items...], a span ["@", line, column, end line, end column] (its file the
    tree's own) or ["@@", file, ...]."""
    if isinstance(value, Span):
        where = [value.line, value.column, value.end_line, value.end_column]
        return [_SPAN, *where] if value.file == filename else [_SPAN_ELSEWHERE, value.file, *where]
    if isinstance(value, tuple):
        return [_TUPLE, *(encode(v, filename) for v in value)]
    if dataclasses.is_dataclass(value) and type(value).__name__ in _NODES:
        cls, names = _NODES[type(value).__name__]
        if type(value) is not cls:
            raise TypeError(f"not a tree node: {type(value).__name__}")
        return [cls.__name__, *(encode(getattr(value, n), filename) for n in names)]
    if value is None or isinstance(value, (bool, int, str)):
        return value
    raise TypeError(f"cannot keep a {type(value).__name__} in a tree")


def decode(data: Any, filename: str) -> Any:
    """The tree `encode` wrote (raises ValueError, TypeError, KeyError or IndexError on
    anything else)."""
    if isinstance(data, list):
        tag = data[0]
        if tag == _TUPLE:
            return tuple(decode(v, filename) for v in data[1:])
        if tag == _SPAN:
            return Span(filename, *_span(data[1:]))
        if tag == _SPAN_ELSEWHERE:
            if not isinstance(data[1], str):
                raise ValueError("a span's file is not a string")
            return Span(data[1], *_span(data[2:]))
        cls, names = _NODES[tag]
        if len(data) != len(names) + 1:
            raise ValueError(f"{tag} with {len(data) - 1} fields")
        return cls(*(decode(v, filename) for v in data[1:]))
    if data is None or isinstance(data, (bool, int, str)):
        return data
    raise ValueError(f"not a tree value: {type(data).__name__}")


def _span(where: list) -> tuple:
    if len(where) != 4 or not all(isinstance(x, int) or x is None for x in where):
        raise ValueError("a span is four numbers")
    return tuple(where)
