"""Text -> AST. The only module that talks to Lark; no Lark type leaves it.

`parse(text, filename)` returns a `syntax.ast.File` or raises `CatanError` with the
diagnostics. Limits (file size in bytes and in tokens, NUL bytes, bracket and
expression depth) are checked here, before any recursive walk, so hostile input becomes
a diagnostic, not a crash or a long wait.
"""

from __future__ import annotations

import hashlib
import io
import os
import pickle
import re
import sys
from dataclasses import dataclass
from functools import lru_cache

import lark
from lark import Lark, Token, Transformer_NonRecursive, Tree, v_args
from lark.exceptions import UnexpectedInput

from catandsl import cache, resources
from catandsl.diagnostics import CatanError, Diagnostic, Span
from catandsl.syntax import ast
from catandsl.syntax.errors import syntax_diagnostic

MAX_FILE_BYTES = 1 << 20  # 1 MiB
# Parsing costs about 25 microseconds a token; this bounds a file's parse to about a
# second. The base game's rules and map are under 2,000 tokens.
MAX_TOKENS = 50_000
MAX_BRACKET_DEPTH = 64
# Later stages (the IR's JSON codec, dataclass equality, the engine's interpreter) walk
# expressions recursively, two or three Python frames a level; at 400 a file that
# compiled could not be written as JSON. Hand-written rules are a few levels deep.
MAX_TREE_DEPTH = 128

_OPENERS = {"LPAR": "RPAR", "LSQB": "RSQB", "LBRACE": "RBRACE"}
_CLOSERS = {"RPAR", "RSQB", "RBRACE"}
# A newline right after these tokens continues the statement.
_CONTINUES = {"LBRACE", "SEMICOLON"}


class _Newlines:
    """Postlexer: newlines end statements, except inside () and [] and right after
    `{`, `;` or another newline. It never looks ahead: Lark's contextual lexer lexes
    each token in the parser state of the token before, so a postlexer that buffers
    would lex with a stale state."""

    always_accept = ("_NL",)

    def process(self, stream):
        depth: list[str] = []  # open brackets, innermost last
        prev_type = None
        count = 0
        for tok in stream:
            count += 1
            if count > MAX_TOKENS:
                raise _TooMany(tok)
            if tok.type == "_NL":
                if depth and depth[-1] != "LBRACE":
                    continue
                if prev_type is None or prev_type in _CONTINUES or prev_type == "_NL":
                    continue
            elif tok.type in _OPENERS:
                depth.append(tok.type)
                if len(depth) > MAX_BRACKET_DEPTH:
                    raise _TooDeep(tok)
            elif tok.type in _CLOSERS and depth:
                depth.pop()
            elif tok.type in _NUMERIC and _TOO_MANY_DIGITS.search(tok):
                raise _TooBig(tok)
            prev_type = tok.type
            yield tok


class _TooDeep(Exception):
    def __init__(self, token: Token):
        self.token = token


class _TooMany(_TooDeep):
    pass


class _TooBig(_TooDeep):
    pass


# Every number of the language fits in MAX_DIGITS digits; a longer one is refused while
# the tokens stream, before Python converts it (thousands of digits cost time, and past
# 4,300 Python refuses to convert at all).
MAX_DIGITS = 9
_NUMERIC = ("NUMBER", "RANGE", "REPEAT")
_TOO_MANY_DIGITS = re.compile(rf"\d{{{MAX_DIGITS + 1},}}")


# ---- the parser and its cache ---------------------------------------------------------
#
# Building the LALR tables from the grammar is a large part of a command's start, and
# loading them from a cache a small one (docs/scale.md, "Start-up", has the figures).
# Doing without the cache would be safe and simplest, but slower on every run; shipping the
# built tables inside the package would need a build step and tie each wheel to one Lark
# and Python version. So the parser is kept in the per-user cache (catandsl/cache.py says
# how it is kept where no other user can write), and read with an unpickler that
# resolves exactly one global, `_Newlines` (Lark's serialized parser is otherwise plain
# dicts, lists, tuples and strings), so even a file that slipped past the checks could
# not name a function to call.
#
# Lark's own `cache=` option is not used: it reads a pickle from whatever path it is
# given, with plain `open` and an unrestricted `pickle.load`, before it checks anything.

