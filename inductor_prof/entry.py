"""The `inductor-prof` command: the CLI, with Ctrl-C during start-up (importing typer, rich, pandas takes a
moment) or between a command's own handlers ending as it does inside them: one line and exit 130, not a
traceback."""
from __future__ import annotations

import sys
from typing import Callable

from .errors import EXIT_INTERRUPTED
from .quick_exit import exit_now


def _load_cli() -> Callable[[], object]:
    from .cli import main as cli_main

    return cli_main


def _names_as_bytes() -> None:
    """stdout writes a file name that is not UTF-8 (Python holds its bytes as lone surrogates) back as its own
    bytes, as `ls` does: in a UTF-8 locale such as en_US.UTF-8 Python's stdout is strict, and the report of
    such a run folder (its name in the title) ended in UnicodeEncodeError. stderr already escapes them."""
    if getattr(sys.stdout, "errors", None) == "strict" and hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(errors="surrogateescape")


def main(load_cli: Callable[[], Callable[[], object]] = _load_cli) -> None:
    _names_as_bytes()
    code: int | str | None = 0
    try:
        load_cli()()
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        code = EXIT_INTERRUPTED
    except SystemExit as e:
        code = e.code
    exit_now(code)   # past torch's slow compile-worker shutdown, once everything is written
