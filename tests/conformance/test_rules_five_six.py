"""The 5-6 player extension (scenarios/five_six.catan): its island of 30 hexes, its 28
number tokens laid along the letter spiral, its 11 harbors and frame, the bigger bank
and deck, and the special building phase between turns."""

from __future__ import annotations

from collections import Counter

from catandsl.board import geometry as geo
from catandsl.engine import actions as A
from tests.conformance.catalog import rule
from tests.conformance.play import act, hand, legal, of_kind, refused, sites_of
from tests.conformance.positions import game, main, position, spread_corners, with_points
from tests.conformance.sites import side

MAP = "scenarios/five_six.catan"
SEEDS = range(1, 9)
LETTERS = [2, 5, 4, 6, 3, 9, 8, 11, 11, 10, 6, 3, 8, 4, 8, 10, 11, 12, 10, 5, 4, 9, 5, 9, 12, 3, 2, 6]
SPOT = (0, -1, "N")  # a settlement spot on every deal (no hex of the island is water)


def six(players: int = 6, seed: int = 1, **options):
    return game(MAP, players, seed, **options)


def land(g) -> list[int]:
    b = g.board
    return [h for h in range(len(b.hexes)) if b.terrain(h) not in ("sea",)]


def ended(g, seat: int = 0):
    """`seat` has just ended its turn; every player has a settlement to build from and
    holds a road's cost."""
    pos = position(g)
    for p, c in enumerate(spread_corners(g, g.num_players)):
        pos.place(p, "settlement", c).hand(p, brick=1, lumber=1)
    s = main(pos, seat).state()
    act(s, A.EndTurn())
    return s


# ---- the board --------------------------------------------------------------------------------------


@rule(MAP, "pool land shuffled [forest x6, pasture x6, fields x6, hills x5, mountains x5, desert x2]")
def test_five_six_thirty_land_hexes():
    """The island has 30 land hexes in rows of 3, 4, 5, 6, 5, 4 and 3: 6 each of forest,
    pasture and fields, 5 each of hills and mountains, and 2 deserts, shuffled."""
    deals = set()
    for seed in SEEDS:
        g = six(seed=seed)
        b = g.board
        hexes = land(g)
        rows = Counter(b.hexes[h][1] for h in hexes)
        assert [rows[r] for r in sorted(rows)] == [3, 4, 5, 6, 5, 4, 3]
        assert Counter(b.terrain(h) for h in hexes) == {
            "forest": 6, "pasture": 6, "fields": 6, "hills": 5, "mountains": 5, "desert": 2}
        deals.add(tuple(b.terrain(h) for h in hexes))
    assert len(deals) == len(SEEDS)


@rule(MAP, "numbers spiral [")
def test_five_six_number_tokens_along_the_letter_spiral():
    """The 28 number tokens (2 and 12 twice, every other number three times) are laid
    letter side up from A to Y, then Za, Zb and Zc, along a spiral from a corner of the
    island, counter-clockwise, ring by ring to the centre, stepping over both deserts."""
    for seed in SEEDS:
        g = six(seed=seed)
        b = g.board
        at = {b.hexes[h]: h for h in land(g)}
        laid = []
        for start in range(6):
            order = geo.hexagon_spiral(list(at), start)
            laid.append([b.hex_number[at[h]] for h in order if b.terrain(at[h]) != "desert"])
        assert LETTERS in laid
        assert all(b.hex_number[h] == 0 for h in land(g) if b.terrain(h) == "desert")


@rule(MAP, "harbors shuffled [3:1 x5, wool 2:1 x2, brick 2:1, lumber 2:1, grain 2:1, ore 2:1] at [")
def test_five_six_eleven_harbors():
    """11 harbors, shuffled onto the frame's spots: five 3:1, two wool 2:1, and one 2:1 each
    for brick, lumber, grain and ore; no two share an intersection."""
    g = six()
    b = g.board
    kinds = Counter(h.type.resource or f"{h.type.give}:{h.type.get}" for h in b.harbors)
    assert kinds == {"3:1": 5, "wool": 2, "brick": 1, "lumber": 1, "grain": 1, "ore": 1}
    served = [c for c in range(len(b.corner_harbor)) if b.corner_harbor[c] >= 0]
    assert len(served) == 22


@rule(MAP, "extend at B, C, E, F")
def test_five_six_the_frame_closes_round_the_island():
    """The frame is the base game's six pieces and the extension's four one-position pieces,
    22 sea positions round the island."""
    g = six()
    b = g.board
    sea = [h for h in range(len(b.hexes)) if b.terrain(h) == "sea"]
    assert len(sea) == 22
    assert all(any(b.terrain(n) != "sea" for n in b.hex_neighbours[h]) for h in sea)


@rule(MAP, "start robber on desert")
def test_five_six_the_robber_starts_on_a_desert():
    """The robber starts on a desert."""
    for seed in SEEDS:
        g = six(seed=seed)
        (h,) = sites_of(g.new_initial_state(), "robber")
        assert g.board.terrain(h) == "desert"


