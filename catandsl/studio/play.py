"""Games played in the studio: a person takes one seat, bots the others.

A `Match` holds one game: the Game, its State, the person's seat, the bots, the log
(the entries `play_game` records) and the action ids applied. After every move of the
person, `settle` plays the bots' moves and samples the chance nodes (from the game's
seeded RNG) until the person is to decide or the game is over, so the page only ever
waits for the person. A move the engine refuses raises its `IllegalAction`, and the
state is as it was.

One request plays at most `BOT_MOVES` bots' moves and chance outcomes; a game whose
bots have more to play says so (`bots_moving`), and the next request on it plays on.

A saved game is JSON: the scenario's reference, the configuration, the seat and bots,
the action ids and the serialized state. Resuming reads the state back through
`game.deserialize_state` (a tampered state is a `StateError`) and checks that someone
can move in it before any bot does; the actions rebuild the log when they lead to that
very state. Whatever else a save makes the engine raise is a typed `save/state`.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from typing import Any

import jsonschema

from catandsl.studio.errors import StudioError
from catandsl.studio.library import Entry, Library
from catandsl.studio.pictures import SiteLayer

MAX_MATCHES = 64  # games held at once (the least recently used of the client holding most goes first)
MATCHES_PER_CLIENT = 16  # games one client holds (its own least recently used goes first)
MAX_SAVED_ACTIONS = 200_000  # the actions of a saved game (the longest game of a shipped scenario has ~100,400)
BOT_MOVES = 2_000  # bots' moves and chance outcomes one request plays (a round of eight seats is far fewer)
LOG_SHOWN = 300  # log lines the page gets
MAX_BATCH = 64  # moves confirmed at once (a discard of half a hand)
log = logging.getLogger("catandsl.studio")
SAVE_FORMAT = "catandsl-studio-game"
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
        "options": {"type": "object", "maxProperties": 64, "additionalProperties": {"type": "string"}},
        "seed": {"type": "integer", "minimum": 0},
        "seat": {"type": "integer", "minimum": 0},
        "bots": {"type": "array", "maxItems": 8, "items": {"type": "string", "maxLength": 100}},
        "actions": {"type": "array", "maxItems": MAX_SAVED_ACTIONS},  # each an id: checked in check_save
        "state": {"type": "string"},
    },
}
_SAVE_VALIDATOR = jsonschema.Draft202012Validator(SAVE_SCHEMA)


def check_save(data: Any) -> dict[str, Any]:
    """A saved game's JSON, or a StudioError naming what is wrong with it."""
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise StudioError("save/format", "not a game saved by catandsl serve")
    # the first error only: the bounds come before anything checked item by item
    error = next(_SAVE_VALIDATOR.iter_errors(data), None)
    if error is not None:
        where = "/".join(str(p) for p in error.path) or "the file"
        raise StudioError("save/shape", f"the saved game is damaged: {where}: {error.message[:200]}")
    if not all(type(a) is int and a >= 0 for a in data["actions"]):  # faster than the schema, item by item
        raise StudioError("save/shape", "the saved game is damaged: actions: each is an action id (a whole number)")
    return data


def _bots(names: list[str], players: int, seat: int, seed: int):
    from catandsl.players import BOT_NAMES, is_bot, make_bot

    if len(names) != players:
        raise StudioError("request/bots", f"give one bot per seat ({players}), the person's seat too")
    seats: list[Any] = []
    for i, name in enumerate(names):
        if i == seat:
            seats.append(None)
            continue
        if not isinstance(name, str) or not is_bot(name):
            raise StudioError("request/bots", f"unknown bot {name!r}; bots: {BOT_NAMES}")
        seats.append(make_bot(name, seed * 100 + i))  # the seeds `catandsl play` gives its bots
    return seats


