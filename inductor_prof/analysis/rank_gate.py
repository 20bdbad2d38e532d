"""Two runs of several ranks compared beyond one rank's kernels (pure): the step spread, and the compared rank's
exposed communication (its torch.profiler step's NCCL time with no compute beside it, waiting included:
step_split's transfer + unsplit + wait); and what of it fails the gate (`diff --fail-above-spread`,
`--fail-above-comm`). Neither has a noise recorded (one traced step, one plain step per rank), so each is judged
raw against its threshold."""
from __future__ import annotations

from typing import Any

from .diff_gate import Failure
from .ranks import RanksView, spread_change

EXPOSED_PARTS = ("transfer_ms", "unsplit_ms", "wait_ms")


def exposed_comm_ms(view: RanksView | None, rank: int) -> float | None:
    """ms of rank `rank`'s traced step with NCCL running and no compute beside it; None without its trace."""
    row = next((r for r in view.rows if r["rank"] == rank), None) if view else None
    if row is None or row.get("span_ms") is None:
        return None
    return float(sum(row[p] or 0.0 for p in EXPOSED_PARTS))


def ranks_change(a: RanksView | None, b: RanksView | None, rank: int) -> dict[str, Any]:
    """{"rank", "spread" (ranks.spread_change), "exposed_comm": {"a", "b" (ms), "delta_ms", "change_pct"}}."""
    ea, eb = exposed_comm_ms(a, rank), exposed_comm_ms(b, rank)
    delta = eb - ea if ea is not None and eb is not None else None
    pct = 100 * delta / ea if delta is not None and ea is not None and ea > 0 else None
    return {"rank": rank, "spread": spread_change(a.spread if a else None, b.spread if b else None),
            "exposed_comm": {"a": ea, "b": eb, "delta_ms": delta, "change_pct": pct}}


def rank_failures(change: dict[str, Any] | None, spread_points: float | None, comm_pct: float | None) -> list[Failure]:
    """The spread grown by more than `spread_points` percentage points; the rank's exposed communication grown by
    more than `comm_pct` % (from none to some: always). A threshold whose numbers a run lacks is a failure too:
    a gate that judged nothing has not passed."""
    out: list[Failure] = []
    if change is None:
        return out
    if spread_points is not None:
        s = change["spread"] or {}
        moved = s.get("delta_points")
        if moved is None:
            out.append(Failure("ranks", None, "nothing to judge", "step spread",
                               "not known in both runs (fewer than two ranks with a plain step)"))
        elif moved > spread_points:
            out.append(Failure("ranks", None, "slower", "step spread",
                               f"{moved:+.1f} points (A {s['a']['spread_pct']:.1f}%, B {s['b']['spread_pct']:.1f}%; "
                               f"gate {spread_points:g} points)"))
    if comm_pct is not None:
        e = change["exposed_comm"]
        what = f"rank {change['rank']} exposed communication"
        if e["a"] is None or e["b"] is None:
            out.append(Failure("ranks", None, "nothing to judge", what,
                               "not known in both runs (a rank's torch.profiler trace missing)"))
        elif (e["change_pct"] is None and e["b"] > e["a"]) or (e["change_pct"] or 0) > comm_pct:
            grown = f"{e['change_pct']:+.1f}%" if e["change_pct"] is not None else "from none"
            out.append(Failure("ranks", None, "slower", what,
                               f"{grown} ({e['a']:.3f} -> {e['b']:.3f} ms; gate {comm_pct:g}%)"))
    return out
