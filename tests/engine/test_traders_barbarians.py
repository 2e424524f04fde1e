"""Traders & Barbarians (scenarios/traders_barbarians/, stdlib/traders_barbarians.catan)
from fixed positions with forced dice: the board, the dice, the set-up, the
wagon's path costs, tolls, grain boost and stops, loads and deliveries, upgrades, the
barbarians (roads refused under one, the 7, the chase), the gold exchange; then random
games checked after every action."""

from __future__ import annotations

import random
from collections import Counter
from functools import cache

import pytest

import catandsl
from catandsl.engine import IllegalAction
from catandsl.engine import actions as A
from catandsl.rules import harbors, neutral, placement, scoring
from catandsl.rules.base import paths_next_to
from catandsl.rules.dice import RuleRoll
from catandsl.rules.draws import DrawToken
from catandsl.rules.sites import SiteLookups
from catandsl.rules.travel import STOPPED, Travel, travel_points
from tests.budget import count
from tests.conftest import TB_HUBS, TB_PATH, land_path_away_from_hubs, tb_scenario, tb_start
from tests.engine.helpers import BRICK, GRAIN, LUMBER, ORE, WOOL, act, blank, give, legal, put, to_main
from tests.engine.soundness import check_board, check_traders_barbarians


@cache
def game(players: int = 3, seed: int = 1):
    return catandsl.new_game(tb_scenario(), players, {}, seed)


def _tok(g, name):
    return g.token_index[name]


def _spurs(g, hub):
    q, r = TB_HUBS[hub]
    return [k for k, (pq, pr, side) in enumerate(g.board.paths) if (pq, pr) == (q, r) and side.startswith("C-")]


# ---- the board and the dice (F.3, F.5) -----------------------------------------------------


def test_trade_hexes_are_hubs_with_four_spurs_a_stack_and_no_number():
    g = game()
    b = g.board
    stock = {x.kind: dict(zip(g.token_names, x.stock)) for x in g.lookups(SiteLookups).sites}
    for hub, (q, r) in TB_HUBS.items():
        h = b.hex_index[(q, r)]
        assert b.hex_number[h] == 0 and len(_spurs(g, hub)) == 4
        site = next(x for x in g.lookups(SiteLookups).sites if x.kind == f"{hub}_stack")
        assert b.intersections[site.corner] == (q, r, "C")
    assert {k: {t: n for t, n in v.items() if n} for k, v in stock.items()} == {
        "castle_stack": {"sand": 6, "tools": 6}, "quarry_stack": {"sand": 6, "marble": 6},
        "glassworks_stack": {"glass": 6, "tools": 6}}
    numbers = Counter(n for n in b.hex_number if n)
    assert sum(numbers.values()) == 16 and not numbers[2] and not numbers[12]


def test_three_barbarians_start_on_their_paths_and_2_and_12_are_rolled_again():
    g = game()
    s = g.new_initial_state()
    on = sorted(neutral.sites_of(s, g.piece_index["barbarian"]))
    assert on == sorted(g.board.path_id(*x) for x in [(1, -1, "NE"), (0, 1, "SE"), (-1, 0, "W")])
    odds = dict(g.dice_totals)
    assert 2 not in odds and 12 not in odds and odds[7] == pytest.approx(6 / 34)


# ---- the set-up (F.4) -------------------------------------------------------------------------


def test_the_set_up_places_a_new_city_and_a_wagon_by_it_and_gives_gold_and_level_1():
    g = game()
    s = g.new_initial_state()
    rng = random.Random(3)
    while s.stage == "setup":
        s.apply_action(s.sample_chance() if s.is_chance_node() else rng.choice(s.legal_actions()))
    for p in range(3):
        assert s.placed[p][g.piece_index["settlement"]] == 1 and s.placed[p][g.piece_index["city"]] == 1
        city = next(c for c, o in enumerate(s.corner_owner) if o == p and s.corner_piece[c] == g.piece_index["city"])
        wagon = next(e for e in s.travellers if e.player == p)
        assert city in g.board.path_ends[wagon.path]
        assert s.tokens_held[p][_tok(g, "gold")] == 5 and s.tokens_held[p][_tok(g, "level")] == 1


