"""Event Cards (stdlib/event_cards.catan; RULES_TB_VARIANTS V2) from fixed positions with
a forced card: the deck as the roll's chance node, the New Year reshuffle, every event,
damaged roads; then the Traders & Barbarians adaptations (V2.6) and random games."""

from __future__ import annotations

import random
from functools import cache

import pytest

import catandsl
from catandsl.engine import IllegalAction
from catandsl.engine import actions as A
from catandsl.engine.validate import StateError
from catandsl.rules import neutral, placement, routes
from catandsl.rules.roll_cards import RollCardLookups
from tests.budget import count
from tests.conftest import land_path_away_from_hubs, tb_start
from tests.engine.helpers import BRICK, GRAIN, LUMBER, ORE, WOOL, act, blank, give, legal, put
from tests.engine.soundness import check_board, check_traders_barbarians

BASE = "scenarios/base.catan"
TB = "scenarios/traders_barbarians/traders_and_barbarians.catan"
ON = {"event_cards": "on"}


@cache
def scenario(path: str):
    return catandsl.load(path)


@cache
def game(path: str = BASE, players: int = 4):
    return catandsl.new_game(scenario(path), players, ON, 1)


def card(g, total: int, event: str = "") -> A.RevealCard:
    t = g.lookups(RollCardLookups)
    return A.RevealCard(next(k for k, (n, e) in enumerate(zip(t.totals, t.events)) if n == total and e == event))


def reveal(s, total: int, event: str = "") -> None:
    if not s.is_chance_node():
        act(s, A.RollDice())
    act(s, card(s.game, total, event))


def hex_with(g, number: int) -> int:
    return next(h for h, n in enumerate(g.board.hex_number) if n == number)


def path_between(g, a: int, b: int) -> int:
    return next(k for k, ends in enumerate(g.board.path_ends) if set(ends) == {a, b})


def road_line(g, length: int) -> tuple[list[int], list[int]]:
    """A line of `length` paths on land: (corners, paths), corners[i]-corners[i+1]."""
    b = g.board
    road = g.pieces[g.piece_index["road"]]
    corners = [next(c for c in range(len(b.intersections)) if all(x in road.allowed_set for x in b.corner_paths[c]))]
    paths: list[int] = []
    while len(paths) < length:
        c = corners[-1]
        x = next(x for x in b.corner_paths[c] if x in road.allowed_set and x not in paths
                 and not any(e in corners for e in b.path_ends[x] if e != c))
        paths.append(x)
        corners.append(next(e for e in b.path_ends[x] if e != c))
    return corners, paths


# ---- the deck ---------------------------------------------------------------------------


def test_the_deck_is_36_cards_by_two_dice_with_new_year_6th_from_the_bottom():
    g = game()
    t = g.lookups(RollCardLookups)
    per_total = {n: sum(c for tt, c in zip(t.totals, t.counts) if tt == n) for n in range(2, 13)}
    assert per_total == {n: 6 - abs(7 - n) for n in range(2, 13)}
    assert sum(c for e, c in zip(t.events, t.counts) if e) == 20 and t.unused == 5 and t.per_year == 31


def test_revealing_is_a_chance_node_over_the_cards_left():
    g = game()
    s = blank(g)
    assert s.is_chance_node()
    out = dict(s.chance_outcomes())
    sevens = g.action_id[card(g, 7, "robber_attacks")]
    assert out[sevens] == pytest.approx(6 / 36)
    reveal(s, 7, "robber_attacks")
    assert s.roll_deck[card(g, 7, "robber_attacks").card] == 5 and s.roll_year == 30
    while s.stage == "turn" and s.turn_player == 0:  # discards or the robber first, then end the turn
        s.apply_action(legal_first(s))
    act(s, A.RollDice()) if not s.is_chance_node() else None
    assert dict(s.chance_outcomes())[sevens] == pytest.approx(5 / 35)


def legal_first(s):
    acts = legal(s)
    end = [a for a in acts if isinstance(a, A.EndTurn)]
    return s.game.action_id[end[0] if end else acts[0]] if not s.is_chance_node() else s.sample_chance()


