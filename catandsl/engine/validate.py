"""Reading a serialized state back, checked: a state is played only if it is one the
game could reach. `read_state` raises `StateError` (a ValueError naming the field)
for text that is not JSON, a field that is missing, of the wrong shape or out of range,
resources, cards or tokens that are not conserved, pieces past their limit or counted
wrongly, a prompt of an unknown kind or with wrong fields, or a dead state (one play
cannot go on from: `check_live`). What is derived from the rest (award holders) is
recomputed, as after any action.
"""

from __future__ import annotations

import json
from dataclasses import MISSING, fields
from typing import Any

from catandsl.engine import state as state_module
from catandsl.engine.errors import StateError
from catandsl.engine.state import State, records
from catandsl.rules import hexes, scoring
from catandsl.rules.base import PROMPTS, EngineError, Prompt
from catandsl.rules.harbors import HarborLookups, PlacingHarbor
from catandsl.rules.placement import pieces_on_board
from catandsl.rules.play import Game
from catandsl.rules.roll_cards import RollCardLookups
from catandsl.rules.trade import trade_items

MAX_TEXT = 16 << 20  # a serialized state of any real game is a few kilobytes


def _fail(field: str, why: str, code: str = "state/shape") -> StateError:
    return StateError(f"{field}: {why}", code, field.split("[")[0])


def _int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _ints(field: str, v: Any, length: int, lo: int, hi: int) -> None:
    if not isinstance(v, list) or len(v) != length:
        raise _fail(field, f"must be a list of {length} integers")
    # (the whole list at once: every state read checks some thousand numbers; JSON gives
    # exact ints, never a subclass, so the types are checked as a set)
    if v and not (set(map(type, v)) == _JUST_INT and lo <= min(v) and max(v) <= hi):
        for x in v:
            if not _int(x) or not lo <= x <= hi:
                raise _fail(field, f"{x!r} is not an integer in {lo}..{hi}")


_JUST_INT = {int}


def _rows(field: str, v: Any, rows: int, length: int, lo: int, hi: int) -> None:
    if not isinstance(v, list) or len(v) != rows:
        raise _fail(field, f"must be a list of {rows} rows")
    for k, row in enumerate(v):
        _ints(f"{field}[{k}]", row, length, lo, hi)


def _scalar(field: str, v: Any, lo: int, hi: int) -> None:
    if not _int(v) or not lo <= v <= hi:
        raise _fail(field, f"{v!r} is not an integer in {lo}..{hi}")


def read_state(game: Game, text: str) -> State:
    if not isinstance(text, str):
        raise StateError(f"a serialized state is a string, not {type(text).__name__}", "state/syntax")
    if len(text) > MAX_TEXT:
        raise StateError(f"the text is {len(text):,} characters; no state is that long", "state/syntax")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as e:
        raise StateError(f"not JSON: {e}", "state/syntax") from None
    if not isinstance(data, dict):
        raise StateError(f"a serialized state is a JSON object, not {type(data).__name__}", "state/syntax")
    if data.get("format") != state_module.FORMAT:
        raise _fail("format", f"this engine reads format {state_module.FORMAT}, not {data.get('format')!r}",
                    "state/format")
    missing = [f for f in state_module.FIELDS + ("pending",) if f not in data]
    if missing:
        raise StateError(f"missing fields: {', '.join(missing)}", "state/fields")
    extra = sorted(set(data) - set(state_module.FIELDS) - {"pending", "format"})
    if extra:
        raise StateError(f"unknown fields: {', '.join(extra)}", "state/fields")
    s = state_module.State(game)
    game = s.game  # the board as dealt
    for f in state_module.FIELDS:
        setattr(s, f, data[f])
    _check_flow(game, s)
    _check_data(game, s)
    s.pending = [_prompt(game, k, p) for k, p in enumerate(_list("pending", data["pending"]))]
    why = hexes.validate(game, s)
    if why:
        raise StateError(why)
    s.hex_changes = records(game, "hex_changes", s.hex_changes)
    s.game = game.with_hexes(s.hex_changes)
    _check_pieces(game, s)
    _check_harbor_tokens(game, s)
    s.changed()
    scoring.update_awards(s)  # award holders are derived: recomputed, as after any action
    check_live(s)
    return s


