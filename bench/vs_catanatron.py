"""The catandsl search bot inside catanatron's own engine, against catanatron's bots.

    python bench/vs_catanatron.py [--games 20] [--bot mcts] [--seed 1]

A catanatron `Player` (`CatandslPlayer`) mirrors each catanatron position into a catandsl
position through the position builder (`catandsl.position`), asks the catandsl bot, and
maps its choice back to one of catanatron's playable actions. Two matches: one catandsl
bot against three `WeightedRandomPlayer`s, and one against one `VictoryPointPlayer`
(catanatron seats its players at random each game). Printed: wins, games and the win
rate with a Wilson 95% interval, and how often a choice could not be mapped back.

The mirror: catanatron's map becomes a catandsl scenario (`uses base`, the same tiles,
numbers and harbors, no domestic trade, which catanatron lacks), compiled once per map;
each decision builds a position on it: every building and road, every hand, the
development cards held and played, the robber, whose turn and whether the dice were
rolled. The catandsl bot searches that position as in its own games (its information
set: it resamples the opponents' hidden cards). Prompts the position builder cannot
pose (the set-up placements, moving the robber, the free roads of Road Building, a
discard with a choice) are answered by the bot's value one action ahead: each playable
action is mirrored as the position it makes, and the best for the bot's seat is taken.

catanatron (PyPI `catanatron`) lives only in bench/.venv-catanatron, as for
bench/compare_catanatron.py; this script installs catandsl's own three dependencies there
too and runs itself in that venv, never making catanatron a dependency of catandsl.
"""

from __future__ import annotations

import argparse
import math
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
CORE_DEPS = ("lark", "networkx", "jsonschema")

RESOURCE = {"WOOD": "lumber", "BRICK": "brick", "SHEEP": "wool", "WHEAT": "grain", "ORE": "ore"}
TERRAIN = {"WOOD": "f", "BRICK": "h", "SHEEP": "p", "WHEAT": "w", "ORE": "m", None: "d"}
CARD = {"KNIGHT": "knight", "YEAR_OF_PLENTY": "year_of_plenty", "MONOPOLY": "monopoly",
        "ROAD_BUILDING": "road_building", "VICTORY_POINT": "victory_point"}
SIDE = {"EAST": "E", "SOUTHEAST": "SE", "SOUTHWEST": "SW", "WEST": "W", "NORTHWEST": "NW", "NORTHEAST": "NE"}
# a pointy-top hex (q, r): where each of its six corners is named, as (dq, dr, "N" or "S")
CORNER = {"NORTH": (0, 0, "N"), "SOUTH": (0, 0, "S"), "NORTHEAST": (1, -1, "S"), "SOUTHEAST": (0, 1, "N"),
          "SOUTHWEST": (-1, 1, "N"), "NORTHWEST": (0, -1, "S")}
FRAME = '''    frame {
        piece AB 3 "1-2"
        piece BC 3 "2-3"
        piece CD 3 "3-4"
        piece DE 3 "4-5"
        piece EF 3 "5-6"
        piece FA 3 "6-1"
      }'''


def bench_python() -> Path:
    sys.path.insert(0, str(HERE))
    from compare_catanatron import catanatron_python

    python = catanatron_python()
    check = subprocess.run([str(python), "-c", "import " + ", ".join(CORE_DEPS)], capture_output=True)
    if check.returncode != 0:
        pip = subprocess.run([str(python), "-m", "pip", "install", "-q", *CORE_DEPS], capture_output=True, text=True)
        if pip.returncode != 0:
            raise RuntimeError(f"pip could not install {CORE_DEPS}:\n{pip.stderr.strip()}")
    return python


# ---- inside the bench venv ------------------------------------------------------------


