"""Base-game rules from fixed positions with forced dice (docs/conformance.md, "The base game")."""

from __future__ import annotations

import pytest

from catandsl.engine import IllegalAction
from catandsl.engine import actions as A
from catandsl.rules.cards import played
from catandsl.rules.neutral import Stealing
from catandsl.rules.routes import longest_route
from catandsl.rules.trade import trade_rate
from tests.conftest import base_game, road_chain
from tests.engine.helpers import BRICK, GRAIN, LUMBER, ORE, WOOL, act, blank, give, put, to_main
from tests.engine.helpers import legal as legal_moves

# Beginner map (seed-independent): hex 5 is mountains 10 with corners
# (18, 9, 32, 19, 30, 7); corner 7 has a 3:1 harbor, corner 11 a wool 2:1 harbor.
MOUNTAINS_10 = 5
DESERT = 18


@pytest.fixture
def g():
    return base_game()


def test_setup_is_snake_order_and_collects_second_settlement(g):
    s = g.new_initial_state()
    act(s, A.StartPlayer(0))
    order, second = [], {}
    while s.stage == "setup":
        p = s.current_player()
        a = g.actions[s.legal_actions()[0]]
        if isinstance(a, A.Build) and a.piece == "settlement":
            order.append(p)
            if len(order) > 4:
                second[p] = a.at
        s.apply_action(s.legal_actions()[0])
    assert order == [0, 1, 2, 3, 3, 2, 1, 0]
    # each player's cards are exactly the producing hexes around their second settlement
    b = g.board
    for p in range(4):
        expected = [0] * 5
        for h in b.corner_hexes[second[p]]:
            if g.hex_resource[h] >= 0:
                expected[g.hex_resource[h]] += 1
        assert s.hands[p] == expected
    assert s.current_player() == -1 and s.turns == 1 and s.turn_player == 0


def test_start_player_is_a_uniform_chance_node_and_leads_setup_and_turns(g):
    s = g.new_initial_state()
    assert s.is_chance_node() and s.stage == "setup"
    outcomes = s.chance_outcomes()
    assert [g.actions[a] for a, _ in outcomes] == [A.StartPlayer(p) for p in range(4)]
    assert all(pr == 0.25 for _, pr in outcomes)
    act(s, A.StartPlayer(2))
    order = []
    while s.stage == "setup":
        a = g.actions[s.legal_actions()[0]]
        if isinstance(a, A.Build) and a.piece == "settlement":
            order.append(s.current_player())
        s.apply_action(s.legal_actions()[0])
    assert order == [2, 3, 0, 1, 1, 0, 3, 2]
    assert s.turn_player == 2 and s.turns == 1
    act(s, A.Roll(2))
    assert s.current_player() == 2
    act(s, A.EndTurn())
    assert s.turn_player == 3
    # sampling covers every seat across seeds
    seen = {base_game(4, seed).new_initial_state().sample_chance() for seed in range(40)}
    assert seen == {g.action_id[A.StartPlayer(p)] for p in range(4)}


def test_setup_road_touches_last_settlement(g):
    s = g.new_initial_state()
    act(s, A.StartPlayer(0))
    s.apply_action(s.legal_actions()[0])
    corner = s.last_corner[0]
    for aid in s.legal_actions():
        a = g.actions[aid]
        assert a.piece == "road" and corner in g.board.path_ends[a.at]


def test_production_settlement_one_city_two(g):
    s = blank(g)
    put(s, 0, "settlement", 18)
    put(s, 1, "settlement", 32)
    put(s, 1, "city", 32)
    to_main(s, 10)
    assert s.hands[0][ORE] == 1
    assert s.hands[1][ORE] == 2
    assert sum(s.hands[2]) == sum(s.hands[3]) == 0
    assert s.bank[ORE] == 16


def test_robber_blocks_production(g):
    s = blank(g)
    put(s, 0, "settlement", 18)
    s.neutral_at[g.piece_index["robber"]] = MOUNTAINS_10
    to_main(s, 10)
    assert s.hands[0][ORE] == 0


def test_bank_shortage_nobody_when_several_owed(g):
    s = blank(g)
    put(s, 0, "settlement", 18)
    put(s, 1, "city", 32)
    s.bank[ORE] = 2  # 3 owed
    to_main(s, 10)
    assert s.hands[0][ORE] == 0 and s.hands[1][ORE] == 0 and s.bank[ORE] == 2


