"""A self-contained HTML page that replays a game turn by turn.

The page holds the board once (inline SVG), a table of piece drawings (each one the same
SVG string `render_state` draws), and one frame per step of the game: the set-up
placements one player at a time, then every turn. A frame holds what stood after it:
the pieces, the map's sites with the tokens they hold, the scores, each player's hand
(resource cards, by resource), development cards held (by card) and played, tokens
held, the awards and who holds them, and the log lines of its actions. Inline
JavaScript shows a frame (prev/next buttons, a slider, the arrow keys, play/pause);
nothing is fetched. The page opens on the last frame, or on frame N for an address
ending in #N; the result line says the winner only on the last frame, and the scores as
they stood on every other one.

A page is drawn for a viewer (`rules.words`: a seat, `SPECTATOR`, or `EVERYONE`, the
default, for a game of bots): another seat's hand and cards are then counts only, its
points the public ones, and a log line with its secret in veiled words.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from html import escape
from typing import Any

from catandsl.render import palette
from catandsl.render.snapshot import Snapshot, seen_scores, snapshot, state_data
from catandsl.render.state_svg import (
    draw_order,
    legend_height,
    legend_svg,
    piece_svg,
    site_marks,
    sites_group,
    token_holdings,
)
from catandsl.render.svg import hexes_layer
from catandsl.rules.words import EVERYONE, entry_text


@dataclass
class Frame:
    """One step of a replay: its label, whose turn, the scores, the log and the pieces."""

    label: str
    turn: int
    player: int  # whose turn or placement, -1 for the start
    scores: tuple[int, ...] = ()
    log: list[str] = field(default_factory=list)
    pieces: tuple = ()
    snap: Snapshot | None = None  # the state after the frame's last action
    hexes: str = ""  # SVG of the hexes face down or changed then, over the board as dealt


def seat_name(player: int) -> str:
    return "chance" if player < 0 else f"P{player + 1}"


def _line(e: dict, viewer: int | None = EVERYONE) -> str:
    label = e.get("who") or seat_name(e["player"])
    return f"{label}: {entry_text(e, viewer)}"


def record(game, entries, viewer: int | None = EVERYONE) -> tuple[list[Frame], Any]:
    """Replay the logged actions (entries as `play_game` returns them: `player`,
    `action`, `text`, and `who` and `notes` when present) from a new initial state; one
    Frame for the start, one per set-up player block, one per turn. Returns (frames,
    final state); like `game`, the state is the engine's, read by duck typing."""
    state = game.new_initial_state()
    frames = [Frame("start", 0, -1)]
    _close(game, state, frames[0], None, viewer)
    current: Frame | None = None
    key = None
    for e in entries:
        data = state_data(state)
        stage = str(data.get("stage", ""))
        who = e["player"]
        if stage == "setup":
            k = ("setup", who if who >= 0 else (key[1] if key else -1))
            if k[1] < 0:  # a chance before the first placement (who starts): the start frame
                frames[0].log.append(_line(e, viewer))
                frames[0].log.extend(f"  {note}" for note in e.get("notes", ()))
                state.apply_action(e["action"])
                _close(game, state, frames[0], None, viewer)
                continue
        else:
            k = ("turn", state.turns)
        if k != key:
            if current is not None:
                _close(game, state, current, data, viewer)
            key = k
            if stage == "setup":
                current = Frame(f"set-up: {seat_name(k[1])}", 0, k[1])
            else:
                turn_player = data.get("turn_player", who)
                current = Frame(f"turn {state.turns}: {seat_name(turn_player)}", state.turns,
                                turn_player)
            frames.append(current)
        assert current is not None  # the first entry always opens a frame: key starts as None
        current.log.append(_line(e, viewer))
        current.log.extend(f"  {note}" for note in e.get("notes", ()))
        state.apply_action(e["action"])
    if current is not None:
        _close(game, state, current, None, viewer)
    return frames, state


def _close(game, state, frame: Frame, data, viewer: int | None = EVERYONE) -> None:
    snap = snapshot(game, state, data, viewer)
    frame.snap = snap
    if snap.face_down or snap.changed:  # hexes face down or changed: drawn over the board as dealt
        frame.hexes = hexes_layer(state.game.board, snap.changed, frozenset(snap.face_down))
    frame.scores = snap.scores
    frame.pieces = snap.pieces + snap.marks


