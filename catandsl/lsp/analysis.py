"""What the language server knows about a document, without any LSP types: the
diagnostics `check` gives (as you type: parse and compile; on save also the short trial
games, which would cost too much on every keystroke), the declarations of the file and the files it uses, the word
under the cursor, and the texts of hovers and completions. Nothing here runs anything
from the document; it is parsed and compiled, as `check` does.

Positions are 0-based (line, character) pairs, as LSP counts them; spans are 1-based.
Columns count code points (LSP counts UTF-16 units: they differ only past the BMP).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from catandsl import resources
from catandsl.compiler import MAX_TOTAL_BYTES, compile_ast
from catandsl.compiler.loader import read_source
from catandsl.diagnostics import CatanError, Diagnostic, Sources, Span
from catandsl.ir import model
from catandsl.rules.registry import EVENTS, PRIMITIVES
from catandsl.syntax import ast
from catandsl.syntax.parser import keywords, parse

MAX_INCLUDED = 32  # files read to find declarations (the compiler's own limit is higher)
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
DID_YOU_MEAN = re.compile(r"did you mean `([^`]+)`\?")


@dataclass(frozen=True)
class Declaration:
    """A declaration in the outline: its kind, name, spans and the declarations inside it."""

    kind: str  # the head word: piece, terrain, option, rule, map, ruleset, ...
    name: str
    span: Span  # the whole entry
    name_span: Span
    children: tuple[Declaration, ...] = ()
    shown: str | None = None  # how hover names it, when not `kind name`: a define's signature


@dataclass
class Analysis:
    """One version of one document."""

    filename: str
    text: str
    tree: ast.File | None
    diagnostics: list[Diagnostic]
    scenario: model.Scenario | None


def analyse(text: str, filename: str, trial: bool = False) -> Analysis:
    """Parse and compile; with `trial` (on save) also the short games that end `check`."""
    sources = Sources()
    sources.add(filename, text)
    try:
        tree = parse(text, filename)
    except CatanError as e:
        return Analysis(filename, text, None, list(e.diagnostics), None)
    path = Path(filename)
    root = path.parent if path.parent.is_dir() else None
    try:
        if trial:
            from catandsl.checks import check_ast

            scenario, diags = check_ast(tree, sources, root)
            if scenario is not None:
                diags = diags + _lint_findings(scenario, filename, sources, diags)
        else:
            scenario, diags = compile_ast(tree, sources, root)
    except CatanError as e:
        scenario, diags = None, list(e.diagnostics)
    return Analysis(filename, text, tree, diags, scenario)


def _lint_findings(scenario, filename: str, sources: Sources, found: list) -> list:
    """On save, what `catandsl lint` finds in the map (its pyproject.toml settings and
    `# catandsl: ignore[...]` comments respected), beside `check`'s diagnostics."""
    from catandsl.checks import is_library
    from catandsl.diagnostics import Span
    from catandsl.lint.config import ConfigError, LintConfig, find_pyproject, load_config
    from catandsl.lint.run import is_ignored, lint_scenario

    if not scenario.sections or is_library(scenario):
        return []
    try:
        config = load_config(find_pyproject(Path(filename).resolve().parent))
    except ConfigError:
        config = LintConfig()  # a broken pyproject.toml is `lint`'s to report, not the editor's
    reported = {(d.code, d.span) for d in found}
    return [d for d in lint_scenario(scenario, Span(filename, 1, 1), config)
            if (d.code, d.span) not in reported and not is_ignored(d, config, sources)]


# ---- declarations ------------------------------------------------------------------------


def declarations(tree: ast.File | None) -> list[Declaration]:
    """The file's named declarations as a tree: rulesets and scenarios, and inside them
    every entry with a block (its first word its name, or else its head word: `map`)."""
    if tree is None:
        return []
    out = []
    for item in tree.items:
        if isinstance(item, ast.Ruleset | ast.Scenario):
            kind = "ruleset" if isinstance(item, ast.Ruleset) else "scenario"
            name_word = item.name
            name = name_word.name if name_word else kind
            out.append(Declaration(kind, name, item.span, name_word.span if name_word else item.span,
                                   tuple(_block_declarations(item.body))))
    return out


