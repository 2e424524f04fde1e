"""The shape of play: `turn` (phases and what each allows), `dice`, `victory` (a points
target or a condition) and `victory_check`, and a scenario's own `action`s."""

from __future__ import annotations

from catandsl.compiler.context import (
    Shape,
    did_you_mean,
    digits_value,
    name_and_title,
    need_number,
    need_word,
    no_block,
    no_more,
    single_number,
    source_of,
    terms,
)
from catandsl.compiler.lowering import Lowering
from catandsl.compiler.scopes import Scope
from catandsl.ir import model
from catandsl.rules.base import ACTIVITIES
from catandsl.rules.dice import MAX_OUTCOMES
from catandsl.syntax import ast

# what a phase's activity may name, by the kind its `names` says
NAME_KIND = {"piece": "piece", "deck": "deck", "trade": "trade", "action": "action", "project": "project"}
VICTORY_CHECKS = ("own_turn", "any_turn")
MAX_DICE, MAX_SIDES = 10, 100


# ---- turn --------------------------------------------------------------------------------


def lower_turn(low: Lowering, e: ast.Entry, chosen: dict[str, str] | None = None) -> model.Turn | None:
    """`turn { phase roll { roll; play }  phase main { trade; build; buy; play; move } }`;
    `chosen`: the items this turn was read with, where `when` blocks inside it chose its
    lines (declarations.chosen_entry)."""
    assert e.block is not None
    phases: list[model.Phase] = []
    seen: dict[str, ast.Word] = {}
    first_between: ast.Word | None = None
    first_between_rolls: ast.Word | None = None
    for st in e.block.stmts:
        try:
            if not isinstance(st, ast.Entry) or st.head.name != "phase":
                raise Shape(st.span, "a turn lists its phases: `phase NAME { ACTIVITY; ... }`",
                            help="turn { phase roll { roll; play }; phase main { trade; build; buy; play; move } }")
            items = terms(st)
            name = need_word(items, 0, st, "the phase's name")
            between_what = _between(items)
            between = between_what == "turns"
            no_more(items, 3 if between_what else 1, "phase")
            if name.name in seen:
                raise Shape(name.span, f"phase `{name.name}` appears twice in the turn")
            seen[name.name] = name
            if st.block is None or not st.block.stmts:
                if chosen and st.block is not None:
                    when = ", ".join(f"`{o}` is `{i}`" for o, i in sorted(chosen.items()))
                    raise Shape(st.span, f"phase `{name.name}` allows nothing when {when}",
                                help="put the whole phase inside the `when` that keeps its lines")
                raise Shape(st.span, f"phase `{name.name}` needs a block of what it allows",
                            help="phase main { trade; build; buy; play; move }")
            allows = [a for a in (_allow(low, a) for a in st.block.stmts) if a is not None]
            if between_what == "rolls":
                if first_between_rolls is not None:
                    raise Shape(name.span, "only one phase of a turn may be taken `between rolls`",
                                help=f"phase `{first_between_rolls.name}` is already between rolls")
                first_between_rolls = name
                if any(a.activity == "roll" for a in allows):
                    raise Shape(st.span, f"phase `{name.name}` is between rolls: the next roll ends it, "
                                "so it does not allow `roll`", help="leave `roll` to the turn's roll phase")
            if between:
                if first_between is not None:
                    raise Shape(name.span, "only one phase of a turn may be taken `between turns`",
                                help=f"phase `{first_between.name}` is already between turns")
                first_between = name
                _between_allows(low, name, st, allows)
            phases.append(model.Phase(name.name, tuple(allows), source_of(st.span), between,
                                      between_what == "rolls"))
        except Shape as err:
            low.ctx.error("E0304", err.message, err.span, help=err.help)
    own = [p for p in phases if not p.between_turns and not p.between_rolls]  # the active player's phases
    rolls = [p for p in own if any(a.activity == "roll" for a in p.allows)]
    if len(rolls) > 1:
        low.ctx.error("E0304", "only one phase of a turn may allow `roll`", e.span,
                      help=f"phases {', '.join(p.name for p in rolls)} all roll")
    if not own:
        low.ctx.error("E0305", "a turn needs at least one phase of its own (not between turns)", e.span,
                      help="turn { phase roll { roll }; phase main { build } }")
        return None
    return model.Turn("turn", tuple(phases), source_of(e.span))


