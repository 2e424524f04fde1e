"""The hook interpreter: evaluates `model.Expr` and runs `model.Effect` over a State.

Primitives are looked up by their registry name in explicit dicts of Python functions
(`QUERIES`, `EFFECTS`, `CHOICES`); nothing is looked up by attribute name. A choice
(`choose_resource`) asks a player: evaluation raises `NeedChoice` when no answer has
been given yet, and the state re-evaluates the statement once the answer arrives
(queries have no side effects, so evaluating again is safe).

Values: ints, bools, strings (names of resources, pieces, cards, terrains), players as
ints, sites as ["i" | "p" | "h", id] lists, lists of values.
"""

from __future__ import annotations

from catandsl.engine import islands as I
from catandsl.engine import sites as S
from catandsl.engine.errors import EngineError
from catandsl.rules.registry import PRIMITIVES

SITE_CODE = {"intersection": "i", "path": "p", "hex": "h"}


def site(kind: str, k: int) -> list:
    return [SITE_CODE[kind], k]


class NeedChoice(Exception):
    def __init__(self, kind: str, player: int, among: list | None = None):
        self.kind, self.player, self.among = kind, player, among


class Answers:
    """The answers given so far to the choices of the statement being run."""

    __slots__ = ("values", "next")

    def __init__(self, values):
        self.values, self.next = values, 0


# ---- queries -------------------------------------------------------------------------


def _hexes_of(game, at) -> tuple[int, ...]:
    b = game.board
    kind, k = at
    if kind == "h":
        return (k,)
    return b.corner_hexes[k] if kind == "i" else b.path_hexes[k]


def q_land(game, state, at):
    return any(not game.board.hex_water[h] for h in _hexes_of(game, at))


def q_water(game, state, at):
    return any(game.board.hex_water[h] for h in _hexes_of(game, at))


def q_coast(game, state, at):
    return q_land(game, state, at) and q_water(game, state, at)


def q_owner(game, state, at):
    kind, k = at
    if kind == "i":
        return state.corner_owner[k]
    if kind == "p":
        return state.path_owner[k]
    return -1


def q_number(game, state, at):
    return game.board.hex_number[at[1]]


def q_terrain(game, state, at):
    return game.board.terrain(at[1])


def q_longest_route(game, state, player, pieces):
    return state.longest_route(player, tuple(game.piece_index[p] for p in pieces))


QUERIES = {
    "land": q_land,
    "water": q_water,
    "coast": q_coast,
    "owner": q_owner,
    "number": q_number,
    "terrain": q_terrain,
    "longest_route": q_longest_route,
    "army": lambda game, state, player: state.army(player),
    "points": lambda game, state, player: state.points(player),
    "resource_cards": lambda game, state, player: sum(state.hands[player]),
    "count": lambda game, state, items: len(items),
    "nth": lambda game, state, items, index: items[max(1, min(index, len(items))) - 1],
    "players": lambda game, state: list(range(game.num_players)),
    "opponents": lambda game, state, player: [
        p for p in range(game.num_players) if p != player
    ],
    **I.QUERIES,
    **S.QUERIES,
}

# ---- effects -------------------------------------------------------------------------

EFFECTS = {
    "produce": lambda game, state, roll: state.produce(roll),
    "discard_half": lambda game, state, over: state.discard_half(over),
    "move_piece": lambda game, state, player, pieces: state.push_move(
        player, [game.piece_index[p] for p in pieces]
    ),
    "build_free": lambda game, state, player, pieces, count: state.push_free(
        player, [game.piece_index[p] for p in pieces], count
    ),
    "take_from_bank": lambda game, state, player, resource, count: state.take_from_bank(
        player, game.res_index[resource], count
    ),
    "monopoly": lambda game, state, player, resource: state.monopoly(
        player, game.res_index[resource]
    ),
    "end_game": lambda game, state, reason: state.end_game(str(reason)),
    "collect_choice": lambda game, state, player, at, count: state.collect_choice(
        player, at, count
    ),
    **I.EFFECTS,
    **S.EFFECTS,
}

CHOICES = ("choose_resource", "choose_player")

_BINARY = {
    "eq": lambda a, b: a == b,
    "ne": lambda a, b: a != b,
    "lt": lambda a, b: a < b,
    "le": lambda a, b: a <= b,
    "gt": lambda a, b: a > b,
    "ge": lambda a, b: a >= b,
    "add": lambda a, b: a + b,
    "sub": lambda a, b: a - b,
    "mul": lambda a, b: a * b,
}


class Interpreter:
    def __init__(self, game):
        self.game = game
        self._names = self.names()

    def names(self) -> dict:
        """Declared names a `var` may refer to (pieces, resources, cards, terrains, tokens,
        site kinds...), each standing for its name;
        an island name stands for the list of island numbers it names."""
        rs = self.game.ruleset
        out = {}
        board = getattr(self.game, "board", None)
        for n, ids in (board.island_names.items() if board is not None else ()):
            out[n] = list(ids)
        for group in (rs.resources, rs.terrains, rs.pieces, rs.awards, rs.decks, rs.tokens,
                      rs.sites):
            for n in group:
                out[n] = n
        for d in rs.decks.values():
            for c in d.cards:
                out[c.name] = c.name
        return out

    def static_condition(self, expr, env, source) -> bool:
        """A condition over the board alone (a piece's `where`)."""
        return bool(self.evaluate(expr, env, None, Answers([]), source))

    def evaluate(self, e, env, state, answers: Answers, source=None):
        op = e.op
        if op in ("num", "str", "bool"):
            return e.value
        if op == "var":
            if e.value in env:
                return env[e.value]
            if e.value in self._names:
                return self._names[e.value]
            raise EngineError(f"unknown name {e.value!r}", source)
        if op == "param":
            return self.game.ruleset.params[e.value]
        if op in ("list", "pair"):
            return [self.evaluate(a, env, state, answers, source) for a in e.args]
        if op == "and":
            return all(self.evaluate(a, env, state, answers, source) for a in e.args)
        if op == "or":
            return any(self.evaluate(a, env, state, answers, source) for a in e.args)
        if op == "not":
            return not self.evaluate(e.args[0], env, state, answers, source)
        if op == "neg":
            return -self.evaluate(e.args[0], env, state, answers, source)
        if op in _BINARY:
            a = self.evaluate(e.args[0], env, state, answers, source)
            b = self.evaluate(e.args[1], env, state, answers, source)
            return _BINARY[op](a, b)
        if op == "call":
            return self.call(e, env, state, answers, source)
        raise EngineError(f"unknown expression {op!r}", source)

    def call(self, e, env, state, answers: Answers, source):
        name = e.value
        args = [self.evaluate(a, env, state, answers, source) for a in e.args]
        if name in QUERIES:
            return QUERIES[name](self.game, state, *args)
        if name in CHOICES:
            if answers.next < len(answers.values):
                value = answers.values[answers.next]
                answers.next += 1
                return value
            raise NeedChoice("resource" if name == "choose_resource" else "player", args[0],
                             args[1] if len(args) > 1 else None)
        if name in EFFECTS:
            return EFFECTS[name](self.game, state, *args)
        if name in PRIMITIVES:
            raise EngineError(f"primitive {name}() is not supported by this engine yet", source)
        raise EngineError(f"unknown primitive {name}()", source)
