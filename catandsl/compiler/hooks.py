"""Rules: lower `on EVENT(filter) if CONDITION { EFFECTS }` and its expressions to IR,
checking every name and call against the primitive registry (catandsl/rules)."""

from __future__ import annotations

from catandsl.compiler import defines, places
from catandsl.compiler.context import Context, did_you_mean, source_of
from catandsl.compiler.scopes import NAME_KINDS, NameTable, Scope
from catandsl.ir import model
from catandsl.rules import registry
from catandsl.rules.registry import CHOICE, EFFECT, QUERY, RANDOM, compatible
from catandsl.syntax import ast

SITE_KINDS = frozenset(("hex", "intersection", "path", "site"))
_COMPARE = {"eq", "ne", "lt", "le", "gt", "ge"}
MAX_FOR_DEPTH = 3  # `for` inside `for`: players x islands x sites is as deep as a rule needs


class HookLowering:
    """Lowers hooks, conditions, measures and expressions to IR, checking names and types."""

    def __init__(self, ctx: Context, names: NameTable):
        self.ctx = ctx
        self.names = names
        # while lowering a condition or measure: (what it is, whether it reads the board alone)
        self.restriction: tuple[str, bool] | None = None
        self.for_depth = 0  # `for` statements around the one being lowered
        self.defines: dict[str, ast.Define] = {}  # `define NAME(...)`, by name
        self.expanding: list[str] = []  # the `define`s being expanded, outermost first
        self.expansions = 0  # calls of `define`s expanded so far (each renames its names)

    def value(self, node, scope: Scope, what: str, board_only: bool = False) -> tuple[model.Expr, str]:
        """An expression that asks no player (`what`: "a condition", "an award's measure"...);
        `board_only`: evaluated once over the board, before play (a placement's `where`)."""
        outer, self.restriction = self.restriction, (what, board_only)
        try:
            return self.expr(node, scope)
        finally:
            self.restriction = outer

    # ---- hooks ---------------------------------------------------------------------
    def hook(self, node: ast.Hook, event_override: tuple[str, str] | None = None) -> model.Hook | None:
        """`event_override` turns `on play` inside a card into card_played(card)."""
        name = node.event.name
        filters: tuple[str | int, ...]
        if event_override is not None:
            name, card = event_override
            filters = (card,)
        else:
            filters = tuple(f.name if isinstance(f, ast.Word) else f.value for f in node.filters)
        event = registry.EVENTS.get(name)
        if event is None:
            hint = did_you_mean(name, registry.EVENTS)
            self.ctx.error("E0501", f"unknown event `{name}`", node.event.span,
                           help=hint or "events: " + ", ".join(sorted(registry.EVENTS)))
            return None
        if event_override is None:
            self._check_filters(event, node)
        scope = Scope({p.name: p.type for p in event.params}, self.names)
        condition = None
        if node.condition is not None:
            condition, ctype = self.value(node.condition, scope, "a rule's condition")
            if ctype not in ("bool", "any"):
                self.ctx.error("E0504", f"a condition must be true or false, not {ctype}",
                               node.condition.span)
        effects = self.effects(node.effects, scope)
        return model.Hook(name, filters, condition, effects, source_of(node.span))

    def _check_filters(self, event: registry.Event, node: ast.Hook) -> None:
        if not node.filters:
            return
        if event.filter is None:
            self.ctx.error("E0508", f"event `{event.name}` takes no filter", node.filters[0].span,
                           help=f"write the condition with `if`, e.g. `on {event.name} if ...`")
            return
        for f in node.filters:
            if event.filter_type == "int":
                if not isinstance(f, ast.Number):
                    self.ctx.error("E0508", f"the filter of `{event.name}` is a number", f.span)
            elif isinstance(f, ast.Word):
                kind = next((k for k, t in NAME_KINDS.items() if t == event.filter_type), None)
                if kind is not None:
                    self.ctx.refer(kind, f, context=f"the filter of `{event.name}`")
            else:
                self.ctx.error("E0508", f"the filter of `{event.name}` is a {event.filter_type} name",
                               f.span)

    # ---- effects -------------------------------------------------------------------
    def effects(self, nodes, scope: Scope) -> tuple[model.Effect, ...]:
        out = []
        for node in nodes:
            if isinstance(node, (ast.LetStmt, ast.VarStmt)):
                # a `let` (a `var`) is visible to the statements after it in the same block
                value, vtype = self.expr(node.value, scope)
                scope = scope.child({node.name: vtype}, mutable=isinstance(node, ast.VarStmt))
                out.append(model.Effect("let", expr=value, name=scope.ir_name(node.name),
                                        source=source_of(node.span)))
                continue
            if isinstance(node, ast.AssignStmt):
                eff = defines.assign(self, node, scope)
                if eff is not None:
                    out.append(eff)
                continue
            eff = self.effect(node, scope)
            if eff is not None:
                out.append(eff)
        return tuple(out)

    def effect(self, node, scope: Scope) -> model.Effect | None:
        src = source_of(node.span)
        if isinstance(node, ast.CallStmt) and node.call.name in self.defines:
            return defines.call_block(self, node, scope)
        if isinstance(node, ast.CallStmt):
            prim = registry.PRIMITIVES.get(node.call.name)
            expr, _ = self.expr(node.call, scope, statement=True)
            if prim is not None and prim.kind != EFFECT:
                self.ctx.error("E0507", f"`{prim.name}` is a {prim.kind}; it changes nothing on its own",
                               node.span, help="use it inside a condition or as an argument")
            return model.Effect("call", expr=expr, source=src)
        if isinstance(node, ast.IfStmt):
            cond, ctype = self.expr(node.condition, scope)
            if ctype not in ("bool", "any"):
                self.ctx.error("E0504", f"a condition must be true or false, not {ctype}",
                               node.condition.span)
            return model.Effect("if", expr=cond, body=self.effects(node.then, scope),
                                orelse=self.effects(node.orelse, scope), source=src)
        if isinstance(node, ast.ForStmt):
            it, itype = self.expr(node.iterable, scope)
            if not (itype.startswith("list<") or itype == "any"):
                self.ctx.error("E0504", f"`for` needs a list, not {itype}", node.iterable.span)
                elem = "any"
            else:
                elem = itype[5:-1] if itype.startswith("list<") else "any"
            if self.for_depth >= MAX_FOR_DEPTH:
                self.ctx.error("E0512", f"`for` nested more than {MAX_FOR_DEPTH} deep", node.span,
                               help="each level multiplies the work of the rule; split it into rules")
            self.for_depth += 1
            try:
                body_scope = scope.child({node.var: elem})
                body = self.effects(node.body, body_scope)
            finally:
                self.for_depth -= 1
            return model.Effect("for", expr=it, name=body_scope.ir_name(node.var), body=body, source=src)
        return None

    # ---- expressions -----------------------------------------------------------------
    def expr(self, node, scope: Scope, statement: bool = False,
             expected: str | None = None) -> tuple[model.Expr, str]:
        """An expression and its type; `expected`, the type its place asks for, decides
        what a name of several kinds means (NameTable.lookup)."""
        if isinstance(node, ast.Lit):
            v = node.value
            if isinstance(v, bool):
                return model.Expr("bool", value=v), "bool"
            if isinstance(v, int):
                return model.Expr("num", value=v), "int"
            return model.Expr("str", value=v), "str"
        if isinstance(node, ast.Var):
            return self._var(node, scope, expected)
        if isinstance(node, ast.Call):
            if node.name in self.defines:
                return defines.call_value(self, node, scope)
            return self._call(node, scope, statement)
        if isinstance(node, (ast.Place, ast.Index)) or (isinstance(node, ast.Binary) and node.op == "in"):
            return places.expr(self, node, scope)
        if isinstance(node, ast.Unary):
            inner, t = self.expr(node.operand, scope)
            want = "bool" if node.op == "not" else "int"
            if not compatible(want, t):
                self.ctx.error("E0504", f"`{'not' if node.op == 'not' else '-'}` needs {want}, not {t}",
                               node.operand.span)
            return model.Expr(node.op, (inner,)), want
        if isinstance(node, ast.Binary):
            if node.op in ("eq", "ne") and self._several(node.left, scope):
                right, rt = self.expr(node.right, scope)  # `knight == card`: the card
                left, lt = self.expr(node.left, scope, expected=rt)
            else:
                left, lt = self.expr(node.left, scope)
                right, rt = self.expr(node.right, scope, expected=lt if node.op in ("eq", "ne") else None)
            if node.op in ("and", "or"):
                for side, t in ((node.left, lt), (node.right, rt)):
                    if not compatible("bool", t):
                        self.ctx.error("E0504", f"`{node.op}` needs true or false, not {t}", side.span)
                return model.Expr(node.op, (left, right)), "bool"
            if node.op in _COMPARE:
                if node.op in ("eq", "ne"):
                    if not (compatible(lt, rt) or compatible(rt, lt) or _nobody(node.left, rt)
                            or _nobody(node.right, lt)):
                        self.ctx.error("E0504", f"cannot compare {lt} with {rt}", node.span,
                                       help="a seat, a player or an island compares with -1 (nobody, none), "
                                       "no other number" if "int" in (lt, rt) else None)
                else:
                    for side, t in ((node.left, lt), (node.right, rt)):
                        if not compatible("int", t):
                            self.ctx.error("E0504", f"only numbers can be ordered, not {t}", side.span)
                return model.Expr(node.op, (left, right)), "bool"
            for side, t in ((node.left, lt), (node.right, rt)):
                if not compatible("int", t):
                    self.ctx.error("E0504", f"arithmetic needs numbers, not {t}", side.span)
            return model.Expr(node.op, (left, right)), "int"
        if isinstance(node, ast.Pair):
            a, _ = self.expr(node.first, scope)
            b, _ = self.expr(node.second, scope)
            return model.Expr("pair", (a, b)), "hex"
        if isinstance(node, ast.ListExpr):
            elem = expected[5:-1] if expected is not None and expected.startswith("list<") else None
            items = [self.expr(i, scope, expected=elem) for i in node.items]
            types_ = {t for _, t in items}
            elem = types_.pop() if len(types_) == 1 else "site" if types_ and types_ <= SITE_KINDS else "any"
            return model.Expr("list", tuple(e for e, _ in items)), f"list<{elem}>"
        raise TypeError(f"unexpected expression node {node!r}")

    def _several(self, node, scope: Scope) -> bool:
        """A bare name of several kinds (its meaning then comes from the other side)."""
        return (isinstance(node, ast.Var) and node.name not in scope.variables
                and len(self.names.meanings(node.name)) > 1)

    def _var(self, node: ast.Var, scope: Scope, expected: str | None = None) -> tuple[model.Expr, str]:
        if node.name in scope.variables:
            return model.Expr("var", value=scope.ir_name(node.name)), scope.variables[node.name]
        found = self.names.lookup(node.name, expected)
        if found is not None:
            op, type_ = found
            name = model.Expr(op, value=node.name)
            if type_ == "island":
                self.ctx.island_uses.append((node.name, node.span, name))
            elif type_ == "area":
                self.ctx.area_uses.append((node.name, node.span, name))
            elif type_ == NAME_KINDS["mark"] and self.ctx.is_declared("mark", node.name):
                self.ctx.mark_uses.append((node.name, node.span, name))
            return name, type_
        known = set(scope.variables) | self.names.known()
        hint = did_you_mean(node.name, known)
        if scope.prefix and not hint:  # inside a `define`: the caller's names are not seen
            hint = f"a `define` sees only its parameters ({', '.join(sorted(scope.variables)) or 'none'}): " \
                   f"pass `{node.name}` as one"
        self.ctx.error("E0505", f"unknown name `{node.name}`", node.span,
                       help=hint or "names here: " + ", ".join(sorted(scope.variables)))
        return model.Expr("var", value=node.name), "any"

    def _call(self, node: ast.Call, scope: Scope, statement: bool) -> tuple[model.Expr, str]:
        prim = registry.PRIMITIVES.get(node.name)
        args = [self._argument(prim, k, a, scope) for k, a in enumerate(node.args)]
        ir = model.Expr("call", tuple(e for e, _ in args), value=node.name)
        if prim is None:
            hint = did_you_mean(node.name, registry.PRIMITIVES)
            self.ctx.error("E0502", f"unknown primitive `{node.name}`", node.span,
                           help=hint or "docs/language.md lists the primitives")
            return ir, "any"
        if self.restriction is not None:
            what, board_only = self.restriction
            if prim.kind == CHOICE or prim.kind == RANDOM:
                asks = "asks a player" if prim.kind == CHOICE else "is a chance event"
                self.ctx.error("E0510", f"`{prim.name}` {asks}, which {what} cannot do", node.span,
                               help="use it inside the rule's effects: `let r = choose_resource(player)`")
                return ir, prim.returns or "any"
            if board_only and prim.kind == QUERY and prim.reads:
                self.ctx.error("E0509", f"`{prim.name}` reads the state of play, but {what} is decided "
                               "once, from the board alone", node.span,
                               help="use queries of the board here (land, water, coast, number, terrain, "
                                    "island, on_island); a condition on the builder goes in the piece's `placed where`")
                return ir, prim.returns or "any"
        if prim.kind == EFFECT and not statement:
            self.ctx.error("E0506", f"`{prim.name}` is an effect; it has no value", node.span,
                           help="call it as a statement on its own line")
            return ir, "any"  # reported once; no type error about its missing value
        if len(args) != len(prim.params):
            self.ctx.error("E0503",
                           f"`{prim.name}` takes {len(prim.params)} argument(s), not {len(args)}",
                           node.span, help=prim.signature())
        else:
            for p, (e, t), a in zip(prim.params, args, node.args):
                literal = _literal_int(e)
                if literal is not None and not p.admits(literal):
                    self.ctx.error("E0511", f"argument `{p.name}` of `{prim.name}` must be {p.range_text()}, "
                                   f"not {literal}", a.span, help=prim.signature())
                if not compatible(p.type, t):
                    quoted = t == "str" and p.type in ("token", "site_kind")
                    self.ctx.error("E0504",
                                   f"argument `{p.name}` of `{prim.name}` must be {p.type}, not {t}",
                                   a.span, help="a declared name is written without quotes"
                                   if quoted else None)
            if prim.name == "if_else":
                return ir, self._branches(node, args[1][1], args[2][1])
        return ir, prim.returns or "none"

    def _branches(self, node: ast.Call, then: str, otherwise: str) -> str:
        """The type of `if_else(c, a, b)`: that of its branches, which must agree (a list
        with a list of the same items, a number with a number), so that what it gives is
        checked where it is used like either branch would be."""
        joined = _join(then, otherwise)
        if joined is None and _nobody(node.args[2], then):
            joined = then  # `if_else(c, owner(at), -1)`: a player, or nobody
        if joined is None and _nobody(node.args[1], otherwise):
            joined = otherwise
        if joined is None:
            self.ctx.error("E0504", f"the branches of `if_else` differ: `then` is {then}, "
                           f"`otherwise` is {otherwise}", node.span,
                           help="give both branches one type: two numbers, two lists of one kind, two words")
            return "any"
        return joined

    def _argument(self, prim, index: int, node, scope: Scope) -> tuple[model.Expr, str]:
        """An argument; a bare name where an island is expected must be an island the
        map names (`island main at (q, r)`): E0416 says so, rather than "unknown name";
        likewise a die the dice name (`named red, white`): E0513."""
        if (
            prim is not None and index < len(prim.params) and prim.params[index].type == "island"
            and isinstance(node, ast.Var) and node.name not in scope.variables
            and self.names.lookup(node.name) is None
        ):
            named = sorted(self.ctx.declared.get("island", {}))
            hint = did_you_mean(node.name, named)
            self.ctx.error(
                "E0416", f"no map names an island `{node.name}`", node.span,
                help=hint or (f"islands named in the maps: {', '.join(named)}" if named else
                              f"name it in the map: `island {node.name} at (q, r)`, one of its land hexes"))
            return model.Expr("var", value=node.name), "island"
        if (
            prim is not None and index < len(prim.params) and prim.params[index].type == "die"
            and isinstance(node, ast.Var) and node.name not in scope.variables
            and not self.ctx.is_declared("die", node.name)
        ):
            named = sorted(self.ctx.declared.get("die", {}))
            hint = did_you_mean(node.name, named)
            self.ctx.error(
                "E0513", f"no die is named `{node.name}`", node.span,
                help=hint or (f"the dice are named {', '.join(named)}" if named else
                              "name the dice to read one: `dice 2d6 { named red, white }`"))
            return model.Expr("var", value=node.name), "die"
        return self.expr(node, scope, expected=prim.params[index].type
                         if prim is not None and index < len(prim.params) else None)


