"""Blocks with their own small vocabularies: piece, deck and card, award, setup."""

from __future__ import annotations

from catandsl.compiler.context import (
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
from catandsl.compiler.costs import lower_cost
from catandsl.compiler.hooks import condition_for_site
from catandsl.ir import model
from catandsl.syntax import ast

SITES = ("path", "intersection", "hex")


def _each_entry(low, block: ast.Block, table: dict, what: str, state: dict, nodes: dict | None = None):
    """Run the handler for every entry of a block (by head word) and every other node
    (by its AST type, e.g. a placement or a cost); report errors and go on."""
    for st in block.stmts:
        try:
            if isinstance(st, ast.Entry):
                handler = table.get(st.head.name)
                if handler is None:
                    low.ctx.unknown_word(st.head, table, f"{what} property")
                    continue
                handler(low, st, state)
            elif nodes and type(st) in nodes:
                nodes[type(st)](low, st, state)
            else:
                low.ctx.error("E0301", f"this does not belong in a {what}", st.span)
        except Shape as e:
            low.ctx.error("E0304", e.message, e.span, help=e.help)


def _cost(low, node: ast.Cost, state: dict) -> None:
    state["cost"], varying = lower_cost(low, node)
    if varying:
        state["varying_cost"] = varying


MAX_COLLECT = 10  # `collect last N`: resources per producing hex
MAX_COUNT = 100  # pieces of one neutral kind


# ---- piece -------------------------------------------------------------------------------


def _placement(low, node: ast.Placement, state: dict) -> None:
    if node.site.name not in SITES:
        raise Shape(node.site.span, f"a piece stands on a path, an intersection or a hex, not `{node.site.name}`",
                    help=did_you_mean(node.site.name, SITES))
    state["site"] = node.site.name
    if node.where is not None:
        state["where"] = condition_for_site(low.ctx, low.hooks, node.where, node.site.name)


def _number_prop(key, least: int, most: int):
    def f(low, e, state):
        no_block(e)
        state[key] = single_number(e, least, most).value
    return f


def _flag(key):
    def f(low, e, state):
        no_block(e)
        no_more(terms(e), 0, e.head.name)
        state[key] = True
    return f


def _connects(low, e, state):
    no_block(e)
    words = word_list(e, "a piece name")
    for w in words:
        low.ctx.refer("piece", w, context="`connects`")
    state["connects"] = tuple(w.name for w in words)


def _upgrades(low, e, state):
    """`upgrades settlement`, or `upgrades settlement or city`: the kinds of the player's
    piece it may replace."""
    no_block(e)
    items = terms(e)
    names: list[str] = []
    for k, w in enumerate(items):
        if k % 2 == 1:
            if not (isinstance(w, ast.Word) and w.name == "or") or k == len(items) - 1:
                raise Shape(w.span, "write the kinds it replaces with `or` between them",
                            help="upgrades settlement or city")
            continue
        w = need_word(items, k, e, "the piece it replaces")
        low.ctx.refer("piece", w, context="`upgrades`")
        if w.name in names:
            raise Shape(w.span, f"`{w.name}` is listed twice")
        names.append(w.name)
    if not names:
        need_word(items, 0, e, "the piece it replaces")
    state["upgrades"] = names[0]
    if names[1:]:
        state["upgrades_or"] = tuple(names[1:])


def _blocks(low, e, state):
    """`blocks production` (its hex yields nothing) and piece kinds kept off the sites
    around its hex (`blocks ship`)."""
    no_block(e)
    words = word_list(e, "`production` or a piece name")
    for w in words:
        if w.name != "production":
            low.ctx.refer("piece", w, context="`blocks` (`production` or a piece)")
    state["blocks"] = tuple(w.name for w in words)


def _steals(low, e, state):
    no_block(e)
    if not e.phrases or not e.phrases[0].terms or getattr(e.phrases[0].terms[0], "name", None) != "from":
        raise Shape(e.span, "write `steals from settlement, city`")
    first = e.phrases[0].terms[1:]
    names = list(first) + [t for ph in e.phrases[1:] for t in ph.terms]
    for w in names:
        if not isinstance(w, ast.Word):
            raise Shape(w.span, "`steals from` lists piece names")
        low.ctx.refer("piece", w, context="`steals from`")
    if not names:
        raise Shape(e.span, "`steals from` needs at least one piece")
    state["steals_from"] = tuple(w.name for w in names)


def _moves(low, e, state):
    """`moves { open_end; per_turn 1; not_built_this_turn; blocked_by pirate }`"""
    if e.block is None:
        raise Shape(e.span, "write the movement rules in a block: `moves { open_end ... }`")
    mv: dict = {}
    for st in e.block.stmts:
        if not isinstance(st, ast.Entry):
            raise Shape(st.span, "a `moves` block lists movement properties")
        h = st.head.name
        if h in ("open_end", "not_built_this_turn"):
            no_more(terms(st), 0, h)
            mv["open_end_only" if h == "open_end" else h] = True
        elif h == "per_turn":
            mv["per_turn"] = single_number(st, 1, 100).value
        elif h == "blocked_by":
            words = word_list(st, "a piece name")
            for w in words:
                low.ctx.refer("piece", w, context="`blocked_by`")
            mv["blocked_by"] = tuple(w.name for w in words)
        elif h == "phase":
            raise Shape(st.span, "when a piece moves is said by the turn: the phases that allow `move`",
                        help="turn { phase roll { roll; play; move ship } ... }")
        else:
            opts = ("open_end", "per_turn", "not_built_this_turn", "blocked_by")
            raise Shape(st.head.span, f"unknown movement property `{h}`", help=did_you_mean(h, opts))
    state["movement"] = model.Movement(**mv)


def _travels(low, e, state):
    """`travels { points EXPR; step_cost EXPR; enter where COND; stop where COND }`"""
    from catandsl.compiler.scopes import Scope

    if e.block is None or e.phrases:
        raise Shape(e.span, "write how the piece travels in a block: `travels { points 4; step_cost 2 }`")
    step_vars = {"player": "player", "from": "path", "at": "path"}
    parts: dict = {}
    for st in e.block.stmts:
        if not isinstance(st, ast.Entry):
            raise Shape(st.span, "a `travels` block holds `points`, `step_cost`, `enter where` and `stop where`")
        h = st.head.name
        if h in parts:
            raise Shape(st.head.span, f"`{h}` is given twice")
        if h in ("points", "step_cost"):
            items = terms(st)
            if st.where is not None or st.block is not None or len(items) != 1 \
                    or not isinstance(items[0], (ast.Number, ast.Word, ast.Call)):
                raise Shape(st.span, f"`{h}` is a number, a name or one call: `{h} 2`, "
                                     f"`{h} nth([4, 5, 6], tokens(player, level))`",
                            help="combine values with sum_of([...]) and if_else(condition, a, b)")
            term = items[0]
            node = (ast.Lit(term.span, term.value) if isinstance(term, ast.Number) else
                    ast.Var(term.span, term.name) if isinstance(term, ast.Word) else term)
            scope = Scope({"player": "player"} if h == "points" else step_vars, low.hooks.names)
            expr, t = low.hooks.value(node, scope, f"`{h}`")
            if t not in ("int", "any"):
                low.ctx.error("E0504", f"`{h}` must be a number, not {t}", term.span)
            parts["cost" if h == "step_cost" else h] = expr
        elif h in ("enter", "stop"):
            if st.phrases or st.where is None or st.block is not None:
                raise Shape(st.span, f"write `{h} where CONDITION` (with `player`, `from` and `at`)")
            expr, t = low.hooks.value(st.where, Scope(step_vars, low.hooks.names), f"`{h}`")
            if t not in ("bool", "any"):
                low.ctx.error("E0504", f"a `where` condition must be true or false, not {t}", st.where.span)
            parts[h] = expr
        else:
            raise Shape(st.head.span, f"unknown travel property `{h}`",
                        help=did_you_mean(h, ["points", "step_cost", "enter", "stop"]))
    for need, word in (("points", "points"), ("cost", "step_cost")):
        if need not in parts:
            raise Shape(e.span, f"a travelling piece needs `{word}`", help="travels { points 4; step_cost 2 }")
    state["travel"] = model.Travel(**parts)


def _movable_by(low, e, state):
    """`movable_by where COND`: who may move this piece (`player` is the mover)."""
    if e.block is not None:
        raise Shape(e.block.span, "`movable_by` takes no block")
    if e.phrases or e.where is None:
        raise Shape(e.span, "write `movable_by where CONDITION`, with `player` the mover",
                    help="movable_by where trading_sites(player, market) > 0")
    from catandsl.compiler.scopes import Scope

    expr, t = low.hooks.value(e.where, Scope({"player": "player"}, low.hooks.names), "`movable_by`")
    if t not in ("bool", "any"):
        low.ctx.error("E0504", f"a `where` condition must be true or false, not {t}", e.where.span)
    state["movable_by"] = expr


def _placed_where(low, e, state):
    """`placed where COND`: a condition on the builder (`player`) and the site (`at`),
    judged each time the piece is placed; unlike the `on ... where` of the board, it may
    read the state of play (the builder's own network, hand, counters)."""
    if e.block is not None:
        raise Shape(e.block.span, "`placed` takes no block")
    if e.phrases or e.where is None:
        raise Shape(e.span, "write `placed where CONDITION`, with `player` the builder and `at` the site",
                    help="placed where owned_next_to(player, at, [settlement, city]) == 0")
    state["placed_where"] = e.where  # an AST until lower_piece knows what `at` is


def _lower_placed_where(low, name: ast.Word, state: dict) -> None:
    from catandsl.compiler.scopes import Scope

    cond = state.pop("placed_where")
    if state.get("neutral"):
        low.ctx.error("E0304", f"`placed where` is for a player's piece; neutral `{name.name}` is moved by rules",
                      cond.span, help="a neutral piece's destinations are its `moves_to where`")
        return
    scope = Scope({"player": "player", "at": state["site"]}, low.hooks.names)
    expr, t = low.hooks.value(cond, scope, "`placed where`")
    if t not in ("bool", "any"):
        low.ctx.error("E0504", f"a `where` condition must be true or false, not {t}", cond.span)
    state["placed_where"] = expr


def _moves_to(low, e, state):
    """`moves_to where COND`: where a neutral piece may be moved, judged when it moves
    (`at` the destination, `player` the mover); lowered once the piece's site is known."""
    if e.block is not None:
        raise Shape(e.block.span, "`moves_to` takes no block")
    if e.phrases or e.where is None:
        raise Shape(e.span, "write `moves_to where CONDITION`, with `at` the destination and `player` the mover",
                    help="moves_to where count(at_most(players_around(at), shown, 2)) == 0")
    state["moves_to"] = e.where  # an AST until lower_piece knows what `at` is


def _lower_moves_to(low, name: ast.Word, state: dict) -> None:
    from catandsl.compiler.scopes import Scope

    cond = state.pop("moves_to")
    if not state.get("neutral"):
        low.ctx.error("E0304", f"`moves_to` is for neutral pieces, which rules move; `{name.name}` is a player's",
                      cond.span, help="a player's piece stands where its `on ... where` allows")
        return
    scope = Scope({"player": "player", "at": state["site"]}, low.hooks.names)
    expr, t = low.hooks.value(cond, scope, "`moves_to`")
    if t not in ("bool", "any"):
        low.ctx.error("E0504", f"a `where` condition must be true or false, not {t}", cond.span)
    state["moves_to"] = expr


def _takes(low, e, state):
    """`takes resource or spice`: what a robbery may take; the mover chooses."""
    no_block(e)
    names = [t for ph in e.phrases for t in ph.terms]
    out = []
    for k, w in enumerate(names):
        if not isinstance(w, ast.Word):
            raise Shape(w.span, "`takes` lists `resource` and token names: takes resource or spice")
        if w.name == "or" and 0 < k < len(names) - 1:
            continue
        if w.name != "resource":
            low.ctx.refer("token", w, context="`takes`")
        if w.name in out:
            raise Shape(w.span, f"`{w.name}` is listed twice")
        out.append(w.name)
    if not out:
        raise Shape(e.span, "write `takes resource or TOKEN`")
    state["takes"] = tuple(out)


PIECE = {
    "movable_by": _movable_by,
    "placed": _placed_where,
    "moves_to": _moves_to,
    "takes": _takes,
    "limit": _number_prop("limit", 0, 1000),
    "points": _number_prop("points", 0, 100),
    "produces": _number_prop("produces", 0, 100),
    # the distance rule walks this many steps from every intersection when the game is made
    "distance": _number_prop("distance", 0, 10),
    "connects": _connects,
    "upgrades": _upgrades,
    "neutral": _flag("neutral"),
    # several pieces of one neutral kind, each moved on its own (at most one per site)
    "count": _number_prop("count", 1, MAX_COUNT),
    # what one piece adds to a route's length (a bridge worth 2 roads, a ferry worth none)
    "route_length": _number_prop("route_length", 0, 10),
    "blocks": _blocks,
    "steals": _steals,
    "moves": _moves,
    "travels": _travels,
}


def lower_piece(low, name: ast.Word, e: ast.Entry) -> model.Piece | None:
    assert e.block is not None  # named_block checked it
    state: dict = {}
    _each_entry(low, e.block, PIECE, "piece", state, {ast.Placement: _placement, ast.Cost: _cost})
    if "site" not in state:
        low.ctx.error("E0305", f"piece `{name.name}` does not say where it stands", name.span,
                      help="add `on path`, `on intersection` or `on hex`")
        return None
    if "moves_to" in state:
        _lower_moves_to(low, name, state)
    if "placed_where" in state:
        _lower_placed_where(low, name, state)
    if state.get("neutral") and (state.get("cost") or state.get("varying_cost")):
        low.ctx.error("E0304", f"neutral piece `{name.name}` cannot have a cost", name.span)
    if state.get("neutral") and state["site"] == "intersection":
        low.ctx.error("E0304", f"neutral piece `{name.name}` stands on an intersection: a neutral piece "
                      "stands on a hex or a path", name.span, help="on hex where land(at)")
    if "count" in state and not state.get("neutral"):
        low.ctx.error("E0304", f"`count` is for neutral pieces; a player's `{name.name}` has a `limit`",
                      name.span, help=f"limit {state['count']}")
    if state.get("neutral") and state["site"] == "path" and "production" in state.get("blocks", ()):
        low.ctx.error("E0304", f"`{name.name}` stands on a path: it blocks pieces on its path, not production",
                      name.span, help="blocks road")
    if "route_length" in state and (state["site"] != "path" or state.get("neutral")):
        low.ctx.error("E0304", f"`route_length` is for a player's piece on a path, which routes are made of; "
                      f"`{name.name}` is not one", name.span, help="piece bridge { on path; route_length 2 }")
    if "movement" in state and (state["site"] != "path" or state.get("neutral")):
        low.ctx.error("E0304", f"only a player's piece on a path moves by `moves` (a ship), not `{name.name}`",
                      name.span, help="a neutral piece moves by a rule: move_piece(player, [robber])")
    if "travel" in state and (state["site"] != "path" or state.get("neutral") or "movement" in state
                              or state.get("upgrades")):
        low.ctx.error("E0304", f"only a player's piece on a path travels (a wagon), not `{name.name}`",
                      name.span, help="`on path`, not neutral, without `moves` or `upgrades`")
    return model.Piece(name=name.name, source=source_of(e.span), **state)


# ---- deck and cards ----------------------------------------------------------------------


def declare_deck_cards(low, e: ast.Entry) -> None:
    assert e.block is not None  # named_block checked it
    for st in e.block.stmts:
        if isinstance(st, ast.Entry) and st.head.name == "card":
            items = terms(st)
            if items and isinstance(items[0], ast.Word):
                low.declare_once("card", items[0])


def _play(low, e, state):
    """`play 1 per turn, not the turn bought`"""
    no_block(e)
    for ph in e.phrases:
        words = [t.name if isinstance(t, ast.Word) else t.value if isinstance(t, ast.Number) else None
                 for t in ph.terms]
        if len(words) == 3 and isinstance(words[0], int) and words[1:] == ["per", "turn"]:
            if not 1 <= words[0] <= 100:
                raise Shape(ph.span, "`play N per turn` takes N from 1 to 100")
            state["play_per_turn"] = words[0]
        elif words == ["before", "roll"]:
            raise Shape(ph.span, "whether cards are played before the dice is said by the turn: "
                        "the roll phase allows `play`", help="turn { phase roll { roll; play } ... }")
        elif words == ["not", "the", "turn", "bought"]:
            state["not_turn_bought"] = True
        elif words == ["the", "turn", "bought"]:
            state["not_turn_bought"] = False
        else:
            raise Shape(ph.span, "unknown play rule",
                        help="`play 1 per turn, not the turn bought`")


def lower_deck(low, name: ast.Word, e: ast.Entry, rules_out: list) -> model.Deck:
    assert e.block is not None  # named_block checked it
    state: dict = {}  # defaults are the model's: not playable the turn bought
    cards: list[model.Card] = []
    hooks: list[model.Hook] = []

    def card(low_, st, _state):
        items = terms(st)
        cname = need_word(items, 0, st, "the card's name")
        count = need_number(items, 1, st, "how many cards")
        in_range(count, 0, 1000, "a card's count")
        no_more(items, 2, "card")
        props: dict = {"points": 0, "hidden": False}
        for sub in (st.block.stmts if st.block else ()):
            if isinstance(sub, ast.Hook):
                if sub.event.name != "play":
                    low.ctx.error("E0501", f"a card reacts to `on play`, not `on {sub.event.name}`",
                                  sub.event.span)
                    continue
                h = low.hooks.hook(sub, event_override=("card_played", cname.name))
                if h is not None:
                    hooks.append(h)
            elif isinstance(sub, ast.Entry) and sub.head.name == "points":
                props["points"] = single_number(sub, 0, 100).value
            elif isinstance(sub, ast.Entry) and sub.head.name == "army":
                low.ctx.error("E0301", "a card has no `army`: Largest Army counts the cards played",
                              sub.span, help="award largest_army { ...; measure played(player, [knight]) }")
            elif isinstance(sub, ast.Entry) and sub.head.name == "hidden":
                no_more(terms(sub), 0, "hidden")
                props["hidden"] = True
            elif isinstance(sub, ast.Entry) and sub.head.name == "playable":
                if terms(sub) or sub.where is None or sub.block is not None:
                    low.ctx.error("E0304", "write `playable where CONDITION` (with `player`, the holder)",
                                  sub.span, help="playable where traveled_this_turn(player, wagon)")
                    continue
                from catandsl.compiler.scopes import Scope

                expr, t = low.hooks.value(sub.where, Scope({"player": "player"}, low.hooks.names),
                                          "a card's `playable where`")
                if t not in ("bool", "any"):
                    low.ctx.error("E0504", f"a `where` condition must be true or false, not {t}", sub.where.span)
                props["playable_if"] = expr
            else:
                low.ctx.error("E0301", "a card holds points, hidden, `playable where` or `on play { }`",
                              sub.span, help=did_you_mean(getattr(getattr(sub, "head", None), "name", ""),
                                                          ["points", "hidden", "playable"]))
        cards.append(model.Card(cname.name, count.value, source=source_of(st.span), **props))

    table = {"card": card, "play": _play, "reshuffle": _flag("reshuffle")}
    _each_entry(low, e.block, table, "deck", state, {ast.Cost: _cost})
    if hooks:
        rules_out.append(model.Rule(f"deck:{name.name}", tuple(hooks), "card", source_of(e.span)))
    return model.Deck(name.name, tuple(cards), source=source_of(e.span), **state)


# ---- award -------------------------------------------------------------------------------


def lower_award(low, name: ast.Word, e: ast.Entry) -> model.Award | None:
    assert e.block is not None  # named_block checked it
    state: dict = {"title": name.name.replace("_", " ").title()}

    def title(low_, st, s):
        no_block(st)
        items = terms(st)
        if len(items) != 1 or not isinstance(items[0], ast.Str):
            raise Shape(st.span, "`title` takes one string")
        s["title"] = items[0].value

    def measure(low_, st, s):
        no_block(st)
        items = terms(st)
        if len(items) != 1 or not isinstance(items[0], ast.Call):
            raise Shape(st.span, "`measure` takes a query call", help="measure played(player, [knight])")
        from catandsl.compiler.scopes import Scope

        expr, t = low.hooks.value(items[0], Scope({"player": "player"}, low.hooks.names), "an award's measure")
        if t not in ("int", "any"):
            low.ctx.error("E0504", f"an award measures a number, not {t}", items[0].span)
        s["measure"] = expr

    def neutral_seats(low_, st, s):
        no_block(st)
        items = terms(st)
        if len(items) != 1 or getattr(items[0], "name", None) != "compete":
            raise Shape(st.span, "write `neutral_seats compete`: neutral seats may hold the award too")
        s["seats"] = True

    table = {"title": title, "points": _number_prop("points", 0, 100), "min": _number_prop("min", 0, 10**6),
             "measure": measure, "neutral_seats": neutral_seats}
    _each_entry(low, e.block, table, "award", state)
    missing = [k for k in ("points", "min", "measure") if k not in state]
    if missing:
        low.ctx.error("E0305", f"award `{name.name}` needs {', '.join(missing)}", name.span)
        return None
    return model.Award(name.name, source=source_of(e.span), **state)


# ---- set-up ------------------------------------------------------------------------------


def lower_setup(low, e: ast.Entry) -> model.Setup:
    assert e.block is not None  # Declarations._setup checked it
    rounds = []
    for st in e.block.stmts:
        try:
            if not isinstance(st, ast.Entry) or st.head.name != "round" or st.block is None:
                raise Shape(st.span, "a set-up lists rounds: `round forward { place settlement ... }`")
            items = terms(st)
            order = need_word(items, 0, st, "`forward` or `backward`")
            if order.name not in ("forward", "backward"):
                raise Shape(order.span, f"a round goes `forward` or `backward`, not `{order.name}`",
                            help=did_you_mean(order.name, ["forward", "backward"]))
            from_last = False
            if len(items) > 1:
                words = [getattr(t, "name", None) for t in items[1:]]
                if words != ["from", "last"]:
                    raise Shape(items[1].span, "a round may only add `from last`")
                from_last = True
            steps = tuple(s for s in (_setup_step(low, sub) for sub in st.block.stmts) if s is not None)
            rounds.append(model.SetupRound(order.name, steps, from_last, source_of(st.span)))
        except Shape as err:
            low.ctx.error("E0304", err.message, err.span, help=err.help)
    return model.Setup("setup", tuple(rounds), source_of(e.span))


def _setup_step(low, st) -> model.SetupStep | None:
    try:
        if not isinstance(st, ast.Entry) or st.head.name not in ("place", "collect"):
            raise Shape(st.span, "a round lists `place PIECE [or PIECE] [new] [touching last] [optional]` and "
                        "`collect last [N]`")
        items = terms(st)
        if st.head.name == "collect":
            if not items or getattr(items[0], "name", None) != "last" or len(items) > 2 or (
                    len(items) == 2 and not isinstance(items[1], ast.Number)):
                raise Shape(st.span, "write `collect last` (or `collect last N`, N per producing hex): "
                            "resources for the piece just placed")
            count = 1
            if len(items) == 2:
                count = in_range(items[1], 1, MAX_COLLECT, "`collect last`'s count")
            return model.SetupStep("collect", source=source_of(st.span), count=count)
        if [getattr(t, "name", None) for t in items] == ["harbor"] and not low.ctx.is_declared("piece", "harbor"):
            return model.SetupStep("harbor", source=source_of(st.span))  # B.9: draw a harbor, lay it
        pieces: list[str] = []
        touching = optional = fresh = False
        i = 0
        while i < len(items):
            w = need_word(items, i, st, "a piece name")
            if w.name == "or" and pieces:
                i += 1
                continue
            if w.name == "optional" and pieces:
                optional = True  # the player may pass
                i += 1
                continue
            if w.name == "new" and pieces and not low.ctx.is_declared("piece", "new"):
                fresh = True  # an upgrade placed on an empty intersection (`place city new`)
                i += 1
                continue
            if w.name == "touching":
                last = need_word(items, i + 1, w, "`last`")
                if last.name != "last":
                    raise Shape(last.span, "write `touching last`")
                touching = True
                i += 2
                continue
            low.ctx.refer("piece", w, context="the set-up")
            pieces.append(w.name)
            i += 1
        if not pieces:
            raise Shape(st.span, "`place` needs a piece")
        where = None
        if st.where is not None:
            where = condition_for_site(low.ctx, low.hooks, st.where, "site", player=True)
        return model.SetupStep("place", tuple(pieces), touching, where, optional, source_of(st.span), fresh)
    except Shape as err:
        low.ctx.error("E0304", err.message, err.span, help=err.help)
        return None
