"""Semantic fuzzing: well-formed but hostile scenarios, and the checks they must pass.

tests/syntax/test_fuzz.py mutates tokens and finds that the *syntax* is sound. This
module writes files that parse (or nearly) and attack the meaning instead: huge,
negative and zero numbers in every numeric slot of the language, deep nesting, every
registered primitive called with every kind of argument in every kind of hook and
condition, rules that trigger themselves or empty hands before a robbery, hundreds of
resources, pieces, cards and options, maps of thousands of hexes, odd files behind
`import` (a FIFO, a directory, a device, a symlink loop, a name of 300 characters, a
file of the maximum size, 70 imports, a cycle), `without` of what is still used, and
terminal escape sequences inside strings.

The promise each case is held to (`run_file`):

- `catandsl.checks.check_path(path)` returns diagnostics (code `E\\d{4}`, a line and a
  column, each renderable by `format_text`) or a scenario; it never raises, never hangs
  and never uses gigabytes; the scenario is None exactly when an error is reported;
- when the scenario compiles, `catandsl.new_game(...)` and uniformly random legal
  actions either end the game or raise only the project's typed errors (`EngineError`,
  `IllegalAction`), and after every action the game's invariants hold: no negative hand,
  bank or token count; bank + hands = `game.bank_start` per resource; the pieces on the
  board (`rules.placement.pieces_on_board`) are `state.placed`, each within its limit;
  a state that is not terminal has a legal action or is a chance node whose
  probabilities add up to 1; and no game runs past `game.max_game_length()`.

Everything is deterministic from `(family, seed)`: `generate(family, seed)` gives the
same `Case` (files, special files, description) in every process. `run_guarded` runs a
case in this process with a watchdog (CPU time, SIGPROF, raising `Hang` where the code stands, so a
hang still names its frame) and an address-space limit (a MemoryError then names where
the memory went). Cases that may block inside the C library (a FIFO, a device) are
marked `isolate` and belong in a subprocess or a disposable worker.

Used by tests/test_semantic_fuzz.py (a few thousand cases) and bench/fuzz_soak.py (many
more, in worker processes). By hand:

    python -m tests.fuzz_semantic --family numbers --seed 17 --write out/fuzz/case
    python -m tests.fuzz_semantic --family numbers --seed 17 --run
"""

from __future__ import annotations

import json
import os
import random
import re
import resource
import stat
import sys
import traceback
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.watchdog import Hang, no_hang  # noqa: E402  (after the path is set)

PACKAGE = str(ROOT / "catandsl") + os.sep
CODE = re.compile(r"E\d{4}")
MAX_FILE_BYTES = 1 << 20  # the language's file limit (catandsl.syntax.parser.MAX_FILE_BYTES)

# ---- cases ------------------------------------------------------------------------------


@dataclass
class Case:
    family: str
    seed: int
    desc: list[str]
    files: dict[str, str]  # relative path -> text (UTF-8); main.catan among them
    # (kind, relative path, argument): "fifo", "dir", "symlink" (argument: the target),
    # "device" (a character device like /dev/zero; a symlink to it without CAP_MKNOD),
    # "bigfile" (argument: the size in bytes, a ruleset padded with a comment)
    specials: list[tuple[str, str, str]] = field(default_factory=list)
    main: str = "main.catan"
    isolate: bool = False  # may block or hog inside C: run it in a disposable process

    @property
    def key(self) -> str:
        return f"{self.family}:{self.seed}"

    def to_json(self) -> dict:
        return asdict(self)

    @classmethod
    def from_json(cls, d: dict) -> Case:
        d = dict(d)
        d["specials"] = [tuple(s) for s in d.get("specials", [])]
        return cls(**d)


@dataclass
class Patch:
    """A piece of a case: lines for the scenario's body, lines for its map, text before
    the scenario, other files, special files, the `uses` line, a whole map."""

    body: list[str] = field(default_factory=list)
    map: list[str] = field(default_factory=list)
    top: list[str] = field(default_factory=list)
    files: dict[str, str] = field(default_factory=dict)
    specials: list[tuple[str, str, str]] = field(default_factory=list)
    head: str | None = None  # "base" or "seafarers"
    map_block: str | None = None  # replaces the default map
    desc: str = ""
    isolate: bool = False
    kits: set[str] = field(default_factory=set)


# The default board: a ring of sea round seven land hexes (ships and the pirate work).
#   land: (1,1) f8, (2,1) h5, (0,2) p4, (1,2) w6, (2,2) m9, (0,3) desert, (1,3) m10
PICTURE = '''    rows """
      ~   ~   ~   ~
        ~   f8  h5  ~
      ~   p4  w6  m9  ~
        ~   d   m10 ~
      ~   ~   ~   ~
    """'''
LEGEND = "    legend { ~ sea; f forest; h hills; p pasture; w fields; m mountains; d desert }"

# a scenario action, and a turn whose main phase allows it
ACTION_ACT = ('action act "Act" {\n    cost ore\n    per_turn 2\n    on take {\n'
              "      take_from_bank(player, grain, 1)\n    }\n  }")
TURN_ACT = "turn {\n    phase roll { roll; play }\n    phase main { trade; build; buy; play; move; act }\n  }"

# Kits: declarations a patch may lean on (a token and a site kind with two sites on the
# board, a named island, a scenario action the turn allows, a param).
KITS = {
    "tokens": ([
        "token spice {\n    supply 20\n    reserve 12\n    points 1 per 2\n  }",
        "site village {\n    on intersection\n    stock spice 4\n    number\n    no building\n    closes routes\n  }",
    ], ["sites village [(1, 2) N 6, (1, 3) S 9]"]),
    "island": ([], ["island main at (1, 2)"]),
    "action": ([
        ACTION_ACT,
        TURN_ACT,
    ], []),
    "param": (["param bonus 3"], []),
    "counter": (["counter tally { per turn }"], []),
    "seats": (["neutral_seats 1"], []),
}


def assemble(family: str, seed: int, patches: list[Patch]) -> Case:
    head = "base"
    for p in patches:
        if p.head == "seafarers":
            head = "seafarers"
    kits: set[str] = set()
    for p in patches:
        kits |= p.kits
    body: list[str] = []
    map_lines: list[str] = []
    for k in sorted(kits):
        b, m = KITS[k]
        body += b
        map_lines += m
    top: list[str] = []
    files: dict[str, str] = {}
    specials: list[tuple[str, str, str]] = []
    map_block = None
    for p in patches:
        body += p.body
        map_lines += p.map
        top += p.top
        files.update(p.files)
        specials += p.specials
        if p.map_block is not None:
            map_block = p.map_block
    if map_block == "":
        map_block = None  # the patch's maps stand in `for` or `when` blocks: no default map
    elif map_block is None:
        extra = ["start robber on desert"]
        if head == "seafarers":
            extra.append("start pirate at (0, 0)")
        inner = [PICTURE, LEGEND] + ["    " + x for x in extra + map_lines]
        map_block = "  map {\n" + "\n".join(inner) + "\n  }"
    elif map_lines:
        # a patch brought its own map: add the other patches' map lines to it
        map_block = map_block.rstrip()
        assert map_block.endswith("}")
        map_block = map_block[:-1].rstrip() + "\n" + "\n".join("    " + x for x in map_lines) + "\n  }"
    text = "".join(t + "\n" for t in top)
    text += 'scenario "Fuzz" {\n' + f"  uses {head}\n"
    text += "".join("  " + b + "\n" for b in body)
    if map_block:
        text += map_block + "\n"
    text += "}\n"
    files = {"main.catan": text, **files}
    return Case(family, seed, [p.desc for p in patches if p.desc], files, specials,
                isolate=any(p.isolate for p in patches))


# ---- numbers ----------------------------------------------------------------------------


def _digits(k: int, lead: str = "9") -> str:
    return lead * k


def num(rng: random.Random) -> str:
    """A number as written in a file: zero, edges, large, or hundreds to thousands of digits."""
    r = rng.random()
    if r < 0.3:
        return str(rng.choice([0, 1, 2, 3, 6, 7, 8, 12, 13]))
    if r < 0.65:
        return str(rng.choice([64, 99, 100, 101, 255, 256, 1000, 1001, 10_000, 10_001, 65_536,
                               100_000, 100_001, 10**6, 10**7 + 1, 2**31 - 1, 2**31, 2**32,
                               2**53 + 1, 2**63 - 1, 2**63, 2**64, 10**18, 10**30]))
    if r < 0.96:
        return rng.choice(["1" + "0" * 100, _digits(300), _digits(1000), _digits(4300)])
    # past Python's default int-to-text limit (4,300 digits)
    return rng.choice(["1" + "0" * 4300, _digits(5000), "1" + "0" * 20_000])


def small(rng: random.Random) -> str:
    return str(rng.choice([0, 1, 2, 3, 5, 7, 12, 100, 1000, 10**6]))


def signed(rng: random.Random) -> str:
    n = num(rng)
    return n if rng.random() < 0.5 else "-" + n


def _road(extra: str) -> str:
    return ("piece road {\n    on path where land(at)\n    cost brick + lumber\n    limit 15\n"
            f"    connects road, settlement, city\n    {extra}\n  }}")


def _settlement(**props: str) -> str:
    p = {"cost": "brick + lumber + wool + grain", "limit": "5", "points": "1", "produces": "1",
         "distance": "2", **props}
    return ("piece settlement {\n    on intersection where land(at)\n"
            f"    cost {p['cost']}\n    limit {p['limit']}\n    points {p['points']}\n"
            f"    produces {p['produces']}\n    distance {p['distance']}\n    connects road\n  }}")


def _city(**props: str) -> str:
    p = {"limit": "4", "points": "2", "produces": "2", **props}
    return ("piece city {\n    on intersection\n    upgrades settlement\n    cost 3 ore + 2 grain\n"
            f"    limit {p['limit']}\n    points {p['points']}\n    produces {p['produces']}\n  }}")


def _deck(cards: str, play: str = "1 per turn, not the turn bought", cost: str = "ore + wool + grain") -> str:
    return f"deck development {{\n    cost {cost}\n    play {play}\n{cards}  }}"


KNIGHT = "    card knight {n} {{\n      on play {{ move_piece(player, [robber]) }}\n    }}\n"
VP = "    card victory_point {n} {{\n      points {p}\n      hidden\n    }}\n"
ROADS = "    card road_building {n} {{\n      on play {{ build_free(player, [road], {k}) }}\n    }}\n"
PLENTY = "    card harvest {n} {{\n      on play {{ take_from_bank(player, choose_resource(player), {k}) }}\n    }}\n"


def _rule(name: str, event: str, stmts: list[str], cond: str = "") -> str:
    inner = "\n".join("      " + s for s in stmts)
    c = f" if {cond}" if cond else ""
    return f"rule {name} {{\n    on {event}{c} {{\n{inner}\n    }}\n  }}"


def numbers_patch(rng: random.Random) -> Patch:
    n, m = num(rng), num(rng)
    s1, s2 = signed(rng), signed(rng)
    slot = rng.choice(NUMBER_SLOTS)
    p = slot(rng, n, m, s1, s2)
    p.desc = f"numbers:{slot.__name__}" + (f" {p.desc}" if p.desc else "")
    return p