def render_replay(game, entries, *, title: str = "catandsl replay", viewer: int | None = EVERYONE) -> str:
    """The HTML page replaying the logged game, as `viewer` reads it."""
    frames, final = record(game, entries, viewer)
    board = game.board
    n = game.num_players
    winner = getattr(final, "winner", -1)
    winner = winner if isinstance(winner, int) and winner >= 0 else None

    elements: dict[str, int] = {}
    legends: dict[str, int] = {}
    sites: dict[str, int] = {}

    def intern(table: dict[str, int], text: str) -> int:
        return table.setdefault(text, len(table))

    data_frames = []
    for k, f in enumerate(frames):
        last = k == len(frames) - 1
        snap = f.snap
        assert snap is not None  # every frame is closed
        ids = [intern(elements, piece_svg(board, p)) for p in _ordered(f.pieces)]
        legend = intern(legends, legend_svg(board, f.scores, winner if last else None,
                                            token_holdings(game, snap.tokens_held)))
        site = intern(sites, f.hexes + sites_group(board, site_marks(game, snap.token_stock)))
        data_frames.append({
            "label": f.label, "turn": f.turn, "player": f.player, "scores": list(f.scores), "log": f.log,
            "pieces": ids, "legend": legend, "sites": site,
            # a row the viewer may not read is its count alone
            "hands": [list(h) if h else snap.hand_counts[p] for p, h in enumerate(snap.hands)],
            "cards": [list(c) if c else snap.card_counts[p] for p, c in enumerate(snap.cards)],
            "played": [list(c) for c in snap.played], "tokens": [list(t) for t in snap.tokens_held],
            "awards": list(snap.award_holder),
        })
    summary = {
        "winner": winner, "reason": getattr(final, "reason", ""), "turns": final.turns,
        "scores": list(seen_scores(final, viewer)), "victory_target": getattr(game, "victory", None),
    }
    data = {"title": title, "players": [{"name": seat_name(p), "colour": palette.player_colour(p)}
                                        for p in range(n)],
            "resources": list(getattr(game, "resources", ())),
            "cards": [c.name for c in getattr(game, "cards", ())],
            "tokens": list(getattr(game, "token_names", ())),
            "awards": [a.title for a in getattr(game, "awards", ())],
            "elements": list(elements), "legends": list(legends), "sites": list(sites),
            "frames": data_frames, "final": summary, "result": _result(summary)}
    return _page(title, _board_svg(game), data)


def _ordered(pieces):
    return sorted(pieces, key=draw_order)


def _board_svg(game) -> str:
    import drawsvg as dw

    from catandsl.render.svg import board_drawing

    drawing = board_drawing(game.board, below=legend_height(game))
    drawing.append(dw.Raw('<g id="sites"></g><g id="pieces"></g><g id="legend"></g>'))
    svg = drawing.as_svg()
    if svg.startswith("<?xml"):
        svg = svg[svg.index("?>") + 2:].lstrip()
    return svg


def _script_json(data) -> str:
    # inside <script>, "</" would end the element early
    return json.dumps(data, separators=(",", ":")).replace("</", "<\\/")


def _result(summary: dict) -> str:
    scores = ", ".join(f"P{p + 1} {v}" for p, v in enumerate(summary["scores"]))
    w = summary["winner"]
    return (f"winner: {seat_name(w) if w is not None else 'none'} ({summary['reason']}) after "
            f"{summary['turns']} turns; scores {scores}")


def _page(title: str, board_svg: str, data: dict) -> str:
    return _TEMPLATE.format(title=escape(title), board=board_svg, data=_script_json(data),
                            result=escape(data["result"]), last=len(data["frames"]) - 1)


