"""The studio's pictures: `render`'s SVG with a layer of sites on top, so a hover
shows a site's id and a click names it, without changing what `render` draws.

Every hex, intersection and path of the board gets one invisible shape, last in the
document (so above the pieces): `class="site site-hex|site-intersection|site-path"`,
`data-kind` (hex, intersection, path), `data-at` (the board's index, what actions
name) and `data-id`, the id as a `.catan` file writes it: `(q, r)`, `(q, r, N)`,
`(q, r, NE)`. Sites where the player may act now also get the class `target`.
The author view's layer shows the id on hover (a `title`); a player's layer
(`ids=False`: a game, a replay) shows none, since ids are the author's words.
"""

from __future__ import annotations

from collections.abc import Collection

from catandsl.board import geometry as geo
from catandsl.render.svg import SIZE


def site_id(board, kind: str, at: int) -> str:
    """A site's id in the language's words: `(q, r)`, `(q, r, N)`, `(q, r, NE)`."""
    if kind == "hex":
        q, r = board.hexes[at]
        return f"({q}, {r})"
    q, r, part = board.intersections[at] if kind == "intersection" else board.paths[at]
    return f"({q}, {r}, {part})"


class SiteLayer:
    """The sites layer of one board, drawn once: each site's shape, to which `svg`
    adds the class `target` where asked. Hexes first, then paths, then intersections,
    so the smaller shapes lie on top and can be reached."""

    def __init__(self, board, ids: bool = True):
        self.parts: list[tuple[tuple[str, int], str, str]] = []  # (site, up to the class's end, the rest)

        def add(kind: str, at: int, tag: str, shape: str) -> None:
            name = site_id(board, kind, at)
            # transparent without the page's style sheet too (the page's CSS shows hovers and targets)
            title = f"<title>{kind} {name}</title>" if ids else ""
            self.parts.append(((kind, at), f'<{tag} class="site site-{kind}',
                               f'" data-kind="{kind}" data-at="{at}" data-id="{name}" fill="transparent" '
                               f'stroke="transparent" {shape}>{title}</{tag}>'))

        for k, h in enumerate(board.hexes):
            # shrunk about its centre, so the rim stays with the intersections and paths
            cx, cy = geo.pixel(h, SIZE)
            pts = " ".join(f"{cx + (x - cx) * 0.86:.1f},{cy + (y - cy) * 0.86:.1f}"
                           for x, y in geo.hex_polygon(h, SIZE))
            add("hex", k, "polygon", f'points="{pts}"')
        for k, p in enumerate(board.paths):
            (x1, y1), (x2, y2) = (geo.corner_pixel(c, SIZE) for c in geo.edge_ends(p))
            # the middle of the side: its ends belong to the intersections
            ax, ay = x1 + (x2 - x1) * 0.22, y1 + (y2 - y1) * 0.22
            bx, by = x1 + (x2 - x1) * 0.78, y1 + (y2 - y1) * 0.78
            add("path", k, "line", f'x1="{ax:.1f}" y1="{ay:.1f}" x2="{bx:.1f}" y2="{by:.1f}"')
        for k, c in enumerate(board.intersections):
            x, y = geo.corner_pixel(c, SIZE)
            add("intersection", k, "circle", f'cx="{x:.1f}" cy="{y:.1f}" r="{0.2 * SIZE:.1f}"')

    def svg(self, targets: Collection[tuple[str, int]] = ()) -> str:
        body = "".join(head + (" target" if site in targets else "") + rest for site, head, rest in self.parts)
        return f'<g class="sites-layer">{body}</g>'


def with_sites(svg: str, layer: SiteLayer, targets: Collection[tuple[str, int]] = ()) -> str:
    """The SVG document with the sites layer added last, the XML prologue dropped (the
    page inlines it)."""
    if svg.startswith("<?xml"):
        svg = svg[svg.index("?>") + 2:].lstrip()
    end = svg.rindex("</svg>")
    return svg[:end] + layer.svg(targets) + svg[end:]
