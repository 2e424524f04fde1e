"""AST bodies -> IR declarations, one handler per head word.

Each block kind (the body of a ruleset or scenario, a piece, a deck, ...) has an
explicit table from head word to handler; an unknown word is a diagnostic with a
"did you mean", never an attribute lookup. Handlers raise `Shape` for a malformed entry;
it is reported and the walk goes on, so one run reports every error of a file.
"""

from __future__ import annotations

import re
from dataclasses import replace
from itertools import product

from catandsl.compiler import defines, maps, projects, supplies, turns
from catandsl.compiler.context import (
    Context,
    Shape,
    did_you_mean,
    in_range,
    need_number,
    need_word,
    no_block,
    no_more,
    single_number,
    source_of,
    terms,
    word_list,
)
from catandsl.compiler.hooks import HookLowering
from catandsl.compiler.lowering import Lowering, Pending, SectionBuilder
from catandsl.ir import model
from catandsl.syntax import ast

DECL_KINDS_BY_WORD = {
    "piece": "piece", "award": "award", "rule": "rule", "deck": "deck", "trade": "trade",
    "resource": "resource", "terrain": "terrain", "setting": "setting", "param": "param",
    "special_victory": "rule", "map": "map", "setup": "setup", "turn": "turn",
    "token": "token", "site": "site", "dice": "dice", "action": "action", "project": "project",
    "measure": "measure", "counter": "counter",
}


