"""Draw a game state: the board, every piece on it in its owner's colour, the neutral
pieces (robber, pirate ...) on their sites, and a legend with each player's points.

Pieces are plain SVG strings with stable classes, so tests can count them and the HTML
replay can reuse the very same strings frame by frame:
`piece road|settlement|city|<name>` with `data-owner`, `data-piece`, `data-at`, plus
`neutral` for pieces nobody owns; `legend-entry` with `data-player` and `data-vp`.

Ships (any path piece but `road`) are dashed and carry a small hull mark. A neutral
piece on a path is a disc with its initial across the middle of the path. Marks from the
state's Seafarers data: `piece vp-token` (a gold chit with a star and the count beside
the building that earned it; `data-owner`, `data-at` the intersection, `data-count`) and
`piece island-tag <tag>` (a small chip in the owner's colour on the island's first hex,
`data-at` the island number).

Sites (villages): `site` with `data-kind`, `data-number`, `data-stock` (tokens held) and
`data-at` (the intersection), inside a `sites` group. `render_map` draws a board as a
game starts on it (neutral pieces on their starts, sites, a `note` for each neutral
piece that starts off the board).
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from catandsl.board import geometry as geo
from catandsl.render import palette
from catandsl.render.snapshot import Placed, Snapshot, snapshot
from catandsl.render.svg import SIZE, board_drawing, bounds
from catandsl.rules.words import EVERYONE

LEGEND_ROW = 0.75 * SIZE
LEGEND_TOKENS_ROW = 0.45 * SIZE  # a second line under each entry when seats hold tokens
LEGEND_PER_ROW = 2  # two per row: "P3: 10 VP (winner)" fits beside its neighbour
NOTE_ROW = 0.6 * SIZE  # one line of a note under a board


def render_state(game, state, *, title: str | None = None, coordinates: bool = False,
                 viewer: int | None = EVERYONE) -> str:
    """The state as an SVG document (board, sites, pieces, legend) as `viewer` sees it
    (a seat, `SPECTATOR`, or `EVERYONE` for a game of bots): the legend's points are
    the public ones but for the seats the viewer reads (snapshot.reads)."""
    import drawsvg as dw

    snap = snapshot(game, state, viewer=viewer)
    winner = getattr(state, "winner", None)
    winner = winner if isinstance(winner, int) and winner >= 0 else None
    holdings = token_holdings(game, snap.tokens_held)
    board = getattr(state, "game", game).board  # the board as it is now (hexes change)
    drawing = board_drawing(board, coordinates=coordinates, title=title,
                            below=legend_height(game), face_down=frozenset(snap.face_down))
    drawing.append(dw.Raw(sites_group(game.board, site_marks(game, snap.token_stock))))
    drawing.append(dw.Raw(pieces_svg(game.board, snap, snap.marks)))
    drawing.append(dw.Raw(legend_svg(game.board, snap.scores, winner, holdings)))
    return drawing.as_svg()


def render_map(board, ruleset=None, *, title: str | None = None, coordinates: bool = False) -> str:
    """A board as a game starts on it, as an SVG document: the board, every neutral
    piece (robber, pirate ...) on its starting hex, the map's sites with their numbers
    and the tokens they start with, and a note under the board for each neutral piece
    that starts off the board. Without a ruleset, the board alone."""
    import drawsvg as dw

    pieces, off_board = start_pieces(board, ruleset)
    notes = [f"{name}: off the board at the start" for name in off_board]
    drawing = board_drawing(board, coordinates=coordinates, title=title, below=len(notes) * NOTE_ROW,
                            face_down=_face_down_at_start(board, ruleset))
    drawing.append(dw.Raw(sites_group(board, map_site_marks(board, ruleset))))
    drawing.append(dw.Raw('<g class="pieces">' + "".join(piece_svg(board, p) for p in pieces) + "</g>"))
    if notes:
        drawing.append(dw.Raw(notes_svg(board, notes)))
    return drawing.as_svg()


def _face_down_at_start(board, ruleset) -> frozenset[int]:
    """The hexes of the map's hidden pools: face down when a game starts."""
    m = getattr(ruleset, "map", None)
    hidden = {p.name for p in getattr(m, "pools", ()) if p.hidden}
    if not hidden:
        return frozenset()
    return frozenset(k for k, (q, r) in enumerate(board.hexes)
                     if board.graph.nodes[("hex", q, r)].get("pool") in hidden)