def test_new_year_rebuilds_the_deck_with_five_unused():
    g = game()
    s = blank(g)
    t = g.lookups(RollCardLookups)
    s.roll_deck = [0] * len(t.counts)
    for total, event in ((6, ""), (8, ""), (8, ""), (4, "robber_flees"), (2, "plentiful_year")):
        s.roll_deck[card(g, total, event).card] += 1
    s.roll_year = 0  # 31 revealed: the New Year card is next
    s.changed()
    assert g.deserialize_state(s.serialize()) == s  # a legal state: 5 cards under the New Year card
    out = dict(s.chance_outcomes())
    assert out[g.action_id[card(g, 7, "robber_attacks")]] == pytest.approx(6 / 36)  # everything back in
    reveal(s, 9)
    nine = card(g, 9).card
    assert s.roll_year == 30 and sum(s.roll_deck) == 35 and s.roll_deck[nine] == t.counts[nine] - 1


def test_a_year_uses_31_cards_and_leaves_5():
    g = game()
    s = blank(g)
    for _ in range(31):
        k = next(k for k, n in enumerate(s.roll_deck) if n)
        s.roll_deck[k] -= 1
        s.roll_year -= 1
    s.changed()
    assert s.roll_year == 0 and sum(s.roll_deck) == 5
    s.roll_year = 3
    with pytest.raises(StateError, match="roll_year"):
        g.deserialize_state(s.serialize())


# ---- the events (base game) -----------------------------------------------------------------


def test_epidemic_runs_before_production_and_cities_yield_one():
    g = game()
    for event, got in (("epidemic", 1), ("", 2)):
        s = blank(g)
        h = hex_with(g, 6)
        put(s, 0, "city", g.board.hex_corners[h][0])
        r = g.hex_resource[h]
        reveal(s, 6, event)
        assert s.hands[0][r] == got


def test_plentiful_year_every_player_takes_one_of_choice():
    g = game()
    s = blank(g)
    reveal(s, 2, "plentiful_year")
    for p in range(4):
        assert s.current_player() == p
        act(s, A.ChooseResource("ore"))
    assert [h[ORE] for h in s.hands] == [1, 1, 1, 1]


def _knights(s, played: list[int]):
    k = s.game.card_index["knight"] if hasattr(s.game, "card_index") else next(
        c.index for c in s.game.cards if c.name == "knight")
    for p, n in enumerate(played):
        s.played[p][k] = n
        s.deck[k] -= n
    s.changed()
    from catandsl.rules import scoring
    scoring.update_awards(s)


def test_conflict_the_largest_army_steals_from_an_opponent_of_choice():
    g = game()
    s = blank(g)
    _knights(s, [0, 3, 1, 0])
    give(s, 2, 0, 0, 0, 0, 1)
    reveal(s, 3, "conflict")
    assert s.current_player() == 1 and legal(s) == [A.Steal(2)]  # only player 2 holds a card
    act(s, A.Steal(2))
    act(s, A.Stolen("ore"))
    assert s.hands[1][ORE] == 1


def test_conflict_without_the_army_goes_to_the_single_knight_leader_and_a_tie_is_no_event():
    g = game()
    s = blank(g)
    _knights(s, [0, 2, 1, 0])  # 2 knights: below the army's 3
    give(s, 3, 0, 0, 0, 0, 1)
    reveal(s, 3, "conflict")
    assert s.current_player() == 1 and legal(s) == [A.Steal(3)]
    s = blank(g)
    _knights(s, [0, 2, 2, 0])
    give(s, 3, 0, 0, 0, 0, 1)
    reveal(s, 3, "conflict")
    assert s.current_player() == 0 and s.hands[3][ORE] == 1  # no event: the main phase


def test_tournament_the_most_knights_each_take_one_and_nobody_without_knights():
    g = game()
    s = blank(g)
    _knights(s, [1, 1, 0, 0])
    reveal(s, 5, "tournament")
    act(s, A.ChooseResource("wool"))
    act(s, A.ChooseResource("wool"))
    assert [h[WOOL] for h in s.hands] == [1, 1, 0, 0]
    s = blank(g)
    reveal(s, 5, "tournament")
    assert sum(map(sum, s.hands)) == 0 and s.current_player() == 0 and not s.pending