def _block_declarations(block: ast.Block | None) -> list[Declaration]:
    out: list[Declaration] = []
    for stmt in block.stmts if block else ():
        if isinstance(stmt, ast.Entry) and stmt.block is not None:
            word = _first_word(stmt)
            name = word.name if word else stmt.head.name
            out.append(Declaration(stmt.head.name, name, stmt.span, word.span if word else stmt.head.span,
                                   tuple(_block_declarations(stmt.block))))
        elif isinstance(stmt, ast.ForPlayers | ast.WhenOption):
            out.extend(_block_declarations(stmt.body))
        elif isinstance(stmt, ast.Define):  # named by its signature, as hover shows it
            out.append(Declaration("define", stmt.name.name, stmt.span, stmt.name.span, (),
                                   f"define {stmt.name.name}({', '.join(p.name for p in stmt.params)})"
                                   + (" = ..." if stmt.body is not None else " { ... }")))
        elif isinstance(stmt, ast.Entry) and stmt.head.name == "mark" and (word := _first_word(stmt)):
            out.append(Declaration("mark", word.name, stmt.span, word.span, ()))
    return out


def _first_word(entry: ast.Entry) -> ast.Word | None:
    if entry.phrases and entry.phrases[0].terms and isinstance(entry.phrases[0].terms[0], ast.Word):
        return entry.phrases[0].terms[0]
    return None


def flat(decls: list[Declaration] | tuple[Declaration, ...]) -> list[Declaration]:
    out: list[Declaration] = []
    for d in decls:
        out.append(d)
        out.extend(flat(d.children))
    return out


def included_files(tree: ast.File | None, filename: str) -> list[Path]:
    """The files `uses` and `import` bring in, transitively, in order (read, never run),
    within the compiler's bounds: at most MAX_INCLUDED files and MAX_TOTAL_BYTES
    together, each file's size read before the file."""
    seen: list[Path] = []
    total = 0
    todo: list[tuple[ast.File, Path]] = [(tree, Path(filename))] if tree else []
    while todo and len(seen) < MAX_INCLUDED:
        current, path = todo.pop(0)
        for stmt in _includes(current):
            target = (resources.stdlib_dir() / f"{stmt.name.name}.catan" if isinstance(stmt, ast.Uses)
                      else path.parent / stmt.path.value)
            if target in seen or not target.is_file():
                continue
            total += target.stat().st_size
            if total > MAX_TOTAL_BYTES or len(seen) >= MAX_INCLUDED:
                return seen
            seen.append(target)
            parsed = _parse_file(str(target))
            if parsed is not None:
                todo.append((parsed, target))
    return seen


def _includes(tree: ast.File) -> list[ast.Uses | ast.Import]:
    out: list[ast.Uses | ast.Import] = []
    stack: list = list(tree.items)
    while stack:
        node = stack.pop(0)
        if isinstance(node, ast.Uses | ast.Import):
            out.append(node)
        elif isinstance(node, ast.Ruleset | ast.Scenario | ast.ForPlayers | ast.WhenOption):
            stack.extend(node.body.stmts)
    return out


@lru_cache(maxsize=64)
def _parse_cached(path: str, mtime: float) -> ast.File | None:
    text, _ = read_source(Path(path))  # the compiler's checks: size, encoding, control characters
    if text is None:
        return None
    try:
        return parse(text, path)
    except CatanError:
        return None


def _parse_file(path: str) -> ast.File | None:
    try:
        return _parse_cached(path, Path(path).stat().st_mtime)
    except OSError:
        return None


