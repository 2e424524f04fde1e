"""Colours for terrains and resources.

The base terrains have the colours people know from the printed game. A terrain a
scenario invents gets a colour from a fixed palette, picked by a stable hash of its
name (zlib.crc32, not `hash()`, which changes with PYTHONHASHSEED), so the same map
always looks the same.
"""

from __future__ import annotations

import zlib

from catandsl.ir.model import Terrain

TERRAIN_COLOURS = {
    "forest": "#2e6b34",
    "pasture": "#9bcf5f",
    "fields": "#e5c04a",
    "hills": "#b4532a",
    "mountains": "#8e9196",
    "desert": "#e4d3a2",
    "sea": "#3b7ec2",
    "gold": "#f7d51d",
}
LAND_PALETTE = (
    "#7a5c99", "#c27c4e", "#5f8f8a", "#a3a14b", "#a2516e", "#6d7f3a", "#4f6d9a", "#b08d57",
)
WATER_PALETTE = ("#3f8fb8", "#2f6ea6", "#4a7fa8")

FACE_DOWN = "#6f7f8c"  # the back of a face-down hex tile
FRAME_SHADE = 0.82  # frame positions are drawn a little darker than open sea
TOKEN_FILL = "#f6ecd2"
RED_NUMBERS = (6, 8)
RED = "#c0262d"
INK = "#222222"
GENERIC_HARBOR = "#ffffff"


def _pick(palette: tuple[str, ...], name: str) -> str:
    return palette[zlib.crc32(name.encode("utf-8")) % len(palette)]


def terrain_colour(name: str, terrain: Terrain | None = None) -> str:
    if name in TERRAIN_COLOURS:
        return TERRAIN_COLOURS[name]
    if terrain is not None and terrain.water:
        return _pick(WATER_PALETTE, name)
    return _pick(LAND_PALETTE, name)


def resource_colour(resource: str, terrains: dict[str, Terrain]) -> str:
    """The colour of the first terrain (in declaration order) producing the resource."""
    for name, terrain in terrains.items():
        if terrain.produces == resource:
            return terrain_colour(name, terrain)
    return _pick(LAND_PALETTE, resource)


def shade(colour: str, factor: float) -> str:
    """`colour` (#rrggbb) with each channel scaled by `factor`."""
    channels = [int(colour[k:k + 2], 16) for k in (1, 3, 5)]
    return "#" + "".join(f"{max(0, min(255, round(c * factor))):02x}" for c in channels)


def ink_on(colour: str) -> str:
    """Dark text on light fills, white text on dark ones, so labels stay readable."""
    r, g, b = (int(colour[k:k + 2], 16) for k in (1, 3, 5))
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 140 else "#ffffff"

# Seat colours in seat order, as in the printed game (red, blue, orange, white) and its
# 5-6 player extension (green, brown); more seats cycle.
PLAYER_COLOURS = ("#d1392b", "#2f62b5", "#ee8a2a", "#f4f4f0", "#3b8f3f", "#7b4b2a")
NEUTRAL_COLOURS = {"robber": "#3a3a3a", "pirate": "#1b1b2f"}
NEUTRAL_DEFAULT = "#555555"


def player_colour(player: int) -> str:
    return PLAYER_COLOURS[player % len(PLAYER_COLOURS)]
