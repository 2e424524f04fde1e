"""The closed set of events and primitives a `.catan` rule may name.

A rule (`on EVENT(filter) if CONDITION { EFFECTS }`) is checked against these tables at
compile time: the event must exist and its filter must fit, every call must name a
primitive with the right number and types of arguments, effects stand only as
statements, queries and choices only inside expressions. Binding (in the engine) looks
names up here too; nothing is ever looked up by a user-given attribute name.

Types are short strings: int, bool, str, player, hex, intersection, path, site (any of
hex, intersection, path), island, resource, terrain, piece, card, award, token (a
declared `token`), site_kind (a declared `site`), list<T>, any.
"""

from __future__ import annotations

from dataclasses import dataclass

EFFECT = "effect"  # changes the game; a statement
QUERY = "query"  # reads the game; an expression
CHOICE = "choice"  # asks a player; an expression whose value the player picks


@dataclass(frozen=True)
class Param:
    name: str
    type: str


@dataclass(frozen=True)
class Primitive:
    name: str
    kind: str
    params: tuple[Param, ...]
    returns: str | None
    doc: str


@dataclass(frozen=True)
class Event:
    name: str
    params: tuple[Param, ...]
    filter: str | None  # the parameter a filter `on built(settlement)` compares with
    filter_type: str | None
    doc: str


def _params(spec: str) -> tuple[Param, ...]:
    out = []
    for part in spec.split(","):
        part = part.strip()
        if part:
            name, type_ = part.split(":")
            out.append(Param(name.strip(), type_.strip()))
    return tuple(out)


def _e(name, params, filter_=None, filter_type=None, doc=""):
    return Event(name, _params(params), filter_, filter_type, doc)


def _p(name, kind, params, returns, doc):
    return Primitive(name, kind, _params(params), returns, doc)


EVENTS: dict[str, Event] = {
    e.name: e
    for e in [
        _e("game_started", "", doc="once, before the set-up"),
        _e("setup_ended", "", doc="once, when the last set-up step is done"),
        _e("turn_started", "player: player", doc="at the start of each regular turn"),
        _e("dice_rolled", "player: player, roll: int", "roll", "int",
           doc="after the dice; `roll` is their total"),
        _e("built", "player: player, piece: piece, at: site", "piece", "piece",
           doc="after a piece is placed (bought, free, or in the set-up)"),
        _e("collected", "player: player, piece: piece, at: site", "piece", "piece",
           doc="after a set-up `collect last` pays for the piece at `at` (terrains that "
               "produce a fixed resource; a terrain that `produces choice` is left to rules)"),
        _e("moved", "player: player, piece: piece, from: site, at: site", "piece", "piece",
           doc="after a piece is moved (robber, pirate, ship)"),
        _e("card_bought", "player: player, card: card", "card", "card",
           doc="after a development card is bought"),
        _e("card_played", "player: player, card: card", "card", "card",
           doc="when a development card is played; `on play` inside a card means this"),
        _e("traded", "player: player", doc="after a trade by the active player"),
        _e("turn_ended", "player: player", doc="when the active player ends the turn"),
        _e("site_reached", "player: player, site: site_kind, at: intersection", "site", "site_kind",
           doc="when a shipping route from one of the player's buildings first reaches a "
               "site of this kind at `at`; from then on the player trades with that site"),
    ]
}