def check_live(s: State) -> None:
    """A state play can go on from: over, at a chance node with its outcomes, or a seat
    with a legal action, and at that decision (the engine never stops where the flow
    would move on by itself: a set-up step with nowhere to place, hook statements still
    to run). StateError (`state/dead`) otherwise, naming the field that holds the
    decision: `pending[k]` for a prompt, `setup_pos` for the set-up's next step, `phase`
    for the turn."""
    g = s.game
    if s.stage == "over":
        return
    if s.start_player < 0 and (s.stage != "setup" or s.setup_pos != 0):
        raise _fail("start_player", "the start player is drawn before anything else happens", "state/dead")
    where = f"pending[{len(s.pending) - 1}]" if s.pending else "setup_pos" if s.stage == "setup" else "phase"
    at = f" at set-up step {s.setup_pos} (the start player is {s.start_player})" if where == "setup_pos" else ""
    try:
        if not s._top().waits:  # a prompt that may settle by itself: the engine would have let it
            c = s.clone()
            if c._top().step(c):
                raise _fail(where, f"the game does not wait{at}: the flow moves on without a decision "
                            "(nothing to decide there)", "state/dead")
        if s.is_chance_node():
            outcomes = s.chance_outcomes()
            if not outcomes or abs(sum(pr for _, pr in outcomes) - 1) > 1e-9:
                raise _fail(where, "a chance node without outcomes", "state/dead")
            return
        p = s.current_player()
        if not 0 <= p < g.num_players:
            raise _fail(where, f"{p} is to act, not a player", "state/dead")
        if not s.legal_now():
            raise _fail(where, f"player {p} is to act{at} and has no legal action", "state/dead")
    except (IndexError, KeyError, TypeError, ValueError, EngineError) as e:
        if isinstance(e, StateError):
            raise
        raise _fail(where, f"the decision cannot be read ({type(e).__name__}: {e})", "state/dead") from None


def _list(field: str, v: Any) -> list:
    if not isinstance(v, list):
        raise _fail(field, "must be a list")
    return v


def _check_flow(g: Game, s: State) -> None:
    n = g.num_players
    if s.stage not in ("setup", "turn", "over"):
        raise _fail("stage", f"{s.stage!r} is not setup, turn or over")
    _scalar("setup_pos", s.setup_pos, 0, len(g.setup_script))
    _scalar("start_player", s.start_player, -1, n - 1)
    _scalar("turn_player", s.turn_player, 0, n - 1)
    _scalar("turns", s.turns, 0, g.turn_limit)
    _scalar("phase", s.phase, 0, len(g.phases) - 1)
    if not isinstance(s.roll_requested, bool):
        raise _fail("roll_requested", "must be true or false")
    _scalar("winner", s.winner, -1, n - 1)
    _ints("winners", s.winners, len(s.winners) if isinstance(s.winners, list) else -1, 0, n - 1)
    if not isinstance(s.reason, str):
        raise _fail("reason", "must be a string")
    if s.seed != g.seed:
        raise _fail("seed", f"{s.seed!r} is not this game's seed {g.seed}")
    for f in ("chance_count", "actions_applied", "offers_made", "last_roll"):
        _scalar(f, getattr(s, f), 0, 10**9)
    _ints("turn_rolls", s.turn_rolls, len(_list("turn_rolls", s.turn_rolls)), 0, 10**9)
    if not (_int(s.fixed_roll) and (s.fixed_roll == 0 or s.fixed_roll in dict(g.dice_totals))):
        raise _fail("fixed_roll", f"{s.fixed_roll!r} is neither 0 nor a total the dice roll")
    sides = g.ruleset.dice.sides if g.ruleset.dice is not None else 6
    _ints("last_faces", s.last_faces, len(g.dice_names), 0, sides)
    if any(s.last_faces) and (not all(s.last_faces) or sum(s.last_faces) != s.last_roll):
        raise _fail("last_faces", f"the faces {s.last_faces} do not add up to the last roll {s.last_roll}")
    if len(s.turn_rolls) > g.dice_rolls:
        raise _fail("turn_rolls", f"{len(s.turn_rolls)} rolls kept this turn; the dice are rolled "
                    f"{g.dice_rolls} time(s) a turn")
    if s.stage == "setup" and s.start_player >= 0 and s.setup_pos > len(g.setup_script):
        raise _fail("setup_pos", "past the set-up")


