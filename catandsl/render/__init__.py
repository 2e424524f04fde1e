"""Pictures of boards: `render_board` (SVG) and `render_png`.

Import `catandsl.render.svg` for them; this package imports nothing heavy, so the
board and engine never pull in drawsvg.
"""