PRIMITIVES: dict[str, Primitive] = {
    p.name: p
    for p in [
        # ---- effects -----------------------------------------------------------------
        _p("produce", EFFECT, "roll: int", None,
           "every hex with this number that no blocking piece stands on pays the pieces "
           "around it, with the bank-shortage rule"),
        _p("discard_half", EFFECT, "over: int", None,
           "every player holding more than `over` resource cards discards half, rounded down"),
        _p("move_piece", EFFECT, "player: player, pieces: list<piece>", None,
           "the player moves one of these neutral pieces and robs a player it now touches"),
        _p("build_free", EFFECT, "player: player, pieces: list<piece>, count: int", None,
           "the player places `count` pieces of these kinds at no cost"),
        _p("take_from_bank", EFFECT, "player: player, resource: resource, count: int", None,
           "the player takes up to `count` of a resource from the bank"),
        _p("monopoly", EFFECT, "player: player, resource: resource", None,
           "every other player gives the player all their cards of the resource"),
        _p("vp_token", EFFECT, "player: player, at: site, count: int", None,
           "special victory points, laid under the building at `at`"),
        _p("give_tokens", EFFECT, "player: player, token: token, count: int", None,
           "the player takes up to `count` tokens from that token's general supply"),
        _p("take_from_site", EFFECT, "player: player, at: intersection, token: token, count: int",
           None, "the player takes `count` tokens from the stock of the site at `at`; a short "
           "stock is made up from the general supply, an empty one gives nothing"),
        _p("produce_sites", EFFECT, "site: site_kind, roll: int", None,
           "every site of this kind with the number `roll` gives each player trading with it "
           "1 token of its stock; a short stock is made up from the general supply (the "
           "active player first, then in the order trade began); an empty one gives nothing"),
        _p("mark_island", EFFECT, "player: player, tag: str, island: island", None,
           "records a tag (such as home) for the player on an island"),
        _p("collect_choice", EFFECT, "player: player, at: site, count: int", None,
           "for each hex around `at` whose terrain `produces choice` (gold), the "
           "player takes `count` resources of their choice from the bank"),
        _p("end_game", EFFECT, "reason: str", None,
           "ends the game now for `reason`; the winner is the player ranked first by the "
           "scenario's `tie_break` (by default most points); equal players share it"),
        # ---- choices -------------------------------------------------------------------
        _p("choose_resource", CHOICE, "player: player", "resource",
           "the player picks one resource"),
        _p("choose_player", CHOICE, "player: player, among: list<player>", "player",
           "the player picks one of the listed players"),
        # ---- queries -------------------------------------------------------------------
        _p("land", QUERY, "at: site", "bool", "the site touches a land hex (a hex: is land)"),
        _p("water", QUERY, "at: site", "bool", "the site touches a water hex (a hex: is water)"),
        _p("coast", QUERY, "at: site", "bool", "the site touches both land and water"),
        _p("island", QUERY, "at: site", "island", "the island the site belongs to"),
        _p("on_island", QUERY, "at: site, island: island", "bool",
           "the site touches a hex of the named island"),
        _p("home_island", QUERY, "player: player, island: island", "bool",
           "the player marked the island home (see mark_island)"),
        _p("first_on", QUERY, "player: player, island: island", "bool",
           "the building just placed is the player's first on that island"),
        _p("islands_with", QUERY, "player: player, tag: str", "int",
           "how many islands the player has a building on, not counting ones tagged `tag`"),
        _p("islands_of", QUERY, "player: player", "list<island>",
           "the islands the player has a settlement or city on"),
        _p("in_setup", QUERY, "", "bool", "the game is still in its set-up rounds"),
        _p("owner", QUERY, "at: site", "player", "the player whose piece stands there"),
        _p("number", QUERY, "at: hex", "int", "the number token on a hex (0 for none)"),
        _p("terrain", QUERY, "at: hex", "terrain", "the terrain of a hex"),
        _p("longest_route", QUERY, "player: player, pieces: list<piece>", "int",
           "the player's longest continuous route of these pieces"),
        _p("army", QUERY, "player: player", "int", "knights the player has played"),
        _p("points", QUERY, "player: player", "int", "the player's victory points"),
        _p("resource_cards", QUERY, "player: player", "int", "resource cards in hand"),
        _p("tokens", QUERY, "player: player, token: token", "int", "tokens the player holds"),
        _p("sites_with_stock", QUERY, "site: site_kind", "int",
           "how many sites of this kind still hold tokens"),
        _p("trading_sites", QUERY, "player: player, site: site_kind", "int",
           "how many sites of this kind the player trades with (has reached)"),
        _p("count", QUERY, "items: list<any>", "int", "the length of a list"),
        _p("nth", QUERY, "items: list<int>, index: int", "int",
           "the index-th item counting from 1; past the end, the last item"),
        _p("players", QUERY, "", "list<player>", "every player"),
        _p("opponents", QUERY, "player: player", "list<player>", "every other player"),
    ]
}


def compatible(expected: str, actual: str) -> bool:
    """Whether a value of type `actual` may stand where `expected` is asked for."""
    if expected == actual or "any" in (expected, actual):
        return True
    if expected == "site" and actual in ("hex", "intersection", "path"):
        return True
    if actual == "site" and expected in ("hex", "intersection", "path"):
        return True  # checked when the rule runs
    if expected.startswith("list<") and actual.startswith("list<"):
        return compatible(expected[5:-1], actual[5:-1])
    return False


# What each primitive reads (a query) or changes (an effect), in coarse parts of the
# game: the engine re-evaluates an award's measure only when an action or an effect
# changed a part its measure reads. A primitive missing here counts as touching
# everything, so forgetting one costs speed, never correctness.
HANDS, BOARD, CARDS, TOKENS, ISLANDS, NEUTRAL, FLOW = (
    "hands", "board", "cards", "tokens", "islands", "neutral", "flow")
EVERYTHING = frozenset((HANDS, BOARD, CARDS, TOKENS, ISLANDS, NEUTRAL, FLOW))
STATIC: frozenset[str] = frozenset()  # reads the board's geometry only

TOUCHES: dict[str, frozenset[str]] = {
    "produce": frozenset((HANDS,)),
    "discard_half": frozenset((HANDS, FLOW)),
    "move_piece": frozenset((NEUTRAL, HANDS, FLOW)),
    "build_free": frozenset((BOARD, FLOW)),
    "take_from_bank": frozenset((HANDS,)),
    "monopoly": frozenset((HANDS,)),
    "vp_token": frozenset((TOKENS,)),
    "give_tokens": frozenset((TOKENS,)),
    "take_from_site": frozenset((TOKENS,)),
    "produce_sites": frozenset((TOKENS,)),
    "mark_island": frozenset((ISLANDS,)),
    "collect_choice": frozenset((HANDS, FLOW)),
    "end_game": frozenset((FLOW,)),
    "choose_resource": STATIC,
    "choose_player": STATIC,
    "land": STATIC, "water": STATIC, "coast": STATIC, "island": STATIC, "on_island": STATIC,
    "number": STATIC, "terrain": STATIC, "count": STATIC, "nth": STATIC, "players": STATIC,
    "opponents": STATIC,
    "home_island": frozenset((ISLANDS,)),
    "first_on": frozenset((BOARD,)),
    "islands_with": frozenset((BOARD, ISLANDS)),
    "islands_of": frozenset((BOARD,)),
    "in_setup": frozenset((FLOW,)),
    "owner": frozenset((BOARD,)),
    "longest_route": frozenset((BOARD,)),
    "army": frozenset((CARDS,)),
    "points": frozenset((BOARD, CARDS, TOKENS)),
    "resource_cards": frozenset((HANDS,)),
    "tokens": frozenset((TOKENS,)),
    "sites_with_stock": frozenset((TOKENS,)),
    "trading_sites": frozenset((BOARD, TOKENS)),
}


def touches(name: str) -> frozenset[str]:
    return TOUCHES.get(name, EVERYTHING)
