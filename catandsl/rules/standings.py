"""Who stands where: the holder of an award, and the players who lead or trail by a
declared `measure` (a number per player: knights played, buildings on harbors,
victory points), for rules such as "the player(s) with the most knights take 1"."""

from __future__ import annotations

from catandsl.rules.play import NO_ANSWERS, State
from catandsl.rules.registry import BOARD, EVERYTHING, STATIC, query


def measured(s: State, measure: str) -> list[int]:
    """The measure's value for each seat."""
    g = s.game
    m = g.ruleset.measures[measure]
    return [int(g.interp.program(m.expr, m.source).run({"player": p}, s, NO_ANSWERS)) for p in range(g.num_players)]


@query("award: award", returns="list<player>", reads=EVERYTHING)
def held_by(s: State, award: str) -> list[int]:
    """The player holding the award, as a list of one, or an empty list when nobody
    holds it (`for p in held_by(largest_army) { ... }`)."""
    k = next(k for k, a in enumerate(s.game.awards) if a.name == award)
    return [s.award_holder[k]] if s.award_holder[k] >= 0 else []


@query("player: player, piece: piece", returns="int", reads=BOARD)
def pieces_placed(s: State, player: int, piece: str) -> int:
    """How many pieces of this kind the player has on the board (roads on the board)."""
    return s.placed[player][s.game.piece_index[piece]]


@query("measure: measure", returns="list<player>", reads=EVERYTHING)
def leaders(s: State, measure: str) -> list[int]:
    """The players with the highest value of the measure, ascending (several on a tie);
    nobody when the highest is 0 or less (nobody has played a knight)."""
    values = measured(s, measure)
    top = max(values)
    return [p for p, v in enumerate(values) if v == top] if top > 0 else []


@query("player: player, measure: measure", returns="list<player>", reads=EVERYTHING)
def below(s: State, player: int, measure: str) -> list[int]:
    """The players whose value of the measure is lower than the player's, ascending."""
    values = measured(s, measure)
    return [p for p, v in enumerate(values) if v < values[player]]


@query("players: list<player>, measure: measure, most: int", returns="list<player>", reads=EVERYTHING)
def at_most(s: State, players: list[int], measure: str, most: int) -> list[int]:
    """The players of the list whose value of the measure is at most `most`, ascending,
    each once (`count(at_most(players_around(at), shown, 2)) == 0`: nobody there has
    shown more than 2 points)."""
    values = measured(s, measure)
    return sorted({p for p in players if values[p] <= most})


@query("players: list<player>, measure: measure, least: int", returns="list<player>", reads=EVERYTHING)
def at_least(s: State, players: list[int], measure: str, least: int) -> list[int]:
    """The players of the list whose value of the measure is at least `least`,
    ascending, each once."""
    values = measured(s, measure)
    return sorted({p for p in players if values[p] >= least})


@query("player: player", returns="player", reads=STATIC)
def left_of(s: State, player: int) -> int:
    """The next player in turn order: the player's left-hand neighbour."""
    return (player + 1) % s.game.num_players