def definition(analysis: Analysis, line: int, character: int) -> Span | None:
    """Where the word at the position is declared: a `uses` name's stdlib file, an
    `import`'s file, or a declaration in this file or one it includes."""
    tree = analysis.tree
    if tree is None:
        return None
    for stmt in _includes(tree):
        if _inside(stmt.span, line, character):
            if isinstance(stmt, ast.Uses):
                target = resources.stdlib_dir() / f"{stmt.name.name}.catan"
            else:
                target = Path(analysis.filename).parent / stmt.path.value
            return Span(str(target), 1, 1) if target.is_file() else None
    word = word_at(analysis.text, line, character)
    if word is None:
        return None
    for d in flat(declarations(tree)):
        if d.name == word and d.name_span.line:
            return d.name_span
    for path in included_files(tree, analysis.filename):
        for d in flat(declarations(_parse_file(str(path)))):
            if d.name == word:
                return d.name_span
        found = _listed(_parse_file(str(path)), word)
        if found is not None:
            return found
    return _listed(tree, word)


def _listed(tree: ast.File | None, word: str) -> Span | None:
    """A name declared in a list (`resources brick, lumber`): the first entry of a
    ruleset's or scenario's body, without a block, naming the word as a whole phrase."""
    for item in tree.items if tree else ():
        if isinstance(item, ast.Ruleset | ast.Scenario):
            for stmt in item.body.stmts:
                if isinstance(stmt, ast.Entry) and stmt.block is None and len(stmt.phrases) > 1:
                    for ph in stmt.phrases:
                        if len(ph.terms) == 1 and isinstance(ph.terms[0], ast.Word) and ph.terms[0].name == word:
                            return ph.terms[0].span
    return None


def _inside(span: Span, line: int, character: int) -> bool:
    start = (span.line - 1, span.column - 1)
    end = ((span.end_line or span.line) - 1, (span.end_column or span.column + 1) - 1)
    return start <= (line, character) <= end


def word_at(text: str, line: int, character: int) -> str | None:
    lines = text.split("\n")
    if not 0 <= line < len(lines):
        return None
    for m in _WORD.finditer(lines[line]):
        if m.start() <= character <= m.end():
            return m.group()
    return None


# ---- hover ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Role:
    """What a word does where it is written: a call (a `(` follows it), and otherwise the
    head word of the block around it and the words of its statement before it."""

    call: bool
    block: str | None  # `travels`, `token`, `piece`...; None outside any block
    before: tuple[str, ...]  # the statement's words before this one: (`for`, `p`) before `in`


def role_at(text: str, line: int, character: int) -> Role | None:
    """The role of the word at the position, read from the text before it (strings and
    comments skipped), so that it holds while the file does not parse."""
    lines = text.split("\n")
    if not 0 <= line < len(lines):
        return None
    m = next((m for m in _WORD.finditer(lines[line]) if m.start() <= character <= m.end()), None)
    if m is None:
        return None
    end = sum(len(x) + 1 for x in lines[:line]) + m.start()
    blocks: list[str | None] = []
    statement: list[str] = []
    depth = 0  # inside ( ) and [ ], where a new line does not end a statement
    i = 0
    while i < end:
        c = text[i]
        if c == "#":
            i = text.find("\n", i)
            i = end if i < 0 else i
            continue
        if c == '"':
            quote = '"""' if text.startswith('"""', i) else '"'
            close = text.find(quote, i + len(quote))
            i = end if close < 0 else close + len(quote)
            continue
        w = _WORD.match(text, i)
        if w is not None:
            statement.append(w.group())
            i = w.end()
            continue
        if c in "([":
            depth += 1
        elif c in ")]":
            depth = max(0, depth - 1)
        elif c == "{":
            blocks.append(statement[0] if statement else None)
            statement, depth = [], 0
        elif c == "}":
            if blocks:
                blocks.pop()
            statement, depth = [], 0
        elif c == ";" or (c == "\n" and depth == 0):
            statement = []
        i += 1
    call = re.match(r"\s*\(", lines[line][m.end():]) is not None
    return Role(call, blocks[-1] if blocks else None, tuple(statement))