class Declarations(Lowering):
    """The body table at work: each statement of a scenario or ruleset handed to its
    handler, inside the section its `for` or `when` opens."""

    def __init__(self, ctx: Context, hooks: HookLowering, include):
        super().__init__(ctx, hooks)
        self.include = include  # callback(stmt: Uses|Import) -> None; inlines another file
        self.options: list[model.Option] = []
        self.players: tuple[int, int, ast.Node] | None = None
        self.title: str | None = None
        self.chosen_inside: dict[str, str] = {}  # the items a declaration with `when` inside is read with

    def _guarded(self, players, choices, block: ast.Block) -> None:
        outer = self.guard
        self.sections.append(SectionBuilder(players, choices))
        self.body(block)
        self.sections.append(SectionBuilder(*outer))

    # ---- bodies --------------------------------------------------------------------
    def body(self, block: ast.Block) -> None:
        for stmt in block.stmts:
            try:
                self.stmt(stmt)
            except Shape as e:
                self.ctx.error("E0304", e.message, e.span, help=e.help)

    def stmt(self, stmt) -> None:
        if isinstance(stmt, (ast.Uses, ast.Import)):
            if self.sections[-1].players or self.sections[-1].choices:
                self.ctx.error("E0209", "`uses` and `import` cannot stand inside `for` or `when`",
                               stmt.span, help="move it to the top of the scenario")
                return
            self.include(stmt)
        elif isinstance(stmt, ast.Entry):
            handler = BODY.get(stmt.head.name)
            if handler is None:
                self.unknown(stmt.head, BODY, "declaration")
                return
            inside = whens_inside(stmt) if stmt.head.name in CHOICES_INSIDE else []
            if inside:
                self._chosen_inside(stmt, inside, handler)
            else:
                handler(self, stmt)
        elif isinstance(stmt, ast.ForPlayers):
            self._for_players(stmt)
        elif isinstance(stmt, ast.WhenOption):
            self._when(stmt)
        elif isinstance(stmt, ast.Without):
            self._without(stmt)
        elif isinstance(stmt, ast.Hook):
            node = stmt
            self.emit(Pending(lambda: self._anonymous_rule(node)))
        elif isinstance(stmt, ast.Define):
            defines.declare(self.hooks, stmt, guarded=bool(self.sections[-1].players or self.sections[-1].choices))
        else:  # cost or placement at the top level
            self.ctx.error("E0301", f"`{_stmt_word(stmt)}` belongs inside a piece or deck", stmt.span)

    # ---- variants ------------------------------------------------------------------
    def _for_players(self, stmt: ast.ForPlayers) -> None:
        if stmt.word.name != "players":
            raise Shape(stmt.word.span, f"expected `players`, found `{stmt.word.name}`",
                        help="write `for 3 players { ... }` or `for 3..4 players { ... }`")
        if stmt.low > stmt.high:
            raise Shape(stmt.span, f"the range {stmt.low}..{stmt.high} is empty")
        outer_players, choices = self.guard
        players = tuple(range(stmt.low, stmt.high + 1))
        if outer_players:
            players = tuple(p for p in players if p in outer_players)
        self._guarded(players, choices, stmt.body)

    def _when(self, stmt: ast.WhenOption) -> None:
        players, choices = self.guard
        self.ctx.refer("option", stmt.option, context="`when`")
        self.ctx.refer(f"item:{stmt.option.name}", stmt.item, context=f"option `{stmt.option.name}`")
        self._guarded(players, choices + (model.Choice(stmt.option.name, stmt.item.name),), stmt.body)

    def _chosen_inside(self, e: ast.Entry, inside: list[ast.WhenOption], handler) -> None:
        """A `turn`, `setup` or `dice` with `when` blocks inside: one declaration per choice
        of the items of the options they name, each in a section of its own (they exclude
        each other), as if each were written out under its `when`."""
        declared = {o.name: o for o in self.options}
        for w in inside:
            if w.option.name not in declared:
                raise Shape(w.option.span, f"option `{w.option.name}` is not declared before this `{e.head.name}`",
                            help=did_you_mean(w.option.name, declared) or
                            f"declare options at the top of the body, before a `{e.head.name}` that names them")
            self.ctx.refer(f"item:{w.option.name}", w.item, context=f"option `{w.option.name}`")
        players, choices = self.guard
        fixed = {c.option: c.item for c in choices}
        names = sorted({w.option.name for w in inside})
        for combo in product(*[[i.name for i in declared[n].items] for n in names]):
            chosen = dict(zip(names, combo))
            if any(fixed.get(n, item) != item for n, item in chosen.items()):
                continue  # an outer `when` rules this choice out
            self.sections.append(SectionBuilder(players, choices + tuple(
                model.Choice(n, item) for n, item in chosen.items() if n not in fixed)))
            self.chosen_inside = chosen
            try:
                handler(self, chosen_entry(e, chosen))
            except Shape as err:  # (said once: the context drops a repeated diagnostic)
                self.ctx.error("E0304", err.message, err.span, help=err.help)
            finally:
                self.chosen_inside = {}
        self.sections.append(SectionBuilder(players, choices))

    def _without(self, stmt: ast.Without) -> None:
        if stmt.name is None:
            # `without robber`: the one declaration of that name
            word = stmt.kind
            self.ctx.refer("piece|award|rule|deck|trade|action", word, context="`without`")
            for of in ("piece", "award", "rule", "deck", "trade", "action"):
                self._remove(word.name, of, stmt)
            return
        kind = DECL_KINDS_BY_WORD.get(stmt.kind.name)
        if kind is None:
            self.unknown(stmt.kind, DECL_KINDS_BY_WORD, "kind of declaration")
            return
        if kind == "rule" and stmt.kind.name == "special_victory":
            name = SPECIAL_VICTORY_PREFIX + _slug(stmt.name.name)
        else:
            name = stmt.name.name
        self.ctx.refer(kind, ast.Word(stmt.name.span, name), context="`without`")
        self._remove(name, kind, stmt)

    def _remove(self, name: str, kind: str, stmt: ast.Without) -> None:
        """Take a declaration away, with the rule that holds its hooks (a deck's cards'
        `on play`, an action's `on take`)."""
        self.emit(model.Remove(name, kind, source_of(stmt.span)))
        if kind in OWNED_RULES:
            self.emit(model.Remove(OWNED_RULES[kind] + name, "rule", source_of(stmt.span)))

    # ---- scalar declarations ----------------------------------------------------------
    def _title(self, e: ast.Entry) -> None:
        no_block(e)
        items = terms(e)
        if len(items) != 1 or not isinstance(items[0], ast.Str):
            raise Shape(e.span, "`title` takes one string", help='title "Catan"')
        self.title = self.title or items[0].value
        self.emit(model.Setting("title", items[0].value, None, source_of(e.span)))

    def _players(self, e: ast.Entry) -> None:
        no_block(e)
        items = terms(e)
        if len(items) == 1 and isinstance(items[0], ast.Range):
            low, high = items[0].low, items[0].high
        elif len(items) == 1 and isinstance(items[0], ast.Number):
            low = high = items[0].value
        else:
            raise Shape(e.span, "`players` takes a count or a range", help="players 3..4")
        if not 1 <= low <= high <= 8:
            raise Shape(e.phrases[0].span, f"players {low}..{high}: counts must lie within 1..8")
        if self.sections[-1].players or self.sections[-1].choices:
            raise Shape(e.span, "`players` cannot depend on `for` or `when`")
        self.players = (low, high, e)

    def _param(self, e: ast.Entry) -> None:
        no_block(e)
        items = terms(e)
        name = need_word(items, 0, e, "the param's name")
        value = need_number(items, 1, e, "the param's value")
        no_more(items, 2, "param")
        self.ctx.declare("param", name.name, name.span)
        self.hooks.names.params.add(name.name)
        self.emit(model.Param(name.name, value.value, source_of(e.span)))

    def _resources(self, e: ast.Entry) -> None:
        no_block(e)
        for w in word_list(e, "a resource name"):
            self.declare_once("resource", w)
            self.emit(model.Resource(w.name, source_of(w.span)))

    def _bank(self, e: ast.Entry) -> None:
        src = source_of(e.span)
        if e.block is not None:
            amounts = []
            for st in e.block.stmts:
                if not isinstance(st, ast.Entry):
                    raise Shape(st.span, "a bank lists `RESOURCE COUNT` lines")
                n = single_number(st, 0, MAX_BANK)
                self.ctx.refer("resource", st.head, context="the bank")
                amounts.append(model.Amount(st.head.name, n.value))
            self.emit(model.Bank("bank", tuple(amounts), src))
            return
        items = terms(e)
        n = need_number(items, 0, e, "a count")
        in_range(n, 0, MAX_BANK, "a bank's count")
        each = need_word(items, 1, n, "`each`")
        if each.name != "each":
            raise Shape(each.span, "write `bank 19 each` or a block `bank { brick 19 ... }`")
        no_more(items, 2, "bank")
        self.emit(Pending(lambda: model.Bank(
            "bank", tuple(model.Amount(r, n.value) for r in self._resource_names()), src)))

    def _resource_names(self) -> list[str]:
        return list(self.ctx.declared.get("resource", {}))

    def _terrain(self, e: ast.Entry) -> None:
        items = terms(e)
        name = need_word(items, 0, e, "the terrain's name")
        self.declare_once("terrain", name)
        props = list(items[1:])
        if e.block is not None:
            for st in e.block.stmts:
                if not isinstance(st, ast.Entry):
                    raise Shape(st.span, "a terrain block holds `produces ...`, `water` or `hub`")
                props.append(st.head)
                props.extend(terms(st))
        water, produces, choice, hub = False, None, False, False
        i = 0
        while i < len(props):
            w = props[i]
            if not isinstance(w, ast.Word):
                raise Shape(w.span, "expected `produces`, `water` or `hub`")
            if w.name == "water":
                water = True
                i += 1
            elif w.name == "hub":
                hub = True
                i += 1
            elif w.name == "produces":
                what = need_word(props, i + 1, w, "a resource, `nothing` or `choice`")
                if what.name == "choice":
                    choice = True
                elif what.name != "nothing":
                    self.ctx.refer("resource", what, context=f"terrain `{name.name}`")
                    produces = what.name
                i += 2
            else:
                hint = did_you_mean(w.name, ["produces", "water", "hub"])
                raise Shape(w.span, f"unknown terrain property `{w.name}`", help=hint)
        if water and (produces or choice):
            raise Shape(e.span, f"terrain `{name.name}` cannot be water and produce")
        if hub and (water or produces or choice):
            raise Shape(e.span, f"terrain `{name.name}` is a hub: a hub is land and produces nothing",
                        help="write `terrain NAME { hub }`")
        self.emit(model.Terrain(name.name, water, produces, choice, source_of(e.span), hub=hub))

    def _trade(self, e: ast.Entry) -> None:
        if e.where is not None:
            raise Shape(e.where.span, "`trade` takes no `where` condition")
        items = terms(e)
        kind = need_word(items, 0, e, "`bank` or `domestic`")
        if kind.name == "bank":
            ratio = items[1] if len(items) > 1 else None
            if not isinstance(ratio, ast.Ratio):
                raise Shape(e.span, "write the bank's rate as `trade bank 4:1`")
            no_more(items, 2, "trade")
            no_block(e)
            self.emit(model.Trade("bank", ratio.give, ratio.get, source=source_of(e.span)))
        elif kind.name == "domestic":
            no_more(items, 1, "trade")
            self.emit(model.Trade("domestic", source=source_of(e.span), **_domestic(self, e)))
        else:
            raise Shape(kind.span, f"unknown kind of trade `{kind.name}`",
                        help=did_you_mean(kind.name, ["bank", "domestic"]) or "trade bank 4:1 / trade domestic")
        self.ctx.declare("trade", kind.name, kind.span)

    # ---- pieces, decks, awards -----------------------------------------------------------
    def _piece(self, e: ast.Entry) -> None:
        from catandsl.compiler.pieces import lower_piece

        name = self.named_block(e, "piece", "piece road { on path ... }")
        self.emit(Pending(lambda: lower_piece(self, name, e)))

    def _deck(self, e: ast.Entry) -> None:
        from catandsl.compiler.pieces import declare_deck_cards, lower_deck

        name = self.named_block(e, "deck", "deck development { card knight 14 { ... } }")
        declare_deck_cards(self, e)
        rules: list = []
        self.emit(Pending(lambda: lower_deck(self, name, e, rules)))
        self.emit(Pending(lambda: rules.pop(0) if rules else None))

    def _award(self, e: ast.Entry) -> None:
        from catandsl.compiler.pieces import lower_award

        name = self.named_block(e, "award", "award longest_road { points 2 ... }")
        self.emit(Pending(lambda: lower_award(self, name, e)))

    # ---- set-up and turn -------------------------------------------------------------------
    def _setup(self, e: ast.Entry) -> None:
        from catandsl.compiler.pieces import lower_setup

        if e.block is None or e.phrases:
            raise Shape(e.span, "write `setup { round forward { ... } ... }`")
        self.declare_once("setup", ast.Word(e.head.span, "setup"))
        self.emit(Pending(lambda: lower_setup(self, e)))

    def _turn(self, e: ast.Entry) -> None:
        if e.block is None or e.phrases or e.where is not None:
            raise Shape(e.span, "write `turn { phase roll { roll; play }; phase main { trade; build } }`")
        self.declare_once("turn", ast.Word(e.head.span, "turn"))
        chosen = dict(self.chosen_inside)  # (read now: the turn is lowered later)
        self.later(lambda: turns.lower_turn(self, e, chosen))

    # ---- rules ----------------------------------------------------------------------------
    def _rule(self, e: ast.Entry, category: str = "rule") -> None:
        items = terms(e)
        if category == "special_victory":
            if len(items) != 1 or not isinstance(items[0], (ast.Str, ast.Word)):
                raise Shape(e.span, 'write `special_victory "title" { on ... }`')
            label = items[0]
            # its own namespace, so a title like "Seven" cannot replace `rule seven`
            name = SPECIAL_VICTORY_PREFIX + _slug(label.value if isinstance(label, ast.Str) else label.name)
            word = ast.Word(label.span, name)
        else:
            word = need_word(items, 0, e, "the rule's name")
            no_more(items, 1, "rule")
            name = word.name
        self.declare_once("rule", word)
        if e.block is None:
            raise Shape(e.span, f"rule `{name}` needs a block of `on EVENT {{ ... }}` hooks")
        for st in e.block.stmts:
            if not isinstance(st, ast.Hook):
                raise Shape(st.span, "a rule holds hooks: `on EVENT if CONDITION { EFFECTS }`")
        block = e.block

        def make():
            nodes = [st for st in block.stmts if isinstance(st, ast.Hook)]  # all of them, checked above
            hooks = tuple(h for h in (self.hooks.hook(st) for st in nodes) if h is not None)
            return model.Rule(name, hooks, category, source_of(e.span))

        self.emit(Pending(make))

    def _special_victory(self, e: ast.Entry) -> None:
        self._rule(e, "special_victory")

    def _anonymous_rule(self, node: ast.Hook) -> model.Rule | None:
        hook = self.hooks.hook(node)
        if hook is None:
            return None
        name = f"{node.event.name}@{node.span.file}:{node.span.line}"
        return model.Rule(name, (hook,), "rule", source_of(node.span))

    # ---- options ---------------------------------------------------------------------------
    def _option(self, e: ast.Entry) -> None:
        items = terms(e)
        name = need_word(items, 0, e, "the option's name")
        title = None
        if len(items) > 1:
            if not isinstance(items[1], ast.Str):
                raise Shape(items[1].span, "an option's title is a string")
            title = items[1].value
        no_more(items, 2, "option")
        if self.sections[-1].players or self.sections[-1].choices:
            raise Shape(e.span, "an option cannot be declared inside `for` or `when`")
        if self.ctx.is_declared("option", name.name):
            self.ctx.error("E0303", f"option `{name.name}` is declared twice", name.span)
            return
        self.ctx.declare("option", name.name, name.span)
        if e.block is None:
            raise Shape(e.span, f"option `{name.name}` needs a block of items",
                        help="option layout { item beginner default; item random }")
        opt_items: list[model.OptionItem] = []
        default = None
        for st in e.block.stmts:
            if not isinstance(st, ast.Entry) or st.head.name != "item":
                raise Shape(st.span, "an option lists `item NAME [VALUE] [default]` lines")
            it = terms(st)
            iname = need_word(it, 0, st, "the item's name")
            value, ititle, is_default = None, None, False
            for t in it[1:]:
                if isinstance(t, ast.Number) and value is None:
                    value = t.value
                elif isinstance(t, ast.Word) and t.name == "default":
                    if default is not None:
                        raise Shape(t.span, f"option `{name.name}` has two defaults")
                    is_default = True
                elif isinstance(t, ast.Str) and ititle is None:
                    ititle = t.value
                else:
                    raise Shape(t.span, "an item is `item NAME [VALUE] [\"title\"] [default]`")
            if any(i.name == iname.name for i in opt_items):
                raise Shape(iname.span, f"item `{iname.name}` appears twice")
            self.ctx.declare(f"item:{name.name}", iname.name, iname.span)
            opt_items.append(model.OptionItem(iname.name, value, ititle))
            if is_default:
                default = iname.name
        if not opt_items:
            raise Shape(e.span, f"option `{name.name}` has no items")
        if default is None:
            self.ctx.error("E0601", f"option `{name.name}` has no default item", name.span,
                           help=f"mark one item `default`, e.g. `item {opt_items[0].name} default`")
            default = opt_items[0].name
        if any(i.value is not None for i in opt_items):
            if any(i.value is None for i in opt_items):
                raise Shape(e.span, f"either every item of `{name.name}` has a value or none has")
            self.ctx.declare("param", name.name, name.span)
            self.hooks.names.params.add(name.name)
        self.options.append(model.Option(name.name, tuple(opt_items), default, title, source_of(e.span)))

    # ---- the map ---------------------------------------------------------------------------
    def _map(self, e: ast.Entry) -> None:
        items = terms(e)
        if items:
            raise Shape(items[0].span, "`map` takes no name; use `for N players { map { } }` for variants")
        if e.block is None:
            raise Shape(e.span, "a map needs a block")
        self.declare_once("map", ast.Word(e.head.span, "map"))
        decl = maps.lower_map(self.ctx, e)
        if decl is not None:
            self.emit(decl)

    def _start(self, e: ast.Entry) -> None:
        """`start PIECE ...` outside the map replaces the map's start of that piece, so a
        variant (`when edition is fifth { start robber at (1, 2) }`) need not copy the map."""
        if e.block is not None:
            raise Shape(e.block.span, "`start` takes no block")
        start = maps.read_start(self.ctx, e)
        self.declare_once("start", ast.Word(terms(e)[0].span, start.key()))
        self.emit(model.StartOverride(start.key(), start, start.source))

    def _harbors(self, e: ast.Entry) -> None:
        """`harbors ...` outside the map replaces the map's harbors for a variant."""
        if e.block is not None:
            raise Shape(e.block.span, "`harbors` takes no block")
        self.declare_once("harbors", ast.Word(e.head.span, "harbors"))
        items = terms(e)
        if len(items) == 1 and getattr(items[0], "name", None) == "placed":
            # `harbors placed` alone: the map's own tokens and spots, placed by the players
            self.emit(model.HarborsOverride("harbors", (), source_of(e.span), method="placed"))
            return
        self.emit(model.HarborsOverride("harbors", maps.read_harbors(self.ctx, e), source_of(e.span)))


