"""The one channel a worker process tells its parent what happens: JSON lines in a file of their own (not
stdout, which the worker shares with what it runs, ncu included), each {"event": TYPE, "t": epoch seconds, ...}:

  progress  {"done", "total", "what"}   a step finished (a timeout counted per step restarts on any event)
  note      {"text"}                    a line the parent shows the user
  phase     {"name", "detail"}          the worker reached a phase (what it did before, in a line)
  result    {"value"}                   what the work returned (JSON); the last event of a worker that succeeded
  error     {"message"}                 why it failed, one line: the stage's failure as the user reads it

procs.py reads them (`read_events`, `Worker`, `run_worker`)."""
from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

TYPES = ("progress", "note", "phase", "result", "error")


class Events:
    """The worker's side: each event appended as one line and flushed (the parent reads whole lines only)."""

    def __init__(self, path: str | Path | None):
        self.path = Path(path) if path else None

    def emit(self, event: str, **fields: Any) -> None:
        if event not in TYPES:
            raise ValueError(f"unknown event {event!r}")
        if self.path is None:   # a worker run by hand without a parent to read its events
            return
        line = json.dumps({"event": event, "t": round(time.time(), 3), **fields}, default=str)
        with open(self.path, "a", encoding="utf-8") as f:
            f.write(line + "\n")

    def progress(self, done: int, total: int, what: str = "", **detail: Any) -> None:
        self.emit("progress", done=done, total=total, what=what, **detail)

    def note(self, text: str) -> None:
        self.emit("note", text=text)

    def phase(self, name: str, detail: str = "") -> None:
        self.emit("phase", name=name, detail=detail)

    def result(self, value: Any) -> None:
        self.emit("result", value=value)

    def error(self, message: str) -> None:
        self.emit("error", message=message)
