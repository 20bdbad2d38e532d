"""The ranks of a multi-rank run in the terminal and in `--json`: each rank's step times, compute and
communication (analysis/ranks.py), the step spread with the slowest rank named, and the shown rank's collectives.
The numbers are computed there; here they are only written."""
from __future__ import annotations

import pandas as pd
from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..analysis.link_reference import caption
from ..analysis.ranks import RanksView
from ..units import MB
from .format import num, text
from .layout import Col, fit


def spread_line(spread: dict | None) -> str:
    """'step spread: 1.050x (max/min of the plain step): rank 1 slowest at 9.150 ms, rank 0 fastest at 8.714 ms'."""
    if spread is None:
        return "step spread: fewer than two ranks with a step time"
    if spread["max_ms"] == spread["min_ms"]:
        return f"step spread: none, every rank's plain step at {spread['max_ms']:.3f} ms"
    return (f"step spread: {num(spread['ratio'], '{:.3f}x')} (max/min of the plain step, "
            f"+{num(spread['spread_pct'], '{:.1f}')}%): rank {spread['slowest_rank']} slowest at "
            f"{spread['max_ms']:.3f} ms, rank {spread['fastest_rank']} fastest at {spread['min_ms']:.3f} ms")


def _exit(row: dict) -> str:
    if row["status"] is None:
        return "-"
    return row["status"] if row["exit"] in (0, None) else f"{row['status']} ({row['exit']})"


def ranks_table(view: RanksView, width: int) -> Table:
    rows = view.rows
    ms = lambda key: [num(r[key], "{:.3f}") for r in rows]   # noqa: E731
    unsplit = any(r.get("unsplit_ms") for r in rows)
    columns = [
        Col("rank", [str(r["rank"]) for r in rows], 0, right=True),
        Col("exit", [_exit(r) for r in rows], 6),
        Col("step ms", ms("plain_step_ms"), 1, right=True),
        Col("under Proton ms", ms("proton_step_ms"), 8, right=True),
        Col("compute ms", ms("compute_ms"), 3, right=True),
        Col("transfer ms", ms("transfer_ms"), 2, right=True),
        Col("wait ms", ms("wait_ms"), 2.2, right=True),
        *([Col("unsplit comm ms", ms("unsplit_ms"), 2.4, right=True)] if unsplit else []),
        Col("idle ms", ms("idle_ms"), 4, right=True),
        Col("NCCL kernel ms", ms("comm_ms"), 5, right=True),
        Col("hidden %", [num(r["hidden_pct"]) for r in rows], 7, right=True),
    ]
    n = view.top.get("nproc") if view.top else len(rows)
    return fit(columns, width, f"Ranks of {view.ranked.root} ({n} ranks; one torch.profiler step on each GPU cut "
                               "into compute, transfer (NCCL moving data), wait (NCCL waiting for the last rank to "
                               "arrive)" + (", unsplit (NCCL not matched across ranks)" if unsplit else "") +
                               " and idle, each not under the ones before; NCCL kernel: their whole time, hidden: "
                               "its share with compute beside it)")


def _nth(k: int) -> str:
    return f"{k}{'th' if 10 <= k % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(k % 10, 'th')}"


def straggler_line(s: dict | None) -> str | None:
    """'rank 1 arrives last at 2 of 2 collectives: the others' NCCL kernels wait 0.350 ms for it (0.350 ms of rank
    0's with nothing else on its GPU); it fell behind rank 0 2 times, 0.350 ms in all (each counted once, at its
    latest; worst 0.200 ms at the 1st all_reduce (2.10 MB)): behind where each began +0.000 ms, gaps between its
    kernels +0.200 ms, its kernels +0.150 ms against rank 0's (kernels paired one to one): its launches came late
    (host work or launch gaps)' (analysis/straggler.py)."""
    if s is None:
        return None
    w, at = s["waiter"], s["at"]
    what = f"the {_nth(at['seq'])} {at['collective']}" + (f" ({_size(at['bytes'])})" if at.get("bytes") else "")
    times = "once" if s["fell_behind"] == 1 else f"{s['fell_behind']} times"
    if s["fell_behind"] == 1 and s["from_step_start"]:
        began = f"its step started {s['start_ms']:.3f} ms later"
    else:
        where = "where each began" if s["fell_behind"] > 1 else "where the ranks were last level"
        began = f"behind {where} {s['start_ms']:+.3f} ms"
    kernel = f"most in {s['kernel']}: +{s['kernel_extra_ms']:.3f} ms; " if s["kernel"] and s["cause"] == "kernels" \
        else ""
    why = "its launches came late (host work or launch gaps)" if s["cause"] == "host" else "slower kernels"
    return (f"rank {s['rank']} arrives last at {s['last_at']} of {s['matched']} collectives: the others' NCCL kernels "
            f"wait {s['caused_wait_ms']:.3f} ms for it ({s['exposed_wait_ms']:.3f} ms of rank {w}'s with nothing "
            f"else on its GPU); it fell behind rank {w} {times}, {s['late_ms']:.3f} ms in all (each counted once, at "
            f"its latest; worst {s['worst_late_ms']:.3f} ms at {what}): {began}, gaps between its kernels "
            f"{s['extra_idle_ms']:+.3f} ms, its kernels {s['extra_compute_ms']:+.3f} ms against rank {w}'s "
            f"({kernel}kernels paired one to one): {why}")


