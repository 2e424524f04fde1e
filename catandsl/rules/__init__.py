"""The library of rule primitives, prompts and turn activities, one module per topic.

Importing the package registers everything (`registry.PRIMITIVES`, `base.ACTIONS`,
`base.PROMPTS`, `base.ACTIVITIES`, `base.ACTION_SOURCES`); the compiler reads the
registry to check rules, the engine to run them, the docs to list them. No module here
imports the engine.
"""

from catandsl.rules import (  # noqa: F401  (each module registers what it defines)
    areas,
    board_lists,
    card_draws,
    cards,
    choices,
    common,
    counters,
    custom,
    damage,
    dice,
    draws,
    exchange,
    free_sites,
    gifts,
    hand_counts,
    hands,
    harbors,
    hexes,
    hubs,
    islands,
    losses,
    movement,
    nearby,
    neutral,
    options,
    picks,
    placement,
    places,
    production,
    projects,
    removal,
    roll_cards,
    routes,
    scoring,
    seats,
    sites,
    standings,
    trade,
    travel,
)
