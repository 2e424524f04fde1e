"""State: one point of one play, as plain data (ints, lists, small dicts).

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
- ["next_turn"], ["end_setup"]: flow continuations after hooks have run.
"""

from __future__ import annotations

import json
import random

from catandsl.engine import actions as A
from catandsl.engine.errors import EngineError, IllegalAction
from catandsl.engine.interpreter import Answers, NeedChoice, site
from catandsl.rules.registry import EVENTS

CHANCE = -1
TERMINAL = -4

FIELDS = (
    "hands", "bank", "cards", "new_cards", "played", "played_turn", "deck", "corner_owner",
    "corner_piece", "path_owner", "path_piece", "neutral_at", "placed", "award_holder",
    "stage", "setup_pos", "turn_player", "turns", "phase", "roll_requested", "last_roll",
    "last_corner", "last_path", "frames", "winner", "reason", "seed", "chance_count",
)
_ROLL_PROB = tuple((6 - abs(t - 7)) / 36 if 2 <= t <= 12 else 0.0 for t in range(13))


def _copy(x):
    if isinstance(x, list):
        return [_copy(v) for v in x]
    if isinstance(x, dict):
        return {k: _copy(v) for k, v in x.items()}
    return x


class State:
    __slots__ = FIELDS + ("game", "_legal", "_routes", "_dirty")

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
        s._legal = None
        s._routes = {}
        s._dirty = False
        s._emit("game_started", {})
        s._advance()
        return s

    @classmethod
    def from_json(cls, game, data: dict) -> "State":
        s = cls.__new__(cls)
        s.game = game
        for f in FIELDS:
            setattr(s, f, data[f])
        s._legal = None
        s._routes = {}
        s._dirty = False
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
        for f in ("stage", "setup_pos", "turn_player", "turns", "phase", "roll_requested",
                  "last_roll", "last_corner", "last_path", "winner", "reason", "seed",
                  "chance_count"):
            setattr(s, f, getattr(self, f))
        s._legal = self._legal
        s._routes = dict(self._routes)
        s._dirty = False
        return s

    def changed(self) -> None:
        """Call after editing the data directly (tests building a fixed position)."""
        self._legal = None
        self._routes = {}
        self._dirty = True

    def to_json(self) -> dict:
        return {f: getattr(self, f) for f in FIELDS}

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
        return (self.stage == "turn" and self.game.phases[self.phase] == "roll"
                and (self.roll_requested or not self._playable_cards(self.turn_player, True)))

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
            if kind == "discard":
                return next(p for p, n in top[1] if n > 0)
            return top[1]
        if self.stage == "setup":
            return self.game.setup_script[self.setup_pos][0]
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
                    ids = g.build_id[pi]
                    here = self.neutral_at[pi]
                    out += [ids[h] for h in g.pieces[pi].allowed if h != here]
            elif kind == "steal":
                out = [g.steal_id[v] for v in top[2]]
            elif kind == "free":
                for pi in top[2]:
                    out += self._targets(top[1], pi, "free")
            return sorted(out)
        if self.stage == "setup":
            p, ri, si = g.setup_script[self.setup_pos]
            step = g.setup_steps[ri][si]
            for name in step.pieces:
                pi = g.piece_index[name]
                out += self._targets(p, pi, "setup", step)
            return sorted(out)
        p = self.turn_player
        phase = g.phases[self.phase]
        if phase == "roll":
            return sorted([g.roll_dice_id] + [g.play_id[c] for c in self._playable_cards(p, True)])
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
        for r, n in enumerate(hand):
            if n and n >= self.trade_rate(p, r):
                ids = g.trade_id[r]
                out += [ids[x] for x, left in enumerate(self.bank) if left and x != r]
        for d in range(len(g.decks)):
            if all(h >= c for h, c in zip(hand, g.deck_cost[d])) and any(
                self.deck[c.index] for c in g.cards if c.deck == d
            ):
                out.append(g.buy_id[d])
        out += [g.play_id[c] for c in self._playable_cards(p, False)]
        out.append(g.end_turn_id)
        return sorted(out)

    def _playable_cards(self, p: int, before_roll: bool) -> list[int]:
        g = self.game
        out = []
        cards = self.cards[p]
        for c in g.cards:
            if not c.playable or not cards[c.index]:
                continue
            d = g.decks[c.deck]
            if before_roll and not d.playable_before_roll:
                continue
            if self.played_turn[c.deck] >= d.play_per_turn:
                continue
            if cards[c.index] - (self.new_cards[c.index] if d.not_turn_bought else 0) > 0:
                out.append(c.index)
        return out

    def trade_rate(self, p: int, r: int) -> int:
        g = self.game
        rate = g.bank_rate or 10**6
        owner = self.corner_owner
        for c, hb in g.harbor_corners:
            if owner[c] == p:
                hr, res = g.harbor_rates[hb]
                if (res < 0 or res == r) and hr < rate:
                    rate = hr
        return rate

    def _targets(self, p: int, pi: int, mode: str, step=None) -> list[int]:
        """Action ids of every site where player p may place piece pi now."""
        g = self.game
        P = g.pieces[pi]
        if self.placed[p][pi] >= P.limit:
            return []
        ids = g.build_id[pi]
        out = []
        can = self.can_place
        for k in P.allowed:
            if can(p, pi, k, mode, step):
                out.append(ids[k])
        return out

    def can_place(self, p: int, pi: int, k: int, mode: str = "normal", step=None) -> bool:
        g = self.game
        b = g.board
        P = g.pieces[pi]
        if P.site == "intersection":
            if P.upgrades >= 0:
                return self.corner_owner[k] == p and self.corner_piece[k] == P.upgrades
            if self.corner_owner[k] != -1:
                return False
            if P.distance > 1:
                owner = self.corner_owner
                for m in g.within[P.distance][k]:
                    if owner[m] != -1:
                        return False
            if mode != "setup" and P.connects:
                for x in b.corner_paths[k]:
                    if self.path_owner[x] == p and self.path_piece[x] in P.connects:
                        break
                else:
                    return False
            if step is not None and step.touching_last and self.last_path >= 0:
                if k not in b.path_ends[self.last_path]:
                    return False
        elif P.site == "path":
            if self.path_owner[k] != -1:
                return False
            if mode == "setup" and step is not None and step.touching_last:
                if self.last_corner not in b.path_ends[k]:
                    return False
            elif P.connects:
                if not self._path_connects(p, k, P.connects):
                    return False
        else:
            return False
        if step is not None and step.where is not None:
            if not g.interp.static_condition(step.where, {"at": site(P.site, k)}, step.source):
                return False
        return True

    def _path_connects(self, p, k, connects) -> bool:
        b = self.game.board
        for c in b.path_ends[k]:
            o = self.corner_owner[c]
            if o == p and self.corner_piece[c] in connects:
                return True
            if o != -1 and o != p:
                continue  # an opponent's building blocks the way through
            for x in b.corner_paths[c]:
                if x != k and self.path_owner[x] == p and self.path_piece[x] in connects:
                    return True
        return False

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
        if self._dirty:
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
        if isinstance(act, A.Move) and self.frames and self.frames[-1][0] == "move":
            return IllegalAction("action/invalid_target", f"{text}: not a legal hex")
        if isinstance(act, (A.BuyCard, A.BankTrade)) and main:
            return IllegalAction("action/cannot_afford", f"{text}: cannot afford it")
        return IllegalAction("action/not_legal", f"{text} is not legal now")

    def _apply(self, act: A.Action) -> None:
        g = self.game
        p = self.current_player()
        if isinstance(act, (A.Build, A.Move, A.PlayCard, A.Draw)):
            self._dirty = True  # what award measures read may change
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
            top = self.frames.pop()
            pi = g.piece_index[act.piece]
            src = self.neutral_at[pi]
            self.neutral_at[pi] = act.at
            victims = self._victims(top[1], pi, act.at)
            if victims:
                self.frames.append(["steal", top[1], victims])
            self._emit("moved", {"player": top[1], "piece": act.piece, "from": site("hex", src),
                                 "at": site("hex", act.at)})
        elif isinstance(act, A.Steal):
            top = self.frames.pop()
            self.frames.append(["rob", top[1], act.player])
        elif isinstance(act, A.Stolen):
            _, thief, victim = self.frames.pop()
            r = g.res_index[act.resource]
            self.hands[victim][r] -= 1
            self.hands[thief][r] += 1
            self.chance_count += 1
        elif isinstance(act, A.Discard):
            top = self.frames[-1]
            r = g.res_index[act.resource]
            for entry in top[1]:
                if entry[1] > 0:
                    self.hands[entry[0]][r] -= 1
                    self.bank[r] += 1
                    entry[1] -= 1
                    break
            if all(n == 0 for _, n in top[1]):
                self.frames.pop()
        elif isinstance(act, A.BankTrade):
            give, get = g.res_index[act.give], g.res_index[act.get]
            rate = self.trade_rate(p, give)
            self.hands[p][give] -= rate
            self.bank[give] += rate
            self.hands[p][get] += 1
            self.bank[get] -= 1
            self._emit("traded", {"player": p})
        elif isinstance(act, A.BuyCard):
            d = g.deck_index[act.deck]
            self._pay(p, g.deck_cost[d])
            self.frames.append(["draw", p, d])
        elif isinstance(act, A.Draw):
            _, owner, _ = self.frames.pop()
            c = g.card_index[act.card]
            self.deck[c] -= 1
            self.cards[owner][c] += 1
            self.new_cards[c] += 1
            self.chance_count += 1
            self._emit("card_bought", {"player": owner, "card": act.card})
        elif isinstance(act, A.PlayCard):
            c = g.card_index[act.card]
            self.cards[p][c] -= 1
            self.played[p][c] += 1
            self.played_turn[g.cards[c].deck] += 1
            self._emit("card_played", {"player": p, "card": act.card})
        elif isinstance(act, (A.ChooseResource, A.ChoosePlayer)):
            top = self.frames[-1]
            top[3].append(act.resource if isinstance(act, A.ChooseResource) else act.player)
            top[4] = None
        elif isinstance(act, A.EndTurn):
            self.frames.append(["next_turn"])
            self._emit("turn_ended", {"player": p})

    def _pay(self, p: int, cost) -> None:
        hand, bank = self.hands[p], self.bank
        for r, n in enumerate(cost):
            if n:
                hand[r] -= n
                bank[r] += n

    def _build(self, p: int, pi: int, k: int) -> None:
        g = self.game
        P = g.pieces[pi]
        top = self.frames[-1] if self.frames else None
        if top is not None and top[0] == "free":
            top[3] -= 1
            if top[3] <= 0:
                self.frames.pop()
        elif self.stage == "setup":
            self.setup_pos += 1
        else:
            self._pay(p, P.cost)
        self.placed[p][pi] += 1
        if P.site == "intersection":
            if P.upgrades >= 0:
                self.placed[p][P.upgrades] -= 1
            self.corner_owner[k] = p
            self.corner_piece[k] = pi
            self.last_corner = k
            self._routes.clear()  # a building may break someone's route
        else:
            self.path_owner[k] = p
            self.path_piece[k] = pi
            self.last_path = k
            for key in [key for key in self._routes if key[0] == p]:
                del self._routes[key]
        self._emit("built", {"player": p, "piece": P.name, "at": site(P.site, k)})

    def _victims(self, thief: int, pi: int, h: int) -> list[int]:
        g = self.game
        steals = g.pieces[pi].steals_from
        out = set()
        for c in g.board.hex_corners[h]:
            o = self.corner_owner[c]
            if o >= 0 and o != thief and self.corner_piece[c] in steals and sum(self.hands[o]):
                out.add(o)
        return sorted(out)

    # ---- the flow ------------------------------------------------------------------------------

    def _emit(self, event: str, env: dict) -> None:
        g = self.game
        hooks = g.hooks.get(event)
        if not hooks:
            return
        fparam = EVENTS[event].filter
        ids: list[int] = []
        for h, eids in hooks:
            if h.filters and env.get(fparam) not in h.filters:
                continue
            if h.condition is not None and not g.interp.eval(
                h.condition, env, self, Answers([]), h.source
            ):
                continue
            ids += eids
        if ids:
            self.frames.append(["run", ids, dict(env), [], None])

    def _advance(self) -> None:
        """Run everything that needs no decision, up to the next decision or chance node."""
        g = self.game
        while self.stage != "over":
            if self.frames:
                top = self.frames[-1]
                kind = top[0]
                if kind == "run":
                    if top[4] is not None:
                        return
                    if not top[1]:
                        self.frames.pop()
                        continue
                    self._run_one(top)
                    continue
                if kind == "next_turn":
                    self.frames.pop()
                    self._next_turn()
                    continue
                if kind == "end_setup":
                    self.frames.pop()
                    self.stage = "turn"
                    self.turn_player = 0
                    self.turns = 1
                    self.phase = 0
                    self._emit("turn_started", {"player": 0})
                    self._emit("setup_ended", {})
                    continue
                if kind in ("move", "free") and not self._compute_legal():
                    self.frames.pop()
                    continue
                if kind == "discard" and all(n == 0 for _, n in top[1]):
                    self.frames.pop()
                    continue
                return
            if self.stage == "setup":
                if self.setup_pos >= len(g.setup_script):
                    self.frames.append(["end_setup"])
                    continue
                p, ri, si = g.setup_script[self.setup_pos]
                step = g.setup_steps[ri][si]
                if step.action == "collect":
                    self._collect(p, self.last_corner)
                    self.setup_pos += 1
                    continue
                if step.action != "place":
                    raise EngineError(f"set-up step {step.action!r} is not supported", step.source)
                if not self._compute_legal():
                    self.setup_pos += 1
                    continue
                return
            return

    def _run_one(self, top: list) -> None:
        g = self.game
        self._dirty = True  # a hook may change what award measures read
        ids, env = top[1], top[2]
        eid = ids[0]
        e = g.effects[eid]
        try:
            if e.op == "call":
                g.interp.eval(e.expr, env, self, Answers(top[3]), e.source)
                del ids[0]
                top[3] = []
            elif e.op == "if":
                cond = g.interp.eval(e.expr, env, self, Answers(top[3]), e.source)
                top[1] = list(g.effect_body[eid] if cond else g.effect_orelse[eid]) + ids[1:]
                top[3] = []
            elif e.op == "let":
                env[e.name] = g.interp.eval(e.expr, env, self, Answers(top[3]), e.source)
                del ids[0]
                top[3] = []
            elif e.op == "for":
                items = g.interp.eval(e.expr, env, self, Answers(top[3]), e.source)
                del ids[0]
                top[3] = []
                for item in reversed(list(items)):
                    self.frames.append(["run", list(g.effect_body[eid]), {**env, e.name: item},
                                        [], None])
            else:
                raise EngineError(f"unknown statement {e.op!r}", e.source)
        except NeedChoice as nc:
            top[4] = [nc.kind, nc.player, nc.among]

    def _collect(self, p: int, corner: int) -> None:
        g = self.game
        if corner < 0:
            return
        for h in g.board.corner_hexes[corner]:
            r = g.hex_resource[h]
            if r >= 0 and self.bank[r] > 0:
                self.bank[r] -= 1
                self.hands[p][r] += 1

    def _next_turn(self) -> None:
        g = self.game
        if self.turns >= g.turn_limit:
            self.stage = "over"
            self.reason = "turn_limit"
            return
        self.turns += 1
        self.turn_player = (self.turn_player + 1) % g.num_players
        self.phase = 0
        self.roll_requested = False
        self.played_turn = [0] * len(g.decks)
        self.new_cards = [0] * len(g.cards)
        self._emit("turn_started", {"player": self.turn_player})

    def _check_victory(self) -> None:
        if self.stage == "turn" and self.points(self.turn_player) >= self.game.victory:
            self.stage = "over"
            self.winner = self.turn_player
            self.reason = "victory"
            self.frames = []

    # ---- primitives the interpreter calls -------------------------------------------------------

    def produce(self, roll: int) -> None:
        g = self.game
        b = g.board
        n = g.num_players
        owed = [[0] * n for _ in g.resources]
        blocked = [self.neutral_at[pi] for pi in g.blocking]
        for h in b.number_hexes[roll] if 0 <= roll < len(b.number_hexes) else ():
            r = g.hex_resource[h]
            if r < 0 or h in blocked:
                continue
            row = owed[r]
            for c in b.hex_corners[h]:
                o = self.corner_owner[c]
                if o >= 0:
                    row[o] += g.pieces[self.corner_piece[c]].produces
        for r, row in enumerate(owed):
            total = sum(row)
            if not total:
                continue
            if total <= self.bank[r]:
                for p, k in enumerate(row):
                    self.hands[p][r] += k
                self.bank[r] -= total
            else:
                owed_to = [p for p, k in enumerate(row) if k]
                if len(owed_to) == 1:  # A.6: a single player owed takes what is left
                    self.hands[owed_to[0]][r] += self.bank[r]
                    self.bank[r] = 0

    def discard_half(self, over: int) -> None:
        n = self.game.num_players
        entries = []
        for k in range(n):
            p = (self.turn_player + k) % n
            total = sum(self.hands[p])
            if total > over:
                entries.append([p, total // 2])
        if entries:
            self.frames.append(["discard", entries])

    def push_move(self, player: int, pieces: list[int]) -> None:
        self.frames.append(["move", player, list(pieces)])

    def push_free(self, player: int, pieces: list[int], count: int) -> None:
        if count > 0:
            self.frames.append(["free", player, list(pieces), count])

    def take_from_bank(self, player: int, r: int, count: int) -> None:
        k = min(count, self.bank[r])
        self.bank[r] -= k
        self.hands[player][r] += k

    def monopoly(self, player: int, r: int) -> None:
        for p in range(self.game.num_players):
            if p != player:
                self.hands[player][r] += self.hands[p][r]
                self.hands[p][r] = 0

    def end_game(self, reason: str) -> None:
        pts = self.scores()
        best = max(pts)
        winners = [p for p, v in enumerate(pts) if v == best]
        self.winner = winners[0] if len(winners) == 1 else -1
        self.stage = "over"
        self.reason = reason
        self.frames = []

    # ---- measures ---------------------------------------------------------------------------------

    def army(self, p: int) -> int:
        return sum(n * c.army for n, c in zip(self.played[p], self.game.cards))

    def longest_route(self, p: int, pieces: tuple[int, ...]) -> int:
        key = (p, pieces)
        if key in self._routes:
            return self._routes[key]
        b = self.game.board
        mine = [k for k, o in enumerate(self.path_owner) if o == p and self.path_piece[k] in pieces]
        best = 0
        if mine:
            own = set(mine)
            ends, cpaths, owner = b.path_ends, b.corner_paths, self.corner_owner
            used: set[int] = set()

            def walk(c: int, length: int) -> None:
                nonlocal best
                if length > best:
                    best = length
                if owner[c] != -1 and owner[c] != p and length > 0:
                    return  # an opponent's building: the route may end here, not pass
                for x in cpaths[c]:
                    if x in own and x not in used:
                        used.add(x)
                        a, z = ends[x]
                        walk(z if a == c else a, length + 1)
                        used.discard(x)

            starts = sorted({c for x in mine for c in ends[x]})
            for c in starts:
                walk(c, 0)
        self._routes[key] = best
        return best

    def points(self, p: int) -> int:
        g = self.game
        pts = 0
        for P, n in zip(g.pieces, self.placed[p]):
            if n and P.points:
                pts += n * P.points
        for c, n in zip(g.cards, self.cards[p]):
            if n and c.points:
                pts += n * c.points
        for k, holder in enumerate(self.award_holder):
            if holder == p:
                pts += g.awards[k].points
        return pts

    def _update_awards(self) -> None:
        """A.10/A.11: the holder keeps the award while (tied for) largest; otherwise a
        unique largest at or over the minimum takes it; else it is set aside."""
        g = self.game
        self._dirty = False
        if self.stage == "setup":
            return
        for k, aw in enumerate(g.awards):
            vals = [g.interp.eval(aw.measure, {"player": p}, self, Answers([]), aw.source)
                    for p in range(g.num_players)]
            best = max(vals)
            holder = self.award_holder[k]
            if holder >= 0 and vals[holder] == best and best >= aw.min:
                continue
            tops = [p for p, v in enumerate(vals) if v == best]
            self.award_holder[k] = tops[0] if best >= aw.min and len(tops) == 1 else -1

    def scores(self) -> list[int]:
        return [self.points(p) for p in range(self.game.num_players)]

    def returns(self) -> list[float]:
        n = self.game.num_players
        if self.stage != "over" or self.winner < 0:
            return [0.0] * n
        return [1.0 if p == self.winner else -1.0 for p in range(n)]

    # ---- showing ------------------------------------------------------------------------------------

    def action_to_string(self, action_id: int) -> str:
        g = self.game
        a = g.actions[action_id]
        if isinstance(a, (A.Build, A.Move)):
            P = g.pieces[g.piece_index[a.piece]]
            return f"{a.KIND} {a.piece} at {g.site_name(P, a.at)}"
        parts = [str(v) for k, v in a.to_json().items() if k != "kind"]
        return " ".join([a.KIND] + parts)

    def observation(self, player: int) -> dict:
        """What `player` may see: opponents' hands and development cards as counts only,
        the deck as a count."""
        data = self.to_json()
        g = self.game
        for p in range(g.num_players):
            if p != player:
                data["hands"][p] = sum(self.hands[p])
                data["cards"][p] = sum(self.cards[p])
        data["deck"] = sum(self.deck)
        if player != self.turn_player:
            data["new_cards"] = sum(self.new_cards)
        data["scores"] = [
            self.points(p) if p == player else self.public_points(p)
            for p in range(g.num_players)
        ]
        return json.loads(json.dumps(data))

    def public_points(self, p: int) -> int:
        g = self.game
        hidden = sum(n * c.points for n, c in zip(self.cards[p], g.cards) if c.hidden)
        return self.points(p) - hidden

    def __str__(self) -> str:
        return (f"turn {self.turns} player {self.turn_player} stage {self.stage} "
                f"scores {self.scores()} bank {self.bank}")