# Words whose meaning depends on where they are written, and the part of
# docs/language.md that says what each means there: (word, role) -> (heading of the
# section, a pattern picking its table row or list item; None: its first paragraph). The
# role is the head word of the block around the word, or `membership` for an `in` that
# tests a list rather than naming a `for` loop's list.
ROLE_DOCS: dict[tuple[str, str], tuple[str, str | None]] = {
    ("points", "travels"): ("travels", r"`points "),
    ("points", "token"): ("points that count off", None),
    ("points", "counter"): ("points that count off", None),
    ("points", "piece"): ("4. Pieces", r"`points "),
    ("points", "card"): ("Decks and cards", r"`points N`"),
    ("points", "award"): ("Awards", r"`points N`"),
    ("points", "stage"): ("Projects built in stages", None),
    ("in", "membership"): ("Places: hexes, intersections and paths", r"whether a list holds"),
}
ROLE_NAMES = {"membership": "a membership test in an expression"}


def role_doc(word: str, role: Role) -> str | None:
    """The hover of a word whose section depends on its role, None for any other."""
    if role.call:
        return None
    if word == "in":
        kind = None if role.before[:1] == ("for",) and len(role.before) == 2 else "membership"
    else:
        kind = role.block
    if kind is None or (word, kind) not in ROLE_DOCS:
        return None
    heading, pattern = ROLE_DOCS[(word, kind)]
    where = ROLE_NAMES.get(kind) or f"written in a `{kind}` block"
    found = section_part(heading, pattern)
    return f"`{word}`: {where}" + (f"\n\n{found}" if found else "")


@lru_cache(maxsize=64)
def section_part(heading: str, pattern: str | None) -> str | None:
    """The first paragraph of the section under `heading` or, with a pattern, the first
    table row (its cells joined) or list item (its lines joined) of the section it matches."""
    paragraphs = [p.strip() for p in re.split(r"\n\s*\n", _language_doc())]
    title = re.compile(rf"^#+\s*{re.escape(heading)}$")
    start = next((i for i, p in enumerate(paragraphs) if title.match(p)), None)
    if start is None:
        return None
    section = []
    for p in paragraphs[start + 1:]:
        if p.startswith("#") and "\n" not in p:  # the next heading ends the section
            break
        section.append(p)
    if pattern is None:
        return next((p for p in section if _prose(p)), None)
    for p in section:
        items: list[str] = []
        for line in p.split("\n"):
            if line.startswith(("- ", "| ")):
                items.append(line)
            elif items and line.startswith("  "):
                items[-1] += " " + line.strip()
        for item in items:
            if re.search(pattern, item):
                if item.startswith("| "):
                    cells = [c.strip() for c in item.strip("| ").split(" | ")]
                    return f"{cells[0]}: {', '.join(cells[1:])}" if len(cells) > 1 else cells[0]
                return item[2:]
    return None


def hover(analysis: Analysis, line: int, character: int) -> str | None:
    word = word_at(analysis.text, line, character)
    if word is None:
        return None
    role = role_at(analysis.text, line, character)
    doc = role_doc(word, role) if role is not None else None
    if doc is not None:
        return doc
    if word in PRIMITIVES:
        p = PRIMITIVES[word]
        return f"```\n{signature(word)}\n```\n{p.doc}"
    if word in EVENTS:
        e = EVENTS[word]
        params = ", ".join(str(x) for x in e.params)
        return f"```\non {word}  # event ({params})\n```\n{e.doc}"
    for d in flat(declarations(analysis.tree)):
        if d.name == word and d.kind != word:
            shown = d.shown or f"{d.kind} {d.name}"
            return f"`{shown}`, declared at line {d.name_span.line}" + _comment_above(analysis.text, d.span)
    doc = head_word_doc(word)
    if doc is not None:
        return doc
    for path in included_files(analysis.tree, analysis.filename):
        for d in flat(declarations(_parse_file(str(path)))):
            if d.name == word:
                return f"`{d.kind} {d.name}`, declared in `{path.name}` line {d.name_span.line}"
    kinds = [k for k, names in names_by_kind(analysis.scenario).items() if word in names]
    if kinds:
        return f"`{word}`: {', '.join(kinds)}"
    return None