def test_bank_shortage_single_player_takes_what_is_left(g):
    s = blank(g)
    put(s, 1, "city", 32)
    s.bank[ORE] = 1
    to_main(s, 10)
    assert s.hands[1][ORE] == 1 and s.bank[ORE] == 0


def test_seven_discards_moves_robber_and_steals(g):
    s = blank(g)
    put(s, 1, "settlement", 18)
    give(s, 1, 3, 3, 3, 0, 0)  # 9 cards: discards 4
    give(s, 2, 2, 2, 2, 2, 0)  # 8 cards: discards 4
    give(s, 3, 1, 1, 1, 1, 1)  # 5: keeps all
    act(s, A.Roll(7))
    assert s.current_player() == 1
    for r in ("brick", "brick", "brick", "lumber"):
        assert s.current_player() == 1
        act(s, A.Discard(r))
    assert s.hands[1] == [0, 2, 3, 0, 0]
    for r in ("brick", "lumber", "wool", "grain"):
        act(s, A.Discard(r))
    assert sum(s.hands[2]) == 4
    # roller moves the robber; not to where it stands
    assert s.current_player() == 0
    moves = [g.actions[a] for a in s.legal_actions()]
    assert all(isinstance(m, A.Move) for m in moves)
    assert A.Move("robber", DESERT) not in moves
    assert all(not g.board.hex_water[m.at] for m in moves)
    act(s, A.Move("robber", MOUNTAINS_10))
    assert [g.actions[a] for a in s.legal_actions()] == [A.Steal(1)]
    act(s, A.Steal(1))
    assert s.is_chance_node()
    outcomes = dict(s.chance_outcomes())
    assert {g.actions[a] for a in outcomes} == {A.Stolen("lumber"), A.Stolen("wool")}
    act(s, A.Stolen("wool"))
    assert s.hands[0][WOOL] == 1 and s.hands[1] == [0, 2, 2, 0, 0]
    assert A.EndTurn() in [g.actions[a] for a in s.legal_actions()]


def test_distance_rule_and_connection(g):
    s = blank(g)
    put(s, 0, "settlement", 32)
    road = next(p for p in g.board.corner_paths[32])
    put(s, 0, "road", road)
    other = next(c for c in g.board.path_ends[road] if c != 32)
    give(s, 0, 1, 1, 1, 1, 0)
    to_main(s)
    legal = [g.actions[a] for a in s.legal_actions()]
    assert A.Build("settlement", other) not in legal  # next to an existing settlement
    before = s.serialize()
    with pytest.raises(IllegalAction) as e:
        act(s, A.Build("settlement", other))
    assert e.value.code == "action/invalid_target"
    assert s.serialize() == before


def test_road_must_connect_and_not_through_opponent(g):
    s = blank(g)
    b = g.board
    put(s, 0, "settlement", 32)
    road = b.corner_paths[32][0]
    put(s, 0, "road", road)
    far = b.path_ends[road][0] if b.path_ends[road][1] == 32 else b.path_ends[road][1]
    give(s, 0, 5, 5, 0, 0, 0)
    to_main(s)
    legal = {g.actions[a].at for a in s.legal_actions() if isinstance(g.actions[a], A.Build)
             and g.actions[a].piece == "road"}
    expected = {x for c in (32, far) for x in b.corner_paths[c] if x != road}
    assert legal == expected
    # an opponent's settlement at the far end blocks roads through it
    put(s, 1, "settlement", far)
    legal = {g.actions[a].at for a in s.legal_actions() if isinstance(g.actions[a], A.Build)
             and g.actions[a].piece == "road"}
    assert legal == {x for x in b.corner_paths[32] if x != road}


def test_piece_limit(g):
    s = blank(g)
    put(s, 0, "settlement", 18)
    give(s, 0, 5, 5, 0, 0, 0)
    s.placed[0][g.piece_index["road"]] = 15
    s.changed()
    to_main(s)
    assert not any(isinstance(g.actions[a], A.Build) for a in s.legal_actions())


def test_city_upgrade_returns_settlement(g):
    s = blank(g)
    put(s, 0, "settlement", 18)
    give(s, 0, 0, 0, 0, 2, 3)
    to_main(s)
    act(s, A.Build("city", 18))
    assert s.placed[0][g.piece_index["settlement"]] == 0
    assert s.placed[0][g.piece_index["city"]] == 1
    assert s.points(0) == 2 and sum(s.hands[0]) == 0


