"""IR <-> JSON, and the JSON Schema, both derived from the dataclasses' type hints.

`to_json(obj)` gives plain dicts/lists/scalars; `from_json(cls, data)` rebuilds the exact
dataclasses (tuples stay tuples), so `from_json(Scenario, to_json(s)) == s`. A field typed
with a union of dataclasses is tagged with the member's `KIND` under "kind".
`json_schema(root, **head)` walks the same hints into a draft 2020-12 schema. The codec
knows no IR type: it reads whatever dataclasses it is given (the model hands it its own).
"""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from typing import Any, Union, get_args, get_origin


class IRFormatError(ValueError):
    """JSON that does not describe a scenario (wrong shape, unknown kind)."""


@functools.cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _fields(cls: type) -> list[dataclasses.Field]:
    """The fields that make a value's JSON: those given to its constructor (a field set
    by the class itself, such as a scenario's `kept`, is no part of the data)."""
    return [f for f in dataclasses.fields(cls) if f.init]


def _is_union(tp) -> bool:
    return get_origin(tp) in (Union, types.UnionType)


# ---- to JSON --------------------------------------------------------------------------


def to_json(obj: Any) -> Any:
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        out: dict[str, Any] = {}
        kind = getattr(type(obj), "KIND", None)
        if kind is not None:
            out["kind"] = kind
        for f in _fields(type(obj)):
            out[f.name] = to_json(getattr(obj, f.name))
        return out
    if isinstance(obj, (tuple, list)):
        return [to_json(x) for x in obj]
    if isinstance(obj, dict):
        return {k: to_json(v) for k, v in obj.items()}
    return obj


# ---- from JSON ------------------------------------------------------------------------


def from_json(tp: Any, data: Any, path: str = "$") -> Any:
    if tp is Any:
        return data
    if _is_union(tp):
        return _from_union(tp, data, path)
    origin = get_origin(tp)
    if origin is tuple:
        if not isinstance(data, list):
            raise IRFormatError(f"{path}: expected a list")
        args = get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(from_json(args[0], x, f"{path}[{i}]") for i, x in enumerate(data))
        if len(args) != len(data):
            raise IRFormatError(f"{path}: expected {len(args)} items")
        return tuple(from_json(a, x, f"{path}[{i}]") for i, (a, x) in enumerate(zip(args, data)))
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        if not isinstance(data, dict):
            raise IRFormatError(f"{path}: expected an object for {tp.__name__}")
        hints = _hints(tp)
        kwargs = {}
        for f in _fields(tp):
            if f.name in data:
                kwargs[f.name] = from_json(hints[f.name], data[f.name], f"{path}.{f.name}")
            elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                raise IRFormatError(f"{path}: missing field {f.name!r} of {tp.__name__}")
        return tp(**kwargs)
    if tp is type(None):
        if data is not None:
            raise IRFormatError(f"{path}: expected null")
        return None
    if tp is bool:
        if not isinstance(data, bool):
            raise IRFormatError(f"{path}: expected true or false")
        return data
    if tp is int:
        if isinstance(data, bool) or not isinstance(data, int):
            raise IRFormatError(f"{path}: expected an integer")
        return data
    if tp is str:
        if not isinstance(data, str):
            raise IRFormatError(f"{path}: expected a string")
        return data
    raise IRFormatError(f"{path}: unsupported type {tp!r}")


def _from_union(tp, data, path):
    members = get_args(tp)
    classes = [m for m in members if dataclasses.is_dataclass(m)]
    if classes and isinstance(data, dict):
        tagged = [c for c in classes if hasattr(c, "KIND")]
        if tagged:
            kind = data.get("kind")
            for c in tagged:
                if c.KIND == kind:
                    return from_json(c, data, path)
            raise IRFormatError(f"{path}: unknown kind {kind!r}")
        if len(classes) == 1:
            return from_json(classes[0], data, path)
    for m in members:
        if dataclasses.is_dataclass(m):
            continue
        try:
            return from_json(m, data, path)
        except IRFormatError:
            continue
    raise IRFormatError(f"{path}: value does not fit {tp}")


# ---- JSON Schema ----------------------------------------------------------------------


def json_schema(root: type, **head: Any) -> dict:
    """The draft 2020-12 schema of the dataclass `root`, `head` (its `$id`, `title`,
    `description`) written first."""
    defs: dict[str, dict] = {}

    def ref(cls: type) -> dict:
        name = cls.__name__
        if name not in defs:
            defs[name] = {}  # placeholder against recursion
            hints = _hints(cls)
            props: dict[str, Any] = {}
            required: list[str] = []
            kind = getattr(cls, "KIND", None)
            if kind is not None:
                props["kind"] = {"const": kind}
                required.append("kind")
            for f in _fields(cls):
                props[f.name] = schema_of(hints[f.name])
                if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                    required.append(f.name)
            body = {
                "type": "object",
                "properties": props,
                "required": required,
                "additionalProperties": False,
            }
            doc = (cls.__doc__ or "").strip()
            if doc and not doc.startswith(f"{name}("):
                body["description"] = " ".join(doc.split())
            defs[name] = body
        return {"$ref": f"#/$defs/{name}"}

    def schema_of(tp) -> dict:
        if _is_union(tp):
            return {"anyOf": [schema_of(m) for m in get_args(tp)]}
        origin = get_origin(tp)
        if origin is tuple:
            args = get_args(tp)
            if len(args) == 2 and args[1] is Ellipsis:
                return {"type": "array", "items": schema_of(args[0])}
            return {
                "type": "array",
                "prefixItems": [schema_of(a) for a in args],
                "minItems": len(args),
                "maxItems": len(args),
            }
        if isinstance(tp, type) and dataclasses.is_dataclass(tp):
            return ref(tp)
        if tp is type(None):
            return {"type": "null"}
        if tp is bool:
            return {"type": "boolean"}
        if tp is int:
            return {"type": "integer"}
        if tp is str:
            return {"type": "string"}
        raise TypeError(f"no schema for {tp!r}")

    body = ref(root)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        **head,
        **body,
        "$defs": dict(sorted(defs.items())),
    }
