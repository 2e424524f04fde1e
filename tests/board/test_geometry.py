import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from catandsl.board import geometry as geo

coords = st.integers(min_value=-50, max_value=50)
hexes = st.tuples(coords, coords)
OPPOSITE = {"E": "W", "NE": "SW", "NW": "SE", "W": "E", "SW": "NE", "SE": "NW"}


def test_corner_names_follow_the_brief():
    q, r = 4, -2
    assert geo.corner((q, r), "N") == (q, r, "N")
    assert geo.corner((q, r), "S") == (q, r, "S")
    assert geo.corner((q, r), "NE") == (q + 1, r - 1, "S")
    assert geo.corner((q, r), "NW") == (q, r - 1, "S")
    assert geo.corner((q, r), "SE") == (q, r + 1, "N")
    assert geo.corner((q, r), "SW") == (q - 1, r + 1, "N")


def test_side_names_follow_the_brief():
    q, r = 4, -2
    assert geo.canonical_edge(q, r, "E") == (q + 1, r, "W")
    assert geo.canonical_edge(q, r, "SE") == (q, r + 1, "NW")
    assert geo.canonical_edge(q, r, "SW") == (q - 1, r + 1, "NE")
    assert geo.edge_ends((q, r, "NE")) == tuple(
        sorted([geo.corner((q, r), "N"), geo.corner((q, r), "NE")], key=geo.intersection_key)
    )
    assert set(geo.edge_ends((q, r, "NW"))) == {geo.corner((q, r), "NW"), (q, r, "N")}
    assert set(geo.edge_ends((q, r, "W"))) == {geo.corner((q, r), "NW"), geo.corner((q, r), "SW")}


@given(hexes)
def test_six_distinct_corners_and_sides(h):
    assert len(set(geo.corners(h))) == 6
    assert len(set(geo.sides(h))) == 6
    assert all(c[2] in ("N", "S") for c in geo.corners(h))
    assert all(p[2] in ("NE", "NW", "W") for p in geo.sides(h))


@given(hexes, st.sampled_from(geo.DIRECTION_NAMES))
def test_neighbours_share_one_side_and_its_two_corners(h, d):
    n = geo.neighbour(h, d)
    shared_corners = set(geo.corners(h)) & set(geo.corners(n))
    shared_sides = set(geo.sides(h)) & set(geo.sides(n))
    assert len(shared_corners) == 2
    assert shared_sides == {geo.canonical_edge(*h, d)}
    assert geo.canonical_edge(*h, d) == geo.canonical_edge(*n, OPPOSITE[d])
    assert set(geo.edge_ends(geo.canonical_edge(*h, d))) == shared_corners
    assert set(geo.edge_hexes(geo.canonical_edge(*h, d))) == {h, n}
    assert geo.side_between(h, n) == d


@given(hexes)
def test_sides_run_between_consecutive_corners(h):
    cs = geo.corners(h)
    for k, p in enumerate(geo.sides(h)):
        assert set(geo.edge_ends(p)) == {cs[k], cs[(k + 1) % 6]}


@given(hexes)
def test_an_intersection_touches_three_hexes_that_all_own_it(h):
    for c in geo.corners(h):
        around = geo.intersection_hexes(c)
        assert h in around and len(set(around)) == 3
        for other in around:
            assert c in geo.corners(other)


@given(hexes)
def test_intersection_neighbours_are_one_path_away(h):
    for c in geo.corners(h):
        ns = geo.intersection_neighbours(c)
        assert len(set(ns)) == 3
        for n in ns:
            assert c in geo.intersection_neighbours(n)
            p = geo.path_between(c, n)
            assert set(geo.edge_ends(p)) == {c, n}
        assert set(geo.intersection_paths(c)) == {geo.path_between(c, n) for n in ns}


def test_path_between_rejects_far_intersections():
    with pytest.raises(ValueError):
        geo.path_between((0, 0, "N"), (0, 0, "S"))


def test_radius_two_hexagon_counts():
    hexagon = geo.hexagon((0, 0), 2)
    corners = {c for h in hexagon for c in geo.corners(h)}
    paths = {p for h in hexagon for p in geo.sides(h)}
    assert (len(hexagon), len(corners), len(paths)) == (19, 54, 72)


