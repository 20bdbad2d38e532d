"""Which kernel of a run a name given on the command line means (pure): the kernel of that name (or short
name), else the one kernel whose name starts with it, else the one whose name holds it. None or several: one
line naming the closest or the candidates."""
from __future__ import annotations

import difflib
from typing import TYPE_CHECKING

from ..errors import UserError

if TYPE_CHECKING:
    import pandas as pd

SHOWN = 5   # candidates named in an error line


def kernel_names(kernels: pd.DataFrame) -> list[tuple[str, str]]:
    """(name, short name) of each row of a kernel table (analysis.load's RunTables.kernels)."""
    return list(zip(kernels["name"], kernels["display"])) if len(kernels) else []


def pick_kernel(query: str, kernels: list[tuple[str, str]], where: str) -> str:
    """The name of the kernel `query` means among `kernels` ((name, short name) pairs); `where` names the run in
    the error (UserError: exit 2)."""
    q = query.strip()
    exact = [name for name, short in kernels if q in (name, short)]
    if exact:
        return exact[0]
    low = q.lower()
    for test in (str.startswith, str.__contains__):
        hits = list(dict.fromkeys(name for name, short in kernels
                                  if test(name.lower(), low) or test(short.lower(), low)))
        if len(hits) == 1:
            return hits[0]
        if hits:
            shorts = dict(kernels)
            listed = ", ".join(shorts.get(h) or h for h in hits[:SHOWN]) + (", ..." if len(hits) > SHOWN else "")
            raise UserError(f"{query!r} matches {len(hits)} kernels of {where}: {listed}; give more of the name")
    names = [short or name for name, short in kernels]
    closest = difflib.get_close_matches(q, names, n=3, cutoff=0.0) if names else []
    raise UserError(f"no kernel {query!r} in {where}" + (f"; closest: {', '.join(closest)}" if closest else
                                                         " (it has no kernels)"))
