"""Victory points, awards (A.10, A.11), victory and the end of a game.

- `points`: pieces on the board, cards held, awards, special victory point tokens, and
  tokens and counters worth points (a negative worth counts off: a curse token, a
  building conquered);
- awards: the holder keeps an award while (tied for) largest; otherwise a unique
  largest at or over its minimum takes it; else it is set aside. A measure is read
  again only when an action or effect wrote a part of the game it reads;
- victory (`winner_now`): a player wins with `victory N` points or when one of the
  ruleset's `victory "..." where COND` holds for them, checked after every action: on
  the player's own turn only (`victory_check own_turn`, the default), or for every
  player (`any_turn`: the active player first, then in seat order);
- `end_game(reason)`: a rule ends the game; the scenario's `tie_break` ranks players.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from catandsl.rules.islands import special_points
from catandsl.rules.play import NO_ANSWERS, Game, State
from catandsl.rules.projects import stage_points
from catandsl.rules.registry import BOARD, CARDS, FLOW, TOKENS, effect, query
from catandsl.rules.sites import token_points


@dataclass(frozen=True)
class PointLookups:
    """What is worth points: (piece kind, points) and (card, points) for those worth any,
    and each award's points."""

    pieces: tuple[tuple[int, int], ...]
    cards: tuple[tuple[int, int], ...]
    awards: tuple[int, ...]
    counters: tuple[tuple[int, int], ...]  # (counter, points for each 1 of it), may be negative

    @classmethod
    def build(cls, game: Game) -> PointLookups:
        return cls(tuple((P.index, P.points) for P in game.pieces if P.points),
                   tuple((c.index, c.points) for c in game.cards if c.points),
                   tuple(a.points for a in game.awards),
                   tuple((k, c.points) for k, c in enumerate(game.ruleset.counters.values()) if c.points))


@query("player: player", returns="int", reads=(BOARD, CARDS, TOKENS, FLOW))
def points(s: State, player: int) -> int:
    """The player's victory points."""
    g = s.game
    t = g.lookups(PointLookups)
    pts = 0
    placed = s.placed[player]
    for k, v in t.pieces:
        pts += placed[k] * v
    held = s.cards[player]
    for c, v in t.cards:
        pts += held[c] * v
    if player in s.award_holder:
        for k, holder in enumerate(s.award_holder):
            if holder == player:
                pts += t.awards[k]
    if s.vp_tokens:
        pts += special_points(s, player)
    if g.token_names:
        pts += token_points(s, player)
    if s.project_owner:
        pts += stage_points(s, player)
    if t.counters:
        row = s.counters[player]
        for k, v in t.counters:
            pts += row[k] * v
    return pts


@query("player: player", returns="int", reads=(BOARD, CARDS, TOKENS, FLOW))
def public_points(s: State, player: int) -> int:
    """The player's victory points the other players can see: hidden cards (victory
    point cards) left out."""
    g = s.game
    hidden = sum(n * c.points for n, c in zip(s.cards[player], g.cards) if c.hidden)
    return points(s, player) - hidden


@query("player: player", returns="bool", reads=(BOARD, CARDS, TOKENS, FLOW))
def ahead(s: State, player: int) -> bool:
    """Whether the player's public points are more than every other player's (a cost
    that rises for the leader)."""
    mine = public_points(s, player)
    return all(public_points(s, p) < mine for p in range(s.game.num_players) if p != player)


def update_awards(s: State) -> None:
    g = s.game
    changed, s._changed = s._changed, 0
    if s.stage == "setup":
        return
    for k, aw in enumerate(g.awards):
        if not g.award_reads[k] & changed:
            continue  # nothing this measure reads has changed
        seats = g.num_seats if aw.seats else g.num_players  # `neutral_seats compete`
        program = g.interp.awards.get(k)
        if program is None:
            program = g.interp.awards[k] = g.interp.program(aw.measure, aw.source)
        run = program.run
        vals = [run({"player": p}, s, NO_ANSWERS) for p in range(seats)]
        best = max(vals)
        holder = s.award_holder[k]
        if holder >= 0 and vals[holder] == best and best >= aw.min:
            continue
        tops = [p for p, v in enumerate(vals) if v == best]
        s.award_holder[k] = tops[0] if best >= aw.min and len(tops) == 1 else -1


def winner_now(s: State) -> int:
    """The player who has won by now (see the module docstring), or -1."""
    g = s.game
    n = g.num_players
    seats = (s.turn_player,) if not g.victory_any_turn else \
        tuple((s.turn_player + k) % n for k in range(n))
    for p in seats:
        if points(s, p) >= g.victory:
            return p
        for v in g.victories:
            if g.interp.program(v.condition, v.source).run({"player": p}, s, NO_ANSWERS):
                return p
    return -1


@effect("reason: str", writes=FLOW)
def end_game(s: State, reason: str) -> None:
    """Ends the game now for `reason`; the winner is the player ranked first by the
    scenario's `tie_break` (by default most points); equal players share it."""
    g = s.game
    tb = g.ruleset.tie_break
    n = g.num_players
    # each player's rank: their points, or one value per `tie_break` key (declared, as
    # the first branch alone would make it a tuple of one element, which the compiled
    # build checks)
    rank: list[tuple[Any, ...]]
    if tb is None or not tb.keys:
        rank = [(points(s, p),) for p in range(n)]
    else:
        keys = [g.interp.program(k, tb.source).run for k in tb.keys]
        rank = [tuple(key({"player": p}, s, NO_ANSWERS) for key in keys) for p in range(n)]
    best = max(rank)
    winners = [p for p in range(n) if rank[p] == best]
    s.winner = winners[0] if len(winners) == 1 else -1
    s.winners = winners if len(winners) > 1 else []
    s.stage = "over"
    s.reason = str(reason)
    s.pending = []
