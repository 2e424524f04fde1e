"""Seafarers rules in the engine on small hand-made boards written in the language
(the pirate, gold fields, special victory points, the first scenarios' island rules): fixed
positions, forced dice, exact outcomes.

The tiny board is one row: forest 8, pasture 9 (together the island `main`), sea (the
pirate), gold 6, sea, mountains 5. Hex ids 0..5 left to right; islands 0 (main), 1
(gold), 2 (mountains). Intersections and paths used below:

- gold hex 3: corners N 13, NE 4, SE 23, S 14, SW 22, NW 3; sides NE 9 (4-13),
  E 14 (4-23), SE 27 (14-23), SW 24 (14-22), W 11 (3-22), NW 10 (3-13);
- sea hex 4 (between gold and mountains): sides 12, 17, 29, 26, 14, 13.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from catandsl.compiler import compile_path
from catandsl.diagnostics import format_all
from catandsl.engine import actions as A
from catandsl.engine import new_game
from catandsl.rules import islands as I
from catandsl.rules import neutral
from catandsl.rules.errors import IllegalAction
from catandsl.rules.production import Choosing
from tests.engine.helpers import act, blank, give, legal, put, to_main

BRICK, LUMBER, WOOL, GRAIN, ORE = range(5)

MAP_ROW = """
      rows \"\"\"
        f8  p9  ~   g6  ~   m5
      \"\"\"
      legend { f forest; p pasture; ~ sea; g gold; m mountains }
      island main at (0, 0)
      start robber off board
      start pirate at (2, 0)
"""

TINY = """
scenario tiny "Tiny islands" {
  uses seafarers
  players 3
  victory 30
  special_victory "small islands" {
    on built(settlement) if not on_island(at, main) and first_on(player, island(at)) {
      vp_token(player, at, 2)
    }
  }
  %(setup)s
  for 3 players {
    map {
%(map)s
    }
  }
}
"""

SETUP_MAIN = """
  setup {
    round forward {
      place settlement where on_island(at, main)
      place road or ship touching last
    }
    round backward {
      place settlement where on_island(at, main)
      place road or ship touching last
      collect last
    }
  }
