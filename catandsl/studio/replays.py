"""Replays: a game's actions, stepped through one action at a time.

A replay is made from a game saved by the studio (its action ids) or from the readable
log `catandsl play --log` writes, given the scenario and the game's configuration
(players, options, seed: the log does not say them). A log line is matched to the one
action that, applied where the game stands, is described by that very line and its
notes (`players.base.describe`, the function that wrote the log), so the log needs no
ids; a line no action matches is an error naming that line.

A replay is read by a viewer (`rules.words`): the seat of the person who played a
studio game, whose replay shows the other seats' hands and cards as counts, their
points as the others see them and the log in veiled words, as the game's own page
does; `EVERYONE` for a saved game or a log, whose file holds every secret already.

States are kept every `CHECKPOINT` steps, so any step is a few actions from one.
Matching a log tries at most `MAX_TRIALS` actions in all (each a copy of the state and
one move), so a log no game matches costs a bounded amount of work (`log/too_costly`).
"""

from __future__ import annotations

import re
from typing import Any

from catandsl.rules.words import EVERYONE
from catandsl.studio.errors import StudioError
from catandsl.studio.pictures import SiteLayer

CHECKPOINT = 32
MAX_REPLAYS = 32  # held at once (the least recently used of the client holding most goes first)
REPLAYS_PER_CLIENT = 8
MAX_TRIALS = 200_000  # actions tried to match one log (a long game of ~600 actions tries a few thousand)
LOG_INDENT = "      "  # how log_lines indents notes
_SEAT = re.compile(r"\bP(\d+)\b")


class Replay:
    """A recorded game the studio steps through, with checkpoints along it."""

    def __init__(self, rid: str, title: str, game, actions: list[int], entries: list[dict],
                 viewer: int | None = EVERYONE):
        self.id, self.title, self.game = rid, title, game
        self.actions, self.entries = actions, entries
        self.viewer = viewer
        self.checkpoints: dict[int, Any] = {}
        self.layer = SiteLayer(game.board, ids=False)
        s = game.new_initial_state()
        self.turn_starts: list[list[int]] = []  # [turn, the step that starts it]
        for k, aid in enumerate(actions):
            if k % CHECKPOINT == 0:
                self.checkpoints[k] = s.clone()
            s.apply_action(aid)
            if s.stage == "turn" and (not self.turn_starts or self.turn_starts[-1][0] != s.turns):
                self.turn_starts.append([s.turns, k + 1])
        self.final = s
        self.checkpoints[len(actions)] = s.clone()

    def state_at(self, k: int):
        base = max(c for c in self.checkpoints if c <= k)
        s = self.checkpoints[base].clone()
        for aid in self.actions[base:k]:
            s.apply_action(aid)
        return s

    def frame(self, k: int) -> dict[str, Any]:
        from catandsl.players.base import entry_as_read, entry_line, seat_label
        from catandsl.render import palette
        from catandsl.render.snapshot import reads, seen_scores
        from catandsl.render.state_svg import render_state
        from catandsl.studio.pictures import with_sites

        n = len(self.actions)
        if not 0 <= k <= n:
            raise StudioError("replay/step", f"a step is 0..{n}")
        g = self.game
        s = self.state_at(k)
        v = self.viewer
        points = seen_scores(s, v)
        players = [{"seat": p, "name": seat_label(g, p), "colour": palette.player_colour(p), "points": points[p],
                    "hand": dict(zip(g.resources, s.hands[p])) if reads(v, p) else None,
                    "hand_count": sum(s.hands[p]),
                    "cards": {c.name: n for c, n in zip(g.cards, s.cards[p]) if n} if reads(v, p) else None,
                    "card_count": sum(s.cards[p]),
                    "played": {c.name: n for c, n in zip(g.cards, s.played[p]) if n},
                    "awards": [a.title for j, a in enumerate(g.awards) if s.award_holder[j] == p]}
                   for p in range(g.num_players)]
        recent = []
        for e in self.entries[max(0, k - 12):k]:
            recent.append(entry_line(entry_as_read(e, v)))
            recent.extend(LOG_INDENT + note for note in e.get("notes", ()))
        out = {"id": self.id, "title": self.title, "step": k, "steps": n, "turn": s.turns, "stage": s.stage,
               "players": players, "log": recent, "turns": self.turn_starts,
               "svg": with_sites(render_state(g, s, title=self.title, viewer=v), self.layer), "result": None}
        if k == n:
            out["result"] = result_line(g, s, v)
        return out


