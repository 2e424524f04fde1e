"""The JSON Schema of a serialized state (`State.serialize()`), derived from the state's
typed fields (`state.FIELDS` and their annotations) and the prompts' dataclass fields, so
a field or prompt added to the engine appears here without being listed again.
`docs/state.schema.json` is the published copy (tests/engine/test_position.py keeps it
current). The schema says the shapes; `Game.deserialize_state` checks the rest (lengths
for this game, ranges, conservation, limits).
"""

from __future__ import annotations

from dataclasses import MISSING, fields
from typing import Any

from catandsl.engine import game as _game  # noqa: F401  (loads every rule module: all prompts registered)
from catandsl.engine import state as state_module
from catandsl.rules.base import PROMPTS

_SCALARS: dict[str, dict[str, Any]] = {
    "int": {"type": "integer"}, "bool": {"type": "boolean"}, "str": {"type": "string"},
    "Any": {}, "Prompt": {"$ref": "#/$defs/prompt"},
    # the records (rules/play.py), each serialized as the list of its fields
    "Traveller": {"type": "array", "items": {"type": "integer"}},
    "YieldLimit": {"type": "array", "items": {"type": "integer"}},
    "Partner": {"type": "array", "items": {"type": "integer"}},
    "HexChange": {"type": "array", "items": {"type": "integer"}},
    "VictoryToken": {"type": "array", "items": {"type": "integer"}},
    "IslandTag": {"type": "array", "items": {}},
    "DeclinedOffer": {"type": "array", "items": {"type": "integer"}},  # [proposer, asked, *give, *get]
    # [] before any move, else [turn, moves made]; [] or [turn, path, ...]
    "MovesMade": {"type": "array", "items": {"type": "integer"}},
    "FreshPaths": {"type": "array", "items": {"type": "integer"}},
}


def type_schema(annotation: str) -> dict[str, Any]:
    """A schema for a field's annotation as written (`list[list[int]]`, `int | None`)."""
    text = annotation.replace(" ", "")
    if text in _SCALARS:
        return dict(_SCALARS[text])
    if "|" in text:
        return {"anyOf": [type_schema(part) for part in text.split("|")]}
    if text == "None":
        return {"type": "null"}
    if text.startswith("list[") and text.endswith("]"):
        return {"type": "array", "items": type_schema(text[5:-1])}
    if text.startswith("dict[str,") and text.endswith("]"):
        return {"type": "object", "additionalProperties": type_schema(text[9:-1])}
    if text in _SCALARS:
        return dict(_SCALARS[text])
    raise ValueError(f"no JSON Schema for the annotation {annotation!r}")


def _prompt_schema(kind: str) -> dict[str, Any]:
    cls = PROMPTS[kind]
    props: dict[str, Any] = {"kind": {"const": kind}}
    required = ["kind"]
    for f in fields(cls):  # type: ignore[arg-type]  # every prompt is a dataclass
        props[f.name] = type_schema(str(f.type))
        if f.default is MISSING and f.default_factory is MISSING:
            required.append(f.name)
    return {"type": "object", "properties": props, "required": required, "additionalProperties": False}


def state_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of `State.serialize()` for this engine's format."""
    annotations = state_module.DECLARED
    props: dict[str, Any] = {"format": {"const": state_module.FORMAT}}
    for f in state_module.FIELDS + ("pending",):
        props[f] = type_schema(str(annotations[f]))
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://catandsl.example/state.schema.json",
        "title": f"catandsl serialized state, format {state_module.FORMAT}",
        "description": "What State.serialize() writes and Game.deserialize_state() reads back "
                       "(which checks lengths, ranges, conservation and limits for the game).",
        "type": "object",
        "properties": props,
        "required": sorted(props),
        "additionalProperties": False,
        "$defs": {"prompt": {"oneOf": [_prompt_schema(k) for k in sorted(PROMPTS)]}},
    }