def _size(nbytes) -> str:
    if nbytes is None or nbytes != nbytes:
        return "-"
    return f"{nbytes / MB:.2f} MB" if nbytes >= 0.01 * MB else f"{int(nbytes)} B"


def collectives_table(df: pd.DataFrame, rank: int, width: int, link: dict | None = None) -> Table:
    rs = [r for _, r in df.iterrows()]
    columns = [
        Col("collective", [str(r["collective"]) for r in rs], 0),
        Col("dtype", [text(r["dtype"]) for r in rs], 6),
        Col("message", [_size(r["bytes"]) for r in rs], 1, right=True),
        Col("ranks", [num(r["group"], "{:.0f}") for r in rs], 5, right=True),
        Col("calls", [num(r["calls"], "{:.0f}") for r in rs], 4, right=True),
        Col("ms/step", [num(r["step_ms"], "{:.3f}") for r in rs], 1, right=True),
        Col("wait ms", [num(r.get("wait_ms"), "{:.3f}") for r in rs], 2.2, right=True),
        Col("µs a call", [num(r["avg_us"], "{:.1f}") for r in rs], 7, right=True),
        Col("algbw GB/s", [num(r["algbw_gbps"]) for r in rs], 3, right=True),
        Col("busbw GB/s", [num(r["busbw_gbps"]) for r in rs], 2, right=True),
        Col("% of link", [num(r["pct_of_link"]) for r in rs], 2.5, right=True),
        Col("busbw over", [text(r.get("timed_on")) for r in rs], 8),
    ]
    return fit(columns, width, f"Collectives of rank {rank} (NCCL kernels in one torch.profiler step; wait: the "
                               "time they waited for the last rank to arrive; algbw and busbw over the transfer "
                               "time, from that arrival to the end; busbw as nccl-tests: all_reduce algbw x "
                               f"2(n-1)/n, all_gather, reduce_scatter, all_to_all x (n-1)/n; {caption(link)})")


def render(view: RanksView, shown: int, console: Console) -> None:
    """The ranks' table, the spread, and the collectives of rank `shown` (whose kernel tables follow)."""
    console.print(ranks_table(view, console.width))
    console.print(Text(spread_line(view.spread)))
    if view.straggler is not None:
        console.print(Text(straggler_line(view.straggler) or ""))
    table = view.collectives.get(shown)
    if table is not None and len(table):
        console.print(collectives_table(table, shown, console.width, view.link.get(shown)))
    elif shown in view.collectives:
        console.print(Text(f"rank {shown}'s torch.profiler step ran no NCCL kernel"))
    console.print(Text(f"Rank {shown}'s kernels (--rank K for another):"))


def to_json(view: RanksView, shown: int) -> dict:
    """The `ranks` object of `report --json` for a multi-rank run."""
    from .export import records

    top = view.top or {}
    return {"nproc": top.get("nproc", len(view.rows)), "status": top.get("status"),
            "failed_rank": top.get("failed_rank"), "shown_rank": shown, "ranks": view.rows,
            "spread": view.spread, "straggler": view.straggler, "matched_collectives": view.matched,
            "collectives": records(view.collectives[shown], []) if shown in view.collectives else [],
            "link_reference": view.link.get(shown)}


def spread_diff_line(change: dict | None, rank: int) -> str:
    """'ranks: rank 0 of each compared; step spread A 1.050x (rank 1 slowest), B 1.100x (rank 0 slowest): +4.8
    points'."""
    def side(s):
        return f"{num(s['ratio'], '{:.3f}x')} (rank {s['slowest_rank']} slowest)" if s else "-"
    head = f"ranks: rank {rank} of each compared"
    if change is None:
        return head
    moved = change["delta_points"]
    tail = f": {moved:+.1f} points" if moved is not None else ""
    return f"{head}; step spread (max/min of the ranks' plain steps) A {side(change['a'])}, B {side(change['b'])}{tail}"
