"""The `catandsl` command (catandsl/cli/app.py), one module per command group:

- scenarios.py: `check`, `list`, `compile`, `schema`, `render`
- games.py: `play`, `simulate`, `engine`
- lint.py: `lint`, `explain`, `balance`
- editor.py: `fmt`, `lsp`
- studio.py: `serve`

and what they share: common.py (exit codes, failing, printing) and arguments.py
(scenario names, output files, options, bots, formats).

Exit codes: 0 fine, 1 diagnostics with errors (or a game that stopped), 2 usage error
(an unknown option, bot, scenario name, or an output file that cannot be written). Every
error a user can cause is printed as a diagnostic or a one-line message; an unexpected
exception is reported as an internal error with a request to file a bug (exit 70), never
as a raw traceback.
"""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    """Run `catandsl` with these arguments (sys.argv's by default); the exit code."""
    try:
        import typer  # noqa: F401
    except ImportError:
        print("catandsl: the command line needs its extras: pip install 'catandsl[cli]'", file=sys.stderr)
        return 2
    from typer.main import get_command

    from catandsl.cli.app import app
    from catandsl.cli.common import EXIT_INTERNAL, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, is_usage_error
    from catandsl.diagnostics import printable

    try:
        code = get_command(app).main(args=argv if argv is not None else sys.argv[1:], prog_name="catandsl",
                                     standalone_mode=False)
    except SystemExit as e:
        return int(e.code or 0)
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    except Exception as e:  # noqa: BLE001 - the last line of defence against tracebacks
        if is_usage_error(e):
            e.show()
            return EXIT_USAGE
        print(printable(f"catandsl: internal error: {type(e).__name__}: {e}\n"
                        "This is a bug in catandsl, not in your file; please report it with the file "
                        "that caused it."), file=sys.stderr)
        return EXIT_INTERNAL
    return code if isinstance(code, int) else EXIT_OK