def start_pieces(board, ruleset) -> tuple[list[Placed], list[str]]:
    """The neutral pieces of a ruleset at their starts (the board's `starts`): those on
    the board, and the names of those off it (a start of -1, or none declared), in the
    order the pieces are declared."""
    on: list[Placed] = []
    off: list[str] = []
    if ruleset is None:
        return on, off
    starts = getattr(board, "starts", {})
    sites = getattr(board, "start_sites", {})
    for piece in ruleset.pieces.values():
        if not piece.neutral or piece.site not in ("hex", "path"):
            continue
        if piece.name in sites:
            ats: tuple[int, ...] = sites[piece.name]
        else:
            at = starts.get(piece.name, -1)
            ats = (at,) if at is not None and at >= 0 else ()
        limit = len(board.hexes) if piece.site == "hex" else len(board.paths)
        ats = tuple(k for k in ats if 0 <= k < limit)
        on += [Placed(piece.name, piece.site, k, -1) for k in ats]
        if len(ats) < piece.count:
            off.append(piece.name)
    on += seat_start_pieces(board, ruleset)
    return on, off


def seat_start_pieces(board, ruleset) -> list[Placed]:
    """The seats' own pieces placed before the set-up (`start settlement of neutral 1 at
    ...`), in their seat's colour: a neutral seat follows the players, so it takes a
    colour nobody plays."""
    out: list[Placed] = []
    m = getattr(ruleset, "map", None)
    for st in (m.starts if m is not None else ()):
        if st.seat is None or st.q is None or st.r is None:
            continue
        seat = st.seat_number - 1 + (ruleset.players if st.seat == "neutral" else 0)
        try:
            if st.corner is not None:
                out.append(Placed(st.piece, "intersection", board.intersection_id(st.q, st.r, st.corner), seat))
            elif st.paths:
                out.append(Placed(st.piece, "path", board.path_id(st.q, st.r, st.paths[0].side), seat))
        except (KeyError, ValueError):
            continue  # not a site of this board: `check` reports it
    return out


@dataclass(frozen=True)
class SiteMark:
    """One map site as drawn: its kind, its intersection, its number token (0: none)
    and how many tokens it holds."""

    kind: str
    corner: int
    number: int
    held: int


def site_marks(game, stock=None) -> list[SiteMark]:
    """The game's sites with what they hold: `stock` per site and token (a snapshot's
    `token_stock`), or what each starts with."""
    sites = getattr(game, "sites", ())
    out = []
    for site in sites:
        held = stock[site.index] if stock and site.index < len(stock) else site.stock
        out.append(SiteMark(site.kind, site.corner, site.number, sum(held)))
    return out


def map_site_marks(board, ruleset) -> list[SiteMark]:
    """The sites a ruleset's map places on the board, each with the tokens its kind
    starts with."""
    m = getattr(ruleset, "map", None)
    if m is None:
        return []
    out = []
    for sp in m.sites:
        corner = board.intersection_index.get((sp.q, sp.r, sp.corner))
        if corner is None:
            continue
        kind = ruleset.sites.get(sp.site)
        held = sum(a.count for a in kind.stock) if kind is not None else 0
        out.append(SiteMark(sp.site, corner, sp.number or 0, held))
    return out


def sites_svg(game, state) -> str:
    """The game's sites as they stand in `state` (see `sites_group`)."""
    return sites_group(game.board, site_marks(game, snapshot(game, state).token_stock))