_TEMPLATE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{title}</title>
<style>
  body {{ font-family: sans-serif; margin: 1em; background: #faf8f3; color: #222; }}
  main {{ display: flex; gap: 1.5em; flex-wrap: wrap; }}
  #board svg {{ max-width: 640px; width: 100%; height: auto; }}
  #side {{ min-width: 320px; max-width: 560px; }}
  #controls {{ display: flex; gap: .5em; align-items: center; margin: .5em 0; }}
  #slider {{ flex: 1; }}
  #log {{ font-family: monospace; font-size: 13px; white-space: pre-wrap; background: #fff;
         border: 1px solid #ccc; padding: .5em; max-height: 24em; overflow: auto; }}
  table {{ border-collapse: collapse; }} td, th {{ padding: 2px 8px; text-align: left; vertical-align: top; }}
  .detail {{ color: #666; font-size: 85%; }}
  .swatch {{ display: inline-block; width: 12px; height: 12px; border: 1px solid #222; }}
</style>
</head>
<body>
<h1>{title}</h1>
<p id="result">{result}</p>
<main>
<div id="board">
{board}
</div>
<div id="side">
<div id="controls">
  <button id="prev" type="button" title="previous (left arrow)">&#9664; prev</button>
  <input id="slider" type="range" min="0" max="{last}" value="{last}">
  <button id="next" type="button" title="next (right arrow)">next &#9654;</button>
  <button id="play" type="button">play</button>
</div>
<h2 id="label"></h2>
<table id="scores"><thead><tr><th>player</th><th>VP</th><th>hand</th><th>development cards</th>
<th>played</th><th>awards</th></tr></thead><tbody></tbody></table>
<h3>log of this step</h3>
<div id="log"></div>
</div>
</main>
<script type="application/json" id="replay-data">{data}</script>
<script>
(function () {{
  var data = JSON.parse(document.getElementById("replay-data").textContent);
  var frames = data.frames, pieces = document.getElementById("pieces");
  var legend = document.getElementById("legend"), sites = document.getElementById("sites");
  var slider = document.getElementById("slider"), result = document.getElementById("result");
  var label = document.getElementById("label"), log = document.getElementById("log");
  var body = document.querySelector("#scores tbody"), timer = null, shown = -1;
  // "2 brick, 1 ore" from counts by name; the total first
  function counts(row, names) {{
    if (typeof row === "number") return {{ total: row, text: "" }};  // a hidden hand: its count
    var parts = [], total = 0;
    (row || []).forEach(function (n, k) {{ if (n) {{ parts.push(n + " " + names[k]); total += n; }} }});
    return {{ total: total, text: parts.join(", ") }};
  }}
  function cell(tr, main, detail) {{
    var td = document.createElement("td");
    td.appendChild(document.createTextNode(main));
    if (detail) {{
      var small = document.createElement("span");
      small.className = "detail"; small.textContent = " " + detail;
      td.appendChild(small);
    }}
    tr.appendChild(td);
  }}
  function show(i) {{
    i = Math.max(0, Math.min(frames.length - 1, i));
    var f = frames[i];
    shown = i;
    slider.value = i;
    if (location.hash !== "#" + (i + 1) && history.replaceState) {{
      try {{ history.replaceState(null, "", "#" + (i + 1)); }} catch (e) {{}}
    }}
    pieces.innerHTML = f.pieces.map(function (k) {{ return data.elements[k]; }}).join("");
    legend.innerHTML = data.legends[f.legend];
    sites.innerHTML = data.sites[f.sites];
    label.textContent = f.label + "  (" + (i + 1) + " / " + frames.length + ")";
    result.textContent = i === frames.length - 1 ? data.result :
      "scores at this step: " + f.scores.map(function (vp, p) {{
        return data.players[p].name + " " + vp; }}).join(", ");
    log.textContent = f.log.join("\\n");
    body.innerHTML = "";
    f.scores.forEach(function (vp, p) {{
      var tr = document.createElement("tr"), a = document.createElement("td");
      var sw = document.createElement("span");
      sw.className = "swatch"; sw.style.background = data.players[p].colour;
      a.appendChild(sw); a.appendChild(document.createTextNode(" " + data.players[p].name));
      tr.appendChild(a);
      cell(tr, String(vp), "");
      var hand = counts(f.hands[p], data.resources), tokens = counts(f.tokens[p], data.tokens);
      cell(tr, String(hand.total), [hand.text, tokens.text].filter(Boolean).join("; "));
      var held = counts(f.cards[p], data.cards), played = counts(f.played[p], data.cards);
      cell(tr, String(held.total), held.text);
      cell(tr, played.text || "-", "");
      var awards = data.awards.filter(function (t, k) {{ return f.awards[k] === p; }});
      cell(tr, awards.join(", ") || "-", "");
      body.appendChild(tr);
    }});
  }}
  function stop() {{ if (timer) {{ clearInterval(timer); timer = null; }}
    document.getElementById("play").textContent = "play"; }}
  document.getElementById("prev").onclick = function () {{ stop(); show(shown - 1); }};
  document.getElementById("next").onclick = function () {{ stop(); show(shown + 1); }};
  slider.oninput = function () {{ stop(); show(parseInt(slider.value, 10)); }};
  document.getElementById("play").onclick = function () {{
    if (timer) {{ stop(); return; }}
    if (shown >= frames.length - 1) show(0);
    this.textContent = "pause";
    timer = setInterval(function () {{
      if (shown >= frames.length - 1) stop(); else show(shown + 1);
    }}, 400);
  }};
  document.addEventListener("keydown", function (e) {{
    if (e.key === "ArrowLeft") {{ stop(); show(shown - 1); }}
    if (e.key === "ArrowRight") {{ stop(); show(shown + 1); }}
  }});
  // #N in the address opens frame N (from 1); the address follows the frame shown
  window.addEventListener("hashchange", function () {{ stop(); show(fromHash()); }});
  function fromHash() {{
    var m = /^#(\\d+)$/.exec(location.hash);
    return m ? parseInt(m[1], 10) - 1 : frames.length - 1;
  }}
  show(fromHash());
}})();
</script>
</body>
</html>
"""
