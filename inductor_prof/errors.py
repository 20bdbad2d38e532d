"""The exceptions the CLI turns into one line, and the exit code each ends in (cli/core.py maps them; these
codes live here, beside the errors, so that `entry.py` has them before the CLI is imported)."""
from __future__ import annotations

import re
import signal
from typing import Iterable, Mapping

EXIT_FAILED = 1                            # a step failed (StepFailed, any other exception, a `diff` regression)
EXIT_USER = 2                              # bad input (UserError, a usage error)
EXIT_INTERRUPTED = 128 + signal.SIGINT     # 130: Ctrl-C, what a shell reports for it
EXIT_TERMINATED = 128 + signal.SIGTERM     # 143: SIGTERM
EXIT_BROKEN_PIPE = 128 + signal.SIGPIPE    # 141: stdout's reader left (`report | head -1`), as cat reports it

_FIELD = re.compile(r"\{([\w=]+)\}")


class UserError(Exception):
    """Bad input or a failed step the user can act on; its message is shown as it is.

    Below the CLI a message names a setting, not a flag: it writes it as `{name}` and lists it in `settings`;
    `str()` shows the setting's name, `shown(flags)` the name each front end gives it (the CLI: its flag)."""

    def __init__(self, message: str, settings: Iterable[str] = ()):
        super().__init__(message)
        self.settings = tuple(settings)

    def shown(self, names: Mapping[str, str]) -> str:
        text = self.args[0] if self.args else ""
        return _FIELD.sub(lambda m: names.get(m.group(1), m.group(1)) if m.group(1) in self.settings
                          else m.group(0), text)

    def __str__(self) -> str:
        return self.shown({})


class StepFailed(Exception):
    """A step of the command failed and said why (the rest was kept): its message, exit 1."""


def one_line(e: BaseException, limit: int | None = 300) -> str:
    """`Type: message`, first line only, cut to `limit` characters: how a recorded failure reads."""
    text = f"{type(e).__name__}: {e}".strip()
    return text.splitlines()[0][:limit] if text else type(e).__name__