# what the other players may do between turns: nothing that counts per turn (cards played,
# offers made, actions taken, ship moves are the active player's) and no dice
BETWEEN_TURNS = ("build", "buy", "projects", "trade")


def _between(items: list) -> str:
    """`phase NAME between turns { ... }`, `phase NAME between rolls { ... }`: the words
    after the name ("turns", "rolls", or "" for a phase of the turn's sequence)."""
    words = [t.name if isinstance(t, ast.Word) else None for t in items[1:3]]
    if words in (["between", "turns"], ["between", "rolls"]):
        return str(words[1])
    if words[:1] == ["between"]:
        raise Shape(items[1].span, "write `phase NAME between turns { ... }` or `phase NAME between rolls { ... }`",
                    help="phase special_build between turns { build; buy }")
    return ""


def _between_allows(low: Lowering, name: ast.Word, st: ast.Entry, allows: list[model.Allow]) -> None:
    """A phase between turns allows building, buying, projects and trade with the bank."""
    for a in allows:
        if a.activity not in BETWEEN_TURNS:
            raise Shape(st.span, f"phase `{name.name}` is between turns, where the other players may "
                        f"not `{a.activity}`", help="between turns, a phase allows " +
                        ", ".join(f"`{w}`" for w in BETWEEN_TURNS[:-1]) + " and `trade bank`")
        if a.activity == "trade" and a.names != ("bank",):
            raise Shape(st.span, f"phase `{name.name}` is between turns: its trade is with the bank only",
                        help="write `trade bank`")


def _allow(low: Lowering, st: ast.Node) -> model.Allow | None:
    """One line of a phase: an activity, optionally restricted to names (`move ship`),
    or the name of one of the scenario's own actions."""
    if not isinstance(st, ast.Entry) or st.block is not None or st.where is not None:
        low.ctx.error("E0301", "a phase lists what it allows: `trade`, `build road, settlement`, ...", st.span)
        return None
    word = st.head.name
    names = [t for ph in st.phrases for t in ph.terms]
    if word not in ACTIVITIES:
        if low.ctx.is_declared("action", word) and not names:
            return model.Allow("actions", (word,))
        known = sorted(ACTIVITIES) + sorted(low.ctx.declared.get("action", {}))
        low.ctx.error("E0308", f"a phase cannot allow `{word}`: it is no activity and no declared action",
                      st.head.span, help=did_you_mean(word, known) or "activities: " + ", ".join(sorted(ACTIVITIES)))
        return None
    kind = ACTIVITIES[word].names
    if names and kind is None:
        low.ctx.error("E0304", f"`{word}` takes no names", names[0].span)
        return None
    out = []
    for t in names:
        if not isinstance(t, ast.Word):
            low.ctx.error("E0304", f"`{word}` lists {kind} names", t.span)
            return None
        assert kind is not None
        low.ctx.refer(NAME_KIND[kind], t, context=f"`{word}` in a phase")
        out.append(t.name)
    return model.Allow(word, tuple(out))


# ---- dice ----------------------------------------------------------------------------------


