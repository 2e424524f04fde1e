"""`catandsl engine`: the embedding API as a JSON-lines protocol over stdin/stdout, so a
program in any language can drive games.

One JSON object per line in, one per line out, in order:

    > {"id": 1, "call": "new_game", "scenario": "base", "players": 3, "seed": 7}
    < {"id": 1, "ok": true, "result": {"game": 1, "state": 1, ...}}
    > {"id": 2, "call": "apply", "state": 1, "action": 12}
    < {"id": 2, "ok": false, "error": {"code": "action/not_legal", "message": "..."}}

Every call and its fields are in `CALLS` (docs/protocol/request.schema.json is made
from it, response.schema.json says the replies); a message is checked against its
call's schema before anything runs. Games and states are held under integer handles.
A bad message gets an error object (`code`, `message`) and the process reads on: only
end of input or `{"call": "quit"}` ends it. Names in messages (calls, queries, position
edits) are looked up in the explicit tables below; nothing in a message is run.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any, TextIO

import jsonschema

MAX_LINE = 16 << 20  # a serialized state or compiled scenario is far smaller
MAX_HANDLES = 100_000

INT = {"type": "integer"}
HANDLE = {"type": "integer", "minimum": 1}
SITE = {"oneOf": [{"type": "integer", "minimum": 0}, {"type": "array", "items": {"type": ["integer", "string"]},
                                                       "minItems": 2, "maxItems": 3}]}
COUNTS = {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0}}
ACTION = {"oneOf": [{"type": "integer", "minimum": 0}, {"type": "object", "required": ["kind"]}]}

# Position edits: op -> (the builder's method, its fields' schema, required fields).
EDITS: dict[str, tuple[str, dict[str, Any], list[str]]] = {
    "place": ("place", {"seat": INT, "piece": {"type": "string"}, "at": SITE, "pay": {"type": "boolean"},
                        "rules": {"type": "boolean"}}, ["seat", "piece", "at"]),
    "remove": ("remove", {"piece": {"type": "string"}, "at": SITE}, ["piece", "at"]),
    "neutral": ("neutral", {"piece": {"type": "string"}, "sites": {"type": "array", "items": SITE}}, ["piece"]),
    "hand": ("hand", {"seat": INT, "resources": COUNTS}, ["seat", "resources"]),
    "bank": ("bank", {"resources": COUNTS}, ["resources"]),
    "tokens": ("tokens", {"seat": INT, "tokens": COUNTS}, ["seat", "tokens"]),
    "cards": ("cards", {"seat": INT, "held": COUNTS, "bought": COUNTS, "played": COUNTS}, ["seat"]),
    "turn": ("turn", {"seat": INT, "turns": {"type": "integer", "minimum": 0},
                      "phase": {"type": ["string", "integer"]}, "rolled": {"type": "boolean"}}, ["seat"]),
    "reach_sites": ("reach_sites", {}, []),
}

EDIT_SCHEMA = {"oneOf": [{"type": "object", "properties": {"op": {"const": op}, **props},
                          "required": ["op", *req], "additionalProperties": False}
                         for op, (_, props, req) in sorted(EDITS.items())]}

# call -> (its fields' schema, required fields, what it does)
CALLS: dict[str, tuple[dict[str, Any], list[str], str]] = {
    "new_game": ({"scenario": {"type": "string"}, "path": {"type": "string"}, "ir": {"type": "object"},
                  "players": {"type": "integer", "minimum": 1}, "options": {
                      "type": "object", "additionalProperties": {"type": "string"}}, "seed": INT}, [],
                 "a game from a shipped scenario's name, a .catan path or compiled IR JSON, and its first state"),
    "actions": ({"game": HANDLE}, ["game"], "the game's action table: each action's JSON form, by id"),
    "legal_actions": ({"state": HANDLE}, ["state"], "who acts, the legal ids, and chance outcomes with probabilities"),
    "apply": ({"state": HANDLE, "action": ACTION}, ["state", "action"], "apply an action id or an action's JSON"),
    "sample_chance": ({"state": HANDLE}, ["state"], "the seeded chance outcome at a chance node"),
    "bot_action": ({"state": HANDLE, "bot": {"type": "string"}, "seed": INT}, ["state", "bot"],
                   "the action a bot (random, greedy, mcts, mcts:N) takes for the player to act, seeded"),
    "status": ({"state": HANDLE}, ["state"], "stage, turn, current player, scores, winner, reason"),
    "observation": ({"state": HANDLE, "player": INT, "tensor": {"type": "boolean"}}, ["state", "player"],
                    "what a player may see; with tensor, the Observer's numbers, slices and the legal mask"),
    "serialize": ({"state": HANDLE}, ["state"], "the state's JSON text (docs/state.schema.json)"),
    "restore": ({"game": HANDLE, "text": {"type": "string"}}, ["game", "text"], "a state from serialize's text"),
    "clone": ({"state": HANDLE}, ["state"], "an independent copy under a new handle"),
    "position": ({"game": HANDLE, "state": HANDLE, "edits": {"type": "array", "items": EDIT_SCHEMA}},
                 ["game", "edits"], "a position built by edits from the blank first turn (or a copy of state)"),
    "query": ({"state": HANDLE, "name": {"type": "string"}, "args": {"type": "object"}}, ["state", "name"],
              "one of the queries of catandsl.queries, with its arguments by name"),
    "render": ({"state": HANDLE}, ["state"], "the state as SVG (needs the cli extra)"),
    "close": ({"game": HANDLE, "state": HANDLE}, [], "forget a state, or a game and its states"),
    "quit": ({}, [], "end the session"),
}


class ProtocolError(Exception):
    def __init__(self, code: str, message: str, **extra: Any):
        super().__init__(message)
        self.code, self.message, self.extra = code, message, extra


def request_schema() -> dict[str, Any]:
    variants = []
    for call, (props, required, doc) in sorted(CALLS.items()):
        variants.append({"type": "object", "description": doc,
                         "properties": {"id": {}, "call": {"const": call}, **props},
                         "required": ["call", *required], "additionalProperties": False})
    return {"$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": "https://catandsl.example/protocol/request.schema.json",
            "title": "catandsl engine: one request line", "oneOf": variants}


def response_schema() -> dict[str, Any]:
    return {"$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": "https://catandsl.example/protocol/response.schema.json",
            "title": "catandsl engine: one response line",
            "oneOf": [
                {"type": "object", "properties": {"id": {}, "ok": {"const": True}, "result": {}},
                 "required": ["id", "ok", "result"], "additionalProperties": False},
                {"type": "object", "properties": {"id": {}, "ok": {"const": False}, "error": {
                    "type": "object", "required": ["code", "message"],
                    "properties": {"code": {"type": "string", "pattern": "^[a-z_]+/[a-z_]+$"},
                                   "message": {"type": "string"}, "diagnostics": {"type": "array"}}}},
                 "required": ["id", "ok", "error"], "additionalProperties": False}]}


_VALIDATORS = {call: jsonschema.Draft202012Validator(
    {"type": "object", "properties": {"id": {}, "call": {"const": call}, **props},
     "required": ["call", *required], "additionalProperties": False})
    for call, (props, required, _) in CALLS.items()}


class Session:
    """The games and states of one connection, and the calls on them."""

    def __init__(self) -> None:
        self.games: dict[int, Any] = {}
        self.states: dict[int, tuple[int, Any]] = {}  # handle -> (game handle, state)
        self.observers: dict[int, Any] = {}
        self.next_handle = 1
        self.done = False

    def handle(self, line: str) -> dict[str, Any]:
        """One request line -> one response object (never raises)."""
        mid: Any = None
        try:
            if len(line) > MAX_LINE:
                raise ProtocolError("protocol/too_long", f"a message is at most {MAX_LINE:,} characters")
            try:
                msg = json.loads(line)
            except (ValueError, RecursionError) as e:
                raise ProtocolError("protocol/json", f"not JSON: {e}") from None
            if not isinstance(msg, dict):
                raise ProtocolError("protocol/message", "a message is a JSON object")
            mid = msg.get("id")
            call = msg.get("call")
            if not isinstance(call, str) or call not in CALLS:
                raise ProtocolError("protocol/unknown_call",
                                    f"no call {call!r}; the calls are {', '.join(sorted(CALLS))}")
            errors = sorted(_VALIDATORS[call].iter_errors(msg), key=lambda e: list(e.path))
            if errors:
                first = errors[0]
                where = "/".join(str(p) for p in first.path) or "message"
                raise ProtocolError("protocol/message", f"{call}: {where}: {first.message}")
            return {"id": mid, "ok": True, "result": HANDLERS[call](self, msg)}
        except Exception as e:  # every failure becomes an error object; the session goes on
            return {"id": mid, "ok": False, "error": error_object(e)}

    # ---- handles ------------------------------------------------------------------

    def _new(self, table: dict, value: Any) -> int:
        if len(self.games) + len(self.states) >= MAX_HANDLES:
            raise ProtocolError("protocol/too_many", f"at most {MAX_HANDLES} games and states at once: close some")
        h = self.next_handle
        self.next_handle += 1
        table[h] = value
        return h

    def game(self, h: int) -> Any:
        if h not in self.games:
            raise ProtocolError("protocol/unknown_handle", f"no game {h}")
        return self.games[h]

    def state(self, h: int) -> Any:
        if h not in self.states:
            raise ProtocolError("protocol/unknown_handle", f"no state {h}")
        return self.states[h][1]

    def add_state(self, gh: int, s: Any) -> int:
        return self._new(self.states, (gh, s))

    def observer(self, gh: int) -> Any:
        from catandsl.engine.observer import Observer

        if gh not in self.observers:
            self.observers[gh] = Observer(self.games[gh])
        return self.observers[gh]


def error_object(e: Exception) -> dict[str, Any]:
    """A typed error object for anything a call raised."""
    from catandsl.diagnostics import CatanError
    from catandsl.engine import ArgumentError, EngineError, IllegalAction, StateError
    from catandsl.engine.position import PositionError
    from catandsl.ir import ConfigurationError
    from catandsl.ir.codec import IRFormatError

    if isinstance(e, ProtocolError):
        return {"code": e.code, "message": e.message, **e.extra}
    if isinstance(e, CatanError):
        return {"code": "scenario/errors", "message": f"the scenario has {len(e.diagnostics)} problem(s)",
                "diagnostics": [d.to_json() for d in e.diagnostics]}
    if isinstance(e, (IllegalAction, StateError, PositionError, ConfigurationError)):
        return {"code": str(e.code), "message": str(e)}
    if isinstance(e, IRFormatError):
        return {"code": "scenario/format", "message": str(e)}
    if isinstance(e, ArgumentError):
        return {"code": "argument/invalid", "message": str(e)}
    if isinstance(e, EngineError):
        return {"code": "engine/rule_error", "message": str(e)}
    if isinstance(e, (OSError, ValueError, KeyError, TypeError, IndexError)):
        return {"code": "argument/invalid", "message": f"{type(e).__name__}: {e}"}
    return {"code": "engine/internal", "message": f"{type(e).__name__}: {e}"}


# ---- the calls -------------------------------------------------------------------------


def _new_game(ses: Session, m: dict) -> dict:
    import catandsl
    from catandsl.adapters import load_scenario
    from catandsl.ir.model import Scenario

    given = [k for k in ("scenario", "path", "ir") if k in m]
    if len(given) != 1:
        raise ProtocolError("protocol/message", "new_game: give one of scenario, path or ir")
    if "ir" in m:
        scenario = Scenario.from_json(m["ir"])
    else:
        scenario = load_scenario(m.get("scenario") or m["path"])
    g = catandsl.new_game(scenario, players=m.get("players"), options=m.get("options"), seed=m.get("seed", 0))
    gh = ses._new(ses.games, g)
    sh = ses.add_state(gh, g.new_initial_state())
    return {"game": gh, "state": sh, "players": g.num_players, "num_actions": g.num_distinct_actions(),
            "max_game_length": g.max_game_length(), "resources": list(g.resources),
            "pieces": [p.name for p in g.pieces]}


def _actions(ses: Session, m: dict) -> list:
    return [a.to_json() for a in ses.game(m["game"]).actions]


def _legal(ses: Session, m: dict) -> dict:
    s = ses.state(m["state"])
    return {"player": s.current_player(), "actions": s.legal_actions(),
            "chance": [[a, p] for a, p in s.chance_outcomes()]}


def _apply(ses: Session, m: dict) -> dict:
    from catandsl.engine.actions import action_from_json

    s = ses.state(m["state"])
    a = m["action"]
    s.apply_action(action_from_json(a) if isinstance(a, dict) else a)
    return {"player": s.current_player(), "terminal": s.is_terminal()}


def _sample(ses: Session, m: dict) -> dict:
    return {"action": ses.state(m["state"]).sample_chance()}


def _bot_action(ses: Session, m: dict) -> dict:
    from catandsl.players import BOT_NAMES, is_bot, make_bot

    s = ses.state(m["state"])
    if not is_bot(m["bot"]):
        raise ProtocolError("protocol/unknown_bot", f"no bot {m['bot']!r}; the bots are {BOT_NAMES}")
    if s.is_terminal() or s.is_chance_node():
        raise ProtocolError("bot/no_decision", "no player decides here: the game is over or chance is to act")
    return {"action": make_bot(m["bot"], m.get("seed", 0)).choose(s)}


def _status(ses: Session, m: dict) -> dict:
    s = ses.state(m["state"])
    return {"stage": s.stage, "turn": s.turns, "turn_player": s.turn_player, "player": s.current_player(),
            "terminal": s.is_terminal(), "scores": s.scores(), "winner": s.winner, "winners": list(s.winners),
            "reason": s.reason, "returns": s.returns(), "actions_applied": s.actions_applied}


def _observation(ses: Session, m: dict) -> dict:
    s = ses.state(m["state"])
    gh = ses.states[m["state"]][0]
    out = {"observation": s.observation(m["player"])}
    if m.get("tensor"):
        obs = ses.observer(gh)
        out.update(tensor=obs.tensor(s, m["player"]), slices={k: list(v) for k, v in obs.slices.items()},
                   mask=obs.legal_mask(s))
    return out


def _serialize(ses: Session, m: dict) -> dict:
    return {"text": ses.state(m["state"]).serialize()}


def _restore(ses: Session, m: dict) -> dict:
    return {"state": ses.add_state(m["game"], ses.game(m["game"]).deserialize_state(m["text"]))}


def _clone(ses: Session, m: dict) -> dict:
    s = ses.state(m["state"])
    return {"state": ses.add_state(ses.states[m["state"]][0], s.clone())}


def _position(ses: Session, m: dict) -> dict:
    from catandsl.engine.position import Position

    g = ses.game(m["game"])
    base = ses.state(m["state"]) if "state" in m else None
    if base is not None and base.game is not g:
        raise ProtocolError("protocol/message", "position: the state is of another game")
    pos = Position(g, base)
    for k, edit in enumerate(m["edits"]):
        op = edit["op"]
        args: dict[str, Any] = {f: (tuple(v) if f == "at" and isinstance(v, list) else v)
                                for f, v in edit.items() if f != "op"}
        try:
            if op == "neutral":
                pos.neutral(args["piece"], *[tuple(v) if isinstance(v, list) else v for v in args.get("sites", [])])
            elif op == "hand":
                pos.hand(args["seat"], **args["resources"])
            elif op == "bank":
                pos.bank(**args["resources"])
            elif op == "tokens":
                pos.tokens(args["seat"], **args["tokens"])
            else:
                getattr(pos, EDITS[op][0])(**args)
        except Exception as e:
            err = error_object(e)
            raise ProtocolError(err["code"], f"edits[{k}] ({op}): {err['message']}") from None
    return {"state": ses.add_state(m["game"], pos.state())}


def _query(ses: Session, m: dict) -> Any:
    from catandsl.engine.queries import QUERIES

    fn = QUERIES.get(m["name"])
    if fn is None:
        raise ProtocolError("protocol/unknown_call",
                            f"no query {m['name']!r}; the queries are {', '.join(sorted(QUERIES))}")
    result = fn(ses.state(m["state"]), **m.get("args", {}))
    return {str(k): v for k, v in result.items()} if isinstance(result, dict) else result


def _render(ses: Session, m: dict) -> dict:
    s = ses.state(m["state"])
    try:
        from catandsl.render.state_svg import render_state

        return {"svg": render_state(s.game, s)}
    except ImportError as e:  # drawsvg comes with the cli extra
        raise ProtocolError("engine/unavailable", f"rendering needs the cli extra ({e})") from None


def _close(ses: Session, m: dict) -> dict:
    if "state" in m:
        ses.state(m["state"])
        del ses.states[m["state"]]
    if "game" in m:
        ses.game(m["game"])
        del ses.games[m["game"]]
        ses.observers.pop(m["game"], None)
        for h in [h for h, (gh, _) in ses.states.items() if gh == m["game"]]:
            del ses.states[h]
    return {}


def _quit(ses: Session, m: dict) -> dict:
    ses.done = True
    return {}


HANDLERS: dict[str, Callable[[Session, dict], Any]] = {
    "new_game": _new_game, "actions": _actions, "legal_actions": _legal, "apply": _apply,
    "sample_chance": _sample, "bot_action": _bot_action, "status": _status, "observation": _observation,
    "serialize": _serialize,
    "restore": _restore, "clone": _clone, "position": _position, "query": _query, "render": _render,
    "close": _close, "quit": _quit,
}
assert set(HANDLERS) == set(CALLS)


def serve(stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout) -> int:
    """Answer request lines until end of input or `quit`. Blank lines are skipped; bytes
    that are not UTF-8 become U+FFFD (so the line is an error reply, not the end); a line
    past MAX_LINE is answered `protocol/too_long` and skipped without being held whole."""
    if hasattr(stdin, "reconfigure"):
        stdin.reconfigure(errors="replace")
    ses = Session()
    while not ses.done:
        line = stdin.readline(MAX_LINE + 1)
        if not line:
            break
        if len(line) > MAX_LINE and not line.endswith("\n"):
            while line and not line.endswith("\n"):  # the rest of the long line, in pieces
                line = stdin.readline(MAX_LINE)
            reply = {"id": None, "ok": False, "error": {
                "code": "protocol/too_long", "message": f"a message is at most {MAX_LINE:,} characters"}}
        elif not line.strip():
            continue
        else:
            reply = ses.handle(line)
        stdout.write(json.dumps(reply, separators=(",", ":")) + "\n")
        stdout.flush()
    return 0
