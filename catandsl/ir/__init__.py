"""The compiled scenario: dataclasses, JSON round-trip, JSON Schema, configuration."""

from catandsl.ir.codec import IRFormatError, from_json, to_json
from catandsl.ir.model import *  # noqa: F401,F403
from catandsl.ir.model import json_schema, scenario_from_json, scenario_to_json
from catandsl.ir.ruleset import ConfigurationError, Ruleset, configure, resolve_options

__all__ = [
    "IRFormatError", "from_json", "json_schema", "scenario_from_json", "scenario_to_json",
    "to_json", "ConfigurationError", "Ruleset", "configure", "resolve_options",
]