# An offer is composed card by card (rules/trade.py), so it has no size and a turn no
# number of offers: these words of older files are refused with that said.
DOMESTIC_PROPS = ["tokens"]
DROPPED_PROPS = {
    "cards": "an offer holds any number of cards: it is composed card by card",
    "offers_per_turn": "a player makes any number of offers a turn (an offer every player declined "
                       "cannot be made again that turn)",
}


def _domestic(low: Lowering, e: ast.Entry) -> dict:
    """`trade domestic { tokens gold, spice }`"""
    out: dict = {}
    tokens: list[ast.Word] = []
    for st in (e.block.stmts if e.block is not None else ()):
        head = getattr(getattr(st, "head", None), "name", "")
        if isinstance(st, ast.Entry) and head in DROPPED_PROPS:
            raise Shape(st.head.span, f"`{head}` is no longer part of `trade domestic`: {DROPPED_PROPS[head]}",
                        help=f"remove `{head}`")
        if not isinstance(st, ast.Entry) or head not in DOMESTIC_PROPS:
            raise Shape(st.span, "a domestic trade holds `tokens TOKEN, ...`: the tokens traded with the cards",
                        help=did_you_mean(head, DOMESTIC_PROPS))
        no_block(st)
        tokens += _offered_tokens(low, st, tokens)
    if tokens:
        out["tokens"] = tuple(w.name for w in tokens)
        for w in tokens:
            low.later(lambda w=w: _not_a_resource(low, w))
    return out