def test_trade_advantage_the_longest_road_steals_and_nobody_without_it():
    g = game()
    s = blank(g)
    corners, paths = road_line(g, 5)
    for k in paths:
        put(s, 2, "road", k)
    from catandsl.rules import scoring
    scoring.update_awards(s)
    give(s, 0, 1, 0, 0, 0, 0)
    reveal(s, 5, "trade_advantage")
    assert s.current_player() == 2 and legal(s) == [A.Steal(0)]
    s = blank(g)
    give(s, 0, 1, 0, 0, 0, 0)
    reveal(s, 5, "trade_advantage")
    assert not s.pending and s.hands[0][BRICK] == 1


def test_good_neighbors_everyone_passes_one_card_left_at_once():
    g = game()
    s = blank(g)
    give(s, 0, 1, 0, 0, 0, 0)
    give(s, 1, 0, 1, 0, 0, 0)
    give(s, 3, 0, 0, 0, 1, 0)  # player 2 holds nothing: passes nothing
    reveal(s, 6, "good_neighbors")
    assert s.current_player() == 0 and legal(s) == [A.ChooseResource("brick")]
    act(s, A.ChooseResource("brick"))
    assert s.hands[1][BRICK] == 0  # not given yet: player 1 cannot pass it on
    assert legal(s) == [A.ChooseResource("lumber")]
    act(s, A.ChooseResource("lumber"))
    act(s, A.ChooseResource("grain"))
    assert s.hands[1][BRICK] == 1 and s.hands[2][LUMBER] == 1 and s.hands[0][GRAIN] == 1
    assert sum(s.hands[0]) == 1 and sum(s.hands[3]) == 0


def test_helpful_neighbor_the_leader_gives_a_card_to_a_player_of_choice_with_fewer_points():
    g = game()
    s = blank(g)
    for p in (0, 0, 1):
        put(s, p, "settlement", _free_corner(s))
    give(s, 0, 0, 0, 0, 2, 0)
    reveal(s, 10, "helpful_neighbor")
    assert s.current_player() == 0 and legal(s) == [A.ChooseResource("grain")]
    act(s, A.ChooseResource("grain"))
    assert legal(s) == [A.ChoosePlayer(1), A.ChoosePlayer(2), A.ChoosePlayer(3)]
    act(s, A.ChoosePlayer(2))
    assert s.hands[0][GRAIN] == 1 and s.hands[2][GRAIN] == 1


def _free_corner(s) -> int:
    g = s.game
    settlement = g.pieces[g.piece_index["settlement"]]
    return next(c for c in sorted(settlement.allowed_set) if s.corner_owner[c] < 0 and all(
        s.corner_owner[m] < 0 for m in g.within[2][c]))


def test_calm_sea_the_most_buildings_on_harbors_take_one():
    g = game()
    s = blank(g)
    corner = next(c for c in range(len(g.board.intersections)) if _on_harbor(s, c))
    put(s, 3, "settlement", corner)
    reveal(s, 9, "calm_sea")
    assert s.current_player() == 3
    act(s, A.ChooseResource("wool"))
    assert s.hands[3][WOOL] == 1 and sum(map(sum, s.hands)) == 1


def _on_harbor(s, c: int) -> bool:
    put(s, 3, "settlement", c)
    from catandsl.rules.harbors import on_harbors
    ok = on_harbors(s, 3, "settlement") == 1
    s.corner_owner[c], s.corner_piece[c] = -1, -1
    s.placed[3][s.game.piece_index["settlement"]] -= 1
    s.changed()
    return ok


def test_robber_flees_to_the_desert():
    g = game()
    s = blank(g)
    robber = g.piece_index["robber"]
    start = neutral.sites_of(s, robber)
    neutral.put_pieces(s, robber, [hex_with(g, 8)])
    s.changed()
    reveal(s, 4, "robber_flees")
    desert = g.board.terrain_names.index("desert")
    assert neutral.sites_of(s, robber) == start and g.board.hex_terrain[start[0]] == desert