def lower_dice(low: Lowering, e: ast.Entry) -> None:
    """`dice 2d6`, `dice 2d6 { reroll 2, 12 }`, `dice 2d6 { rolls 2 distinct }` (rolled
    twice a turn, the second total differing from the first), `dice 2d6 { named red, white }`
    (each die's face is part of the roll, for `die(red)`)"""
    if e.where is not None:
        raise Shape(e.where.span, "`dice` takes no `where` condition")
    items = terms(e)
    count = need_number(items, 0, e, "how many dice (`dice 2d6`)")
    sides_word = need_word(items, 1, count, "their sides (`d6`)")
    no_more(items, 2, "dice")
    if not sides_word.name.startswith("d") or not sides_word.name[1:].isdigit():
        raise Shape(sides_word.span, f"write the dice as `2d6`, not `{count.value}{sides_word.name}`")
    sides = digits_value(sides_word.name[1:])
    if sides is None or not 1 <= count.value <= MAX_DICE or not 2 <= sides <= MAX_SIDES:
        raise Shape(e.span, f"dice are 1 to {MAX_DICE} dice of 2 to {MAX_SIDES} sides")
    if sides ** count.value > MAX_OUTCOMES:
        raise Shape(e.span, f"{count.value}d{sides} has {sides ** count.value:,} combinations to weigh; "
                    f"the limit is {MAX_OUTCOMES:,}")
    reroll: list[int] = []
    rolls, distinct = 1, False
    names: list[ast.Word] = []
    for st in (e.block.stmts if e.block is not None else ()):
        if isinstance(st, ast.Entry) and st.head.name == "rolls" and st.block is None:
            rolls, distinct = _rolls(st)
            continue
        if isinstance(st, ast.Entry) and st.head.name == "named" and st.block is None:
            names = _die_names(st, count.value)
            continue
        if not isinstance(st, ast.Entry) or st.head.name != "reroll" or st.block is not None:
            raise Shape(st.span, "a `dice` block holds `reroll 2, 12`, `rolls 2 distinct` and `named red, white`")
        for ph in st.phrases:
            if len(ph.terms) != 1 or not isinstance(ph.terms[0], ast.Number):
                raise Shape(ph.span, "`reroll` lists totals: `reroll 2, 12`")
            reroll.append(ph.terms[0].value)
    possible = set(range(count.value, count.value * sides + 1))
    if possible <= set(reroll):
        raise Shape(e.span, "every total is rerolled: the dice could never stop")
    if distinct and len(possible - set(reroll)) < rolls:
        raise Shape(e.span, f"{rolls} distinct totals a turn, but only {len(possible - set(reroll))} "
                    "totals are kept: the dice could never stop")
    low.declare_once("dice", ast.Word(e.head.span, "dice"))
    for w in names:
        low.ctx.declare("die", w.name, w.span)  # the names `die(NAME)` reads
    low.emit(model.Dice("dice", count.value, sides, tuple(sorted(set(reroll))), source_of(e.span),
                        rolls, distinct, tuple(w.name for w in names)))


def _die_names(st: ast.Entry, count: int) -> list[ast.Word]:
    """`named red, white`: one name per die, in the order the roll lists their faces."""
    names: list[ast.Word] = []
    for ph in st.phrases:
        if len(ph.terms) != 1 or not isinstance(ph.terms[0], ast.Word):
            raise Shape(ph.span, "`named` lists one name per die: `named red, white`")
        w = ph.terms[0]
        if any(w.name == n.name for n in names):
            raise Shape(w.span, f"two dice are named `{w.name}`")
        names.append(w)
    if len(names) != count:
        raise Shape(st.span, f"{count} dice, but `named` names {len(names)}",
                    help="name every die, in order: `named " + ", ".join(f"die{k + 1}" for k in range(count)) + "`")
    return names


MAX_ROLLS = 4  # rolls of the dice a turn


def _rolls(st: ast.Entry) -> tuple[int, bool]:
    """`rolls 2` or `rolls 2 distinct`."""
    items = terms(st)
    n = need_number(items, 0, st, "how many rolls a turn")
    if not 1 <= n.value <= MAX_ROLLS:
        raise Shape(n.span, f"the dice are rolled 1 to {MAX_ROLLS} times a turn, not {n.value}")
    distinct = False
    if len(items) > 1:
        w = need_word(items, 1, n, "`distinct`")
        if w.name != "distinct":
            raise Shape(w.span, f"write `rolls {n.value} distinct`, not `{w.name}`")
        distinct = True
    no_more(items, 2, "rolls")
    return n.value, distinct


# ---- roll cards ----------------------------------------------------------------------------

MAX_ROLL_CARDS = 1000  # cards in a deck revealed in place of the dice