def _offered_tokens(low: Lowering, st: ast.Entry, seen: list[ast.Word]) -> list[ast.Word]:
    """`tokens gold, spice`: the tokens a side of an offer may hold, besides cards."""
    out: list[ast.Word] = []
    names = {w.name for w in seen}
    for phrase in st.phrases:
        items = list(phrase.terms)
        w = need_word(items, 0, st, "a token's name")
        if len(items) > 1 and isinstance(items[1], ast.Number):
            raise Shape(items[1].span, "an offer holds any number of tokens: name the token alone",
                        help=f"tokens {w.name}")
        no_more(items, 1, "tokens")
        if w.name in names:
            raise Shape(w.span, f"token `{w.name}` is named twice")
        names.add(w.name)
        low.ctx.refer("token", w, context="`trade domestic`")
        out.append(w)
    if not out:
        raise Shape(st.span, "write `tokens TOKEN`: the tokens a side of an offer may hold")
    return out


def _not_a_resource(low: Lowering, w: ast.Word) -> None:
    """An offer names resources and tokens in one bundle: a token offered in trades
    may not share a resource's name."""
    if low.ctx.is_declared("resource", w.name):
        low.ctx.error("E0304", f"token `{w.name}` shares its name with a resource, so an offer "
                       "could not tell them apart", w.span, help="give the token another name")