def test_cannot_afford_and_not_your_turn_leave_state_unchanged(g):
    s = blank(g)
    put(s, 0, "settlement", 18)
    to_main(s)
    before = s.serialize()
    with pytest.raises(IllegalAction) as e:
        act(s, A.Build("city", 18))
    assert e.value.code == "action/cannot_afford"
    with pytest.raises(IllegalAction) as e:
        s.apply_action(g.end_turn_id, player=2)
    assert e.value.code == "action/not_your_turn"
    with pytest.raises(IllegalAction) as e:
        s.apply_action(10**6)
    assert e.value.code == "action/unknown"
    with pytest.raises(IllegalAction) as e:
        act(s, A.Roll(5))
    assert e.value.code == "action/not_legal"
    assert s.serialize() == before


def test_bank_trade_rates_and_harbors(g):
    s = blank(g)
    give(s, 0, 4, 0, 3, 0, 0)
    to_main(s)
    legal = [g.actions[a] for a in s.legal_actions()]
    assert A.BankTrade("brick", "ore") in legal and A.BankTrade("wool", "ore") not in legal
    put(s, 0, "settlement", 7)  # 3:1 harbor
    assert A.BankTrade("wool", "ore") in [g.actions[a] for a in s.legal_actions()]
    put(s, 0, "settlement", 11)  # wool 2:1 harbor
    assert trade_rate(s, 0, WOOL) == 2 and trade_rate(s, 0, BRICK) == 3
    act(s, A.BankTrade("wool", "ore"))
    assert s.hands[0][WOOL] == 1 and s.hands[0][ORE] == 1


def test_development_card_not_played_turn_bought_vp_counts_at_once(g):
    s = blank(g)
    put(s, 0, "settlement", 18)
    give(s, 0, 0, 0, 2, 2, 2)
    to_main(s)
    act(s, A.BuyCard("development"))
    assert s.is_chance_node()
    act(s, A.Draw("development", "knight"))
    assert s.cards[0][g.card_index["knight"]] == 1
    assert A.PlayCard("knight") not in [g.actions[a] for a in s.legal_actions()]
    act(s, A.BuyCard("development"))
    act(s, A.Draw("development", "victory_point"))
    assert s.points(0) == 2  # settlement + VP card, counted at once
    assert s.public_points(0) == 1


def test_knight_before_roll_one_card_per_turn_and_largest_army(g):
    s = blank(g)
    put(s, 1, "settlement", 18)
    give(s, 1, 1, 0, 0, 0, 0)
    k = g.card_index["knight"]
    s.cards[0][k] = 4
    s.deck[k] -= 4
    s.changed()
    for turn in range(3):
        assert not s.is_chance_node()  # may play a knight before rolling
        act(s, A.PlayCard("knight"))
        hexes = [MOUNTAINS_10, DESERT, MOUNTAINS_10]
        act(s, A.Move("robber", hexes[turn]))
        if isinstance(s.top(), Stealing):
            act(s, A.Steal(1))
            act(s, A.Stolen(s.game.resources[s.hands[1].index(max(s.hands[1]))]))
        assert s.is_chance_node()  # one card per turn: now the roll
        act(s, A.Roll(2))
        assert A.PlayCard("knight") not in [g.actions[a] for a in s.legal_actions()]
        act(s, A.EndTurn())
        for _ in range(3):
            act(s, A.Roll(2))
            act(s, A.EndTurn())
    assert played(s, 0, ["knight"]) == 3
    assert s.award_holder[1] == 0 and s.points(0) == 2


def test_year_of_plenty_and_monopoly_choose_resources(g):
    s = blank(g)
    s.cards[0][g.card_index["year_of_plenty"]] = 1
    s.cards[0][g.card_index["monopoly"]] = 1
    give(s, 2, 0, 0, 0, 3, 0)
    s.changed()
    to_main(s)
    act(s, A.PlayCard("year_of_plenty"))
    assert s.current_player() == 0
    act(s, A.ChooseResource("ore"))
    act(s, A.ChooseResource("brick"))
    assert s.hands[0][ORE] == 1 and s.hands[0][BRICK] == 1
    assert A.PlayCard("monopoly") not in [g.actions[a] for a in s.legal_actions()]
    act(s, A.EndTurn())
    for _ in range(3):
        act(s, A.Roll(2))
        act(s, A.EndTurn())
    act(s, A.PlayCard("monopoly"))  # before the roll
    act(s, A.ChooseResource("grain"))
    assert s.hands[0][GRAIN] == 3 and s.hands[2][GRAIN] == 0


