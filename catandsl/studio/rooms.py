"""Hosted games: several people, each from their own browser, and bots in the seats
nobody takes.

A host names the scenario, options, seed and who plays each seat (`human`, or a bot:
`random`, `greedy`, `mcts:N`) and gets one link per seat, one for spectators and one
for themselves. A link is an unguessable token (an HMAC under the studio's key, kept
in the database only as its own HMAC: store.py); the token is
the seat: a move sent with it is that seat's, checked by the engine, so a move out of
turn gets the engine's `IllegalAction` and changes nothing. The host may hand a seat
to a bot (a person who left) or back to a person.

Every applied action is stored as it is applied (store.py); a game not in memory (the
server restarted) is loaded by playing its stored actions again. Bots move one action
at a time (`bot_step`), so the pages can follow them (live.py).

A bot plays as if the server never restarted: its generator is seeded afresh for each
move from the game's seed, its seat and the actions applied before the move
(`bot_seed`), and a game loaded again lets its bots look at the stored moves of their
seats as they were made (`Room.replay`), so what a bot remembers (the offers it made
this turn, the stops its wagon reached) is what it was. A search bot looks at none of
them (each would cost it a whole search): it keeps nothing from move to move but the
offers it made in the turn, so it may make an offer of the current turn again.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import secrets
import threading
from typing import Any

from catandsl.studio.errors import StudioError
from catandsl.studio.library import Library
from catandsl.studio.pictures import SiteLayer
from catandsl.studio.store import HOST, WATCH, Record, Store

HUMAN = "human"
MAX_BUDGET = 2_000  # an mcts bot's search iterations per decision in a hosted game
MAX_ROOMS = 256  # games held in memory at once (the least recently used goes; it loads again from the store)
log = logging.getLogger("catandsl.studio")


def _check_seats(seats: Any, players: int) -> list[str]:
    from catandsl.players import BOT_NAMES, is_bot
    from catandsl.players.mcts import budget_of

    if not isinstance(seats, list) or len(seats) != players or not all(isinstance(s, str) for s in seats):
        raise StudioError("request/seats", f"'seats' names who plays each of the {players} seats: "
                          f"{HUMAN!r} or a bot ({BOT_NAMES})")
    for name in seats:
        if name == HUMAN:
            continue
        if not is_bot(name):
            raise StudioError("request/seats", f"unknown player {name[:40]!r}: {HUMAN!r} or a bot ({BOT_NAMES})")
        budget = budget_of(name)
        if budget is not None and budget > MAX_BUDGET:
            raise StudioError("request/seats", f"a hosted game's search bot thinks at most mcts:{MAX_BUDGET}")
    return list(seats)


def bot_seed(seed: int, seat: int, applied: int) -> int:
    """The seed of a bot's move: fixed by the game's seed, the bot's seat and the
    actions applied before the move, so a game loaded again gives the same move."""
    return int.from_bytes(hashlib.sha256(f"{seed}/{seat}/{applied}".encode()).digest()[:8], "big")


class Room:
    """One hosted game: its state, who plays each seat, its log and its actions."""

    def __init__(self, record: Record, entry, scenario, game, store: Store):
        from catandsl.players import make_bot

        self.id = record.id
        self.record = record
        self.entry, self.scenario, self.game = entry, scenario, game
        self.store = store
        self.seats = list(record.seats)
        self.bots = [None if name == HUMAN else make_bot(name, game.seed * 100 + p)
                     for p, name in enumerate(self.seats)]
        self.state = game.new_initial_state()
        self.entries: list[dict] = []
        self.actions: list[int] = []
        self.lock = threading.Lock()
        self.stopped: dict[str, str] | None = None  # an error that ended the game
        self.version = 0  # grows with every change a page shows
        self.pages = 0  # pages following the game (live.py): a game followed stays in memory
        self.layer = SiteLayer(game.board)
        self._pictures: tuple[int, dict] = (-1, {})  # (version, the board's pictures at it: seat_view)
        self._card: dict[str, Any] | None = None  # the cost card and the terrains' legend

    # ---- moves (each under the room's lock) ----------------------------------------------

    def _apply(self, aid: int, who: int) -> None:
        from catandsl.players.base import logged_apply

        self.entries.append(logged_apply(self.game, self.state, aid, who))
        self.actions.append(aid)
        self.version += 1
        self.store.add_moves(self.id, len(self.actions) - 1, [aid])

    def replay(self, actions: list[int]) -> None:
        """The stored actions played again from the start (a game loaded from the store)."""
        from catandsl.engine import EngineError
        from catandsl.players.base import logged_apply
        from catandsl.players.mcts import MCTSPlayer

        for aid in actions:
            who = -1 if self.state.is_chance_node() else self.state.current_player()
            bot = self.bots[who] if who >= 0 else None
            if bot is not None and not isinstance(bot, MCTSPlayer):
                with contextlib.suppress(EngineError):  # (a bot that cannot choose remembers nothing)
                    self._choice(who)  # what it remembers of its moves, as when it made them
            self.entries.append(logged_apply(self.game, self.state, aid, who))
            self.actions.append(aid)
        self.version = len(self.actions)

    def _choice(self, who: int) -> int:
        """The move of the bot in seat `who` now, from its generator seeded for this move
        (every bot `make_bot` makes draws from its `rng`)."""
        bot: Any = self.bots[who]
        bot.rng.seed(bot_seed(self.game.seed, who, len(self.actions)))
        return bot.choose(self.state)

    def bots_to_move(self) -> bool:
        s = self.state
        if self.stopped is not None or s.is_terminal():
            return False
        return s.is_chance_node() or self.bots[s.current_player()] is not None

    def bot_step(self) -> bool:
        """One chance outcome or one bot's move, if the game waits on one; whether it made one."""
        from catandsl.engine import EngineError

        with self.lock:
            if not self.bots_to_move():
                return False
            s = self.state
            try:
                if s.is_chance_node():
                    self._apply(s.sample_chance(), -1)
                else:
                    who = s.current_player()
                    self._apply(self._choice(who), who)
            except EngineError as e:  # a bot with nothing to choose from (a state no game reaches)
                self.stopped = {"code": "engine/rule_error", "message": str(e)}
                self.version += 1
                return False
            return True

    def act(self, seat: int, aid: Any) -> None:
        """A person's move for `seat`: checked by the engine (IllegalAction, nothing
        changed, when it is not legal for that seat now)."""
        from catandsl.engine import ArgumentError

        if type(aid) is not int:
            raise StudioError("request/field", "'action' is an action id (a whole number)")
        with self.lock:
            self._refuse_if_stopped(seat)
            try:
                self.game.check_action_id(aid)
            except ArgumentError as e:
                raise StudioError("action/unknown", str(e)) from None
            if self.bots[seat] is not None and not self.state.is_terminal():
                raise StudioError("seat/bot", f"a bot ({self.seats[seat]}) plays this seat now: the host can "
                                  "hand it back")
            s = self.state
            if s.is_chance_node() or s.current_player() != seat or aid not in s.legal_actions(seat):
                s.clone().apply_action(aid, player=seat)  # the engine's IllegalAction, on a copy
            self._apply(aid, seat)

    def act_all(self, seat: int, ids: Any) -> None:
        """Several moves of `seat` confirmed at once (the cards of a discard): all tried
        on a copy first, so a refused one changes nothing; then applied together, no
        other move between them."""
        from catandsl.engine import ArgumentError
        from catandsl.studio.play import MAX_BATCH

        if not isinstance(ids, list) or not 1 <= len(ids) <= MAX_BATCH or not all(type(a) is int for a in ids):
            raise StudioError("request/value", f"'actions' holds 1 to {MAX_BATCH} action ids")
        with self.lock:
            self._refuse_if_stopped(seat)
            if self.bots[seat] is not None and not self.state.is_terminal():
                raise StudioError("seat/bot", f"a bot ({self.seats[seat]}) plays this seat now: the host can "
                                  "hand it back")
            trial = self.state.clone()
            for aid in ids:
                try:
                    self.game.check_action_id(aid)
                except ArgumentError as e:
                    raise StudioError("action/unknown", str(e)) from None
                trial.apply_action(aid, player=seat)  # the engine's IllegalAction, on the copy
            for aid in ids:
                self._apply(aid, seat)

    def click(self, seat: int, kind: Any, at: Any) -> None:
        """A click on a board site for `seat`: its one legal action; several ask which
        (a StudioError listing them); none, the engine's reason."""
        from catandsl.studio.offers import offers

        board = self.game.board
        limit = {"hex": len(board.hexes), "intersection": len(board.intersections), "path": len(board.paths)}
        if not isinstance(kind, str) or kind not in limit or type(at) is not int or not 0 <= at < limit[kind]:
            raise StudioError("site/unknown", "no such site on this board")
        with self.lock:
            legal = offers(self.state, seat)["sites"].get(f"{kind}:{at}", [])
        if len(legal) > 1:
            raise StudioError("site/choose", f"{kind}: choose one of {len(legal)} actions", actions=legal)
        if legal:
            self.act(seat, legal[0])
            return
        raise StudioError("site/nothing", f"nothing to do at that {kind} now")

    def _refuse_if_stopped(self, seat: int) -> None:
        if self.stopped is not None:
            raise StudioError("game/stopped", f"the game stopped: {self.stopped['message']}")
        if not 0 <= seat < self.game.num_players:
            raise StudioError("seat/none", "a spectator or the host's link makes no moves: use a seat's link")

    def hand_over(self, seat: Any, player: Any) -> None:
        """The host hands `seat` to a bot, or back to a person (`human`)."""
        from catandsl.players import make_bot

        if type(seat) is not int or not 0 <= seat < self.game.num_players:
            raise StudioError("request/seat", f"a seat is 0..{self.game.num_players - 1}")
        seats = list(self.seats)
        seats[seat] = player
        seats = _check_seats(seats, self.game.num_players)
        with self.lock:
            self.seats = seats
            self.bots[seat] = None if player == HUMAN else make_bot(player, self.game.seed * 100 + seat)
            self.version += 1
            self.store.set_seats(self.id, seats)

    # ---- what a page shows --------------------------------------------------------------

    def _guide(self, seat: int) -> dict[str, Any]:
        """Beside the board (guide.py): the cost card and the terrains (made once), the
        last roll, the moves since the viewer's last (a spectator: the last few), the
        cards the seat chooses together."""
        from catandsl.studio import guide

        if self._card is None:
            self._card = {"costs": guide.costs(self.game), "terrains": guide.terrains(self.game),
                          "resource_colours": guide.resource_colours(self.game)}
        mine = seat >= 0 and self.bots[seat] is None
        card = self._card
        if guide.costs_vary(self.game):
            card = {**card, "costs": guide.costs(self.game, self.state, seat)}
        return {**card, "dice": guide.dice(self.game, self.state, self.entries),
                "recent": guide.recent(self.game, self.entries, seat),
                "by_card": guide.by_card(self.state, seat) if mine and self.stopped is None else None}

    def view(self, viewer: int, online: list[int] | None = None) -> dict[str, Any]:
        """The page of `viewer` (a seat, WATCH, or HOST: the host sees what a spectator does)."""
        from catandsl.rules.words import SPECTATOR
        from catandsl.studio.seat_view import seat_view

        seat = viewer if viewer >= 0 else SPECTATOR
        with self.lock:
            if self._pictures[0] != self.version:
                self._pictures = (self.version, {})
            out = seat_view(self.game, self.state, self.entries, seat, self.scenario.title, self.layer,
                            self.stopped, self._pictures[1])
            out.update(self._guide(seat))
            if viewer >= 0 and self.bots[viewer] is not None:
                out["offers"] = {"groups": [], "sites": {}}
                out["your_move"] = False
            out.update({
                "room": self.id, "version": self.version, "role": "seat" if viewer >= 0 else
                "host" if viewer == HOST else "spectator", "ref": self.entry.ref,
                "seats": [{"seat": p, "player": name, "online": bool(online and online[p])}
                          for p, name in enumerate(self.seats)],
                "actions_applied": len(self.actions),
            })
        for p in out["players"]:
            p["bot"] = None if self.seats[p["seat"]] == HUMAN else self.seats[p["seat"]]
        return out


