"""`catandsl lsp`: the language server (pygls, over stdio).

Every handler goes through `_safe`: a document the compiler cannot handle, or a request
about a position that does not exist, gives no answer (None) and a line in the log,
never a dead server. The work itself is in analysis.py.
"""

from __future__ import annotations

import functools
import logging
from pathlib import Path

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from catandsl.diagnostics import CatanError, Diagnostic, Span
from catandsl.lsp import analysis as an
from catandsl.syntax.fmt import LayoutError, format_source

log = logging.getLogger(__name__)

server = LanguageServer("catandsl", "unknown")  # serve() sets the installed version
_documents: dict[str, an.Analysis] = {}
_last_good: dict[str, object] = {}  # uri -> the last scenario that compiled, for completion


def _safe(default=None):
    def wrap(fn):
        @functools.wraps(fn)
        def run(*args, **kwargs):
            try:
                return fn(*args, **kwargs)
            except Exception:  # noqa: BLE001 - the server outlives any bad document or request
                log.exception("catandsl lsp: %s failed", fn.__name__)
                return default
        return run
    return wrap


def _filename(uri: str) -> str:
    return to_fs_path(uri) or uri


def _range(span: Span, text: str | None = None) -> lsp.Range:
    """A span (1-based, code points) as an LSP range (0-based, UTF-16 units, counted on
    `text`'s lines when given: they differ on a line with a character past the BMP)."""
    line = max(span.line - 1, 0)
    col = max(span.column - 1, 0)
    end_line = max((span.end_line or span.line) - 1, 0)
    end_col = max((span.end_column - 1) if span.end_column else col + 1, 0)
    if (end_line, end_col) <= (line, col):
        end_line, end_col = line, col + 1
    lines = text.split("\n") if text is not None else []
    return lsp.Range(lsp.Position(line, _units(lines, line, col)),
                     lsp.Position(end_line, _units(lines, end_line, end_col)))


def _units(lines: list[str], line: int, col: int) -> int:
    if line >= len(lines):
        return col
    head = lines[line][:col]
    return len(head.encode("utf-16-le")) // 2 + max(col - len(head), 0)


def _points(ls: LanguageServer, uri: str, position: lsp.Position) -> tuple[int, int]:
    """An LSP position (UTF-16 units) as (line, code points) on the document's text."""
    lines = ls.workspace.get_text_document(uri).source.split("\n")
    if not 0 <= position.line < len(lines):
        return position.line, position.character
    units = 0
    for i, ch in enumerate(lines[position.line]):
        if units >= position.character:
            return position.line, i
        units += 2 if ord(ch) > 0xFFFF else 1
    return position.line, len(lines[position.line]) + max(position.character - units, 0)


_SEVERITY = {"error": lsp.DiagnosticSeverity.Error, "warning": lsp.DiagnosticSeverity.Warning,
             "note": lsp.DiagnosticSeverity.Information}


def to_lsp(diag: Diagnostic, filename: str, text: str | None = None) -> lsp.Diagnostic:
    """One diagnostic at its range; one in another file (an imported one) at the top,
    naming where it is."""
    here = Path(diag.span.file).resolve() == Path(filename).resolve() if diag.span.line else False
    message = diag.message if here else f"{diag.span}: {diag.message}"
    if diag.help:
        message += f"\nhelp: {diag.help}"
    return lsp.Diagnostic(
        range=_range(diag.span, text) if here else lsp.Range(lsp.Position(0, 0), lsp.Position(0, 1)),
        message=message, severity=_SEVERITY.get(diag.severity, lsp.DiagnosticSeverity.Error),
        code=diag.code, source="catandsl",
        data={"replacement": an.did_you_mean(diag)} if here and an.did_you_mean(diag) else None)


def _refresh(ls: LanguageServer, uri: str, trial: bool = False) -> None:
    doc = ls.workspace.get_text_document(uri)
    filename = _filename(uri)
    try:
        result = an.analyse(doc.source, filename, trial)
    except Exception:  # noqa: BLE001 - a compiler bug: say so in the editor, keep serving
        log.exception("catandsl lsp: analysing %s failed", uri)
        result = an.Analysis(filename, doc.source, None, [Diagnostic(
            "internal", "catandsl could not check this file (a bug in catandsl; please report it with the file)",
            Span(filename, 1, 1))], None)
    _documents[uri] = result
    if result.scenario is not None:
        _last_good[uri] = result.scenario
    ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(
        uri=uri, version=doc.version, diagnostics=[to_lsp(d, filename, doc.source) for d in result.diagnostics]))


def _analysis(ls: LanguageServer, uri: str) -> an.Analysis:
    if uri not in _documents:
        _refresh(ls, uri)
    return _documents[uri]


@server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
@_safe()
def did_open(ls: LanguageServer, params: lsp.DidOpenTextDocumentParams):
    _refresh(ls, params.text_document.uri)