_CACHE_FORMAT = 1  # bump when the parser is built differently in a way the key below misses
_LARK_OPTIONS = {"parser": "lalr", "strict": True, "propagate_positions": True, "maybe_placeholders": True}


def _grammar_text() -> str:
    return resources.grammar_path().read_text(encoding="utf-8")


def _build() -> Lark:
    return Lark(_grammar_text(), postlex=_Newlines(), **_LARK_OPTIONS)


@lru_cache(maxsize=1)
def _parser() -> Lark:
    dir_fd = cache.open_directory()
    if dir_fd is None:
        return _build()
    try:
        name = _cache_file_name()
        parser = _load_cached(dir_fd, name)
        if parser is None:
            parser = _build()
            _save_cached(dir_fd, name, parser)
        return parser
    finally:
        os.close(dir_fd)


def _cache_file_name() -> str:
    """The cache file's name: a hash of everything the built parser depends on."""
    key = repr(
        (
            _CACHE_FORMAT,
            lark.__version__,
            sys.version_info[:2],
            sorted(_LARK_OPTIONS.items()),
            _Newlines.always_accept,
            _grammar_text(),
        )
    )
    return f"parser-{hashlib.sha256(key.encode()).hexdigest()[:16]}.pickle"


class _CacheUnpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str):
        if (module, name) == (__name__, "_Newlines"):
            return _Newlines
        raise pickle.UnpicklingError(f"the parser cache may not refer to {module}.{name}")


def _load_cached(dir_fd: int, name: str) -> Lark | None:
    """The parser from the cache file, or None."""
    data = cache.read(dir_fd, name)
    if data is None:
        return None
    try:
        loaded = _CacheUnpickler(io.BytesIO(data)).load()
        # Lark.load takes the unpickled dict as well as a file (Lark.save wrote it).
        return Lark.load(loaded) if isinstance(loaded, dict) else None
    except Exception:  # a stale or damaged cache is rebuilt, never fatal
        return None


def _save_cached(dir_fd: int, name: str, parser: Lark) -> None:
    buffer = io.BytesIO()
    try:
        parser.save(buffer)
    except Exception:  # a parser that cannot be saved is only a slower next start
        return
    cache.write(dir_fd, name, buffer.getvalue())
    cache.prune(dir_fd, "parser-")



def parse(text: str | bytes, filename: str = "<input>") -> ast.File:
    """Parse one file's text (or its bytes, UTF-8) into an AST, or raise CatanError."""
    if isinstance(text, bytes):
        decoded, diag = decode_source(text, filename)
        text = decoded or ""
    else:
        diag = check_text_limits(text, filename)
    if diag is not None:
        raise CatanError([diag])
    try:
        tree = _parser().parse(text)
    except _TooMany as e:
        raise CatanError([_too_many(filename, e.token.line, e.token.column)]) from None
    except _TooBig as e:
        raise CatanError([Diagnostic(
            "E0110", f"the number `{str(e.token)[:20]}{'...' if len(e.token) > 20 else ''}` is too large: "
            f"numbers have at most {MAX_DIGITS} digits", Span(filename, e.token.line or 1, e.token.column or 1),
            help="no count, limit or value of a scenario comes near this")]) from None
    except _TooDeep as e:
        raise CatanError([_too_deep(filename, e.token.line, e.token.column)]) from None
    except UnexpectedInput as e:
        raise CatanError([syntax_diagnostic(e, text, filename, _parser())]) from None
    deep = _too_deep_tree(tree)
    if deep is not None:
        line, column = deep
        raise CatanError([_too_deep(filename, line, column)])
    return _ToAst(filename).transform(tree)


def decode_source(data: bytes, name: str) -> tuple[str | None, Diagnostic | None]:
    """A file's bytes as its text (UTF-8, a byte order mark dropped) within the limits:
    (text, None) or (None, diagnostic)."""
    if len(data) > MAX_FILE_BYTES:
        return None, Diagnostic("E0001", f"{name} is more than {MAX_FILE_BYTES:,} bytes",
                                Span(name, 1, 1), help="split the scenario with `import`")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        line_start = data.rfind(b"\n", 0, e.start) + 1
        # columns count characters, as everywhere else, not bytes
        col = len(data[line_start:e.start].decode("utf-8", "replace")) + 1
        return None, Diagnostic("E0002", f"{name} is not valid UTF-8 (byte 0x{data[e.start]:02x})",
                                Span(name, line, col), help="save the file as UTF-8 text")
    if text.startswith("\ufeff"):
        text = text[1:]
    diag = check_text_limits(text, name)
    if diag is not None:
        return None, diag
    return text, None


