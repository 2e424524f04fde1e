"""Catan for Two with the base game (the `for 2 players` part of scenarios/base.catan),
on the beginner island (desert at the centre): two neutral seats, 2 and 3, whose
settlements start at (1,-1) N and (0,1) S; two rolls a turn; trade tokens earned by
the desert and the coast; a forced trade or the robber back to the desert for them."""

from __future__ import annotations

from catandsl.engine import actions as A
from tests.conformance.catalog import rule
from tests.conformance.play import act, cards, hand, held, holder, legal, of_kind, refused, roll, sites_of
from tests.conformance.positions import BASE, game, main, position, seat_piece, wins_at
from tests.conformance.sites import corner, hexid, side

MAP = BASE
NEUTRAL_AT = {2: (1, -1, "N"), 3: (0, 1, "S")}
# Intersections to settle: inland away from the desert, by the desert, on the coast.
INLAND, DESERT, COAST = (-1, 0, "S"), (0, 0, "N"), (2, -2, "N")
# Inland intersections for the rest of a set-up.
OTHERS = [(1, 0, "S"), (-1, -1, "S"), (0, -1, "N")]


def two(**options):
    return game(BASE, 2, **options)


def tokens(pos, t0: int = 5, t1: int = 5):
    """Trade tokens as the set-up leaves them (5 each unless said), the rest in the supply."""
    return pos.tokens(0, trade_token=t0).tokens(1, trade_token=t1)


def trade_tokens(s, seat: int = 0) -> int:
    return held(s, seat, "trade_token")


def settler(g, at):
    """Seat 0's turn after the rolls, 5 trade tokens each, a road of seat 0 to `at` and a
    settlement's cost in hand."""
    c = corner(g, *at)
    road = next(k for k in g.board.corner_paths[c] if k in g.pieces[g.piece_index["road"]].allowed_set)
    pos = tokens(position(g)).place(0, "road", road).hand(0, brick=1, lumber=1, wool=1, grain=1)
    return main(pos).state()


def settle(s, at) -> None:
    act(s, A.Build("settlement", corner(s.game, *at)))


def play_setup(g, spots: list):
    """The set-up with the settlements at `spots` in order, the first legal road each time."""
    s = g.new_initial_state()
    act(s, A.StartPlayer(0))
    spots = [corner(g, *x) for x in spots]
    while s.stage == "setup" and s.current_player() >= 0:
        options = legal(s)
        building = [a for a in options if isinstance(a, A.Build) and a.piece == "settlement"]
        act(s, next(a for a in building if a.at == spots[0]) if building else options[0])
        if building:
            spots.pop(0)
    return s


def coastal_desert_game():
    """A random island whose desert lies on the coast, and one of its coastal corners."""
    for seed in range(1, 200):
        g = game(BASE, 2, seed, layout="random")
        b = g.board
        desert = next(h for h in range(len(b.hexes)) if b.terrain(h) == "desert")
        for c in range(len(b.corner_hexes)):
            around = [b.terrain(h) for h in b.corner_hexes[c]]
            if (desert in b.corner_hexes[c] and ("sea" in around or len(around) < 3) and b.corner_harbor[c] < 0
                    and c in g.pieces[g.piece_index["settlement"]].allowed_set
                    and not {c, *b.corner_neighbours[c]} & {corner(g, *at) for at in NEUTRAL_AT.values()}):
                return g, c
    raise AssertionError("no deal with the desert on the coast")


# ---- the seats and the set-up -------------------------------------------------------------------------


@rule(MAP, "neutral_seats 2")
def test_two_base_two_neutral_seats_start_with_a_settlement_each():
    """Two players play the base game with two neutral seats in the unused colours: each
    starts with a settlement (no road) on its fixed intersection; they take no turns and
    hold nothing."""
    g = two()
    s = g.new_initial_state()
    assert g.num_neutral == 2 and len(s.hands) == 2
    assert [s.corner_owner[corner(g, *at)] for at in NEUTRAL_AT.values()] == [2, 3]
    assert [s.placed[seat][g.piece_index["road"]] for seat in (2, 3)] == [0, 0]