def _setting(name: str, low: int, high: int):
    """A handler for a scalar setting: `victory 10` (from `low` to `high`), or
    `victory OPTION` to take the chosen item's value."""

    def handler(self: Declarations, e: ast.Entry) -> None:
        no_block(e)
        self.declare_once("setting", ast.Word(e.head.span, name))
        items = terms(e)
        if len(items) == 1 and isinstance(items[0], ast.Number):
            if not low <= items[0].value <= high:
                raise Shape(items[0].span, f"`{name}` is {low:,} to {high:,}")
            self.emit(model.Setting(name, items[0].value, None, source_of(e.span)))
        elif len(items) == 1 and isinstance(items[0], ast.Word):
            self.ctx.refer("option|param", items[0], context=f"`{name}`")
            self.emit(model.Setting(name, None, items[0].name, source_of(e.span)))
        else:
            raise Shape(e.span, f"`{name}` takes a number or the name of an option",
                        help=f"{name} 10")

    return handler


SPECIAL_VICTORY_PREFIX = "special_victory:"
MAX_NEUTRAL_SEATS = 4  # seats that own pieces and take no turns (Catan for Two has 2)
MAX_BANK = 100_000
# declarations whose hooks live in a rule of their own, named with this prefix
OWNED_RULES = {"deck": "deck:", "action": "action:"}


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_") or "rule"