def check_text_limits(text: str, filename: str) -> Diagnostic | None:
    if len(text) > MAX_FILE_BYTES:
        return Diagnostic(
            "E0001",
            f"file is {len(text.encode('utf-8', 'replace')):,} bytes; the limit is {MAX_FILE_BYTES:,}",
            Span(filename, 1, 1),
            help="a scenario this large is almost certainly not a hand-written map; split it with `import`",
        )
    control = _CONTROL.search(text)
    if control is not None:
        at = control.start()
        line = text.count("\n", 0, at) + 1
        col = at - (text.rfind("\n", 0, at) + 1) + 1
        char = control.group()
        if char == "\0":
            return Diagnostic("E0003", "file contains a NUL byte", Span(filename, line, col),
                              help="a .catan file is UTF-8 text; this looks like a binary file")
        return Diagnostic(
            "E0003", f"file contains the control character {char!r}", Span(filename, line, col),
            help="a .catan file is plain text: no terminal escapes or other control characters "
                 "(tabs and newlines are fine)")
    return None


# Control characters other than tab, newline and carriage return (C0, DEL, C1): none
# belongs in a scenario, and one in a title could drive the terminal that prints it.
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def _too_many(filename: str, line: int | None, column: int | None) -> Diagnostic:
    return Diagnostic(
        "E0001",
        f"file has more than {MAX_TOKENS:,} tokens; this is where the limit is reached",
        Span(filename, line or 1, column or 1),
        help="a scenario this large is almost certainly not a hand-written map; split it with `import`",
    )


def _too_deep(filename: str, line: int | None, column: int | None) -> Diagnostic:
    return Diagnostic(
        "E0004",
        f"nesting is too deep (more than {MAX_BRACKET_DEPTH} brackets or an expression over {MAX_TREE_DEPTH} levels)",
        Span(filename, line or 1, column or 1),
        help="flatten the expression or list; scenario files never need this much nesting",
    )


def _too_deep_tree(tree: Tree) -> tuple[int, int] | None:
    """Depth of the parse tree, walked without recursion."""
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_TREE_DEPTH:
            meta = node.meta
            return (getattr(meta, "line", 1), getattr(meta, "column", 1))
        for child in node.children:
            if isinstance(child, Tree):
                stack.append((child, depth + 1))
    return None


# ---- Lark tree -> AST ------------------------------------------------------------------