@rule(MAP, "start settlement of neutral 1 at (1, -1) N",
      fixed="the reference's recommended reading; no option offers another yet")
def test_two_base_neutral_settlements_keep_the_distance():
    """The neutral settlements stand above and below the centre and count for the distance
    rule."""
    g = two()
    s = g.new_initial_state()
    act(s, A.StartPlayer(0))
    spots = {a.at for a in of_kind(s, A.Build)}
    for at in NEUTRAL_AT.values():
        c = corner(g, *at)
        assert c not in spots and not spots & set(g.board.corner_neighbours[c])


@rule(MAP, "rule trade_tokens_at_start {")
def test_two_base_five_trade_tokens_each_and_ten_in_the_supply():
    """After the set-up each player has 5 trade tokens; the other 10 of the 20 wait in the
    supply."""
    g = two()
    s = play_setup(g, [INLAND, *OTHERS])
    assert [trade_tokens(s, p) for p in (0, 1)] == [5, 5] and s.token_supply[g.token_index["trade_token"]] == 10


@rule(MAP, "item on \"set-up settlements earn trade tokens too\" default", option="setup_tokens=on")
def test_two_base_setup_settlements_earn_tokens_too():
    """A set-up settlement by the desert or on the coast earns its tokens as in play."""
    assert trade_tokens(play_setup(two(), [DESERT, *OTHERS]), 0) == 7


@rule(MAP, "item off \"only settlements built during play earn them\"", alternative="setup_tokens=off")
def test_two_base_setup_settlements_earn_no_tokens_by_option():
    """With the option `off`, only settlements built in play earn trade tokens."""
    assert trade_tokens(play_setup(two(setup_tokens="off"), [DESERT, *OTHERS]), 0) == 5


# ---- two rolls -------------------------------------------------------------------------------------------


@rule(MAP, "rolls 2 distinct")
def test_two_base_two_rolls_a_turn_with_different_totals():
    """A turn has two rolls whose totals differ (a second total equal to the first is rolled
    again), each resolved in full before the next; nothing is played between them."""
    g = two()
    h = hexid(g, 1, 0)  # the forest 3
    s = position(g).place(1, "settlement", (1, 0, "S")).cards(0, held={"knight": 1}).state()
    assert A.PlayCard("knight") in legal(s)
    roll(s, 3)
    assert hand(s, 1)["lumber"] == 1 and s.is_chance_node()
    assert {g.actions[a].total for a, _ in s.chance_outcomes()} == set(range(2, 13)) - {3}
    act(s, A.Roll(6))
    assert g.board.hex_number[h] == 3 and not s.is_chance_node() and A.EndTurn() in legal(s)


# ---- trade tokens earned ------------------------------------------------------------------------------


@rule(MAP, "if touches(at, desert) {", after="define earn_trade_tokens(")
def test_two_base_a_settlement_by_the_desert_earns_two_tokens():
    """A player's settlement next to the desert earns 2 trade tokens."""
    s = settler(two(), DESERT)
    settle(s, DESERT)
    assert trade_tokens(s) == 7


@rule(MAP, "if coast(at) {", after="define earn_trade_tokens(")
def test_two_base_a_settlement_on_the_coast_earns_a_token():
    """A player's settlement on the coast earns 1 trade token."""
    s = settler(two(), COAST)
    settle(s, COAST)
    assert trade_tokens(s) == 6


@rule(MAP, "if coast(at) {", after="define earn_trade_tokens(",
      fixed="the reference's recommended reading; no option offers another yet")
def test_two_base_desert_and_coast_earn_both():
    """A settlement on the coast next to the desert earns both, 3 tokens."""
    g, c = coastal_desert_game()
    b = g.board
    road = next(k for k in b.corner_paths[c] if k in g.pieces[g.piece_index["road"]].allowed_set)
    s = main(tokens(position(g)).place(0, "road", road).hand(0, brick=1, lumber=1, wool=1, grain=1)).state()
    act(s, A.Build("settlement", c))
    assert trade_tokens(s) == 8