def lower_roll_cards(low: Lowering, e: ast.Entry) -> None:
    """`roll_cards { card 2 windfall; card 3 x2; card 7 x6; new_year 5 }`"""
    if e.where is not None or e.phrases:
        raise Shape(e.span, "write `roll_cards { card TOTAL [EVENT] [xN] ... }`")
    if e.block is None or not e.block.stmts:
        raise Shape(e.span, "`roll_cards` needs a block of cards",
                    help="roll_cards { card 2 windfall; card 3 x2; card 7 x6; new_year 5 }")
    low.declare_once("roll_cards", ast.Word(e.head.span, "roll_cards"))
    cards: list[model.RollCard] = []
    unused: int | None = None
    for st in e.block.stmts:
        try:
            if not isinstance(st, ast.Entry) or st.block is not None or st.where is not None or \
                    st.head.name not in ("card", "new_year"):
                raise Shape(st.span, "a `roll_cards` block holds `card TOTAL [EVENT] [xN]` and `new_year N`")
            if st.head.name == "new_year":
                if unused is not None:
                    raise Shape(st.span, "`new_year` appears twice")
                unused = single_number(st, 0, MAX_ROLL_CARDS).value
                continue
            cards.append(_roll_card(low, st))
        except Shape as err:
            low.ctx.error("E0309", err.message, err.span, help=err.help)
    whole = sum(c.count for c in cards)
    if cards and whole > MAX_ROLL_CARDS:
        low.ctx.error("E0309", f"{whole:,} cards; a deck holds at most {MAX_ROLL_CARDS:,}", e.span)
    elif cards and (unused or 0) >= whole:
        low.ctx.error("E0309", f"{unused} unused cards leave none of the {whole} to reveal", e.span,
                      help="`new_year N` lays N cards under the New Year card: fewer than the deck holds")
    if not cards:
        low.ctx.error("E0309", "`roll_cards` needs at least one card", e.span)
        return
    low.emit(model.RollCards("roll_cards", tuple(cards), unused or 0, source_of(e.span)))


def _roll_card(low: Lowering, st: ast.Entry) -> model.RollCard:
    """`card 6`, `card 6 x2`, `card 6 drought`, `card 6 drought x2`"""
    items = list(terms(st))
    count = 1
    if items and isinstance(items[-1], ast.Repeat):
        last = items[-1]
        assert isinstance(last, ast.Repeat)
        count = last.count
        items[-1] = last.term
    if not 1 <= len(items) <= 2 or not isinstance(items[0], ast.Number) or \
            (len(items) == 2 and not isinstance(items[1], ast.Word)):
        raise Shape(st.span, "a card is its total, then perhaps its event: `card 6 drought x2`")
    total = items[0].value
    if not 0 <= total <= 1000 or not 1 <= count <= MAX_ROLL_CARDS:
        raise Shape(st.span, f"a card's total is 0..1000 and its count 1..{MAX_ROLL_CARDS}")
    event = ""
    if len(items) == 2:
        word = items[1]
        assert isinstance(word, ast.Word)
        event = word.name
        low.ctx.declare("event", event, word.span)  # the name `on card_revealed(EVENT)` filters on
    return model.RollCard(total, event, count)


def lower_measure(low: Lowering, e: ast.Entry) -> None:
    """`measure knights played(player, [knight])`"""
    items = terms(e)
    name = need_word(items, 0, e, "the measure's name")
    if e.where is not None or e.block is not None or len(items) != 2 or not isinstance(items[1], ast.Call):
        raise Shape(e.span, "write `measure NAME QUERY`, the query reading `player`",
                    help="measure knights played(player, [knight])")
    low.declare_once("measure", name)
    call = items[1]

    def make() -> model.Measure:
        expr, t = low.hooks.value(call, Scope({"player": "player"}, low.hooks.names), "a measure")
        if t not in ("int", "any"):
            low.ctx.error("E0504", f"a measure is a number, not {t}", call.span)
        return model.Measure(name.name, expr, source_of(e.span))
    low.later(make)


# ---- victory -------------------------------------------------------------------------------


def lower_victory(low: Lowering, e: ast.Entry, setting) -> None:
    """`victory 10`, `victory OPTION`, or `victory "Title" where CONDITION`."""
    items = terms(e)
    if not (len(items) == 1 and isinstance(items[0], ast.Str)):
        setting(low, e)  # a points target
        return
    if e.block is not None:
        raise Shape(e.block.span, "`victory` takes no block")
    if e.where is None:
        raise Shape(e.span, f'write `victory "{items[0].value}" where CONDITION`, with `player` the player',
                    help='victory "Lord of the seas" where islands_with(player, "home") >= 3')
    title, where = items[0].value, e.where
    name = "victory:" + "".join(c if c.isalnum() else "_" for c in title.lower())
    low.declare_once("victory", ast.Word(items[0].span, name))

    def make() -> model.Victory:
        expr, t = low.hooks.value(where, Scope({"player": "player"}, low.hooks.names), "a victory condition")
        if t not in ("bool", "any"):
            low.ctx.error("E0504", f"a victory condition must be true or false, not {t}", where.span)
        return model.Victory(name, title, expr, source_of(e.span))

    low.later(make)


