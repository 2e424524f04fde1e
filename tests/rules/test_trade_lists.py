"""The trade activity's list (bank trades and the new domestic offer) is kept by what it
depends on, and the trade rates are found from the player's own intersections and kept
on the network until a building changes (rules/trade.py): checked here at every turn
decision of random games, with offers composed, answered and traded, against the list
worked out from scratch (the rates read off every harbor corner's owner as before, an
offer possible when the player holds an item and the others one of another kind).
"""

from __future__ import annotations

import pytest

import catandsl
from catandsl.engine.flow import TURN
from catandsl.players import UniformPlayer
from catandsl.players.random_player import RandomPlayer
from catandsl.rules import placement, trade
from tests.budget import count
from tests.conftest import ROOT

SCENARIOS = ["scenarios/base.catan", "scenarios/seafarers/heading_for_new_shores.catan",
             "scenarios/traders_barbarians/traders_and_barbarians.catan",
             "examples/fan_maps/crowded.catan"]
ACTIONS = 400  # per game


def scratch_rates(s, p: int, t: trade.TradeLookups) -> list[int]:
    rates = list(t.no_harbor)
    for c, spot in sorted(t.harbor_spot.items()):
        kind = s.harbor_at[spot]
        if s.corner_owner[c] == p and kind >= 0:
            hr, res = t.harbor_rates[kind]
            if res < 0:
                rates = [min(x, hr) for x in rates]
            else:
                rates[res] = min(rates[res], hr)
    return rates


def scratch_trades(s, p: int, names) -> list[int]:
    t = s.game.lookups(trade.TradeLookups)
    hand, held = s.hands[p], s.tokens_held[p]
    out = []
    if (names is None or "bank" in names) and hand and max(hand) >= t.least_rate:
        rates = scratch_rates(s, p, t)
        for r, n in enumerate(hand):
            if n and n >= rates[r]:
                out += [t.bank_id[r][x] for x, left in enumerate(s.bank) if left and x != r]
    if (names is None or "domestic" in names) and t.new_offer >= 0:
        n = s.game.num_players
        items = t.items
        mine = list(hand) + [held[x] for x in t.item_token]
        theirs = [sum(s.hands[q][r] for q in range(n) if q != p) for r in range(t.resources)]
        theirs += [sum(s.tokens_held[q][x] for q in range(n) if q != p) for x in t.item_token]
        tokens = set(range(t.resources, len(items)))
        if any(i != j and not {i, j} <= tokens for i in range(len(items)) if mine[i]
               for j in range(len(items)) if theirs[j]):
            out.append(t.new_offer)
    return sorted(out)


@pytest.mark.parametrize("name", SCENARIOS)
def test_the_kept_trade_lists_are_the_ones_worked_out_from_scratch(name):
    scenario = catandsl.load(ROOT / name)
    checked = offered = traded = harbor_rates = 0
    for seed in range(count(2)):
        game = catandsl.new_game(scenario, None, {}, seed)
        # uniform players offer trades (most get declined); the others rarely do
        seats = [UniformPlayer(seed * 10 + q) if q % 2 == 0 else RandomPlayer(seed * 10 + q, offers=0.5)
                 for q in range(game.num_players)]
        s = game.new_initial_state()
        for _ in range(ACTIONS):
            if s.is_terminal():
                break
            if s.is_chance_node():
                s.apply_action(s.sample_chance())
                continue
            if s.top() is TURN:
                p = s.turn_player
                t = game.lookups(trade.TradeLookups)
                for a, names in game.reachable[s.phase]:
                    if a.name == "trade":
                        # ascending as kept (the turn's sort of its joined lists relies on it for speed)
                        assert a.legal(s, p, names) == scratch_trades(s, p, names)
                        assert list(trade.trade_rates(s, p, t)) == scratch_rates(s, p, t)
                        checked += 1
                        offered += t.new_offer in a.legal(s, p, names)
                        harbor_rates += trade.trade_rates(s, p, t) != t.no_harbor
            a = seats[s.current_player()].choose(s)
            traded += game.actions[a].KIND == "trade_with"
            s.apply_action(a)
    assert checked > 50  # turn decisions that offered trade were seen, and compared
    assert offered > 0 and traded > 0  # with an offer possible, and trades made
    if name != "examples/fan_maps/crowded.catan":  # (there nobody reaches a harbor in these games)
        assert harbor_rates > 0  # and with players at a harbor


def test_kept_rates_follow_a_building_placed_at_a_harbor_in_play():
    """The rates asked at one decision are kept on the network: a building placed at a
    harbor later in the turn gives the new rate at the next ask."""
    game = catandsl.new_game(catandsl.load(ROOT / "scenarios/base.catan"), 4, {}, 3)
    seats = [RandomPlayer(30 + q) for q in range(4)]
    s = game.new_initial_state()
    while s.stage != "turn":
        s.apply_action(s.sample_chance() if s.is_chance_node() else seats[s.current_player()].choose(s))
    t = game.lookups(trade.TradeLookups)
    p = s.turn_player
    before = trade.trade_rates(s, p, t)  # (now kept)

    def improves(c: int) -> bool:  # an empty harbor corner whose rate beats p's own
        rate, res = t.harbor_rates[s.harbor_at[t.harbor_spot[c]]]
        return rate < (max(before) if res < 0 else before[res])

    better = [c for c in sorted(t.harbor_spot) if s.corner_owner[c] < 0 and
              s.harbor_at[t.harbor_spot[c]] >= 0 and improves(c)]
    assert better
    placement.place(s, p, game.piece_index["settlement"], better[0])
    after = trade.trade_rates(s, p, t)
    assert list(after) == scratch_rates(s, p, t)
    assert after != before
