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
import logging
import sys
from collections.abc import Callable
from typing import Any, TextIO

import jsonschema

log = logging.getLogger("catandsl.engine")
MAX_LINE = 4 << 20  # a serialized state or compiled scenario is far smaller
MAX_HANDLES = 100_000
# Bounds on what one message holds, checked as it is read, before any work: past one,
# the reply is `protocol/too_large`. Each is far above what a real request needs.
MAX_VALUES = 100_000  # JSON values in a message (a shipped scenario's compiled JSON has under 8,000)
MAX_EDITS = 2_000  # edits in one `position` call (a piece on every site of a large board is fewer)
MAX_SITES = 1_000  # sites in one `neutral` edit
MAX_NAMES = 256  # entries of one object of counts (`hand`, `bank`, `tokens`, `cards`)
MAX_OPTIONS = 64  # option choices in one `new_game`
MAX_ARGS = 16  # arguments of one `query`
_SIZES = ("maxItems", "maxProperties")  # the schema's bounds: a failure is too_large

INT = {"type": "integer"}
HANDLE = {"type": "integer", "minimum": 1}
# Each schema names its bound (maxItems, maxProperties) before what it checks item by
# item: the first error is the one reported, so a list past its bound costs nothing.
SITE = {"oneOf": [{"type": "integer", "minimum": 0}, {"type": "array", "maxItems": 3, "minItems": 2,
                                                       "items": {"type": ["integer", "string"]}}]}
COUNTS = {"type": "object", "maxProperties": MAX_NAMES, "additionalProperties": {"type": "integer", "minimum": 0}}
ACTION = {"oneOf": [{"type": "integer", "minimum": 0}, {"type": "object", "required": ["kind"]}]}

# Position edits: op -> (the builder's method, its fields' schema, required fields).
EDITS: dict[str, tuple[str, dict[str, Any], list[str]]] = {
    "place": ("place", {"seat": INT, "piece": {"type": "string"}, "at": SITE, "pay": {"type": "boolean"},
                        "rules": {"type": "boolean"}}, ["seat", "piece", "at"]),
    "remove": ("remove", {"piece": {"type": "string"}, "at": SITE}, ["piece", "at"]),
    "neutral": ("neutral", {"piece": {"type": "string"}, "sites": {"type": "array", "maxItems": MAX_SITES,
                                                                   "items": SITE}}, ["piece"]),
    "hand": ("hand", {"seat": INT, "resources": COUNTS}, ["seat", "resources"]),
    "bank": ("bank", {"resources": COUNTS}, ["resources"]),
    "tokens": ("tokens", {"seat": INT, "tokens": COUNTS}, ["seat", "tokens"]),
    "cards": ("cards", {"seat": INT, "held": COUNTS, "bought": COUNTS, "played": COUNTS}, ["seat"]),
    "turn": ("turn", {"seat": INT, "turns": {"type": "integer", "minimum": 0},
                      "phase": {"type": ["string", "integer"]}, "rolled": {"type": "boolean"}}, ["seat"]),
    "reach_sites": ("reach_sites", {}, []),
}

EDIT_VARIANTS = {op: {"type": "object", "properties": {"op": {"const": op}, **props},
                      "required": ["op", *req], "additionalProperties": False}
                 for op, (_, props, req) in sorted(EDITS.items())}
EDIT_SCHEMA = {"oneOf": list(EDIT_VARIANTS.values())}

# call -> (its fields' schema, required fields, what it does)
CALLS: dict[str, tuple[dict[str, Any], list[str], str]] = {
    "new_game": ({"scenario": {"type": "string"}, "path": {"type": "string"}, "ir": {"type": "object"},
                  "players": {"type": "integer", "minimum": 1}, "options": {
                      "type": "object", "maxProperties": MAX_OPTIONS, "additionalProperties": {"type": "string"}},
                  "seed": INT}, [],
                 "a game from a shipped scenario's name, a .catan path or compiled IR JSON, and its first state"),
    "actions": ({"game": HANDLE}, ["game"], "the game's action table: each action's JSON form, by id"),
    "legal_actions": ({"state": HANDLE}, ["state"], "who acts, the legal ids, and chance outcomes with probabilities"),
    "apply": ({"state": HANDLE, "action": ACTION}, ["state", "action"], "apply an action id or an action's JSON"),
    "describe": ({"state": HANDLE, "action": ACTION, "viewer": INT}, ["state", "action"],
                 "an action in rulebook words, as taken in the state: `text` a button's words, `event` the "
                 "sentence for its taker; as `viewer` (a seat, -1 a spectator; left out: everyone) may read them"),
    "sample_chance": ({"state": HANDLE}, ["state"], "the seeded chance outcome at a chance node"),
    "bot_action": ({"state": HANDLE, "bot": {"type": "string"}, "seed": INT}, ["state", "bot"],
                   "the action a bot (random, greedy, mcts, mcts:N) takes for the player to act, seeded"),
    "status": ({"state": HANDLE}, ["state"], "stage, turn, current player, scores, winner, reason"),
    "observation": ({"state": HANDLE, "player": INT, "tensor": {"type": "boolean"}}, ["state", "player"],
                    "what a player may see; with tensor, the Observer's numbers, slices and the legal mask"),
    "serialize": ({"state": HANDLE}, ["state"], "the state's JSON text (docs/state.schema.json)"),
    "restore": ({"game": HANDLE, "text": {"type": "string"}}, ["game", "text"], "a state from serialize's text"),
    "clone": ({"state": HANDLE}, ["state"], "an independent copy under a new handle"),
    "position": ({"game": HANDLE, "state": HANDLE, "edits": {"type": "array", "maxItems": MAX_EDITS,
                                                              "items": EDIT_SCHEMA}},
                 ["game", "edits"], "a position built by edits from the blank first turn (or a copy of state)"),
    "query": ({"state": HANDLE, "name": {"type": "string"}, "args": {"type": "object", "maxProperties": MAX_ARGS}},
              ["state", "name"],
              "one of the queries of catandsl.queries, with its arguments by name"),
    "render": ({"state": HANDLE}, ["state"], "the state as SVG (needs the cli extra)"),
    "close": ({"game": HANDLE, "state": HANDLE}, [], "forget a state, or a game and its states"),
    "quit": ({}, [], "end the session"),
}