def _check_data(g: Game, s: State) -> None:
    n, R, C, K = g.num_players, len(g.resources), len(g.cards), len(g.pieces)
    b = g.board
    big = 10**6
    _rows("hands", s.hands, n, R, 0, big)
    _ints("bank", s.bank, R, 0, big)
    for r in range(R):
        if s.bank[r] + sum(h[r] for h in s.hands) != g.bank_start[r]:
            raise _fail("hands", f"{g.resources[r]} is not conserved: bank and hands hold "
                        f"{s.bank[r] + sum(h[r] for h in s.hands)}, the game has {g.bank_start[r]}",
                        "state/not_conserved")
    _rows("cards", s.cards, n, C, 0, big)
    _ints("new_cards", s.new_cards, C, 0, big)
    _rows("played", s.played, n, C, 0, big)
    _ints("played_turn", s.played_turn, len(g.decks), 0, big)
    _ints("deck", s.deck, C, 0, big)
    _ints("discarded", s.discarded, C, 0, big)
    _ints("stacked", s.stacked, C, 0, big)
    for c in g.cards:
        total = s.deck[c.index] + sum(h[c.index] for h in s.cards) + sum(p[c.index] for p in s.played)
        total += s.discarded[c.index] + s.stacked[c.index]
        if total != c.count:
            raise _fail("cards", f"card {c.name} is not conserved: {total} in the game, not {c.count}",
                        "state/not_conserved")
    corners, P = len(b.intersections), len(b.paths)
    seats = g.num_seats  # the players, then the neutral seats
    _ints("corner_owner", s.corner_owner, corners, -1, seats - 1)
    _ints("corner_piece", s.corner_piece, corners, -1, K - 1)
    _ints("path_owner", s.path_owner, P, -1, seats - 1)
    _ints("path_piece", s.path_piece, P, -1, K - 1)
    for what, owners, pieces, kind in (("corner", s.corner_owner, s.corner_piece, "intersection"),
                                       ("path", s.path_owner, s.path_piece, "path")):
        for k, (o, pi) in enumerate(zip(owners, pieces)):
            if (o < 0) != (pi < 0):
                raise _fail(f"{what}_piece", f"site {k} has an owner without a piece or a piece without one")
            if pi >= 0:
                piece = g.pieces[pi]
                if piece.neutral or piece.site != kind or k not in piece.sites:
                    raise _fail(f"{what}_piece", f"a {piece.name} cannot stand on {kind} {k}", "state/off_site")
    _rows("placed", s.placed, seats, K, 0, big)
    _rows("pieces_lost", s.pieces_lost, seats, K, 0, big)
    for k, r in enumerate(_list("piece_levels", s.piece_levels)):
        _ints(f"piece_levels[{k}]", r, 5, 0, big)
        if r[0] > 1 or r[1] >= (len(b.intersections), len(b.paths))[r[0]] or r[2] >= seats or r[3] >= K \
                or not r[4]:
            raise _fail(f"piece_levels[{k}]", "not [0 or 1, a site, a seat, a piece, a level > 0]")
    if s.piece_levels != sorted(s.piece_levels):
        raise _fail("piece_levels", "the records are not in ascending order")
    for k, r in enumerate(_list("attachments", s.attachments)):
        _ints(f"attachments[{k}]", r, 4, 0, big)
        if r[0] > 1 or r[1] >= (len(b.intersections), len(b.paths))[r[0]] or r[2] >= seats or r[3] >= K \
                or g.pieces[r[3]].neutral or (s.corner_owner, s.path_owner)[r[0]][r[1]] < 0:
            raise _fail(f"attachments[{k}]", "not [0 or 1, a site with a piece on it, a seat, a player's piece]")
    if s.attachments != sorted(s.attachments):
        raise _fail("attachments", "the records are not in ascending order")
    _ints("neutral_at", s.neutral_at, len(g.neutral_start), -1, max(len(b.hexes), P) - 1)
    for pi, slots in enumerate(g.neutral_slots):
        piece = g.pieces[pi]
        if not slots:
            if s.neutral_at[pi] != -1:
                raise _fail("neutral_at", f"{piece.name} is a player's piece, not a neutral one")
            continue
        here = [s.neutral_at[u] for u in slots]
        for at in here:
            if at >= 0 and at not in piece.sites:
                raise _fail("neutral_at", f"{piece.name} cannot stand on {piece.site} {at}", "state/off_site")
        if here != sorted(here):
            raise _fail("neutral_at", f"the sites of the {piece.name} pieces are not in order")
        placed = [at for at in here if at >= 0]
        if len(set(placed)) != len(placed):
            raise _fail("neutral_at", f"two {piece.name} pieces stand on one {piece.site}")
    _ints("award_holder", s.award_holder, len(g.awards), -1, seats - 1)
    for k, aw in enumerate(g.awards):
        if s.award_holder[k] >= n and not aw.seats:
            raise _fail("award_holder", f"a neutral seat holds {aw.name}, which only players compete for")
    # a board whose hexes change keeps island numbers stable below this (board/changes.py)
    islands = len(b.islands) + (2 * len(b.hexes) if g.changeable else 0)
    _ints("last_corner", s.last_corner, n, -1, corners - 1)
    _ints("last_path", s.last_path, n, -1, P - 1)
    for k, e in enumerate(_list("vp_tokens", s.vp_tokens)):
        _ints(f"vp_tokens[{k}]", e, 3, 0, big)
        if e[0] >= n or e[1] >= corners:
            raise _fail(f"vp_tokens[{k}]", "not a player and an intersection")
    s.vp_tokens = records(g, "vp_tokens", s.vp_tokens)
    for k, e in enumerate(_list("island_tags", s.island_tags)):
        if (not isinstance(e, list) or len(e) != 3 or not _int(e[0]) or not 0 <= e[0] < n
                or not isinstance(e[1], str) or not _int(e[2]) or not 0 <= e[2] < islands):
            raise _fail(f"island_tags[{k}]", "must be [player, tag, island]")
    s.island_tags = records(g, "island_tags", s.island_tags)
    _ints("moved", s.moved, 2 if s.moved else 0, 0, big)
    s.moved = records(g, "moved", s.moved)
    fresh = _list("fresh_paths", s.fresh_paths)
    _ints("fresh_paths", fresh, len(fresh), 0, big)
    if any(k >= P for k in fresh[1:]) or len(set(fresh[1:])) != len(fresh[1:]):
        raise _fail("fresh_paths", "must be [] or a turn and paths, once each")
    s.fresh_paths = records(g, "fresh_paths", fresh)
    T = len(g.token_names)
    _rows("token_stock", s.token_stock, len(g.sites), T, 0, big)
    _ints("token_supply", s.token_supply, T, 0, big)
    _rows("tokens_held", s.tokens_held, n, T, 0, big)
    for t, token in enumerate(g.ruleset.tokens.values()):
        total = s.token_supply[t] + sum(r[t] for r in s.token_stock) + sum(h[t] for h in s.tokens_held)
        if total != token.supply:
            raise _fail("tokens_held", f"token {token.name} is not conserved: {total}, not {token.supply}",
                        "state/not_conserved")
    for k, e in enumerate(_list("partners", s.partners)):
        _ints(f"partners[{k}]", e, 2, 0, big)
        if e[0] >= len(g.sites) or e[1] >= n:
            raise _fail(f"partners[{k}]", "not a site and a player")
    s.partners = records(g, "partners", s.partners)
    items = len(trade_items(g))
    declined = _list("offers_declined", s.offers_declined)  # rows [proposer, seats asked, *give, *get]
    for k, row in enumerate(declined):
        _ints(f"offers_declined[{k}]", row, 2 + 2 * items, 0, big)
        if row[0] >= n or not 0 < row[1] < 1 << n:
            raise _fail(f"offers_declined[{k}]", "not a player, the players asked, and the offer's terms")
    s.offers_declined = records(g, "offers_declined", declined)
    _ints("acted", s.acted, len(g.custom_actions), 0, big)
    _rows("counters", s.counters, n, len(g.counter_names), 0, 1_000_000)
    for k, e in enumerate(_list("travellers", s.travellers)):
        _ints(f"travellers[{k}]", e, 6, -1, big)
        if not (0 <= e[0] < n and 0 <= e[1] < len(g.pieces) and g.pieces[e[1]].travel is not None
                and e[2] in g.pieces[e[1]].sites and e[4] <= s.turns and e[5] <= s.turns):
            raise _fail(f"travellers[{k}]", "not a player, a travelling piece, a path it may stand on, "
                                            "its points and a turn")
    s.travellers = records(g, "travellers", s.travellers)
    stages = [len(p.stages) for p in g.ruleset.projects.values()]
    _ints("project_level", s.project_level, len(stages), 0, max(stages, default=0))
    _ints("project_owner", s.project_owner, len(stages), -1, n - 1)
    for k, (level, owner) in enumerate(zip(s.project_level, s.project_owner)):
        if level > stages[k] or (owner < 0) != (level == 0):
            raise _fail(f"project_level[{k}]", "a project has an owner exactly when a stage is built, "
                                               "and no more stages than it declares")
    _check_roll_cards(g, s)
    _ints("damaged", s.damaged, len(_list("damaged", s.damaged)), 0, P - 1)
    if s.damaged != sorted(set(s.damaged)) or any(s.path_owner[k] < 0 for k in s.damaged):
        raise _fail("damaged", "must list paths that hold a player's piece, once each, ascending")
    for k, e in enumerate(_list("yield_limits", s.yield_limits)):
        _ints(f"yield_limits[{k}]", e, 3, 0, big)
        if e[0] > s.turns or e[1] >= K:
            raise _fail(f"yield_limits[{k}]", "not a turn, a piece and how much it yields")
    s.yield_limits = records(g, "yield_limits", s.yield_limits)
    harbors = g.lookups(HarborLookups)
    _ints("harbor_at", s.harbor_at, len(harbors.start), -1, len(harbors.types) - 1)
    _ints("harbor_supply", s.harbor_supply, len(harbors.types), 0, big)
    for at, start in zip(s.harbor_at, harbors.start):
        if start >= 0 and at != start:
            raise _fail("harbor_at", "a harbor the board laid has moved")