def _comment_above(text: str, span: Span) -> str:
    """The comment lines right above a declaration: its documentation."""
    lines = text.split("\n")
    out: list[str] = []
    i = span.line - 2
    while 0 <= i < len(lines) and lines[i].strip().startswith("#"):
        out.insert(0, lines[i].strip().lstrip("#").strip())
        i -= 1
    return "\n\n" + " ".join(out) if out else ""


def signature(name: str) -> str:
    p = PRIMITIVES[name]
    return p.signature() + (f" -> {p.returns}" if p.returns else "")


def head_words() -> dict[str, str]:
    """Every head word the compiler knows, and where it is written."""
    from catandsl.compiler import head_words as declared

    out = declared()
    for word in keywords():
        out.setdefault(word, "the language's own syntax")
    return out


@lru_cache(maxsize=1)
def _language_doc() -> str:
    for candidate in (resources.grammar_path().parents[1] / "docs" / "language.md",):
        try:
            return candidate.read_text(encoding="utf-8")
        except OSError:
            pass
    return ""


def head_word_doc(word: str) -> str | None:
    """A head word's hover: where it goes, and the first paragraph of its section of
    docs/language.md (a heading naming the word), or else the first paragraph that
    starts by showing it in code, when the source tree's docs are there (a wheel has none)."""
    from catandsl.compiler import INNER_WORDS

    where = head_words().get(word) or INNER_WORDS.get(word)
    if where is None:
        return None
    text = f"`{word}`: written in {where}"
    paragraph = _doc_paragraph(word)
    return text + "\n\n" + paragraph if paragraph else text


@lru_cache(maxsize=256)
def _doc_paragraph(word: str) -> str | None:
    paragraphs = [p.strip() for p in re.split(r"\n\s*\n", _language_doc())]
    # the most specific heading first: `### when` before `## 8. Variants: options, when, ...`
    headings = sorted((-len(p) + len(p.lstrip("#")), i) for i, p in enumerate(paragraphs) if _names(p, word))
    for _, i in headings:
        for following in paragraphs[i + 1:i + 4]:
            if _prose(following):
                return following
    shown = re.compile(rf"`{re.escape(word)}[` ]")  # a paragraph that starts by showing it
    found = next((p for p in paragraphs if shown.match(p)), None)
    return found or _doc_item(paragraphs, word)


def _doc_item(paragraphs: list[str], word: str) -> str | None:
    """The first item of a list, or row of a table, whose code at its start holds the
    word: `- `numbers along NAME [...]`: ...`, `| `upgrades P` | ... |`, for a word
    written inside a line that no heading or paragraph of its own names."""
    code = re.compile(rf"^(?:- |\| )`([^`]*\b{re.escape(word)}\b[^`]*)`")
    for p in paragraphs:
        item: list[str] = []
        for line in p.split("\n"):
            if line.startswith(("- ", "| ")):
                if item:
                    break
                if code.match(line):
                    item.append(line)
            elif item and line.startswith("  "):
                item.append(line.strip())
        if item:
            text = " ".join(item)
            if text.startswith("| "):  # a table row: its first cell, then what it means
                cells = [c.strip() for c in text.strip("| ").split(" | ")]
                return f"{cells[0]}: {cells[1]}" if len(cells) > 1 else cells[0]
            return text[2:]
    return None


def _names(paragraph: str, word: str) -> bool:
    """A heading about the word: `### rows and legend`, `### tokens and sites`."""
    if not paragraph.startswith("#") or "\n" in paragraph:
        return False
    title = re.sub(r"^#+\s*(\d+\.\s*)?", "", paragraph).replace("`", "")
    items = re.split(r",\s*|\s+and\s+|:\s*", title)
    return any(item.strip() in (word, word + "s") for item in items)


def _prose(paragraph: str) -> bool:
    return bool(paragraph) and not paragraph.startswith(("```", "|", "<!--", "#", "-", "    "))