def test_robber_attacks_is_the_seven():
    g = game()
    s = blank(g)
    give(s, 1, 8, 0, 0, 0, 0)
    reveal(s, 7, "robber_attacks")
    assert s.current_player() == 1 and all(isinstance(a, A.Discard) for a in legal(s))


# ---- damaged roads (V2.4) -----------------------------------------------------------------------


def _quake(s, owner_roads: list[int]):
    """Player 0's roads on `owner_roads`; an Earthquake card; player 0 damages the first."""
    for k in owner_roads:
        put(s, 0, "road", k)
    reveal(s, 6, "earthquake")
    assert s.current_player() == 0
    assert sorted(a.at for a in legal(s)) == sorted(owner_roads)  # the owner picks [UNSURE default]
    act(s, A.Damage(owner_roads[0]))
    assert s.damaged == [owner_roads[0]]


def test_earthquake_then_no_new_road_until_repaired_at_road_cost():
    g = game()
    s = blank(g)
    corners, paths = road_line(g, 3)
    put(s, 0, "settlement", corners[0])
    _quake(s, paths[:2])
    give(s, 0, 2, 2, 0, 0, 0)
    roads = [a for a in legal(s) if isinstance(a, A.Build) and a.piece == "road"]
    assert roads == [A.Build("road", paths[0])]  # only the repair
    before = s.serialize()
    with pytest.raises(IllegalAction, match="repaired first"):
        act(s, A.Build("road", paths[2]))
    assert s.serialize() == before
    act(s, A.Build("road", paths[0]))
    assert s.damaged == [] and s.hands[0][BRICK] == 1 and s.placed[0][g.piece_index["road"]] == 2
    assert A.Build("road", paths[2]) in legal(s)


def test_a_repair_needs_no_road_from_the_supply():
    g = game()
    s = blank(g)
    corners, paths = road_line(g, 2)
    put(s, 0, "settlement", corners[0])
    _quake(s, paths)
    road = g.piece_index["road"]
    s.placed[0][road] = g.pieces[road].limit  # every road on the board (as far as the count goes)
    give(s, 0, 1, 1, 0, 0, 0)
    assert [a for a in legal(s) if isinstance(a, A.Build)] == [A.Build("road", paths[0])]


def test_road_building_may_repair():
    g = game()
    s = blank(g)
    corners, paths = road_line(g, 3)
    put(s, 0, "settlement", corners[0])
    _quake(s, paths[:2])
    placement.build_free(s, 0, ["road"], 2)
    s.changed()
    assert legal(s) == [A.Build("road", paths[0])]
    act(s, A.Build("road", paths[0]))
    assert s.damaged == [] and A.Build("road", paths[2]) in legal(s)


def test_a_damaged_road_counts_for_routes_but_reaches_no_new_settlement():
    g = game()
    s = blank(g)
    corners, paths = road_line(g, 3)
    put(s, 0, "settlement", corners[0])
    _quake(s, [paths[1], paths[0]])  # the far road is damaged
    assert routes.longest_route(s, 0, ["road"]) == 2
    give(s, 0, 1, 1, 1, 1, 0)
    assert A.Build("settlement", corners[2]) not in legal(s)  # only the damaged road reaches it
    s.damaged = []
    s.changed()
    assert A.Build("settlement", corners[2]) in legal(s)


def test_damage_survives_serialization_and_a_bad_one_is_refused():
    g = game()
    s = blank(g)
    corners, paths = road_line(g, 2)
    _quake(s, paths)
    assert g.deserialize_state(s.serialize()) == s
    s.damaged = [paths[1] + 1000]
    with pytest.raises(StateError, match="damaged"):
        g.deserialize_state(s.serialize())


# ---- Traders & Barbarians (V2.6) ------------------------------------------------------------------


def test_tb_the_2_card_has_its_event_then_another_card_is_revealed():
    g = game(TB, 3)
    s = blank(g)
    reveal(s, 2, "plentiful_year")
    for _ in range(3):
        act(s, A.ChooseResource("ore"))
    assert s.is_chance_node() and s.phase == g.roll_phase and s.last_roll != 2
    assert g.action_id[card(g, 2, "plentiful_year")] not in dict(s.chance_outcomes())  # the only 2 is out
    act(s, card(g, 8))
    assert s.last_roll == 8 and not s.is_chance_node()