@server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
@_safe()
def did_change(ls: LanguageServer, params: lsp.DidChangeTextDocumentParams):
    _refresh(ls, params.text_document.uri)


@server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
@_safe()
def did_save(ls: LanguageServer, params: lsp.DidSaveTextDocumentParams):
    _refresh(ls, params.text_document.uri, trial=True)


@server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
@_safe()
def did_close(ls: LanguageServer, params: lsp.DidCloseTextDocumentParams):
    _documents.pop(params.text_document.uri, None)
    _last_good.pop(params.text_document.uri, None)
    ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=params.text_document.uri, diagnostics=[]))


@server.feature(lsp.TEXT_DOCUMENT_HOVER)
@_safe()
def hover(ls: LanguageServer, params: lsp.HoverParams):
    uri = params.text_document.uri
    text = an.hover(_analysis(ls, uri), *_points(ls, uri, params.position))
    if text is None:
        return None
    return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=text))


_KINDS = {"event": lsp.CompletionItemKind.Event, "primitive": lsp.CompletionItemKind.Function,
          "keyword": lsp.CompletionItemKind.Keyword}


@server.feature(lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionOptions(trigger_characters=[" ", "("]))
@_safe()
def completion(ls: LanguageServer, params: lsp.CompletionParams):
    uri = params.text_document.uri
    found = an.completions(_analysis(ls, uri), _last_good.get(uri),  # type: ignore[arg-type]
                           *_points(ls, uri, params.position))
    items = [lsp.CompletionItem(
        label=c.label, detail=c.detail, kind=_KINDS.get(c.kind, lsp.CompletionItemKind.Value),
        insert_text=c.insert, insert_text_format=lsp.InsertTextFormat.Snippet if c.insert else None)
        for c in found]
    return lsp.CompletionList(is_incomplete=False, items=items)


@server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
@_safe()
def definition(ls: LanguageServer, params: lsp.DefinitionParams):
    uri = params.text_document.uri
    span = an.definition(_analysis(ls, uri), *_points(ls, uri, params.position))
    if span is None:
        return None
    found = _documents.get(uri)
    text = found.text if found is not None and Path(span.file).resolve() == Path(found.filename).resolve() else None
    return lsp.Location(uri=Path(span.file).resolve().as_uri(), range=_range(span, text))


@server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
@_safe(default=[])
def document_symbol(ls: LanguageServer, params: lsp.DocumentSymbolParams):
    found = _analysis(ls, params.text_document.uri)
    return [_symbol(d, found.text) for d in an.declarations(found.tree)]


def _symbol(d: an.Declaration, text: str) -> lsp.DocumentSymbol:
    kind = {"ruleset": lsp.SymbolKind.Module, "scenario": lsp.SymbolKind.Module,
            "rule": lsp.SymbolKind.Function, "option": lsp.SymbolKind.Enum}.get(d.kind, lsp.SymbolKind.Class)
    return lsp.DocumentSymbol(name=d.name, detail=d.kind, kind=kind, range=_range(d.span, text),
                              selection_range=_range(d.name_span, text),
                              children=[_symbol(c, text) for c in d.children])


@server.feature(lsp.TEXT_DOCUMENT_FORMATTING)
@_safe()
def formatting(ls: LanguageServer, params: lsp.DocumentFormattingParams):
    doc = ls.workspace.get_text_document(params.text_document.uri)
    try:
        out = format_source(doc.source, _filename(params.text_document.uri))
    except (CatanError, LayoutError):
        return None  # the diagnostics already say why, or the layout would be wrong: no edit
    if out == doc.source:
        return []
    lines = doc.source.split("\n")
    end = lsp.Position(len(lines) - 1, _units(lines, len(lines) - 1, len(lines[-1])))
    return [lsp.TextEdit(range=lsp.Range(lsp.Position(0, 0), end), new_text=out)]


@server.feature(lsp.TEXT_DOCUMENT_CODE_ACTION,
                lsp.CodeActionOptions(code_action_kinds=[lsp.CodeActionKind.QuickFix]))
@_safe(default=[])
def code_action(ls: LanguageServer, params: lsp.CodeActionParams):
    actions = []
    for diag in params.context.diagnostics:
        data = diag.data if isinstance(diag.data, dict) else {}
        replacement = data.get("replacement")
        if diag.source != "catandsl" or not isinstance(replacement, str):
            continue
        edit = lsp.WorkspaceEdit(changes={params.text_document.uri: [lsp.TextEdit(diag.range, replacement)]})
        actions.append(lsp.CodeAction(title=f"Replace with `{replacement}`", kind=lsp.CodeActionKind.QuickFix,
                                      diagnostics=[diag], edit=edit, is_preferred=True))
    return actions


def serve(version: str = "unknown") -> None:
    server.version = version
    server.start_io()
