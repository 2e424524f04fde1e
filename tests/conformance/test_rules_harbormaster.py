"""The Harbormaster with Traders & Barbarians (`--option harbormaster=on` of
scenarios/traders_barbarians/traders_and_barbarians.catan), for 3 players."""

from __future__ import annotations

from catandsl.engine import actions as A
from tests.conformance.catalog import rule
from tests.conformance.play import act, holder
from tests.conformance.positions import TB, game, main, position, wins_at

MAP = TB


def hm():
    return game(TB, 3, harbormaster="on")


def harbor_corners(g) -> list[int]:
    """Intersections a harbor serves, none next to another."""
    b = g.board
    out: list[int] = []
    for c, h in enumerate(b.corner_harbor):
        if h >= 0 and all(c not in b.corner_neighbours[x] for x in out):
            out.append(c)
    return out


@rule(MAP, "victory 14")
def test_harbormaster_fourteen_points_win():
    """With the Harbormaster, 14 victory points win."""
    wins_at(hm(), 14)


@rule(MAP, "measure sum_of([on_harbors(player, settlement), 2 * on_harbors(player, city)])")
def test_harbormaster_first_to_three_harbor_points_takes_the_card():
    """A settlement on an intersection a harbor serves is worth 1 harbor point, a city 2; the
    first player with 3 harbor points takes the Harbormaster card, worth 2 victory points."""
    g = hm()
    spots = harbor_corners(g)
    s = main(position(g).place(0, "settlement", spots[0]).place(0, "settlement", spots[1])
             .hand(0, ore=3, grain=2)).state()
    assert holder(s, "harbormaster") == -1 and s.points(0) == 2
    act(s, A.Build("city", spots[1]))
    assert holder(s, "harbormaster") == 0 and s.points(0) == 1 + 2 + 2


@rule(MAP, "award harbormaster {")
def test_harbormaster_taken_only_with_more_harbor_points():
    """Another player takes the card only with more harbor points than the holder: a tie stays
    with the holder."""
    g = hm()
    spots = harbor_corners(g)
    roads = g.pieces[g.piece_index["road"]].allowed_set
    pos = position(g).place(0, "settlement", spots[0]).place(0, "city", spots[1]).place(1, "city", spots[2])
    for c in spots[3:5]:
        pos.place(1, "road", next(k for k in g.board.corner_paths[c] if k in roads))
    s = main(pos.hand(1, brick=2, lumber=2, wool=2, grain=2), 1).state()
    assert holder(s, "harbormaster") == 0
    act(s, A.Build("settlement", spots[3]))
    assert holder(s, "harbormaster") == 0  # 3 against 3
    act(s, A.Build("settlement", spots[4]))
    assert holder(s, "harbormaster") == 1


@rule(MAP, "Harbormaster: harbor points, 1 for a settlement and 2 for a")
def test_harbormaster_trade_hexes_are_no_harbors():
    """Harbor points come from the harbors only: a building beside a trade hex earns none."""
    g = hm()
    s = (position(g).place(0, "city", (0, -2, "S")).place(0, "city", (2, 0, "SW"))
         .place(0, "city", (-2, 2, "NE")).state())
    assert holder(s, "harbormaster") == -1
