"""The app: the typer object every command registers on, its two consoles (stdout, stderr), and the one exit
path: every error becomes one line on stderr and an exit code (errors.py holds the codes) here and nowhere
else, whether raised inside a command (`cli_errors`) or while click parses its arguments (`main`)."""
from __future__ import annotations

import functools
import inspect
import os
import sys
from typing import Any, Optional

import typer
from rich.console import Console
from rich.markup import escape

from ..errors import EXIT_BROKEN_PIPE, EXIT_FAILED, EXIT_INTERRUPTED, EXIT_TERMINATED, EXIT_USER, StepFailed, UserError
from .options import NCU_OPTIONS
from .pipes import reader_gone
from ..signals import Terminated, sigterm_as_interrupt

def _flags_without_metavar() -> None:
    """typer >= 0.29's help shows the metavar `<bool>` beside every flag (--json, --help): a flag takes no
    value, so it shows none. Older typers have no display_type_rich and show none already."""
    from typer.core import TyperOption

    shown = getattr(TyperOption, "display_type_rich", None)
    if shown is None or getattr(shown, "no_flag_metavar", False):
        return

    def display_type_rich(self, ctx):
        return None if self.is_flag and self.metavar is None else shown(self, ctx)
    display_type_rich.no_flag_metavar = True  # type: ignore[attr-defined]  # typer's mark of a patched one
    TyperOption.display_type_rich = display_type_rich  # type: ignore[method-assign]


_flags_without_metavar()
app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="Profile the Triton kernels torch.compile (Inductor) writes for a model.")
# emoji off: a path or target like `a:fire:b` is printed as given, not as 'a🔥b' (escape() leaves :codes:)
console = Console(emoji=False)
err = Console(stderr=True, emoji=False)

# a setting an error below the CLI names (errors.UserError) -> the flag that sets it here
FLAGS = {"steps": "--steps", "nproc": "--nproc", "rank": "--rank", "blocks": "--blocks", "regional=False": "--whole-model",
         **{field: option.param_decls[0].split("/")[0] for field, _, option in NCU_OPTIONS.values()}}


def error_line(e: BaseException) -> tuple[str, int]:
    """(the line shown on stderr, markup escaped, the exit code) for an error that ends a command."""
    if isinstance(e, UserError):
        return f"[red]error:[/red] {escape(e.shown(FLAGS))}", EXIT_USER
    if isinstance(e, StepFailed):
        return f"[red]error:[/red] {escape(str(e))}", EXIT_FAILED
    if isinstance(e, Terminated):
        return "[red]terminated (SIGTERM)[/red]", EXIT_TERMINATED
    if isinstance(e, (KeyboardInterrupt, typer.Abort)):   # Abort: Ctrl-C inside click's own parsing
        return "[red]interrupted[/red]", EXIT_INTERRUPTED
    if isinstance(e, OSError) and e.filename is not None:   # a file that could not be read or written
        return f"[red]error:[/red] {escape(f'{e.filename}: {e.strerror or e}')}", EXIT_FAILED
    return f"[red]error:[/red] {escape(f'{type(e).__name__}: {e}')}", EXIT_FAILED


def _fail(e: BaseException) -> typer.Exit:
    line, code = error_line(e)
    err.print(line, soft_wrap=True, highlight=False)
    return typer.Exit(code)


def _reader_gone() -> typer.Exit:
    """stdout's reader went away (`report | head -1`): stop without a word, exit 141 as cat or grep do (a
    shell reports 128 + SIGPIPE for them); what is left unwritten goes to /dev/null, not to a second
    BrokenPipeError when Python flushes stdout at exit."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):   # a stdout with no file descriptor (a test's capture)
        pass
    return typer.Exit(EXIT_BROKEN_PIPE)


def cli_errors(fn):
    """A command's errors become one red line and their exit code (INDUCTOR_PROF_DEBUG=1 keeps tracebacks)."""
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            with sigterm_as_interrupt():
                result = fn(*args, **kwargs)
        except (UserError, StepFailed, KeyboardInterrupt) as e:
            raise _fail(e) from None
        except typer.Exit:
            if reader_gone():   # `diff --fail-above --json | head`: the reader's leaving is what is said
                raise _reader_gone() from None
            raise
        except BrokenPipeError:
            raise _reader_gone() from None
        except Exception as e:
            if os.environ.get("INDUCTOR_PROF_DEBUG"):
                raise
            raise _fail(e) from None
        if reader_gone():   # its output was cut short without an error (pipes.py): not a success
            raise _reader_gone()
        return result
    return wrapper


def command(*args, **kwargs):
    """`@app.command(...)` with the command's errors mapped by `cli_errors`."""
    return lambda fn: app.command(*args, **kwargs)(cli_errors(fn))


def _print_version(value: bool) -> None:
    if value:
        from .. import __version__

        console.print(f"inductor-prof {__version__}", markup=False, highlight=False)
        raise typer.Exit()


@app.callback()
def _app_options(version: bool = typer.Option(False, "--version", callback=_print_version, is_eager=True,
                                              help="print the version and exit")):
    pass


def one_line_summaries() -> None:
    """The command list shows each command's first docstring paragraph with its lines joined: typer keeps the
    docstring's line breaks there, which end lines early at any width."""
    for info in app.registered_commands:
        doc = inspect.getdoc(info.callback) or ""
        if info.short_help is None and doc:
            info.short_help = " ".join(doc.split("\n\n")[0].split())


def main(argv: Optional[list[str]] = None) -> None:
    """Runs the app. A usage error (unknown option, bad value, missing argument) is one line naming the command,
    exit 2, instead of click's usage text and boxed message."""
    click_error = _click_exception()
    try:
        code = app(args=argv, prog_name="inductor-prof", standalone_mode=False)
    except typer.Abort as e:
        raise SystemExit(_fail(e).exit_code)
    except click_error as e:
        if type(e).__name__ != "NoArgsIsHelpError":   # that one has printed the help already
            err.print(usage_error_line(e), markup=False, highlight=False, soft_wrap=True)
        raise SystemExit(e.exit_code)
    raise SystemExit(code if isinstance(code, int) else 0)


def _click_exception() -> Any:   # click's ClickException class
    """ClickException of the click typer runs on: click itself, or (typer >= 0.29) its own copy."""
    return next(c for c in typer.BadParameter.__mro__ if c.__name__ == "ClickException")


def usage_error_line(e) -> str:
    """'error: inductor-prof report: No such option: --bogus (inductor-prof report --help)'."""
    ctx = getattr(e, "ctx", None)
    where = f"{ctx.command_path}: " if ctx is not None else ""
    see = f" ({ctx.command_path} --help)" if ctx is not None else ""
    return f"error: {where}{e.format_message()}{see}"