@rule(MAP, "bank 24 each")
def test_five_six_a_bank_of_24_of_each_resource():
    """The bank holds 24 cards of each resource (the base game's 19 and the extension's 5)."""
    s = six().new_initial_state()
    assert s.bank == [24] * 5


@rule(MAP, "card knight 20 {")
def test_five_six_a_deck_of_34_development_cards():
    """The development deck has 34 cards: 20 Knights, 5 Victory Points, and 3 each of Road
    Building, Year of Plenty and Monopoly."""
    g = six()
    s = g.new_initial_state()
    assert {c.name: s.deck[c.index] for c in g.cards} == {
        "knight": 20, "victory_point": 5, "road_building": 3, "year_of_plenty": 3, "monopoly": 3}


@rule(MAP, "players 5..6")
def test_five_six_five_or_six_players_with_the_base_pieces():
    """Five or six play, each with the base game's 5 settlements, 4 cities and 15 roads;
    10 points win."""
    for n in (5, 6):
        g = six(n)
        assert g.num_players == n and g.victory == 10
        assert {P.name: P.limit for P in g.pieces if not P.neutral} == {"road": 15, "settlement": 5, "city": 4}


# ---- the special building phase ----------------------------------------------------------------------


@rule(MAP, "phase special_build between turns { build; buy }", after="turn {")
def test_five_six_every_other_player_builds_after_a_turn_in_order():
    """Once a turn ends, each other player in turn order, starting on the active player's
    left, may build and buy development cards, then passes; then the next turn starts."""
    g = six()
    s = ended(g, seat=3)
    order = []
    while s.turn_player == 3:
        order.append(s.current_player())
        act(s, A.Pass())
    assert order == [4, 5, 0, 1, 2]
    assert s.turn_player == 4 and s.is_chance_node()


@rule(MAP, "phase special_build between turns { build; buy }", after="turn {")
def test_five_six_the_special_building_phase_builds_and_buys_but_neither_trades_nor_plays():
    """In the special building phase a player builds and buys, but trades with nobody, not
    even the bank or a harbor, and plays no development card."""
    g = six()
    pos = position(g).place(1, "settlement", SPOT).hand(1, brick=5, lumber=5, ore=1, wool=1, grain=1)
    s = main(pos.cards(1, held={"knight": 1, "year_of_plenty": 1}), 0).state()
    act(s, A.EndTurn())
    assert s.current_player() == 1
    assert {type(a).__name__ for a in legal(s)} == {"Build", "BuyCard", "Pass"}
    refused(s, A.PlayCard("knight"))
    act(s, A.Build("road", side(g, 0, -1, "NE")))
    act(s, A.BuyCard("development"), A.Draw("development", "monopoly"))
    assert hand(s, 1) == dict(hand(s, 1), brick=4, lumber=4, ore=0, wool=0, grain=0)


@rule(MAP, "phase special_build between turns { build; buy }", after="turn {")
def test_five_six_a_player_with_nothing_to_build_is_skipped():
    """A player who can pay for nothing is skipped; with nobody able to build, the next turn
    starts at once."""
    g = six()
    s = main(position(g).place(1, "settlement", SPOT), 0).state()
    act(s, A.EndTurn())
    assert s.turn_player == 1 and s.is_chance_node()


@rule(MAP, "phase special_build between turns { build; buy }", after="turn {")
def test_five_six_a_card_bought_between_turns_is_played_on_the_next_own_turn():
    """A development card bought in the special building phase is played on the buyer's own
    next turn: that phase is no part of a turn."""
    g = six()
    s = main(position(g).hand(1, ore=1, wool=1, grain=1), 0).state()
    act(s, A.EndTurn())
    assert s.current_player() == 1
    act(s, A.BuyCard("development"), A.Draw("development", "knight"))
    assert s.turn_player == 1  # nothing left to pay for: the phase passes on by itself
    assert A.PlayCard("knight") in legal(s)


@rule(MAP, "phase special_build between turns { build; buy }", after="turn {")
def test_five_six_points_reached_between_turns_win_on_the_players_own_turn():
    """A player who reaches 10 points in the special building phase does not win there, but
    when their own turn starts (not before the players between)."""
    g = six()
    pos = with_points(position(g), 2, 9).hand(2, ore=1, wool=1, grain=1)
    s = main(pos, 0).state()
    act(s, A.EndTurn())
    assert s.current_player() == 2
    act(s, A.BuyCard("development"), A.Draw("development", "victory_point"))
    assert s.points(2) == 10 and not s.is_terminal()
    assert s.turn_player == 1 and not s.is_terminal()
    act(s, A.Roll(8))
    act(s, A.EndTurn())
    assert s.is_terminal() and s.winner == 2


@rule(MAP, "phase special_build between turns { build; buy }", after="when trade_build is separate {")
def test_five_six_the_older_turn_keeps_the_special_building_phase():
    """With the older turn (`trade_build separate`: trade first, then build), the special
    building phase follows every turn too."""
    g = six(trade_build="separate")
    s = main(position(g).hand(1, ore=1, wool=1, grain=1), 0).state()
    act(s, A.EndTurn())
    assert s.turn_player == 0 and s.current_player() == 1
    assert of_kind(s, A.BuyCard)