@v_args(meta=True)  # every rule method gets (meta, children): its span comes from meta
class _ToAst(Transformer_NonRecursive):
    def __init__(self, filename: str):
        super().__init__()
        self.filename = filename

    # spans --------------------------------------------------------------------------
    def _span(self, meta) -> Span:
        if getattr(meta, "empty", True):
            return Span(self.filename, 1, 1)
        return Span(self.filename, meta.line, meta.column, meta.end_line, meta.end_column)

    def _tspan(self, tok: Token) -> Span:
        # the lexer gives every token a position; Lark types them optional for hand-made tokens
        return Span(self.filename, tok.line or 1, tok.column or 1, tok.end_line, tok.end_column)

    def _word(self, tok: Token) -> ast.Word:
        return ast.Word(self._tspan(tok), str(tok))

    def __default_token__(self, tok: Token):
        return tok

    # file and blocks ----------------------------------------------------------------
    def start(self, meta, c):
        return ast.File(self._span(meta), tuple(x for x in c if x is not None))

    def ruleset(self, meta, c):
        return ast.Ruleset(self._span(meta), self._word(c[0]), c[1])

    def scenario(self, meta, c):
        name, title, body = c
        return ast.Scenario(self._span(meta), self._word(name) if name else None, self._str(title), body)

    def block(self, meta, c):
        return ast.Block(self._span(meta), tuple(x for x in c if x is not None))

    def uses(self, meta, c):
        return ast.Uses(self._span(meta), self._word(c[0]))

    def import_(self, meta, c):
        return ast.Import(self._span(meta), self._str(c[0]))

    def for_players(self, meta, c):
        count, word, body = c
        if count.type == "RANGE":
            low, high = (int(x) for x in str(count).split(".."))
        else:
            low = high = int(count)
        return ast.ForPlayers(self._span(meta), low, high, self._word(word), body)

    def when_option(self, meta, c):
        return ast.WhenOption(self._span(meta), self._word(c[0]), self._word(c[1]), c[2])

    def without(self, meta, c):
        return ast.Without(
            self._span(meta), self._word(c[0]), self._word(c[1]) if c[1] is not None else None
        )

    def entry(self, meta, c):
        # children: head, phrases..., where-or-None, block-or-None (placeholders kept)
        head, where, block = c[0], c[-2], c[-1]
        phrases = tuple(x for x in c[1:-2] if x is not None)
        return ast.Entry(self._span(meta), self._word(head), phrases, where, block)

    def where(self, meta, c):
        return c[0]

    def tie_break(self, meta, c):
        # an entry like any other, each key a phrase of one expression
        span = self._span(meta)
        head = ast.Word(span, "tie_break")
        return ast.Entry(span, head, tuple(ast.Phrase(k.span, (k,)) for k in c), None, None)

    def phrase(self, meta, c):
        return ast.Phrase(self._span(meta), tuple(self._term(x) for x in c))

    def cost(self, meta, c):
        return ast.Cost(self._span(meta), c[0])

    def bundle(self, meta, c):
        return tuple(c)

    def amount(self, meta, c):
        count, name = c
        return ast.Amount(self._span(meta), int(count) if count is not None else 1, self._word(name))

    def amount_expr(self, meta, c):
        expr, name = c
        return ast.Amount(self._span(meta), 1, self._word(name), expr)

    def placement(self, meta, c):
        _on, site, where = c
        return ast.Placement(self._span(meta), self._word(site), where)

    # terms ----------------------------------------------------------------------------
    def _str(self, tok: Token) -> ast.Str:
        text = str(tok)
        if text.startswith('"""'):
            return ast.Str(self._tspan(tok), text[3:-3], long=True)
        return ast.Str(self._tspan(tok), text[1:-1])

    def _term(self, x):
        if isinstance(x, Token):
            if x.type == "NUMBER":
                return ast.Number(self._tspan(x), int(x))
            if x.type in ("STRING", "LONG_STRING"):
                return self._str(x)
            if x.type == "RANGE":
                low, high = (int(v) for v in str(x).split(".."))
                return ast.Range(self._tspan(x), low, high)
            return self._word(x)  # NAME, SYMBOL, ON
        return x

    def repeat(self, meta, c):
        term, rep = c
        return ast.Repeat(self._span(meta), self._term(term), int(str(rep)[1:]))

    def coord(self, meta, c):
        return ast.Coord(self._span(meta), c[0], c[1])

    def positive(self, meta, c):
        return int(c[0])

    def negative(self, meta, c):
        return -int(c[0])

    def minus_number(self, meta, c):
        return ast.Number(self._span(meta), -int(c[0]))

    def ratio(self, meta, c):
        return ast.Ratio(self._span(meta), int(c[0]), int(c[1]))

    def list(self, meta, c):
        return ast.ListTerm(self._span(meta), tuple(x for x in c if x is not None))

    # hooks ----------------------------------------------------------------------------
    def hook(self, meta, c):
        _on, event, filters, condition, effects = c
        return ast.Hook(self._span(meta), self._word(event), filters or (), condition, effects)

    def event_filter(self, meta, c):
        return tuple(
            ast.Number(self._tspan(t), int(t)) if t.type == "NUMBER" else self._word(t)
            for t in c
            if t is not None
        )

    def condition(self, meta, c):
        return c[0]

    def effects(self, meta, c):
        return tuple(x for x in c if x is not None)

    def call_stmt(self, meta, c):
        return ast.CallStmt(self._span(meta), c[0])

    def if_stmt(self, meta, c):
        cond, then, orelse = c
        if isinstance(orelse, ast.IfStmt):
            orelse = (orelse,)
        return ast.IfStmt(self._span(meta), cond, then, orelse or ())

    def let_stmt(self, meta, c):
        return ast.LetStmt(self._span(meta), str(c[0]), c[1])

    def for_stmt(self, meta, c):
        return ast.ForStmt(self._span(meta), str(c[0]), c[1], c[2])

    def var_stmt(self, meta, c):
        return ast.VarStmt(self._span(meta), str(c[0]), c[1])

    def assign_stmt(self, meta, c):
        return ast.AssignStmt(self._span(meta), str(c[0]), c[1])

    def _define(self, meta, c, body):
        name, *params = c
        return ast.Define(self._span(meta), self._word(name),
                          tuple(self._word(p) for p in params if p is not None), *body)

    def define_proc(self, meta, c):
        return self._define(meta, c[:-1], (c[-1], None))

    def define_fn(self, meta, c):
        return self._define(meta, c[:-1], ((), c[-1]))

    # expressions ----------------------------------------------------------------------
    @staticmethod
    def _bin(op: str):
        def f(self, meta, c):
            return ast.Binary(self._span(meta), op, c[0], c[1])

        return f

    or_ = _bin("or")
    and_ = _bin("and")
    eq = _bin("eq")
    ne = _bin("ne")
    lt = _bin("lt")
    le = _bin("le")
    gt = _bin("gt")
    ge = _bin("ge")
    add = _bin("add")
    sub = _bin("sub")
    mul = _bin("mul")
    in_ = _bin("in")
    del _bin

    def not_(self, meta, c):
        return ast.Unary(self._span(meta), "not", c[0])

    def neg(self, meta, c):
        return ast.Unary(self._span(meta), "neg", c[0])

    def number(self, meta, c):
        return ast.Lit(self._tspan(c[0]), int(c[0]))

    def string(self, meta, c):
        return ast.Lit(self._tspan(c[0]), str(c[0])[1:-1])

    def var(self, meta, c):
        return ast.Var(self._tspan(c[0]), str(c[0]))

    def true(self, meta, c):
        return ast.Lit(self._span(meta), True)

    def false(self, meta, c):
        return ast.Lit(self._span(meta), False)

    def call(self, meta, c):
        name, *args = c
        name = str(name)
        return ast.Call(self._span(meta), str(name), tuple(a for a in args if a is not None))

    def pair(self, meta, c):
        return ast.Pair(self._span(meta), c[0], c[1])

    def place(self, meta, c):
        return ast.Place(self._span(meta), c[0], c[1], self._word(c[2]))

    def index(self, meta, c):
        return ast.Index(self._span(meta), c[0], c[1])

    def list_expr(self, meta, c):
        return ast.ListExpr(self._span(meta), tuple(x for x in c if x is not None))


