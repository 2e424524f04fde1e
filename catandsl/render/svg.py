"""Draw a board as SVG (and PNG, when cairosvg is installed).

Elements carry stable class names so tests and style sheets can find them:
`hex land` / `hex water` (plus `frame` on frame positions; `hex face-down` for a hex
lying face down, drawn as a tile's back without a number), `frame-outline`, `token`
(with `pip`s), `harbor`, `coord`, `title`. A hub hex's centre point is a `hub-centre`
and its spurs are `spur`s, inside a `hub` group (`data-hex`); each carries its board id
as `data-at` (the index pieces use) and its geometric name as `data-id` and in a
`<title>`: `(q,r) C`, `(q,r) C-NE`. drawsvg is imported inside the functions:
the board and engine never need it (it comes with `pip install catandsl[cli]`).
"""

from __future__ import annotations

from pathlib import Path

from catandsl.board import geometry as geo
from catandsl.board.board import Board
from catandsl.render import palette

SIZE = 40.0  # hex circumradius in SVG units
MARGIN = 0.6 * SIZE
TITLE_HEIGHT = 0.9 * SIZE


def render_board(board: Board, *, coordinates: bool = False, title: str | None = None) -> str:
    """The board as an SVG document: hexes, frame, number tokens, harbors."""
    return board_drawing(board, coordinates=coordinates, title=title).as_svg()


def board_drawing(board: Board, *, coordinates: bool = False, title: str | None = None,
                  below: float = 0.0, face_down=()):
    """The board as a drawsvg Drawing in board pixels (`geometry.pixel(h, SIZE)`), with
    `below` units of free space under it (for a legend) so callers can add layers; the
    hex ids in `face_down` are drawn face down."""
    import drawsvg as dw

    left, top, right, bottom = bounds(board)
    bottom += below
    if title:
        top -= TITLE_HEIGHT
    drawing = dw.Drawing(right - left, bottom - top, origin=(left, top))
    drawing.append(dw.Rectangle(left, top, right - left, bottom - top, fill="#f4f1ea"))
    if title:
        drawing.append(dw.Text(title, 0.45 * SIZE, (left + right) / 2, top + 0.6 * SIZE,
                               text_anchor="middle", fill=palette.INK, class_="title",
                               font_family="sans-serif"))
    for k, h in enumerate(board.hexes):
        drawing.append(_face_down(dw, h) if k in face_down else _hex(dw, board, k, h))
    for k, h in enumerate(board.hexes):
        if board.tables.hex_centre[k] >= 0:
            drawing.append(_hub(dw, board, k, h))
    outline = _frame_outline(board)
    if outline:
        drawing.append(dw.Path(d=outline, fill="none", stroke="#1d3f63", stroke_width=3,
                               stroke_linecap="round", class_="frame-outline"))
    for harbor in board.harbors:
        drawing.append(_harbor(dw, board, harbor))
    numbers = board.tables.hex_number
    for k, h in enumerate(board.hexes):
        if numbers[k] and k not in face_down:
            drawing.append(_token(dw, numbers[k], *geo.pixel(h, SIZE)))
    if coordinates:
        for h in board.hexes:
            x, y = geo.pixel(h, SIZE)
            drawing.append(dw.Text(f"{h[0]},{h[1]}", 0.22 * SIZE, x, y - 0.62 * SIZE,
                                   text_anchor="middle", fill=palette.INK, class_="coord",
                                   font_family="monospace"))
    return drawing


def png_bytes(svg_text: str) -> bytes:
    """The SVG as PNG bytes; needs cairosvg (`pip install catandsl[png]`), RuntimeError
    without it."""
    try:
        import cairosvg
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise RuntimeError(
            "PNG output needs cairosvg, which is not installed: pip install 'catandsl[png]'"
        ) from e
    return cairosvg.svg2png(bytestring=svg_text.encode("utf-8"))


def render_png(svg_text: str, path: str | Path) -> None:
    """Write the SVG as a PNG file; needs cairosvg (`pip install catandsl[png]`)."""
    Path(path).write_bytes(png_bytes(svg_text))


# ---- pieces of the picture -------------------------------------------------------------


