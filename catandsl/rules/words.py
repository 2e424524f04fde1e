"""Actions in rulebook words: what a button says, what a log line tells.

Every action kind words itself (`Action.words`, beside the rule that owns it), from
the names the scenario declares: "build a road on the side between the forest (0, 1)
and the hills (1, 0)", "move the robber to the desert (0, 0)", "play Year of Plenty",
"offer 2 brick for 1 ore to everyone". A description is read by someone (`viewer`):
the card a seat draws or the card a robbery takes is named only to those who may see it
(`Told.sees`), "a card" to the others.

The public front door is `describe(game, action, viewer)` (a button's words, capitalized)
and `describe_event(game, action, actor, viewer)` (a log line's sentence, `P2 builds a
road ...`). Neither is on the engine's hot loop: the engine never words an action; the
log, the studio and the protocol do, when asked.

Place names: a hex is its terrain and coordinates (`the forest (2, -1)`); an
intersection is the corner where three hexes of the board meet, or the corner of one
hex by compass point (`the north corner of the sea (3, -3)`); a path is the side
between two hexes, or one hex's side by compass point.
"""

from __future__ import annotations

from catandsl.rules.base import Action, Prompt
from catandsl.rules.play import EVERYONE, Game, State, Told
from catandsl.rules.play import SPECTATOR as SPECTATOR


def entry_text(entry: dict, viewer: int | None) -> str:
    """A log entry's sentence as `viewer` reads it: an entry with a secret (the card
    drawn, the card stolen) holds its `readers` and, for the others, a `veiled` one."""
    readers = entry.get("readers")
    if readers is None or viewer is EVERYONE or viewer in readers:
        return entry["text"]
    return entry["veiled"]


_SMALL_WORDS = frozenset(("a", "an", "and", "at", "for", "from", "in", "of", "on", "or", "the", "to", "with"))
# the third person of the verbs that do not take a plain -s or -es
_IRREGULAR = {"go": "goes", "do": "does", "have": "has", "be": "is"}


def describe(game: Game, action: Action | int, viewer: int | None = EVERYONE, *, state: State | None = None,
             actor: int = -1) -> str:
    """A button's words for an action (an Action of `game`, or its id): `Build a road on
    the side between ...`. With `state` (the state it would be taken in) the words say
    more (a bank trade's rate, an offer's terms); `viewer` reads no secret of another
    seat; `actor` is who takes it (by default the player to act in `state`)."""
    return capitalized(words_of(game, action, viewer, state=state, actor=actor))


def describe_event(game: Game, action: Action | int, actor: int, viewer: int | None = EVERYONE, *,
                   state: State | None = None, asked: Prompt | None = None, subject: bool = True) -> str:
    """A log line's sentence for an action `actor` takes (a seat; -1 when no seat is
    named): `P2 builds a road on ...`, `P1 steals a card from P3` for a viewer who may
    not see which; without its `subject`, `builds a road on ...`. `state` is the state
    the action is taken in (before it), `asked` the prompt it answers (`state.top()`
    before it, by default)."""
    phrase = words_of(game, action, viewer, state=state, actor=actor, asked=asked)
    if actor < 0:
        return phrase
    said = third_person(phrase)
    return f"{seat_words(game, actor)} {said}" if subject else said


def words_of(game: Game, action: Action | int, viewer: int | None = EVERYONE, *, state: State | None = None,
             actor: int = -1, asked: Prompt | None = None) -> str:
    """The action's phrase, its verb first in the base form (`build a road on ...`)."""
    act = game.actions[action] if isinstance(action, int) else action
    if state is not None:
        if asked is None and state.pending:
            asked = state.top()
        if actor < 0 and not state.is_terminal() and not state.is_chance_node():
            actor = state.current_player()
    return act.words(Told(game, viewer, actor, state, asked))


# ---- grammar -----------------------------------------------------------------------------


def third_person(phrase: str) -> str:
    """`build a road` -> `builds a road`: the first word, the verb, in the third person."""
    verb, space, rest = phrase.partition(" ")
    if verb in _IRREGULAR:
        said = _IRREGULAR[verb]
    elif verb.endswith(("s", "sh", "ch", "x", "z", "o")):
        said = verb + "es"
    elif verb.endswith("y") and len(verb) > 1 and verb[-2] not in "aeiou":
        said = verb[:-1] + "ies"
    else:
        said = verb + "s"
    return said + space + rest


def capitalized(phrase: str) -> str:
    return phrase[:1].upper() + phrase[1:]


def spoken(name: str) -> str:
    """A declared name as words: `victory_point` -> `victory point`."""
    return name.replace("_", " ")


def title(name: str) -> str:
    """A card's name as its title: `year_of_plenty` -> `Year of Plenty`."""
    words = name.split("_")
    return " ".join(w if k and w in _SMALL_WORDS else w[:1].upper() + w[1:] for k, w in enumerate(words))


def a(noun: str) -> str:
    """`a road`, `an ore`."""
    return ("an " if noun[:1].lower() in "aeiou" else "a ") + noun


def amount(n: int, name: str) -> str:
    """`2 brick`: a count of a resource or token (Catan counts them without plurals)."""
    return f"{n} {spoken(name)}"