class Rooms:
    """The hosted games of one studio: made, found by token, loaded from the store."""

    def __init__(self, library: Library, store: Store):
        from collections import OrderedDict

        self.library, self.store = library, store
        self._held: OrderedDict[str, Room] = OrderedDict()
        self._lock = threading.Lock()

    def _build(self, record: Record) -> Room:
        from catandsl.studio.play import Matches

        entry, scenario, game = Matches(self.library).game_for(record.ref, record.players, record.options,
                                                              record.seed)
        return Room(record, entry, scenario, game, self.store)

    def create(self, ref: str, players: int | None, options: dict[str, str], seed: int, seats: Any) -> dict:
        """A new game: its id and its tokens (`host`, `watch`, and one per seat)."""
        from catandsl.studio.play import Matches

        _, _, game = Matches(self.library).game_for(ref, players, options, seed)
        seats = _check_seats(seats, game.num_players)
        record = Record(secrets.token_urlsafe(12), ref, game.num_players, dict(options), seed, seats, [])
        room = self._build(record)
        by_seat = self.store.create(record, [HOST, WATCH, *range(game.num_players)])
        self._keep(room)
        return {"id": record.id, "host": by_seat[HOST], "watch": by_seat[WATCH],
                "seats": [{"seat": p, "player": seats[p], "token": by_seat[p]} for p in range(game.num_players)]}

    def _keep(self, room: Room) -> None:
        with self._lock:
            self._held[room.id] = room
            self._held.move_to_end(room.id)
            # the least recently used game nobody follows goes (one followed stays: its
            # pages hold it, and a second copy loaded from the store would fork it)
            idle = [gid for gid, r in self._held.items() if not r.pages]
            for gid in idle[:max(0, len(self._held) - MAX_ROOMS)]:
                del self._held[gid]

    def find(self, token: Any) -> tuple[Room, int]:
        """(the room, the seat) of a token: a seat, WATCH or HOST."""
        found = self.store.token(token) if isinstance(token, str) and 16 <= len(token) <= 64 else None
        if found is None:
            raise StudioError("room/unknown", "no game has this link (check it is copied whole)")
        gid, seat = found
        with self._lock:
            room = self._held.get(gid)
            if room is not None:
                self._held.move_to_end(gid)
                return room, seat
        record = self.store.load(gid)
        if record is None:  # pragma: no cover - a token's game is stored with it
            raise StudioError("room/unknown", "no game has this link")
        room = self._build(record)
        try:
            room.replay(record.actions)
        except Exception as e:  # noqa: BLE001 - the stored actions no longer play (the scenario changed)
            log.warning("a stored game that does not replay", exc_info=e)
            raise StudioError("room/replay", "the stored game no longer replays: its scenario file changed "
                              f"({type(e).__name__})") from None
        with self._lock:
            room = self._held.setdefault(gid, room)  # another request may have loaded it meanwhile
        self._keep(room)
        return room, seat

    def links(self, room: Room) -> dict[str, Any]:
        """What the host's page lists: each seat's token, the spectators' token."""
        tokens = self.store.tokens(room.id)
        return {"watch": tokens.get(WATCH), "seats": [{"seat": p, "player": room.seats[p], "token": tokens.get(p)}
                                                      for p in range(room.game.num_players)]}
