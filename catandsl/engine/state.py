"""State: one point of one play, as plain data (ints, lists, small dicts).

This module holds the data, who acts, the legal actions and `apply_action`; the rules
live in mixins, one concern each: `flow` (hooks, set-up, turns, the end), `building`
(placement), `robber` (production, discards, robber, steals), `cards` (development
cards, awards, points), `trade` (bank and domestic trade).

Flow (set-up position, turn, phase, the stack of pending prompts) changes only here;
hooks change game data only through the primitives in `interpreter`. Pending work is a
stack of `frames` (plain lists), top last:

- ["run", effect_ids, env, answers, waiting]: hook statements still to run; `waiting`
  is [kind, player, among] while a choice is asked;
- ["discard", [[player, count], ...]]: players discarding one card per action;
- ["move", player, pieces]: the player moves one of these neutral pieces;
- ["steal", player, victims]: the player picks whom to rob;
- ["rob", player, victim] and ["draw", player, deck]: chance nodes;
- ["free", player, pieces, count]: free placements (road building);
- ["offer", proposer, offer action id, [players still to answer], [players who accepted]]:
  a domestic offer; the others answer in seat order, then the proposer picks or cancels;
- ["next_turn"], ["end_setup"]: flow continuations after hooks have run;
- ["gold", [[player, count], ...]]: players choosing resources from the bank (B.6).
- ["take", player, victim, options]: what a robbery takes (robber.py, `takes`);
- ["relocate", player, piece, from path, built this turn]: a lifted piece (ship) to put
  down (ships.py).

Seafarers data (islands.py), left out of `serialize()` while empty so scenarios without
them serialize as before: `vp_tokens` ([player, intersection, count]: special victory
points under a building) and `island_tags` ([player, tag, island], e.g. home islands).
"""

from __future__ import annotations

import json
import random

from catandsl.engine import actions as A
from catandsl.engine.building import BuildingMixin
from catandsl.engine.cards import CardsMixin
from catandsl.engine.errors import IllegalAction
from catandsl.engine.flow import FlowMixin
from catandsl.engine.robber import RobberMixin
from catandsl.engine.ships import ShipsMixin
from catandsl.engine.sites import SitesMixin, initial_data
from catandsl.engine.trade import TradeMixin
from catandsl.rules.registry import BOARD, CARDS, EVERYTHING, NEUTRAL

CHANCE = -1
TERMINAL = -4

FIELDS = (
    "hands", "bank", "cards", "new_cards", "played", "played_turn", "deck", "corner_owner",
    "corner_piece", "path_owner", "path_piece", "neutral_at", "placed", "award_holder",
    "stage", "setup_pos", "turn_player", "turns", "phase", "roll_requested", "last_roll",
    "last_corner", "last_path", "frames", "winner", "reason", "seed", "chance_count",
    "start_player", "built",
)
# fields with a default, serialized only when not empty
OPTIONAL_FIELDS = ("vp_tokens", "island_tags", "moved", "fresh_paths", "token_stock",
                   "token_supply", "tokens_held", "partners", "winners")
_ROLL_PROB = tuple((6 - abs(t - 7)) / 36 if 2 <= t <= 12 else 0.0 for t in range(13))


def _copy(x):
    if isinstance(x, list):
        return [_copy(v) for v in x]
    if isinstance(x, dict):
        return {k: _copy(v) for k, v in x.items()}
    return x