def _n_victory(rng, n, m, s1, s2):
    return Patch(body=[f"victory {n}"])


def _n_turn_limit(rng, n, m, s1, s2):
    return Patch(body=[f"turn_limit {n}", f"action_limit {m}" if rng.random() < 0.3 else "victory 3"])


def _n_action_limit(rng, n, m, s1, s2):
    return Patch(body=[f"action_limit {n}"])


def _n_players(rng, n, m, s1, s2):
    return Patch(body=[rng.choice([f"players {n}", f"players 1..{n}", f"players {n}..{m}",
                                   f"players {small(rng)}..{n}"])])


def _n_piece(rng, n, m, s1, s2):
    which = rng.choice(["limit", "points", "produces", "distance"])
    piece = rng.choice(["settlement", "city", "road"])
    if piece == "settlement":
        return Patch(body=[_settlement(**{which: n})], desc=f"settlement {which}")
    if piece == "city":
        which = "distance" if which == "distance" else which
        if which == "distance":
            return Patch(body=[_city(), _settlement(distance=n)], desc="settlement distance")
        return Patch(body=[_city(**{which: n})], desc=f"city {which}")
    return Patch(body=[_road(f"{which} {n}")], desc=f"road {which}")


def _n_cost(rng, n, m, s1, s2):
    if rng.random() < 0.25:  # a count in brackets: evaluated in play, refused below 0 (E0525)
        a, b = rng.choice([n, small(rng)]), rng.choice([m, small(rng)])  # huge numbers: mostly E0110
        count = rng.choice([f"{a} - {b}", f"resource_cards(player) * {a}", f"{s1} + {b}",
                            f"if_else(points(player) > {small(rng)}, {a}, {s2})", f"{a} * {b}",
                            f"pieces_left(player, road) - {b}", f"points(player) + {a}"])
        return Patch(body=[_settlement(cost=f"({count}) brick + lumber")], desc="cost in brackets")
    return Patch(body=[_settlement(cost=f"{n} brick + {m} lumber")] if rng.random() < 0.5
                 else [_road("points 0").replace("cost brick + lumber", f"cost {n} brick")])


def _n_bank(rng, n, m, s1, s2):
    if rng.random() < 0.5:
        return Patch(body=[f"bank {n} each"])
    return Patch(body=["bank {\n" + "".join(f"    {r} {rng.choice([n, m, '0', '19'])}\n" for r in RES) + "  }"])


RES = ["brick", "lumber", "wool", "grain", "ore"]


def _n_cards(rng, n, m, s1, s2):
    cards = KNIGHT.format(n=n) + VP.format(n=m, p=rng.choice(["1", n, m])) + ROADS.format(
        n=small(rng), k=rng.choice(["2", "0", "100"])) + PLENTY.format(n=small(rng), k=rng.choice(["1", "0", n]))
    return Patch(body=[_deck(cards, play=rng.choice(["1 per turn, not the turn bought", f"{n} per turn",
                                                     f"{m} per turn, the turn bought"]),
                             cost=rng.choice(["ore + wool + grain", f"{n} ore", "ore"]))])


def _n_action(rng, n, m, s1, s2):
    return Patch(body=[f'action act "Act" {{\n    cost {rng.choice([n, "1"])} ore\n    per_turn {m}\n'
                       "    on take {\n      take_from_bank(player, grain, 1)\n    }\n  }",
                       TURN_ACT])


def _n_dice(rng, n, m, s1, s2):
    form = rng.choice([f"dice {n}d6", f"dice 2d{n}", f"dice {n}d{m}", f"dice {small(rng)}d{small(rng)}",
                       f"dice 2d6 {{ reroll {n}, {m} }}",
                       "dice 2d6 { reroll " + ", ".join(str(k) for k in range(2, 13) if k != rng.randint(2, 12)) + " }",
                       f"dice 1d2 {{ reroll {rng.choice(['1', '2'])} }}"])
    return Patch(body=[form])


def _n_trade(rng, n, m, s1, s2):
    return Patch(body=[rng.choice([f"trade domestic {{\n    cards {n}\n    offers_per_turn {m}\n  }}",
                                   f"trade domestic {{\n    tokens gold {n}\n  }}", "trade domestic",
                                   f"trade bank {n}:{m}", f"trade bank {n}:1", f"trade bank 1:{n}"])])


def _n_token(rng, n, m, s1, s2):
    supply, reserve = rng.choice([(n, m), (n, None), ("20", "12"), (n, n)])
    props = [f"supply {supply}"] + ([f"reserve {reserve}"] if reserve else []) + [
        rng.choice([f"points {n} per {m}", f"points {n}", "points 1 per 2", f"points 1 per {m}"])]
    stock = rng.choice(["4", n, m, "0"])
    return Patch(body=["token spice {\n" + "".join(f"    {x}\n" for x in props) + "  }",
                       f"site village {{\n    on intersection\n    stock spice {stock}\n    number\n  }}",
                       _rule("spice", "dice_rolled", ["produce_sites(village, roll)"]),
                       _rule("spice_first", "site_reached(village)",
                             [f"take_from_site(player, at, spice, {rng.choice(['1', '1000', small(rng)])})",
                              f"give_tokens(player, spice, {rng.choice(['1', '1000', small(rng)])})"])],
                 map=[f"sites village [(1, 2) N {rng.choice(['6', '2', '12'])}, (1, 3) S 9]"],
                 head=rng.choice(["base", "seafarers"]))


def _n_map_number(rng, n, m, s1, s2):
    k = rng.choice(["hex", "picture", "shuffled", "robber_on", "avoid", "corner"])
    if k == "hex":
        return Patch(map=[f"hex (5, 5) forest {n}"], desc="hex")
    if k == "picture":
        # the last cell of a row: a long number shifts nothing after it
        picture = PICTURE.replace("h5  ~", f"h5  f{n}")
        return Patch(map_block="  map {\n" + picture + "\n" + LEGEND + "\n    start robber on desert\n  }",
                     desc="picture")
    if k == "shuffled":
        return Patch(map=["hex (6, 6) land", "hex (7, 6) land", "legend { ? land }",
                          "pool land shuffled [forest, hills]",
                          rng.choice([f"numbers shuffled [{n}, {m}] onto [land]",
                                      f"numbers shuffled [8 x{n}] onto [land]",
                                      f"numbers shuffled [{n} x2] onto [land] avoid_adjacent [{m}]"])],
                     desc="shuffled")
    if k == "robber_on":
        return Patch(map_block="  map {\n" + PICTURE + "\n" + LEGEND + f"\n    start robber on forest {n}\n  }}",
                     desc="robber_on")
    if k == "avoid":
        return Patch(map=["hex (6, 6) land", "hex (7, 6) land", "pool land shuffled [forest, hills]",
                          f"numbers shuffled [6, 8] onto [land] avoid_adjacent [{n}, {m}, 6, 8]"], desc="avoid")
    hexagon = ('  map {\n    rows at (0, -1) """\n          ?   ?\n        ?   ?   ?\n          ?   ?\n    """\n'
               "    legend { ? land }\n    pool land shuffled [forest x2, pasture, fields, hills, mountains, desert]\n"
               f"    numbers spiral [A {rng.choice([n, '5'])}, B {rng.choice([m, '2'])}, C 6, D 3, E 8, F 10]"
               " skip [desert]"
               f" start corner {rng.choice([n, '0', '5', '6'])}\n    start robber on desert\n  }}")
    return Patch(map_block=hexagon, desc="spiral")


PLACED_SETUP = ("setup {{\n{harbor_rounds}    round forward {{\n      place settlement{opt}\n"
                "      place road touching last\n    }}\n    round backward {{\n      place settlement\n"
                "      place road touching last{opt}\n      collect last\n    }}\n  }}")


def _n_harbor(rng, n, m, s1, s2):
    if rng.random() < 0.3:
        # harbors the players place: tokens in a supply, as many set-up rounds as asked
        rounds = rng.choice([0, 1, 3, 12])
        harbor_rounds = "    round forward { place harbor }\n" * rounds
        spots, tokens = rng.choice([
            ("[(1, 1) NW, (2, 2) E]", "[3:1, ore 2:1]"), ("[(1, 1) NW, (2, 2) E]", "[3:1 x2]"),
            ("[(1, 1) NW, (2, 2) E]", f"[{rng.choice([n, '2', '100', '101'])}:1, ore 2:{rng.choice([m, '1', '3'])}]"),
            ("[(1, 1) NW]", f"[3:1 x{rng.choice([n, '1', '0', small(rng)])}]"), ("[]", "[]"),
            (f"[({s1}, {s2}) NW]", "[wool 2:1]"), ("[(1, 1) NW, (1, 1) NE]", "[3:1, 3:1]")])
        opt = rng.choice(["", " optional"])
        body = [PLACED_SETUP.format(harbor_rounds=harbor_rounds, opt=opt)]
        if rng.random() < 0.3:
            body.append(_rule("ph", rng.choice(["dice_rolled", "turn_started", "built(road)"]),
                              ["place_harbor(player)"]))
        return Patch(map=[f"harbors placed {tokens} at {spots}"], body=body, desc="harbors placed")
    return Patch(map=[rng.choice([f"harbors fixed [{n}:{m} at (1, 1) NW]", f"harbors fixed [brick {n}:1 at (1, 1) NW]",
                                  f"harbors fixed [ore 2:{m} at (1, 1) NW]",
                                  f"harbors shuffled [3:1 x{n}] at [(1, 1) NW]",
                                  f"harbors shuffled [{n}:1 x2] at [(1, 1) NW, (2, 2) E]"])])


def _n_frame(rng, n, m, s1, s2):
    lens = [rng.choice([n, m, "1", "3", "0"]) for _ in range(6)]
    pieces = ["AB", "BC", "CD", "DE", "EF", "FA"]
    lines = "".join(f"      piece {p} {length}\n" for p, length in zip(pieces, lens))
    return Patch(map=["frame {\n" + lines + f"      piece X {n}\n      extend at B\n    }}"])


def _n_pool(rng, n, m, s1, s2):
    return Patch(map=["hex (6, 6) land", f"pool land shuffled [forest x{n}]"])


def _n_option(rng, n, m, s1, s2):
    use = rng.choice(["victory target", "turn_limit target", "action_limit target",
                      _rule("opt", "dice_rolled", ["take_from_bank(player, ore, target)"]),
                      _rule("opt", "turn_started", ["build_free(player, [road], target)"]),
                      _rule("opt", "dice_rolled", ["discard_half(target)"]),
                      _rule("opt", "built(settlement)", ["vp_token(player, at, target)"])])
    return Patch(body=[f"option target {{\n    item a {n} default\n    item b {m}\n"
                       f"    item c {s1.lstrip('-')}\n  }}", use])


