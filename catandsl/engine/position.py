"""Positions built by hand: start from a game's blank first turn (or any state), place
and remove pieces, set hands, the bank, tokens, cards, whose turn and the neutral
pieces, then `state()`, which checks the result the way a serialized state is checked
(engine/validate.py) and recomputes what is derived (awards, cached routes; trade
relations with the map's sites on request, `reach_sites()`, since reaching one runs
the rules' hooks).

    pos = Position(game)                                   # turn 1, seat 0 to roll, empty board
    pos.place(0, "settlement", (0, 0, "N"))                # as set up: no cost, no rules
    pos.place(0, "road", (0, 0, "NE"), rules=True)         # refused where the rules refuse it
    pos.place(1, "city", 17, pay=True, rules=True)         # bought: paid from the hand
    pos.hand(0, brick=2, ore=1).turn(0, phase="roll")
    state = pos.state()                                    # StateError if it is no legal position

Every edit says explicitly whether the placement rules apply (`rules`) and whether the
piece is paid for (`pay`). With `rules=True` the rules' hooks on `built` run too, as in
play; with `rules=False` the piece is only put down. A site is an id or a name:
`(q, r, "N")` for an intersection, `(q, r, "NE")` for a path, `(q, r)` for a hex.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from catandsl.engine import flow
from catandsl.engine.state import State
from catandsl.engine.validate import read_state
from catandsl.rules import costs, neutral, placement, sites
from catandsl.rules.play import Traveller

if TYPE_CHECKING:
    from catandsl.rules.play import Game

LocationRef = int | tuple


class PositionError(ValueError):
    """An edit the position builder refuses; `code` says why (docs/diagnostics.md):
    `position/unknown` (a seat, piece, resource, card, token, phase or site the game does
    not have), `position/illegal_place` (the placement rules refuse it),
    `position/cannot_afford`, `position/short` (the bank, deck or supply lacks what is
    asked), `position/occupied`, `position/empty` (nothing to remove)."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code


def blank_state(game: Game) -> State:
    """Turn 1 with seat 0 to act in the first phase: the set-up done, nothing on the
    board, empty hands. No rule hook has run (a scenario's start-of-game effects are
    for the builder to set)."""
    s = State(game)
    s.stage = "turn"
    s.setup_pos = len(game.setup_script)
    s.start_player = 0
    s.turn_player = 0
    s.turns = 1
    s.phase = 0
    s.changed()
    return s