def mirror_text(cmap) -> str:
    """catanatron's map as a catandsl scenario."""
    rows = []
    for r in range(-2, 3):
        cells = {}
        for (x, _y, z), tile in cmap.land_tiles.items():
            if z == r:
                cells[x] = TERRAIN[tile.resource] + (str(tile.number) if tile.number else "")
        line = [" "] * 40
        for q, text in cells.items():
            col = 4 * (q + 2) + 2 * (r + 2)
            line[col:col + len(text)] = list(text)
        rows.append("".join(line).rstrip())
    harbors = []
    for port in cmap.ports_by_id.values():
        ends = {port.nodes[a] for a in _port_refs(port)}
        for (x, _y, z), tile in cmap.land_tiles.items():
            for ref, (a, b) in tile.edges.items():
                if {a, b} == ends:
                    kind = f"{RESOURCE[port.resource]} 2:1" if port.resource else "3:1"
                    harbors.append(f"{kind} at ({x}, {z}) {SIDE[ref.value]}")
    body = "\n".join("        " + row for row in rows)
    return f'''scenario mirror "Catan on catanatron's map" {{
  uses base
  players 2..4
  without trade domestic
  map {{
    rows at (0, -2) """
{body}
    """
    legend {{
      f forest
      p pasture
      w fields
      h hills
      m mountains
      d desert
    }}
  {FRAME}
    harbors fixed [
      {", ".join(harbors)},
    ]
    start robber on desert
  }}
}}
'''


def _port_refs(port):
    from catanatron.models.map import PORT_DIRECTION_TO_NODEREFS

    return PORT_DIRECTION_TO_NODEREFS[port.direction]


class Mirror:
    """A catanatron map's catandsl game and the site tables between the two."""

    def __init__(self, cmap, players: int):
        import catandsl

        with tempfile.TemporaryDirectory() as d:
            path = Path(d) / "mirror.catan"
            path.write_text(mirror_text(cmap), encoding="utf-8")
            self.game = catandsl.new_game(catandsl.load(path), players, {}, 1)
        b = self.game.board
        names = {tuple(x): k for k, x in enumerate(b.intersections)}
        self.node: dict[int, int] = {}
        for (x, _y, z), tile in cmap.land_tiles.items():
            for ref, node in tile.nodes.items():
                dq, dr, c = CORNER[ref.value]
                self.node[node] = names[(x + dq, z + dr, c)]
        by_ends = {frozenset(ends): k for k, ends in enumerate(b.path_ends)}
        self.edge = {}
        for tile in cmap.land_tiles.values():
            for a, c in tile.edges.values():
                self.edge[(a, c)] = self.edge[(c, a)] = by_ends[frozenset((self.node[a], self.node[c]))]
        hexes = {tuple(h): k for k, h in enumerate(b.hexes)}
        self.hex = {coord: hexes[(coord[0], coord[2])] for coord in cmap.land_tiles}
        self.corner_of = {v: k for k, v in self.node.items()}
        # the mirror is right: its terrain and numbers are catanatron's
        for coord, tile in cmap.land_tiles.items():
            h = self.hex[coord]
            assert b.hex_number[h] == (tile.number or 0), (coord, tile)


def position(mirror: Mirror, game, extra=None):
    """The catandsl state of catanatron's `game` (before its prompt), with `extra` edits
    (a function of the Position) applied last."""
    from catandsl.engine.position import Position

    st = game.state
    pos = Position(mirror.game)
    colors = list(st.colors)
    for node, (color, kind) in st.board.buildings.items():
        p = colors.index(color)
        pos.place(p, "settlement", mirror.node[node])
        if kind == "CITY":
            pos.remove("settlement", mirror.node[node])
            pos.place(p, "city", mirror.node[node])
    seen = set()
    for edge, color in st.board.roads.items():
        k = mirror.edge[edge]
        if k not in seen:
            seen.add(k)
            pos.place(colors.index(color), "road", k)
    for p in range(len(colors)):
        key = f"P{p}"
        pos.hand(p, **{RESOURCE[r]: st.player_state[f"{key}_{r}_IN_HAND"] for r in RESOURCE})
        held = {CARD[c]: st.player_state[f"{key}_{c}_IN_HAND"] for c in CARD}
        played = {CARD[c]: st.player_state.get(f"{key}_PLAYED_{c}", 0) for c in CARD if c != "VICTORY_POINT"}
        pos.cards(p, held=held, played=played)
    pos.neutral("robber", mirror.hex[st.board.robber_coordinate])
    turn = st.current_turn_index
    rolled = bool(st.player_state[f"P{turn}_HAS_ROLLED"])
    pos.turn(turn, turns=max(1, st.num_turns), rolled=rolled)
    if st.player_state.get(f"P{turn}_HAS_PLAYED_DEVELOPMENT_CARD_IN_TURN"):
        pos.edit(played_turn=[1])
    if extra is not None:
        extra(pos)
    return pos.state()