def _n_param(rng, n, m, s1, s2):
    value = rng.choice([n, m])
    use = rng.choice([
        ["take_from_bank(player, ore, bonus)"], ["build_free(player, [road], bonus)"],
        ["discard_half(bonus)"], ["give_tokens(player, spice, bonus)"],
        ["let x = bonus * bonus * bonus", "take_from_bank(player, ore, x - x)"],
        ["if roll > bonus {", "  take_from_bank(player, ore, 1)", "}"],
        ["let x = nth([bonus, 1, 2], bonus)", "take_from_bank(player, ore, x)"],
        ["produce(bonus)"],
    ])
    kits = {"tokens"} if any("spice" in u for u in use) else set()
    return Patch(body=[f"param bonus {value}", _rule("p", "dice_rolled", use)], kits=kits)


def _n_coords(rng, n, m, s1, s2):
    k = rng.choice(["hex", "start", "island", "rows", "sites", "harbor"])
    if k == "hex":
        return Patch(map=[f"hex ({s1}, {s2}) forest 8"], desc="hex")
    if k == "start":
        return Patch(map_block="  map {\n" + PICTURE + "\n" + LEGEND + f"\n    start robber at ({s1}, {s2})\n  }}",
                     desc="start")
    if k == "island":
        return Patch(map=[f"island far at ({s1}, {s2})"],
                     body=[_rule("isl", "built(settlement)", ["mark_island(player, \"x\", far)"])], desc="island")
    if k == "rows":
        return Patch(map_block="  map {\n" + PICTURE.replace('rows """', f'rows at ({s1}, {s2}) """') + "\n" + LEGEND
                     + "\n    start robber on desert\n  }", desc="rows")
    if k == "sites":
        return Patch(map=[f"sites village [({s1}, {s2}) N 6]"], kits={"tokens"}, desc="sites")
    return Patch(map=[f"harbors fixed [3:1 at ({s1}, {s2}) NW]"], desc="harbor")


def _n_award(rng, n, m, s1, s2):
    measure = rng.choice(["resource_cards(player)", "points(player)", "played(player, [knight])",
                          "longest_route(player, [road])", "count(players())"])
    return Patch(body=[f"award richest {{\n    points {n}\n    min {m}\n    measure {measure}\n  }}"])


def _n_for(rng, n, m, s1, s2):
    return Patch(body=["players 1..8", rng.choice([f"for {n} players {{\n    victory 5\n  }}",
                                                   f"for 1..{n} players {{\n    victory 5\n  }}",
                                                   f"for {n}..{m} players {{\n    victory 5\n  }}"])])


def _n_filter(rng, n, m, s1, s2):
    return Patch(body=[_rule("f", f"dice_rolled({n}, {m})", [f"produce({n})"])])


def _n_literal(rng, n, m, s1, s2):
    stmt = rng.choice([
        f"take_from_bank(player, ore, {s1})", f"build_free(player, [road], {s1})",
        f"give_tokens(player, spice, {s1})", f"discard_half({s1})", f"produce({s1})",
        f"collect_choice(player, (1, 1), {s1})", f"take_from_bank(player, ore, nth([1, 2], {s1}))",
        f"take_from_bank(player, ore, roll * {n})", f"take_from_bank(player, ore, roll - {n})",
        f"take_from_bank(player, ore, {n} * {m} - {n} * {m})", f"produce_sites(village, {s1})",
        f"take_from_bank(player, ore, count([{n}, {m}]))",
    ])
    cond = rng.choice(["", f"roll > {s1}", f"roll * {n} == {m}", f"roll != -{n}"])
    kits = {"tokens"} if ("spice" in stmt or "village" in stmt) else set()
    return Patch(body=[_rule("lit", "dice_rolled", [stmt], cond)], kits=kits)


def _n_moves(rng, n, m, s1, s2):
    return Patch(body=["piece ship {\n    on path where water(at)\n    cost lumber + wool\n    limit 15\n"
                       f"    connects ship, settlement, city\n    moves {{\n      open_end\n      per_turn {n}\n"
                       "      not_built_this_turn\n    }\n  }"], head="seafarers")


def _n_negative(rng, n, m, s1, s2):
    # a minus sign where the grammar has only NUMBER: a syntax error, reported
    return Patch(body=[rng.choice([f"victory -{n}", f"bank -{n} each", f"turn_limit -{n}"])])


def _n_card_points(rng, n, m, s1, s2):
    return Patch(body=[_deck(KNIGHT.format(n="14") + VP.format(n="5", p=n))])


NUMBER_SLOTS: list[Callable[..., Patch]] = [
    _n_victory, _n_turn_limit, _n_action_limit, _n_players, _n_piece, _n_piece, _n_cost, _n_bank,
    _n_cards, _n_card_points, _n_action, _n_dice, _n_trade, _n_token, _n_map_number, _n_map_number,
    _n_harbor, _n_frame, _n_pool, _n_option, _n_param, _n_coords, _n_award, _n_for, _n_filter,
    _n_literal, _n_literal, _n_moves, _n_negative,
]


# ---- primitives -----------------------------------------------------------------------------


def _registry():
    from catandsl.rules.registry import EVENTS, PRIMITIVES

    return PRIMITIVES, EVENTS


# Runtime type of `at`/`from` under a filter: a road is on a path, a settlement on an
# intersection, the robber on a hex.
FILTERED = {
    "built": ["road", "settlement", "city", None],
    "collected": ["settlement", None],
    "moved": ["robber", None],
    "card_bought": ["knight", None],
    "card_played": ["knight", "monopoly", None],
    "dice_rolled": ["7", "2", None],
    "site_reached": ["village"],
    "action_taken": ["act"],
}
SITE_OF = {"road": "path", "settlement": "intersection", "city": "intersection", "robber": "hex"}


class Gen:
    """Expressions and statements for one hook: `vars` are the names in scope with
    their types (as the compiler sees them), `kits` collects what the text names."""

    def __init__(self, rng: random.Random, vars_: dict[str, str]):
        self.rng = rng
        self.vars = dict(vars_)
        self.kits: set[str] = set()
        self.loops = 0
        self.asks_nobody = False  # a condition, measure or key: a choice there is E0510

    # values of a type, as the compiler would type them
    def value(self, typ: str, mode: str = "right", depth: int = 0) -> str:
        rng = self.rng
        if mode == "wrong":
            other = rng.choice([t for t in ("int", "str", "bool", "resource", "piece", "player", "hex",
                                            "list<int>", "terrain", "card") if t != typ])
            return self.value(other, "right", depth + 1)
        if mode == "undeclared":
            return rng.choice(["unobtainium", "nobody", "ghost_piece", "atlantis", "player2"])
        if mode == "offboard" and typ in ("hex", "site", "intersection", "path", "any"):
            return rng.choice(["(99, -99)", "(-1, -1)", f"({num(rng)}, 0)", f"(0, -{num(rng)})", "(0, 0)"])
        if mode == "range" and typ == "int":
            return rng.choice([f"-{num(rng)}", num(rng), "0 - 1", "roll - 100" if "roll" in self.vars else "0 - 5",
                               "-1", "1001", "101", f"{num(rng)} * {num(rng)}",
                               "points(player) - 1000" if "player" in self.vars else "-7"])
        from catandsl.rules.registry import compatible

        v = self.vars
        names_of = [n for n, t in v.items() if t != "any" and compatible(typ, t)]
        if names_of and rng.random() < 0.6:
            return rng.choice(names_of)
        if depth < 2 and rng.random() < 0.12:
            # any registered expression of this type: new queries, choices and random
            # values are fuzzed as soon as they are registered
            from catandsl.rules.registry import PRIMITIVES

            asks = not self.asks_nobody or rng.random() < 0.05  # else E0510, a diagnostic
            fitting = [p for p in PRIMITIVES.values() if p.kind != "effect" and p.returns not in (None, "any")
                       and compatible(typ, p.returns) and (asks or p.kind == "query")]
            if fitting:
                return self.call(rng.choice(fitting), "right", depth + 1)
        if typ == "player":
            if "player" in v:
                opts = ["player", "player", "player", "owner(at)" if "at" in v else "player"]
                if not self.asks_nobody or rng.random() < 0.05:
                    opts += ["choose_player(player, opponents(player))", "choose_player(player, players())"]
                return rng.choice(opts)
            return self.loop_var("player", "players()")
        if typ == "int":
            opts = ["0", "1", "2", "7", "count(players())", "nth([1, 2, 3], 2)"]
            if "roll" in v:
                opts += ["roll", "roll - 7", "roll * roll"]
            if "player" in v:
                opts += ["resource_cards(player)", "points(player)", "played(player, [knight])",
                         "longest_route(player, [road])", "islands_with(player, \"home\")"]
            if "at" in v and v["at"] in ("hex", "site"):
                opts += ["number(at)"]
            if rng.random() < 0.15:
                self.kits.add("param")
                opts.append("bonus")
            return rng.choice(opts)
        if typ == "bool":
            opts = ["true", "false", "in_setup()"]
            if "at" in v:
                opts += ["land(at)", "water(at)", "coast(at)"]
            return rng.choice(opts)
        if typ == "str":
            return rng.choice(['"home"', '""', '"x"', '"\x1b[31mred\x1b[0m"', '"' + "y" * 300 + '"'])
        if typ == "resource":
            asks = "player" in v and (not self.asks_nobody or rng.random() < 0.05)
            return rng.choice(["ore", "brick", "choose_resource(player)" if asks else "grain"])
        if typ == "terrain":
            return rng.choice(["forest", "sea", "desert", "terrain(at)" if v.get("at") == "hex" else "hills"])
        if typ == "piece":
            return rng.choice(["road", "settlement", "city", "robber"] + (["piece"] if "piece" in v else []))
        if typ == "card":
            return rng.choice(["knight", "monopoly", "victory_point"])
        if typ == "award":
            return rng.choice(["longest_road", "largest_army"])
        if typ == "island":
            self.kits.add("island")
            return rng.choice(["main", "main", "island(at)" if "at" in v else "main"])
        if typ == "seat":
            self.kits.add("seats")
            if rng.random() < 0.5:
                return self.loop_var("seat", "neutral_seats()")
            return self.value("player", mode, depth + 1)
        if typ == "counter":
            self.kits.add("counter")
            return "tally"
        if typ == "token":
            self.kits.add("tokens")
            return "spice"
        if typ == "site_kind":
            self.kits.add("tokens")
            return "village"
        if typ == "action":
            self.kits.add("action")
            return "act"
        if typ in ("hex", "site"):
            return rng.choice(["(1, 2)", "(0, 0)", "(2, 1)"])
        if typ in ("intersection", "path"):
            # no such site in scope: a pair typed `any` (a loop over a mixed list) gets in
            return self.loop_var("any", rng.choice(["[(1, 2), 0]", "[0, (1, 1)]", "[(0, 3), ore]"]))
        if typ.startswith("list<"):
            elem = typ[5:-1]
            if elem == "piece":
                return rng.choice(["[road]", "[]", "[robber]", "[road, settlement, city]", "[settlement, robber]",
                                   "[city]"])
            if elem == "card":
                return rng.choice(["[knight]", "[]", "[knight, monopoly, victory_point]"])
            if elem == "player":
                return rng.choice(["players()", "[]", "opponents(player)" if "player" in v else "players()",
                                   "[player, player]" if "player" in v else "players()"])
            if elem == "seat":
                self.kits.add("seats")
                return rng.choice(["neutral_seats()", "players()", "[]"])
            if elem == "int":
                return rng.choice(["[1, 2, 3]", "[]", "[0]", f"[{num(rng)}]"])
            if elem == "hex":
                return "hexes_around(at)" if "at" in v else "[(1, 1), (2, 2)]"
            return rng.choice(["players()", "[]", "[1, 2]", "hexes_around(at)" if "at" in v else "[ore, brick]",
                               "[road, 1, ore]"])
        if typ == "any":
            return self.value(rng.choice(["int", "player", "resource", "hex"]), "right", depth + 1)
        return "0"

    def loop_var(self, typ: str, over: str) -> str:
        """A name of type `typ`, bound by a loop the statement is wrapped in."""
        self.loops += 1
        name = f"v{self.loops}"
        self._pending_loops.append((name, over))
        self.vars[name] = typ
        return name

    _pending_loops: list[tuple[str, str]]

    def call(self, prim, mode: str, depth: int = 0) -> str:
        args = []
        for p in prim.params:
            m = mode if self.rng.random() < 0.6 else "right"
            if m == "range" and p.type != "int":
                m = "right"
            args.append(self.value(p.type, m, depth))
        return f"{prim.name}({', '.join(args)})"

    def statement(self, prims, mode: str) -> list[str]:
        """One statement calling an effect (wrapped in loops it needs), or a smuggling
        loop that feeds a value typed `any` into a primitive."""
        self._pending_loops = []
        saved = dict(self.vars)
        try:
            return self._statement(prims, mode)
        finally:
            self.vars = saved  # loop variables end with their statement

    def _statement(self, prims, mode: str) -> list[str]:
        rng = self.rng
        effects = [p for p in prims.values() if p.kind == "effect"]
        prim = rng.choice(effects if rng.random() < 0.97 else list(prims.values()))
        if mode == "smuggle" and prim.params:
            # `for x in [RIGHT, WRONG]`: the list's type is list<any>, so `x` passes
            # every type check and reaches the primitive with the wrong kind of value
            k = rng.randrange(len(prim.params))
            p = prim.params[k]
            right = self.value(p.type, "right")
            wrong = self.value(p.type, "wrong")
            items = [right, wrong] if rng.random() < 0.5 else [wrong, right]
            args = [self.value(q.type, "right") if j != k else "x" for j, q in enumerate(prim.params)]
            stmts = [f"for x in [{', '.join(items)}] {{", f"  {prim.name}({', '.join(args)})", "}"]
        else:
            stmts = [self.call(prim, mode)]
        for name, over in reversed(self._pending_loops):
            stmts = [f"for {name} in {over} {{"] + ["  " + s for s in stmts] + ["}"]
        return stmts

    def condition(self, prims, mode: str, board_only: bool = False) -> str:
        saved = dict(self.vars)
        try:
            return self._condition(prims, mode, board_only)
        finally:
            self.vars = saved

    def _condition(self, prims, mode: str, board_only: bool) -> str:
        self._pending_loops = []
        self.asks_nobody = True
        queries = [p for p in prims.values() if p.kind == "query" and p.returns in ("int", "bool")]
        if board_only and self.rng.random() < 0.9:
            queries = [p for p in queries if not p.reads]  # what a placement's `where` may read
        if self.rng.random() < 0.1:
            queries = list(prims.values())  # a choice or an effect where no one may be asked
        parts = []
        for _ in range(self.rng.randint(1, 3)):
            q = self.rng.choice(queries)
            c = self.call(q, mode)
            if q.returns == "int":
                c = f"{c} {self.rng.choice(['>', '>=', '==', '!=', '<'])} {self.value('int', mode)}"
            elif q.returns not in ("bool", None):
                c = f"{c} == {c}"
            parts.append(c if self.rng.random() < 0.8 else f"not {c}")
        if self._pending_loops:
            return "true"  # a condition cannot bind loop variables
        return f" {self.rng.choice(['and', 'or'])} ".join(parts)


