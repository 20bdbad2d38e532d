"""The rate each collective's busbw is judged against, its "% of the link" (pure).

The reference is the all_reduce busbw the ceilings stage measured among the ranks (pipeline/link.py), unless a
call of the run itself moved data faster: then the measurement is not what the link reaches (runs recorded before
it was taken at 1 GiB measured at 256 MB, where NCCL reached 300.2 GB/s on two H200s while the model's own 546 MB
all_reduce reached 306.7: "102% of the link"), and the best rate the run reached is the reference. So a % of the
link is never over 100, and the caption says which reference it is."""
from __future__ import annotations

from typing import Any

import pandas as pd

from ..units import BYTES, MB

MIB = BYTES["MiB"]

MEASURED, REACHED = "measured", "reached"


def _number(v: Any) -> float | None:
    return float(v) if isinstance(v, (int, float)) and v == v and v > 0 else None


def reference(measured: dict[str, Any] | None, tables: dict[int, pd.DataFrame]) -> dict[str, Any] | None:
    """measured: a rank's manifest `ceilings` (link_busbw_gbps, and link: the call it was measured with); tables:
    rank -> its collective_table (collectives.collective_table). None without a measured rate (`--no-ceilings`:
    no % shown). Else {"busbw_gbps": the reference, "source": MEASURED or REACHED, "measured_gbps",
    "measured_bytes", and where REACHED the call that reached it: "rank", "collective", "bytes"}. Only calls among
    as many ranks as the measurement count (a subgroup may ride another link)."""
    ceilings = measured or {}
    rate = _number(ceilings.get("link_busbw_gbps"))
    if rate is None:
        return None
    link = ceilings.get("link") or {}
    out: dict[str, Any] = {"busbw_gbps": rate, "source": MEASURED, "measured_gbps": rate,
                           "measured_bytes": link.get("bytes")}
    best = rate
    group = link.get("group")
    for rank, table in sorted(tables.items()):
        if table is None or not len(table):
            continue
        rows = table if group is None else table[table["group"] == group]
        for _, row in rows.iterrows():
            busbw = _number(row["busbw_gbps"])
            if busbw is not None and busbw > best:
                best = busbw
                out.update(busbw_gbps=busbw, source=REACHED, rank=int(rank), collective=str(row["collective"]),
                           bytes=int(row["bytes"]) if _number(row["bytes"]) is not None else None)
    return out


def judged(table: pd.DataFrame, ref: dict[str, Any] | None) -> pd.DataFrame:
    """The table with pct_of_link: each call's busbw as a % of the reference (None without one)."""
    if table is None or not len(table):
        return table
    rate = ref["busbw_gbps"] if ref else None
    pct = [100 * float(b) / rate if rate and isinstance(b, (int, float)) and b == b else None
           for b in table["busbw_gbps"]]
    return table.assign(pct_of_link=pct)


def _size(nbytes: Any) -> str:
    return f"{float(nbytes) / MB:.1f} MB" if _number(nbytes) is not None else "an unknown size"


def caption(ref: dict[str, Any] | None) -> str:
    """What "% of link" is a % of, for the collectives table's caption."""
    if ref is None:
        return "% of link: no link rate measured (the ceilings stage did not run)"
    at = ref["measured_bytes"]
    at = f"{float(at) / MIB:.0f} MiB" if _number(at) is not None else "a size not recorded"
    measured = f"the all_reduce busbw measured in the ceilings stage ({ref['measured_gbps']:.1f} GB/s at {at})"
    if ref["source"] == MEASURED:
        return f"% of link: of {measured}"
    return (f"% of link: of the best busbw this run reached, {ref['busbw_gbps']:.1f} GB/s (rank {ref['rank']}'s "
            f"{ref['collective']} of {_size(ref['bytes'])}), above {measured}: that measurement is not what the "
            "link reaches")
