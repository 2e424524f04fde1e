"""`catandsl balance --html REPORT`: one self-contained page (no scripts, no files beside
it) with the balance figures drawn by matplotlib as inline SVG: the board with each
intersection coloured by its pips, pips per resource, the snake draft's production per
seat, and, with games, the win rate per seat with its 95% interval.

matplotlib is an optional extra (`pip install 'catandsl[report]'`), imported only here."""

from __future__ import annotations

import html
import io

from catandsl.board import geometry as geo
from catandsl.lint.balance import Balance

_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<style>body{{font-family:sans-serif;max-width:60em;margin:2em auto;color:#222}}
figure{{margin:1.5em 0}} table{{border-collapse:collapse}} td,th{{padding:.2em .8em;text-align:right}}
.verdict{{font-size:1.2em;font-weight:bold}}</style></head>
<body><h1>{title}</h1>
{body}
</body></html>
"""


class ReportUnavailable(Exception):
    """matplotlib is not installed."""


def _pyplot():
    try:
        import matplotlib
    except ImportError:
        raise ReportUnavailable("the HTML report needs matplotlib: pip install 'catandsl[report]'") from None
    matplotlib.use("Agg")  # no display: figures are only written
    matplotlib.rcParams["svg.hashsalt"] = "catandsl"  # the same ids on every run
    import matplotlib.pyplot as plt

    return plt


def _svg(fig) -> str:
    buffer = io.StringIO()
    fig.savefig(buffer, format="svg", bbox_inches="tight", metadata={"Date": None})
    text = buffer.getvalue()
    return text[text.index("<svg"):]  # inline: without the XML prolog


def _heat_map(plt, b: Balance):
    from catandsl.render.palette import terrain_colour

    fig, ax = plt.subplots(figsize=(7, 6))
    view = b.view
    assert view is not None
    for h in view.hexes:
        t = view.terrain(h)
        colour = terrain_colour(t.name, t) if t is not None else "#ffffff"
        xs, ys = zip(*geo.hex_polygon(h))
        ax.fill(xs, ys, facecolor=colour, edgecolor="#555555", linewidth=0.6, alpha=0.45)
        n = view.number(h)
        if n is not None:
            x, y = geo.pixel(h)
            ax.text(x, y, str(n), ha="center", va="center", fontsize=9,
                    color="#b00000" if n in (6, 8) else "#222222")
    spots = sorted(b.heat, key=geo.intersection_key)
    points = ax.scatter([geo.corner_pixel(x)[0] for x in spots], [geo.corner_pixel(x)[1] for x in spots],
                        c=[b.heat[x] for x in spots], cmap="viridis", s=42, edgecolors="#333333", linewidths=0.4,
                        zorder=3)
    fig.colorbar(points, ax=ax, label="pips at the intersection")
    ax.set_aspect("equal")
    ax.invert_yaxis()  # the board's y grows downwards
    ax.axis("off")
    ax.set_title(f"Intersection strength (deal with seed {b.seed})")
    return fig


def _bars(plt, labels, values, title: str, ylabel: str, errors=None):
    fig, ax = plt.subplots(figsize=(6, 3.2))
    ax.bar(labels, values, color="#4a7fb0", yerr=errors, capsize=5 if errors is not None else 0)
    ax.set_title(title)
    ax.set_ylabel(ylabel)
    return fig


def render_report(b: Balance) -> str:
    plt = _pyplot()
    parts = [f"<p>{b.players} players; {b.deals} deal{'s' if b.deals != 1 else ''} measured from seed {b.seed}.</p>"]
    figures = [_heat_map(plt, b),
               _bars(plt, list(b.resource_pips), list(b.resource_pips.values()), "Pips per resource",
                     "pips (mean over deals)"),
               _bars(plt, [f"seat {i + 1}" for i in range(len(b.draft))], b.draft,
                     "Production per seat under a greedy snake draft", "pips of the set-up")]
    games = b.games
    if games is not None:
        rates = games["win_rate"]
        low = [r - i[0] for r, i in zip(rates, games["interval"])]
        high = [i[1] - r for r, i in zip(rates, games["interval"])]
        figures.append(_bars(plt, [f"seat {i + 1}" for i in range(len(rates))], rates,
                             f"Win rate per seat in turn order ({games['decided']} games won), 95% intervals",
                             "win rate", errors=[low, high]))
        bots = ", ".join(games.get("bots", ["greedy"]))
        parts.append(f"<p class=verdict>Verdict at the {games['alpha']:.0%} level, for {html.escape(bots)} bots: "
                     f"{html.escape(games['verdict'])}</p>"
                     f"<p>{html.escape(games['test'])}: chi-square {games['chi_square']}, "
                     f"p = {games['p_value']} (unfair when p &lt; {games['alpha']}).</p>")
    for fig in figures:
        parts.append(f"<figure>{_svg(fig)}</figure>")
        plt.close(fig)
    rows = "".join(f"<tr><td>({x[0]}, {x[1]}) {x[2]}</td><td>{p}</td><td>{' + '.join(map(str, ns))}</td></tr>"
                   for x, p, ns in b.strongest)
    parts.append(f"<h2>Strongest intersections</h2><table><tr><th>intersection</th><th>pips</th>"
                 f"<th>numbers</th></tr>{rows}</table>")
    return _PAGE.format(title=html.escape(f"Balance: {b.title}"), body="\n".join(parts))