MODES = ["right"] * 5 + ["smuggle"] * 2 + ["range"] * 2 + ["wrong", "undeclared", "offboard"]


def _event_vars(event, filt: str | None) -> dict[str, str]:
    out = {p.name: p.type for p in event.params}
    if filt in SITE_OF:
        # the compiler types `at` as site; at run time it is the filtered piece's site
        pass
    return out


def primitives_patch(rng: random.Random) -> Patch:
    prims, events = _registry()
    where = rng.choice(["hook", "hook", "hook", "card", "action", "movable_by", "moves_to", "measure",
                        "tie_break",
                        "victory", "piece_where", "setup_where", "condition"])
    mode = rng.choice(MODES)
    head = "seafarers" if rng.random() < 0.3 else "base"
    if where in ("hook", "condition"):
        ev = rng.choice(sorted(events))
        event = events[ev]
        filt = rng.choice(FILTERED.get(ev, [None])) if event.filter else None
        g = Gen(rng, _event_vars(event, filt))
        stmts = []
        for _ in range(rng.randint(1, 3)):
            stmts += g.statement(prims, mode)
        cond = g.condition(prims, mode) if (where == "condition" or rng.random() < 0.3) else ""
        evtext = f"{ev}({filt})" if filt else ev
        kits = set(g.kits)
        if filt == "village":
            kits.add("tokens")
        if filt == "act":
            kits.add("action")
        body = [_rule("fz", evtext, stmts, cond)] if rng.random() < 0.7 else [
            f"on {evtext}{' if ' + cond if cond else ''} {{\n" + "".join("    " + s + "\n" for s in stmts) + "  }"]
        return Patch(body=body, kits=kits, head=head, desc=f"primitives:{where} on {evtext} mode={mode}")
    if where == "card":
        g = Gen(rng, {"player": "player", "card": "card"})
        stmts = []
        for _ in range(rng.randint(1, 2)):
            stmts += g.statement(prims, mode)
        card = ("    card fuzz 6 {\n      on play {\n" + "".join("        " + s + "\n" for s in stmts)
                + "      }\n    }\n")
        return Patch(body=[_deck(KNIGHT.format(n="5") + card, play="3 per turn, the turn bought", cost="ore")],
                     kits=g.kits, head=head, desc=f"primitives:card mode={mode}")
    if where == "action":
        g = Gen(rng, {"player": "player", "action": "action"})
        stmts = g.statement(prims, mode)
        cond = g.condition(prims, mode) if rng.random() < 0.6 else ""
        c = f" if {cond}" if cond else ""
        act = (f'action act "Act" {{\n    cost ore\n    per_turn {rng.choice(["1", "3", "100"])}\n'
               f"    on take{c} {{\n" + "".join("      " + s + "\n" for s in stmts) + "    }\n  }")
        return Patch(body=[act, TURN_ACT],
                     kits=g.kits - {"action"}, head=head, desc=f"primitives:action mode={mode}")
    if where == "movable_by":
        g = Gen(rng, {"player": "player"})
        cond = g.condition(prims, mode)
        return Patch(body=["piece robber {\n    neutral\n    on hex where land(at)\n    blocks production\n"
                           f"    steals from settlement, city\n    movable_by where {cond}\n  }}"],
                     kits=g.kits, head=head, desc=f"primitives:movable_by mode={mode}")
    if where == "moves_to":  # judged in play, with the destination hex
        g = Gen(rng, {"player": "player", "at": "hex"})
        cond = g.condition(prims, mode)
        return Patch(body=["piece robber {\n    neutral\n    on hex where land(at)\n    blocks production\n"
                           f"    steals from settlement, city\n    moves_to where {cond}\n  }}"],
                     kits=g.kits, head=head, desc=f"primitives:moves_to mode={mode}")
    if where == "measure":
        g = Gen(rng, {"player": "player"})
        g._pending_loops = []
        g.asks_nobody = True
        ints = [p for p in prims.values() if p.kind == "query" and p.returns == "int"]
        q = rng.choice(ints * 4 + [p for p in prims.values() if p.kind != "effect"] + [prims["end_game"]])
        call = g.call(q, mode)
        return Patch(body=[f"award fz {{\n    points 2\n    min {rng.choice(['0', '1', '3'])}\n"
                           f"    measure {call}\n  }}"],
                     kits=g.kits, head=head, desc=f"primitives:measure {q.name} mode={mode}")
    if where == "tie_break":
        g = Gen(rng, {"player": "player"})
        g.asks_nobody = True
        keys = []
        for _ in range(rng.randint(1, 3)):
            g._pending_loops = []
            ints = [p for p in prims.values() if p.kind == "query" and p.returns == "int"]
            q = rng.choice(ints * 4 + [p for p in prims.values() if p.kind == "query"])
            keys.append(g.call(q, mode))
        return Patch(body=["tie_break " + ", ".join(keys), _rule("ender", "dice_rolled", ['end_game("tie")'])],
                     kits=g.kits, head=head, desc=f"primitives:tie_break mode={mode}")
    if where == "victory":
        g = Gen(rng, {"player": "player"})
        cond = g.condition(prims, mode)
        return Patch(body=[f'victory "Fuzz win" where {cond}'], kits=g.kits, head=head,
                     desc=f"primitives:victory mode={mode}")
    if where == "piece_where":
        site = rng.choice(["hex", "intersection", "path"])
        g = Gen(rng, {"at": site})
        cond = g.condition(prims, mode, board_only=True)
        if site == "hex":
            piece = ("piece robber {\n    neutral\n    on hex where " + cond +
                     "\n    blocks production\n    steals from settlement, city\n  }")
        elif site == "intersection":
            piece = _settlement().replace("on intersection where land(at)", f"on intersection where {cond}")
        else:
            piece = _road("points 0").replace("on path where land(at)", f"on path where {cond}")
        return Patch(body=[piece], kits=g.kits, head=head, desc=f"primitives:piece_where {site} mode={mode}")
    # setup_where
    g = Gen(rng, {"at": "intersection", "player": "player"})
    cond = g.condition(prims, mode, board_only=True)
    opt = rng.choice(["", "", " optional"])
    setup = ("setup {\n    round forward {\n      place settlement" + opt + " where " + cond +
             "\n      place road touching last\n    }\n    round backward {\n      place settlement" + opt +
             "\n      place road touching last\n      collect last\n    }\n  }")
    return Patch(body=[setup], kits=g.kits, head=head, desc=f"primitives:setup_where{opt} mode={mode}")


# ---- nesting ---------------------------------------------------------------------------------