def sites_group(board, marks) -> str:
    """Sites: a diamond on the intersection with the site's number, and beside it the
    tokens it still holds. Empty when there are none."""
    if not marks:
        return ""
    parts = ['<g class="sites">']
    r = 0.28 * SIZE
    for site in marks:
        x, y = geo.corner_pixel(board.intersections[site.corner], SIZE)
        diamond = " ".join(f"{x + dx:.1f},{y + dy:.1f}" for dx, dy in ((0, -r), (r, 0), (0, r), (-r, 0)))
        number = f" {site.number}" if site.number else ""
        parts.append(
            f'<g class="site" data-kind="{escape(site.kind)}" data-number="{site.number}" '
            f'data-stock="{site.held}" data-at="{site.corner}">'
            f'<title>{escape(site.kind)}{number}: {site.held} left</title>'
            f'<polygon points="{diamond}" fill="{palette.NEUTRAL_DEFAULT}" stroke="#ffffff" '
            f'stroke-width="1.5"/>'
            f'<text x="{x:.1f}" y="{y + 0.1 * SIZE:.1f}" font-size="{0.26 * SIZE:.1f}" '
            f'text-anchor="middle" font-family="sans-serif" fill="#ffffff">{site.number or ""}</text>'
            f'<text x="{x + 1.1 * r:.1f}" y="{y - 0.9 * r:.1f}" font-size="{0.22 * SIZE:.1f}" '
            f'font-family="sans-serif" fill="{palette.INK}">×{site.held}</text></g>')
    parts.append("</g>")
    return "".join(parts)


def notes_svg(board, notes) -> str:
    """Lines of text under the board (in the space `board_drawing(below=...)` left)."""
    left, _, _, bottom = bounds(board)
    parts = ['<g class="notes">']
    for k, note in enumerate(notes):
        y = bottom + k * NOTE_ROW + 0.5 * SIZE
        parts.append(f'<text class="note" x="{left + 0.3 * SIZE:.1f}" y="{y:.1f}" font-size="{0.34 * SIZE:.1f}" '
                     f'font-family="sans-serif" fill="{palette.INK}">{escape(note)}</text>')
    parts.append("</g>")
    return "".join(parts)


_ORDER = {"path": 0, "intersection": 1, "token": 2, "hex": 3, "island": 4}


def draw_order(p: Placed):
    """Paths first so buildings sit on top of roads; tokens over buildings; a neutral
    piece or a traveller on a path over the road under it."""
    if p.site == "path" and (p.owner < 0 or p.travels):
        return (_ORDER["path"], 1 << 30, p.at, p.piece)
    return (_ORDER.get(p.site, 5), p.owner, p.at, p.piece)


def pieces_svg(board, snap: Snapshot, marks=()) -> str:
    """Every piece of the snapshot (and the marks given), in draw order."""
    items = sorted(tuple(snap.pieces) + tuple(marks), key=draw_order)
    return '<g class="pieces">' + "".join(piece_svg(board, p) for p in items) + "</g>"


def piece_svg(board, p: Placed) -> str:
    """One piece as an SVG group."""
    colour = palette.player_colour(p.owner) if p.owner >= 0 else palette.NEUTRAL_COLOURS.get(
        p.piece, palette.NEUTRAL_DEFAULT)
    if p.site == "token":
        return _vp_token(board, p, colour)
    if p.site == "island":
        return _island_tag(board, p, colour)
    cls = f"piece {_token(p.piece)}" + (" neutral" if p.owner < 0 else "")
    head = (f'<g class="{cls}" data-piece="{escape(p.piece)}" data-owner="{p.owner}" '
            f'data-at="{p.at}"><title>{escape(_label(p))}</title>')
    if p.site == "path" and (p.owner < 0 or p.travels):
        body = _on_path(board, p, colour, offset=0.25 if p.travels else 0.0)
    elif p.site == "path":
        body = _road(board, p.at, colour, dashed=p.afloat)
        if p.afloat:
            body += _hull(board, p.at, colour)
        if p.damaged:
            body += _damage(board, p.at)
    elif p.site == "intersection":
        x, y = geo.corner_pixel(board.intersections[p.at], SIZE)
        body = _building(p.piece, x, y, colour)
    else:
        x, y = geo.pixel(board.hexes[p.at], SIZE)
        body = _on_hex(p, x, y, colour)
    return head + body + "</g>"