class Match:
    """One game in the studio: the person's seat, the bots, the state and the log."""

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
        self.bots_moving = False  # the bots have moves left that the last request did not play
        self.notice = ""
        self._sites: dict | None = None
        self._card: dict[str, Any] | None = None  # the cost card and the terrains' legend
        self.layer = SiteLayer(game.board, ids=False)  # ids never change, so neither does the layer

    # ---- moves --------------------------------------------------------------------------

    def _apply(self, aid: int, who: int) -> None:
        from catandsl.players.base import logged_apply

        self.entries.append(logged_apply(self.game, self.state, aid, who))
        self.actions.append(aid)

    def settle(self) -> None:
        """Bots' moves and chance outcomes until the person decides or the game ends, at
        most BOT_MOVES of them: the rest wait for the next request (`bots_moving`)."""
        from catandsl.engine import EngineError

        s = self.state
        self.bots_moving = False
        if self.stopped is not None:
            return
        try:
            for moves in range(BOT_MOVES + 1):
                if s.is_terminal():
                    return
                chance = s.is_chance_node()
                who = -1 if chance else s.current_player()
                if who == self.seat:
                    return
                if moves == BOT_MOVES:
                    self.bots_moving = True
                    return
                self._apply(s.sample_chance() if chance else self.players[who].choose(s), who)
        except EngineError as e:  # a bot with nothing to choose from too (NoLegalAction)
            self.stopped = {"code": "engine/rule_error", "message": str(e)}

    def catch_up(self) -> None:
        """Before a request reads or moves: the bots' moves a previous request left."""
        if self.bots_moving:
            self.settle()

    def act(self, aid: int) -> None:
        """The person's move: an action id, checked by the engine."""
        from catandsl.engine import ArgumentError, EngineError

        if self.stopped is not None:
            raise StudioError("game/stopped", f"the game stopped: {self.stopped['message']}")
        if self.bots_moving:
            raise StudioError("action/not_your_turn", "wait: the bots are still moving")
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

    def act_all(self, ids: list[int]) -> None:
        """Several moves of the person confirmed at once (the cards of a discard): each
        is tried on a copy first, so a refused one leaves the game as it was."""
        from catandsl.engine import ArgumentError

        if not 1 <= len(ids) <= MAX_BATCH:
            raise StudioError("request/value", f"'actions' holds 1 to {MAX_BATCH} action ids")
        if self.stopped is not None:
            raise StudioError("game/stopped", f"the game stopped: {self.stopped['message']}")
        if self.bots_moving or self.state.is_terminal() or self.state.current_player() != self.seat:
            raise StudioError("action/not_your_turn", "wait: it is not your decision")
        trial = self.state.clone()
        for aid in ids:
            try:
                self.game.check_action_id(aid)
            except ArgumentError as e:
                raise StudioError("action/unknown", str(e)) from None
            if trial.current_player() != self.seat:
                raise StudioError("action/not_your_turn", "the moves go past your decision")
            trial.apply_action(aid, player=self.seat)  # raises the engine's IllegalAction
        for aid in ids:
            self.act(aid)

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
        from catandsl.studio.guide import collapsed

        lines = collapsed(log_lines(self.public_entries()))
        status = self._status(who)
        return {
            "id": self.id, "ref": self.entry.ref, "title": self.scenario.title, "seat": self.seat,
            "stage": s.stage, "turn": s.turns, "phase": g.phases[s.phase].name if s.stage == "turn" else "",
            "prompt": s.top().KIND if s.pending else s.stage, "to_act": who, "your_move": who == self.seat,
            "over": s.is_terminal(), "winner": s.winner, "winners": list(s.winners), "reason": s.reason,
            "status": status, "players": players, "bank": dict(zip(g.resources, s.bank)),
            "victory": g.victory, "offers": on_offer, "stopped": self.stopped, "notice": self.notice,
            "bots_moving": self.bots_moving,
            "trade": seen["trade"],
            "log": lines[-LOG_SHOWN:], "log_length": len(lines), "actions_applied": len(self.actions),
            "svg": with_sites(render_state(g, s, title=self.scenario.title, viewer=self.seat), self.layer, targets),
            **self._guide(),
        }

    def _guide(self) -> dict[str, Any]:
        """What the page shows beside the board (guide.py): the cost card and the
        terrains' legend (drawn once per game), the dice, the moves since the person's
        last, the cards to choose together."""
        from catandsl.studio import guide

        if self._card is None:
            self._card = {"costs": guide.costs(self.game), "terrains": guide.terrains(self.game),
                          "resource_colours": guide.resource_colours(self.game)}
        card = self._card
        if guide.costs_vary(self.game):
            card = {**card, "costs": guide.costs(self.game, self.state, self.seat)}
        return {**card, "dice": guide.dice(self.game, self.state, self.entries),
                "recent": guide.recent(self.game, self.entries, self.seat),
                "by_card": guide.by_card(self.state, self.seat)}

    def public_entries(self) -> list[dict]:
        """The log as the person's seat reads it: another seat's secrets (the card it
        drew, what it stole, its draft of an offer) in veiled words."""
        from catandsl.players.base import entry_as_read

        return [entry_as_read(e, self.seat) for e in self.entries]

    def _status(self, who: int) -> str:
        from catandsl.studio.offers import seat_label

        s = self.state
        if self.stopped is not None:
            return f"the game stopped: {self.stopped['message']}"
        if self.bots_moving:
            return "the bots are moving"
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