def lower_victory_check(low: Lowering, e: ast.Entry) -> None:
    """`victory_check own_turn` (the default) or `victory_check any_turn`."""
    no_block(e)
    items = terms(e)
    w = need_word(items, 0, e, "`own_turn` or `any_turn`")
    no_more(items, 1, "victory_check")
    if w.name not in VICTORY_CHECKS:
        raise Shape(w.span, f"victory is checked `own_turn` or `any_turn`, not `{w.name}`",
                    help=did_you_mean(w.name, VICTORY_CHECKS))
    low.declare_once("setting", ast.Word(e.head.span, "victory_check"))
    low.emit(model.Setting("victory_check", w.name, None, source_of(e.span)))


# ---- a scenario's own actions -----------------------------------------------------------------


def declare_action(low: Lowering, e: ast.Entry) -> None:
    """`action NAME "Title" { cost ...; per_turn N; on take if COND { EFFECTS } }`"""
    name, title = name_and_title(e, "action")
    if e.block is None or e.where is not None:
        raise Shape(e.span, f"action `{name.name}` needs a block: `{{ cost ...; on take {{ ... }} }}`")
    if name.name in ACTIVITIES:
        raise Shape(name.span, f"`{name.name}` is an activity of the turn; give the action another name")
    low.declare_once("action", name)
    block = e.block
    # the rule holding `on take` goes into the same section as the action (a `for` or
    # `when` variant), right after it, like a deck's rules
    rules: list[model.Rule] = []
    low.later(lambda: _lower_action(low, name, title, block, e.span, rules))
    low.later(lambda: rules.pop(0) if rules else None)


def _lower_action(low: Lowering, name: ast.Word, title: str, block: ast.Block, span,
                  rules: list[model.Rule]) -> model.CustomAction | None:
    from catandsl.compiler.costs import lower_cost

    cost: tuple[model.Amount, ...] = ()
    token_cost: tuple[model.Amount, ...] = ()
    varying: tuple[model.VaryingAmount, ...] = ()
    per_turn = 1
    condition = None
    hooks: list[model.Hook] = []
    for st in block.stmts:
        try:
            if isinstance(st, ast.Cost):
                both, varying = lower_cost(low, st, tokens=True)  # `cost 2 coin`: tokens too
                cost = tuple(a for a in both if not low.ctx.is_declared("token", a.name))
                token_cost = tuple(a for a in both if low.ctx.is_declared("token", a.name))
            elif isinstance(st, ast.Entry) and st.head.name == "per_turn":
                no_block(st)
                per_turn = single_number(st).value
                if not 1 <= per_turn <= 100:
                    raise Shape(st.span, "`per_turn` is 1 to 100")
            elif isinstance(st, ast.Hook) and st.event.name == "take":
                if st.filters:
                    raise Shape(st.filters[0].span, "`on take` takes no filter")
                h = low.hooks.hook(st, event_override=("action_taken", name.name))
                if h is not None:
                    condition = condition if h.condition is None else h.condition
                    hooks.append(model.Hook(h.event, h.filters, None, h.effects, h.source))
            else:
                raise Shape(st.span, "an action holds `cost ...`, `per_turn N` and `on take { ... }`")
        except Shape as err:
            low.ctx.error("E0304", err.message, err.span, help=err.help)
    if not hooks:
        low.ctx.error("E0305", f"action `{name.name}` does nothing: add `on take {{ ... }}`", name.span)
        return None
    if len(hooks) > 1:
        low.ctx.error("E0303", f"action `{name.name}` has more than one `on take`", name.span)
    rules.append(model.Rule(f"action:{name.name}", tuple(hooks), "action", source_of(span)))
    return model.CustomAction(name.name, title, cost, per_turn, condition, source_of(span), token_cost, varying)