# ---- the wagon (F.7) --------------------------------------------------------------------------


def test_path_costs_tolls_and_the_barbarian_surcharge():
    g = game()
    a, b_ = land_path_away_from_hubs(g)
    s = tb_start(g, a)
    act(s, Travel("wagon", a, b_))
    assert s.travellers[0].left == 2  # no road: 2 of 4
    s = tb_start(g, a)
    put(s, 0, "road", b_)
    act(s, Travel("wagon", a, b_))
    assert s.travellers[0].left == 3  # own road: 1
    s = tb_start(g, a)
    put(s, 1, "road", b_)
    act(s, Travel("wagon", a, b_))
    gold = _tok(g, "gold")
    assert s.travellers[0].left == 3 and s.tokens_held[0][gold] == 4 and s.tokens_held[1][gold] == 6
    s = tb_start(g, a, gold=0)
    put(s, 1, "road", b_)
    with pytest.raises(IllegalAction):  # no gold for the toll: may not enter
        act(s, Travel("wagon", a, b_))
    s = tb_start(g, a)
    barbarian = g.piece_index["barbarian"]
    others = neutral.sites_of(s, barbarian)[1:]
    neutral.put_pieces(s, barbarian, [b_] + others)
    s.changed()
    act(s, Travel("wagon", a, b_))
    assert s.travellers[0].left == 0  # 2 + 2 for the barbarian


def test_a_step_must_be_paid_in_full_and_grain_buys_two_points_once():
    g = game()
    a, b_ = land_path_away_from_hubs(g)
    s = tb_start(g, a)
    act(s, Travel("wagon", a, b_))
    c = next(x for x in paths_next_to(g, b_) if x != a and x in g.pieces[g.piece_index["wagon"]].allowed_set
             and not g.board.paths[x][2].startswith("C-"))  # a spur would stop the wagon
    act(s, Travel("wagon", b_, c))
    assert s.travellers[0].left == 0 and not [x for x in legal(s) if isinstance(x, Travel)]
    before = s.serialize()
    with pytest.raises(IllegalAction) as refused:
        act(s, Travel("wagon", c, b_))
    assert refused.value.code == "action/cannot_afford" and s.serialize() == before
    s = tb_start(g, a)
    give(s, 0, 0, 0, 0, 2, 0)
    boost = A.TakeAction("boost")
    act(s, boost)
    assert s.travellers[0].left == 6 and s.hands[0][GRAIN] == 1
    assert boost not in legal(s)  # once a turn


# ---- loads and deliveries (F.8) -----------------------------------------------------------------


def _arrive(g, s, hub):
    """Step player 0's wagon from a path next to a spur of `hub` onto the spur."""
    spur = _spurs(g, hub)[0]
    before = next(x for x in paths_next_to(g, spur) if not g.board.paths[x][2].startswith("C-")
                  and x in g.pieces[g.piece_index["wagon"]].allowed_set)
    s.travellers[0] = s.travellers[0]._replace(path=before)
    s.changed()
    act(s, Travel("wagon", before, spur))
    return spur


def test_the_first_arrival_draws_a_load_and_pays_nothing_and_the_move_ends():
    g = game()
    s = tb_start(g, _spurs(g, "castle")[0])
    _arrive(g, s, "castle")
    assert s.travellers[0].left == STOPPED
    assert s.is_chance_node()
    odds = {g.actions[a].token: p for a, p in s.chance_outcomes()}
    assert odds == pytest.approx({"sand": 0.5, "tools": 0.5})
    act(s, DrawToken("tools"))
    assert s.tokens_held[0][_tok(g, "tools")] == 1 and s.tokens_held[0][_tok(g, "gold")] == 5