class Matches:
    """The games of one studio, by an unguessable id, held for their clients."""

    def __init__(self, library: Library):
        from catandsl.studio.clients import Holdings

        self.library = library
        self.held: Holdings[Match] = Holdings(MAX_MATCHES, MATCHES_PER_CLIENT, (
            "game/unknown", "no such game (the server forgets games when it restarts, or when their client "
            f"holds more than {MATCHES_PER_CLIENT})"))

    def get(self, tid: object) -> Match:
        return self.held.get(tid)

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
            bots: str | list[str]) -> Match:
        """A new game; `bots` is one bot's name for every other seat, or a name per seat."""
        entry, scenario, game = self.game_for(ref, players, options, seed)
        if not 0 <= seat < game.num_players:
            raise StudioError("request/seat", f"a seat is 0..{game.num_players - 1}")
        bots = [bots] * game.num_players if isinstance(bots, str) else list(bots)

        def make(tid: str) -> Match:
            t = Match(tid, entry, scenario, game, seat, bots, options)
            t.settle()
            return t

        return self.held.add(make)

    def read_save(self, data: Any) -> Saved:
        """A saved game checked and read back: its state through `deserialize_state` (a
        tampered one is a StateError), its log when its actions lead to that state."""
        data = check_save(data)
        entry, scenario, game = self.game_for(data["scenario"], data["players"], data["options"], data["seed"])
        if data["players"] != game.num_players or not 0 <= data["seat"] < game.num_players:
            raise StudioError("save/shape", "the saved game's seat or player count is not this scenario's")
        if len(data["actions"]) > game.max_game_length():
            raise StudioError("save/shape", "the saved game has more actions than a game of this scenario can")
        try:
            state = game.deserialize_state(data["state"])
            check_playable(state)
            entries, actions = rebuild_log(game, data["actions"], state)
        except StudioError:
            raise
        except Exception as e:  # noqa: BLE001 - whatever a save makes the engine raise is the save's fault
            from catandsl.studio.errors import is_typed

            if is_typed(e):
                raise
            log.warning("a saved game the engine could not read", exc_info=e)
            raise StudioError("save/state", f"the saved state cannot be played ({type(e).__name__})") from None
        return Saved(data, entry, scenario, game, state, entries, actions)

    def resume(self, data: Any) -> Match:
        saved = self.read_save(data)

        def make(tid: str) -> Match:
            d = saved.data
            t = Match(tid, saved.entry, saved.scenario, saved.game, d["seat"], d["bots"], d["options"], saved.state)
            t.entries, t.actions = saved.entries, saved.actions
            if not t.actions and d["actions"]:
                t.notice = "the saved actions do not lead to the saved state: the log starts here"
            t.settle()
            return t

        return self.held.add(make)


@dataclass
class Saved:
    """A saved game read back (Matches.read_save)."""

    data: dict[str, Any]
    entry: Entry
    scenario: Any
    game: Any
    state: Any
    entries: list[dict]  # the log, empty when the actions do not lead to the state
    actions: list[int]


def check_playable(state) -> None:
    """Refuse a state in which nothing can happen: not over, not a chance node with
    outcomes, and no legal action for the seat to move."""
    if state.is_terminal():
        return
    if state.is_chance_node():
        if not state.chance_outcomes():
            raise StudioError("save/state", "the saved state waits on chance with no outcome")
        return
    if not state.legal_actions():
        raise StudioError("save/state", f"in the saved state P{state.current_player() + 1} is to move "
                          "and has no legal action: no game reaches it")


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
