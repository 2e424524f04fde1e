"""AST -> IR: resolve `uses` and `import`, lower every declaration, check names and
rules, and check the map by instantiating a board for every player count and option.

Public functions: `compile_ast(tree, sources)` and `compile_path(path)`; both return
(scenario or None, diagnostics). `catandsl.compile`/`load` wrap them and raise.
"""

from __future__ import annotations

from pathlib import Path

from catandsl import resources
from catandsl.compiler.context import MAX_ERRORS, Context, TooManyErrors, did_you_mean
from catandsl.compiler.declarations import Declarations
from catandsl.compiler.hooks import HookLowering
from catandsl.compiler.loader import display_name, read_source
from catandsl.compiler.removals import check_removals
from catandsl.compiler.scopes import NameTable
from catandsl.compiler.validate import validate_scenario
from catandsl.diagnostics import CatanError, Diagnostic, Sources, Span, sort_key
from catandsl.ir import model
from catandsl.syntax import ast, kept
from catandsl.syntax.parser import parse

MAX_IMPORT_DEPTH = 16
MAX_FILES = 64
MAX_TOTAL_BYTES = 4 << 20  # every file of a scenario together: each may hold 1 MiB


def _is_file(path: Path) -> bool:
    try:
        return path.is_file()
    except OSError:  # a name too long for the file system, a loop of links
        return False


def _size(path: Path) -> int:
    """A file's size on disk before it is read (0 when it cannot be told: reading it
    then reports why)."""
    try:
        return path.stat().st_size
    except (OSError, ValueError):
        return 0


def _key(path: Path) -> str:
    """The name a file is known by (for cycles and diagnostics): resolved when it exists."""
    try:
        return display_name(path.resolve()) if path.exists() else display_name(path)
    except (OSError, RuntimeError):
        return display_name(path)


class _Compilation:
    def __init__(self, root: Path | None, sources: Sources):
        self.root = root.resolve() if root else None
        self.ctx = Context(sources=sources)
        self.hooks = HookLowering(self.ctx, NameTable(self.ctx, set()))
        self.lowering = Declarations(self.ctx, self.hooks, self._include)
        self.stack: list[str] = []  # files being compiled, outermost first
        self.done: set[str] = set()
        self.files: list[str] = []
        self.total_bytes = 0

    # ---- files -----------------------------------------------------------------------
    def run(self, tree: ast.File, filename: str, path: Path | None) -> model.Scenario | None:
        self._enter(filename, path)
        scenarios = [i for i in tree.items if isinstance(i, ast.Scenario)]
        rulesets = [i for i in tree.items if isinstance(i, ast.Ruleset)]
        if len(scenarios) > 1:
            self.ctx.error("E0306", "a file holds one scenario", scenarios[1].span)
        for item in tree.items:
            if isinstance(item, (ast.Uses, ast.Import)):
                self._include(item)
        if scenarios:
            main = scenarios[0]
            for rs in rulesets:
                self.lowering.body(rs.body)
            self.lowering.body(main.body)
            name = main.name.name if main.name else Path(filename).stem
            title = main.title.value
            span = main.span
        elif rulesets:
            for rs in rulesets:
                self.lowering.body(rs.body)
            name = rulesets[-1].name.name
            title = self.lowering.title or name
            span = rulesets[-1].span
        else:
            self.ctx.error("E0307", "the file declares no scenario or ruleset", Span(filename, 1, 1),
                           help='start with `scenario "Title" { uses base ... }`')
            return None
        self._leave(filename)
        sections = self.lowering.finish()
        self.ctx.check_references()
        self.ctx.check_counter_names()
        low, high = (self.lowering.players or (0, 0, None))[:2]
        if self.lowering.players is None:
            self.ctx.error("E0305", "the scenario does not say how many play it", span,
                           help="add `players 3..4` (or `uses base`, which says it)")
            low, high = 1, 1
        scenario = model.Scenario(
            name=name, title=title, players_min=low, players_max=high,
            options=tuple(self.lowering.options), sections=tuple(sections),
            files=tuple(self.files),
        )
        if self.ctx.failed or not scenarios:
            return scenario  # a ruleset alone is a library: it need not have a map
        check_removals(self.ctx, scenario, span)
        if self.ctx.failed:
            return scenario
        validate_scenario(self.ctx, scenario, span)
        return scenario

    def _enter(self, filename: str, path: Path | None) -> None:
        self.stack.append(filename)
        self.done.add(filename)
        self.files.append(filename)

    def _leave(self, filename: str) -> None:
        self.stack.pop()

    def _include(self, stmt) -> None:
        if isinstance(stmt, ast.Uses):
            path = resources.stdlib_dir() / f"{stmt.name.name}.catan"
            if not _is_file(path):
                known = sorted(p.stem for p in resources.stdlib_dir().glob("*.catan"))
                self.ctx.error("E0201", f"there is no standard ruleset `{stmt.name.name}`", stmt.name.span,
                               help=did_you_mean(stmt.name.name, known) or "standard rulesets: " + ", ".join(known))
                return
            allowed = True
        else:
            current = self.stack[-1]
            base = Path(current).parent
            path = (base / stmt.path.value)
            allowed = self._inside_root(path)
            if not allowed:
                self.ctx.error("E0203", f"import \"{stmt.path.value}\" leaves the scenario's folder",
                               stmt.path.span,
                               help="imports may only name files inside the folder of the scenario being loaded")
                return
        key = _key(path)
        if key in self.stack:
            chain = " -> ".join(self.stack + [key])
            self.ctx.error("E0204", f"import cycle: {chain}", stmt.span,
                           help="a file cannot use itself, directly or through other files")
            return
        if key in self.done:
            return  # each file once: a diamond of `uses base` includes base once
        if len(self.stack) >= MAX_IMPORT_DEPTH or len(self.files) >= MAX_FILES:
            self.ctx.error("E0205", f"imports nest deeper than {MAX_IMPORT_DEPTH} files or name more than {MAX_FILES}",
                           stmt.span)
            return
        if self.total_bytes + _size(path) > MAX_TOTAL_BYTES:  # found before the file is read
            self._too_many_bytes(stmt)
            return
        text, diag = read_source(path, stmt.span)
        if diag is not None:
            if diag.code == "E0005" and isinstance(stmt, ast.Import):
                diag = Diagnostic("E0202", f"cannot import \"{stmt.path.value}\": no such file",
                                  stmt.path.span, help=f"looked for {display_name(path)}")
            self.ctx.diagnostics.append(diag)
            return
        assert text is not None  # read_source gives the text or a diagnostic
        self.total_bytes += len(text.encode("utf-8"))
        if self.total_bytes > MAX_TOTAL_BYTES:  # a file that grew since its size was read
            self._too_many_bytes(stmt)
            return
        self.ctx.sources.add(key, text)
        try:
            tree = kept.parse(text, key)  # kept per text: the standard rulesets and imports parse once
        except CatanError as e:
            self.ctx.diagnostics.extend(e.diagnostics)
            return
        self._enter(key, path)
        for item in tree.items:
            if isinstance(item, (ast.Uses, ast.Import)):
                self._include(item)
            elif isinstance(item, ast.Ruleset):
                if isinstance(stmt, ast.Uses) and item.name.name != stmt.name.name:
                    self.ctx.error("E0207", f"stdlib/{stmt.name.name}.catan declares ruleset `{item.name.name}`",
                                   item.name.span)
                self.lowering.body(item.body)
            else:
                self.ctx.error("E0208", "an imported file holds rulesets, not a scenario", item.span,
                               help="import files that declare `ruleset NAME { }`")
        self._leave(key)

    def _too_many_bytes(self, stmt) -> None:
        """E0205 for an import past the bound on the bytes of a scenario and its imports;
        every later import is refused the same way, none read."""
        self.total_bytes = MAX_TOTAL_BYTES + 1
        self.ctx.error("E0205", f"the files a scenario imports hold more than {MAX_TOTAL_BYTES:,} bytes together",
                       stmt.span, help="a scenario needs a fraction of this")

    def _inside_root(self, path: Path) -> bool:
        if self.root is None:
            return False
        try:
            path.resolve().relative_to(self.root)
            return True
        except (ValueError, OSError, RuntimeError):
            return False


