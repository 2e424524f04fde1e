"""`catandsl explain CODE`: the section of docs/diagnostics.md or docs/lint.md that a
code's heading (`## E0302: ...`, `## L0201: ...`) starts, up to the next heading of the
same level. The docs ship inside the wheel (resources.docs_dir)."""

from __future__ import annotations

import re

DOCS = ("diagnostics.md", "lint.md")
_HEADING = re.compile(r"^## ([EL]\d{4}): ", re.M)


def sections() -> dict[str, str]:
    """Every documented code and its section's text, in the docs' order."""
    from catandsl import resources

    out: dict[str, str] = {}
    folder = resources.docs_dir()
    for name in DOCS:
        code: str | None = None
        fenced = False  # a `# comment` inside a ```catan block is no heading
        for line in (folder / name).read_text(encoding="utf-8").split("\n"):
            if line.startswith("```"):
                fenced = not fenced
            elif not fenced and line.startswith(("# ", "## ")):
                m = _HEADING.match(line)
                code = m.group(1) if m else None
            if code is not None:
                out[code] = out.get(code, "") + line + "\n"
    return {c: text.rstrip() + "\n" for c, text in out.items()}


def explain(code: str) -> str | None:
    return sections().get(code.strip().upper())
