"""Games played in the studio: a person takes one seat, bots the others.

A `Table` holds one game: the Game, its State, the person's seat, the bots, the log
(the entries `play_game` records) and the action ids applied. After every move of the
person, `settle` plays the bots' moves and samples the chance nodes (from the game's
seeded RNG) until the person is to decide or the game is over, so the page only ever
waits for the person. A move the engine refuses raises its `IllegalAction`, and the
state is as it was.

A saved game is JSON: the scenario's reference, the configuration, the seat and bots,
the action ids and the serialized state. Resuming reads the state back through
`game.deserialize_state` (a tampered state is a `StateError`); the actions rebuild
the log when they lead to that very state.
"""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import jsonschema

from catandsl.studio.errors import StudioError
from catandsl.studio.library import Entry, Library
from catandsl.studio.pictures import SiteLayer

MAX_TABLES = 64  # games held at once; the oldest is forgotten first
LOG_SHOWN = 300  # log lines the page gets
SAVE_FORMAT = "catandsl-studio-game"
DRAFT_STEPS = frozenset(("offer_add", "offer_remove", "offer_to", "offer_to_all"))  # the log hides others' drafts
SAVE_VERSION = 1

SAVE_SCHEMA = {
    "type": "object",
    "required": ["format", "version", "scenario", "players", "options", "seed", "seat", "bots", "actions", "state"],
    "additionalProperties": False,
    "properties": {
        "format": {"const": SAVE_FORMAT}, "version": {"const": SAVE_VERSION},
        "scenario": {"type": "string", "maxLength": 1000},
        "title": {"type": "string"},
        "players": {"type": "integer", "minimum": 1, "maximum": 8},
        "options": {"type": "object", "additionalProperties": {"type": "string"}},
        "seed": {"type": "integer", "minimum": 0},
        "seat": {"type": "integer", "minimum": 0},
        "bots": {"type": "array", "items": {"type": "string"}},
        "actions": {"type": "array", "items": {"type": "integer", "minimum": 0}},
        "state": {"type": "string"},
    },
}
_SAVE_VALIDATOR = jsonschema.Draft202012Validator(SAVE_SCHEMA)


def check_save(data: Any) -> dict[str, Any]:
    """A saved game's JSON, or a StudioError naming what is wrong with it."""
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise StudioError("save/format", "not a game saved by catandsl serve")
    errors = sorted(_SAVE_VALIDATOR.iter_errors(data), key=lambda e: list(e.path))
    if errors:
        where = "/".join(str(p) for p in errors[0].path) or "the file"
        raise StudioError("save/shape", f"the saved game is damaged: {where}: {errors[0].message}")
    return data


def _bots(names: list[str], players: int, seat: int, seed: int):
    from catandsl.players import BOTS

    if len(names) != players:
        raise StudioError("request/bots", f"give one bot per seat ({players}), the person's seat too")
    seats: list[Any] = []
    for i, name in enumerate(names):
        if i == seat:
            seats.append(None)
            continue
        if name not in BOTS:
            raise StudioError("request/bots", f"unknown bot {name!r}; bots: {', '.join(BOTS)}")
        seats.append(BOTS[name](seed * 100 + i))  # the seeds `catandsl play` gives its bots
    return seats