@pytest.mark.parametrize("level", [1, 3, 5])
def test_a_delivery_scores_a_point_pays_the_levels_gold_and_loads_again(level):
    g = game()
    s = tb_start(g, _spurs(g, "castle")[0], level=level)
    glass = _tok(g, "glass")
    s.tokens_held[0][glass] = 1
    s.token_supply[glass] -= 1
    s.changed()
    points = scoring.points(s, 0)
    _arrive(g, s, "castle")
    assert s.tokens_held[0][glass] == 0 and s.tokens_held[0][_tok(g, "delivered")] == 1
    assert s.tokens_held[0][_tok(g, "gold")] == 5 + level
    assert s.is_chance_node()  # the next load, from this stack
    act(s, DrawToken("sand"))
    assert s.tokens_held[0][_tok(g, "sand")] == 1
    assert scoring.points(s, 0) == points + 1


def test_a_load_the_hex_does_not_take_stays_and_an_empty_stack_leaves_the_wagon_unloaded():
    g = game()
    s = tb_start(g, _spurs(g, "castle")[0])
    sand = _tok(g, "sand")
    s.tokens_held[0][sand] = 1
    s.token_supply[sand] -= 1
    s.changed()
    _arrive(g, s, "castle")  # the castle takes glass and marble, not sand
    assert s.tokens_held[0][sand] == 1 and not s.is_chance_node()
    s = tb_start(g, _spurs(g, "quarry")[0])
    k = next(x.index for x in g.lookups(SiteLookups).sites if x.kind == "quarry_stack")
    for t, n in enumerate(s.token_stock[k]):
        s.token_supply[t] += n
        s.token_stock[k][t] = 0
    s.changed()
    _arrive(g, s, "quarry")
    assert not s.is_chance_node() and sum(s.tokens_held[0][_tok(g, t)] for t in
                                          ("sand", "tools", "marble", "glass")) == 0


# ---- upgrades (F.6) -----------------------------------------------------------------------------


def test_upgrades_cost_their_level_one_at_a_time_and_level_5_is_a_point():
    g = game()
    a, _ = land_path_away_from_hubs(g)
    s = tb_start(g, a)
    give(s, 0, 0, 6, 4, 0, 4)  # 6 lumber, 4 wool, 4 ore
    assert A.TakeAction("upgrade_far") not in legal(s)  # level 1: the dearer one is for 3 and 4
    before = scoring.points(s, 0)
    act(s, A.TakeAction("upgrade"))
    act(s, A.TakeAction("upgrade"))
    assert A.TakeAction("upgrade") not in legal(s)
    act(s, A.TakeAction("upgrade_far"))
    act(s, A.TakeAction("upgrade_far"))
    assert s.tokens_held[0][_tok(g, "level")] == 5
    assert s.hands[0][LUMBER] == 0 and s.hands[0][ORE] == 0 and s.hands[0][WOOL] == 0
    assert scoring.points(s, 0) == before + 1


# ---- barbarians (F.5, F.7, F.9) -----------------------------------------------------------------


def test_no_road_under_a_barbarian():
    g = game()
    s = tb_start(g, land_path_away_from_hubs(g)[0])
    k = neutral.sites_of(s, g.piece_index["barbarian"])[0]
    corner = g.board.path_ends[k][0]
    put(s, 0, "settlement", corner)
    give(s, 0, 1, 1, 0, 0, 0)
    assert A.Build("road", k) not in legal(s)
    before = s.serialize()
    with pytest.raises(IllegalAction):
        act(s, A.Build("road", k))
    assert s.serialize() == before


def test_a_seven_moves_a_barbarian_onto_a_road_and_robs_its_owner():
    g = game()
    s = blank(g)
    road = land_path_away_from_hubs(g)[1]
    put(s, 1, "road", road)
    give(s, 1, 0, 0, 0, 0, 1)
    act(s, A.Roll(7))
    moves = [x for x in legal(s) if isinstance(x, A.Move)]
    assert moves and all(x.piece == "barbarian" for x in moves)
    onto = next(x for x in moves if x.at == road)
    act(s, onto)
    assert legal(s) == [A.Steal(1)]  # the road's owner, the only one to rob
    act(s, A.Steal(1))
    assert s.is_chance_node()
    act(s, A.Stolen("ore"))
    assert s.hands[0][ORE] == 1 and s.hands[1][ORE] == 0