@rule(MAP, "rule trade_tokens_earned {", after="for 2 players {")
def test_two_base_inland_settlements_and_cities_earn_nothing():
    """A settlement away from the coast and the desert earns nothing, and no city does."""
    g = two()
    s = settler(g, INLAND)
    settle(s, INLAND)
    assert trade_tokens(s) == 5
    s = main(tokens(position(g)).place(0, "settlement", DESERT).hand(0, ore=3, grain=2)).state()
    act(s, A.Build("city", corner(g, *DESERT)))
    assert trade_tokens(s) == 5


@rule(MAP, "token trade_token { supply 20 }")
def test_two_base_an_empty_supply_pays_nothing():
    """There are 20 trade tokens: once the supply is empty, nothing more is paid."""
    g = two()
    c = corner(g, *DESERT)
    road = next(k for k in g.board.corner_paths[c] if k in g.pieces[g.piece_index["road"]].allowed_set)
    pos = tokens(position(g), 5, 15).place(0, "road", road).hand(0, brick=1, lumber=1, wool=1, grain=1)
    s = main(pos).state()
    settle(s, DESERT)
    assert trade_tokens(s) == 5 and s.token_supply[g.token_index["trade_token"]] == 0


# ---- neutral building --------------------------------------------------------------------------------


@rule(MAP, "build_free_for(player, neutral_seats(), [road])")
def test_two_base_a_road_gives_a_neutral_seat_a_road():
    """Each road a player builds in play gives one free road to a neutral seat: the builder
    picks the seat and the spot, which must touch that seat's own settlement or road."""
    g = two()
    s = main(position(g).place(0, "settlement", INLAND).hand(0, brick=1, lumber=1)).state()
    act(s, A.Build("road", side(g, -1, 0, "SE")))
    offered = of_kind(s, A.BuildFor)
    assert {(a.seat, a.at) for a in offered} == {
        (seat, k) for seat, at in NEUTRAL_AT.items() for k in g.board.corner_paths[corner(g, *at)]}
    act(s, offered[0])
    assert s.path_owner[offered[0].at] == offered[0].seat and not s.pending


@rule(MAP, "build_free_for(player, neutral_seats(), [settlement, road])",
      fixed="the reference's recommended reading; no option offers another yet")
def test_two_base_a_settlement_gives_a_neutral_settlement_or_else_a_road():
    """Each settlement a player builds in play gives a neutral seat a free settlement, on that
    seat's network by the usual rules; when no neutral seat has a spot for one, a road. Cities
    and development cards give nothing."""
    g = two()
    s = settler(g, COAST)
    settle(s, COAST)
    assert {a.piece for a in of_kind(s, A.BuildFor)} == {"road"}  # a lone settlement has no spot
    k1, k2 = side(g, 0, 1, "SW"), side(g, 0, 1, "W")  # seat 3's road: (0,1) S to SW to NW
    pos = tokens(position(g)).place(0, "road", side(g, 2, -2, "NW")).hand(0, brick=1, lumber=1, wool=1, grain=1)
    s = main(seat_piece(seat_piece(pos, 3, "road", k1), 3, "road", k2)).state()
    settle(s, COAST)
    assert {(a.seat, a.piece, a.at) for a in of_kind(s, A.BuildFor)} == {(3, "settlement", corner(g, 0, 1, "NW"))}
    s = main(position(g).place(0, "settlement", INLAND).hand(0, ore=4, grain=3, wool=1)).state()
    act(s, A.Build("city", corner(g, *INLAND)), A.BuyCard("development"), A.Draw("development", "knight"))
    assert not s.pending and A.EndTurn() in legal(s)


# ---- what trade tokens buy ---------------------------------------------------------------------------


@rule(MAP, "action discard_knight")
def test_two_base_a_played_knight_is_set_aside_for_two_tokens_once_a_turn():
    """Once a turn a player may set aside one of their played Knights for 2 trade tokens; the
    army shrinks."""
    g = two()
    s = main(tokens(position(g)).cards(0, played={"knight": 3})).state()
    assert holder(s, "largest_army") == 0
    act(s, A.TakeAction("discard_knight"))
    assert trade_tokens(s) == 7 and s.played[0][g.card_index["knight"]] == 2
    assert holder(s, "largest_army") == -1
    refused(s, A.TakeAction("discard_knight"))


