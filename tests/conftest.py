"""The boards, games and positions more than one test module plays on.

A test module keeps what only it uses; what two share lives here (position-editing
steps in tests/engine/helpers.py, whole-state checks in tests/engine/soundness.py), so
no test module imports another (tests/test_house.py checks it). The engine loads
lazily, inside each helper: collecting a test must not start it.
"""

import sys
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


@pytest.fixture
def root() -> Path:
    return ROOT


# ---- scenarios written in a test ------------------------------------------------------------


def compile_text(tmp_path: Path, text: str, name: str = "s.catan"):
    """Write a scenario to a temp file and compile it: (scenario, diagnostics)."""
    from catandsl.compiler import compile_path

    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    scenario, diags, _ = compile_path(p)
    return scenario, diags


def scenario_of(tmp_path_factory, text: str, name: str = "scenario"):
    """A scenario written in a test, loaded from a temp file (all stages, check's trial
    game included)."""
    import catandsl

    path = tmp_path_factory.mktemp(name) / f"{name}.catan"
    path.write_text(text, encoding="utf-8")
    return catandsl.load(path)


def game_of(tmp_path_factory, text: str, players: int = 3, seed: int = 1, options: dict | None = None,
            name: str = "scenario"):
    """A game of a scenario written in a test, started for `players` with `seed`."""
    import catandsl

    return catandsl.new_game(scenario_of(tmp_path_factory, text, name), players, options or {}, seed)



def played_to_first_roll(game, *, roll: bool = True):
    """A new state of `game` with greedy bots through the set-up and, with `roll`, on up
    to the first roll of the dice (a chance node): for a rule's test to play on from."""
    from catandsl.players import GreedyPlayer

    s = game.new_initial_state()
    bots = [GreedyPlayer(p) for p in range(game.num_players)]
    while s.stage == "setup":
        s.apply_action(s.sample_chance() if s.is_chance_node() else bots[s.current_player()].choose(s))
    while roll and not s.is_chance_node():
        s.apply_action(bots[s.current_player()].choose(s))
    return s

# ---- maps for scenarios written in a test ---------------------------------------------------

# The base game's beginner island, its picture and legend (a map's start and harbors follow).
BEGINNER_ROWS = '''
    rows at (0, -2) """
          m10 p2  f9
        w12 h6  p4  h10
      w9  f11 d   f3  m8
        f8  m3  w4  p5
          h5  w6  p11
    """
    legend { f forest; p pasture; w fields; h hills; m mountains; d desert }
'''

# A map block two forests wide (8, 5) over the hills (4), closing the scenario too.
THREE_HEXES = '''  map {
    rows """
      f8  f5
        h4
    """
    legend { f forest; h hills }
  }
}
'''


# A map block of a forest (8) beside a pasture (5), closing the scenario too.
TWO_HEXES = '''  map {
    rows """
      f8  p5
    """
    legend { f forest; p pasture }
  }
}
'''

# Five hexes in two rows, their picture and legend (a map's start follows).
FIVE_HEX_ROWS = '''
    rows """
      f8  h5  m4
        w6  g9
    """
    legend { f forest; h hills; m mountains; w pasture; g fields }
'''

# ---- the shipped files ----------------------------------------------------------------------

SCENARIO_FILES = sorted(str(p.relative_to(ROOT)) for p in [*(ROOT / "scenarios").rglob("*.catan"),
                                                           *(ROOT / "examples").rglob("*.catan")])
BROKEN_FILES = {"examples/broken_island.catan", "examples/fan_maps/broken_harbor.catan",
                "examples/fan_maps/broken_pool.catan"}  # maps written to fail `check`


# ---- the base game --------------------------------------------------------------------------


@cache
def base_scenario():
    import catandsl

    return catandsl.load(ROOT / "scenarios" / "base.catan")


def base_game(players: int = 4, seed: int = 1, options: dict | None = None):
    from catandsl.engine import new_game

    return new_game(base_scenario(), players=players, seed=seed, options=options)


def road_chain(g, start: int, n: int) -> tuple[list[int], list[int]]:
    """n road paths in a simple chain from an intersection: (paths, corners visited)."""
    b = g.board
    paths, corners, c = [], [start], start
    for _ in range(n):
        allowed = g.pieces[g.piece_index["road"]].allowed
        x = next(x for x in b.corner_paths[c] if x not in paths and x in allowed
                 and all(e not in corners for e in b.path_ends[x] if e != c))
        paths.append(x)
        c = next(e for e in b.path_ends[x] if e != c)
        corners.append(c)
    return paths, corners


def swap_hidden(s, seat: int):
    """A copy of `s` that differs only in what `seat` cannot see: one resource card
    changes hands between two opponents for one of another kind (none that an offer
    under way binds its player to hold), or one opponent's card
    changes places with another kind in the deck, or both; None when the position has
    neither swap."""
    from catandsl.engine.infostate import bound_cards

    t = s.clone()
    others = [p for p in range(s.game.num_players) if p != seat]
    R = len(s.game.resources)
    # the cards a player is seen to be bound to hold (an offer it accepted) stay its own
    bound = bound_cards(s, R)
    free = {p: [h - n for h, n in zip(t.hands[p], bound.get(p, [0] * R))] for p in others}
    done = False
    for a in others:
        for b in others:
            if a == b:
                continue
            for x, ha in enumerate(free[a]):
                y = next((y for y, m in enumerate(free[b]) if m > 0 and y != x), -1)
                if ha > 0 and y >= 0 and not done:
                    t.hands[a][x] -= 1
                    t.hands[a][y] += 1
                    t.hands[b][y] -= 1
                    t.hands[b][x] += 1
                    done = True
    for a in others:
        for x, m in enumerate(t.cards[a]):
            y = next((y for y, d in enumerate(t.deck) if d and y != x), -1)
            if m and y >= 0 and (a != t.turn_player or t.new_cards[x] < m):
                t.cards[a][x] -= 1
                t.cards[a][y] += 1
                t.deck[y] -= 1
                t.deck[x] += 1
                t.changed()
                return t
    t.changed()
    return t if done else None


