"""The web studio, `catandsl serve DIR` (extra `catandsl[studio]`: Starlette, uvicorn,
watchfiles): the scenarios of a folder listed, an author view of one file (its board
and diagnostics, reloaded when the file changes), a game against bots, and replays.
Plain HTML, SVG and a little JavaScript (pages/, static/), no build step. The core
never imports this package. docs/studio.md describes it."""