@rule(MAP, "action forced_trade")
def test_two_base_a_forced_trade_takes_two_random_cards_and_gives_two_chosen():
    """A forced trade takes 2 random cards from the opponent (1 if that is all they hold),
    then gives back 2 of the player's choice from their hand as it was before; not against
    an empty hand."""
    g = two()
    s = main(tokens(position(g)).hand(0, brick=1, lumber=1).hand(1, wool=3)).state()
    act(s, A.TakeAction("forced_trade"))
    act(s, A.Stolen("wool"), A.Stolen("wool"))
    assert {a.resource for a in of_kind(s, A.ChooseResource)} == {"brick", "lumber"}
    act(s, A.ChooseResource("brick"), A.ChooseResource("lumber"))
    assert hand(s, 0) == dict(hand(s, 0), brick=0, lumber=0, wool=2)
    assert hand(s, 1) == dict(hand(s, 1), brick=1, lumber=1, wool=1)
    s = main(tokens(position(g)).hand(0, brick=2, ore=1).hand(1, wool=1)).state()
    act(s, A.TakeAction("forced_trade"), A.Stolen("wool"), A.ChooseResource("brick"), A.ChooseResource("ore"))
    assert cards(s, 0) == 2 and cards(s, 1) == 2
    s = main(tokens(position(g)).hand(0, brick=2)).state()
    refused(s, A.TakeAction("forced_trade"))


@rule(MAP, "tokens(player, trade_token) >= token_price(player)) {", after="action forced_trade")
def test_two_base_a_token_action_costs_one_or_two_when_ahead():
    """A token action costs 1 trade token, or 2 for a player ahead on the points everyone
    sees (hidden Victory Point cards do not count)."""
    g = two()
    for extra, cost in ((lambda pos: pos, 1), (lambda pos: pos.place(0, "settlement", INLAND), 2),
                        (lambda pos: pos.cards(0, held={"victory_point": 1}), 1)):
        s = main(extra(tokens(position(g)).hand(0, brick=2).hand(1, wool=2))).state()
        act(s, A.TakeAction("forced_trade"))
        assert trade_tokens(s) == 5 - cost


@rule(MAP, "return_to_start([robber])")
def test_two_base_the_robber_back_to_the_desert_robs_nobody():
    """For a trade token the robber goes back to the desert; nobody is robbed. Not while it
    stands there."""
    g = two()
    desert = hexid(g, 0, 0)
    s = main(tokens(position(g)).hand(1, ore=1)).state()
    assert sites_of(s, "robber") == [desert]
    refused(s, A.TakeAction("robber_to_desert"))
    s = main(tokens(position(g)).neutral("robber", (1, 0)).place(1, "settlement", DESERT).hand(1, ore=1)).state()
    act(s, A.TakeAction("robber_to_desert"))
    assert sites_of(s, "robber") == [desert] and trade_tokens(s) == 4
    assert not s.pending and hand(s, 1)["ore"] == 1


@rule(MAP, "counter token_actions { per turn }",
      fixed="the reference's recommended reading; no option offers another yet")
def test_two_base_one_token_action_a_turn_never_between_the_rolls():
    """A player takes at most one trade-token action a turn, before the rolls or while
    trading and building, never between the rolls."""
    g = two()
    s = tokens(position(g).neutral("robber", (1, 0))).state()
    assert A.TakeAction("robber_to_desert") in legal(s)
    roll(s, 8)
    assert s.is_chance_node()
    act(s, A.Roll(6))
    act(s, A.TakeAction("robber_to_desert"))
    s = main(tokens(position(g).neutral("robber", (1, 0))).hand(0, brick=2).hand(1, wool=2)).state()
    act(s, A.TakeAction("forced_trade"), A.Stolen("wool"), A.Stolen("wool"),
        A.ChooseResource("brick"), A.ChooseResource("brick"))
    assert A.TakeAction("robber_to_desert") not in legal(s)


@rule(MAP, "# 10 points win, as in the base game; the two players trade with each other as")
def test_two_base_ten_points_win():
    """Ten points win, on the player's own turn, as in the base game."""
    wins_at(two(), 10)
