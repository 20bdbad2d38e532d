"""The `inductor-prof` command: `app` (typer) and `main`, from core.py (the consoles and the one exit path),
with every command registered on it by importing the modules that declare them."""
from __future__ import annotations

from . import commands, diff, doctor, inspect, trace, try_cmd  # noqa: F401  (each registers its commands on the app)
from .core import app, main, one_line_summaries

__all__ = ["app", "main"]

one_line_summaries()