# ---- completion ---------------------------------------------------------------------------


def names_by_kind(scenario: model.Scenario | None) -> dict[str, list[str]]:
    """The names a compiled scenario declares, by kind (resource, terrain, piece, ...),
    options and their items included."""
    out: dict[str, set[str]] = {}
    if scenario is None:
        return {}
    for section in scenario.sections:
        for decl in section.decls:
            name = getattr(decl, "name", None)
            if isinstance(name, str):
                out.setdefault(type(decl).__name__.lower(), set()).add(name)
            cards = getattr(decl, "cards", ())
            for card in cards if isinstance(cards, tuple | list) else ():
                if isinstance(getattr(card, "name", None), str):
                    out.setdefault("card", set()).add(card.name)
    for option in scenario.options:
        out.setdefault("option", set()).add(option.name)
        out.setdefault(f"item of {option.name}", set()).update(i.name for i in option.items)
    return {k: sorted(v) for k, v in sorted(out.items())}


@dataclass(frozen=True)
class Completion:
    """A word the editor may offer at the cursor."""

    label: str
    kind: str  # event, primitive, keyword, or a declaration's kind
    detail: str
    insert: str | None = None  # a snippet, for primitives


def completions(analysis: Analysis, last_good: model.Scenario | None, line: int, character: int) -> list[Completion]:
    """What may be written at the position: events after `on`, a head word at the start
    of a line, otherwise declared names and primitives with their signatures."""
    lines = analysis.text.split("\n")
    before = lines[line][:character] if 0 <= line < len(lines) else ""
    words = before.split()
    prefix_done = before and not before[-1].isspace()
    previous = words[-2] if prefix_done and len(words) >= 2 else (words[-1] if words and not prefix_done else None)
    if previous == "on":
        return [Completion(n, "event", e.doc) for n, e in sorted(EVENTS.items())]
    known = names_by_kind(analysis.scenario or last_good)
    typed = words[:-1] if prefix_done else words
    if len(typed) >= 3 and typed[-3] == "when" and typed[-1] == "is":  # `when OPTION is ITEM`
        items = known.get(f"item of {typed[-2]}", [])
        return [Completion(n, "item", f"item of {typed[-2]}") for n in items]
    out: list[Completion] = []
    if len(words) <= (1 if prefix_done else 0):
        from catandsl.compiler import INNER_WORDS

        heads = head_words()
        out += [Completion(w, "keyword", f"written in {where}") for w, where in sorted(heads.items())]
        # a word of a small block (a deck's `reshuffle`) may start a line too
        out += [Completion(w, "keyword", f"written in {where}") for w, where in sorted(INNER_WORDS.items())
                if w not in heads]
    else:
        from catandsl.compiler import INNER_WORDS

        out += [Completion(w, "keyword", f"written in {where}") for w, where in sorted(INNER_WORDS.items())]
    for kind, names in known.items():
        out += [Completion(n, kind, kind) for n in names]
    if "cost" in typed:  # a count in brackets in a cost: the names it reads besides declared ones
        from catandsl.compiler.costs import scope_names

        out += [Completion(n, "variable", f"in a cost's count: {t}")
                for n, t in scope_names(level="stage" in typed).items()]
    # a `define` is expanded where it is called and a mark lies inside its map: neither
    # is a declaration of the compiled scenario, so they come from the text
    out += [Completion(d.name, d.kind, d.shown or d.kind) for d in flat(declarations(analysis.tree))
            if d.kind in ("define", "mark")]
    for name in sorted(PRIMITIVES):
        params = PRIMITIVES[name].params
        snippet = f"{name}(" + ", ".join(f"${{{i + 1}:{p.name}}}" for i, p in enumerate(params)) + ")"
        out.append(Completion(name, "primitive", signature(name), snippet))
    return out


def did_you_mean(diag: Diagnostic) -> str | None:
    m = DID_YOU_MEAN.search(diag.help or "")
    return m.group(1) if m else None
