"""Lint results for people and for CI: caret text, JSON, SARIF 2.1.0 (code scanning
shows it inline on a pull request) and GitHub workflow annotations.

Every format lists the files in the order given and each file's findings sorted by
line and column (run.py), so the output is the same on every run."""

from __future__ import annotations

import json
from collections.abc import Sequence

from catandsl.diagnostics import format_text, printable
from catandsl.lint.codes import CODES
from catandsl.lint.run import LintResult

FORMATS = ("text", "json", "sarif", "github")
SARIF_SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"


def summary(results: Sequence[LintResult]) -> str:
    errors = sum(r.errors for r in results)
    warnings = sum(r.warnings for r in results)
    files = len(results)
    return (f"{errors} error{'s' if errors != 1 else ''}, {warnings} warning{'s' if warnings != 1 else ''} "
            f"in {files} file{'s' if files != 1 else ''}")


def to_text(results: Sequence[LintResult]) -> str:
    blocks = [format_text(d, r.sources) for r in results for d in r.diagnostics]
    return "\n\n".join([*blocks, summary(results)]) + "\n"


def to_json(results: Sequence[LintResult]) -> str:
    return json.dumps([{
        "file": str(r.path), "ok": r.scenario is not None and r.errors == 0,
        "errors": r.errors, "warnings": r.warnings,
        "diagnostics": [d.to_json() for d in r.diagnostics],
    } for r in results], indent=2) + "\n"


def _level(severity: str) -> str:
    return {"error": "error", "warning": "warning"}.get(severity, "note")


def to_sarif(results: Sequence[LintResult], version: str) -> str:
    """One run of the tool `catandsl`; its rules are every lint code, then the check
    codes that occur (their text is in docs/diagnostics.md)."""
    used = sorted({d.code for r in results for d in r.diagnostics} - set(CODES))
    rules = [{"id": code, "name": title,
              "shortDescription": {"text": title},
              "help": {"text": f"catandsl explain {code}"},
              "defaultConfiguration": {"level": _level(severity)}}
             for code, (severity, title) in CODES.items()]
    rules += [{"id": code, "shortDescription": {"text": f"catandsl check error {code}"},
               "help": {"text": f"catandsl explain {code}"},
               "defaultConfiguration": {"level": "error"}} for code in used]
    index = {rule["id"]: i for i, rule in enumerate(rules)}
    out = []
    for r in results:
        for d in r.diagnostics:
            result: dict = {"ruleId": d.code, "ruleIndex": index[d.code], "level": _level(d.severity),
                            "message": {"text": d.message + (f" (help: {d.help})" if d.help else "")}}
            physical: dict = {"artifactLocation": {"uri": d.span.file.replace("\\", "/")}}
            if d.span.line >= 1:
                physical["region"] = {"startLine": d.span.line, "startColumn": max(1, d.span.column)}
            result["locations"] = [{"physicalLocation": physical}]
            out.append(result)
    log = {"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [{
        "tool": {"driver": {"name": "catandsl", "version": version,
                            "informationUri": "https://pypi.org/project/catandsl/", "rules": rules}},
        "results": out,
    }]}
    return json.dumps(log, indent=2) + "\n"


def _escape_data(text: str) -> str:
    # the workflow command format: %, CR and LF are escaped in the message
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def to_github(results: Sequence[LintResult]) -> str:
    """`::error file=F,line=L,col=C,title=CODE::message`, one line a finding."""
    lines = []
    for r in results:
        for d in r.diagnostics:
            kind = "error" if d.is_error else "warning"
            props = [f"file={_escape_property(d.span.file)}"]
            if d.span.line >= 1:
                props += [f"line={d.span.line}", f"col={max(1, d.span.column)}"]
            props.append(f"title={_escape_property(d.code)}")
            text = d.message + (f" (help: {d.help})" if d.help else "")
            lines.append(printable(f"::{kind} {','.join(props)}::{_escape_data(text)}"))
    lines.append(summary(results))
    return "\n".join(lines) + "\n"
