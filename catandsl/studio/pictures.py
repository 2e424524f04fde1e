"""The studio's pictures: `render`'s SVG with a layer of sites on top, so a hover
shows a site's id and a click names it, without changing what `render` draws.

Every hex, intersection and path of the board gets one invisible shape, last in the
document (so above the pieces): `class="site site-hex|site-intersection|site-path"`,
`data-kind` (hex, intersection, path), `data-at` (the board's index, what actions
name) and `data-id`, the id as a `.catan` file writes it: `(q, r)`, `(q, r, N)`,
`(q, r, NE)`. Sites where the player may act now also get the class `target`.
"""

from __future__ import annotations

from collections.abc import Collection

from catandsl.board import geometry as geo
from catandsl.render.svg import SIZE

KINDS = ("hex", "intersection", "path")


def site_id(board, kind: str, at: int) -> str:
    """A site's id in the language's words: `(q, r)`, `(q, r, N)`, `(q, r, NE)`."""
    if kind == "hex":
        q, r = board.hexes[at]
        return f"({q}, {r})"
    q, r, part = board.intersections[at] if kind == "intersection" else board.paths[at]
    return f"({q}, {r}, {part})"


def site_layer(board, targets: Collection[tuple[str, int]] = ()) -> str:
    """The sites layer: hexes first, then paths, then intersections, so the smaller
    shapes lie on top and can be reached."""
    parts = ['<g class="sites-layer">']

    def attrs(kind: str, at: int) -> str:
        target = " target" if (kind, at) in targets else ""
        return (f'class="site site-{kind}{target}" data-kind="{kind}" data-at="{at}" '
                f'data-id="{site_id(board, kind, at)}"')

    for k, h in enumerate(board.hexes):
        # shrunk about its centre, so the rim stays with the intersections and paths
        cx, cy = geo.pixel(h, SIZE)
        pts = " ".join(f"{cx + (x - cx) * 0.86:.1f},{cy + (y - cy) * 0.86:.1f}" for x, y in geo.hex_polygon(h, SIZE))
        parts.append(f'<polygon {attrs("hex", k)} points="{pts}"><title>hex {site_id(board, "hex", k)}</title>'
                     '</polygon>')
    for k, p in enumerate(board.paths):
        (x1, y1), (x2, y2) = (geo.corner_pixel(c, SIZE) for c in geo.edge_ends(p))
        # the middle of the side: its ends belong to the intersections
        ax, ay = x1 + (x2 - x1) * 0.22, y1 + (y2 - y1) * 0.22
        bx, by = x1 + (x2 - x1) * 0.78, y1 + (y2 - y1) * 0.78
        parts.append(f'<line {attrs("path", k)} x1="{ax:.1f}" y1="{ay:.1f}" x2="{bx:.1f}" y2="{by:.1f}">'
                     f'<title>path {site_id(board, "path", k)}</title></line>')
    for k, c in enumerate(board.intersections):
        x, y = geo.corner_pixel(c, SIZE)
        parts.append(f'<circle {attrs("intersection", k)} cx="{x:.1f}" cy="{y:.1f}" r="{0.2 * SIZE:.1f}">'
                     f'<title>intersection {site_id(board, "intersection", k)}</title></circle>')
    parts.append("</g>")
    return "".join(parts)


def with_sites(svg: str, board, targets: Collection[tuple[str, int]] = ()) -> str:
    """The SVG document with the sites layer added last, the XML prologue dropped (the
    page inlines it)."""
    if svg.startswith("<?xml"):
        svg = svg[svg.index("?>") + 2:].lstrip()
    end = svg.rindex("</svg>")
    return svg[:end] + site_layer(board, targets) + svg[end:]