@pytest.mark.parametrize("radius", [1, 2, 3, 5])
@pytest.mark.parametrize("start", range(6))
def test_ring_is_a_closed_counter_clockwise_cycle(radius, start):
    centre = (2, -1)
    ring = geo.ring(centre, radius, start)
    assert len(ring) == len(set(ring)) == 6 * radius
    assert all(geo.distance(h, centre) == radius for h in ring)
    for a, b in zip(ring, ring[1:] + ring[:1]):
        assert geo.are_adjacent(a, b)
    d = geo.DIRECTIONS[geo.DIRECTION_NAMES[start]]
    assert ring[0] == (centre[0] + d[0] * radius, centre[1] + d[1] * radius)
    # Counter-clockwise on the page (y down): the signed area is negative.
    pts = [geo.pixel(h) for h in ring]
    area = sum(x1 * y2 - x2 * y1 for (x1, y1), (x2, y2) in zip(pts, pts[1:] + pts[:1]))
    assert area < 0


def test_spiral_walks_inward_without_jumps():
    order = geo.spiral((0, 0), 2, 3)
    assert sorted(order, key=geo.hex_key) == list(geo.hexagon((0, 0), 2))
    assert order[-1] == (0, 0)
    for a, b in zip(order, order[1:]):
        assert geo.distance(a, b) == 1


def test_distance_and_hexagon_size():
    assert geo.distance((0, 0), (2, -1)) == 2
    assert geo.distance((-3, 3), (3, -3)) == 6
    for r in range(6):
        assert len(geo.hexagon((1, 1), r)) == 3 * r * (r + 1) + 1


@given(hexes)
def test_pixels(h):
    x, y = geo.pixel(h, 10)
    for n in geo.neighbours(h):
        nx_, ny = geo.pixel(n, 10)
        assert math.isclose(math.hypot(nx_ - x, ny - y), 10 * math.sqrt(3))
    for px, py in geo.hex_polygon(h, 10):
        assert math.isclose(math.hypot(px - x, py - y), 10)
    top = geo.corner_pixel(geo.corner(h, "N"), 10)
    assert math.isclose(top[0], x) and math.isclose(top[1], y - 10)


def test_sort_keys_follow_geometry_not_names():
    ids = [(1, 0, "W"), (0, 0, "W"), (0, 0, "NE"), (5, -1, "NW")]
    assert sorted(ids, key=geo.path_key) == [(5, -1, "NW"), (0, 0, "NE"), (0, 0, "W"), (1, 0, "W")]
    cs = [(0, 1, "N"), (0, 0, "S"), (0, 0, "N"), (-1, 1, "S")]
    assert sorted(cs, key=geo.intersection_key) == [
        (0, 0, "N"), (0, 0, "S"), (-1, 1, "S"), (0, 1, "N")]


@pytest.mark.parametrize("radius", [0, 1, 2, 3])
@pytest.mark.parametrize("start", range(6))
def test_the_spiral_of_a_full_hexagon_is_the_rings_spiral(radius, start):
    area = list(geo.hexagon((1, -2), radius))
    assert geo.hexagon_spiral(area, start) == geo.spiral((1, -2), radius, start)


def _rows(widths: list[int], top: int) -> list[geo.Hex]:
    """A picture's rows, each starting half a hex further left while they grow."""
    widest = widths.index(max(widths))
    return [(-min(i, widest) + k, top + i) for i, n in enumerate(widths) for k in range(n)]


@pytest.mark.parametrize("start", range(6))
def test_a_hexagon_with_sides_of_unequal_length_spirals_ring_by_ring(start):
    island = _rows([3, 4, 5, 6, 5, 4, 3], -3)  # the 5-6 player island
    order = geo.hexagon_spiral(island, start)
    assert order is not None and sorted(order) == sorted(island)
    assert all(geo.distance(a, b) == 1 for a, b in zip(order, order[1:]))  # no jumps
    outer = {h for h in island if any(n not in island for n in geo.neighbours(h))}
    assert set(order[:16]) == outer  # 16 round the outside, then 10, then the centre's 4
    middle = set(island) - outer
    assert set(order[16:26]) == {h for h in middle if any(n not in middle for n in geo.neighbours(h))}


@pytest.mark.parametrize("area", [
    [(0, 0), (1, 0), (2, 0)],                      # a row: two sides of no length
    [(0, 0), (1, 0), (3, 0)],                      # not every hex within its bounds
    _rows([3, 4, 5, 4, 3], -2)[:-1],               # a hexagon short of a corner
    [h for h in geo.hexagon((0, 0), 2) if h != (0, 0)],  # a ring round a hole
    [],
])
def test_areas_that_are_no_hexagon_have_no_spiral(area):
    assert geo.hexagon_spiral(area) is None