def _hex(dw, board: Board, k: int, h: geo.Hex):
    data = board.graph.nodes[("hex", h[0], h[1])]
    name = data["terrain"]
    fill = palette.terrain_colour(name, board.terrains.get(name))
    cls = "hex water" if data["water"] else "hex land"
    if data["frame"]:
        fill = palette.shade(fill, palette.FRAME_SHADE)
        cls += " frame"
    points = [c for xy in geo.hex_polygon(h, SIZE) for c in xy]
    return dw.Lines(*points, close=True, fill=fill, stroke="#f4f1ea", stroke_width=2,
                    class_=cls, data_terrain=name)


def _face_down(dw, h: geo.Hex):
    """A tile's back: one colour for every face-down hex, so it tells nothing."""
    points = [c for xy in geo.hex_polygon(h, SIZE) for c in xy]
    group = dw.Group(class_="hex face-down")
    group.append(dw.Lines(*points, close=True, fill=palette.FACE_DOWN, stroke="#f4f1ea", stroke_width=2))
    x, y = geo.pixel(h, SIZE)
    group.append(dw.Text("?", 0.5 * SIZE, x, y + 0.17 * SIZE, text_anchor="middle",
                         fill=palette.ink_on(palette.FACE_DOWN), font_family="serif"))
    return group


def hexes_layer(board: Board, changed, face_down) -> str:
    """SVG of hexes drawn over a board drawn as dealt (a replay's frame): each hex id of
    `changed` as it is on `board` (terrain and number), each of `face_down` face down."""
    import drawsvg as dw

    group = dw.Group(class_="hexes-now")
    for k in changed:
        if k not in face_down:
            group.append(_hex(dw, board, k, board.hexes[k]))
            if board.tables.hex_number[k]:
                group.append(_token(dw, board.tables.hex_number[k], *geo.pixel(board.hexes[k], SIZE)))
    for k in face_down:
        group.append(_face_down(dw, board.hexes[k]))
    drawing = dw.Drawing(1, 1)
    drawing.append(group)
    svg = drawing.as_svg()
    return svg[svg.index("<g"):svg.rindex("</svg>")].strip() if "<g" in svg else ""


def _hub(dw, board: Board, k: int, h: geo.Hex):
    """A hub hex's spurs (thin lines from its centre to its land-side corners) and its
    centre point (a small ring), each named by its id."""
    group = dw.Group(class_="hub", data_hex=f"{h[0]},{h[1]}")
    for spur in board.tables.hex_spurs[k]:
        p = board.paths[spur]
        name = f"({p[0]},{p[1]}) {p[2]}"
        (x1, y1), (x2, y2) = (geo.corner_pixel(c, SIZE) for c in geo.edge_ends(p))
        line = dw.Line(x1, y1, x2, y2, stroke=palette.INK, stroke_width=2,
                       stroke_dasharray="4,3", stroke_opacity=0.6, class_="spur",
                       data_at=spur, data_id=name)
        line.append_title(name)
        group.append(line)
    c = board.tables.hex_centre[k]
    q, r, corner = board.intersections[c]
    name = f"({q},{r}) {corner}"
    x, y = geo.corner_pixel(board.intersections[c], SIZE)
    ring = dw.Circle(x, y, 0.12 * SIZE, fill=palette.TOKEN_FILL, stroke=palette.INK,
                     stroke_width=1.5, class_="hub-centre", data_at=c, data_id=name)
    ring.append_title(name)
    group.append(ring)
    return group


def _frame_outline(board: Board) -> str:
    """Path data outlining each frame piece: every side of a frame position that does
    not face a position of the same piece."""
    piece_of = {}
    for h in board.hexes:
        data = board.graph.nodes[("hex", h[0], h[1])]
        if data["frame"]:
            piece_of[h] = data["frame_piece"]
    parts = []
    for h, piece in piece_of.items():
        corners = geo.hex_polygon(h, SIZE)
        for side_index, side in enumerate(geo.SIDE_ORDER):
            if piece_of.get(geo.neighbour(h, side)) == piece:
                continue
            (x1, y1), (x2, y2) = corners[side_index], corners[(side_index + 1) % 6]
            parts.append(f"M{x1:.2f},{y1:.2f} L{x2:.2f},{y2:.2f}")
    return " ".join(parts)