def test_road_building_places_two_free_roads(g):
    s = blank(g)
    put(s, 0, "settlement", 32)
    s.cards[0][g.card_index["road_building"]] = 1
    s.changed()
    to_main(s)
    hand = list(s.hands[0])
    act(s, A.PlayCard("road_building"))
    for _ in range(2):
        a = g.actions[s.legal_actions()[0]]
        assert isinstance(a, A.Build) and a.piece == "road"
        act(s, a)
    assert s.placed[0][g.piece_index["road"]] == 2 and s.hands[0] == hand
    assert A.EndTurn() in [g.actions[a] for a in s.legal_actions()]


def test_longest_road_award_and_broken_by_opponent(g):
    s = blank(g)
    paths, corners = road_chain(g, 47, 6)
    put(s, 0, "settlement", 47)
    for x in paths[:4]:
        put(s, 0, "road", x)
    give(s, 0, 2, 2, 0, 0, 0)
    to_main(s)
    assert longest_route(s, 0, ["road"]) == 4
    act(s, A.Build("road", paths[4]))
    assert s.award_holder[0] == 0 and s.points(0) == 3
    # an opponent settles in the middle: 2 + 3 < 5, the card is set aside
    put(s, 1, "settlement", corners[2])
    act(s, A.Build("road", paths[5]))
    assert longest_route(s, 0, ["road"]) == 4
    assert s.award_holder[0] == -1


def test_victory_on_own_turn(g):
    s = blank(g)
    for c in (18, 20, 22):
        put(s, 0, "city", c)
    for c in (47, 74, 62):
        put(s, 0, "settlement", c)
    give(s, 0, 0, 0, 0, 2, 3)
    to_main(s)
    assert not s.is_terminal() and s.points(0) == 9
    act(s, A.Build("city", 62))
    assert s.is_terminal() and s.winner == 0 and s.returns() == [1.0, -1.0, -1.0, -1.0]


def test_turn_limit_ends_without_winner(g):
    s = blank(g)
    s.turns = g.turn_limit
    to_main(s)
    act(s, A.EndTurn())
    assert s.is_terminal() and s.winner == -1 and s.reason == "turn_limit"
    assert s.returns() == [0.0] * 4


def test_action_table_sorted_and_stable(g):
    keys = [a.key() for a in g.actions]
    assert keys == sorted(keys)
    assert [a.to_json() for a in base_game().actions] == [a.to_json() for a in g.actions]
    a = g.actions[123]
    assert A.action_from_json(a.to_json()) == a


def _play_card(s, card: str) -> None:
    g = s.game
    k = g.card_index[card]
    s.cards[0][k] += 1
    s.deck[k] -= 1
    s.changed()
    act(s, A.PlayCard(card))


def test_year_of_plenty_offers_only_what_the_bank_holds(g):
    s = blank(g)
    to_main(s)
    for r in (BRICK, LUMBER, WOOL):  # the bank holds only grain, and one ore
        s.hands[1][r] += s.bank[r]
        s.bank[r] = 0
    s.hands[2][ORE] += s.bank[ORE] - 1
    s.bank[ORE] = 1
    s.changed()
    _play_card(s, "year_of_plenty")
    assert {a.resource for a in legal_moves(s)} == {"grain", "ore"}
    act(s, A.ChooseResource("ore"))
    assert {a.resource for a in legal_moves(s)} == {"grain"}  # the last ore is gone
    act(s, A.ChooseResource("grain"))
    assert s.hands[0][ORE] == 1 and s.hands[0][GRAIN] == 1 and not s.pending


def test_year_of_plenty_with_an_empty_bank_lapses(g):
    s = blank(g)
    to_main(s)
    for r in range(5):
        s.hands[1][r] += s.bank[r]
        s.bank[r] = 0
    s.changed()
    _play_card(s, "year_of_plenty")
    assert not s.pending and A.EndTurn() in legal_moves(s)  # nothing to take: the card is spent
    assert s.played[0][g.card_index["year_of_plenty"]] == 1


def test_buying_from_an_empty_deck_has_its_own_code(g):
    s = blank(g)
    give(s, 0, 0, 0, 1, 1, 1)
    to_main(s)
    s.deck = [0] * len(s.deck)
    s.cards[1] = [c.count for c in g.cards]
    s.changed()
    before = s.serialize()
    with pytest.raises(IllegalAction) as e:
        act(s, A.BuyCard("development"))
    assert e.value.code == "action/deck_empty" and s.serialize() == before