# Queries answer -1 for "nobody" or "none" (`owner`, `project_owner`, `island`): a value
# of these types compares with the number -1 and no other.
NOBODY_TYPES = frozenset(("player", "seat", "island"))


def _nobody(node, other: str) -> bool:
    """`-1` written beside a value of a type whose "nobody" is -1."""
    return (other in NOBODY_TYPES and isinstance(node, ast.Unary) and node.op == "neg"
            and isinstance(node.operand, ast.Lit) and node.operand.value == 1
            and not isinstance(node.operand.value, bool))


def _join(a: str, b: str) -> str | None:
    """The one type that values of types `a` and `b` share, None when they have none:
    `any` (a value not known until the game runs) takes the other's type, and an empty
    list's `list<any>` a list's."""
    if a == b or b == "any":
        return a
    if a == "any":
        return b
    if a.startswith("list<") and b.startswith("list<"):
        inner = _join(a[5:-1], b[5:-1])
        return None if inner is None else f"list<{inner}>"
    return None


def _literal_int(e: model.Expr) -> int | None:
    """The value of `5` or `-5`; None for anything computed."""
    if e.op == "num" and isinstance(e.value, int) and not isinstance(e.value, bool):
        return e.value
    if e.op == "neg" and e.args[0].op == "num" and isinstance(e.args[0].value, int):
        return -e.args[0].value
    return None


def condition_for_site(ctx: Context, lowering: HookLowering, node, site: str,
                       player: bool = False) -> model.Expr | None:
    """A `where` condition of a placement (`at` is the site) or of a set-up step (also
    `player`, the player placing)."""
    scope = Scope({"at": site, "player": "player"} if player else {"at": site}, lowering.names)
    expr, t = lowering.value(node, scope, "a `where` condition", board_only=True)
    if t not in ("bool", "any"):
        ctx.error("E0504", f"a `where` condition must be true or false, not {t}", node.span)
    return expr


__all__ = ["HookLowering", "NameTable", "Scope", "condition_for_site", "QUERY", "CHOICE"]