class Table:
    def __init__(self, tid: str, entry: Entry, scenario, game, seat: int, bots: list[str], options: dict[str, str],
                 state=None):
        self.id = tid
        self.entry = entry
        self.scenario = scenario
        self.game = game
        self.seat = seat
        self.bot_names = bots
        self.options = options
        self.players = _bots(bots, game.num_players, seat, game.seed)
        self.state = state if state is not None else game.new_initial_state()
        self.entries: list[dict] = []
        self.actions: list[int] = []
        self.lock = threading.Lock()
        self.stopped: dict[str, str] | None = None  # an error that ended the game
        self.notice = ""
        self._sites: dict | None = None
        self.layer = SiteLayer(game.board)  # ids never change, so neither does the layer

    # ---- moves --------------------------------------------------------------------------

    def _apply(self, aid: int, who: int) -> None:
        from catandsl.players.base import logged_apply

        self.entries.append(logged_apply(self.game, self.state, aid, who))
        self.actions.append(aid)

    def settle(self) -> None:
        """Bots' moves and chance outcomes until the person decides or the game ends
        (within the game's own bound on its length)."""
        from catandsl.engine import EngineError

        s = self.state
        try:
            for _ in range(self.game.max_game_length() + 1):
                if s.is_terminal():
                    return
                if s.is_chance_node():
                    self._apply(s.sample_chance(), -1)
                    continue
                who = s.current_player()
                if who == self.seat:
                    return
                self._apply(self.players[who].choose(s), who)
        except EngineError as e:
            self.stopped = {"code": "engine/rule_error", "message": str(e)}

    def act(self, aid: int) -> None:
        """The person's move: an action id, checked by the engine."""
        from catandsl.engine import ArgumentError, EngineError

        if self.stopped is not None:
            raise StudioError("game/stopped", f"the game stopped: {self.stopped['message']}")
        try:
            self.game.check_action_id(aid)
        except ArgumentError as e:
            raise StudioError("action/unknown", str(e)) from None
        if self.state.current_player() != self.seat and not self.state.is_terminal():
            raise StudioError("action/not_your_turn", "wait: it is not your decision")
        if aid not in self.state.legal_actions(self.seat):
            self.state.apply_action(aid, player=self.seat)  # raises the engine's IllegalAction
        try:
            self._apply(aid, self.seat)
        except EngineError as e:
            self.stopped = {"code": "engine/rule_error", "message": str(e)}
            return
        self.settle()

    def click(self, kind: str, at: int) -> None:
        """A click on a board site: its one legal action; several ask which (a
        StudioError listing them, the page offers a choice); none gives the engine's
        reason for the action the click most likely meant."""
        from catandsl.studio.offers import offers, site_actions

        board = self.game.board
        limit = {"hex": len(board.hexes), "intersection": len(board.intersections), "path": len(board.paths)}
        if kind not in limit or not 0 <= at < limit[kind]:
            raise StudioError("site/unknown", f"no {kind} {at} on this board")
        legal = offers(self.state, self.seat)["sites"].get(f"{kind}:{at}", [])
        if len(legal) == 1:
            self.act(legal[0])
            return
        from catandsl.studio.pictures import site_id

        name = f"{kind} {site_id(board, kind, at)}"
        if legal:
            raise StudioError("site/choose", f"{name}: choose one of {len(legal)} actions", actions=legal)
        if self._sites is None:
            self._sites = site_actions(self.game)
        candidates = self._sites.get((kind, at), [])
        if not candidates:
            raise StudioError("site/nothing", f"nothing can ever be done at {name}")
        if self.state.current_player() != self.seat and not self.state.is_terminal():
            raise StudioError("action/not_your_turn", "wait: it is not your decision")
        # the candidate of a kind the player may take somewhere now, else the first
        kinds = {self.game.actions[a].key()[:2] for a in self.state.legal_actions(self.seat)}
        aid = next((a for a in candidates if self.game.actions[a].key()[:2] in kinds), candidates[0])
        self.state.apply_action(aid, player=self.seat)  # not legal: raises the engine's reason
        raise StudioError("studio/internal", "an action the page did not offer was legal")  # pragma: no cover

    # ---- what the page shows ------------------------------------------------------------

    def view(self) -> dict[str, Any]:
        from catandsl.render import palette
        from catandsl.render.state_svg import render_state
        from catandsl.studio.offers import offers, seat_label
        from catandsl.studio.pictures import with_sites

        g, s = self.game, self.state
        on_offer = offers(s, self.seat)
        targets = {(i["site"]["kind"], i["site"]["at"]) for grp in on_offer["groups"] for i in grp["actions"]
                   if "site" in i}
        seen = s.observation(self.seat)
        players = []
        for p in range(g.num_players):
            hand = seen["hands"][p]
            cards = seen["cards"][p]
            players.append({
                "seat": p, "name": seat_label(g, p), "colour": palette.player_colour(p),
                "you": p == self.seat, "bot": None if p == self.seat else self.bot_names[p],
                "points": seen["scores"][p],
                "hand": dict(zip(g.resources, hand)) if isinstance(hand, list) else None,
                "hand_count": sum(hand) if isinstance(hand, list) else hand,
                "cards": ({c.name: n for c, n in zip(g.cards, cards) if n} if isinstance(cards, list) else None),
                "card_count": sum(cards) if isinstance(cards, list) else cards,
                "played": {c.name: n for c, n in zip(g.cards, s.played[p]) if n},
                "awards": [a.title for k, a in enumerate(g.awards) if s.award_holder[k] == p],
                "tokens": {t: n for t, n in zip(g.token_names, s.tokens_held[p]) if n},
            })
        who = s.current_player()
        from catandsl.players.base import log_lines

        lines = log_lines(self.public_entries())
        status = self._status(who)
        return {
            "id": self.id, "ref": self.entry.ref, "title": self.scenario.title, "seat": self.seat,
            "stage": s.stage, "turn": s.turns, "phase": g.phases[s.phase].name if s.stage == "turn" else "",
            "prompt": s.top().KIND if s.pending else s.stage, "to_act": who, "your_move": who == self.seat,
            "over": s.is_terminal(), "winner": s.winner, "winners": list(s.winners), "reason": s.reason,
            "status": status, "players": players, "bank": dict(zip(g.resources, s.bank)),
            "victory": g.victory, "offers": on_offer, "stopped": self.stopped, "notice": self.notice,
            "trade": seen["trade"],
            "log": lines[-LOG_SHOWN:], "log_length": len(lines), "actions_applied": len(self.actions),
            "svg": with_sites(render_state(g, s, title=self.scenario.title), self.layer, targets),
        }

    def public_entries(self) -> list[dict]:
        """The log without another seat's steps on a draft of an offer (a draft is its
        composer's secret till proposed: its items tell what the composer holds)."""
        return [e for e in self.entries if e.get("kind") not in DRAFT_STEPS or e.get("seat") == self.seat]

    def _status(self, who: int) -> str:
        from catandsl.studio.offers import seat_label

        s = self.state
        if self.stopped is not None:
            return f"the game stopped: {self.stopped['message']}"
        if s.is_terminal():
            winners = [s.winner] if s.winner >= 0 else list(s.winners)
            names = " and ".join(seat_label(self.game, p) for p in winners) or "nobody"
            return f"game over: {names} won ({s.reason}) after {s.turns} turns"
        where = f"turn {s.turns}" if s.stage == "turn" else "set-up"
        if who == self.seat:
            return f"{where}: your move ({seat_label(self.game, self.seat)})"
        return f"{where}: {seat_label(self.game, who)} is to act"

    def save(self) -> dict[str, Any]:
        return {"format": SAVE_FORMAT, "version": SAVE_VERSION, "scenario": self.entry.ref,
                "title": self.scenario.title, "players": self.game.num_players, "options": self.options,
                "seed": self.game.seed, "seat": self.seat, "bots": self.bot_names, "actions": list(self.actions),
                "state": self.state.serialize()}