def amounts(names: tuple[str, ...] | list[str], counts: list[int]) -> str:
    """`2 brick, 1 ore` from counts per name; `nothing` when all are 0."""
    return ", ".join(amount(n, x) for x, n in zip(names, counts) if n) or "nothing"


def seat_words(game: Game, seat: int) -> str:
    """P1..Pn for the players, `neutral K` for the K-th neutral seat."""
    n = game.num_players
    return f"P{seat + 1}" if seat < n else f"neutral {seat - n + 1}"


# ---- the game's things -------------------------------------------------------------------


def piece_words(game: Game, name: str) -> str:
    """A piece with its article: `a road`, and for a neutral kind of one piece `the robber`."""
    pi = game.piece_index.get(name)
    if pi is not None:
        p = game.pieces[pi]
        if p.neutral and p.count <= 1:
            return f"the {spoken(name)}"
    return a(spoken(name))


def deck_card(deck: str) -> str:
    """`a development card`."""
    return a(f"{spoken(deck)} card")


def card_deck(game: Game, card: str) -> str:
    """The name of the deck a card belongs to."""
    k = game.card_index.get(card)
    return game.decks[game.cards[k].deck].name if k is not None else "deck"


def harbor_words(harbor: str) -> str:
    """`a 3:1 harbor`, `a brick 2:1 harbor`."""
    return a(f"{spoken(harbor)} harbor")


def piece_site_words(told: Told, piece: str, at: int, preposition: str = "") -> str:
    """Where a piece stands, with its preposition: `on the side between ...` for a path
    or a hex, `at the corner of ...` for an intersection (or the one given: `to`, `from`)."""
    game = told.board_game
    pi = game.piece_index.get(piece)
    kind = game.pieces[pi].site if pi is not None else "hex"
    if kind == "intersection":
        return f"{preposition or 'at'} {intersection_words(game, at)}"
    return f"{preposition or 'on'} {hex_words(game, at) if kind == 'hex' else path_words(game, at)}"


# ---- places ------------------------------------------------------------------------------

# Each intersection is one corner of each of its (up to) three hexes: by its canonical
# part (the top or bottom corner of hex (q, r)), the offset of each hex from (q, r), in
# reading order (row, then column), and which of its corners the intersection is.
_CORNER_OF = {
    "N": (((0, -1), "south-east"), ((1, -1), "south-west"), ((0, 0), "north")),
    "S": (((0, 0), "south"), ((-1, 1), "north-east"), ((0, 1), "north-west")),
}
# Each path is one side of each of its two hexes: by its canonical side of hex (q, r),
# the offset of the other hex and the side it is of that one.
_SIDE_OF = {"NE": ((1, -1), "south-west"), "NW": ((0, -1), "south-east"), "W": ((-1, 0), "east")}
_COMPASS = {"N": "north", "S": "south", "E": "east", "W": "west", "NE": "north-east", "NW": "north-west",
            "SE": "south-east", "SW": "south-west"}


def hex_words(game: Game, k: int) -> str:
    """`the forest (2, -1)`."""
    b = game.board
    q, r = b.hexes[k]
    return f"the {spoken(b.terrain_names[b.hex_terrain[k]])} ({q}, {r})"


def _hex_at(game: Game, q: int, r: int) -> str | None:
    k = game.board.hex_index.get((q, r))
    return None if k is None else hex_words(game, k)


def intersection_words(game: Game, k: int) -> str:
    """`the corner of the forest (0, 1), the hills (1, 0) and the sea (1, 1)` where three
    hexes of the board meet; else one hex's corner, `the north corner of the sea (3, -3)`;
    a hub hex's centre point `the centre of the desert (0, 0)`."""
    q, r, c = game.board.intersections[k]
    if c not in _CORNER_OF:
        return f"the centre of {_hex_at(game, q, r)}"
    named = [(w, corner) for (dq, dr), corner in _CORNER_OF[c] if (w := _hex_at(game, q + dq, r + dr)) is not None]
    if len(named) == 3:
        return f"the corner of {named[0][0]}, {named[1][0]} and {named[2][0]}"
    where, corner = named[0]  # (every intersection of a board touches one of its hexes)
    return f"the {corner} corner of {where}"


def path_words(game: Game, k: int) -> str:
    """`the side between the forest (0, 1) and the hills (1, 0)`; a side on the board's
    edge `the west side of the sea (-3, 0)`; a hub's spur `the spur to the north corner
    of the desert (0, 0)`."""
    q, r, side = game.board.paths[k]
    own = _hex_at(game, q, r)
    if side not in _SIDE_OF:  # a spur, from a hub hex's centre to one of its corners
        return f"the spur to the {_COMPASS[side.partition('-')[2]]} corner of {own}"
    (dq, dr), their_side = _SIDE_OF[side]
    other = _hex_at(game, q + dq, r + dr)
    if own is not None and other is not None:
        return f"the side between {own} and {other}"
    if own is not None:
        return f"the {_COMPASS[side]} side of {own}"
    return f"the {their_side} side of {other}"  # (every path of a board touches one of its hexes)