class ProtocolError(Exception):
    """A request the protocol refuses: a code, a message and what else the answer says."""

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
                                   "message": {"type": "string"}, "diagnostics": {"type": "array"},
                                   "ref": {"type": "string", "description": "engine/internal: the reference "
                                           "the engine's log gives with the traceback"}}}},
                 "required": ["id", "ok", "error"], "additionalProperties": False}]}


# What a message is checked against: the published schema, but an edit is checked by
# its own op's schema (in _position), not by trying each of `oneOf` in turn.
_EDIT_OP = {"type": "object", "required": ["op"], "properties": {"op": {"enum": sorted(EDITS)}}}
_CHECKED = {call: {**props, "edits": {**props["edits"], "items": _EDIT_OP}} if call == "position" else props
            for call, (props, _, _) in CALLS.items()}
_VALIDATORS = {call: jsonschema.Draft202012Validator(
    {"type": "object", "properties": {"id": {}, "call": {"const": call}, **_CHECKED[call]},
     "required": ["call", *required], "additionalProperties": False})
    for call, (_, required, _) in CALLS.items()}
_EDIT_VALIDATORS = {op: jsonschema.Draft202012Validator(schema) for op, schema in EDIT_VARIANTS.items()}


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
            if isinstance(mid, (list, dict)):
                mid = None  # an id is a number or a string: never echo a structure
            _check_size(msg)
            call = msg.get("call")
            if not isinstance(call, str) or call not in CALLS:
                raise ProtocolError("protocol/unknown_call",
                                    f"no call {call if not isinstance(call, str) else call[:60]!r}; "
                                    f"the calls are {', '.join(sorted(CALLS))}")
            _check_schema(_VALIDATORS[call], msg, call)
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


def _check_size(msg: Any) -> None:
    """Refuse a message of more than MAX_VALUES JSON values."""
    if not values_within(msg, MAX_VALUES):
        raise ProtocolError("protocol/too_large", f"a message holds at most {MAX_VALUES:,} JSON values")


def values_within(data: Any, limit: int) -> bool:
    """Whether parsed JSON holds at most `limit` values (an object's keys counted),
    counting as it walks: a million keys cost a walk of `limit`, never more."""
    todo, seen = [data], 1
    while todo:
        value = todo.pop()
        if isinstance(value, dict):
            seen += 2 * len(value)
            children: Any = value.values()
        elif isinstance(value, list):
            seen += len(value)
            children = value
        else:
            continue
        if seen > limit:
            return False
        todo.extend(children)
    return True


def _check_schema(validator: jsonschema.Draft202012Validator, value: Any, call: str, within: tuple = ()) -> None:
    """The first error of `value` as a ProtocolError: a bound passed is `protocol/too_large`,
    anything else `protocol/message`. Only the first: each schema puts its bounds before
    what it checks item by item, so a list past its bound is refused before its items are
    looked at."""
    first = next(validator.iter_errors(value), None)
    if first is None:
        return
    at = f"{call}: " + ("/".join(str(p) for p in (*within, *first.path)) or "message")
    if _is_size(first):
        raise ProtocolError("protocol/too_large", f"{at}: past the bound ({first.validator} {first.validator_value})")
    raise ProtocolError("protocol/message", f"{at}: {first.message[:300]}")


def _is_size(error: jsonschema.ValidationError) -> bool:
    """A schema failure that is one of the message's bounds (`maxItems`, ...), here or
    inside the variant of a `oneOf` that fits."""
    return error.validator in _SIZES or any(_is_size(e) for e in error.context or ())


def error_object(e: Exception) -> dict[str, Any]:
    """A typed error object for anything a call raised: the caller's mistake in its own
    code, anything else `engine/internal` with a reference the log also gives."""
    return known_error(e) or internal_error(e)