def _check_roll_cards(g: Game, s: State) -> None:
    """The deck of roll cards: no kind holds more than the deck has of it, and the cards
    still to reveal this year are among those left (the rest lie unused under the New
    Year card)."""
    t = g.lookups(RollCardLookups)
    _ints("roll_deck", s.roll_deck, len(t.counts), 0, 10**6)
    for k, (left, whole) in enumerate(zip(s.roll_deck, t.counts)):
        if left > whole:
            raise _fail("roll_deck", f"card kind {k}: {left} left of {whole}")
    _scalar("roll_year", s.roll_year, 0, t.per_year)
    if sum(s.roll_deck) != s.roll_year + t.unused:
        raise _fail("roll_year", f"{sum(s.roll_deck)} cards left are not the {s.roll_year} still to "
                    f"reveal and the {t.unused} under the New Year card")


def _check_harbor_tokens(g: Game, s: State) -> None:
    """Harbor tokens are conserved: placed, drawn (in a pending placement) or left."""
    harbors = g.lookups(HarborLookups)
    drawn = [p.drawn for p in s.pending if isinstance(p, PlacingHarbor) and p.drawn >= 0]
    for k in range(len(harbors.types)):
        placed = sum(1 for at, start in zip(s.harbor_at, harbors.start) if at == k and start < 0)
        if placed + drawn.count(k) + s.harbor_supply[k] != harbors.supply[k]:
            raise _fail("harbor_supply", f"harbor tokens are not conserved: {placed} placed and "
                        f"{s.harbor_supply[k]} left, not {harbors.supply[k]}", "state/not_conserved")