class Position:
    """A position under construction; every edit returns the builder (chainable)."""

    def __init__(self, game: Game, state: State | None = None):
        self.game = game
        self._s = state.clone() if state is not None else blank_state(game)

    @classmethod
    def from_state(cls, state: State) -> Position:
        return cls(state.game, state)

    # ---- names ----------------------------------------------------------------------

    def seat(self, seat: Any) -> int:
        n = self.game.num_players
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < n:
            raise PositionError("position/unknown", f"a seat is 0..{n - 1}, not {seat!r}")
        return seat

    def piece(self, name: Any) -> int:
        pi = self.game.piece_index.get(name) if isinstance(name, str) else None
        if pi is None:
            raise PositionError("position/unknown", f"no piece {name!r}; the pieces are "
                                f"{', '.join(p.name for p in self.game.pieces)}")
        return pi

    def location(self, kind: str, at: LocationRef) -> int:
        """A site id of this kind from an id or a name."""
        b = self.game.board
        table = {"intersection": b.intersections, "path": b.paths, "hex": b.hexes}[kind]
        if isinstance(at, int) and not isinstance(at, bool) and 0 <= at < len(table):
            return at
        key = tuple(at) if isinstance(at, (tuple, list)) else None
        if key is not None:
            for k, name in enumerate(table):
                if name == key:
                    return k
        raise PositionError("position/unknown", f"no {kind} {at!r} on this board")

    def _named(self, names: tuple[str, ...] | list[str], given: dict[str, int], what: str) -> dict[int, int]:
        out: dict[int, int] = {}
        for name in sorted(given):
            if name not in names:
                raise PositionError("position/unknown", f"no {what} {name!r}; the game has {', '.join(names)}")
            n = given[name]
            if not isinstance(n, int) or isinstance(n, bool) or n < 0:
                raise PositionError("position/unknown", f"{name}: a count is a whole number >= 0, not {n!r}")
            out[list(names).index(name)] = n
        return out

    # ---- pieces -----------------------------------------------------------------------

    def place(self, seat: int, piece: str, at: LocationRef, *, pay: bool = False, rules: bool = False) -> Position:
        """Put the seat's piece on a site. `pay`: take its cost from the seat's hand.
        `rules`: refuse a site the placement rules refuse (as a bought piece in this
        turn), and run the rules' hooks on `built`."""
        s, g = self._s, self.game
        p, pi = self.seat(seat), self.piece(piece)
        P = g.pieces[pi]
        if P.neutral:
            raise PositionError("position/unknown", f"the {P.name} is neutral: use neutral()")
        if P.site == "hex":  # the engine places players' pieces on intersections and paths only
            raise PositionError("position/unknown", f"the {P.name} stands on a hex: no player's piece does")
        k = self.location(P.site, at)
        if rules and (s.placed[p][pi] >= P.limit or not placement.can_place(s, p, pi, k)):
            raise PositionError("position/illegal_place",
                                f"the rules refuse a {P.name} for seat {p} at {g.location_name(P.site, k)}")
        owners = s.corner_owner if P.site == "intersection" else s.path_owner
        if not rules and P.travel is None and owners[k] != -1 and not (  # a traveller shares its path
                P.upgrades >= 0 and owners[k] == p and s.corner_piece[k] in P.upgrades_from):
            raise PositionError("position/occupied", f"{g.location_name(P.site, k)} is taken")
        if pay:
            cost = costs.cost_of(s, p, "piece", pi).cards
            if not placement.affordable(s.hands[p], cost):
                raise PositionError("position/cannot_afford", f"seat {p} cannot afford a {P.name}")
            placement.pay(s, p, cost)
        if rules:
            placement.place(s, p, pi, k, free=not pay)  # as in play: hooks on `built` are queued...
            flow.advance(s)  # ...and run
        else:
            self._put(p, pi, k)
        s.changed()
        return self

    def _put(self, p: int, pi: int, k: int) -> None:
        s, P = self._s, self.game.pieces[pi]
        if P.travel is not None:
            s.travellers.append(Traveller(p, pi, k, 0, -1, -1))
        elif P.site == "intersection":
            if P.upgrades >= 0 and s.corner_owner[k] == p and s.corner_piece[k] in P.upgrades_from:
                s.placed[p][s.corner_piece[k]] -= 1  # the piece it replaces goes back to the player
            s.corner_owner[k], s.corner_piece[k] = p, pi
        else:
            s.path_owner[k], s.path_piece[k] = p, pi
        s.placed[p][pi] += 1

    def remove(self, piece: str, at: LocationRef) -> Position:
        """Take the piece of this kind off a site; it goes back to its owner."""
        s, g = self._s, self.game
        pi = self.piece(piece)
        P = g.pieces[pi]
        if P.neutral:
            raise PositionError("position/unknown", f"the {P.name} is neutral: use neutral()")
        k = self.location(P.site, at)
        if P.travel is not None:
            found = [e for e in s.travellers if e.piece == pi and e.path == k]
            if not found:
                raise PositionError("position/empty", f"no {P.name} at {g.location_name(P.site, k)}")
            s.travellers.remove(found[0])
            s.placed[found[0].player][pi] -= 1
        else:
            owners, pieces = ((s.corner_owner, s.corner_piece) if P.site == "intersection"
                              else (s.path_owner, s.path_piece))
            if pieces[k] != pi:
                raise PositionError("position/empty", f"no {P.name} at {g.location_name(P.site, k)}")
            s.placed[owners[k]][pi] -= 1
            owners[k], pieces[k] = -1, -1
        s.changed()
        return self

    def neutral(self, piece: str, *sites: LocationRef) -> Position:
        """Stand the pieces of a neutral kind on these sites (the rest off the board)."""
        s, g = self._s, self.game
        pi = self.piece(piece)
        P = g.pieces[pi]
        if not P.neutral:
            raise PositionError("position/unknown", f"the {P.name} is a player's piece: use place()")
        if len(sites) > P.count:
            raise PositionError("position/short", f"the {P.name} has {P.count} piece(s), not {len(sites)}")
        ks = [self.location(P.site, at) for at in sites]
        neutral.put_pieces(s, pi, ks + [-1] * (P.count - len(ks)))
        s.changed()
        return self

    # ---- hands, bank, tokens, cards ---------------------------------------------------------

    def hand(self, seat: int, **resources: int) -> Position:
        """Set the named resources in the seat's hand, exchanged with the bank (all or
        nothing: a refused edit changes nothing)."""
        s = self._s
        p = self.seat(seat)
        wanted = self._named(self.game.resources, resources, "resource")
        for r, n in wanted.items():
            if n - s.hands[p][r] > s.bank[r]:
                raise PositionError("position/short", f"the bank has {s.bank[r]} {self.game.resources[r]}, "
                                    f"not {n - s.hands[p][r]} more")
        for r, n in wanted.items():
            s.bank[r] -= n - s.hands[p][r]
            s.hands[p][r] = n
        s.changed()
        return self

    def bank(self, **resources: int) -> Position:
        """Set the bank's counts as given (`state()` then checks resources are conserved)."""
        for r, n in self._named(self.game.resources, resources, "resource").items():
            self._s.bank[r] = n
        self._s.changed()
        return self

    def tokens(self, seat: int, **tokens: int) -> Position:
        """Set the seat's tokens, exchanged with the general supply (all or nothing)."""
        s = self._s
        p = self.seat(seat)
        wanted = self._named(self.game.token_names, tokens, "token")
        for t, n in wanted.items():
            if n - s.tokens_held[p][t] > s.token_supply[t]:
                raise PositionError("position/short", f"the supply has {s.token_supply[t]} "
                                    f"{self.game.token_names[t]}, not {n - s.tokens_held[p][t]} more")
        for t, n in wanted.items():
            s.token_supply[t] -= n - s.tokens_held[p][t]
            s.tokens_held[p][t] = n
        s.changed()
        return self

    def cards(self, seat: int, held: dict[str, int] | None = None, bought: dict[str, int] | None = None,
              played: dict[str, int] | None = None) -> Position:
        """Set the seat's development cards, exchanged with the deck: `held` in hand,
        `bought` of those held bought this turn (so not playable yet; the seat must be the
        one whose turn it is), `played` so far. All or nothing."""
        s, g = self._s, self.game
        p = self.seat(seat)
        names = [c.name for c in g.cards]
        want_held = self._named(names, held or {}, "card")
        want_played = self._named(names, played or {}, "card")
        want_bought = self._named(names, bought or {}, "card")
        after = [want_held.get(c, s.cards[p][c]) for c in range(len(names))]
        for c in range(len(names)):
            more = after[c] - s.cards[p][c] + want_played.get(c, s.played[p][c]) - s.played[p][c]
            if more > s.deck[c]:
                raise PositionError("position/short", f"the deck has {s.deck[c]} {names[c]}, not {more} more")
        if want_bought and p != s.turn_player:
            raise PositionError("position/unknown", "only the seat whose turn it is has cards bought this turn")
        for c, n in want_bought.items():
            if n > after[c]:
                raise PositionError("position/short", f"seat {p} holds {after[c]} {names[c]}, "
                                    f"so cannot have bought {n} this turn")
        for row, wanted in ((s.cards[p], want_held), (s.played[p], want_played)):
            for c, n in wanted.items():
                s.deck[c] -= n - row[c]
                row[c] = n
        for c, n in want_bought.items():
            s.new_cards[c] = n
        s.changed()
        return self

    # ---- flow -----------------------------------------------------------------------------

    def turn(self, seat: int, *, turns: int | None = None, phase: str | int | None = None,
             rolled: bool | None = None) -> Position:
        """Make it the seat's turn (number `turns`), in a phase (its name or index);
        `rolled=True` moves past the roll phase (the dice of this turn are done)."""
        s, g = self._s, self.game
        s.turn_player = self.seat(seat)
        if turns is not None:
            s.turns = turns
        if phase is not None:
            names = [ph.name for ph in g.phases]
            if isinstance(phase, str):
                if phase not in names:
                    raise PositionError("position/unknown", f"no phase {phase!r}; the phases are {', '.join(names)}")
                phase = names.index(phase)
            if not isinstance(phase, int) or isinstance(phase, bool) or not 0 <= phase < len(names):
                raise PositionError("position/unknown", f"a phase is one of {', '.join(names)} or 0..{len(names) - 1}")
            s.phase = phase
        if rolled is not None and g.roll_phase >= 0:
            s.phase = min(g.roll_phase + 1, len(g.phases) - 1) if rolled else g.roll_phase
        s.changed()
        return self

    def reach_sites(self) -> Position:
        """Trade relations: each map site that a seat's route (path pieces joined to one of
        its buildings) reaches becomes its partner, as if the pieces had been placed in
        play; the rules' hooks on `site_reached` run. (`place(..., rules=True)` does this
        for each piece it places.)"""
        s = self._s
        for p in range(self.game.num_players):
            for k, owner in enumerate(s.path_owner):
                if owner == p:
                    sites.check_reached(s, p, k)
                    flow.advance(s)
        s.changed()
        return self

    def edit(self, **fields: Any) -> Position:
        """Set any state fields directly, as `serialize()` writes them (`state.FIELDS`:
        e.g. `last_roll=8`, `island_tags=[[0, "home", 2]]`); `state()` checks the result."""
        from catandsl.engine.state import FIELDS, records

        for name in sorted(fields):
            if name not in FIELDS:
                raise PositionError("position/unknown", f"no state field {name!r}")
            setattr(self._s, name, records(self.game, name, fields[name]))
        self._s.changed()
        return self

    # ---- the result -----------------------------------------------------------------------

    def validate(self) -> None:
        """Raise StateError (with a `code`) if this is not a playable position."""
        self.state()

    def state(self) -> State:
        """The position as a playable State, checked like a serialized one (StateError
        otherwise); awards and cached routes recomputed."""
        return read_state(self.game, self._s.serialize())