def _stmt_word(stmt) -> str:
    if isinstance(stmt, ast.Cost):
        return "cost"
    if isinstance(stmt, ast.Placement):
        return "on"
    return type(stmt).__name__.lower()


# Declarations whose blocks may hold `when OPTION is ITEM { ... }` around their lines.
CHOICES_INSIDE = ("turn", "setup", "dice")


def whens_inside(e: ast.Entry) -> list[ast.WhenOption]:
    """The `when` blocks inside a declaration's block, at any depth (around a turn's
    phases, a phase's lines, a set-up round's steps), in the order they are written."""
    out: list[ast.WhenOption] = []

    def walk(block: ast.Block | None) -> None:
        for st in block.stmts if block is not None else ():
            if isinstance(st, ast.WhenOption):
                out.append(st)
                walk(st.body)
            elif isinstance(st, ast.Entry):
                walk(st.block)

    walk(e.block)
    return out


def chosen_entry(e: ast.Entry, chosen: dict[str, str]) -> ast.Entry:
    """The declaration as it reads with these items chosen: the lines of a `when` whose
    item is chosen stand in its place, those of any other `when` are left out."""

    def pick(block: ast.Block) -> ast.Block:
        out: list = []
        for st in block.stmts:
            if isinstance(st, ast.WhenOption):
                if chosen.get(st.option.name) == st.item.name:
                    out += pick(st.body).stmts
            elif isinstance(st, ast.Entry) and st.block is not None:
                out.append(replace(st, block=pick(st.block)))
            else:
                out.append(st)
        return replace(block, stmts=tuple(out))

    return replace(e, block=pick(e.block)) if e.block is not None else e


