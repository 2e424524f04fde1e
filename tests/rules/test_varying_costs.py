"""Costs that depend on a value (rules/costs.py): a piece whose ore rises with the towers
its builder placed, an action whose grain rises with a counter and a param, a deck's card
whose wool rises with the same counter, a project stage dearer by its level, and an
action paid in tokens by a count. The cost rises as the value does, affordability
follows it (legal actions and refusals), the bank receives exactly what was paid, a
refused purchase changes nothing, and a count that comes to less than 0 in play stops
the game naming its line. On a three-hex map with two players, hands set by hand."""

from __future__ import annotations

import dataclasses

import pytest

import catandsl
from catandsl.engine import EngineError, IllegalAction
from catandsl.engine import actions as A
from catandsl.ir import model
from catandsl.rules.costs import CostLookups, cost_of
from catandsl.rules.counters import set_counter
from catandsl.rules.projects import project_level
from tests.conftest import THREE_HEXES, game_of, scenario_of

SCENARIO = """
scenario "Rising" {
  uses base
  players 2..3
  param surcharge 1
  counter lore
  token coin { supply 20 }
  piece tower {
    on intersection
    cost (pieces_placed(player, tower) + 1) ore + brick
    limit 3
    points 1
  }
  deck charter {
    cost (counter(player, lore)) wool + grain
    card charter 10 { points 1 }
  }
  action study "Study" {
    cost (counter(player, lore) + surcharge) grain
    per_turn 5
    on take { add_to_counter(player, lore, 1) }
  }
  action mint "Mint" {
    cost (counter(player, lore)) coin
    on take { take_from_bank(player, ore, 1) }
  }
  project wall "The Wall" {
    stage { cost brick }
    stage { cost (level * 2) brick; points 1 }
  }
  turn {
    phase roll { roll; play }
    phase main { trade; build; buy; play; study; mint; projects }
  }
""" + THREE_HEXES
BRICK, LUMBER, WOOL, GRAIN, ORE = range(5)  # the base game's resource order


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    return game_of(tmp_path_factory, SCENARIO, players=2)


def act(s, action, player=None):
    s.apply_action(s.game.action_id[action], player)


def started(game):
    """Past the set-up, player 0 in the main phase, hands empty."""
    s = game.new_initial_state()
    act(s, A.StartPlayer(0))
    while s.stage == "setup":
        s.apply_action(s.legal_actions()[0])
    s.bank = [b + sum(h[r] for h in s.hands) for r, b in enumerate(s.bank)]
    s.hands = [[0] * len(game.resources) for _ in s.hands]
    s.changed()
    if not s.is_chance_node():
        act(s, A.RollDice())
    act(s, A.Roll(3))  # no hex has a 3
    return s


def give(s, p, **counts):
    for name, n in counts.items():
        r = s.game.res_index[name]
        s.hands[p][r] += n
        s.bank[r] -= n
    s.changed()


def cards(s) -> list[int]:
    """Every resource card of the game, per resource: hands and bank."""
    return [s.bank[r] + sum(h[r] for h in s.hands) for r in range(len(s.bank))]


def refused(s, action, player=None) -> str:
    before = s.serialize()
    with pytest.raises(IllegalAction) as e:
        act(s, action, player)
    assert s.serialize() == before  # a refused purchase changes nothing
    return e.value.code


def towers(s) -> list[A.Build]:
    g = s.game
    return [a for a in map(g.action, s.legal_actions()) if isinstance(a, A.Build) and a.piece == "tower"]


def test_resources_are_in_the_order_the_test_assumes(game):
    assert game.resources == ("brick", "lumber", "wool", "grain", "ore")


def test_only_the_kinds_with_counts_in_brackets_are_evaluated(game):
    pieces = {P.name: P for P in game.pieces}
    assert pieces["tower"].varying is not None and pieces["tower"].cost[BRICK] == 1
    assert all(pieces[n].varying is None for n in ("road", "settlement", "city"))  # fixed: the flat table alone
    t = game.lookups(CostLookups)
    decks = [d.name for d in game.decks]
    assert t.decks[decks.index("development")] is None and t.decks[decks.index("charter")] is not None
    assert t.varies


def test_a_piece_costs_more_with_each_one_placed_and_affordability_follows(game):
    s = started(game)
    tower = game.piece_index["tower"]
    assert cost_of(s, 0, "piece", tower).cards == (1, 0, 0, 0, 1)
    give(s, 0, ore=1, brick=1)
    first = towers(s)
    assert first
    total, bank = cards(s), list(s.bank)
    act(s, first[0])
    assert s.hands[0] == [0] * 5 and [b - a for a, b in zip(bank, s.bank)] == [1, 0, 0, 0, 1]
    assert cards(s) == total  # the bank received exactly what was paid
    assert cost_of(s, 0, "piece", tower).cards == (1, 0, 0, 0, 2)  # one placed: 2 ore now
    assert cost_of(s, 1, "piece", tower).cards == (1, 0, 0, 0, 1)  # the other player placed none
    give(s, 0, ore=1, brick=1)  # what the first cost: not enough now
    assert not towers(s)
    assert refused(s, first[1]) == "action/cannot_afford"
    give(s, 0, ore=1)
    assert towers(s)
    bank = list(s.bank)
    act(s, towers(s)[0])
    assert [b - a for a, b in zip(bank, s.bank)] == [1, 0, 0, 0, 2] and s.hands[0] == [0] * 5
    assert cards(s) == total


