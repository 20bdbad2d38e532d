"""The ncu options, declared once for every command that runs ncu, resolved into one `Settings`."""
from __future__ import annotations

import functools
import inspect
from typing import Optional

import typer

from ..settings import SETTINGS_HELP, Settings, resolve

_DEFAULT = Settings()



def width_option(least: int = 40):
    """--width of a command that prints tables; `least`: the narrowest its tables read at (diff's keep every
    number from 80 columns up)."""
    return typer.Option(None, "--width", min=least, help="columns of the tables (default: the terminal's; piped: "
                        "COLUMNS, else every column)")


WIDTH_OPTION = width_option()

# parameter name -> (settings field, type, option); the epilog (SETTINGS_HELP) names each one's environment
# variable (the longest, 33 characters, was cut in the help's column at 80)
NCU_OPTIONS = {
    "ncu_path": ("ncu", Optional[str], typer.Option(
        None, "--ncu-path", help="ncu executable (default: PATH, /usr/local/cuda*/bin, "
        "/opt/nvidia/nsight-compute/*)")),
    "sudo": ("sudo", Optional[bool], typer.Option(
        None, "--sudo/--no-sudo", help="run ncu through `sudo -n`")),
    "sudo_path": ("sudo_path", Optional[str], typer.Option(
        None, "--sudo-path", help="sudo executable")),
    "ncu_set": ("ncu_set", Optional[str], typer.Option(
        None, "--ncu-set", help="ncu --set instead of the default metrics, e.g. full")),
    "ncu_args": ("ncu_args", Optional[str], typer.Option(
        None, "--ncu-args", help="extra ncu arguments, one string")),
    "clock_control": ("clock_control", Optional[str], typer.Option(
        None, "--clock-control", help=f"ncu --clock-control (default {_DEFAULT.clock_control})")),
    "ncu_timeout": ("ncu_timeout", Optional[float], typer.Option(
        None, "--ncu-timeout", help=f"seconds per kernel (default {_DEFAULT.ncu_timeout:g})")),
    "library_kernels": ("ncu_library_kernels", Optional[int], typer.Option(
        None, "--library-kernels", help=f"library kernels to profile, by time (default {_DEFAULT.ncu_library_kernels})")),
    "library_min_share": ("ncu_library_min_share", Optional[float], typer.Option(
        None, "--library-min-share", help=f"also replay a library kernel's other calls holding this % of the step "
        f"(default {_DEFAULT.ncu_library_min_share:g})")),
    "ncu_batch": ("ncu_batch", Optional[int], typer.Option(
        None, "--ncu-batch", help=f"kernels per ncu process (default {_DEFAULT.ncu_batch}; 1: one process each)")),
    "source_kernels": ("ncu_source_kernels", Optional[int], typer.Option(
        None, "--source-kernels", help="kernels with the most headroom to get per-line counters for `inspect` "
        f"(default {_DEFAULT.ncu_source_kernels}; 0: none)")),
    "fresh": ("fresh", Optional[bool], typer.Option(
        None, "--fresh", help="measure everything again, reusing no earlier run's ncu results or ceilings")),
}
EPILOG = SETTINGS_HELP.replace("[", "\\[")   # typer reads [...] in help text as markup
RESOLVED = ("settings", "settings_origin")   # filled in by the wrapper, not command-line options


def with_ncu_options(fn):
    """Adds the ncu options to a command; it receives them resolved as `settings` (CLI > env > file > default),
    and where each came from as `settings_origin` when it has that parameter."""
    sig = inspect.signature(fn)
    own = [p for p in sig.parameters.values() if p.name not in RESOLVED]
    extra = [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=option, annotation=kind)
             for name, (_, kind, option) in NCU_OPTIONS.items()]

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        given = {field: kwargs.pop(name) for name, (field, _, _) in NCU_OPTIONS.items()}
        kwargs["settings"], origin = resolve(given)
        if "settings_origin" in sig.parameters:
            kwargs["settings_origin"] = origin
        return fn(*args, **kwargs)

    wrapper.__signature__ = sig.replace(parameters=own + extra)
    return wrapper