BODY = {
    "title": Declarations._title,
    "players": Declarations._players,
    "resources": Declarations._resources,
    "terrain": Declarations._terrain,
    "bank": Declarations._bank,
    "piece": Declarations._piece,
    "deck": Declarations._deck,
    "award": Declarations._award,
    "trade": Declarations._trade,
    "victory": lambda self, e: turns.lower_victory(self, e, _setting("victory", 1, 1000)),
    "victory_check": turns.lower_victory_check,
    "turn_limit": _setting("turn_limit", 1, 100_000),
    "action_limit": _setting("action_limit", 1, 10_000_000),
    "neutral_seats": _setting("neutral_seats", 0, MAX_NEUTRAL_SEATS),
    "dice": turns.lower_dice,
    "roll_cards": turns.lower_roll_cards,
    "measure": turns.lower_measure,
    "action": turns.declare_action,
    "project": projects.declare_project,
    "param": Declarations._param,
    "setup": Declarations._setup,
    "turn": Declarations._turn,
    "rule": Declarations._rule,
    "special_victory": Declarations._special_victory,
    "option": Declarations._option,
    "map": Declarations._map,
    "start": Declarations._start,
    "harbors": Declarations._harbors,
    "token": supplies.lower_token,
    "counter": supplies.lower_counter,
    "site": supplies.lower_site,
    "tie_break": supplies.lower_tie_break,
}
