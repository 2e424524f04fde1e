"""Game: a compiled scenario bound to a player count, options and a seed.

Everything static is computed here once, from the Ruleset and the Board: piece costs
as resource vectors, the sites each piece may stand on (its `where` evaluated over the
board), the distance rule as neighbour lists, harbors, the card list, the hooks by
event, the set-up script, and the sorted action table. States read these tables and
hold only the changing data.
"""

from __future__ import annotations

import json
from itertools import combinations_with_replacement

from catandsl.board import instantiate
from catandsl.engine import actions as A
from catandsl.engine.errors import EngineError
from catandsl.engine.interpreter import Interpreter, site
from catandsl.engine.sites import site_info
from catandsl.ir import configure, model

SITE_KINDS = ("intersection", "path", "hex")


class PieceInfo:
    """One piece kind, as the engine reads it."""

    __slots__ = ("index", "name", "site", "cost", "limit", "points", "produces", "distance",
                 "connects", "upgrades", "neutral", "blocks", "steals_from", "allowed",
                 "allowed_set", "source", "movement", "blockers", "movable_by", "takes")


class CardInfo:
    __slots__ = ("index", "deck", "name", "count", "points", "army", "hidden", "playable")


class Game:
    def __init__(self, scenario: model.Scenario, players: int, options: dict | None = None,
                 seed: int = 0):
        self.scenario = scenario
        self.seed = int(seed)
        self.ruleset = rs = configure(scenario, players, options)
        self.board = b = instantiate(rs, self.seed)
        self.num_players = players
        self.resources: tuple[str, ...] = rs.resources
        self.res_index = {r: k for k, r in enumerate(self.resources)}
        self.victory = int(rs.setting("victory", 10))
        self.turn_limit = int(rs.setting("turn_limit", 1000))
        self.bank_start = [int(rs.bank.get(r, 0)) for r in self.resources]
        self.interp = Interpreter(self)

        # terrain -> produced resource index (-1 for none)
        self.terrain_resource = []
        terrain_choice = []  # B.6: the terrain produces a resource of the owner's choice
        for name in b.terrain_names:
            t = rs.terrains[name]
            terrain_choice.append(bool(t.choice))
            self.terrain_resource.append(
                self.res_index[t.produces] if t.produces and not t.choice else -1)
        self.hex_resource = tuple(self.terrain_resource[t] for t in b.hex_terrain)
        self.hex_choice = tuple(terrain_choice[t] for t in b.hex_terrain)

        site_info(self)  # tokens and map sites (sites.py), before the pieces' sites
        self._build_pieces()
        self._build_cards()
        self._build_trades()
        self._build_hooks()
        self._build_setup()
        self.awards = list(rs.awards.values())
        # the parts of the game each award's measure reads (see registry.TOUCHES)
        self.award_reads = tuple(_reads(a.measure) for a in self.awards)
        self.phases = tuple(rs.turn.phases) if rs.turn else ("roll", "main")
        for ph in self.phases:
            if ph not in ("roll", "main"):
                raise EngineError(f"turn phase {ph!r} is not supported by this engine yet",
                                  rs.turn.source if rs.turn else None)
        self._build_action_table()

    # ---- static tables ------------------------------------------------------------

    def _vector(self, amounts) -> tuple[int, ...]:
        v = [0] * len(self.resources)
        for a in amounts:
            v[self.res_index[a.name]] += a.count
        return tuple(v)

    def _build_pieces(self):
        b = self.board
        # The frame is the edge of the world (B.10): its positions count as sea beside the
        # map, but no piece stands on a frame position, or on a path or intersection that
        # touches nothing but frame positions.
        frame = [bool(b.graph.nodes[("hex", q, r)].get("frame")) for q, r in b.hexes]
        self._inside_frame = {
            "hex": tuple(h for h in range(len(b.hexes)) if not frame[h]),
            "path": tuple(k for k, hs in enumerate(b.path_hexes) if not all(frame[h] for h in hs)),
            "intersection": tuple(c for c, hs in enumerate(b.corner_hexes)
                                  if not all(frame[h] for h in hs)),
        }
        self.pieces: list[PieceInfo] = []
        for k, p in enumerate(self.ruleset.pieces.values()):
            info = PieceInfo()
            info.index, info.name, info.site, info.source = k, p.name, p.site, p.source
            if p.site not in SITE_KINDS:
                raise EngineError(f"piece {p.name!r} stands on {p.site!r}", p.source)
            if p.neutral and p.site != "hex":
                raise EngineError(f"neutral piece {p.name!r} on a {p.site}: only neutral "
                                  f"pieces on hexes move and rob", p.source)
            info.cost = self._vector(p.cost)
            info.limit = p.limit if p.limit is not None else 10**6
            info.points, info.produces, info.distance = p.points, p.produces, p.distance
            info.connects, info.upgrades, info.neutral = p.connects, p.upgrades, p.neutral
            info.blocks, info.steals_from = p.blocks, p.steals_from
            # who may move a neutral piece (a condition on `player`), and what a robbery
            # with it may take: "resource" and token names (empty: a resource card)
            info.movable_by = p.movable_by
            info.takes = tuple(p.takes)
            inside = self._inside_frame[p.site]
            if p.where is None:
                info.allowed = inside
            else:
                info.allowed = tuple(
                    k for k in inside
                    if self.interp.static_condition(p.where, {"at": site(p.site, k)}, p.source)
                )
            if p.site == "intersection" and not p.neutral and self.no_build_corners:
                # a site whose kind has `no building`: nobody ever builds there
                info.allowed = tuple(k for k in info.allowed if k not in self.no_build_corners)
            info.allowed_set = frozenset(info.allowed)
            self.pieces.append(info)
        self.piece_index = {p.name: p.index for p in self.pieces}
        for p in self.pieces:
            p.connects = tuple(self.piece_index[c] for c in p.connects)
            p.steals_from = tuple(self.piece_index[c] for c in p.steals_from)
            p.upgrades = self.piece_index[p.upgrades] if p.upgrades else -1
        self.neutral = [p.index for p in self.pieces if p.neutral]
        self._build_movement()
        self.blocking = tuple(p.index for p in self.pieces if "production" in p.blocks)
        # intersections within distance-1 steps, for each distance in use
        self.within: dict[int, tuple[tuple[int, ...], ...]] = {}
        for d in sorted({p.distance for p in self.pieces if p.distance > 1}):
            rows = []
            for c in range(len(b.intersections)):
                seen, frontier = {c}, [c]
                for _ in range(d - 1):
                    frontier = [m for x in frontier for m in b.corner_neighbours[x] if m not in seen]
                    seen.update(frontier)
                rows.append(tuple(sorted(seen - {c})))
            self.within[d] = tuple(rows)
        self.starts = [b.starts.get(self.pieces[k].name, -1) for k in self.neutral]

    def _build_movement(self):
        """Ships (B.2, B.4): which neutral pieces block placing each piece (`blocks`), and
        the pieces a player may move (`moves`), as (per_turn, open_end, not_built_this_turn,
        blocked_by piece indices, phase)."""
        from catandsl.engine.ships import movement_info

        movement_info(self)

    def _build_cards(self):
        self.decks = list(self.ruleset.decks.values())
        self.deck_index = {d.name: k for k, d in enumerate(self.decks)}
        self.cards: list[CardInfo] = []
        self.deck_cost = [self._vector(d.cost) for d in self.decks]
        for dk, d in enumerate(self.decks):
            for c in d.cards:
                info = CardInfo()
                info.index, info.deck, info.name, info.count = len(self.cards), dk, c.name, c.count
                info.points, info.army, info.hidden = c.points, c.army, c.hidden
                info.playable = False
                self.cards.append(info)
        self.card_index = {c.name: c.index for c in self.cards}

    def _build_trades(self):
        self.bank_rate = 0
        for t in self.ruleset.trades.values():
            if t.give > 0:
                rate = t.give // max(t.get, 1)
                self.bank_rate = rate if not self.bank_rate else min(self.bank_rate, rate)
        # harbor index -> (rate, resource index or -1 for any)
        self.harbor_rates = []
        for hb in self.board.harbors:
            res = self.res_index[hb.type.resource] if hb.type.resource else -1
            self.harbor_rates.append((hb.type.give // max(hb.type.get, 1), res))
        self.harbor_corners = tuple(
            (c, h) for c, h in enumerate(self.board.corner_harbor) if h >= 0
        )
        rs = self.ruleset
        # A.5: with `trade_build separate`, no trade once the turn's first build is made
        self.trade_after_build = rs.options.get("trade_build", "combined") != "separate"
        # A.8: domestic offers of 1..trade_offer_cards cards for 1..trade_offer_cards,
        # never the same resource on both sides
        self.bundles: list[tuple[str, tuple[int, ...]]] = []
        if "domestic" in rs.trades:
            most = int(rs.params.get("trade_offer_cards", 1))
            for size in range(1, most + 1):
                for combo in combinations_with_replacement(range(len(self.resources)), size):
                    v = [0] * len(self.resources)
                    for r in combo:
                        v[r] += 1
                    self.bundles.append(("+".join(self.resources[r] for r in combo), tuple(v)))
        self.bundle_vector = dict(self.bundles)

    def _build_hooks(self):
        """Hooks by event, in declaration order; every effect gets an id (plain data
        in the state's frames refers to effects by id)."""
        self.effects: list[model.Effect] = []
        self.effect_body: list[tuple[int, ...]] = []
        self.effect_orelse: list[tuple[int, ...]] = []
        self.hooks: dict[str, list[tuple[model.Hook, tuple[int, ...]]]] = {}

        def register(effects) -> tuple[int, ...]:
            ids = []
            for e in effects:
                k = len(self.effects)
                self.effects.append(e)
                self.effect_body.append(())
                self.effect_orelse.append(())
                self.effect_body[k] = register(e.body)
                self.effect_orelse[k] = register(e.orelse)
                ids.append(k)
            return tuple(ids)

        for rule in self.ruleset.rules:
            for h in rule.hooks:
                self.hooks.setdefault(h.event, []).append((h, register(h.effects)))
        played = {str(f) for h, _ in self.hooks.get("card_played", []) for f in h.filters}
        for c in self.cards:
            c.playable = c.army > 0 or c.name in played

    def _build_setup(self):
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
        self.setup_steps = [[s for s in rnd.steps] for rnd in (setup.rounds if setup else ())]

    def _build_action_table(self):
        b, R = self.board, self.resources
        acts: list[A.Action] = [A.RollDice(), A.EndTurn()]
        acts += [A.Roll(t) for t in range(2, 13)]
        for p in self.pieces:
            cls = A.Move if p.neutral else A.Build
            acts += [cls(p.name, k) for k in p.allowed]
        for pi in self.movers:
            p = self.pieces[pi]
            acts += [A.PickUp(p.name, k) for k in p.allowed]
            acts += [A.PutDown(p.name, k) for k in p.allowed]
        acts += [A.Steal(p) for p in range(self.num_players)]
        acts += [A.ChoosePlayer(p) for p in range(self.num_players)]
        for r in R:
            acts += [A.Stolen(r), A.Discard(r), A.ChooseResource(r)]
            acts += [A.BankTrade(r, g) for g in R if g != r]
        for d in self.decks:
            acts.append(A.BuyCard(d.name))
        for c in self.cards:
            acts.append(A.Draw(self.decks[c.deck].name, c.name))
            if c.playable:
                acts.append(A.PlayCard(c.name))
        takes = {w for p in self.pieces for w in p.takes if w in self.token_index}
        if takes:  # a robbery that may take a token: the mover says what (sites.py)
            acts += [A.Take(w) for w in sorted(takes | {"resource"})]
        acts += [A.StartPlayer(p) for p in range(self.num_players)]
        acts += [A.TradeWith(p) for p in range(self.num_players)]
        if self.bundles:
            acts += [A.Accept(), A.Decline(), A.CancelOffer()]
            for give, gv in self.bundles:
                for get, tv in self.bundles:
                    if not any(x and y for x, y in zip(gv, tv)):
                        acts.append(A.Offer(give, get))
        acts = sorted(set(acts), key=lambda a: a.key())
        self.actions: tuple[A.Action, ...] = tuple(acts)
        self.action_id: dict[A.Action, int] = {a: k for k, a in enumerate(acts)}
        ids = self.action_id
        # fast look-ups for the hot loop
        self.build_id = [[-1] * (len(b.intersections) if p.site == "intersection" else
                                 len(b.paths) if p.site == "path" else len(b.hexes))
                         for p in self.pieces]
        for p in self.pieces:
            cls = A.Move if p.neutral else A.Build
            for k in p.allowed:
                self.build_id[p.index][k] = ids[cls(p.name, k)]
        self.pick_up_id = {pi: {k: ids[A.PickUp(self.pieces[pi].name, k)]
                                for k in self.pieces[pi].allowed} for pi in self.movers}
        self.put_down_id = {pi: {k: ids[A.PutDown(self.pieces[pi].name, k)]
                                 for k in self.pieces[pi].allowed} for pi in self.movers}
        self.roll_id = [ids.get(A.Roll(t), -1) for t in range(13)]
        self.steal_id = [ids[A.Steal(p)] for p in range(self.num_players)]
        self.choose_player_id = [ids[A.ChoosePlayer(p)] for p in range(self.num_players)]
        self.stolen_id = [ids[A.Stolen(r)] for r in R]
        self.discard_id = [ids[A.Discard(r)] for r in R]
        self.choose_resource_id = [ids[A.ChooseResource(r)] for r in R]
        self.trade_id = [[ids.get(A.BankTrade(r, g), -1) for g in R] for r in R]
        self.buy_id = [ids[A.BuyCard(d.name)] for d in self.decks]
        self.draw_id = [ids[A.Draw(self.decks[c.deck].name, c.name)] for c in self.cards]
        self.play_id = [ids.get(A.PlayCard(c.name), -1) for c in self.cards]
        self.take_id = {a.what: k for k, a in enumerate(acts) if isinstance(a, A.Take)}
        self.end_turn_id = ids[A.EndTurn()]
        self.roll_dice_id = ids[A.RollDice()]
        self.start_id = [ids[A.StartPlayer(p)] for p in range(self.num_players)]
        self.trade_with_id = [ids[A.TradeWith(p)] for p in range(self.num_players)]
        self.accept_id = ids.get(A.Accept(), -1)
        self.decline_id = ids.get(A.Decline(), -1)
        self.cancel_offer_id = ids.get(A.CancelOffer(), -1)
        # offers by what they give (bundle vector, sorted ids); ids of offers are one
        # contiguous run of the table (`offer_ids` = range), which players may skip
        offer = [k for k, a in enumerate(acts) if isinstance(a, A.Offer)]
        self.offer_ids = range(offer[0], offer[-1] + 1) if offer else range(0)
        by_give: dict[str, list[int]] = {}
        for k in offer:
            by_give.setdefault(acts[k].give, []).append(k)
        self.offers_by_give = [
            (tuple((r, n) for r, n in enumerate(self.bundle_vector[gv]) if n), tuple(ks))
            for gv, ks in by_give.items()
        ]  # ((resource, count) for each resource the bundle holds, offer ids)
        self.offer_vectors = {k: (self.bundle_vector[acts[k].give], self.bundle_vector[acts[k].get])
                              for k in offer}

    # ---- the OpenSpiel-style API ------------------------------------------------------

    def num_distinct_actions(self) -> int:
        return len(self.actions)

    def max_game_length(self) -> int:
        return self.turn_limit * 200

    def new_initial_state(self):
        from catandsl.engine.state import State

        return State.initial(self)

    def deserialize_state(self, text: str):
        from catandsl.engine.state import State

        return State.from_json(self, json.loads(text))

    def action(self, action_id: int) -> A.Action:
        return self.actions[action_id]

    def action_id_of(self, action: A.Action) -> int:
        return self.action_id[action]

    def site_name(self, piece: PieceInfo, at: int) -> str:
        b = self.board
        if piece.site == "intersection":
            q, r, c = b.intersections[at]
        elif piece.site == "path":
            q, r, c = b.paths[at]
        else:
            (q, r), c = b.hexes[at], ""
        return f"({q},{r}){' ' + c if c else ''}"

    def __repr__(self) -> str:
        return (f"<Game {self.ruleset.scenario} players={self.num_players} seed={self.seed} "
                f"actions={len(self.actions)}>")


def new_game(scenario, players: int | None = None, options: dict | None = None,
             seed: int = 0) -> Game:
    """A Game of a compiled scenario (or a path to a .catan file)."""
    if not isinstance(scenario, model.Scenario):
        import catandsl

        scenario = catandsl.load(scenario)
    return Game(scenario, players or scenario.players_max, options, seed)


def _reads(expr) -> frozenset[str]:
    """The parts of the game an expression reads: the union over the calls in it."""
    from catandsl.rules.registry import touches

    out: frozenset[str] = frozenset()
    stack = [expr]
    while stack:
        e = stack.pop()
        if e.op == "call":
            out |= touches(e.value)
        stack.extend(e.args)
    return out