@pytest.mark.parametrize("die, chased", [(6, True), (5, False)])
def test_a_level_2_wagon_chases_a_barbarian_on_a_six(die, chased):
    g = game()
    s = tb_start(g, 0, level=2)
    k = neutral.sites_of(s, g.piece_index["barbarian"])[0]
    s.travellers[0] = s.travellers[0]._replace(
        path=next(x for x in paths_next_to(g, k) if x in g.pieces[g.piece_index["wagon"]].allowed_set))
    s.changed()
    act(s, A.TakeAction("chase"))
    assert s.is_chance_node()
    act(s, RuleRoll(die))
    moves = [x for x in legal(s) if isinstance(x, A.Move)]
    assert bool(moves) == chased
    assert all(x.src == k for x in moves)  # that barbarian, the one in front of the wagon
    if chased:
        other = neutral.sites_of(s, g.piece_index["barbarian"])[1]
        free = next(x.at for x in moves)
        before = s.serialize()
        with pytest.raises(IllegalAction):
            act(s, A.Move("barbarian", free, other))
        assert s.serialize() == before
    assert A.TakeAction("chase") not in legal(s)  # once a turn


def test_level_1_cannot_chase():
    g = game()
    s = tb_start(g, 0, level=1)
    k = neutral.sites_of(s, g.piece_index["barbarian"])[0]
    s.travellers[0] = s.travellers[0]._replace(
        path=next(x for x in paths_next_to(g, k) if x in g.pieces[g.piece_index["wagon"]].allowed_set))
    s.changed()
    assert A.TakeAction("chase") not in legal(s)


# ---- gold (F.10) ----------------------------------------------------------------------------


def test_two_gold_buy_a_resource_twice_a_turn():
    g = game()
    s = tb_start(g, land_path_away_from_hubs(g)[0])
    buy = A.TakeAction("buy_with_gold")
    for _ in range(2):
        act(s, buy)
        act(s, A.ChooseResource("brick"))
    assert s.hands[0][BRICK] == 2 and s.tokens_held[0][_tok(g, "gold")] == 1
    assert buy not in legal(s)


# ---- Harbormaster (RULES_TB_VARIANTS V3) -------------------------------------------------------


def test_harbormaster_goes_to_the_first_with_3_harbor_points_and_only_to_more():
    g = catandsl.new_game(tb_scenario(), 3, {"harbormaster": "on"}, 1)
    assert g.ruleset.settings["victory"] == 14
    s = blank(g)
    b = g.board
    harbor_corners = [c for c, h in enumerate(b.corner_harbor) if h >= 0]
    apart = []  # harbor intersections two steps apart or more, for the distance rule
    for c in harbor_corners:
        if all(c not in b.corner_neighbours[x] and c != x for x in apart):
            apart.append(c)
    award = next(k for k, a in enumerate(g.awards) if a.name == "harbormaster")
    put(s, 0, "settlement", apart[0])
    put(s, 0, "city", apart[1])  # 1 + 2 = 3 harbor points
    s.changed()
    assert harbors.on_harbors(s, 0, "city") == 1 and harbors.on_harbors(s, 0, "settlement") == 1
    before = scoring.points(s, 0)
    to_main(s, 8)  # any action lets the awards be recomputed
    assert s.award_holder[award] == 0 and scoring.points(s, 0) == before + 2
    put(s, 1, "city", apart[2])
    put(s, 1, "settlement", apart[3])
    s.changed()
    act(s, A.EndTurn())
    assert s.award_holder[award] == 0  # 3 against 3: the holder keeps it
    put(s, 1, "settlement", apart[4])
    s.changed()
    to_main(s, 8)
    assert s.award_holder[award] == 1  # 4 against 3


