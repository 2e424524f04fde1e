"""The lint codes: L01xx are structure errors (the map cannot be played as meant), L02xx
balance warnings (it can, but it is unfair or dull). Each has a section in docs/lint.md,
which `catandsl explain CODE` prints."""

from __future__ import annotations

from catandsl.diagnostics import ERROR, WARNING

# code -> (severity, short title); the title is the docs section's heading and SARIF's rule name
CODES: dict[str, tuple[str, str]] = {
    "L0101": (ERROR, "an island nobody can reach"),
    "L0102": (ERROR, "too few starting intersections"),
    "L0103": (ERROR, "a number on a hex that produces nothing"),
    "L0104": (ERROR, "a neutral piece without a start"),
    "L0201": (WARNING, "6 and 8 side by side"),
    "L0202": (WARNING, "equal numbers side by side"),
    "L0203": (WARNING, "a clump of one terrain"),
    "L0204": (WARNING, "a scarce resource"),
    "L0205": (WARNING, "a 2:1 harbor for a scarce resource"),
    "L0206": (WARNING, "numbers far from the usual"),
    "L0207": (WARNING, "gold on a 6 or 8"),
    "L0208": (WARNING, "an intersection too strong"),
}