class Tables:
    """The games of one studio, by an unguessable id."""

    def __init__(self, library: Library):
        self.library = library
        self._tables: OrderedDict[str, Table] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, tid: object) -> Table:
        with self._lock:
            table = self._tables.get(tid) if isinstance(tid, str) else None
            if table is None:
                raise StudioError("game/unknown", "no such game (the server forgets games when it restarts)")
            self._tables.move_to_end(table.id)
            return table

    def _add(self, make) -> Table:
        tid = secrets.token_urlsafe(12)
        table = make(tid)
        with self._lock:
            self._tables[tid] = table
            while len(self._tables) > MAX_TABLES:
                self._tables.popitem(last=False)
        return table

    def game_for(self, ref: str, players: int | None, options: dict[str, str], seed: int):
        """(entry, scenario, a new Game) of a reference, or the StudioError of why not."""
        from catandsl.checks import is_library
        from catandsl.engine import new_game

        entry = self.library.resolve(ref)
        scenario, diags, _ = self.library.compiled(entry)
        if scenario is None:
            errors = [d for d in diags if d.is_error]
            raise StudioError("scenario/errors", f"{entry.label} does not compile ({len(errors)} errors): "
                              "open it in the author view", diagnostics=[d.to_json() for d in errors[:20]])
        if is_library(scenario):
            raise StudioError("scenario/library", f"{entry.label} holds rulesets alone: there is no board to play on")
        return entry, scenario, new_game(scenario, players or scenario.players_max, options, seed)

    def new(self, ref: str, players: int | None, options: dict[str, str], seed: int, seat: int,
            bots: str | list[str]) -> Table:
        """A new game; `bots` is one bot's name for every other seat, or a name per seat."""
        entry, scenario, game = self.game_for(ref, players, options, seed)
        if not 0 <= seat < game.num_players:
            raise StudioError("request/seat", f"a seat is 0..{game.num_players - 1}")
        bots = [bots] * game.num_players if isinstance(bots, str) else list(bots)

        def make(tid: str) -> Table:
            t = Table(tid, entry, scenario, game, seat, bots, options)
            t.settle()
            return t

        return self._add(make)

    def read_save(self, data: Any) -> Saved:
        """A saved game checked and read back: its state through `deserialize_state` (a
        tampered one is a StateError), its log when its actions lead to that state."""
        data = check_save(data)
        entry, scenario, game = self.game_for(data["scenario"], data["players"], data["options"], data["seed"])
        if data["players"] != game.num_players or not 0 <= data["seat"] < game.num_players:
            raise StudioError("save/shape", "the saved game's seat or player count is not this scenario's")
        if len(data["actions"]) > game.max_game_length():
            raise StudioError("save/shape", "the saved game has more actions than a game of this scenario can")
        state = game.deserialize_state(data["state"])
        entries, actions = rebuild_log(game, data["actions"], state)
        return Saved(data, entry, scenario, game, state, entries, actions)

    def resume(self, data: Any) -> Table:
        saved = self.read_save(data)

        def make(tid: str) -> Table:
            d = saved.data
            t = Table(tid, saved.entry, saved.scenario, saved.game, d["seat"], d["bots"], d["options"], saved.state)
            t.entries, t.actions = saved.entries, saved.actions
            if not t.actions and d["actions"]:
                t.notice = "the saved actions do not lead to the saved state: the log starts here"
            t.settle()
            return t

        return self._add(make)


@dataclass
class Saved:
    """A saved game read back (Tables.read_save)."""

    data: dict[str, Any]
    entry: Entry
    scenario: Any
    game: Any
    state: Any
    entries: list[dict]  # the log, empty when the actions do not lead to the state
    actions: list[int]


def rebuild_log(game, actions: list[int], state) -> tuple[list[dict], list[int]]:
    """The log of `actions` played from the start when they lead to `state`, else
    nothing."""
    from catandsl.engine import ArgumentError, EngineError, IllegalAction
    from catandsl.players.base import logged_apply

    s = game.new_initial_state()
    entries = []
    try:
        for aid in actions:
            who = -1 if s.is_chance_node() else s.current_player()
            entries.append(logged_apply(game, s, aid, who))
    except (IllegalAction, ArgumentError, EngineError):
        return [], []
    if s.serialize() != state.serialize():
        return [], []
    return entries, list(actions)
