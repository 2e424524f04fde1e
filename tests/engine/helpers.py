"""Fixed positions for rule tests: a game past its set-up with an empty board, and the
steps that edit it (pieces put, cards given, actions applied). The games themselves come
from tests/conftest.py."""

from __future__ import annotations

from catandsl.engine import actions as A

BRICK, LUMBER, WOOL, GRAIN, ORE = range(5)


def blank(g):
    """Turn 1, player 0 about to roll, nothing on the board, empty hands."""
    s = g.new_initial_state()
    act(s, A.StartPlayer(0))
    while s.stage == "setup":
        s.apply_action(s.legal_actions()[0])
    n, R = g.num_players, len(g.resources)
    s.hands = [[0] * R for _ in range(n)]
    s.bank = list(g.bank_start)
    s.corner_owner = [-1] * len(s.corner_owner)
    s.corner_piece = [-1] * len(s.corner_piece)
    s.path_owner = [-1] * len(s.path_owner)
    s.path_piece = [-1] * len(s.path_piece)
    s.placed = [[0] * len(g.pieces) for _ in range(g.num_seats)]  # neutral seats too
    s.award_holder = [-1] * len(g.awards)
    s.changed()
    return s


def put(s, player: int, piece: str, at: int):
    g = s.game
    pi = g.piece_index[piece]
    P = g.pieces[pi]
    if P.site == "intersection":
        if P.upgrades >= 0 and s.corner_piece[at] == P.upgrades:
            s.placed[player][P.upgrades] -= 1
        s.corner_owner[at], s.corner_piece[at] = player, pi
    else:
        s.path_owner[at], s.path_piece[at] = player, pi
    s.placed[player][pi] += 1
    s.changed()


def give(s, player: int, *counts: int):
    """Give the player cards from the bank: counts in resource order."""
    for r, n in enumerate(counts):
        s.hands[player][r] += n
        s.bank[r] -= n
    s.changed()


def act(s, action: A.Action, player: int | None = None):
    s.apply_action(s.game.action_id[action], player)


def legal(s) -> list[A.Action]:
    return [s.game.actions[a] for a in s.legal_actions()]


def to_main(s, total: int = 2):
    """Roll a total (2 by default: the pasture of hex 6) and reach the main phase."""
    if not s.is_chance_node():
        act(s, A.RollDice())  # a card could be played first: ask for the roll
    act(s, A.Roll(total))


def check_resources(s) -> None:
    """Resources are conserved: bank + hands = the bank's declared total, none negative."""
    g = s.game
    for r in range(len(g.resources)):
        assert s.bank[r] + sum(h[r] for h in s.hands) == g.bank_start[r]
        assert s.bank[r] >= 0 and all(h[r] >= 0 for h in s.hands)