"""

FOUR = """
scenario four "Four tiny islands" {
  uses seafarers
  players 3
  victory 30
  rule home_islands {
    on setup_ended {
      for p in players() {
        for i in islands_of(p) {
          mark_island(p, "home", i)
        }
      }
    }
  }
  special_victory "foreign islands" {
    on built(settlement) if (not in_setup()
        and not island_marked(player, "home", island(at))
        and first_on(player, island(at))) {
      vp_token(player, at, nth([1, 2, 2], islands_with(player, "home")))
    }
  }
  for 3 players {
    map {
      rows \"\"\"
        f8  ~   p9  ~   m5  ~   h4
      \"\"\"
      legend { f forest; p pasture; ~ sea; m mountains; h hills }
      start robber off board
      start pirate at (1, 0)
    }
  }
}
"""


def _compile(tmp_path: Path, text: str, name: str = "t.catan"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    scenario, diags, sources = compile_path(path)
    assert scenario is not None, format_all(diags, sources)
    assert not [d for d in diags if d.is_error], format_all(diags, sources)
    return scenario


@pytest.fixture
def tiny(tmp_path):
    return new_game(_compile(tmp_path, TINY % {"setup": "", "map": MAP_ROW}), 3, seed=1)


def _blank(g):
    s = blank(g)
    s.vp_tokens, s.island_tags = [], []
    s.neutral_at = [-1] * len(g.pieces)
    for k, pi in enumerate(g.neutral):
        s.neutral_at[pi] = g.starts[k]
    s.changed()
    return s


def _moves(s):
    return sorted((a.piece, a.at) for a in legal(s) if isinstance(a, A.Move))


# ---- the pirate (B.5) --------------------------------------------------------------------


def test_seven_moves_robber_on_land_or_pirate_on_water_and_it_must_move(tiny):
    g = tiny
    s = _blank(g)
    water = {h for h in range(len(g.board.hexes)) if g.board.hex_water[h]}
    act(s, A.Roll(7))
    moves = _moves(s)
    assert [h for p, h in moves if p == "pirate"] == [4]  # only sea, never where it is (2)
    assert [h for p, h in moves if p == "robber"] == [0, 1, 3, 5]  # off the board: enters anywhere on land
    assert not any(h in water for p, h in moves if p == "robber")
    with pytest.raises(IllegalAction):
        act(s, A.Move("pirate", 2))
    # the pirate never goes on land: no action in the catalogue puts it there
    assert A.Move("pirate", 3) not in g.action_id


def test_pirate_steals_once_from_a_ship_owner_only(tiny):
    g = tiny
    s = _blank(g)
    put(s, 1, "ship", 14)
    put(s, 1, "ship", 13)  # two ships on the hex: still one theft
    put(s, 2, "settlement", 4)  # a building on the hex's corner: the pirate ignores it
    give(s, 1, 0, 0, 2, 0, 0)
    give(s, 2, 0, 0, 0, 3, 0)
    act(s, A.Roll(7))
    act(s, A.Move("pirate", 4))
    assert s.neutral_at[g.piece_index["pirate"]] == 4
    assert legal(s) == [A.Steal(1)]
    act(s, A.Steal(1))
    assert s.is_chance_node()
    act(s, A.Stolen("wool"))
    assert s.hands[0][WOOL] == 1 and s.hands[1][WOOL] == 1 and s.hands[2][GRAIN] == 3
    assert s.pending == []


def test_robber_steals_from_buildings_not_ships(tiny):
    g = tiny
    s = _blank(g)
    put(s, 1, "ship", 14)  # on the gold hex's east side
    put(s, 2, "settlement", 4)
    give(s, 1, 0, 0, 2, 0, 0)
    give(s, 2, 0, 0, 0, 3, 0)
    act(s, A.Roll(7))
    act(s, A.Move("robber", 3))
    assert legal(s) == [A.Steal(2)]


def test_pirate_blocks_ships_on_the_edges_of_its_hex(tiny):
    g = tiny
    s = _blank(g)
    b = g.board
    assert neutral.blocked_hexes(s, "ship") == [2]
    assert neutral.blocked_paths(s, "ship") == set(b.hex_paths[2])
    assert neutral.blocks_path(s, "ship", 8) and not neutral.blocks_path(s, "ship", 14)
    assert neutral.blocked_hexes(s, "production") == []  # the robber is off the board
    assert not neutral.blocks_path(s, "road", 8)  # the pirate blocks ships only
    act(s, A.Roll(7))
    act(s, A.Move("pirate", 4))
    assert neutral.blocked_paths(s, "ship") == set(b.hex_paths[4])
    assert neutral.blocks_path(s, "ship", 14) and not neutral.blocks_path(s, "ship", 8)


# ---- gold (B.6) -----------------------------------------------------------------------------


def test_gold_pays_settlement_one_and_city_two_of_the_owners_choice(tiny):
    g = tiny
    s = _blank(g)
    put(s, 1, "settlement", 13)
    put(s, 2, "city", 22)
    bank = list(s.bank)
    act(s, A.Roll(6))
    assert s.current_player() == 1  # seat order from the player whose turn it is (0)
    assert legal(s) == [A.ChooseResource(r) for r in sorted(g.resources)]
    act(s, A.ChooseResource("ore"))
    assert s.current_player() == 2
    act(s, A.ChooseResource("brick"))
    assert s.current_player() == 2
    act(s, A.ChooseResource("wool"))
    assert s.current_player() == 0 and not s.pending  # main phase of player 0
    assert s.hands[1] == [0, 0, 0, 0, 1]
    assert s.hands[2] == [1, 0, 1, 0, 0]
    assert sum(bank) - sum(s.bank) == 3 and s.bank[ORE] == bank[ORE] - 1


def test_gold_choice_lapses_when_the_bank_is_empty_and_robber_blocks_it(tiny):
    g = tiny
    s = _blank(g)
    put(s, 1, "settlement", 13)
    put(s, 2, "city", 22)
    s.bank = [0, 0, 0, 0, 1]
    s.changed()
    act(s, A.Roll(6))
    assert legal(s) == [A.ChooseResource("ore")]  # only what the bank still has
    act(s, A.ChooseResource("ore"))
    assert not s.pending and s.current_player() == 0  # player 2's choices lapsed
    assert s.hands[2] == [0] * 5
    s2 = _blank(g)
    put(s2, 1, "settlement", 13)
    s2.neutral_at[g.piece_index["robber"]] = 3
    s2.changed()
    act(s2, A.Roll(6))
    assert not s2.pending and s2.hands[1] == [0] * 5


def test_setup_second_settlement_next_to_gold_takes_a_choice(tiny):
    g = tiny
    s = g.new_initial_state()
    act(s, A.StartPlayer(0))
    gold_prompt = None
    while s.stage == "setup":
        acts = legal(s)
        # the last set-up settlement (player 0, backward round) goes next to the gold
        settled = sum(row[g.piece_index["settlement"]] for row in s.placed)
        if settled == 2 * g.num_players - 1 and A.Build("settlement", 13) in acts:
            act(s, A.Build("settlement", 13))
            continue
        if isinstance(s.top(), Choosing):
            gold_prompt = (s.current_player(), [e[:] for e in s.top().owed])
            act(s, A.ChooseResource("ore"))
            continue
        pick = [a for a in acts if not (isinstance(a, A.Build) and a.piece == "settlement"
                                        and a.at in (13, 4, 3))]
        act(s, pick[0])
    assert s.corner_owner[13] == 0
    assert gold_prompt == (0, [[0, 1]])
    assert s.hands[0][ORE] >= 1


# ---- islands in placement conditions -----------------------------------------------------------


def test_setup_where_names_an_island(tmp_path):
    g = new_game(_compile(tmp_path, TINY % {"setup": SETUP_MAIN, "map": MAP_ROW}), 3, seed=1)
    s = g.new_initial_state()
    act(s, A.StartPlayer(0))
    sites = [a.at for a in legal(s) if isinstance(a, A.Build)]
    assert sites and all(0 in g.board.corner_islands[c] for c in sites)
    assert 13 not in sites and 17 not in sites
    while s.stage == "setup":
        acts = legal(s)
        for a in acts:
            if isinstance(a, A.Build) and a.piece == "settlement":
                assert 0 in g.board.corner_islands[a.at]
        act(s, acts[-1])
    assert all(0 in g.board.corner_islands[c] for c, o in enumerate(s.corner_owner) if o >= 0)


def test_island_queries(tiny):
    g = tiny
    s = _blank(g)
    assert I.island(s, ["i", 13]) == 1 and I.island(s, ["h", 2]) == -1
    assert I.on_island(s, ["i", 7], [0]) and not I.on_island(s, ["i", 13], [0])
    assert g.interp.names["main"] == [0]
    put(s, 0, "settlement", 7)
    put(s, 0, "settlement", 13)
    assert I.islands_of(s, 0) == [0, 1]
    I.mark_island(s, 0, "home", 0)
    assert I.island_marked(s, 0, "home", 0) and not I.island_marked(s, 1, "home", 0)
    assert I.islands_with(s, 0, "home") == 1


# ---- special victory points (B.8, C.2) -----------------------------------------------------------


def _build(s, player, piece, at):
    hand = s.hands[player]
    s.bank = [b + h for b, h in zip(s.bank, hand)]
    s.hands[player] = [0] * 5
    give(s, player, *s.game.pieces[s.game.piece_index[piece]].cost)
    act(s, A.Build(piece, at))


def _turn_of(s, player):
    while s.turn_player != player or s.game.phases[s.phase].name != "main":
        if s.game.phases[s.phase].name == "main":
            act(s, A.EndTurn())
        else:
            to_main(s, 2)  # no hex has a 2


def test_first_settlement_on_a_small_island_earns_special_points_once_per_player(tiny):
    g = tiny
    s = _blank(g)
    to_main(s, 2)
    put(s, 0, "road", 9)
    put(s, 0, "road", 14)
    put(s, 1, "ship", 11)
    _build(s, 0, "settlement", 13)
    assert s.vp_tokens == [(0, 13, 2)]
    assert s.points(0) == 3
    _build(s, 0, "settlement", 23)  # a second one on the same island: nothing more
    assert s.points(0) == 4 and s.vp_tokens == [(0, 13, 2)]
    _turn_of(s, 1)
    _build(s, 1, "settlement", 22)  # another player earns it too
    assert s.points(1) == 3 and s.vp_tokens == [(0, 13, 2), (1, 22, 2)]
    # main island: no token
    put(s, 1, "road", 0)
    _build(s, 1, "settlement", 7)
    assert s.points(1) == 4 and len(s.vp_tokens) == 2


def test_vp_token_survives_a_city_upgrade_and_shows_in_state_and_observation(tiny):
    g = tiny
    s = _blank(g)
    to_main(s, 2)
    put(s, 0, "road", 9)
    _build(s, 0, "settlement", 13)
    _build(s, 0, "city", 13)
    assert s.points(0) == 2 + 2 and s.vp_tokens == [(0, 13, 2)]
    data = json.loads(s.serialize())
    assert data["vp_tokens"] == [[0, 13, 2]]
    assert g.deserialize_state(s.serialize()).points(0) == 4
    assert s.clone().vp_tokens == [(0, 13, 2)]
    obs = s.observation(1)
    assert obs["vp_tokens"] == [[0, 13, 2]] and obs["scores"][0] == 4


def test_states_without_tokens_serialize_empty_lists(tiny):
    s = _blank(tiny)
    data = json.loads(s.serialize())
    assert data["vp_tokens"] == [] and data["island_tags"] == []


def test_four_islands_home_islands_and_the_1_2_2_sequence(tmp_path):
    g = new_game(_compile(tmp_path, FOUR), 3, seed=1)
    b = g.board
    s = g.new_initial_state()
    act(s, A.StartPlayer(0))
    while s.stage == "setup":
        act(s, legal(s)[0])
    # set-up settlements earn nothing; their islands are home
    assert s.vp_tokens == []
    for p in range(3):
        homes = sorted(i for q, t, i in s.island_tags if q == p and t == "home")
        assert homes == I.islands_of(s, p) and homes
    s = _blank(g)
    I.mark_island(s, 0, "home", 0)  # player 0: one home island (0)
    to_main(s, 2)

    def corner_of(island, skip=()):
        hexes = b.islands[island]
        return next(c for c in b.hex_corners[hexes[0]]
                    if b.corner_islands[c] == (island,) and c not in skip)

    for island, earned in ((1, 1), (2, 2), (3, 2)):
        c = corner_of(island)
        put(s, 0, "road", b.corner_paths[c][0])
        before = s.points(0)
        _build(s, 0, "settlement", c)
        assert s.points(0) - before == 1 + earned, island
        assert s.vp_tokens[-1] == (0, c, earned)
    # a second settlement on a foreign island: nothing more
    taken = {c for c, o in enumerate(s.corner_owner) if o >= 0}
    c = next(c for c in b.hex_corners[b.islands[1][0]]
             if b.corner_islands[c] == (1,)
             and not any(m in taken for m in g.within[2][c]) and c not in taken)
    put(s, 0, "road", b.corner_paths[c][0])
    before = s.points(0)
    _build(s, 0, "settlement", c)
    assert s.points(0) - before == 1
    # the home island: nothing
    c = corner_of(0)
    put(s, 0, "road", b.corner_paths[c][0])
    before = s.points(0)
    _build(s, 0, "settlement", c)
    assert s.points(0) - before == 1
    assert s.public_points(0) == s.points(0)


def test_the_log_notes_special_victory_points_and_awards():
    from catandsl import new_game
    from catandsl.players import GreedyPlayer, play_game
    from tests.conftest import ROOT

    game = new_game(str(ROOT / "scenarios/seafarers/heading_for_new_shores.catan"), 4, {}, 3)
    state, log = play_game(game, [GreedyPlayer(k) for k in range(4)], seed=3)
    notes = [n for e in log for n in e["notes"]]
    earned = [n for n in notes if "special victory point" in n]
    assert len(earned) == len(state.vp_tokens) > 0
    assert any(n.endswith(("takes Largest Army", "takes Longest Trade Route")) for n in notes)