def token_holdings(game, tokens_held) -> list[str]:
    """Per seat, the tokens it holds as one line ("gold 7, level 2"), in the order the
    scenario declares its tokens; no lines at all when the scenario has no tokens (so
    the legend keeps no room for them: `legend_height` counts none)."""
    names = list(getattr(game, "token_names", ()))
    if not names:
        return []
    return [", ".join(f"{names[t]} {k}" for t, k in enumerate(row) if k > 0 and t < len(names))
            for row in tokens_held]


def _legend_row(holdings) -> float:
    # a scenario with tokens keeps room for their line in every picture of a game (a
    # replay's frames before anyone holds one included), so entries never jump
    return LEGEND_ROW + (LEGEND_TOKENS_ROW if holdings else 0)


def legend_height(game) -> float:
    """The room the legend takes under the board."""
    return -(-game.num_players // LEGEND_PER_ROW) * _legend_row(getattr(game, "token_names", ()))


def legend_svg(board, scores, winner: int | None = None, holdings=()) -> str:
    """One entry per seat under the board: the seat's colour, name and points, and on a
    second line the tokens it holds (gold, levels, commodities ...) when the scenario
    has tokens (`holdings`, one line per seat; see token_holdings)."""
    left, _, right, bottom = bounds(board)
    width = (right - left) / LEGEND_PER_ROW
    height = _legend_row(holdings)
    parts = ['<g class="legend">']
    for p, vp in enumerate(scores):
        row, col = divmod(p, LEGEND_PER_ROW)
        x = left + col * width + 0.3 * SIZE
        y = bottom + row * height + 0.2 * SIZE
        text = f"P{p + 1}: {vp} VP" + (" (winner)" if p == winner else "")
        weight = ' font-weight="bold"' if p == winner else ""
        held = holdings[p] if p < len(holdings) else ""
        line = (f'<text class="legend-tokens" x="{x + 0.55 * SIZE:.1f}" y="{y + 0.75 * SIZE:.1f}" '
                f'font-size="{0.28 * SIZE:.1f}" font-family="sans-serif" '
                f'fill="{palette.INK}">{escape(held)}</text>') if held else ""
        parts.append(
            f'<g class="legend-entry" data-player="{p}" data-vp="{vp}" data-tokens="{escape(held)}">'
            f'<rect x="{x:.1f}" y="{y:.1f}" width="{0.4 * SIZE:.1f}" height="{0.4 * SIZE:.1f}" '
            f'fill="{palette.player_colour(p)}" stroke="{palette.INK}" stroke-width="1"/>'
            f'<text x="{x + 0.55 * SIZE:.1f}" y="{y + 0.33 * SIZE:.1f}" font-size="{0.36 * SIZE:.1f}" '
            f'font-family="sans-serif" fill="{palette.INK}"{weight}>{escape(text)}</text>{line}</g>')
    parts.append("</g>")
    return "".join(parts)


# ---- shapes ----------------------------------------------------------------------------


def _token(name: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in name) or "piece"


def _label(p: Placed) -> str:
    who = f"P{p.owner + 1}" if p.owner >= 0 else "neutral"
    return f"{who} {p.piece}" + (" (damaged)" if p.damaged else "")


def _pts(points) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in points)