def make_player_class():
    from catanatron.models.enums import ActionType
    from catanatron.models.player import Player

    from catandsl.players import make_bot

    class CatandslPlayer(Player):
        """Plays catanatron's game through a catandsl bot (see the module's doc)."""

        def __init__(self, color, bot: str, seed: int):
            super().__init__(color)
            self.bot = make_bot(bot, seed)
            self.mirrors: dict[int, Mirror] = {}
            self.asked = self.unmapped = self.by_value = 0

        def mirror(self, game) -> Mirror:
            key = id(game.state.board.map)
            m = self.mirrors.get(key)
            if m is None:
                self.mirrors.clear()
                m = self.mirrors[key] = Mirror(game.state.board.map, len(game.state.colors))
            return m

        def decide(self, game, playable_actions):
            playable = list(playable_actions)
            if len(playable) == 1:
                return playable[0]
            m = self.mirror(game)
            st = game.state
            kinds = {a.action_type for a in playable}
            # (by the playable actions: catanatron 3.2.1 leaves is_moving_knight set)
            free_roads = st.is_road_building and st.free_roads_available > 0 and kinds == {ActionType.BUILD_ROAD}
            if st.is_initial_build_phase or free_roads or kinds <= {ActionType.MOVE_ROBBER, ActionType.DISCARD}:
                return self.by_value_ahead(m, game, playable)
            s = position(m, game)
            self.asked += 1
            if s.is_chance_node():  # nothing to do before the dice
                return _find(playable, ActionType.ROLL) or playable[0]
            choice = self.bot.choose(s)
            mapped = self.map_back(m, s, choice, playable)
            if mapped is None:
                self.unmapped += 1
                return _find(playable, ActionType.END_TURN) or _find(playable, ActionType.ROLL) or playable[0]
            return mapped

        def map_back(self, m: Mirror, s, choice: int, playable):
            g = s.game
            act = g.actions[choice]
            kind = act.KIND
            if kind == "roll_dice":
                return _find(playable, ActionType.ROLL)
            if kind == "end_turn":
                return _find(playable, ActionType.END_TURN)
            if kind == "buy_card":
                return _find(playable, ActionType.BUY_DEVELOPMENT_CARD)
            if kind == "build":
                want = {"settlement": ActionType.BUILD_SETTLEMENT, "city": ActionType.BUILD_CITY,
                        "road": ActionType.BUILD_ROAD}[act.piece]
                for a in playable:
                    if a.action_type != want:
                        continue
                    at = m.edge[a.value] if want == ActionType.BUILD_ROAD else m.node[a.value]
                    if at == act.at:
                        return a
                return None
            if kind == "bank_trade":
                give = next(r for r, n in RESOURCE.items() if n == act.give)
                get = next(r for r, n in RESOURCE.items() if n == act.get)
                for a in playable:
                    if a.action_type == ActionType.MARITIME_TRADE and a.value[-1] == get and a.value[0] == give:
                        return a
                return None
            if kind == "play_card":
                card = act.card
                if card == "knight":
                    return _find(playable, ActionType.PLAY_KNIGHT_CARD)
                if card == "road_building":
                    return _find(playable, ActionType.PLAY_ROAD_BUILDING)
                t = s.clone()
                t.apply_action(choice)
                picks = []
                while not t.is_terminal() and not t.is_chance_node() and t.current_player() == s.current_player() \
                        and g.actions[t.legal_actions()[0]].KIND == "choose_resource" and len(picks) < 2:
                    a = self.bot.choose(t)
                    picks.append(next(r for r, n in RESOURCE.items() if n == g.actions[a].resource))
                    t.apply_action(a)
                want = ActionType.PLAY_YEAR_OF_PLENTY if card == "year_of_plenty" else ActionType.PLAY_MONOPOLY
                for a in playable:
                    if a.action_type != want:
                        continue
                    value = [a.value] if isinstance(a.value, str) else list(a.value)
                    if sorted(value) == sorted(picks[:len(value)]):
                        return a
                return _find(playable, want)
            return None

        def by_value_ahead(self, m: Mirror, game, playable):
            """The playable action whose mirrored result the bot's value likes best."""
            self.by_value += 1
            me = list(game.state.colors).index(self.color)
            best, best_v = playable[0], -math.inf
            for a in playable:
                try:
                    s = position(m, game, _edits(m, game, a, me))
                except ValueError:
                    continue  # (a result the builder cannot pose: not this one)
                ev = self.bot.evaluator(s.game)
                ev.start(s, me)
                v = ev.utility(ev.values(s), me)
                if a.action_type == ActionType.MOVE_ROBBER and a.value[1] is not None:
                    v += 0.3  # a card stolen
                if v > best_v:
                    best, best_v = a, v
            return best

    return CatandslPlayer