def test_tb_robber_flees_and_trade_advantage_do_nothing():
    g = game(TB, 3)
    s = blank(g)
    give(s, 1, 1, 0, 0, 0, 0)
    reveal(s, 4, "robber_flees")
    assert not s.pending and not s.is_chance_node()
    assert "robber_flees" not in {r.name for r in g.ruleset.rules}
    assert "trade_advantage" not in {r.name for r in g.ruleset.rules}


def test_tb_a_wagon_pays_2_and_no_toll_over_a_damaged_road():
    g = catandsl.new_game(scenario(TB), 3, {}, 1)  # damage is state: the dice do here
    at, nxt = land_path_away_from_hubs(g)[:2]
    for damaged, cost, toll in ((False, 1, 1), (True, 2, 0)):
        s = tb_start(g, at)
        put(s, 1, "road", nxt)
        s.damaged = [nxt] if damaged else []
        s.changed()
        act(s, A.Travel("wagon", at, nxt))
        assert s.travellers[0].left == 4 - cost
        assert s.tokens_held[1][g.token_index["gold"]] == 5 + toll


# ---- random games -------------------------------------------------------------------------------

GAMES = count(60)  # per player count (tests/budget.py)
ACTIONS = 300  # per game: the set-up and the first turns, where the first events come


@pytest.mark.parametrize("players", [3, 4])
def test_tb_random_games_with_event_cards_keep_the_invariants(players):
    events = 0
    for seed in range(GAMES):
        g = catandsl.new_game(scenario(TB), players, ON, seed)
        s = g.new_initial_state()
        rng = random.Random(seed)
        for _ in range(ACTIONS):
            if s.is_terminal():
                break
            if s.is_chance_node():
                aid = s.sample_chance()
                events += isinstance(g.actions[aid], A.RevealCard) and bool(
                    g.lookups(RollCardLookups).events[g.actions[aid].card])
            else:
                aid = rng.choice(s.legal_actions())
            s.apply_action(aid)
            check_traders_barbarians(s)
            assert sum(s.roll_deck) == s.roll_year + 5
            assert all(s.path_owner[k] >= 0 for k in s.damaged)
        assert placement.pieces_on_board(s) == s.placed
        check_board(s)
    assert events > 0


def test_the_picture_crosses_a_damaged_road_and_the_log_names_the_card():
    from catandsl.render.state_svg import render_state
    g = game()
    s = blank(g)
    corners, paths = road_line(g, 2)
    assert 'class="damaged"' not in render_state(g, s)
    _quake(s, paths)
    assert render_state(g, s).count('class="damaged"') == 1
    assert g.action_to_string(g.action_id[card(g, 6, "epidemic")]) == "reveal card 6 epidemic"
    assert g.action_to_string(g.action_id[card(g, 8)]) == "reveal card 8"


@pytest.mark.parametrize("reading", ["discard_again", "event_no_production"])
def test_tb_the_other_readings_of_the_2_card(reading):
    g = catandsl.new_game(scenario(TB), 3, {**ON, "cards_2_12": reading}, 1)
    s = blank(g)
    reveal(s, 2, "plentiful_year")
    if reading == "discard_again":  # no event: straight to the next card
        assert s.is_chance_node() and sum(map(sum, s.hands)) == 0
    else:  # the event, and the 2 is the roll: nothing produces
        for _ in range(3):
            act(s, A.ChooseResource("ore"))
        assert not s.is_chance_node() and s.last_roll == 2 and [h[ORE] for h in s.hands] == [1, 1, 1]


def test_tb_robber_attacks_discards_first_then_a_barbarian_moves():
    g = game(TB, 3)
    s = blank(g)
    give(s, 1, 8, 0, 0, 0, 0)
    reveal(s, 7, "robber_attacks")
    assert s.current_player() == 1 and all(isinstance(a, A.Discard) for a in legal(s))
    for _ in range(4):
        act(s, A.Discard("brick"))
    moves = [a for a in legal(s) if isinstance(a, A.Move)]
    assert moves and all(m.piece == "barbarian" for m in moves)