def _road(board, at: int, colour: str, dashed: bool) -> str:
    a, b = (geo.corner_pixel(c, SIZE) for c in geo.edge_ends(board.paths[at]))
    # stop short of the corners so buildings stay readable
    x1, y1 = a[0] + (b[0] - a[0]) * 0.18, a[1] + (b[1] - a[1]) * 0.18
    x2, y2 = a[0] + (b[0] - a[0]) * 0.82, a[1] + (b[1] - a[1]) * 0.82
    line = f'x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke-linecap="round"'
    dash = ' stroke-dasharray="6,4"' if dashed else ""
    return (f'<line {line} stroke="{palette.INK}" stroke-width="{0.22 * SIZE:.1f}"/>'
            f'<line {line} stroke="{colour}" stroke-width="{0.14 * SIZE:.1f}"{dash}/>')


def _on_path(board, p: Placed, colour: str, offset: float = 0.0) -> str:
    """A neutral piece on a path (or a travelling piece, in its owner's colour): a disc
    with its initial across the middle of the path, over a thin line along it; `offset`
    moves the disc along the path (a share of its length) so that a traveller and a
    neutral piece on one path both show."""
    a, b = (geo.corner_pixel(c, SIZE) for c in geo.edge_ends(board.paths[p.at]))
    t = 0.5 + offset
    mx, my = a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t
    r = 0.2 * SIZE
    letter = escape(p.piece[:1].upper())
    return (f'<line x1="{a[0]:.1f}" y1="{a[1]:.1f}" x2="{b[0]:.1f}" y2="{b[1]:.1f}" stroke="{colour}" '
            f'stroke-width="{0.06 * SIZE:.1f}" stroke-dasharray="3,3"/>'
            f'<circle cx="{mx:.1f}" cy="{my:.1f}" r="{r:.1f}" fill="{colour}" stroke="#ffffff" stroke-width="1.5"/>'
            f'<text x="{mx:.1f}" y="{my + 0.35 * r:.1f}" font-size="{r:.1f}" text-anchor="middle" '
            f'font-family="sans-serif" fill="{palette.ink_on(colour)}">{letter}</text>')


def _hull(board, at: int, colour: str) -> str:
    """A small boat hull across the middle of a ship's path."""
    a, b = (geo.corner_pixel(c, SIZE) for c in geo.edge_ends(board.paths[at]))
    mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
    w, h = 0.16 * SIZE, 0.09 * SIZE
    pts = [(mx - w, my - h), (mx + w, my - h), (mx + 0.6 * w, my + h), (mx - 0.6 * w, my + h)]
    return (f'<polygon class="hull" points="{_pts(pts)}" fill="{colour}" '
            f'stroke="{palette.INK}" stroke-width="1"/>')


def _damage(board, at: int) -> str:
    """A cross over the middle of a damaged road (the rulebook lays it sideways): white
    on an ink outline, so it shows on every player's colour."""
    a, b = (geo.corner_pixel(c, SIZE) for c in geo.edge_ends(board.paths[at]))
    mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
    d = 0.2 * SIZE
    arms = [(mx - d, my - d, mx + d, my + d), (mx - d, my + d, mx + d, my - d)]
    out = ['<g class="damaged">']
    for colour, width in ((palette.INK, 0.13), ("#ffffff", 0.06)):
        out += [f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="{colour}" '
                f'stroke-width="{width * SIZE:.1f}" stroke-linecap="round"/>' for x1, y1, x2, y2 in arms]
    return "".join(out) + "</g>"


_TOKEN_FILL = "#f2c230"


def _vp_token(board, p: Placed, colour: str) -> str:
    """A gold chit, ringed in the owner's colour, up and right of the building."""
    x, y = geo.corner_pixel(board.intersections[p.at], SIZE)
    x, y, r = x + 0.32 * SIZE, y - 0.32 * SIZE, 0.2 * SIZE
    label = f"P{p.owner + 1}: {p.count} special victory point" + ("s" if p.count != 1 else "")
    return (f'<g class="piece vp-token" data-piece="vp_token" data-owner="{p.owner}" '
            f'data-at="{p.at}" data-count="{p.count}"><title>{escape(label)}</title>'
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}" fill="{_TOKEN_FILL}" '
            f'stroke="{colour}" stroke-width="2"/>'
            f'<text x="{x:.1f}" y="{y + 0.35 * r:.1f}" font-size="{r:.1f}" text-anchor="middle" '
            f'font-family="sans-serif" font-weight="bold" fill="{palette.INK}">'
            f'\u2605{p.count}</text></g>')