def test_an_action_reads_a_counter_and_a_param_and_a_deck_the_same_counter(game):
    s = started(game)
    study, charter = A.TakeAction("study"), A.BuyCard("charter")
    k = [a.name for a in game.custom_actions].index("study")
    d = [x.name for x in game.decks].index("charter")
    assert cost_of(s, 0, "action", k).cards == (0, 0, 0, 1, 0)  # lore 0 + surcharge 1
    assert cost_of(s, 0, "deck", d).cards == (0, 0, 0, 1, 0)  # a count of 0: no wool, the grain
    give(s, 0, grain=3)
    total = cards(s)
    act(s, study)  # pays 1
    assert s.hands[0][GRAIN] == 2
    act(s, study)  # lore 1: pays 2
    assert s.hands[0][GRAIN] == 0 and cards(s) == total
    assert cost_of(s, 0, "action", k).cards == (0, 0, 0, 3, 0)
    assert game.action_id[study] not in s.legal_actions()
    assert refused(s, study) == "action/cannot_afford"
    assert cost_of(s, 0, "deck", d).cards == (0, 0, 2, 1, 0)  # lore 2: 2 wool and the grain
    give(s, 0, wool=1, grain=1)
    assert game.action_id[charter] not in s.legal_actions()
    assert refused(s, charter) == "action/cannot_afford"
    give(s, 0, wool=1)
    bank = list(s.bank)
    act(s, charter)
    assert [b - a for a, b in zip(bank, s.bank)] == [0, 0, 2, 1, 0] and s.hands[0] == [0] * 5


def test_an_action_pays_its_counted_tokens_back_to_the_supply(game):
    s = started(game)
    mint = A.TakeAction("mint")
    coin = 0
    set_counter(s, 0, "lore", 2)
    s.tokens_held[0][coin] += 1
    s.token_supply[coin] -= 1
    s.changed()
    assert game.action_id[mint] not in s.legal_actions()  # 2 coins now, 1 held
    assert refused(s, mint) == "action/cannot_afford"
    s.tokens_held[0][coin] += 1
    s.token_supply[coin] -= 1
    s.changed()
    supply = s.token_supply[coin]
    act(s, mint)
    assert s.tokens_held[0][coin] == 0 and s.token_supply[coin] == supply + 2


def test_a_stage_reads_its_level(game):
    s = started(game)
    give(s, 0, brick=1)
    act(s, A.BuildStage("wall"))
    assert project_level(s, "wall") == 1
    k = 0
    assert cost_of(s, 0, "stage", k).cards == (2, 0, 0, 0, 0)  # level 1: 2 brick
    give(s, 0, brick=1)
    assert refused(s, A.BuildStage("wall")) == "project/cannot_afford"
    give(s, 0, brick=1)
    bank = s.bank[BRICK]
    act(s, A.BuildStage("wall"))
    assert project_level(s, "wall") == 2 and s.bank[BRICK] == bank + 2 and s.hands[0][BRICK] == 0


def test_a_count_below_zero_in_play_stops_the_game_at_its_line(tmp_path_factory):
    # IR from another program may hold what the compiler refuses (E0525): -1 ore
    scenario = scenario_of(tmp_path_factory, SCENARIO, "negative")
    sections = []
    for section in scenario.sections:
        decls = []
        for decl in section.decls:
            if isinstance(decl, model.Piece) and decl.name == "tower":
                amount = decl.varying_cost[0]
                decl = dataclasses.replace(decl, varying_cost=(dataclasses.replace(
                    amount, count=model.Expr("sub", (model.Expr("num", value=1), model.Expr("num", value=2)))),))
            decls.append(decl)
        sections.append(dataclasses.replace(section, decls=tuple(decls)))
    game = catandsl.new_game(dataclasses.replace(scenario, sections=tuple(sections)), 2, {}, 1)
    s = game.new_initial_state()
    act(s, A.StartPlayer(0))
    while s.stage == "setup":
        s.apply_action(s.legal_actions()[0])
    if not s.is_chance_node():
        act(s, A.RollDice())
    with pytest.raises(EngineError) as e:
        act(s, A.Roll(3))  # the main phase lists the builds: the tower's count is -1
        s.legal_actions()
    line = next(k for k, text in enumerate(SCENARIO.split("\n"), 1) if "pieces_placed" in text)
    assert "came to -1" in e.value.message and e.value.source is not None and e.value.source.line == line
