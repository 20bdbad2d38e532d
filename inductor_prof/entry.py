"""The `inductor-prof` command: the CLI, with Ctrl-C during start-up (importing typer, rich, pandas takes a
moment) or between a command's own handlers ending as it does inside them: one line and exit 130, not a
traceback."""
from __future__ import annotations

import sys
from typing import Callable

EXIT_INTERRUPTED = 130


def _load_cli() -> Callable[[], object]:
    from .cli import main as cli_main

    return cli_main


def main(load_cli: Callable[[], Callable[[], object]] = _load_cli) -> None:
    try:
        load_cli()()
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        raise SystemExit(EXIT_INTERRUPTED)