def _island_tag(board, p: Placed, colour: str) -> str:
    """A chip in the owner's colour on the island's first hex, one slot per seat."""
    islands = getattr(board, "islands", ())
    hexes = islands[p.at] if 0 <= p.at < len(islands) else ()
    if not hexes:
        return ""
    x, y = geo.pixel(board.hexes[min(hexes)], SIZE)
    x += (p.owner - 1.5) * 0.24 * SIZE
    y += 0.62 * SIZE
    s = 0.1 * SIZE
    label = f"P{p.owner + 1} {p.piece} island"
    return (f'<g class="piece island-tag {_token(p.piece)}" data-piece="{escape(p.piece)}" '
            f'data-owner="{p.owner}" data-at="{p.at}"><title>{escape(label)}</title>'
            f'<rect x="{x - s:.1f}" y="{y - s:.1f}" width="{2 * s:.1f}" height="{2 * s:.1f}" '
            f'fill="{colour}" stroke="{palette.INK}" stroke-width="1"/></g>')


def _building(piece: str, x: float, y: float, colour: str) -> str:
    s = 0.2 * SIZE
    style = f'fill="{colour}" stroke="{palette.INK}" stroke-width="1.5"'
    if piece == "settlement":
        pts = [(x - s, y + s), (x - s, y - 0.2 * s), (x, y - s), (x + s, y - 0.2 * s), (x + s, y + s)]
        return f'<polygon points="{_pts(pts)}" {style}/>'
    if piece == "city":
        pts = [(x - 1.4 * s, y + s), (x - 1.4 * s, y - 0.5 * s), (x - 0.7 * s, y - 1.2 * s),
               (x, y - 0.5 * s), (x, y - 0.1 * s), (x + 1.4 * s, y - 0.1 * s), (x + 1.4 * s, y + s)]
        return f'<polygon points="{_pts(pts)}" {style}/>'
    letter = escape(piece[:1].upper())
    return (f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{s:.1f}" {style}/>'
            f'<text x="{x:.1f}" y="{y + 0.35 * s:.1f}" font-size="{s:.1f}" text-anchor="middle" '
            f'font-family="sans-serif" fill="{palette.ink_on(colour)}">{letter}</text>')


def _on_hex(p: Placed, x: float, y: float, colour: str) -> str:
    # the number token sits in the middle: the robber stands to its left, others right
    dx = -0.55 * SIZE if p.piece == "robber" else 0.55 * SIZE
    x += dx
    if p.piece == "robber":
        return (f'<ellipse cx="{x:.1f}" cy="{y + 0.08 * SIZE:.1f}" rx="{0.13 * SIZE:.1f}" '
                f'ry="{0.22 * SIZE:.1f}" fill="{colour}" stroke="#ffffff" stroke-width="1"/>'
                f'<circle cx="{x:.1f}" cy="{y - 0.2 * SIZE:.1f}" r="{0.1 * SIZE:.1f}" '
                f'fill="{colour}" stroke="#ffffff" stroke-width="1"/>')
    letter = escape(p.piece[:1].upper())
    return (f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{0.18 * SIZE:.1f}" fill="{colour}" '
            f'stroke="#ffffff" stroke-width="1"/>'
            f'<text x="{x:.1f}" y="{y + 0.06 * SIZE:.1f}" font-size="{0.18 * SIZE:.1f}" '
            f'text-anchor="middle" font-family="sans-serif" fill="{palette.ink_on(colour)}">{letter}</text>')
