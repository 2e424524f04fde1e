"""Token supplies, sites and tie-breaks: `token`, `site` and `tie_break` declarations.

A token is a counted supply that is not a resource card (it scores `points P per Q`);
a site is a numbered place on an intersection holding a stock of tokens; a tie-break
ranks players when a game ends without a single winner. Handlers take the `Lowering`
(`low`) as the body table calls them.
"""

from __future__ import annotations

from catandsl.compiler.context import (
    Shape,
    in_range,
    need_number,
    need_word,
    no_block,
    no_more,
    source_of,
    terms,
)
from catandsl.compiler.lowering import Lowering
from catandsl.compiler.scopes import Scope
from catandsl.ir import model
from catandsl.syntax import ast

TOKEN_PROPS = ("supply", "reserve", "points")
SITE_PROPS = ("stock", "number", "no", "closes")

MAX_TOKENS = 100_000  # a token kind's supply, a site's stock


def lower_counter(low: Lowering, e: ast.Entry) -> None:
    """`counter moves`, `counter moves { per turn }`, `counter conquered { points -1 }`,
    `counter ships_sunk { shared }`"""
    items = terms(e)
    name = need_word(items, 0, e, "the counter's name")
    no_more(items, 1, "counter")
    if e.where is not None:
        raise Shape(e.where.span, "`counter` takes no `where` condition")
    low.declare_once("counter", name)  # (known to the rules even when its block is wrong)
    per_turn, points, shared = False, 0, None
    for st in (e.block.stmts if e.block is not None else ()):
        if isinstance(st, ast.Entry) and st.head.name == "points" and st.block is None and st.where is None:
            ts = terms(st)
            points = in_range(need_number(ts, 0, st, "the points"), -100, 100, "a counter's points")
            no_more(ts, 1, "points")
            continue
        if isinstance(st, ast.Entry) and st.head.name == "shared" and not st.phrases and st.block is None \
                and st.where is None:
            shared = st  # one value for the whole game: a scenario-wide variable
            continue
        if not (isinstance(st, ast.Entry) and st.head.name == "per" and st.block is None
                and len(terms(st)) == 1 and getattr(terms(st)[0], "name", None) == "turn"):
            raise Shape(st.span, "a counter's block holds `per turn` (back to 0 when a turn begins), "
                        "`points P` (P victory points for each 1 of it, P may be negative) and `shared` "
                        "(one value for the whole game)",
                        help="counter moves { per turn }")
        per_turn = True
    if shared is not None and points:
        raise Shape(shared.span, "a `shared` counter belongs to nobody, so it scores nobody points",
                    help="drop `points`, or the counter's `shared`")
    low.emit(model.Counter(name.name, per_turn, source_of(e.span), points=points, shared=shared is not None))


def lower_token(low: Lowering, e: ast.Entry) -> None:
    """`token spice { supply 50; reserve 10; points 1 per 2 }`"""
    name = low.named_block(e, "token", "token spice { supply 50; points 1 per 2 }")
    assert e.block is not None  # named_block checked it
    state: dict = {}
    for st in e.block.stmts:
        try:
            if not isinstance(st, ast.Entry) or st.head.name not in TOKEN_PROPS:
                if isinstance(st, ast.Entry):
                    low.unknown(st.head, dict.fromkeys(TOKEN_PROPS), "token property")
                    continue
                raise Shape(st.span, "a token holds `supply N`, `reserve N` and `points P per Q`")
            no_block(st)
            items = terms(st)
            if st.head.name in ("supply", "reserve"):
                n = need_number(items, 0, st, f"the {st.head.name}")
                no_more(items, 1, st.head.name)
                state[st.head.name] = in_range(n, 0, MAX_TOKENS, f"a token's {st.head.name}")
            else:
                pts = need_number(items, 0, st, "the points")
                # a token may cost points (a curse worth -1 each)
                state["points"] = in_range(pts, -100, 100, "a token's points")
                if len(items) > 1:
                    per = need_word(items, 1, pts, "`per`")
                    if per.name != "per":
                        raise Shape(per.span, "write `points 1 per 2`")
                    q = need_number(items, 2, per, "how many tokens make the points")
                    in_range(q, 1, MAX_TOKENS, "`per`")
                    no_more(items, 3, "points")
                    state["per"] = q.value
        except Shape as err:
            low.ctx.error("E0304", err.message, err.span, help=err.help)
    if "supply" not in state:
        low.ctx.error("E0305", f"token `{name.name}` does not say how many there are", name.span,
                       help="add `supply N`, every token there is")
        return
    if state.get("reserve") is not None and state["reserve"] > state["supply"]:
        low.ctx.error("E0425", f"token `{name.name}`: a reserve of {state['reserve']} is more "
                       f"than the supply of {state['supply']}", name.span)
    low.emit(model.Token(name.name, source=source_of(e.span), **state))