# ---- a hub on a small island ----------------------------------------------------------------

# A land hexagon of radius 1 in a ring of sea. The castle (0, -1) is on its coast, at a
# corner of the outer ring: it meets the sea on its NE, NW and W sides and shares its NE,
# SE, S and SW corners with land.
HUB_PICTURE = '''
    rows at (0, -2) """
          ~   ~   ~
        ~   c   f8  ~
      ~   p4  m6  h5  ~
        ~   w9  f3  ~
          ~   ~   ~
    """
    legend { ~ sea; c castle; f forest; p pasture; m mountains; h hills; w fields }
    start robber off board
'''

# The island with roads and settlements kept off the sea's sides.
HUB_ISLAND = '''
scenario "Hubs" {
  uses base
  terrain castle { hub }
  piece road {
    on path where land(at) and not sea_side(at)
    cost brick + lumber
    limit 15
    connects road, settlement, city
  }
  piece settlement {
    on intersection where land(at) and not sea_side(at)
    cost brick + lumber + wool + grain
    limit 5
    points 1
    produces 1
    distance 2
    connects road
  }
  map {''' + HUB_PICTURE + """  }
}
"""


# ---- face-down hexes ------------------------------------------------------------------------


def all_face_down(g):
    """Player 0 in the main phase of turn 1 on an empty board, every fog hex face down."""
    from catandsl.rules import hexes
    from tests.engine.helpers import blank, to_main

    s = blank(g)
    t = g.lookups(hexes.HexLookups)
    s.face_down = list(t.face_down)
    s.hidden_tiles = [list(r) for r in t.tiles]
    s.hidden_numbers = [list(r) for r in t.numbers]
    s.hex_changes = []
    s.game = g.base
    s.changed()
    to_main(s, 8)
    return s


# ---- Traders & Barbarians -------------------------------------------------------------------

TB_PATH = "scenarios/traders_barbarians/traders_and_barbarians.catan"
TB_HUBS = {"castle": (0, -2), "quarry": (2, 0), "glassworks": (-2, 2)}  # its trade hexes


@cache
def tb_scenario():
    import catandsl

    return catandsl.load(ROOT / TB_PATH)


def tb_start(g, at: int, level: int = 1, gold: int = 5):
    """Turn 1, player 0 in the main phase, empty board, the stacks full, each player's
    wagon level `level` and `gold` gold, player 0's wagon on path `at`."""
    from catandsl.rules.play import Traveller
    from catandsl.rules.sites import SiteLookups
    from tests.engine.helpers import blank, to_main

    s = blank(g)
    s.token_stock = [list(x.stock) for x in g.lookups(SiteLookups).sites]
    s.tokens_held = [[0] * len(g.token_names) for _ in range(g.num_players)]
    for p in range(g.num_players):
        s.tokens_held[p][g.token_index["level"]] = level
        s.tokens_held[p][g.token_index["gold"]] = gold
    totals = [t.supply for t in g.ruleset.tokens.values()]
    s.token_supply = [totals[t] - sum(st[t] for st in s.token_stock) - sum(h[t] for h in s.tokens_held)
                      for t in range(len(totals))]
    s.partners = []
    wagon = g.piece_index["wagon"]
    s.travellers = [Traveller(0, wagon, at, 0, -1, -1)]
    s.placed[0][wagon] = 1
    s.changed()
    to_main(s, 8)
    return s


def land_path_away_from_hubs(g) -> tuple[int, int]:
    """A land path, with a land neighbour, none of them a spur or touching a hub, and no
    barbarian on either."""
    from catandsl.rules import neutral
    from catandsl.rules.base import paths_next_to

    b = g.board
    wagon = g.pieces[g.piece_index["wagon"]]
    barbarian = g.piece_index["barbarian"]
    s0 = g.new_initial_state()
    taken = set(neutral.sites_of(s0, barbarian))
    hub_hexes = {b.hex_index[h] for h in TB_HUBS.values()}

    def plain(k):
        return k in wagon.allowed_set and k not in taken and not set(b.path_hexes[k]) & hub_hexes

    for k in wagon.allowed:
        if plain(k):
            for x in paths_next_to(g, k):
                if plain(x):
                    return k, x
    raise AssertionError


def tb_first_draw(kind: str):
    """The first state of a random Traders & Barbarians game waiting on a rule's draw of
    a token kind from a site's stock."""
    import catandsl
    from catandsl.engine.flow import Effects
    from catandsl.players import UniformPlayer

    g = catandsl.new_game(tb_scenario(), 4, {}, 11)
    seats = [UniformPlayer(p) for p in range(4)]
    s = g.new_initial_state()
    while not s.is_terminal():
        waits = [p.waiting for p in s.pending if isinstance(p, Effects) and p.waiting]
        if any(w[0] == kind for w in waits):
            return s
        s.apply_action(s.sample_chance() if s.is_chance_node() else seats[s.current_player()].choose(s))
    raise AssertionError(f"no {kind} in a whole game")