def result_line(game, s, viewer: int | None = EVERYONE) -> str:
    from catandsl.players.base import seat_label
    from catandsl.render.snapshot import seen_scores

    if not s.is_terminal():
        return f"the game stops here, unfinished, in turn {s.turns}"
    winners = [s.winner] if s.winner >= 0 else list(s.winners)
    who = " and ".join(seat_label(game, p) for p in winners) or "none"
    scores = ", ".join(f"{seat_label(game, p)} {v}" for p, v in enumerate(seen_scores(s, viewer)))
    return f"winner: {who} ({s.reason}) after {s.turns} turns; scores {scores}"


def parse_log(text: str) -> list[tuple[str, list[str]]]:
    """A `play --log` file as (line, notes) per action; the closing `winner:` line and
    blank lines are left out."""
    steps: list[tuple[str, list[str]]] = []
    for raw in text.splitlines():
        if not raw.strip():
            continue
        if raw.startswith(LOG_INDENT):
            if not steps:
                raise StudioError("log/format", f"a note before any action: {raw.strip()[:80]!r}")
            steps[-1][1].append(raw[len(LOG_INDENT):])
            continue
        if raw.startswith("winner: "):
            continue
        if ": " not in raw:
            raise StudioError("log/format", f"not a line of a catandsl play log: {raw[:80]!r}")
        steps.append((raw, []))
    if not steps:
        raise StudioError("log/format", "the log has no actions")
    return steps


def seats_in_log(text: str) -> int:
    """The highest seat P1..Pn the log names (every seat places in the set-up)."""
    return max((int(m.group(1)) for m in _SEAT.finditer(text)), default=0)


def match_log(game, steps: list[tuple[str, list[str]]]) -> tuple[list[int], list[dict]]:
    """The action ids the log's lines describe, played from the start of `game`."""
    from catandsl.engine import EngineError
    from catandsl.players.base import entry_line, logged_apply

    s = game.new_initial_state()
    actions: list[int] = []
    entries: list[dict] = []
    trials = 0
    for number, (line, notes) in enumerate(steps, 1):
        if s.is_terminal():
            raise StudioError("log/mismatch", f"log line {number} comes after the end of the game: {line[:80]!r}")
        chance = s.is_chance_node()
        who = -1 if chance else s.current_player()
        candidates = [a for a, _ in s.chance_outcomes()] if chance else s.legal_actions()
        if chance:  # the seeded draw first: a game played with this seed drew it
            first = s.sample_chance()
            candidates = [first] + [a for a in candidates if a != first]
        found = None
        for aid in candidates:
            trials += 1
            if trials > MAX_TRIALS:
                raise StudioError("log/too_costly", f"matching the log tried {MAX_TRIALS:,} moves by line {number}: "
                                  "the studio gave up (is it a log of this scenario?)")
            trial = s.clone()
            try:
                e = logged_apply(game, trial, aid, who)
            except EngineError:
                continue
            if entry_line(e) == line and e["notes"] == notes:
                found = (aid, e, trial)
                break
        if found is None:
            raise StudioError("log/mismatch", f"log line {number} is no move of this game at that point: "
                              f"{line[:100]!r} (are the scenario, players, options and seed the game's?)")
        aid, e, s = found
        actions.append(aid)
        entries.append(e)
    return actions, entries


class Replays:
    """The replays of one studio, by an unguessable id, held for their clients."""

    def __init__(self) -> None:
        from catandsl.studio.clients import Holdings

        self.held: Holdings[Replay] = Holdings(MAX_REPLAYS, REPLAYS_PER_CLIENT, (
            "replay/unknown", "no such replay (the server forgets them when it restarts)"))

    def add(self, title: str, game, actions: list[int], entries: list[dict],
            viewer: int | None = EVERYONE) -> Replay:
        return self.held.add(lambda rid: Replay(rid, title, game, actions, entries, viewer))

    def get(self, rid: object) -> Replay:
        return self.held.get(rid)