def _check_pieces(g: Game, s: State) -> None:
    """Each player's placed pieces are those on the board (and one lifted to be moved),
    within their limits."""
    counted = pieces_on_board(s)
    for p in range(g.num_seats):
        for pi, piece in enumerate(g.pieces):
            if s.placed[p][pi] != counted[p][pi]:
                raise _fail("placed", f"player {p} has {counted[p][pi]} {piece.name} on the board, "
                            f"not {s.placed[p][pi]}", "state/over_limit")
            if counted[p][pi] + s.pieces_lost[p][pi] > piece.limit:
                raise _fail("placed", f"player {p} has {counted[p][pi]} {piece.name} and lost "
                            f"{s.pieces_lost[p][pi]}, past the limit of {piece.limit}", "state/over_limit")


def _prompt(g: Game, k: int, data: Any) -> Prompt:
    where = f"pending[{k}]"
    if not isinstance(data, dict) or not isinstance(data.get("kind"), str):
        raise _fail(where, "a prompt is an object with a string `kind`", "state/prompt")
    cls = PROMPTS.get(data["kind"])
    if cls is None:
        raise _fail(where, f"unknown prompt kind {data['kind']!r}", "state/prompt")
    names = [f.name for f in fields(cls)]  # type: ignore[arg-type]  # prompts are dataclasses
    required = [f.name for f in fields(cls)  # type: ignore[arg-type]
                if f.default is MISSING and f.default_factory is MISSING]
    given = sorted(set(data) - {"kind"})
    if not set(required) <= set(given) <= set(names):
        raise _fail(where, f"a {data['kind']} prompt has the fields {names}, not {given}", "state/prompt")
    try:
        prompt = cls(**{f: data[f] for f in names if f in data})
        why = prompt.check(g)
    except (TypeError, ValueError, IndexError, KeyError, EngineError) as e:
        raise _fail(where, f"not a valid {data['kind']} prompt ({e})", "state/prompt") from None
    if why:
        raise _fail(where, why, "state/prompt")
    return prompt
