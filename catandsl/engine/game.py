"""Game: a compiled scenario bound to a player count, options and a seed.

Everything static is computed here once, from the Ruleset and the Board: piece costs
as resource vectors, the sites each piece may stand on (its `where` evaluated over the
board), the distance rule as neighbour lists, the card list, the hooks by event, the
set-up script, the turn's phases, the dice, and the sorted action table. Rule modules
keep their own lookups (`lookups(Cls)`: what a module derives once from a game and
reads in play, built on first use). States read these and hold only the changing data.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Iterable
from functools import lru_cache
from typing import Any, TypeVar

from catandsl.board import Board
from catandsl.board import geometry as geo
from catandsl.board.changes import changed_board
from catandsl.board.instantiate import Deal, deal
from catandsl.engine.flow import EndTurn, Pass, StartPlayer
from catandsl.engine.interpreter import Interpreter
from catandsl.engine.state import State
from catandsl.engine.validate import read_state
from catandsl.ir import configure, model
from catandsl.ir.ruleset import Ruleset
from catandsl.rules import costs, hexes, play
from catandsl.rules import dice as dice_rules
from catandsl.rules.base import ACTION_SOURCES, ACTIVITIES, Action, Activity, ArgumentError, EngineError, location
from catandsl.rules.play import CardInfo, HexChange, LookupsOf, MoveInfo, PhaseInfo, PieceInfo
from catandsl.rules.registry import EVENTS, bits, reads, writes
from catandsl.rules.roll_cards import CardSource
from catandsl.rules.sites import SiteInfo, SiteLookups

SITE_KINDS = ("intersection", "path", "hex")
NO_LIMIT = 10**6
T = TypeVar("T")


class _Lookups(dict):
    """The rule modules' lookups of one game by class, each built on first use from the
    board as dealt (a game on a changed board shares its base game's)."""

    def __init__(self, game: Game):
        super().__init__()
        self.game = game

    def __missing__(self, cls: type) -> Any:
        t = self[cls] = cls.build(self.game.base)  # type: ignore[attr-defined]
        return t


def marked(board: Board, mark: model.Mark) -> list[list[Any]]:
    """A map's mark as the list of its places, as rules see sites: ["h", id], ["i", id],
    ["p", id] (the compiler checked that each lies on the map)."""
    out: list[list[Any]] = []
    for q, r, part in mark.places:
        if not part:
            k, code = board.hex_index.get((q, r), -1), "h"
        elif part in geo.OWN_CORNERS or part == geo.CENTRE:
            k, code = board.intersection_index.get(geo.corner((q, r), part), -1), "i"
        else:
            k, code = board.path_index.get(geo.canonical_edge(q, r, part), -1), "p"
        if k >= 0:
            out.append([code, k])
    return out


def _names_frame(where: model.Expr | None) -> bool:
    """Whether a piece's `where` calls the query `frame`: then the frame's sites are
    judged by it too, rather than left out."""
    todo = [where] if where is not None else []
    while todo:
        x = todo.pop()
        if x.op == "call" and x.value == "frame":
            return True
        todo.extend(x.args)
    return False


def _most_first(activities: Iterable[tuple[Activity, frozenset[str] | None]],
                most: dict[str, int]) -> tuple[tuple[Activity, frozenset[str] | None], ...]:
    """A phase's (activity, names) pairs, the activity of the most actions first (by name
    among equals)."""
    return tuple(sorted(activities, key=lambda an: (-most[an[0].name], an[0].name)))


class Game(play.Game):
    """A scenario configured for a player count and options, on the board dealt for a seed: what
    every state of one play shares."""

    def __init__(self, scenario: model.Scenario, players: int, options: dict | None = None,
                 seed: int = 0, *, ruleset: Ruleset | None = None, dealt: Deal | None = None):
        """(`ruleset` and `dealt`: the scenario as configured for these players and options,
        and its map as dealt for this seed, when the caller has them already.)"""
        self.scenario = scenario
        self.kept = scenario.kept
        self.seed = int(seed)
        self.ruleset = rs = configure(scenario, players, options) if ruleset is None else ruleset
        self._dealt: Deal = deal(rs, self.seed) if dealt is None else dealt
        self.board: Board = Board(**self._dealt._asdict())
        self.num_players = players
        # seats past the players own pieces and take no turns (`neutral_seats 2`)
        self.num_neutral = int(rs.setting("neutral_seats", 0) or 0)
        self.num_seats = players + self.num_neutral
        self.resources: tuple[str, ...] = rs.resources
        self.res_index = {r: k for k, r in enumerate(self.resources)}
        self.victory = int(rs.setting("victory", 10) or 10)
        self.victory_any_turn = rs.setting("victory_check", "own_turn") == "any_turn"
        self.victories = rs.victories
        self.turn_limit = int(rs.setting("turn_limit", 1000) or 1000)
        self.bank_start = [int(rs.bank.get(r, 0)) for r in self.resources]
        self._lookups = _Lookups(self)
        # a rule module's lookups for this game (its `build(game)`, made once, from the
        # board as dealt): the dict's own __getitem__, so they are found without a call
        # in Python (docs/scale.md)
        self.lookups: LookupsOf = self._lookups.__getitem__
        self.interp = Interpreter(self, self._names())
        # a board whose hexes may change (rules/hexes.py): this game is the board as
        # dealt, `with_hexes` the game on a changed board, made once per set of changes
        self.changeable = hexes.changeable(rs)
        self.base = self
        self._variants: dict[tuple, Game] = {}
        self._terrain_tables()

        supplies = self.lookups(SiteLookups)
        self.token_names = supplies.token_names
        self.token_index = supplies.token_index
        self.token_reserve = supplies.token_reserve
        self.sites: tuple[SiteInfo, ...] = supplies.sites
        self.custom_actions = tuple(rs.actions.values())
        self.counter_names = tuple(rs.counters)
        self.counter_index = {c: k for k, c in enumerate(self.counter_names)}
        # counters that go back to 0 when a turn begins
        self.turn_counters = tuple(k for k, c in enumerate(rs.counters.values()) if c.per_turn)
        # counters with one value for the whole game (rules/counters.py)
        self.counter_shared = tuple(c.shared for c in rs.counters.values())
        self._build_pieces()
        self._build_cards()
        self._build_hooks()
        self._build_setup()
        self._build_turn()
        self.awards = list(rs.awards.values())
        # the parts of the game each award's measure reads (see rules/registry.py)
        # (as bits of registry.PART_BITS, like everything the engine tracks of what is written)
        self.award_reads = tuple(bits(_reads(a.measure)) for a in self.awards)
        self.award_parts = 0
        for b in self.award_reads:
            self.award_parts |= b
        # what victory reads besides whose turn it is: points (and so the awards), each
        # `victory ... where` condition; an action that writes none of it, in the turn of
        # the player last found short of victory, wins nobody
        self.victory_parts = bits(reads("points")) | self.award_parts
        for v in self.victories:
            self.victory_parts |= bits(_reads(v.condition))
        self._build_action_table()
        self._order_turn_offers()
        # where the roll comes from: the dice, or a deck of roll cards (`roll_cards`)
        self.roll_source: dice_rules.DiceSource | CardSource = (
            CardSource(self) if rs.roll_cards is not None else dice_rules.DiceSource(self))
        # every applied action counts; a game that reaches this ends ("action_limit")
        self.max_actions = int(rs.setting("action_limit", 0) or 0) or \
            self.turn_limit * 200 + 10 * len(self.setup_script) + 100

    def reseeded(self, seed: int, dealt: Deal) -> Game:
        """This game with another seed whose deal lays the same board: its copy, with its
        own seed, board record and changed boards; the rest (tables, compiled rules,
        pieces, actions) shared, as no game changes them."""
        g = copy.copy(self)
        g.seed = int(seed)
        g._dealt = dealt
        g.board = copy.copy(self.board)
        g.board.seed = g.seed
        g.base = g
        g._variants = {}
        return g

    def _terrain_tables(self) -> None:
        """What production reads per hex: the resource it produces (-1 for none) and
        whether its owner picks one (B.6: gold)."""
        rs = self.ruleset
        terrain_resource, terrain_choice = [], []
        for name in self.board.terrain_names:
            t = rs.terrains[name]
            terrain_choice.append(bool(t.choice))
            terrain_resource.append(self.res_index[t.produces] if t.produces and not t.choice else -1)
        self.hex_resource = tuple(terrain_resource[t] for t in self.board.hex_terrain)
        self.hex_choice = tuple(terrain_choice[t] for t in self.board.hex_terrain)

    MAX_VARIANTS = 512  # changed boards kept per game; past this the cache starts again

    def with_hexes(self, changes: list[HexChange]) -> Game:
        """This game on the board as dealt with `changes` (in the order the hexes first
        changed): the same game (actions, pieces, rules) whose
        board, production tables and pieces' sites follow the changed hexes. Made once
        per set of changes and kept, so the hot loop reads flat tables as ever."""
        base = self.base
        key = tuple(changes)
        if not key:
            return base
        v = base._variants.get(key)
        if v is None:
            if len(base._variants) >= self.MAX_VARIANTS:
                base._variants.clear()
            b = base.board
            board = changed_board(base._dealt, tuple((b.hexes[h], b.terrain_names[t], n) for h, t, n in key))
            v = copy.copy(base)
            v.board = board
            v._terrain_tables()
            v.interp = Interpreter(v, v._names())
            v.pieces = []
            for info, ir in zip(base.pieces, base.ruleset.pieces.values()):
                p = copy.copy(info)
                p.allowed = v._where(ir, info.sites)
                p.allowed_set = frozenset(p.allowed)
                v.pieces.append(p)
            base._variants[key] = v
        return v

    def _where(self, p: model.Piece, sites: tuple[int, ...]) -> tuple[int, ...]:
        """The sites where a piece's `where` holds, over this game's board."""
        if p.where is None:
            return sites
        holds = self.interp.on_board(p.where, p.source)
        return tuple(k for k in sites if holds({"at": location(p.site, k)}))

    def _names(self) -> dict[str, Any]:
        """Declared names a rule may refer to, each standing for its name; an island
        name stands for the list of island numbers it names."""
        rs = self.ruleset
        out: dict[str, Any] = {n: list(ids) for n, ids in self.board.island_names.items()}
        for group in (rs.resources, rs.terrains, rs.pieces, rs.awards, rs.decks, rs.tokens,
                      rs.counters, rs.sites, rs.actions, rs.projects, rs.measures):
            for n in group:
                out[n] = n
        for rc in rs.roll_cards.cards if rs.roll_cards is not None else ():
            if rc.event:
                out[rc.event] = rc.event
        for d in rs.decks.values():
            for c in d.cards:
                out[c.name] = c.name
        for n in self.board.area_hexes:
            out[n] = n
        for mark in rs.map.marks if rs.map is not None else ():
            out[mark.name] = marked(self.board, mark)
        for n in rs.dice.names if rs.dice is not None else ():
            out[n] = n
        return out

    def cost_vector(self, amounts: Iterable[model.Amount]) -> tuple[int, ...]:
        v = [0] * len(self.resources)
        for a in amounts:
            v[self.res_index[a.name]] += a.count
        return tuple(v)

    # ---- static tables ------------------------------------------------------------

    def _build_pieces(self) -> None:
        b = self.board
        # The frame is the edge of the world (B.10): its positions count as sea beside the
        # map, but no piece stands on a frame position, or on a path or intersection that
        # touches nothing but frame positions, unless its `where` names the frame (B.5:
        # the pirate on frame sea "where the scenario allows": `where water(at) or
        # frame(at)`); the query `frame(at)` says which sites those are.
        frame = [b.tiles[h].frame_piece is not None for h in b.hexes]
        inside = {
            "hex": tuple(h for h in range(len(b.hexes)) if not frame[h]),
            "path": tuple(k for k, hs in enumerate(b.path_hexes) if not all(frame[h] for h in hs)),
            "intersection": tuple(c for c, hs in enumerate(b.corner_hexes)
                                  if not all(frame[h] for h in hs)),
        }
        everywhere = {"hex": tuple(range(len(b.hexes))), "path": tuple(range(len(b.paths))),
                      "intersection": tuple(range(len(b.intersections)))}
        no_build = self.lookups(SiteLookups).no_build_corners
        self.pieces: list[PieceInfo] = []
        for k, p in enumerate(self.ruleset.pieces.values()):
            info = PieceInfo()
            info.index, info.name, info.site, info.source = k, p.name, p.site, p.source
            if p.site not in SITE_KINDS:
                raise EngineError(f"piece {p.name!r} stands on {p.site!r}", p.source)
            if p.neutral and p.site == "intersection":
                raise EngineError(f"neutral piece {p.name!r} on an intersection: neutral "
                                  f"pieces stand on hexes or paths", p.source)
            info.cost = self.cost_vector(p.cost)
            info.varying = costs.varying(self, p.varying_cost)
            info.limit = p.limit if p.limit is not None else NO_LIMIT
            info.points, info.produces, info.distance = p.points, p.produces, p.distance
            info.neutral, info.blocks = p.neutral, p.blocks
            info.movable_by, info.moves_to, info.takes = p.movable_by, p.moves_to, tuple(p.takes)
            info.placed_where = p.placed_where
            info.route_length = p.route_length
            info.count = p.count if p.neutral else 1
            sites = everywhere[p.site] if _names_frame(p.where) else inside[p.site]
            if p.site == "intersection" and not p.neutral and no_build:
                # a site whose kind has `no building`: nobody ever builds there
                sites = tuple(k for k in sites if k not in no_build)
            if p.site == "intersection" and not p.neutral:
                # a hub hex's centre point: nobody ever builds there either
                sites = tuple(k for k in sites if b.corner_hub[k] < 0)
            allowed = self._where(p, sites)
            info.allowed, info.allowed_set = allowed, frozenset(allowed)
            info.sites = sites if self.changeable else allowed
            self.pieces.append(info)
        self.piece_index = {p.name: p.index for p in self.pieces}
        index = self.piece_index
        movers = []
        for info, ir in zip(self.pieces, self.ruleset.pieces.values()):
            info.connects = tuple(index[c] for c in ir.connects)
            info.steals_from = tuple(index[c] for c in ir.steals_from)
            info.upgrades = index[ir.upgrades] if ir.upgrades else -1
            info.upgrades_from = frozenset(index[n] for n in ((ir.upgrades,) if ir.upgrades else ())
                                           + tuple(ir.upgrades_or))
            info.blockers = tuple(n.index for n in self.pieces if n.neutral and info.name in n.blocks)
            info.movement = None
            info.travel = ir.travel if not info.neutral and info.site == "path" else None
            if ir.movement is not None and not info.neutral and info.site == "path":
                info.movement = MoveInfo.of(ir.movement, index)
                movers.append(info.index)
        self.movers = tuple(movers)
        self.travellers = tuple(p.index for p in self.pieces if p.travel is not None)
        self.neutral = [p.index for p in self.pieces if p.neutral]
        self.own_pieces = tuple(p.index for p in self.pieces if not p.neutral)  # the players' kinds
        self.piece_produces = tuple(p.produces for p in self.pieces)  # what each kind yields a hex
        self.blocking = tuple(p.index for p in self.pieces if "production" in p.blocks and p.site == "hex")
        # intersections within distance-1 steps, for each distance in use
        self.within: dict[int, tuple[tuple[int, ...], ...]] = {
            d: _within(b.corner_neighbours, d) for d in sorted({p.distance for p in self.pieces if p.distance > 1})}
        self.starts = [b.starts.get(self.pieces[k].name, -1) for k in self.neutral]
        self._build_neutral_slots()
        self._build_seat_starts()

    def _build_seat_starts(self) -> None:
        """The seats' own pieces placed before the set-up (`start settlement of neutral 1
        at (0, -2) N`): [(seat, piece kind, site id)], checked where they may stand."""
        b = self.board
        out: list[tuple[int, int, int]] = []
        for st in (self.ruleset.map.starts if self.ruleset.map is not None else ()):
            if st.seat is None:
                continue
            count = self.num_players if st.seat == "player" else self.num_neutral
            if st.seat_number > count:
                raise EngineError(f"`start {st.key()}`: this game has {count} {st.seat} seat(s)", st.source)
            seat = st.seat_number - 1 + (self.num_players if st.seat == "neutral" else 0)
            pi = self.piece_index[st.piece]
            P = self.pieces[pi]
            assert st.q is not None and st.r is not None
            try:
                k = (b.intersection_id(st.q, st.r, st.corner) if st.corner is not None else
                     b.path_id(st.q, st.r, st.paths[0].side) if st.paths else -1)
            except (KeyError, ValueError):
                k = -1
            want = "intersection" if st.corner is not None else "path"
            if P.neutral or P.travel is not None or P.site != want or k not in P.allowed_set:
                raise EngineError(f"`start {st.key()}`: a {st.piece} cannot stand on that {want}", st.source)
            if any(k == k2 and self.pieces[p2].site == want for _, p2, k2 in out):
                raise EngineError(f"`start {st.key()}`: another piece starts there", st.source)
            out.append((seat, pi, k))
        self.seat_starts: tuple[tuple[int, int, int], ...] = tuple(out)

    def _build_neutral_slots(self) -> None:
        """Where each neutral piece's site is kept in `State.neutral_at`: the first piece
        of kind k at index k (so a kind of one piece reads `neutral_at[k]`), the further
        pieces of kinds with a `count` after the piece kinds, kind by kind. And where they
        start: the map's start, in site order (-1, off the board, first)."""
        K = len(self.pieces)
        slots: list[tuple[int, ...]] = []
        extra = K
        for p in self.pieces:
            if not p.neutral:
                slots.append(())
                continue
            slots.append((p.index,) + tuple(range(extra, extra + p.count - 1)))
            extra += p.count - 1
        self.neutral_slots: tuple[tuple[int, ...], ...] = tuple(slots)
        self.neutral_kind = tuple(k for k in range(K)) + tuple(
            k for k, ss in enumerate(slots) for _ in ss[1:])  # slot -> its piece kind
        start = [-1] * extra
        b = self.board
        for pi in self.neutral:
            P = self.pieces[pi]
            sites = b.start_sites.get(P.name)
            if sites is None:  # a board made without start_sites: the hex start alone
                at = b.starts.get(P.name, -1)
                sites = (at,) if at >= 0 else ()
            if len(sites) > P.count:
                raise EngineError(f"the {P.name} has {P.count} piece(s) and {len(sites)} starts", P.source)
            if P.site == "path":
                for k in sites:
                    if k not in P.allowed_set:
                        raise EngineError(f"the {P.name} starts on the path {self.location_name('path', k)}, "
                                          f"where it may not stand", P.source)
            for slot, k in zip(self.neutral_slots[pi], sorted([-1] * (P.count - len(sites)) + list(sites))):
                start[slot] = k
        self.neutral_start: tuple[int, ...] = tuple(start)

    def _build_cards(self) -> None:
        self.decks: list[model.Deck] = list(self.ruleset.decks.values())
        self.deck_index = {d.name: k for k, d in enumerate(self.decks)}
        self.deck_cost = [self.cost_vector(d.cost) for d in self.decks]
        played = {str(f) for rule in self.ruleset.rules for h in rule.hooks
                  if h.event == "card_played" for f in h.filters}
        self.cards: list[CardInfo] = []
        for dk, d in enumerate(self.decks):
            for c in d.cards:
                self.cards.append(CardInfo(len(self.cards), dk, c.name, c.count, c.points, c.hidden,
                                           c.name in played, c.playable_if, c.source))
        self.card_index: dict[str, int] = {c.name: c.index for c in self.cards}

    def _build_hooks(self) -> None:
        """Hooks by event, in declaration order; every statement gets an id (the prompts
        on a state refer to statements by id)."""
        self.effects: list[model.Effect] = []
        self.effect_body: list[tuple[int, ...]] = []
        self.effect_orelse: list[tuple[int, ...]] = []
        self.effect_step: dict[int, int] = {}  # a `for` statement's id -> its step's
        self.hooks: dict[str, list[tuple[model.Hook, tuple[int, ...]]]] = {}

        for rule in self.ruleset.rules:
            for h in rule.hooks:
                if h.event not in EVENTS:
                    raise EngineError(f"unknown event {h.event!r}", h.source)
                self.hooks.setdefault(h.event, []).append((h, self._register(h.effects)))
        # what a statement writes (awards read again after it): its call's primitive's writes
        self.effect_writes = tuple(bits(writes(str(e.expr.value))) if e.op == "call" and e.expr is not None
                                   else 0 for e in self.effects)

    def _register(self, effects: Iterable[model.Effect]) -> tuple[int, ...]:
        """Give each statement of a block, and of the blocks in it, its id; the block's ids."""
        ids = []
        for e in effects:
            k = len(self.effects)
            self.effects.append(e)
            self.effect_body.append(())
            self.effect_orelse.append(())
            self.effect_body[k] = self._register(e.body)
            self.effect_orelse[k] = self._register(e.orelse)
            if e.op == "for":
                # its step: binds the next item and runs the body again, in the same
                # block, so a `var` the body changes keeps its value (engine/flow.py)
                step = len(self.effects)
                self.effects.append(model.Effect("next", name=e.name, source=e.source))
                self.effect_body.append(self.effect_body[k])
                self.effect_orelse.append(())
                self.effect_step[k] = step
            ids.append(k)
        return tuple(ids)

    def _build_setup(self) -> None:
        """The set-up as a script of (player, round, step) in play order."""
        n = self.num_players
        self.setup_script: list[tuple[int, int, int]] = []
        setup = self.ruleset.setup
        last = 0
        for ri, rnd in enumerate(setup.rounds if setup else ()):
            if rnd.order == "backward":
                order = [(last - k) % n for k in range(n)]
            elif rnd.from_last and self.setup_script:
                order = [(last + k) % n for k in range(n)]
            else:
                order = list(range(n))
            for p in order:
                for si in range(len(rnd.steps)):
                    self.setup_script.append((p, ri, si))
            last = order[-1]
        self.setup_steps = [list(rnd.steps) for rnd in (setup.rounds if setup else ())]

    def _build_turn(self) -> None:
        """The declared phases (engine/flow.py says how a turn walks them) and the dice."""
        rs = self.ruleset
        if rs.turn is None or not rs.turn.phases:
            raise EngineError("the ruleset declares no turn: write `turn { phase roll { roll } ... }`")
        phases: list[PhaseInfo] = []
        # a phase between turns: what each other player may do once a turn has ended
        self.between_turns: tuple[tuple[Activity, frozenset[str] | None], ...] = ()
        between_rolls: PhaseInfo | None = None
        for declared in rs.turn.phases:
            allows: dict[str, frozenset[str] | None] = {}
            for a in declared.allows:
                if a.activity not in ACTIVITIES:
                    raise EngineError(f"phase {declared.name!r} allows {a.activity!r}, which no rule "
                                      "module provides", declared.source)
                before = allows.get(a.activity, frozenset())
                names = frozenset(a.names) if a.names else None
                allows[a.activity] = None if before is None or names is None else before | names
            if declared.between_turns:
                self.between_turns = tuple((ACTIVITIES[a], allows[a]) for a in sorted(allows))
                continue
            if declared.between_rolls:  # (it ends with the dice, like the roll phase)
                between_rolls = PhaseInfo(declared.name, True, allows)
                continue
            phases.append(PhaseInfo(declared.name, "roll" in allows, allows))
        rolls = [k for k, ph in enumerate(phases) if ph.rolls]
        if len(rolls) > 1:
            raise EngineError("a turn has one phase that allows `roll`", rs.turn.source)
        self.roll_phase = rolls[0] if rolls else -1
        if self.roll_phase == len(phases) - 1:
            phases.append(PhaseInfo("after the roll", False, {}))  # where the turn ends
        # `phase NAME between rolls`: where the turn waits between two rolls of the dice
        # (last of the phases, outside their sequence: its span is itself); -1: the next
        # roll follows at once
        self.between_rolls = -1
        if between_rolls is not None and self.roll_phase >= 0:
            self.between_rolls = len(phases)
            phases.append(between_rolls)
        self.phases: tuple[PhaseInfo, ...] = tuple(phases)
        # what the player may do from each phase: its activities and those of the phases
        # after it, up to the next roll phase (phases go forward, never past the dice)
        self.spans: list[tuple[int, ...]] = []
        self.reachable: list[tuple[tuple[Activity, frozenset[str] | None], ...]] = []
        for k, ph in enumerate(phases):
            span = [k]
            if not ph.rolls:
                for j in range(k + 1, len(phases)):
                    if phases[j].rolls:
                        break
                    span.append(j)
            merged: dict[str, frozenset[str] | None] = {}
            for j in span:
                for name, names in phases[j].allows.items():
                    if name == "roll":
                        continue
                    before = merged.get(name, frozenset())
                    merged[name] = None if before is None or names is None else before | names
            self.spans.append(tuple(span))
            self.reachable.append(tuple((ACTIVITIES[a], merged[a]) for a in sorted(merged)))  # (ordered later)
        d = rs.dice
        count, sides, reroll = (d.count, d.sides, d.reroll) if d is not None else (2, 6, ())
        self.rerolled = frozenset(reroll)  # a roll card of such a total: its event, then another card
        self.dice_totals = tuple(dice_rules.totals(count, sides, reroll))
        # named dice (`named red, white`): the roll is each die's face, over every kept throw
        self.dice_names: tuple[str, ...] = d.names if d is not None else ()
        self.dice_faces = tuple(dice_rules.kept_faces(count, sides, reroll)) if self.dice_names else ()
        # `rolls 2 distinct`: rolls a turn, and whether a later total must differ
        self.dice_rolls, self.dice_distinct = (d.rolls, d.distinct) if d is not None else (1, False)

    def _build_action_table(self) -> None:
        acts: set[Action] = {EndTurn()}
        if self.between_turns or any(step.optional for steps in self.setup_steps for step in steps):
            acts.add(Pass())
        acts.update(StartPlayer(p) for p in range(self.num_players))
        for source in ACTION_SOURCES:
            acts.update(source(self))
        b = self.board
        sizes = [len(b.intersections) if p.site == "intersection" else len(b.paths) if p.site == "path"
                 else len(b.hexes) for p in self.pieces]
        # the games of one scenario and player count offer the same actions as a rule, and
        # numbering them is much of a game's set-up: the scenario keeps the tables made
        key = (frozenset(acts), tuple(p.name for p in self.pieces), tuple(sizes))
        kept = self.scenario.kept.action_tables
        table = kept.get(key)
        if table is None:
            table = _action_table(acts, self.piece_index, sizes)
            if len(acts) <= MAX_KEPT_ACTIONS:  # (a huge board's table is not worth the memory)
                if len(kept) >= MAX_ACTION_TABLES:
                    kept.clear()
                kept[key] = table
        self.actions: tuple[Action, ...]
        self.action_id: dict[Action, int]  # (shared with other games: never edit these)
        self.actions, self.action_id, self.action_writes, self.build_id = table
        # which activity owns each action kind a phase may offer
        self.activity_of: dict[type[Action], Activity] = {
            kind: a for a in ACTIVITIES.values() for kind in a.applies}
        self.end_turn_id = self.action_id[EndTurn()]
        self.pass_id = self.action_id.get(Pass(), -1)
        self.roll_dice_id = self.action_id[dice_rules.RollDice()]

    def _order_turn_offers(self) -> None:
        """What a turn's legal list is made of, in action ids (so after the action table):
        per phase, what it offers besides its activities (Game.turn_last): the dice in a
        roll phase (asked for only when there is something else to do) and in a phase
        before one (done before the dice: ask for them), else the end of the turn; and
        each phase's activities joined with the one of the most actions first (as a rule
        the longest list, most of it one ascending run), so that the sort has least to
        do. The order changes nothing else."""
        self.turn_last = tuple(self.roll_dice_id if ph.rolls or self.roll_phase > k else self.end_turn_id
                               for k, ph in enumerate(self.phases))
        owned = Counter(type(x) for x in self.actions)
        most = {a.name: sum(owned[k] for k in a.applies) for a in ACTIVITIES.values()}
        self.reachable = [_most_first(r, most) for r in self.reachable]

    def phase_for(self, phase: int, act: Action) -> int:
        """The phase an action moves the turn to: the first from `phase` on (within its
        span) that allows the action's activity, for the action's piece, deck or trade."""
        span = self.spans[phase]
        if len(span) == 1:
            return phase  # (a phase alone before the next roll: the turn stays there)
        a = self.activity_of[type(act)]
        subject = a.subject(self, act) if a.subject is not None else None
        for j in span:
            allows = self.phases[j].allows
            if a.name in allows:
                names = allows[a.name]
                if names is None or subject in names:
                    return j
        return phase

    # ---- the OpenSpiel-style API ------------------------------------------------------

    def num_distinct_actions(self) -> int:
        return len(self.actions)

    def max_game_length(self) -> int:
        """Every game ends within this many applied actions (chance outcomes included)."""
        return self.max_actions

    def new_initial_state(self) -> State:
        return State.initial(self)

    def deserialize_state(self, text: str) -> State:
        """A state from `State.serialize()`, checked before play (StateError otherwise)."""
        return read_state(self, text)

    # The public calls below declare what they take as `object` and check it themselves
    # (ArgumentError): a compiled build refuses a mismatch of a declared type with a
    # TypeError before the call's own check runs.

    def action(self, action_id: object) -> Action:
        return self.actions[self.check_action_id(action_id)]

    def action_id_of(self, action: object) -> int:
        aid = self.action_id.get(action, -1) if isinstance(action, Action) else -1
        if aid < 0:
            raise ArgumentError(f"no action {action!r} in this game")
        return aid

    def check_action_id(self, action_id: object) -> int:
        if not isinstance(action_id, int) or isinstance(action_id, bool) or \
                not 0 <= action_id < len(self.actions):
            raise ArgumentError(f"an action id is 0..{len(self.actions) - 1}, not {action_id!r}")
        return action_id

    def check_seat(self, player: object, what: str) -> int:
        if not isinstance(player, int) or isinstance(player, bool) or not 0 <= player < self.num_players:
            raise ArgumentError(f"{what}: a player is a seat 0..{self.num_players - 1}, not {player!r}")
        return player

    def action_to_string(self, action_id: object) -> str:
        a = self.actions[self.check_action_id(action_id)]
        describe = getattr(a, "describe", None)  # an action that words itself (a roll card)
        if describe is not None:
            return str(describe(self))
        where = self.action_site(a)
        if where is not None:
            kind, at = where
            piece = getattr(a, "piece", None)
            if not isinstance(piece, str) or piece not in self.piece_index:
                return f"{a.KIND} at {self.location_name(kind, at)}"
            src = getattr(a, "src", -1)  # a Move that says which piece it lifts
            lifts = f" from {self.location_name(kind, src)}" if isinstance(src, int) and src >= 0 else ""
            return f"{a.KIND} {piece}{lifts} at {self.location_name(kind, at)}"
        parts = [str(v) for k, v in a.to_json().items() if k != "kind"]
        return " ".join([a.KIND] + parts)

    def action_site(self, a: object) -> tuple[str, int] | None:
        """The board site an action (an Action of this game, or its id) names (`at`):
        the site kind of its piece, or its class's `SITE`; None for an action that names
        no site. ArgumentError for anything that is not an action of this game."""
        a = self.actions[self.action_id_of(a) if isinstance(a, Action) else self.check_action_id(a)]
        at = getattr(a, "at", None)
        if not isinstance(at, int):
            return None
        piece = getattr(a, "piece", None)
        if isinstance(piece, str) and piece in self.piece_index:
            return self.pieces[self.piece_index[piece]].site, at
        return (a.SITE, at) if a.SITE is not None else None

    def location_name(self, kind: str, at: int) -> str:
        """`(q,r) N` for an intersection, `(q,r) NE` for a path, `(q,r)` for a hex."""
        b = self.board
        if kind == "intersection":
            q, r, c = b.intersections[at]
        elif kind == "path":
            q, r, c = b.paths[at]
        else:
            (q, r), c = b.hexes[at], ""
        return f"({q},{r}){' ' + c if c else ''}"

    def __repr__(self) -> str:
        return (f"<Game {self.ruleset.scenario} players={self.num_players} seed={self.seed} "
                f"actions={len(self.actions)}>")


def new_game(scenario: object, players: object = None, options: object = None, seed: object = 0) -> Game:
    """A Game of a compiled scenario (`catandsl.new_game` also takes a path).

    The games of one scenario, player count and options differ only by their seed, and
    the seed only in how the map is dealt: a game whose map is dealt as an earlier one's
    was (a fixed map, as a rule) is that game's copy with its own seed, its tables and
    compiled rules shared (`Templates`, kept by the scenario: `model.Kept`), not built again.

    The arguments are declared `object` and checked here (ArgumentError): a compiled
    build would refuse a declared type's mismatch with a TypeError before any check."""
    sc, n, opts, seed_n = check_arguments("new_game", scenario, players, options, seed)
    key = (n, tuple(sorted(opts.items())) if opts else ())
    kept = sc.kept.templates
    templates = kept.get(key)
    if templates is None:
        if len(kept) >= MAX_TEMPLATE_KEYS:
            kept.clear()
        templates = kept[key] = Templates(sc, n, opts)
    return templates.game(seed_n)


def check_arguments(what: str, scenario: object, players: object, options: object,
                    seed: object) -> tuple[model.Scenario, int, dict[str, str] | None, int]:
    """The arguments of a call for a game or board of `scenario`, checked: the scenario,
    the player count it means (None: the most the scenario allows; 0 is no count,
    refused by the scenario like any other it does not offer), the options and the
    seed; ArgumentError for an argument of the wrong type."""
    if not isinstance(scenario, model.Scenario):
        raise ArgumentError(f"{what} needs a compiled Scenario, not {type(scenario).__name__} "
                            f"(catandsl.{what} also takes a path to a .catan file)")
    if players is not None and (not isinstance(players, int) or isinstance(players, bool)):
        raise ArgumentError(f"players is a number, not {players!r}")
    if options is not None and not (isinstance(options, dict) and all(
            isinstance(k, str) and isinstance(v, str) for k, v in options.items())):
        raise ArgumentError(f"options map option names to item names (strings), not {options!r}")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ArgumentError(f"a seed is an integer, not {seed!r}")
    return scenario, scenario.players_max if players is None else players, options, seed


class Templates:
    """The games of one scenario, player count and options made so far, as templates for
    the next ones (kept by the scenario, `model.Kept`): the ruleset as configured and
    the last few games with distinct deals. A new game deals its map (cheap) and, when a
    template's deal is the same but for the seed, is that template's copy
    (`Game.reseeded`); else it is made from the ruleset and the deal, and becomes a
    template itself. Nothing here is ever handed out to be changed: a copy gets its own
    seed, board record and hex variants, and shares only what no game changes (tables,
    compiled rules, action table)."""

    MAX_DEALS = 4  # distinct deals kept (a shuffled map rarely repeats one)

    def __init__(self, scenario: model.Scenario, players: int, options: dict | None) -> None:
        self.scenario = scenario
        self.players = players
        self.options = options
        self.ruleset: Ruleset | None = None  # the scenario as configured, from the first game
        self.games: list[Game] = []

    def game(self, seed: int) -> Game:
        games = self.games
        if self.ruleset is None:
            game = Game(self.scenario, self.players, self.options, seed)
            self.ruleset = game.ruleset
        else:
            dealt = deal(self.ruleset, seed)
            for template in games:
                if template._dealt.fixed(dealt):
                    return template.reseeded(seed, dealt)
            game = Game(self.scenario, self.players, self.options, seed, ruleset=self.ruleset, dealt=dealt)
        if not _worth_keeping(game):
            return game
        if len(games) >= self.MAX_DEALS:
            del games[0]
        games.append(game)
        return game.reseeded(seed, game._dealt)  # (the template itself is never handed out)


def _worth_keeping(game: Game) -> bool:
    """A huge board's game is not kept as a template (like its action table: the memory
    is more than making it again costs)."""
    return len(game.actions) <= MAX_KEPT_ACTIONS


MAX_TEMPLATE_KEYS = 32  # player counts and options a scenario keeps templates for
# action tables a scenario keeps, by what they are made of (the actions, the pieces,
# the sizes of the sites they stand on)
MAX_ACTION_TABLES = 32
MAX_KEPT_ACTIONS = 20_000  # actions in a table worth keeping


def _action_table(acts: set[Action], piece_index: dict[str, int], sizes: list[int]) -> tuple:
    """(actions sorted by (kind, fields), their ids, what each writes (registry bits), per
    piece kind the id of putting it on each site or -1)."""
    ordered = tuple(sorted(acts, key=lambda a: a.key()))
    action_id = {a: k for k, a in enumerate(ordered)}
    by_kind = {kind: bits(kind.WRITES) for kind in {type(a) for a in ordered}}
    writes_ = tuple(by_kind[type(a)] for a in ordered)
    build_id = [[-1] * n for n in sizes]
    for a, k in action_id.items():
        # a piece on a site: Build, or Move (neutral; the Move that names no piece it
        # lifts, see rules/neutral.py)
        if type(a).KIND == "build" or (type(a).KIND == "move" and a.src < 0):  # type: ignore[attr-defined]
            build_id[piece_index[a.piece]][a.at] = k  # type: ignore[attr-defined]
    return ordered, action_id, writes_, tuple(tuple(row) for row in build_id)


@lru_cache(maxsize=64)  # the boards of a scenario share their shape (the same neighbour lists)
def _within(corner_neighbours: tuple[tuple[int, ...], ...], d: int) -> tuple[tuple[int, ...], ...]:
    """Per intersection, the others fewer than d steps away, ascending."""
    rows = []
    for c in range(len(corner_neighbours)):
        seen, frontier = {c}, [c]
        for _ in range(d - 1):
            frontier = [m for x in frontier for m in corner_neighbours[x] if m not in seen]
            seen.update(frontier)
        rows.append(tuple(sorted(seen - {c})))
    return tuple(rows)


def _reads(expr: model.Expr) -> frozenset[str]:
    """The parts of the game an expression reads: the union over the calls in it."""
    out: frozenset[str] = frozenset()
    stack = [expr]
    while stack:
        e = stack.pop()
        if e.op == "call":
            out |= reads(str(e.value))
        stack.extend(e.args)
    return out