def nesting_patch(rng: random.Random) -> Patch:
    kind = rng.choice(["for", "if", "else_chain", "list", "parens", "let_square", "let_chain", "and_or",
                       "not", "neg", "sections", "when", "blocks_in_card", "sum"])
    d = rng.choice([2, 3, 5, 8, 12, 20, 40, 63, 64, 65, 100, 127, 128, 129, 200])
    ev = "dice_rolled"
    stmts: list[str]
    if kind == "for":
        over = rng.choice(["players()", "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]", "hexes_around((1, 2))", "opponents(player)"])
        d = min(d, rng.choice([3, 6, 10, 16, 30, 60]))
        inner = rng.choice(["take_from_bank(player, ore, 0)", "produce(roll)", "discard_half(100)"])
        stmts = [f"for a{k} in {over} {{" for k in range(d)] + [inner] + ["}"] * d
    elif kind == "if":
        stmts = ["if roll > 1 {"] * d + ["take_from_bank(player, ore, 1)"] + ["}"] * d
    elif kind == "else_chain":
        stmts = ["if roll == 0 {", "  produce(roll)"]
        for k in range(1, d):
            stmts += [f"}} else if roll == {k} {{", "  produce(roll)"]
        stmts += ["} else {", "  discard_half(7)", "}"]
    elif kind == "list":
        stmts = [f"take_from_bank(player, ore, count({'[' * d}1{']' * d}))"]
    elif kind == "parens":
        stmts = [f"take_from_bank(player, ore, {'(' * d}roll{')' * d} - roll)"]
    elif kind == "let_square":
        d = min(d, rng.choice([8, 16, 24, 28, 32, 40]))
        stmts = ["let a0 = roll"] + [f"let a{k} = a{k - 1} * a{k - 1}" for k in range(1, d)] + [
            rng.choice([f"take_from_bank(player, ore, a{d - 1} - a{d - 1})", f"if a{d - 1} > 0 {{", "produce(roll)"])]
        if stmts[-1].endswith("{"):
            stmts += ["  produce(roll)", "}"]
    elif kind == "let_chain":
        stmts = ["let a0 = 1"] + [f"let a{k} = a{k - 1} + 1" for k in range(1, d)] + [f"produce(a{d - 1})"]
    elif kind == "and_or":
        ops = [rng.choice(["and", "or"]) for _ in range(d)]
        cond = "roll == 2" + "".join(f" {op} roll == {k % 11 + 2}" for k, op in enumerate(ops))
        stmts = [f"if {cond} {{", "  produce(roll)", "}"]
    elif kind == "not":
        stmts = [f"if {'not ' * d}true {{", "  produce(roll)", "}"]
    elif kind == "neg":
        stmts = [f"take_from_bank(player, ore, {'- ' * d}1 + 1)"]
    elif kind == "sum":
        stmts = [f"take_from_bank(player, ore, {' + '.join(['roll'] * d)} - {d} * roll)"]
    elif kind == "sections":
        d = min(d, 70)
        body = "".join("  " * k + "for 3..4 players {\n" for k in range(d)) + "  victory 5\n" + "".join(
            "}\n" for _ in range(d))
        return Patch(body=[body], desc=f"nesting:sections d={d}")
    elif kind == "when":
        d = min(d, 70)
        body = ("option deep {\n    item a default\n    item b\n  }\n" +
                "".join(f"  when deep is {'ab'[k % 2]} {{\n" for k in range(d)) + "  victory 5\n" + "}\n" * d)
        return Patch(body=[body], desc=f"nesting:when d={d}")
    else:  # blocks_in_card
        d = min(d, 60)
        inner = ["if true {"] * d + ["build_free(player, [road], 2)"] + ["}"] * d
        card = ("    card deep 4 {\n      on play {\n" + "".join("        " + s + "\n" for s in inner)
                + "      }\n    }\n")
        return Patch(body=[_deck(KNIGHT.format(n="5") + card, play="2 per turn, the turn bought", cost="ore")],
                     desc=f"nesting:card d={d}")
    return Patch(body=[_rule("deep", ev, stmts)], desc=f"nesting:{kind} d={d}")


# ---- self-triggering and emptying rules -------------------------------------------------------


SELF = [
    ("built_builds", "built(road)", ["build_free(player, [road], 1)"]),
    ("built_builds_any", "built", ["build_free(player, [road, settlement, city], 2)"]),
    ("built_builds_setup", "built(settlement)", ["build_free(player, [settlement], 1)"]),
    ("moved_moves", "moved(robber)", ["move_piece(player, [robber])"]),
    ("moved_moves_twice", "moved", ["move_piece(player, [robber])", "move_piece(player, [robber])"]),
    ("turn_moves", "turn_started", ["move_piece(player, [robber])"]),
    ("turn_builds", "turn_started", ["build_free(player, [road, settlement], 100)"]),
    ("dice_produce_many", "dice_rolled", ["produce(roll)"] * 20),
    ("dice_produce_all", "dice_rolled", ["for k in [2, 3, 4, 5, 6, 8, 9, 10, 11, 12] {", "  produce(k)", "}"]),
    ("empty_before_robbery", "dice_rolled(7)", ["discard_half(0)", "for p in players() {",
                                                "  monopoly(player, ore)", "}"]),
    ("empty_every_turn", "turn_started", ["discard_half(0)"]),
    ("monopoly_all", "turn_started", ["monopoly(player, ore)", "monopoly(player, brick)"]),
    ("drain_bank", "turn_started", ["for p in players() {", "  take_from_bank(p, ore, 1000000)",
                                    "  take_from_bank(p, choose_resource(p), 1000)", "}"]),
    ("drain_bank_setup", "game_started", ["for p in players() {", "  take_from_bank(p, ore, 19)",
                                          "  take_from_bank(p, brick, 19)", "}"]),
    ("end_at_start", "game_started", ['end_game("start")']),
    ("end_in_setup", "built(settlement)", ['end_game("setup")']),
    ("end_after_setup", "setup_ended", ['end_game("")']),
    ("end_twice", "turn_ended", ['end_game("a")', 'end_game("b")']),
    ("end_then_build", "dice_rolled", ['end_game("x")', "build_free(player, [road], 2)"]),
    ("vp_now", "built(settlement)", ["vp_token(player, at, 100)"]),
    ("choose_in_setup", "built", ["take_from_bank(player, choose_resource(player), 1)",
                                  "let p = choose_player(player, players())", "take_from_bank(p, ore, 1)"]),
    ("choose_nobody", "turn_started", ["let p = choose_player(player, opponents(player))", "monopoly(p, ore)"]),
    ("card_loop", "card_played(knight)", ["move_piece(player, [robber])", "build_free(player, [road], 2)"]),
    ("buy_gives", "card_bought", ["take_from_bank(player, ore, 1)", "take_from_bank(player, wool, 1)",
                                  "take_from_bank(player, grain, 1)"]),
    ("traded_gives", "traded", ["take_from_bank(player, choose_resource(player), 4)"]),
    ("collect_choice_big", "collected", ["collect_choice(player, at, 100)"]),
    ("collect_choice_path", "built(road)", ["collect_choice(player, at, 5)"]),
    ("steal_tokens", "built(settlement)", ["for p in opponents(player) {", "  take_from_site(p, at, spice, 1000)",
                                           "}"]),
    ("give_tokens", "turn_started", ["give_tokens(player, spice, 1000)", "produce_sites(village, 6)"]),
    ("mark_all", "built(settlement)", ['mark_island(player, "home", island(at))', 'mark_island(player, "", main)']),
    ("robber_nowhere", "setup_ended", ["move_piece(player, [robber])"]),
    ("moved_from", "moved", ["vp_token(player, from, 1)"]),
    # owner(at) of an empty site (or of a hex) is -1: a player nobody is
    ("nobody_builds", "moved(robber)", ["build_free(owner(at), [road, settlement], 2)"]),
    ("nobody_builds_road", "built(road)", ["build_free(owner((0, 3)), [road], 1)"]),
    ("nobody_takes", "moved(robber)", ["take_from_bank(owner(at), ore, 3)", "monopoly(owner(at), brick)"]),
    ("nobody_tokens", "moved(robber)", ["give_tokens(owner(at), spice, 3)"]),
    ("nobody_site", "built(settlement)", ["take_from_site(owner((1, 1)), at, spice, 2)"]),
    ("nobody_moves", "moved(robber)", ["move_piece(owner(at), [robber])"]),
    ("nobody_chooses", "moved(robber)", ["take_from_bank(player, choose_resource(owner(at)), 1)"]),
    ("nobody_picks", "dice_rolled", ["let p = choose_player(owner((1, 2)), players())", "take_from_bank(p, ore, 1)"]),
    ("nobody_marks", "built(settlement)", ['mark_island(owner((0, 0)), "home", island(at))',
                                           'mark_island(player, "home", island((0, 0)))']),
    ("nobody_vp", "built(settlement)", ["vp_token(owner((0, 0)), at, 5)"]),
]


def selftrigger_patch(rng: random.Random) -> Patch:
    patches = []
    extras = 0
    for _ in range(rng.randint(1, 3)):
        name, ev, stmts = rng.choice(SELF)
        kits = set()
        text = " ".join(stmts)
        if "spice" in text or "village" in text:
            kits.add("tokens")
        if "main" in text:
            kits.add("island")
        wrap = stmts
        if ev in ("game_started", "setup_ended") and "player" in text and not text.startswith("for"):
            wrap = ["for player in players() {"] + ["  " + s for s in stmts] + ["}"]
        extra = []
        r = rng.random() if not extras else 1.0  # one extra a case: a second would be E0303
        extras += r < 0.5
        if r < 0.2:
            extra.append(_road(f"limit {rng.choice(['1000', '100000', '0'])}"))  # unbounded chains
        elif r < 0.3:
            extra.append(_deck(KNIGHT.format(n=rng.choice(["0", "30"])) + VP.format(n="0", p="1"),
                               play="5 per turn, the turn bought", cost="ore"))
        elif r < 0.4:
            extra.append(f"bank {rng.choice(['0', '1', '2'])} each")
        elif r < 0.5:
            extra.append(rng.choice(["players 1", "players 8", "players 1..8"]))
        patches.append(Patch(body=extra + [_rule(f"loop_{name}", ev, wrap)], kits=kits,
                             head="seafarers" if rng.random() < 0.25 else None, desc=f"selftrigger:{name}"))
    return merge(patches)


def merge(patches: list[Patch]) -> Patch:
    out = Patch()
    descs = []
    names: dict[str, int] = {}
    for p in patches:
        # two patches declaring the same rule name: rename the second
        body = []
        for b in p.body:
            m = re.match(r"rule (\w+) \{", b)
            if m:
                names[m.group(1)] = names.get(m.group(1), 0) + 1
                if names[m.group(1)] > 1:
                    b = b.replace(f"rule {m.group(1)} {{", f"rule {m.group(1)}_{names[m.group(1)]} {{", 1)
            body.append(b)
        out.body += body
        out.map += p.map
        out.top += p.top
        out.files.update(p.files)
        out.specials += p.specials
        out.kits |= p.kits
        out.head = p.head or out.head
        out.map_block = p.map_block or out.map_block
        out.isolate = out.isolate or p.isolate
        if p.desc:
            descs.append(p.desc)
    out.desc = " + ".join(descs)
    return out


# ---- many ------------------------------------------------------------------------------------


def _hex_lines(cells: list[str], width: int = 40, number: str = "8") -> list[str]:
    return [f"hex ({k % width}, {k // width}) {t} {number}" for k, t in enumerate(cells)]


