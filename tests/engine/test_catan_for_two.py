"""Traders & Barbarians for two players: the variant Catan for Two (docs/conformance.md,
"Traders & Barbarians: Catan for Two"), from fixed positions with forced dice and draws,
and random games checked after every action."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import catandsl
from catandsl.engine import IllegalAction
from catandsl.engine import actions as A
from catandsl.rules import neutral, placement
from catandsl.rules.base import paths_next_to
from catandsl.rules.travel import Travel
from tests.budget import count
from tests.conftest import TB_HUBS, tb_scenario, tb_start
from tests.engine.helpers import act, blank, give, legal, put, to_main
from tests.engine.soundness import check_board, check_traders_barbarians


def game(seed: int = 1, options: dict | None = None):
    return catandsl.new_game(tb_scenario(), 2, options or {}, seed)


G = game()


def _tokens(s, p, name):
    return s.tokens_held[p][s.game.token_index[name]]


def _set_tokens(s, p, name, n):
    t = s.game.token_index[name]
    s.token_supply[t] += s.tokens_held[p][t] - n
    s.tokens_held[p][t] = n
    s.changed()


def _main(g=G):
    """Turn 1, player 0 in the main phase after both rolls (8, then 6), empty board,
    the stacks and tokens as the set-up leaves them with 5 trade tokens each."""
    s = _start2(g, _plain_paths(g, 1)[0])
    for p in range(2):
        _set_tokens(s, p, "trade_token", 5)
    return s


def _start2(g, at, gold=5):
    """`tb_start` (the wagon on `at`, the main phase after an 8) and the second roll, a 6."""
    s = tb_start(g, at, gold=gold)
    act(s, A.Roll(6))
    return s


def _plain_paths(g, n):
    """n + 1 land paths in a line, each sharing an end with the one before, none a spur,
    touching a trade hex, or under a barbarian."""
    b = g.board
    wagon = g.pieces[g.piece_index["wagon"]]
    taken = set(neutral.sites_of(g.new_initial_state(), g.piece_index["barbarian"]))
    hubs = {b.hex_index[h] for h in TB_HUBS.values()}

    def plain(k):
        return k in wagon.allowed_set and k not in taken and not set(b.path_hexes[k]) & hubs

    for k in wagon.allowed:
        line = [k]
        while plain(line[-1]) and len(line) <= n:
            nxt = [x for x in paths_next_to(g, line[-1]) if plain(x) and x not in line
                   and not any(x in paths_next_to(g, y) for y in line[:-1])]
            if not nxt:
                break
            line.append(nxt[0])
        if len(line) == n + 1 and plain(k):
            return line
    raise AssertionError("no line of plain paths")


# ---- components and set-up (V1.1, V1.2) ------------------------------------------------


def test_two_players_play_catan_for_two_with_two_neutral_seats_and_13_to_win():
    s = G.new_initial_state()
    b = G.board
    spots = [b.intersection_id(1, -1, "N"), b.intersection_id(0, 1, "S")]
    assert G.num_neutral == 2 and [s.corner_owner[c] for c in spots] == [2, 3]
    assert G.victory == 13 and G.dice_rolls == 2 and G.dice_distinct
    three = catandsl.new_game(tb_scenario(), 3, {}, 1)
    assert three.num_neutral == 0 and three.dice_rolls == 1 and "trade_token" not in three.token_index


def test_the_set_up_gives_5_trade_tokens_each_and_neutral_seats_build_nothing():
    s = G.new_initial_state()
    rng = random.Random(2)
    while s.stage == "setup" or s.pending:
        s.apply_action(s.sample_chance() if s.is_chance_node() else rng.choice(s.legal_actions()))
    held = [_tokens(s, p, "trade_token") for p in range(2)]
    assert all(h >= 5 for h in held) and sum(held) + s.token_supply[G.token_index["trade_token"]] == 20
    settlement, road = G.piece_index["settlement"], G.piece_index["road"]
    assert [s.placed[x][settlement] for x in (2, 3)] == [1, 1] and s.placed[2][road] == s.placed[3][road] == 0


# ---- tokens earned (V1.5, V1.9) --------------------------------------------------------


def _settle_at(s, c, p=0):
    """Player p builds a settlement at c (a road of theirs leads there)."""
    g = s.game
    put(s, p, "road", g.board.corner_paths[c][0])
    give(s, p, 1, 1, 1, 1, 0)
    act(s, A.Build("settlement", c))


def _corner(g, where):
    b = g.board
    hubs = {b.hex_index[h] for h in TB_HUBS.values()}
    for c in range(len(b.intersections)):
        hexes = b.corner_hexes[c]
        land = [h for h in hexes if not b.hex_water[h]]
        coastal = len(land) < 3
        on_hub = bool(set(hexes) & hubs)
        if b.corner_hub[c] >= 0 or not land or len(hexes) < 3 and not coastal:
            continue
        if (where == "inland" and not coastal and not on_hub) or \
                (where == "coast" and coastal and not on_hub) or \
                (where == "both" and coastal and on_hub and len(land) > 1) or \
                (where == "hub" and not coastal and on_hub):
            return c
    raise AssertionError(where)


@pytest.mark.parametrize("where, earned", [("inland", 0), ("coast", 1), ("hub", 1), ("both", 2)])
def test_a_settlement_earns_a_token_on_the_coast_and_one_on_a_trade_hex(where, earned):
    s = _main()
    _settle_at(s, _corner(G, where))
    assert _tokens(s, 0, "trade_token") == 5 + earned


def test_payments_stop_when_the_supply_is_empty_and_cities_earn_nothing():
    s = _main()
    _set_tokens(s, 1, "trade_token", 15)  # the supply is empty
    c = _corner(G, "both")
    _settle_at(s, c)
    assert _tokens(s, 0, "trade_token") == 5 and s.token_supply[G.token_index["trade_token"]] == 0
    _set_tokens(s, 1, "trade_token", 5)
    while s.pending:
        act(s, legal(s)[0])
    give(s, 0, 0, 0, 0, 2, 3)
    act(s, A.Build("city", c))
    assert _tokens(s, 0, "trade_token") == 5


# ---- neutral building (V1.4) -----------------------------------------------------------


def test_a_road_in_play_gives_a_neutral_road_of_the_builders_choice_of_seat():
    s = _main()
    b = G.board
    spots = {2: b.intersection_id(1, -1, "N"), 3: b.intersection_id(0, 1, "S")}
    for seat, c in spots.items():
        put(s, seat, "settlement", c)
    c = _corner(G, "inland")
    put(s, 0, "settlement", c)
    give(s, 0, 1, 1, 0, 0, 0)
    act(s, A.Build("road", b.corner_paths[c][0]))
    offered = legal(s)
    assert {a.seat for a in offered} == {2, 3} and all(a.piece == "road" for a in offered)
    ok = {(seat, x) for seat, c0 in spots.items() for x in b.corner_paths[c0]
          if not neutral.blocks_site(s, "path", x, G.pieces[G.piece_index["road"]].blockers)
          and x in G.pieces[G.piece_index["road"]].allowed_set}
    assert {(a.seat, a.at) for a in offered} == ok
    act(s, offered[0])
    assert s.path_owner[offered[0].at] == offered[0].seat and not s.pending


def test_a_neutral_settlement_earns_nobody_a_token():
    s = _main()
    b = G.board
    both = _corner(G, "both")
    # the neutral seat 2's road leads two steps from its settlement to `both`
    x2 = b.corner_paths[both][0]
    c1 = next(c for c in b.path_ends[x2] if c != both)
    x1 = next(x for x in b.corner_paths[c1] if x != x2)
    c0 = next(c for c in b.path_ends[x1] if c != c1)
    put(s, 2, "settlement", c0)
    put(s, 2, "road", x1)
    put(s, 2, "road", x2)
    far = _corner(G, "inland")
    held = [_tokens(s, p, "trade_token") for p in range(2)]
    _settle_at(s, far)
    assert A.BuildFor(2, "settlement", both) in legal(s)
    act(s, A.BuildFor(2, "settlement", both))
    assert [_tokens(s, p, "trade_token") for p in range(2)] == held


def test_a_road_building_card_gives_one_neutral_road_per_road():
    s = _main()
    b = G.board
    put(s, 2, "settlement", b.intersection_id(1, -1, "N"))
    c = _corner(G, "inland")
    put(s, 0, "settlement", c)
    s.cards[0][G.card_index["road_building"]] = 1
    s.deck[G.card_index["road_building"]] -= 1
    s.changed()
    act(s, A.PlayCard("road_building"))
    for _ in range(2):
        build = next(a for a in legal(s) if isinstance(a, A.Build))
        act(s, build)
        fors = [a for a in legal(s) if isinstance(a, A.BuildFor)]
        assert fors
        act(s, fors[0])
    assert s.placed[2][G.piece_index["road"]] == 2


# ---- token actions (V1.5, V1.6, V1.9) --------------------------------------------------


def test_a_played_knight_is_discarded_for_2_tokens_once_a_turn():
    s = _main()
    knight = G.card_index["knight"]
    s.played[0][knight] = 2
    s.deck[knight] -= 2
    s.changed()
    act(s, A.TakeAction("discard_knight"))
    assert _tokens(s, 0, "trade_token") == 7 and s.played[0][knight] == 1 and s.discarded[knight] == 1
    assert A.TakeAction("discard_knight") not in legal(s)


def test_forced_trade_costs_1_or_2_by_public_points_and_is_one_token_action_a_turn():
    s = _main()
    give(s, 0, 1, 1, 0, 0, 0)
    assert A.TakeAction("forced_trade") not in legal(s)  # the opponent holds no card
    give(s, 1, 0, 0, 2, 0, 0)
    act(s, A.TakeAction("forced_trade"))
    assert _tokens(s, 0, "trade_token") == 4  # equal points: 1 token
    act(s, A.Stolen("wool"))
    act(s, A.Stolen("wool"))
    assert sorted(a.resource for a in legal(s)) == ["brick", "lumber"]  # the hand held before
    act(s, A.ChooseResource("brick"))
    act(s, A.ChooseResource("lumber"))
    assert s.hands[0][:3] == [0, 0, 2] and s.hands[1][:3] == [1, 1, 0]
    assert A.TakeAction("move_barbarian") not in legal(s)  # one token action a turn
    act(s, A.EndTurn())
    assert s.counters[0][G.counter_index["token_actions"]] == 0  # counted again each turn
    s2 = _main()
    put(s2, 0, "settlement", _corner(G, "inland"))  # 1 point ahead
    give(s2, 1, 0, 0, 1, 0, 0)
    act(s2, A.TakeAction("forced_trade"))
    assert _tokens(s2, 0, "trade_token") == 3


def test_a_barbarian_moved_for_1_token_robs_nobody():
    s = _main()
    road = _plain_paths(G, 1)[1]
    put(s, 1, "road", road)
    give(s, 1, 0, 0, 0, 0, 1)
    act(s, A.TakeAction("move_barbarian"))
    assert _tokens(s, 0, "trade_token") == 4
    barbarian = G.piece_index["barbarian"]
    src = neutral.sites_of(s, barbarian)[0]
    act(s, A.Move("barbarian", road, src))
    assert not s.pending and s.hands[1][4] == 1  # no steal
    assert A.TakeAction("forced_trade") not in legal(s)


def test_no_token_action_between_the_two_rolls():
    s = blank(G)
    for p in range(2):
        _set_tokens(s, p, "trade_token", 5)
    assert A.TakeAction("move_barbarian") in legal(s)  # before the rolls: yes
    act(s, A.RollDice())
    act(s, A.Roll(8))
    assert s.is_chance_node() and 8 not in [G.actions[a].total for a, _ in s.chance_outcomes()]
    assert {2, 12}.isdisjoint(G.actions[a].total for a, _ in s.chance_outcomes())


# ---- tolls halved (V1.9, V7) -------------------------------------------------------------


def _bank_gold(s):
    return s.token_supply[G.token_index["gold"]]


def test_neutral_roads_pay_the_bank_half_rounded_up_per_move():
    line = _plain_paths(G, 3)
    s = _start2(G, line[0])
    for x in line[1:]:
        put(s, 2, "road", x)
    paid = []
    for a, b_ in zip(line, line[1:]):
        before = _tokens(s, 0, "gold")
        act(s, Travel("wagon", a, b_))
        paid.append(before - _tokens(s, 0, "gold"))
    assert paid == [1, 0, 1]  # 3 paths: 2 gold, to the bank
    assert _tokens(s, 1, "gold") == 5 and _bank_gold(s) == 100 - 10 + 2


def test_the_opponents_roads_pay_the_opponent_half_rounded_down_per_move():
    line = _plain_paths(G, 3)
    s = _start2(G, line[0])
    for x in line[1:]:
        put(s, 1, "road", x)
    for a, b_ in zip(line, line[1:]):
        act(s, Travel("wagon", a, b_))
    assert _tokens(s, 0, "gold") == 4 and _tokens(s, 1, "gold") == 6  # 3 paths: 1 gold


def test_a_step_is_refused_only_when_its_toll_cannot_be_paid():
    line = _plain_paths(G, 3)
    s = _start2(G, line[0], gold=0)
    for x in line[1:]:
        put(s, 1, "road", x)
    act(s, Travel("wagon", line[0], line[1]))  # the first opponent path costs nothing
    before = s.serialize()
    with pytest.raises(IllegalAction):
        act(s, Travel("wagon", line[1], line[2]))  # the second would cost 1 gold
    assert s.serialize() == before
    s = _start2(G, line[0], gold=0)
    for x in line[1:]:
        put(s, 2, "road", x)
    with pytest.raises(IllegalAction):
        act(s, Travel("wagon", line[0], line[1]))  # a first neutral path costs 1


def test_the_halving_starts_again_each_turn():
    line = _plain_paths(G, 2)
    s = _start2(G, line[0])
    for x in line[1:]:
        put(s, 2, "road", x)
    act(s, Travel("wagon", line[0], line[1]))
    assert _tokens(s, 0, "gold") == 4 and s.counters[0][G.counter_index["neutral_paths_odd"]] == 1
    act(s, A.EndTurn())  # player 1's turn, then player 0's again
    assert s.counters[0][G.counter_index["neutral_paths_odd"]] == 0
    for _ in range(2):
        to_main(s, 8)
        act(s, A.Roll(6))
        if s.turn_player == 1:
            act(s, A.EndTurn())
    act(s, Travel("wagon", line[1], line[2]))
    assert _tokens(s, 0, "gold") == 3  # the first neutral path of this move: 1 gold again


# ---- random games ----------------------------------------------------------------------------

GAMES = count(60)  # tests/budget.py
ACTIONS = 200  # per game: the set-up, then some turns with neutral builds and token actions


def _check_two(s) -> None:
    check_traders_barbarians(s)
    g = s.game
    assert len(s.hands) == len(s.tokens_held) == len(s.cards) == len(s.played) == 2  # no seat for a neutral
    trade_token = g.token_index["trade_token"]
    assert sum(h[trade_token] for h in s.tokens_held) + s.token_supply[trade_token] == 20
    for seat in (2, 3):
        assert all(0 <= n for n in s.placed[seat])
        for P in g.pieces:
            assert s.placed[seat][P.index] <= P.limit


def test_random_two_player_games_keep_the_invariants():
    seen = Counter()
    for seed in range(GAMES):
        g = game(seed)
        s = g.new_initial_state()
        rng = random.Random(seed)
        for _ in range(ACTIONS):
            if s.is_terminal():
                break
            aid = s.sample_chance() if s.is_chance_node() else rng.choice(s.legal_actions())
            act_ = g.actions[aid]
            seen[act_.KIND if not isinstance(act_, A.TakeAction) else act_.action] += 1
            s.apply_action(aid)
            _check_two(s)
        assert placement.pieces_on_board(s) == s.placed
        check_board(s)
    assert seen["build_for"] > 0 and seen["forced_trade"] > 0 and seen["move_barbarian"] > 0