def test_the_picture_shows_trade_hexes_stacks_barbarians_and_wagons():
    from catandsl.render.state_svg import render_state

    g = game()
    s = g.new_initial_state()
    rng = random.Random(3)
    while s.stage == "setup":
        s.apply_action(s.sample_chance() if s.is_chance_node() else rng.choice(s.legal_actions()))
    svg = render_state(g, s)
    assert svg.count('class="piece wagon"') == 3 and svg.count('class="piece barbarian neutral"') == 3
    assert svg.count('class="hub"') == 3 and svg.count('class="site"') == 3
    # each player's gold and wagon level in the legend
    for p in range(3):
        assert f'data-player="{p}" data-vp="3" data-tokens="gold 5, level 1"' in svg


def test_language_md_shows_the_real_files():
    text = open("docs/language.md", encoding="utf-8").read()
    for path in ("stdlib/traders_barbarians.catan", TB_PATH):
        body = open(path, encoding="utf-8").read()
        assert f"```catan\n{body}```" in text, f"docs/language.md does not show {path} as it is"


# ---- random games (F.13's "checked after every action") -----------------------------------------

GAMES = count(50)  # per player count and variant (tests/budget.py)
ACTIONS = 1000  # per game: set-up, trading, travelling, deliveries, chases; then the next


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("variant", ["off", "on"], ids=["plain", "harbormaster"])
def test_random_games_keep_the_invariants(players, variant):
    played = Counter()
    for seed in range(GAMES):
        g = catandsl.new_game(tb_scenario(), players, {"harbormaster": variant}, seed)
        s = g.new_initial_state()
        rng = random.Random(seed)
        for _ in range(ACTIONS):
            if s.is_terminal():
                played[s.reason] += 1
                break
            s.apply_action(s.sample_chance() if s.is_chance_node() else rng.choice(s.legal_actions()))
            check_traders_barbarians(s)
        assert placement.pieces_on_board(s) == s.placed
        check_board(s)
        played["delivered"] += sum(h[g.token_index["delivered"]] for h in s.tokens_held)
    assert played["delivered"] > 0  # random wagons did deliver


@pytest.mark.parametrize("players", [3, 4])
def test_whole_games_end(players):
    for seed in range(5):
        g = catandsl.new_game(tb_scenario(), players, {}, seed)
        s = g.new_initial_state()
        rng = random.Random(seed)
        steps = 0
        while not s.is_terminal():
            s.apply_action(s.sample_chance() if s.is_chance_node() else rng.choice(s.legal_actions()))
            steps += 1
            assert steps <= g.max_game_length()
        assert s.reason in ("victory", "turn_limit")
        if s.reason == "victory":
            assert scoring.points(s, s.winner) >= 13


@pytest.mark.parametrize("players", [3, 4])
def test_greedy_bots_win_by_delivering(players):
    """The greedy bot trades and builds before its wagon moves (phases go forward),
    keeps gold for tolls and tours the trade hexes: its games end in a victory, with
    deliveries, long before the turn limit."""
    from catandsl.players import play_game
    from catandsl.players.greedy import GreedyPlayer

    for seed in (1, 2, 3):
        g = catandsl.new_game(tb_scenario(), players, {}, seed)
        s, _ = play_game(g, [GreedyPlayer(100 * seed + p) for p in range(players)], log=False)
        assert s.reason == "victory" and scoring.points(s, s.winner) >= 13
        assert s.turns < g.turn_limit // 2
        assert sum(h[g.token_index["delivered"]] for h in s.tokens_held) >= 3


def test_swift_journey_is_played_only_after_the_wagon_moved_and_gives_full_points_again():
    g = game()
    a, b_ = land_path_away_from_hubs(g)
    s = tb_start(g, a)
    s.cards[0][g.card_index["swift_journey"]] = 1
    s.changed()
    assert A.PlayCard("swift_journey") not in legal(s)  # the wagon has not moved yet
    act(s, Travel("wagon", a, b_))
    act(s, Travel("wagon", b_, a))
    assert s.travellers[0].left == 0
    act(s, A.PlayCard("swift_journey"))
    assert travel_points(s, 0, "wagon") == 4  # a second journey with the level's points