def _harbor_spot(harbor) -> tuple[float, float]:
    """Where the harbor's marker sits: out from its path towards the water hex's centre."""
    a, b = (geo.corner_pixel(c, SIZE) for c in geo.edge_ends(harbor.path))
    mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
    wx, wy = geo.pixel(harbor.water, SIZE)
    return mx + (wx - mx) * 0.6, my + (wy - my) * 0.6


def _harbor(dw, board: Board, harbor):
    kind = harbor.type
    x, y = _harbor_spot(harbor)
    if kind is None:  # a spot the players fill in the set-up
        spot = dw.Group(class_="harbor-spot")
        spot.append(dw.Title("harbor spot: placed in the set-up"))
        spot.append(dw.Circle(x, y, 0.22 * SIZE, fill="none", stroke=palette.INK, stroke_width=1.5,
                              stroke_dasharray="3,3"))
        return spot
    ratio = f"{kind.give}:{kind.get}"
    label = f"{ratio} {kind.resource}" if kind.resource else ratio
    group = dw.Group(class_="harbor", data_ratio=ratio)
    group.append(dw.Title(label))
    for c in geo.edge_ends(harbor.path):  # the two piers, one to each intersection served
        cx, cy = geo.corner_pixel(c, SIZE)
        group.append(dw.Line(x, y, cx, cy, stroke="#6b4a2b", stroke_width=4,
                             stroke_linecap="round"))
    fill = (palette.resource_colour(kind.resource, board.terrains) if kind.resource
            else palette.GENERIC_HARBOR)
    ink = palette.ink_on(fill)
    group.append(dw.Circle(x, y, 0.3 * SIZE, fill=fill, stroke=palette.INK, stroke_width=1.5))
    group.append(dw.Text(ratio, 0.22 * SIZE, x, y + (-0.02 if kind.resource else 0.08) * SIZE,
                         text_anchor="middle", fill=ink, font_weight="bold",
                         font_family="sans-serif"))
    if kind.resource:
        group.append(dw.Text(kind.resource, 0.13 * SIZE, x, y + 0.17 * SIZE,
                             text_anchor="middle", fill=ink, font_family="sans-serif"))
    return group


def _token(dw, number: int, x: float, y: float):
    red = number in palette.RED_NUMBERS
    colour = palette.RED if red else palette.INK
    group = dw.Group(class_="token", data_number=number)
    group.append(dw.Circle(x, y, 0.36 * SIZE, fill=palette.TOKEN_FILL, stroke="#8a7a55",
                           stroke_width=1.5))
    group.append(dw.Text(str(number), 0.34 * SIZE, x, y + 0.06 * SIZE, text_anchor="middle",
                         fill=colour, font_weight="bold" if red else "normal",
                         font_family="serif"))
    pips = pip_count(number)
    gap = 0.085 * SIZE
    for k in range(pips):
        px = x + (k - (pips - 1) / 2) * gap
        group.append(dw.Circle(px, y + 0.2 * SIZE, 0.03 * SIZE, fill=colour, class_="pip"))
    return group


def pip_count(number: int) -> int:
    """The dots under a number: how many of the 36 dice rolls make it."""
    return max(0, 6 - abs(7 - number))


def bounds(board: Board) -> tuple[float, float, float, float]:
    """The picture's extent in board pixels, (left, top, right, bottom): every hex and
    harbor with a margin around them."""
    xs, ys = [], []
    for h in board.hexes:
        for x, y in geo.hex_polygon(h, SIZE):
            xs.append(x)
            ys.append(y)
    for harbor in board.harbors:  # a harbor may face water off the board
        x, y = _harbor_spot(harbor)
        xs += [x - 0.3 * SIZE, x + 0.3 * SIZE]
        ys += [y - 0.3 * SIZE, y + 0.3 * SIZE]
    if not xs:
        return (0.0, 0.0, 2 * MARGIN, 2 * MARGIN)
    return (min(xs) - MARGIN, min(ys) - MARGIN, max(xs) + MARGIN, max(ys) + MARGIN)