def _find(playable, kind):
    return next((a for a in playable if a.action_type == kind), None)


def _edits(m: Mirror, game, action, me: int):
    from catanatron.models.enums import ActionType

    kind, value = action.action_type, action.value

    def apply(pos):
        if kind in (ActionType.BUILD_SETTLEMENT,):
            pos.place(me, "settlement", m.node[value])
        elif kind == ActionType.BUILD_CITY:
            pos.remove("settlement", m.node[value])
            pos.place(me, "city", m.node[value])
        elif kind == ActionType.BUILD_ROAD:
            pos.place(me, "road", m.edge[value])
        elif kind == ActionType.MOVE_ROBBER:
            pos.neutral("robber", m.hex[value[0]])
        elif kind == ActionType.DISCARD and value:
            key = f"P{me}"
            hand = {RESOURCE[r]: game.state.player_state[f"{key}_{r}_IN_HAND"] for r in RESOURCE}
            for r in value:
                hand[RESOURCE[r]] -= 1
            pos.hand(me, **hand)
    return apply


def inside(args) -> None:
    sys.path.insert(0, str(ROOT))
    import random

    from catanatron import Color, Game
    from catanatron.players.search import VictoryPointPlayer
    from catanatron.players.weighted_random import WeightedRandomPlayer

    from catandsl.lint.balance import wilson

    CatandslPlayer = make_player_class()
    colours = [Color.RED, Color.BLUE, Color.WHITE, Color.ORANGE]
    matches = (("three WeightedRandomPlayers", lambda c: WeightedRandomPlayer(c), 3),
               ("one VictoryPointPlayer", lambda c: VictoryPointPlayer(c), 1))
    for title, opponent, n in matches:
        wins = asked = unmapped = by_value = 0
        turns = []
        for i in range(args.games):
            seed = args.seed * 10_007 + i
            random.seed(seed)
            me = CatandslPlayer(colours[0], args.bot, seed)
            players = [me] + [opponent(c) for c in colours[1:n + 1]]
            game = Game(players, seed=seed)
            winner = game.play()
            wins += winner == colours[0]
            asked, unmapped, by_value = asked + me.asked, unmapped + me.unmapped, by_value + me.by_value
            turns.append(game.state.num_turns)
            print(f"  game {i + 1}: {'won' if winner == colours[0] else 'lost'} in {game.state.num_turns} turns",
                  file=sys.stderr, flush=True)
        lo, hi = wilson(wins, args.games)
        print(f"catandsl {args.bot} against {title}: {wins} of {args.games} won, {wins / args.games:.0%} "
              f"[{lo:.0%}, {hi:.0%}] (95%); mean {sum(turns) / len(turns):.0f} turns; {asked} positions searched, "
              f"{unmapped} choices not mapped back, {by_value} prompts by the value one action ahead", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=20, help="games per match")
    ap.add_argument("--bot", default="mcts", help="the catandsl bot: mcts, mcts:N, greedy, ...")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--inside", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.inside:
        inside(args)
        return
    python = bench_python()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    cmd = [str(python), str(Path(__file__).resolve()), "--inside", "--games", str(args.games), "--bot", args.bot,
           "--seed", str(args.seed)]
    sys.exit(subprocess.call(cmd, env=env))


if __name__ == "__main__":
    main()