def internal_error(e: BaseException, code: str = "engine/internal", logger: logging.Logger = log) -> dict[str, Any]:
    """The error object of an exception no caller can cause (a bug in catandsl): a fresh
    reference in the message and in the log line that holds the traceback."""
    import secrets

    ref = secrets.token_hex(6)
    logger.error("internal error %s", ref, exc_info=e)
    return {"code": code, "ref": ref,
            "message": f"internal error {ref} ({type(e).__name__}): a bug in catandsl, not in the request; "
                       "please report it with this reference and the log around it"}


def known_error(e: Exception) -> dict[str, Any] | None:
    """The error object of an exception a caller can cause, or None."""
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
    return None


# ---- the calls -------------------------------------------------------------------------


def _call(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """`fn(*args, **kwargs)`, arguments that do not fit its parameters (a name it lacks,
    one given twice) refused as `argument/invalid` before it runs."""
    import inspect

    whole = getattr(fn, "__func__", fn)  # a method's own `self` too: a name `self` given twice
    bound = (fn.__self__,) if whole is not fn else ()  # type: ignore[attr-defined]
    try:
        signature = inspect.signature(whole)
    except ValueError:  # a compiled function (the compiled build) shows no signature
        signature = None
    if signature is not None:
        try:
            signature.bind(*bound, *args, **kwargs)
        except TypeError as e:
            raise ProtocolError("argument/invalid", str(e)) from None
        return fn(*args, **kwargs)
    try:
        return fn(*args, **kwargs)
    except TypeError as e:
        # refused by the call's own binding of its arguments, before its body ran: no
        # frame of the callee in the traceback (an error inside it adds one)
        tb = e.__traceback__
        if tb is not None and tb.tb_next is None:
            raise ProtocolError("argument/invalid", str(e)) from None
        raise


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
    s = ses.state(m["state"])
    a = m["action"]
    if isinstance(a, dict):
        a = _action_of(a)
    s.apply_action(a)
    return {"player": s.current_player(), "terminal": s.is_terminal()}


def _describe(ses: Session, m: dict) -> dict:
    from catandsl.rules.words import describe, describe_event

    s = ses.state(m["state"])
    g = s.game
    a = m["action"]
    aid = g.action_id_of(_action_of(a)) if isinstance(a, dict) else g.check_action_id(a)
    viewer = m.get("viewer")
    if viewer is not None and viewer != -1:
        g.check_seat(viewer, "describe")
    actor = -1 if s.is_terminal() else s.turn_player if s.is_chance_node() else s.current_player()
    return {"text": describe(g, aid, viewer, state=s, actor=actor),
            "event": describe_event(g, aid, actor, viewer, state=s)}


def _action_of(data: dict) -> Any:
    """An action from its JSON form, or the protocol's typed error."""
    from catandsl.engine.actions import action_from_json

    try:
        return action_from_json(data)
    except ValueError as e:  # its way of saying the JSON is no action
        raise ProtocolError("argument/invalid", str(e)) from None


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
    from catandsl.engine.queries import winners

    s = ses.state(m["state"])
    return {"stage": s.stage, "turn": s.turns, "turn_player": s.turn_player, "player": s.current_player(),
            "terminal": s.is_terminal(), "scores": s.scores(), "winner": s.winner, "winners": winners(s),
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
    for k, edit in enumerate(m["edits"]):
        _check_schema(_EDIT_VALIDATORS[edit["op"]], edit, "position", ("edits", k))
    pos = Position(g, base)
    for k, edit in enumerate(m["edits"]):
        op = edit["op"]
        args: dict[str, Any] = {f: (tuple(v) if f == "at" and isinstance(v, list) else v)
                                for f, v in edit.items() if f != "op"}
        try:
            if op == "neutral":
                _call(pos.neutral, args["piece"], *[tuple(v) if isinstance(v, list) else v
                                                    for v in args.get("sites", [])])
            elif op == "hand":
                _call(pos.hand, args["seat"], **args["resources"])
            elif op == "bank":
                _call(pos.bank, **args["resources"])
            elif op == "tokens":
                _call(pos.tokens, args["seat"], **args["tokens"])
            else:
                _call(getattr(pos, EDITS[op][0]), **args)
        except Exception as e:
            err = known_error(e)
            if err is None:
                raise
            raise ProtocolError(err["code"], f"edits[{k}] ({op}): {err['message']}") from None
    return {"state": ses.add_state(m["game"], pos.state())}


def _query(ses: Session, m: dict) -> Any:
    from catandsl.engine.queries import QUERIES

    fn = QUERIES.get(m["name"])
    if fn is None:
        raise ProtocolError("protocol/unknown_call",
                            f"no query {m['name']!r}; the queries are {', '.join(sorted(QUERIES))}")
    result = _call(fn, ses.state(m["state"]), **m.get("args", {}))
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
    "new_game": _new_game, "actions": _actions, "legal_actions": _legal, "apply": _apply, "describe": _describe,
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