def head_words() -> dict[str, str]:
    """Every head word a declaration's body takes, and where it is written: a ruleset's
    or scenario's body, a piece's block, a map's block (the first place for a word
    written in several)."""
    from catandsl.compiler.declarations import BODY
    from catandsl.compiler.maps import MAP
    from catandsl.compiler.pieces import PIECE

    out: dict[str, str] = {}
    for table, where in ((BODY, "a ruleset's or scenario's body"), (PIECE, "a piece's block"),
                         (MAP, "a map's block")):
        for word in table:
            out.setdefault(word, where)
    return out


# Words written inside a line or a small block rather than at a declaration's head, and
# where: the language server's hover and completion read them here.
INNER_WORDS = {
    "keep": "a `numbers` line (`keep [6, 8] off [TERRAIN]` or `off MARK`: those numbers kept off those hexes)",
    "along": "a `numbers` line (`numbers along MARK [...]`: the tokens in order along a path of hexes)",
    "max_clump": "a `harbors shuffled` line (no two harbors of a kind side by side) or a `pool`",
    "shared": "a counter's block (one value for the whole game)",
    "reshuffle": "a deck's block (the cards played from it and set aside go back in when it runs out)",
}


def compile_ast(
    tree: ast.File, sources: Sources | None = None, root: Path | None = None
) -> tuple[model.Scenario | None, list[Diagnostic]]:
    """The IR of a parsed file and every diagnostic (the scenario is None on errors).
    The last stage of `check`, a short game, is the front door's (catandsl/checks.py)."""
    sources = sources or Sources()
    filename = tree.span.file
    if root is None:
        p = Path(filename)
        root = p.parent if p.exists() else None
    comp = _Compilation(root, sources)
    stopped: list[Diagnostic] = []  # reported last, after the errors it cut short
    try:
        scenario = comp.run(tree, filename, Path(filename))
    except RecursionError:
        comp.ctx.diagnostics.append(
            Diagnostic("E0004", "the scenario nests too deeply to compile", tree.span))
        scenario = None
    except TooManyErrors:
        stopped.append(Diagnostic(
            "E0008", f"too many errors: stopped after {MAX_ERRORS}",
            comp.ctx.diagnostics[-1].span,
            help="fix the errors reported so far and check the file again"))
        scenario = None
    diags = sorted(comp.ctx.diagnostics, key=sort_key) + stopped
    if any(d.is_error for d in diags):
        return None, diags
    return scenario, diags


def compile_path(path: str | Path, root: Path | None = None, sources: Sources | None = None
                 ) -> tuple[model.Scenario | None, list[Diagnostic], Sources]:
    path = Path(path)
    sources = sources or Sources()
    text, diag = read_source(path)
    if diag is not None:
        return None, [diag], sources
    assert text is not None  # read_source gives the text or a diagnostic
    name = display_name(path)
    sources.add(name, text)
    try:
        tree = parse(text, name)  # the file being worked on: its imports' trees are the ones kept
    except CatanError as e:
        return None, list(e.diagnostics), sources
    scenario, diags = compile_ast(tree, sources, root or path.resolve().parent)
    return scenario, diags, sources
