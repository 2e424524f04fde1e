"""The IR: exact JSON round-trip, schema validity, determinism across hash seeds."""

import json
import os
import subprocess
import sys

import jsonschema
import pytest

from catandsl import ir
from catandsl.compiler import compile_path
from tests.conftest import ROOT

FILES = sorted((ROOT / "stdlib").glob("*.catan")) + sorted((ROOT / "scenarios").rglob("*.catan"))


@pytest.fixture(scope="module")
def validator():
    schema = ir.json_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_round_trip_and_schema(path, validator):
    scenario, diags, _ = compile_path(path)  # the IR, not the engine's trial game
    assert scenario is not None, diags
    data = ir.to_json(scenario)
    text = json.dumps(data, sort_keys=True)
    validator.validate(json.loads(text))
    again = ir.from_json(ir.Scenario, json.loads(text))
    assert again == scenario
    assert json.dumps(ir.to_json(again), sort_keys=True) == text


def test_schema_rejects_a_broken_scenario(validator):
    scenario, _, _ = compile_path(ROOT / "scenarios/base.catan")
    data = ir.to_json(scenario)
    data["sections"][0]["decls"][0]["kind"] = "spaceship"
    assert not validator.is_valid(data)
    with pytest.raises(ir.IRFormatError):
        ir.from_json(ir.Scenario, data)


def test_published_schema_is_current():
    published = json.loads((ROOT / "docs/scenario.schema.json").read_text())
    assert published == ir.json_schema(), "run: catandsl schema > docs/scenario.schema.json"


def test_compile_is_the_same_under_any_hash_seed():
    code = ("import json,sys; from catandsl.compiler import compile_path; from catandsl import ir;"
            "s,_,_=compile_path('scenarios/base.catan'); print(json.dumps(ir.to_json(s), sort_keys=True))")
    outs = []
    for seed in ("0", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        outs.append(subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env,
                                   capture_output=True, text=True, check=True).stdout)
    assert outs[0] == outs[1] and len(outs[0]) > 1000