def many_patch(rng: random.Random) -> Patch:
    kind = rng.choice(["resources", "pieces", "cards", "decks", "options", "big_map", "big_map_options",
                       "for_sections", "rules", "awards", "actions", "harbors", "islands"])
    if kind == "resources":
        r = rng.choice([30, 50, 64, 100])
        names = [f"r{k}" for k in range(r)]
        body = ["resources " + ", ".join(names)] + [f"terrain t{k} {{ produces r{k} }}" for k in range(r)]
        if rng.random() < 0.5:
            body.append(_settlement(cost=" + ".join(names[: rng.choice([5, 20, r])])))
        if rng.random() < 0.5:
            body.append("trade domestic")
        mp = "  map {\n" + "\n".join("    " + x for x in _hex_lines([f"t{k}" for k in range(r)], 10)) + \
             "\n    hex (0, 20) desert\n    start robber on desert\n  }"
        return Patch(body=body, map_block=mp, desc=f"many:resources {r}")
    if kind == "pieces":
        k = rng.choice([30, 60, 150])
        body = [f"piece p{i} {{\n    on {rng.choice(['path where land(at)', 'intersection where land(at)', 'hex'])}\n"
                f"    cost brick\n    limit {rng.choice([1, 5, 15])}\n    points {rng.choice([0, 1])}\n  }}"
                for i in range(k)]
        return Patch(body=body, desc=f"many:pieces {k}")
    if kind == "cards":
        k = rng.choice([50, 200, 500])
        cards = "".join(f"    card c{i} {rng.choice([1, 2, 100])} {{\n"
                        "      on play { take_from_bank(player, ore, 1) }\n    }\n" for i in range(k))
        return Patch(body=[_deck(KNIGHT.format(n="14") + cards, play="100 per turn, the turn bought", cost="ore")],
                     desc=f"many:cards {k}")
    if kind == "decks":
        k = rng.choice([20, 60])
        body = [f"deck d{i} {{\n    cost ore\n    play 1 per turn, the turn bought\n    card c{i} 3 {{\n"
                f"      on play {{ take_from_bank(player, grain, 1) }}\n    }}\n  }}" for i in range(k)]
        return Patch(body=body, desc=f"many:decks {k}")
    if kind == "options":
        k = rng.choice([10, 60, 128, 255, 300])
        items = "".join(f"    item i{i} {i + 1}{' default' if i == 0 else ''}\n" for i in range(k))
        uses = ["victory o", _rule("opt", "dice_rolled", ["take_from_bank(player, ore, o)"])]
        whens = []
        if rng.random() < 0.5:
            whens = [f"when o is i{i} {{\n    victory {i % 20 + 1}\n  }}" for i in range(min(k, 100))]
        return Patch(body=[f"option o {{\n{items}  }}"] + uses + whens, desc=f"many:options {k}")
    if kind in ("big_map", "big_map_options"):
        h = rng.choice([1000, 2500, 5000, 9999])
        width = rng.choice([50, 100, 200])
        rows = []
        for r in range((h + width - 1) // width):
            count = min(width, h - r * width)
            rows.append(("      " if r % 2 == 0 else "        ") + "?   " * count)
        tiles = ["forest", "hills", "pasture", "fields", "mountains"]
        pool = ", ".join(f"{t} x{h // 5 + (1 if i < h % 5 else 0)}" for i, t in enumerate(tiles))
        nums = [2, 3, 4, 5, 6, 8, 9, 10, 11, 12]
        counts = [h // 10 + (1 if i < h % 10 else 0) for i in range(10)]
        numbers = ", ".join(f"{n} x{c}" for n, c in zip(nums, counts) if c)
        avoid = " avoid_adjacent [6, 8]" if rng.random() < 0.3 else ""
        mp = ('  map {\n    rows """\n' + "\n".join(rows) + '\n    """\n    legend { ? land }\n'
              f"    pool land shuffled [{pool}]\n    numbers shuffled [{numbers}]{avoid}\n  }}")
        if kind == "big_map":
            return Patch(map_block=mp, desc=f"many:big_map {h} hexes")
        k = rng.choice([2, 4, 8, 2, 4, 8, 40])
        if k == 40:
            h = 5000  # forty different maps of 5,000 hexes, each dealt 2,000 times for avoid_adjacent
            mp = mp if avoid else mp.replace("]\n  }", "] avoid_adjacent [6, 8]\n  }")
        items = "".join(f"    item i{i}{' default' if i == 0 else ''}\n" for i in range(k))
        whens = [f"when size is i{i} {{\n" + mp.replace("  map {", "  map {\n    hex (-5, -5) sea", 1) .replace(
            "hex (-5, -5) sea", f"hex (-5, -{i + 5}) sea") + "\n  }" for i in range(k)]
        return Patch(body=[f"option size {{\n{items}  }}"] + whens + ["players 1..8"], map_block="",
                     desc=f"many:big_map_options {h} hexes x{k}")
    if kind == "for_sections":
        k = rng.choice([8, 30, 100])
        body = ["players 1..8"]
        for _ in range(k):
            lo = rng.randint(1, 8)
            hi = rng.randint(lo, 8)
            body.append(f"for {lo}..{hi} players {{\n    victory {rng.randint(1, 20)}\n"
                        f"    bank {rng.randint(0, 40)} each\n  }}")
        if rng.random() < 0.5:
            body += [f"for {i} players {{\n  map {{ hex (0, 0) forest 8\n"
                     f" hex (1, 0) hills {i + 2 if i != 5 else 9} }}\n  }}" for i in range(1, 9)]
            return Patch(body=body, map_block="", desc=f"many:for_sections {k} + maps")
        return Patch(body=body, desc=f"many:for_sections {k}")
    if kind == "rules":
        k = rng.choice([50, 200, 1000])
        body = ["on dice_rolled {\n    produce(roll)\n  }" for _ in range(k)]
        return Patch(body=body, desc=f"many:rules {k}")
    if kind == "awards":
        k = rng.choice([20, 100])
        body = [f"award a{i} {{\n    points 1\n    min {i % 5}\n    measure resource_cards(player)\n  }}"
                for i in range(k)]
        return Patch(body=body, desc=f"many:awards {k}")
    if kind == "actions":
        k = rng.choice([20, 100])
        body = [f'action a{i} "A{i}" {{\n    per_turn 100\n    on take {{\n'
                "      take_from_bank(player, ore, 1)\n    }\n  }" for i in range(k)]
        body.append(TURN_ACT.replace("move; act }", "move; actions }"))
        return Patch(body=body, desc=f"many:actions {k}")
    if kind == "harbors":
        return Patch(map=["harbors fixed [3:1 at (1, 1) NW, 3:1 at (1, 1) NE, brick 2:1 at (2, 2) E, "
                          "ore 2:1 at (0, 3) SW]"],
                     desc="many:harbors")
    k = rng.choice([10, 100])
    return Patch(map=[f"island i{i} at (1, 2)" for i in range(k)],
                 body=[_rule("isl", "built(settlement)", [f'mark_island(player, "t", i{i % k})' for i in range(5)])],
                 desc=f"many:islands {k}")


# ---- imports ----------------------------------------------------------------------------------


ODD_IMPORTS = ["fifo", "directory", "device", "dev_zero_symlink", "symlink_loop", "long_name",
               "long_name_exists", "max_size", "over_max", "many", "cycle", "self", "scenario_inside",
               "empty", "dot", "slash", "escape_name", "deep_chain", "symlink_dir", "broken_symlink",
               "diamond", "main_fifo", "main_device", "main_symlink_loop", "main_dev_zero"]


def imports_patch(rng: random.Random, kind: str | None = None) -> Patch:
    kind = kind or rng.choice(ODD_IMPORTS)
    rs = "ruleset part {\n  victory 5\n}\n"
    if kind == "fifo":
        return Patch(body=['import "pipe.catan"'], specials=[("fifo", "pipe.catan", "")], isolate=True,
                     desc="imports:fifo")
    if kind == "directory":
        return Patch(body=['import "folder.catan"'], specials=[("dir", "folder.catan", "")], desc="imports:directory")
    if kind == "device":
        return Patch(body=['import "zero.catan"'], specials=[("device", "zero.catan", "")], isolate=True,
                     desc="imports:device")
    if kind == "dev_zero_symlink":
        return Patch(body=['import "zero.catan"'], specials=[("symlink", "zero.catan", "/dev/zero")], isolate=True,
                     desc="imports:symlink to /dev/zero")
    if kind == "symlink_loop":
        return Patch(body=['import "a.catan"'],
                     specials=[("symlink", "a.catan", "b.catan"), ("symlink", "b.catan", "a.catan")],
                     desc="imports:symlink loop")
    if kind == "long_name":
        n = rng.choice([256, 300, 1000, 5000])
        return Patch(body=[f'import "{"n" * n}.catan"'], desc=f"imports:name of {n} chars")
    if kind == "long_name_exists":
        name = "l" * 249 + ".catan"  # 255 bytes: the longest a name may be
        return Patch(body=[f'import "{name}"', f'import "{"d" * 200}/{"e" * 200}/x.catan"'], files={name: rs},
                     desc="imports:name of 255 chars")
    if kind == "max_size":
        return Patch(body=['import "big.catan"'], specials=[("bigfile", "big.catan", str(MAX_FILE_BYTES))],
                     desc="imports:file of exactly the limit")
    if kind == "over_max":
        return Patch(body=['import "big.catan"'], specials=[("bigfile", "big.catan", str(MAX_FILE_BYTES + 1))],
                     desc="imports:file one byte over")
    if kind == "many":
        k = rng.choice([60, 63, 64, 65, 70])
        files = {f"p{i:02d}.catan": f"ruleset p{i:02d} {{\n  param x{i} {i}\n}}\n" for i in range(k)}
        return Patch(body=[f'import "p{i:02d}.catan"' for i in range(k)], files=files, desc=f"imports:{k} files")
    if kind == "cycle":
        return Patch(body=['import "a.catan"'], files={"a.catan": 'import "b.catan"\nruleset a {\n}\n',
                                                      "b.catan": 'import "a.catan"\nruleset b {\n}\n'},
                     desc="imports:cycle")
    if kind == "self":
        return Patch(body=['import "main.catan"', 'import "./main.catan"'], desc="imports:itself")
    if kind == "scenario_inside":
        return Patch(body=['import "other.catan"'], files={"other.catan": 'scenario "Other" {\n  uses base\n}\n'},
                     desc="imports:a scenario")
    if kind == "empty":
        return Patch(body=['import "empty.catan"'], files={"empty.catan": ""}, desc="imports:empty file")
    if kind == "dot":
        return Patch(body=[rng.choice(['import "."', 'import ""', 'import ".."', 'import "./"'])], desc="imports:dot")
    if kind == "slash":
        return Patch(body=[rng.choice(['import "/"', 'import "//"', 'import "/dev/zero"', 'import "/proc/self/mem"'])],
                     desc="imports:absolute")
    if kind == "escape_name":
        name = "\x1b[31mred\x1b[0m.catan"
        return Patch(body=[f'import "{name}"', 'import "\x1b]0;pwned\x07.catan"'], files={name: rs},
                     desc="imports:escapes in the name")
    if kind == "deep_chain":
        k = rng.choice([15, 16, 17])
        files = {f"c{i:02d}.catan": (f'import "c{i + 1:02d}.catan"\n' if i < k else "") + f"ruleset c{i:02d} {{\n}}\n"
                 for i in range(1, k + 1)}
        return Patch(body=['import "c01.catan"'], files=files, desc=f"imports:chain of {k}")
    if kind == "symlink_dir":
        return Patch(body=['import "sub/x.catan"'], files={"real/x.catan": rs},
                     specials=[("symlink", "sub", "real"), ("symlink", "real/loop", "..")],
                     desc="imports:symlinked folder")
    if kind == "broken_symlink":
        return Patch(body=['import "gone.catan"'], specials=[("symlink", "gone.catan", "nowhere.catan")],
                     desc="imports:broken symlink")
    if kind == "diamond":
        files = {"a.catan": 'import "c.catan"\nruleset a {\n}\n', "b.catan": 'import "c.catan"\nruleset b {\n}\n',
                 "c.catan": "ruleset c {\n  uses base\n  victory 4\n}\n"}
        return Patch(body=['import "a.catan"', 'import "b.catan"'], files=files, desc="imports:diamond")
    # the file given to check_path is itself odd
    if kind == "main_fifo":
        return Patch(specials=[("fifo", "odd.catan", "")], isolate=True, desc="main:fifo", body=["#main odd.catan"])
    if kind == "main_device":
        return Patch(specials=[("device", "odd.catan", "")], isolate=True, desc="main:device", body=["#main odd.catan"])
    if kind == "main_dev_zero":
        return Patch(specials=[("symlink", "odd.catan", "/dev/zero")], isolate=True, desc="main:symlink to /dev/zero",
                     body=["#main odd.catan"])
    return Patch(specials=[("symlink", "odd.catan", "odd2.catan"), ("symlink", "odd2.catan", "odd.catan")],
                 desc="main:symlink loop", body=["#main odd.catan"])


# ---- without ----------------------------------------------------------------------------------


WITHOUT = [
    "without resource brick", "without resource ore", "without terrain forest", "without terrain desert",
    "without terrain sea", "without piece road", "without piece settlement", "without piece city",
    "without robber", "without deck development", "without rule production", "without rule seven",
    "without trade bank", "without trade domestic", "without award longest_road", "without award largest_army",
    "without param bonus", "without token spice", "without site village", "without action act",
    "without setting victory", "without dice dice", "without turn turn", "without setup setup", "without map map",
]


def without_patch(rng: random.Random) -> Patch:
    picks = rng.sample(WITHOUT, rng.randint(1, 3))
    kits: set[str] = set()
    for w in picks:
        if "bonus" in w:
            kits.add("param")
        if "spice" in w or "village" in w:
            kits.add("tokens")
        if "act" in w.split():
            kits.add("action")
    body = []
    r = rng.random()
    if r < 0.5:
        body += picks
    elif r < 0.75:
        body.append("for 3 players {\n" + "".join(f"    {w}\n" for w in picks) + "  }")
    else:
        body.append("option v {\n    item a default\n    item b\n  }")
        body.append("when v is b {\n" + "".join(f"    {w}\n" for w in picks) + "  }")
    if "param" in kits:
        body.append(_rule("uses_bonus", "dice_rolled", ["take_from_bank(player, ore, bonus)"]))
    return Patch(body=body, kits=kits, head="seafarers" if rng.random() < 0.25 else None,
                 desc="without:" + ", ".join(p.split(" ", 1)[1] for p in picks))


# ---- strings -----------------------------------------------------------------------------------


NASTY = ["\x1b[31m", "\x1b[2J\x1b[H", "\x1b]0;owned\x07", "\r", "\x08\x08\x08", "\x7f", "\u202e", "\u200b",
         "\x0b", "\x0c", "\x9b31m", "\u0301" * 50, "\U0001f3b2", "\u2028", "\x1b", "\x07", "%s%n", "{}", "\\"]


def nasty(rng: random.Random) -> str:
    return "".join(rng.choice(NASTY) for _ in range(rng.randint(1, 4))) + rng.choice(["", "x", "title"])


def strings_patch(rng: random.Random) -> Patch:
    s = nasty(rng)
    kind = rng.choice(["title", "option", "action", "award", "end_game", "mark", "special", "victory", "frame",
                       "card_title_rule", "long"])
    if kind == "title":
        return Patch(body=[f'title "{s}"'], desc="strings:title")
    if kind == "option":
        return Patch(body=[f'option o "{s}" {{\n    item a "{s}" default\n    item b "{s}"\n  }}'],
                     desc="strings:option")
    if kind == "action":
        return Patch(body=[ACTION_ACT.replace('"Act"', f'"{s}"').replace("    per_turn 2\n", ""), TURN_ACT],
                     desc="strings:action")
    if kind == "award":
        return Patch(body=[f'award a {{\n    title "{s}"\n    points 1\n    min 1\n'
                           "    measure resource_cards(player)\n  }"],
                     desc="strings:award")
    if kind == "end_game":
        return Patch(body=[_rule("e", "dice_rolled", [f'end_game("{s}")'])], desc="strings:end_game")
    if kind == "mark":
        return Patch(body=[_rule("m", "built(settlement)", [f'mark_island(player, "{s}", island(at))'],
                                 f'not island_marked(player, "{s}", island(at)) and islands_with(player, "{s}") >= 0')],
                     desc="strings:mark_island")
    if kind == "special":
        return Patch(body=[f'special_victory "{s}" {{\n    on built(settlement) {{ vp_token(player, at, 1) }}\n  }}'],
                     desc="strings:special_victory")
    if kind == "victory":
        return Patch(body=[f'victory "{s}" where points(player) >= 3'], desc="strings:victory")
    if kind == "frame":
        return Patch(map=[f'frame {{\n      piece AB 3 "{s}"\n      piece BC 3\n    }}'], desc="strings:frame")
    if kind == "card_title_rule":
        return Patch(top=[f"# {s}"], body=[f"# {s}", _rule("c", "dice_rolled", [f'end_game("{s}")'], 'roll == 12')],
                     desc="strings:comment and reason")
    return Patch(body=[_rule("l", "dice_rolled", [f'end_game("{"z" * 60000}")'], "roll == 2")],
                 desc="strings:long reason")


# ---- shipped scenarios with injections --------------------------------------------------------


SHIPPED = ["scenarios/base.catan", "scenarios/seafarers/heading_for_new_shores.catan",
           "scenarios/seafarers/four_islands.catan", "scenarios/seafarers/cloth_for_catan.catan"]


def shipped_case(rng: random.Random, seed: int) -> Case:
    path = rng.choice(SHIPPED)
    text = (ROOT / path).read_text(encoding="utf-8")
    patches = [rng.choice([numbers_patch, primitives_patch, selftrigger_patch, without_patch, strings_patch,
                           nesting_patch])(rng) for _ in range(rng.randint(1, 2))]
    p = merge(patches)
    kits: set[str] = set(p.kits)
    body: list[str] = []
    for k in sorted(kits):
        if k in ("tokens", "island"):
            continue  # their map lines have no place in a shipped map; names stay unknown
        body += KITS[k][0]
    body += p.body
    end = text.rstrip().rfind("}")
    text = text[:end] + "".join("  " + b + "\n" for b in body) + "}\n"
    return Case("shipped", seed, [path] + ([p.desc] if p.desc else []), {"main.catan": text}, [])


# ---- families ----------------------------------------------------------------------------------


def _single(fn):
    def make(rng: random.Random, seed: int, family: str) -> Case:
        return assemble(family, seed, [fn(rng)])
    return make


def _mixed(rng: random.Random, seed: int, family: str) -> Case:
    makers = [numbers_patch, primitives_patch, selftrigger_patch, without_patch, strings_patch, nesting_patch,
              many_patch]
    weights = [4, 4, 3, 2, 1, 1, 1]
    patches = [rng.choices(makers, weights)[0](rng) for _ in range(rng.randint(2, 3))]
    return assemble(family, seed, [merge(patches)])


def _imports(rng: random.Random, seed: int, family: str) -> Case:
    # odd files that may block (FIFO, devices) are for isolated runs; the rest here
    kind = rng.choice([k for k in ODD_IMPORTS if k not in ISOLATED_IMPORTS])
    patches = [imports_patch(rng, kind)]
    if rng.random() < 0.3:
        patches.append(rng.choice([numbers_patch, primitives_patch])(rng))
    return assemble(family, seed, [merge(patches)])


def _odd_files(rng: random.Random, seed: int, family: str) -> Case:
    kind = ISOLATED_IMPORTS[seed % len(ISOLATED_IMPORTS)]
    return assemble(family, seed, [imports_patch(rng, kind)])


ISOLATED_IMPORTS = ["fifo", "device", "dev_zero_symlink", "main_fifo", "main_device", "main_dev_zero"]

FAMILIES: dict[str, Callable[[random.Random, int, str], Case]] = {
    "numbers": _single(numbers_patch),
    "primitives": _single(primitives_patch),
    "nesting": _single(nesting_patch),
    "selftrigger": _single(selftrigger_patch),
    "many": _single(many_patch),
    "imports": _imports,
    "without": _single(without_patch),
    "strings": _single(strings_patch),
    "mixed": _mixed,
    "shipped": lambda rng, seed, family: shipped_case(rng, seed),
    "odd_files": _odd_files,  # isolate: run in a disposable process
}
# how often the soak draws each family (odd_files are few: each may block for its timeout)
WEIGHTS = {"numbers": 6, "primitives": 8, "nesting": 2, "selftrigger": 4, "many": 2, "imports": 1,
           "without": 2, "strings": 1, "mixed": 6, "shipped": 2, "odd_files": 0.05}


def generate(family: str, seed: int) -> Case:
    rng = random.Random(f"catandsl-fuzz:{family}:{seed}")
    case = FAMILIES[family](rng, seed, family)
    main = case.files.get("main.catan", "")
    m = re.search(r"#main (\S+)", main)
    if m:  # the file to check is one of the special files
        case.main = m.group(1)
    return case


def pick_family(seed: int, master: int = 0) -> str:
    rng = random.Random(f"catandsl-fuzz-family:{master}:{seed}")
    names = list(WEIGHTS)
    return rng.choices(names, [WEIGHTS[n] for n in names])[0]


# ---- materializing ---------------------------------------------------------------------------


def materialize(case: Case, folder: Path) -> Path:
    """Write the case's files under `folder` (a fresh directory); return the file to check."""
    folder.mkdir(parents=True, exist_ok=True)
    for rel, text in case.files.items():
        p = folder / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(text.encode("utf-8", "surrogateescape"))
    for kind, rel, arg in case.specials:
        p = folder / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        if kind == "fifo":
            os.mkfifo(p)
        elif kind == "dir":
            p.mkdir()
        elif kind == "symlink":
            os.symlink(arg, p)
        elif kind == "device":
            try:
                os.mknod(p, stat.S_IFCHR | 0o644, os.makedev(1, 5))  # like /dev/zero
            except (PermissionError, OSError):
                os.symlink("/dev/zero", p)
        elif kind == "bigfile":
            size = int(arg)
            head = b"ruleset big {\n  victory 5\n}\n# "
            p.write_bytes(head + b"x" * (size - len(head) - 1) + b"\n")
        else:
            raise ValueError(kind)
    return folder / case.main


# ---- running ---------------------------------------------------------------------------------


@dataclass
class Outcome:
    kind: str  # "clean", "diagnostics", "typed" or "failure"
    codes: list[str] = field(default_factory=list)
    typed: str = ""  # "EngineError: message" for a typed engine error in play
    failure: str = ""  # the failure class: "Type@catandsl/file.py:function", "hang@...", "invariant:..."
    stage: str = ""  # check, format, new_game, play
    detail: str = ""
    trace: str = ""
    actions: int = 0
    reasons: list[str] = field(default_factory=list)  # how the played games ended

    def to_json(self) -> dict:
        return asdict(self)


def innermost(tb, named: bool = False) -> str:
    """The innermost frame of a traceback inside catandsl/: `catandsl/x.py:function`.
    `named`: skip comprehensions and lambdas (where a watchdog happens to interrupt a
    loop varies; the function that holds it does not)."""
    frames = traceback.extract_tb(tb)
    for f in reversed(frames):
        if f.filename.startswith(PACKAGE) and not (named and f.name.startswith("<")):
            return f"catandsl/{f.filename[len(PACKAGE):]}:{f.name}"
    return "outside catandsl"


def _trace(e: BaseException) -> str:
    try:
        return "".join(traceback.format_exception(type(e), e, e.__traceback__, limit=-12))[-6000:]
    except BaseException:  # noqa: BLE001 - formatting a huge value may itself fail
        return f"{type(e).__name__} (traceback not formattable)"


def _msg(e: BaseException) -> str:
    try:
        return str(e)[:500]
    except BaseException:  # noqa: BLE001
        return f"<{type(e).__name__}; str() failed>"


class InvariantBroken(Exception):
    def __init__(self, name: str, detail: str):
        self.name, self.detail = name, detail
        super().__init__(f"{name}: {detail}")


def check_invariants(s) -> None:
    from catandsl.rules.placement import pieces_on_board

    g = s.game
    R = len(g.resources)
    for r in range(R):
        held = sum(h[r] for h in s.hands)
        if s.bank[r] < 0 or any(h[r] < 0 for h in s.hands):
            raise InvariantBroken("negative_hand_or_bank", f"resource {g.resources[r]}: bank {s.bank[r]}, "
                                  f"hands {[h[r] for h in s.hands]}")
        if s.bank[r] + held != g.bank_start[r]:
            raise InvariantBroken("resources_not_conserved", f"resource {g.resources[r]}: bank {s.bank[r]} + "
                                  f"hands {held} != {g.bank_start[r]}")
    for name in ("token_supply",):
        if any(v < 0 for v in getattr(s, name)):
            raise InvariantBroken("negative_tokens", f"{name} {getattr(s, name)}")
    if any(v < 0 for row in s.tokens_held for v in row) or any(v < 0 for row in s.token_stock for v in row):
        raise InvariantBroken("negative_tokens", f"held {s.tokens_held} stock {s.token_stock}")
    on_board = pieces_on_board(s)
    if on_board != s.placed:
        raise InvariantBroken("placed_not_on_board", f"board {on_board} placed {s.placed}")
    for p in range(g.num_players):
        for P in g.pieces:
            if not 0 <= s.placed[p][P.index] <= P.limit:
                raise InvariantBroken("pieces_over_limit", f"player {p} {P.name}: {s.placed[p][P.index]} of {P.limit}")
    if not s.is_terminal():
        if not s.is_chance_node() and not 0 <= s.current_player() < g.num_players:
            raise InvariantBroken("actor_not_a_seat", f"current_player() is {s.current_player()}: {s}")
        if s.is_chance_node():
            outs = s.chance_outcomes()
            if not outs or abs(sum(pr for _, pr in outs) - 1) > 1e-6:
                raise InvariantBroken("bad_chance_node", f"outcomes {outs[:5]}")
        elif not s.legal_actions():
            raise InvariantBroken("no_legal_action", f"player {s.current_player()} has nothing to do: {s}")


def play(game, rng: random.Random, budget: int) -> tuple[int, str]:
    """Uniformly random legal actions up to `budget`, invariants after each; -> (actions, end)."""
    s = game.new_initial_state()
    check_invariants(s)
    bound = game.max_game_length()
    n = 0
    while not s.is_terminal() and n < budget:
        a = s.sample_chance() if s.is_chance_node() else rng.choice(s.legal_actions())
        s.apply_action(a)
        n += 1
        check_invariants(s)
        if s.actions_applied > bound and not s.is_terminal():
            raise InvariantBroken("runs_past_max_game_length", f"{s.actions_applied} actions, bound {bound}")
    return n, (s.reason or "over") if s.is_terminal() else "budget"


def run_file(path: Path, seed: int = 0, budget: int = 400, games: int = 2) -> Outcome:
    """The promise, for one file: see the module docstring. Never raises (but Hang and
    MemoryError from the guards are turned into failures too)."""
    import catandsl
    from catandsl.checks import check_path
    from catandsl.diagnostics import format_text
    from catandsl.engine import EngineError, IllegalAction

    stage = "check"
    out = Outcome("clean")
    try:
        scenario, diags, sources = check_path(path)
        stage = "format"
        for d in diags:
            if not CODE.fullmatch(d.code) or d.span.line < 1 or d.span.column < 1:
                return Outcome("failure", failure="invariant:bad_diagnostic", stage=stage,
                               detail=f"{d.code} at {d.span.line}:{d.span.column}: {d.message[:300]}")
            format_text(d, sources)
        if (scenario is None) != any(d.is_error for d in diags):
            return Outcome("failure", failure="invariant:scenario_vs_errors", stage=stage,
                           detail=f"scenario {'None' if scenario is None else 'given'} with {[d.code for d in diags]}")
        out.codes = sorted({d.code for d in diags})
        if scenario is None:
            out.kind = "diagnostics"
            return out
        from catandsl.ir import model

        if not any(isinstance(d, model.Map) for sec in scenario.sections for d in sec.decls):
            return out  # a library
        rng = random.Random(f"play:{seed}")
        counts = sorted({scenario.players_min, scenario.players_max})[:games]
        for k, players in enumerate(counts):
            options = {o.name: o.default for o in scenario.options}
            if k > 0:
                options = {o.name: rng.choice(o.items).name for o in scenario.options}
            stage = "new_game"
            try:
                game = catandsl.new_game(scenario, players, options, seed + k)
                stage = "play"
                n, end = play(game, rng, budget)
                out.actions += n
                out.reasons.append(end)
            except (EngineError, IllegalAction) as e:
                out.kind = "typed"
                out.typed = f"{type(e).__name__}@{stage}: {_msg(e)[:200]}"
                out.stage = stage
                return out
        return out
    except InvariantBroken as e:
        return Outcome("failure", failure=f"invariant:{e.name}", stage=stage, detail=e.detail[:1000],
                       trace=_trace(e))
    except Hang as e:
        return Outcome("failure", failure=f"hang@{innermost(e.__traceback__, named=True)}", stage=stage,
                       trace=_trace(e))
    except MemoryError as e:
        return Outcome("failure", failure=f"memory@{innermost(e.__traceback__, named=True)}", stage=stage,
                       trace=_trace(e))
    except BaseException as e:  # noqa: BLE001 - every other exception breaks the promise
        if isinstance(e, KeyboardInterrupt):
            raise
        return Outcome("failure", failure=f"{type(e).__name__}@{innermost(e.__traceback__)}", stage=stage,
                       detail=_msg(e), trace=_trace(e))


def run_guarded(path: Path, seed: int, *, seconds: float, memory: int | None, budget: int = 400,
                absolute_memory: bool = False) -> Outcome:
    """`run_file` under a watchdog of `seconds` and, when `memory` is given, an
    address-space limit: `memory` bytes above what the process uses now (or, with
    `absolute_memory`, `memory` bytes in all, as a worker sets it)."""
    old_limit = resource.getrlimit(resource.RLIMIT_AS)
    try:
        if memory is not None:
            limit = memory if absolute_memory else _address_space() + memory
            hard = old_limit[1]
            if hard != resource.RLIM_INFINITY:
                limit = min(limit, hard)
            resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
        with no_hang(seconds, "the case"):
            return run_file(path, seed, budget)
    except Hang as e:  # fired between run_file's return and the timer's reset
        return Outcome("failure", failure=f"hang@{innermost(e.__traceback__, named=True)}", trace=_trace(e))
    finally:
        if memory is not None:
            resource.setrlimit(resource.RLIMIT_AS, old_limit)


def _address_space() -> int:
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except OSError:
        return 0


def run_case(case: Case, folder: Path, *, seconds: float = 60, memory: int | None = 2 << 30,
             budget: int = 400) -> Outcome:
    """Materialize and run one case in this process, guarded."""
    path = materialize(case, folder)
    return run_guarded(path, case.seed, seconds=seconds, memory=memory, budget=budget)


def run_isolated(case: Case, folder: Path, *, seconds: float = 60, memory: int = 1 << 30,
                 budget: int = 400) -> Outcome:
    """Run one case in a fresh Python process: its own watchdog fires after `seconds`,
    and the parent kills it after `seconds + 15` (a hang inside C). Memory is capped at
    `memory` bytes of address space."""
    import subprocess

    path = materialize(case, folder)
    code = ("import json, sys; from tests.fuzz_semantic import run_guarded; "
            f"o = run_guarded(__import__('pathlib').Path({str(path)!r}), {case.seed}, seconds={seconds}, "
            f"memory={memory}, budget={budget}, absolute_memory=True); print(json.dumps(o.to_json()))")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    try:
        proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=env,
                              timeout=seconds + 15)
    except subprocess.TimeoutExpired:
        return Outcome("failure", failure="hang@unknown (killed: blocked inside C)", detail=f"{seconds + 15:.0f} s")
    line = proc.stdout.strip().splitlines()[-1:] if proc.stdout.strip() else []
    if proc.returncode != 0 or not line:
        return Outcome("failure", failure=f"crash@process (exit {proc.returncode})", detail=proc.stderr[-2000:])
    return Outcome(**json.loads(line[0]))


def describe(case: Case, outcome: Outcome) -> str:
    """A failure, as a test report shows it."""
    return (f"[{case.key}] {outcome.failure} (stage {outcome.stage}) {'; '.join(case.desc)}\n"
            f"  {outcome.detail[:300]}\n"
            f"  reproduce: python -m tests.fuzz_semantic --family {case.family} --seed {case.seed} --run\n"
            + "".join("    " + x + "\n" for x in outcome.trace.strip().splitlines()[-6:]))


def main(argv: list[str] | None = None) -> int:
    import argparse
    import tempfile

    ap = argparse.ArgumentParser(description="Generate, write or run one semantic fuzz case.")
    ap.add_argument("--family", required=True, choices=sorted(FAMILIES))
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--write", help="write the case's files into this folder")
    ap.add_argument("--run", action="store_true", help="run the case (guarded) and print the outcome")
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--budget", type=int, default=400)
    args = ap.parse_args(argv)
    case = generate(args.family, args.seed)
    print("; ".join(case.desc), file=sys.stderr)
    if args.write:
        print(materialize(case, Path(args.write)))
    if args.run:
        with tempfile.TemporaryDirectory() as tmp:
            runner = run_isolated if case.isolate else run_case
            o = runner(case, Path(tmp) / "case", seconds=args.seconds, budget=args.budget)
        print(json.dumps(o.to_json(), indent=2))
    if not args.write and not args.run:
        print(case.files["main.catan"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
