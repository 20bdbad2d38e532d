"""One progress display for long work: a line per stage and a bar for its steps, kernels or backends."""
from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.text import Text


class Reporter:
    def __init__(self, progress: Progress, total: int | None):
        self.progress = progress
        self.total = total
        self.task = progress.add_task("", total=total, visible=False)

    def log(self, msg: str) -> None:
        """A stage begins: one line above the bar, and the bar restarts for it."""
        self.progress.reset(self.task, total=self.total, visible=False)
        self.note(msg)
        self.progress.update(self.task, description=msg, visible=True)

    def note(self, msg: str) -> None:
        """One line above the bar; `msg` (kernel names, paths) is not markup."""
        self.progress.console.print(Text.assemble(("·", "bold"), " ", msg))

    def step(self, i: int) -> None:
        """Step i (from 0) of the stage's `total` is done."""
        self.progress.update(self.task, completed=i + 1)

    def items(self, done: int, total: int, label: str) -> None:
        """`done` of `total` items (kernels, backends) are done; `label` is the one under way."""
        self.progress.update(self.task, description=label[:70], total=total, completed=done, visible=True)


@contextmanager
def reporter(console: Console, total: int | None = None) -> Iterator[Reporter]:
    # off where no bar can be drawn (a pipe, a file): rich would end it with an empty line there
    with Progress(TextColumn("{task.description}", markup=False), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), console=console, transient=True,
                  disable=not console.is_interactive) as progress:
        yield Reporter(progress, total)