class State(FlowMixin, BuildingMixin, RobberMixin, CardsMixin, TradeMixin, ShipsMixin,
            SitesMixin):
    __slots__ = FIELDS + OPTIONAL_FIELDS + ("game", "_legal", "_routes", "_changed")

    # ---- making states ------------------------------------------------------------------

    @classmethod
    def initial(cls, game) -> "State":
        s = cls.__new__(cls)
        s.game = game
        n, R, b = game.num_players, len(game.resources), game.board
        s.hands = [[0] * R for _ in range(n)]
        s.bank = list(game.bank_start)
        s.cards = [[0] * len(game.cards) for _ in range(n)]
        s.new_cards = [0] * len(game.cards)
        s.played = [[0] * len(game.cards) for _ in range(n)]
        s.played_turn = [0] * len(game.decks)
        s.deck = [c.count for c in game.cards]
        s.corner_owner = [-1] * len(b.intersections)
        s.corner_piece = [-1] * len(b.intersections)
        s.path_owner = [-1] * len(b.paths)
        s.path_piece = [-1] * len(b.paths)
        s.neutral_at = [-1] * len(game.pieces)
        for k, pi in enumerate(game.neutral):
            s.neutral_at[pi] = game.starts[k]
        s.placed = [[0] * len(game.pieces) for _ in range(n)]
        s.award_holder = [-1] * len(game.awards)
        s.stage = "setup"
        s.setup_pos = 0
        s.turn_player = 0
        s.turns = 0
        s.phase = 0
        s.roll_requested = False
        s.last_roll = 0
        s.last_corner = -1
        s.last_path = -1
        s.frames = []
        s.winner = -1
        s.reason = ""
        s.seed = game.seed
        s.chance_count = 0
        s.start_player = -1
        s.built = False
        s.vp_tokens = []
        s.island_tags = []
        s.moved = []  # ships.py: [turn, moves made in it]
        s.fresh_paths = []  # ships.py: [turn, paths of movable pieces placed in it...]
        initial_data(game, s)  # sites.py: token stocks, supply, holdings, partners
        s.winners = []  # flow.py end_game: the players sharing a victory
        s._legal = None
        s._routes = {}
        s._changed = set()
        s._emit("game_started", {})
        s._advance()
        return s

    @classmethod
    def from_json(cls, game, data: dict) -> "State":
        s = cls.__new__(cls)
        s.game = game
        for f in FIELDS:
            setattr(s, f, data[f])
        for f in OPTIONAL_FIELDS:
            setattr(s, f, data.get(f, []))
        s._legal = None
        s._routes = {}
        s._changed = set()
        return s

    def clone(self) -> "State":
        s = State.__new__(State)
        s.game = self.game
        s.hands = [h[:] for h in self.hands]
        s.bank = self.bank[:]
        s.cards = [c[:] for c in self.cards]
        s.new_cards = self.new_cards[:]
        s.played = [c[:] for c in self.played]
        s.played_turn = self.played_turn[:]
        s.deck = self.deck[:]
        s.corner_owner = self.corner_owner[:]
        s.corner_piece = self.corner_piece[:]
        s.path_owner = self.path_owner[:]
        s.path_piece = self.path_piece[:]
        s.neutral_at = self.neutral_at[:]
        s.placed = [p[:] for p in self.placed]
        s.award_holder = self.award_holder[:]
        s.frames = _copy(self.frames) if self.frames else []
        s.vp_tokens = [e[:] for e in self.vp_tokens]
        s.island_tags = [e[:] for e in self.island_tags]
        s.moved = self.moved[:]
        s.fresh_paths = self.fresh_paths[:]
        s.token_stock = [e[:] for e in self.token_stock]
        s.token_supply = self.token_supply[:]
        s.tokens_held = [e[:] for e in self.tokens_held]
        s.partners = [e[:] for e in self.partners]
        s.winners = self.winners[:]
        for f in ("stage", "setup_pos", "turn_player", "turns", "phase", "roll_requested",
                  "last_roll", "last_corner", "last_path", "winner", "reason", "seed",
                  "chance_count", "start_player", "built"):
            setattr(s, f, getattr(self, f))
        s._legal = self._legal
        s._routes = dict(self._routes)
        s._changed = set()
        return s

    def changed(self) -> None:
        """Call after editing the data directly (tests building a fixed position)."""
        self._legal = None
        self._routes = {}
        self._changed = set(EVERYTHING)

    def to_json(self) -> dict:
        out = {f: getattr(self, f) for f in FIELDS}
        for f in OPTIONAL_FIELDS:
            if getattr(self, f):
                out[f] = getattr(self, f)
        return out

    def serialize(self) -> str:
        return json.dumps(self.to_json(), sort_keys=True, separators=(",", ":"))

    def __eq__(self, other) -> bool:
        return isinstance(other, State) and self.serialize() == other.serialize()

    __hash__ = None  # type: ignore[assignment]

    # ---- who acts -------------------------------------------------------------------------

    def is_terminal(self) -> bool:
        return self.stage == "over"

    def is_chance_node(self) -> bool:
        if self.stage == "over":
            return False
        if self.frames:
            return self.frames[-1][0] in ("rob", "draw")
        if self.stage == "setup":
            return self.start_player < 0
        return (self.stage == "turn" and self.game.phases[self.phase] == "roll"
                and (self.roll_requested or not (self._playable_cards(self.turn_player, True)
                                                 or self._move_actions(self.turn_player))))

    def current_player(self) -> int:
        if self.stage == "over":
            return TERMINAL
        if self.is_chance_node():
            return CHANCE
        if self.frames:
            top = self.frames[-1]
            kind = top[0]
            if kind == "run":
                return top[4][1]
            if kind in ("discard", "gold"):
                return next(p for p, n in top[1] if n > 0)
            if kind == "offer":
                return top[3][0] if top[3] else top[1]
            return top[1]
        if self.stage == "setup":
            return self.setup_entry()[0]
        return self.turn_player

    # ---- legal actions ---------------------------------------------------------------------

    def legal_actions(self, player: int | None = None) -> list[int]:
        if player is not None and player != self.current_player():
            return []
        if self._legal is None:
            self._legal = self._compute_legal()
        return list(self._legal)

    def _compute_legal(self) -> list[int]:
        g = self.game
        if self.stage == "over":
            return []
        if self.is_chance_node():
            return [a for a, _ in self.chance_outcomes()]
        out: list[int] = []
        if self.frames:
            top = self.frames[-1]
            kind = top[0]
            if kind == "run":
                w = top[4]
                if w[0] == "resource":
                    out = list(g.choose_resource_id)
                else:
                    out = [g.choose_player_id[p] for p in w[2]]
            elif kind == "discard":
                p = self.current_player()
                out = [g.discard_id[r] for r, n in enumerate(self.hands[p]) if n > 0]
            elif kind == "move":
                for pi in top[2]:
                    if not self.may_move(top[1], pi):
                        continue  # the piece's `movable_by` is false for the mover
                    ids = g.build_id[pi]
                    here = self.neutral_at[pi]
                    out += [ids[h] for h in g.pieces[pi].allowed if h != here]
            elif kind == "gold":
                out = [g.choose_resource_id[r] for r, left in enumerate(self.bank) if left > 0]
            elif kind == "steal":
                out = [g.steal_id[v] for v in top[2]]
            elif kind == "free":
                for pi in top[2]:
                    out += self._targets(top[1], pi, "free")
            elif kind == "offer":
                out = self._answers(top)
            elif kind == "relocate":
                out = self._put_down_targets(top)
            elif kind == "take":
                out = [g.take_id[w] for w in top[3]]
            return sorted(out)
        if self.stage == "setup":
            p, ri, si = self.setup_entry()
            step = g.setup_steps[ri][si]
            for name in step.pieces:
                pi = g.piece_index[name]
                out += self._targets(p, pi, "setup", step)
            return sorted(out)
        p = self.turn_player
        phase = g.phases[self.phase]
        if phase == "roll":
            return sorted([g.roll_dice_id] + [g.play_id[c] for c in self._playable_cards(p, True)]
                          + self._move_actions(p))
        return self._main_actions(p)

    def _main_actions(self, p: int) -> list[int]:
        g = self.game
        hand = self.hands[p]
        out: list[int] = []
        placed = self.placed[p]
        for P in g.pieces:
            if P.neutral or placed[P.index] >= P.limit:
                continue
            if all(h >= c for h, c in zip(hand, P.cost)):
                out += self._targets(p, P.index, "normal")
        if g.trade_after_build or not self.built:
            for r, n in enumerate(hand):
                if n and n >= self.trade_rate(p, r):
                    ids = g.trade_id[r]
                    out += [ids[x] for x, left in enumerate(self.bank) if left and x != r]
            out += self._offers(p)
        for d in range(len(g.decks)):
            if all(h >= c for h, c in zip(hand, g.deck_cost[d])) and any(
                self.deck[c.index] for c in g.cards if c.deck == d
            ):
                out.append(g.buy_id[d])
        out += [g.play_id[c] for c in self._playable_cards(p, False)]
        out += self._move_actions(p)
        out.append(g.end_turn_id)
        return sorted(out)

    # ---- chance ---------------------------------------------------------------------------

    def chance_outcomes(self) -> list[tuple[int, float]]:
        g = self.game
        if self.frames:
            top = self.frames[-1]
            if top[0] == "rob":
                hand = self.hands[top[2]]
                total = sum(hand)
                return [(g.stolen_id[r], n / total) for r, n in enumerate(hand) if n]
            if top[0] == "draw":
                d = top[2]
                cards = [c for c in g.cards if c.deck == d and self.deck[c.index]]
                total = sum(self.deck[c.index] for c in cards)
                return sorted((g.draw_id[c.index], self.deck[c.index] / total) for c in cards)
            return []
        if self.stage == "setup" and self.start_player < 0:
            n = g.num_players
            return [(g.start_id[p], 1 / n) for p in range(n)]
        if self.is_chance_node():
            return [(g.roll_id[t], _ROLL_PROB[t]) for t in range(2, 13)]
        return []

    def sample_chance(self) -> int:
        """A chance outcome drawn from an RNG derived from the game seed and the number of
        chance outcomes applied so far: the same game gives the same draws everywhere."""
        rng = random.Random(self.seed * 1_000_003 + self.chance_count)
        x = rng.random()
        outcomes = self.chance_outcomes()
        acc = 0.0
        for a, pr in outcomes:
            acc += pr
            if x < acc:
                return a
        return outcomes[-1][0]

    # ---- applying --------------------------------------------------------------------------

    def apply_action(self, action, player: int | None = None) -> None:
        g = self.game
        aid = g.action_id.get(action, -1) if isinstance(action, A.Action) else action
        if self.stage == "over":
            raise IllegalAction("action/game_over", "the game is over")
        if not isinstance(aid, int) or not 0 <= aid < len(g.actions):
            if isinstance(action, (A.Build, A.PutDown)) and action.piece in g.piece_index:
                raise IllegalAction("action/invalid_target",
                                    f"{action.KIND} {action.piece} at {action.at}: "
                                    f"a {action.piece} never stands there")
            raise IllegalAction("action/unknown", f"no action {action!r} in this game")
        if player is not None and player != self.current_player():
            raise IllegalAction("action/not_your_turn",
                                f"player {player} may not act now; player "
                                f"{self.current_player()} is to act")
        if aid not in self.legal_actions():
            raise self._illegal(aid)
        self._legal = None
        self._apply(g.actions[aid])
        self._advance()
        if self._changed:
            self._update_awards()
        self._check_victory()
        self._legal = None

    def _illegal(self, aid: int) -> IllegalAction:
        g = self.game
        act = g.actions[aid]
        text = self.action_to_string(aid)
        main = (not self.frames and self.stage == "turn" and g.phases[self.phase] == "main"
                and not self.is_chance_node())
        if isinstance(act, A.Build):
            pi = g.piece_index[act.piece]
            P = g.pieces[pi]
            p = self.current_player()
            if main:
                if self.placed[p][pi] >= P.limit:
                    return IllegalAction("action/not_legal", f"{text}: no {P.name} left")
                if self.can_place(p, pi, act.at):
                    return IllegalAction("action/cannot_afford", f"{text}: cannot afford it")
            if main or self.stage == "setup" or (self.frames and self.frames[-1][0] == "free"):
                return IllegalAction("action/invalid_target", f"{text}: not a legal site")
        if isinstance(act, A.PickUp):
            why = self.why_not_pick_up(self.current_player(), act.at)
            return IllegalAction("action/not_legal", f"{text}: {why or 'not legal now'}")
        if isinstance(act, A.PutDown) and self.frames and self.frames[-1][0] == "relocate":
            return IllegalAction("action/invalid_target", f"{text}: not a legal site")
        if isinstance(act, A.Move) and self.frames and self.frames[-1][0] == "move":
            return IllegalAction("action/invalid_target", f"{text}: not a legal hex")
        if isinstance(act, (A.BuyCard, A.BankTrade, A.Offer)) and main:
            return IllegalAction("action/cannot_afford", f"{text}: cannot afford it")
        return IllegalAction("action/not_legal", f"{text} is not legal now")

    def _apply(self, act: A.Action) -> None:
        g = self.game
        p = self.current_player()
        # what award measures may read (registry.TOUCHES): pieces, neutral pieces, cards
        if isinstance(act, (A.Build, A.PickUp, A.PutDown)):
            self._changed.add(BOARD)
        elif isinstance(act, A.Move):
            self._changed.add(NEUTRAL)
        elif isinstance(act, (A.PlayCard, A.Draw)):
            self._changed.add(CARDS)
        if isinstance(act, A.Roll):
            self.roll_requested = False
            self.last_roll = act.total
            self.chance_count += 1
            self.phase += 1
            self._emit("dice_rolled", {"player": self.turn_player, "roll": act.total})
        elif isinstance(act, A.RollDice):
            self.roll_requested = True
        elif isinstance(act, A.Build):
            self._build(p, g.piece_index[act.piece], act.at)
        elif isinstance(act, A.Move):
            self._apply_move(act)
        elif isinstance(act, A.PickUp):
            self._apply_pick_up(p, act)
        elif isinstance(act, A.PutDown):
            self._apply_put_down(p, act)
        elif isinstance(act, A.Take):
            self._apply_take(act)
        elif isinstance(act, A.Steal):
            self._apply_steal(act)
        elif isinstance(act, A.Stolen):
            self._apply_stolen(act)
        elif isinstance(act, A.Discard):
            self._apply_discard(act)
        elif isinstance(act, A.BankTrade):
            self._apply_bank_trade(p, act)
        elif isinstance(act, A.BuyCard):
            self._apply_buy(p, act)
        elif isinstance(act, A.Draw):
            self._apply_draw(act)
        elif isinstance(act, A.PlayCard):
            self._apply_play(p, act)
        elif isinstance(act, A.ChooseResource) and self.frames[-1][0] == "gold":
            self._apply_choice(act)
        elif isinstance(act, (A.ChooseResource, A.ChoosePlayer)):
            top = self.frames[-1]
            top[3].append(act.resource if isinstance(act, A.ChooseResource) else act.player)
            top[4] = None
        elif isinstance(act, A.StartPlayer):
            self.start_player = act.player
            self.chance_count += 1
        elif isinstance(act, (A.Offer, A.Accept, A.Decline, A.TradeWith, A.CancelOffer)):
            self._apply_domestic(p, act)
        elif isinstance(act, A.EndTurn):
            self.frames.append(["next_turn"])
            self._emit("turn_ended", {"player": p})

    def scores(self) -> list[int]:
        return [self.points(p) for p in range(self.game.num_players)]

    def returns(self) -> list[float]:
        n = self.game.num_players
        if self.stage != "over":
            return [0.0] * n
        winners = [self.winner] if self.winner >= 0 else self.winners
        if not winners:
            return [0.0] * n
        return [1.0 if p in winners else -1.0 for p in range(n)]

    # ---- showing ------------------------------------------------------------------------------------

    def action_to_string(self, action_id: int) -> str:
        g = self.game
        a = g.actions[action_id]
        if isinstance(a, (A.Build, A.Move, A.PickUp, A.PutDown)):
            P = g.pieces[g.piece_index[a.piece]]
            return f"{a.KIND} {a.piece} at {g.site_name(P, a.at)}"
        parts = [str(v) for k, v in a.to_json().items() if k != "kind"]
        return " ".join([a.KIND] + parts)

    def observation(self, player: int) -> dict:
        """What `player` may see: their own hand and cards; opponents' resource hands and
        development cards as counts only (so a stolen card's identity stays hidden); the
        deck as a count; public pieces, awards, played cards and the bank in full. The
        seed is left out: with it, future draws (the deck order) could be computed."""
        g = self.game
        data = json.loads(json.dumps(self.to_json()))  # a copy: never edit the state
        for p in range(g.num_players):
            if p != player:
                data["hands"][p] = sum(self.hands[p])
                data["cards"][p] = sum(self.cards[p])
        data["deck"] = sum(self.deck)
        if player != self.turn_player:
            data["new_cards"] = sum(self.new_cards)
        del data["seed"]
        data["scores"] = [
            self.points(p) if p == player else self.public_points(p)
            for p in range(g.num_players)
        ]
        return data

    def __str__(self) -> str:
        return (f"turn {self.turns} player {self.turn_player} stage {self.stage} "
                f"scores {self.scores()} bank {self.bank}")