def lower_site(low: Lowering, e: ast.Entry) -> None:
    """`site market { on intersection; stock spice 5; number; no building; closes routes }`"""
    name = low.named_block(e, "site", "site market { on intersection; stock spice 5; number }")
    assert e.block is not None  # named_block checked it
    state: dict = {"stock": []}
    for st in e.block.stmts:
        try:
            if isinstance(st, ast.Placement):
                if st.site.name != "intersection":
                    raise Shape(st.site.span, f"a site stands on an intersection, not `{st.site.name}`",
                                help="write `on intersection`")
                if st.where is not None:
                    raise Shape(st.where.span, "a site's position is given by the map's `sites` line")
                state["on"] = st.site.name
                continue
            if not isinstance(st, ast.Entry):
                raise Shape(st.span, "a site holds `on intersection`, `stock TOKEN N`, `number`, "
                            "`no building` and `closes routes`")
            if st.head.name not in SITE_PROPS:
                low.unknown(st.head, dict.fromkeys(SITE_PROPS), "site property")
                continue
            no_block(st)
            items = terms(st)
            if st.head.name == "stock":
                token = need_word(items, 0, st, "the token it holds")
                n = need_number(items, 1, token, "how many")
                in_range(n, 0, MAX_TOKENS, "a site's stock")
                no_more(items, 2, "stock")
                low.ctx.refer("token", token, context=f"site `{name.name}`")
                state["stock"].append(model.Amount(token.name, n.value))
            elif st.head.name == "number":
                no_more(items, 0, "number")
                state["numbered"] = True
            elif st.head.name == "no":
                w = need_word(items, 0, st, "`building`")
                if w.name != "building":
                    raise Shape(w.span, "write `no building`")
                no_more(items, 1, "no")
                state["no_building"] = True
            else:  # closes
                w = need_word(items, 0, st, "`routes`")
                if w.name != "routes":
                    raise Shape(w.span, "write `closes routes`")
                no_more(items, 1, "closes")
                state["closes_routes"] = True
        except Shape as err:
            low.ctx.error("E0304", err.message, err.span, help=err.help)
    if "on" not in state:
        low.ctx.error("E0305", f"site `{name.name}` does not say where it stands", name.span,
                       help="add `on intersection`")
        return
    state["stock"] = tuple(state["stock"])
    low.emit(model.SiteKind(name.name, source=source_of(e.span), **state))


def lower_tie_break(low: Lowering, e: ast.Entry) -> None:
    """`tie_break points(player), resource_cards(player), tokens(player, spice) + bonus`:
    each key an expression of `player` (the grammar's own `tie_break` rule)."""

    no_block(e)
    items = []
    for ph in e.phrases:
        if len(ph.terms) != 1:
            raise Shape(ph.span, "one query per entry: tie_break points(player), resource_cards(player)")
        items.append(ph.terms[0])
    if not items:
        raise Shape(e.span, "list what ranks the players: tie_break points(player), resource_cards(player)")
    low.ctx.declare("tie_break", "tie_break", e.span)
    src = source_of(e.span)

    def make():
        keys = []
        for t in items:
            expr, typ = low.hooks.value(t, Scope({"player": "player"}, low.hooks.names), "a tie-break key")
            if typ not in ("int", "any"):
                low.ctx.error("E0504", f"a tie-break ranks by a number, not {typ}", t.span)
            keys.append(expr)
        return model.TieBreak("tie_break", tuple(keys), src)

    low.later(make)
