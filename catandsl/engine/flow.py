"""The turn interpreter: hooks on events, the set-up script, the declared phases of a
turn, the end of the game. Flow (stage, set-up position, turn, phase, the pending
stack) changes only here; everything else changes through rules (catandsl/rules/).

The decision the game waits for is always a prompt: the top of `state.pending`, or,
with nothing pending, a *standing* prompt of the stage: `SETUP` (the next set-up
placement, or the draw of the start player), `TURN` (the active player's phase) or
`OVER`. `advance` runs everything that needs no decision: hook statements, lapsed
prompts, set-up steps without a choice, the start of the next turn.

The turn (`game.phases`, declared by the ruleset's `turn { phase NAME { ... } }`): a
phase allows activities (rules/base.py: `roll`, `trade`, `build`, ...). The player may
take the action of any activity of the current phase or of a later one before the next
roll phase, which moves the turn on to the first such phase that allows it: phases go
forward, never back. A phase that allows `roll` ends only with the dice (a chance node
once the player asks for them, or when nothing else may be done there, as the other
seats see it: `Activity.asks`); the turn ends with `EndTurn`, offered once no roll
phase lies ahead.
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, Self

from catandsl.engine.interpreter import NO_ANSWERS, Answers, NeedChoice
from catandsl.rules import harbors, placement, scoring
from catandsl.rules import words as w
from catandsl.rules.base import CHANCE, TERMINAL, Action, EngineError, IllegalAction, Prompt, location, seats_ok
from catandsl.rules.dice import RollDice
from catandsl.rules.play import Game, State
from catandsl.rules.registry import CHOICE, FLOW, PRIMITIVES, RANDOM, Primitive


class Running(State, Protocol):
    """The state as the flow keeps it: the play's data (rules/play.py) and what the flow
    works out from it until the next action (engine/state.py's State is one)."""

    if not TYPE_CHECKING:  # the engine's state keeps its fields in slots, with no __dict__
        __slots__ = ()

    _legal: tuple[int, ...] | None  # legal_now()
    _chance: bool | None  # is_chance_node()
    _outcomes: list[tuple[int, float]] | None  # chance_outcomes()
    # the players found short of victory since an action last wrote something victory reads
    _short: int

    def legal_now(self) -> tuple[int, ...]: ...

    def _outcomes_now(self) -> list[tuple[int, float]]: ...

    def _top(self) -> Prompt: ...

    def clone(self) -> Self: ...

    def forget_derived(self) -> None: ...

    def action_to_string(self, action_id: object) -> str: ...


# ---- the flow's own actions ---------------------------------------------------------------


@dataclass(frozen=True, order=True)
class EndTurn(Action):
    """The active player ends the turn."""

    KIND: ClassVar[str] = "end_turn"
    HEADING: ClassVar[str] = "End turn"
    WRITES: ClassVar[frozenset[str]] = frozenset((FLOW,))

    def words(self, told: w.Told) -> str:
        return "end the turn"


@dataclass(frozen=True, order=True)
class Pass(Action):
    """Pass a set-up step that is `optional` (place nothing there), or be done with a
    phase between turns."""

    KIND: ClassVar[str] = "pass"
    HEADING: ClassVar[str] = "Pass"
    WRITES: ClassVar[frozenset[str]] = frozenset((FLOW,))

    def words(self, told: w.Told) -> str:
        return "pass"


@dataclass(frozen=True, order=True)
class StartPlayer(Action):
    """Chance outcome: the start player (A.4.1; rolling with re-rolls of ties is uniform)."""

    KIND: ClassVar[str] = "start_player"
    HEADING: ClassVar[str] = "Who goes first"
    WRITES: ClassVar[frozenset[str]] = frozenset((FLOW,))
    player: int

    def words(self, told: w.Told) -> str:
        """`go first` said of the player who begins; `P2 goes first` of anyone else."""
        return "go first" if told.actor == self.player else f"let {w.seat_words(told.game, self.player)} go first"


# ---- hooks --------------------------------------------------------------------------------


def emit(s: State, event: str, env: dict[str, Any]) -> None:
    """Queue the statements of every hook on `event` whose filter and condition hold."""
    g = s.game
    if event not in g.hooks:
        return
    fparam, hooks = g.interp.hooks(event)
    ids: list[int] = []
    for filters, condition, eids in hooks:
        if filters and env.get(fparam) not in filters:
            continue
        if condition is not None and not condition(env, s, NO_ANSWERS):
            continue
        ids += eids
    if ids:
        s.pending.append(Effects(ids, dict(env), [], None))


@dataclass
class Effects(Prompt):
    """Hook statements still to run (ids into `game.effects`, first first), with their
    variables. While a statement waits for a choice, `waiting` is [primitive, player,
    options] and the statement runs again from its start with `answers` once it is given
    (queries have no side effects, so evaluating again is safe). A random value waits the
    same way with the player CHANCE and options [value, weight] pairs: a chance node."""

    KIND: ClassVar[str] = "effects"
    statements: list[int]
    env: dict[str, Any]
    answers: list[Any]
    waiting: list[Any] | None

    def check(self, game: Game) -> str:
        if not all(isinstance(k, int) and 0 <= k < len(game.effects) for k in self.statements):
            return "statements must be ids of the game's rule statements"
        w = self.waiting
        if w is not None and not (isinstance(w, list) and len(w) == 3 and isinstance(w[0], str)
                                  and w[0] in PRIMITIVES and type(w[1]) is int and isinstance(w[2], list)
                                  and w[2] and _waits_right(game, PRIMITIVES[w[0]], w[1], w[2])):
            return ("waiting must be [choice, player, options the choice's answer takes] or "
                    "[random value, -1, [[value its answer takes, weight > 0], ...]]")
        return super().check(game)

    @property
    def chance(self) -> bool:  # type: ignore[override]  # a random value waits at a chance node
        return self.waiting is not None and self.waiting[1] == CHANCE

    def outcomes(self, s: State) -> list[tuple[int, float]]:
        assert self.waiting is not None
        answer = PRIMITIVES[self.waiting[0]].answer
        assert answer is not None
        pairs = self.waiting[2]
        whole = sum(w for _, w in pairs)
        return [(s.game.action_id[answer(v)], w / whole) for v, w in pairs]

    def step(self, s: State) -> bool:
        if self.waiting is not None:
            return False
        if not self.statements:
            s.pending.pop()
            return True
        _run_one(s, self)
        return True

    def actor(self, s: State) -> int:
        assert self.waiting is not None
        return int(self.waiting[1])

    def legal(self, s: State) -> list[int]:
        assert self.waiting is not None
        name, _, options = self.waiting
        answer = PRIMITIVES[name].answer
        assert answer is not None
        ids = s.game.action_id
        return [ids[answer(v)] for v in options]

    def apply(self, s: State, act: Action) -> None:
        if self.chance:
            s.chance_count += 1
        (value,) = (getattr(act, f.name) for f in fields(act))  # the answer's one field
        self.answers.append(value)
        self.waiting = None


def _waits_right(game: Game, primitive: Primitive, player: int, options: list) -> bool:
    """Whether a statement may wait as `waiting` says, by the primitive's own declaration:
    a choice waits on a seat, a random value on chance; every option (a random value's
    with a positive weight) is a value the primitive's `answer` action takes in this
    game, so whatever a primitive offers (resources, seats, token kinds, cards, totals)
    is checked the same way."""
    if primitive.kind == CHOICE:
        return seats_ok(game, player) and all(_answers(game, primitive, v) for v in options)
    return primitive.kind == RANDOM and player == CHANCE and all(
        isinstance(o, list) and len(o) == 2 and type(o[1]) is int and o[1] > 0 and _answers(game, primitive, o[0])
        for o in options)


def _answers(game: Game, primitive: Primitive, value: Any) -> bool:
    """Whether `value` is one the primitive's answer action has in this game."""
    if type(value) not in (str, int) or primitive.answer is None:
        return False
    return primitive.answer(value) in game.action_id


# Statements the rules may run for one action (a hook that triggers itself, `for` loops
# over `for` loops): past this the action stops with an EngineError naming the rule.
MAX_STATEMENTS = 100_000


def _run_one(s: State, frame: Effects) -> None:
    g = s.game
    ids, env = frame.statements, frame.env
    eid = ids[0]
    e = g.effects[eid]
    s._steps += 1
    if s._steps > MAX_STATEMENTS:
        raise EngineError(f"the rules ran more than {MAX_STATEMENTS:,} statements after one action; "
                          "a rule may be triggering itself", e.source)
    if e.op == "next":
        _step(g, frame, eid, e)
        return
    program = g.interp.statements.get(eid)
    if program is None:
        assert e.expr is not None
        program = g.interp.statements[eid] = g.interp.program(e.expr, e.source)
    run = program.run
    # a statement that asks is run with answers of its own (the ones given so far), so
    # that a choice still to make comes back as NeedChoice to be asked
    answers = Answers(frame.answers) if program.asks else NO_ANSWERS
    op = e.op
    try:
        if op == "call":
            s._changed |= g.effect_writes[eid]
            run(env, s, answers)
            del ids[0]
        elif op == "if":
            cond = run(env, s, answers)
            frame.statements = list(g.effect_body[eid] if cond else g.effect_orelse[eid]) + ids[1:]
        elif op == "let":
            env[str(e.name)] = run(env, s, answers)
            del ids[0]
        elif op == "for":
            items = run(env, s, answers)
            if not isinstance(items, list):
                raise EngineError(f"`for` goes over a list, not {items!r}", e.source)
            # the items left and the name's value before the loop, under the loop's key;
            # its step (the statement after it) runs the body once per item
            name, step = str(e.name), g.effect_step[eid]
            env[f"#{step}"] = [list(items), [env[name]] if name in env else []]
            ids[0] = step
        else:
            raise EngineError(f"unknown statement {e.op!r}", e.source)
        frame.answers = []
    except EngineError as err:
        if err.source is not None:
            raise
        # a primitive that refuses from inside its rules module knows no line: the
        # statement that called it is where the author looks
        raise EngineError(err.message, e.source) from err
    except NeedChoice as nc:
        if not nc.options:
            # Nothing to choose from: the choice lapses, and with it the rest of this block
            # (a later statement may need the value it would have given): up to the step
            # of the loop it stands in, which goes on with the next item, or to the end.
            steps = [k for k, x in enumerate(frame.statements) if g.effects[x].op == "next"]
            del frame.statements[:steps[0] if steps else len(frame.statements)]
            frame.answers = []
            return
        frame.waiting = [nc.primitive, nc.player, nc.options]


def _step(g: Game, frame: Effects, eid: int, e: Any) -> None:
    """A loop's step: the next item bound to the loop's name and the body queued before
    the step again; past the last item, the name's value from before the loop."""
    key, name = f"#{eid}", str(e.name)
    left, before = frame.env[key]
    if not left:
        del frame.env[key]
        if before:
            frame.env[name] = before[0]
        else:
            frame.env.pop(name, None)
        del frame.statements[0]
        return
    frame.env[name] = left.pop(0)
    frame.statements[:0] = g.effect_body[eid]


# ---- continuations: flow steps queued behind hooks ------------------------------------------


@dataclass
class NextTurn(Prompt):
    """The turn has ended: once its hooks have run, the next one starts."""

    KIND: ClassVar[str] = "next_turn"

    def step(self, s: State) -> bool:
        s.pending.pop()
        _next_turn(s)
        return True


@dataclass
class EndSetup(Prompt):
    """The set-up is over: once its hooks have run, the first turn starts."""

    KIND: ClassVar[str] = "end_setup"

    def step(self, s: State) -> bool:
        s.pending.pop()
        s.stage = "turn"
        s.turn_player = s.start_player  # A.4.5
        s.turns = 1
        s.phase = 0
        s.emit("turn_started", {"player": s.turn_player})
        s.emit("setup_ended", {})
        return True


@dataclass
class BetweenTurns(Prompt):
    """The turn has ended and the ruleset has a phase `between turns`: each of `players`
    (first first: the others in turn order, from the active player's left) may take its
    activities, then passes; a player with nothing to do there is skipped."""

    KIND: ClassVar[str] = "between_turns"
    players: list[int]

    def check(self, game: Game) -> str:
        if not game.between_turns or not seats_ok(game, *self.players):
            return "players must be seats, in a game with a phase between turns"
        return super().check(game)

    def _offers(self, s: State, p: int) -> list[int]:
        out: list[int] = []
        for a, names in s.game.between_turns:
            out += a.legal(s, p, names)
        return out

    def step(self, s: State) -> bool:
        while self.players and not self._offers(s, self.players[0]):
            del self.players[0]
        if self.players:
            return False
        s.pending.pop()
        return True

    def actor(self, s: State) -> int:
        return self.players[0]

    def legal(self, s: State) -> list[int]:
        return self._offers(s, self.players[0]) + [s.game.pass_id]

    def apply(self, s: State, act: Action) -> None:
        if isinstance(act, Pass):
            del self.players[0]
            return
        kind = type(act)
        s.game.activity_of[kind].applies[kind](s, self.players[0], act)

    def refusal(self, s: State, act: Action) -> IllegalAction | None:
        a = s.game.activity_of.get(type(act))
        if a is None or not any(a is b for b, _ in s.game.between_turns):
            return None
        return a.refusal(s, self.players[0], act) if a.refusal is not None else None


def _next_turn(s: State) -> None:
    g = s.game
    if s.turns >= g.turn_limit:
        _over(s, "turn_limit")
        return
    s.turns += 1
    s.turn_player = (s.turn_player + 1) % g.num_players
    s.phase = 0
    s.roll_requested = False
    s.played_turn = [0] * len(g.decks)
    s.new_cards = [0] * len(g.cards)
    s.offers_made = 0
    s.offers_declined = []
    s.acted = [0] * len(g.custom_actions)
    s.turn_rolls = []
    if g.turn_counters:
        for row in s.counters:
            for k in g.turn_counters:
                row[k] = 0
    s.emit("turn_started", {"player": s.turn_player})


def _over(s: State, reason: str, winner: int = -1) -> None:
    s.stage = "over"
    s.reason = reason
    s.winner = winner
    s.pending = []


# ---- the standing prompts ---------------------------------------------------------------------


class Setup(Prompt):
    """The set-up rounds: first the draw of the start player (a chance node), then each
    step of `game.setup_script` in turn. A step with no legal site is skipped."""

    legal_sorted: ClassVar[bool] = True

    def step(self, s: State) -> bool:
        g = s.game
        if s.start_player < 0:
            return False
        if s.setup_pos >= len(g.setup_script):
            s.pending.append(EndSetup())
            return True
        p, step = setup_entry(s)
        if step.action == "collect":
            corner = s.last_corner[p]
            placement.collect(s, p, corner, step.count)
            s.setup_pos += 1
            if corner >= 0 and s.corner_owner[corner] == p:
                # rules pay what `collect` does not (terrains of choice)
                s.emit("collected", {"player": p, "piece": g.pieces[s.corner_piece[corner]].name,
                                     "at": location("intersection", corner)})
            return True
        if step.action == "harbor":  # B.9: draw a harbor token and lay it on a spot
            s.setup_pos += 1
            if harbors.can_place(s):
                s.push(harbors.PlacingHarbor(p, -1))
            return True
        if step.action != "place":
            raise EngineError(f"set-up step {step.action!r} is not supported", step.source)
        if not self.legal(s):
            s.setup_pos += 1
            return True
        return False

    def outcomes(self, s: State) -> list[tuple[int, float]]:
        n = s.game.num_players
        return [(s.game.action_id[StartPlayer(p)], 1 / n) for p in range(n)]

    def actor(self, s: State) -> int:
        return setup_entry(s)[0]

    def legal(self, s: State) -> list[int]:
        # `step` found them last (to skip a step with nowhere to place): the same position
        when = (s.actions_applied, s.setup_pos)
        kept = s._setup_legal
        if kept is not None and kept[0] == when:
            return kept[1]
        p, step = setup_entry(s)
        out: list[int] = []
        for name in step.pieces:
            out += placement.targets(s, p, s.game.piece_index[name], "setup", step)
        if out and step.optional:
            out.append(s.game.action_id[Pass()])
        out.sort()
        s._setup_legal = (when, out)
        return out

    def apply(self, s: State, act: Action) -> None:
        if isinstance(act, StartPlayer):
            s.start_player = act.player
            s.chance_count += 1
            return
        if isinstance(act, Pass):
            p = setup_entry(s)[0]
            s.setup_pos += 1
            # nothing placed: a later step `touching last` or `collect last` has nothing to go by
            s.last_corner[p] = s.last_path[p] = -1
            return
        assert isinstance(act, placement.Build)
        p = setup_entry(s)[0]
        s.setup_pos += 1
        placement.apply_build(s, p, act)

    def refusal(self, s: State, act: Action) -> IllegalAction | None:
        return placement.refusal(s, setup_entry(s)[0], act, "setup")


def setup_entry(s: State) -> tuple[int, Any]:
    """(player, step) at the set-up position: the script counts seats from the start player."""
    g = s.game
    p, ri, si = g.setup_script[s.setup_pos]
    return (p + s.start_player) % g.num_players, g.setup_steps[ri][si]


class Turn(Prompt):
    """The active player's turn, in the phase `state.phase` (see the module docstring)."""

    legal_sorted: ClassVar[bool] = True

    def actor(self, s: State) -> int:
        return s.turn_player

    def outcomes(self, s: State) -> list[tuple[int, float]]:
        return s.game.roll_source.outcomes(s)

    def legal(self, s: State) -> list[int]:
        g = s.game
        p = s.turn_player
        out: list[int] = []
        for a, names in g.reachable[s.phase]:
            out += a.legal(s, p, names)
        out.append(g.turn_last[s.phase])  # the dice or the end of the turn (Game.turn_last)
        out.sort()
        return out

    def apply(self, s: State, act: Action) -> None:
        g = s.game
        kind = type(act)
        if kind in g.roll_source.answers:
            _rolled(s, *g.roll_source.reveal(s, act))
        elif kind is RollDice:
            s.phase = g.roll_phase
            s.roll_requested = True
        elif kind is EndTurn:
            s.pending.append(NextTurn())
            if g.between_turns:  # after the turn's own hooks, before the next turn
                n = g.num_players
                s.pending.append(BetweenTurns([(s.turn_player + k) % n for k in range(1, n)]))
            s.emit("turn_ended", {"player": s.turn_player})
        else:
            s.phase = g.phase_for(s.phase, act)
            g.activity_of[kind].applies[kind](s, s.turn_player, act)

    def refusal(self, s: State, act: Action) -> IllegalAction | None:
        a = s.game.activity_of.get(type(act))
        if a is None or a.refusal is None or not any(a is b for b, _ in s.game.reachable[s.phase]):
            return None
        return a.refusal(s, s.turn_player, act)


def _rolled(s: State, total: int, event: str, faces: tuple[int, ...]) -> None:
    """The roll came up (the dice, or a roll card with perhaps an event). A card's event
    runs before the roll's own hooks (production); a card whose total the dice would roll
    again (`reroll`) has its event, then another card is revealed. With `rolls N`, the
    next roll comes once this one's rules have run (after the turn's phase `between
    rolls`, where it has one); with `rolls N distinct`, a card
    showing a total already rolled this turn is laid aside unresolved and another is
    revealed (the dice's outcomes leave such totals out)."""
    g = s.game
    s.chance_count += 1
    s.fixed_roll = 0  # a fixed roll holds for one roll (rules/dice.py)
    repeated = g.dice_distinct and total in s.turn_rolls
    if total in g.rerolled or repeated:  # only a card shows one: the dice never stop there
        s.phase = g.roll_phase
        s.roll_requested = True  # still the roll phase, at the chance node again
        if repeated:
            event = ""
    else:
        s.roll_requested = False
        s.last_roll = total
        if faces:  # named dice (a roll card shows a total only: the faces stay)
            s.last_faces = list(faces)
        s.phase = g.roll_phase + 1
        if g.dice_rolls > 1:
            s.turn_rolls.append(total)
            if len(s.turn_rolls) < g.dice_rolls:  # the next roll: at once, or after a phase between
                s.phase = g.roll_phase if g.between_rolls < 0 else g.between_rolls
                s.roll_requested = g.between_rolls < 0
        s.emit("dice_rolled", {"player": s.turn_player, "roll": total})
    if event:  # pushed last, so its hooks run first
        s.emit("card_revealed", {"player": s.turn_player, "event": event, "roll": total})


class Over(Prompt):
    """The game is over: nobody acts."""

    def actor(self, s: State) -> int:
        return TERMINAL

    def legal(self, s: State) -> list[int]:
        return []


SETUP, TURN, OVER = Setup(), Turn(), Over()
STANDING: dict[str, Prompt] = {"setup": SETUP, "turn": TURN, "over": OVER}


def is_chance(s: State, top: Prompt) -> bool:
    """Whether the decision `top` is a chance node now."""
    if top.chance:
        return True
    if top is SETUP:
        return s.start_player < 0
    if top is TURN and s.game.phases[s.phase].rolls:
        if s.roll_requested:
            return True
        # Before the dice the player is asked whenever something may be done, judged
        # as the other seats see it where the activity says how (`Activity.asks`: any
        # card held, not a playable one), so that a decision here, rather than the
        # dice at once, gives away nothing of the player's hand.
        p = s.turn_player
        for a, names in s.game.reachable[s.phase]:
            if a.asks(s, p, names) if a.asks is not None else a.legal(s, p, names):
                return False
        return True  # nothing to do before the dice: they are rolled
    return False


# ---- the loop -------------------------------------------------------------------------------


def advance(s: State) -> None:
    """Run everything that needs no decision, up to the next decision or chance node."""
    while s.stage != "over":
        pending = s.pending  # (a step may put a new list there: the game's end)
        top = pending[-1] if pending else STANDING[s.stage]
        if top.waits or not top.step(s):
            return


def legal(s: Running) -> list[int]:
    if s.stage == "over":
        return []
    if s._chance if s._chance is not None else s.is_chance_node():
        return [a for a, _ in s._outcomes_now()]
    top = s.pending[-1] if s.pending else STANDING[s.stage]
    return top.legal(s) if top.legal_sorted else sorted(top.legal(s))


def action_id(s: State, action: object) -> int:
    """The id of an action given as an id or an Action; IllegalAction if the game has none
    (anything else too: declared `object` so that a compiled build checks it here)."""
    g = s.game
    if isinstance(action, Action):
        aid = g.action_id.get(action, -1)
        if aid < 0:
            why = action.absent(g)
            if why:
                raise IllegalAction("action/invalid_target", f"{action.KIND} {why}")
            at = getattr(action, "at", None)
            piece = getattr(action, "piece", None)
            if isinstance(piece, str) and piece in g.piece_index and at is not None:
                raise IllegalAction("action/invalid_target",
                                    f"{action.KIND} {piece} at {at}: a {piece} never stands there")
            raise IllegalAction("action/unknown", f"no action {action!r} in this game")
        return aid
    if type(action) is int and 0 <= action < len(g.actions):
        return action  # (an id, as a rule: what legal_actions gives)
    if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action < len(g.actions):
        raise IllegalAction("action/unknown", f"no action {action!r} in this game "
                            f"(ids are 0..{len(g.actions) - 1})")
    return action


def apply(s: Running, aid: int, player: int | None) -> None:
    g = s.game
    if s.stage == "over":
        raise IllegalAction("action/game_over", "the game is over")
    if player is not None and player != s.current_player():
        raise IllegalAction("action/not_your_turn",
                            f"player {player} may not act now; player {s.current_player()} is to act")
    if s._chance if s._chance is not None else s.is_chance_node():  # one of the outcomes
        for a, _ in (s._outcomes if s._outcomes is not None else s._outcomes_now()):
            if a == aid:
                break
        else:
            raise refusal(s, aid)
    else:  # a decision's legal actions are sorted
        legal = s._legal if s._legal is not None else s.legal_now()
        k = bisect_left(legal, aid)
        if k == len(legal) or legal[k] != aid:
            raise refusal(s, aid)
    s._legal = s._chance = s._outcomes = None
    s._steps = 0
    act = g.actions[aid]
    s._changed |= g.action_writes[aid]
    top = s.pending[-1] if s.pending else STANDING[s.stage]
    # An action that changes its prompt alone leaves the fields as they were if nothing
    # else ran: no rule statement, no award counted, no step of the flow (the prompt is
    # still the top and one that waits), no end; otherwise the fields count as written.
    prompt_only, alone = act.PROMPT_ONLY, False
    if not prompt_only:
        s._writes += 1
    try:
        top.apply(s, act)
        s.actions_applied += 1
        advance(s)
        changed = s._changed
        if changed & g.award_parts:
            scoring.update_awards(s)
        else:
            s._changed = 0
        # the end: victory, unless the player whose turn it is was found short of it since
        # an action last wrote something victory reads; then the action limit
        if s.stage == "turn":
            if changed & g.victory_parts:
                s._short = 0
            if not s._short >> s.turn_player & 1:
                _check_victory(s)
        if s.stage != "over" and s.actions_applied >= g.max_actions:
            _over(s, "action_limit")
        alone = prompt_only and not changed & g.award_parts and not s._steps and s.stage != "over" and \
            bool(s.pending) and s.pending[-1] is top and top.waits
    except EngineError:
        # A rule could not run (its line is in the error): the game ends here rather than
        # go on with a rule half applied.
        _over(s, "rule_error")
        raise
    finally:
        s._legal = s._chance = s._outcomes = None  # anything computed while the action ran is stale
        if prompt_only and not alone:
            s._writes += 1


def _check_victory(s: Running) -> None:
    winner = scoring.winner_now(s)
    if winner >= 0:
        _over(s, "victory", winner)
    else:  # (with `victory_check any_turn` every player was looked at)
        s._short |= (1 << s.game.num_players) - 1 if s.game.victory_any_turn else 1 << s.turn_player


def refusal(s: Running, aid: int) -> IllegalAction:
    """Why action `aid` is not legal now: the deciding prompt's own reason if it has
    one, else `action/not_legal`."""
    act = s.game.actions[aid]
    text = s.action_to_string(aid)
    why = None if s.is_chance_node() else s._top().refusal(s, act)
    return why or IllegalAction("action/not_legal", f"{text} is not legal now")