# ---- the token stream with comments, for the formatter ----------------------------------
#
# The parser drops comments (`%ignore COMMENT`) and the newlines the postlexer swallows,
# so a layout tool cannot work from the tree. A basic (not contextual) lexer over the
# same grammar gives every token in order, comments and newlines included; its token
# types can differ from the parser's (`x3` is always REPEAT), which a layout never needs.


@dataclass(frozen=True)
class Lexeme:
    """One token of the source: its terminal's name, its text and where it starts."""

    type: str  # the grammar's terminal name, COMMENT, _NL; whitespace is not returned
    text: str
    line: int
    column: int


@lru_cache(maxsize=1)
def _basic_lexer() -> Lark:
    return Lark(_grammar_text(), parser="lalr", lexer="basic")


def lexemes(text: str, filename: str = "<input>") -> list[Lexeme]:
    """Every token of `text` but whitespace, comments and newlines included. Call
    `parse` first: this checks no limits, and raises CatanError only on text the lexer
    cannot read at all."""
    try:
        return [
            Lexeme(t.type, str(t), t.line or 1, t.column or 1)
            for t in _basic_lexer().lex(text, dont_ignore=True)
            if t.type == "_NL" or str(t).strip(" \t\f")  # drop the ignored whitespace
        ]
    except UnexpectedInput as e:
        raise CatanError([syntax_diagnostic(e, text, filename, _parser())]) from None


def keywords() -> frozenset[str]:
    """The grammar's reserved words (`ruleset`, `if`, `and`, ...): its alphabetic literals."""
    rules = re.sub(r"//[^\n]*", "", _grammar_text())  # the comments quote head words
    return frozenset(re.findall(r'"([a-z_]+)"', rules))
