"""Waiting apart from moving (pure): each collective matched across the ranks' torch.profiler steps, and each
rank's NCCL kernel split into the time it waited for the last rank to arrive and the time data moved.

An NCCL kernel starts when its rank reaches the collective and ends when its share of the result is in, so a
rank that arrives early spends the kernel waiting for the others. The k-th collective of a process group is the
same collective on every rank of the group (NCCL orders a communicator's calls), so instances are matched by
(process group, k). The ranks of one `profile --nproc` share the host's clock (their traces carry the same
`baseTimeNanoseconds`), so their start times compare directly.

- arrival: the latest start of the instance over its ranks; no byte can complete before every rank is in.
- a rank's wait = arrival - its own start (clipped to its kernel); its transfer = its own end - arrival.
  The rank's own end, not the earliest end: each rank's kernel runs until its own share has arrived, so wait +
  transfer is exactly the kernel's measured time on every rank, and a rank's busbw is its own transfer's.
What cannot be matched (a collective missing on a rank, a different sequence on each, clocks of different hosts)
is said in one warning and keeps its measured kernel time (wait unknown)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pandas as pd

NO_PG = "(no process group recorded)"
# a rank's kernel ending before the last rank started cannot be one collective: clocks disagree by more than this
CLOCK_SLACK_US = 5.0


@dataclass
class Matched:
    calls: dict[int, pd.DataFrame]   # rank -> its calls with seq, arrival_us, wait_us, transfer_us, last_rank
    instances: int = 0               # collective instances matched across the ranks
    warning: str | None = None       # what could not be matched, one line
    unmatched: dict[str, Any] = field(default_factory=dict)   # process group -> why


def _with_seq(calls: pd.DataFrame) -> pd.DataFrame:
    df = calls.sort_values("start_us", kind="stable").reset_index(drop=True)
    df["pg_key"] = df["pg"].where(df["pg"].notna(), NO_PG) if "pg" in df else NO_PG
    df["seq"] = df.groupby("pg_key", observed=True).cumcount()
    for col in ("arrival_us", "wait_us", "transfer_us"):
        df[col] = float("nan")
    df["last_rank"] = pd.array([pd.NA] * len(df), dtype="Int64")
    return df


def _members(pg: str, frames: dict[int, pd.DataFrame]) -> list[int]:
    """The ranks (of those traced) that must hold group `pg`'s calls: its recorded ranks where a call names them,
    else every traced rank (one group spanning the run)."""
    named = {m for df in frames.values() for t in df.loc[df["pg_key"] == pg, "pg_ranks"].dropna() for m in t}
    return sorted(r for r in frames if not named or r in named)


def _why_not(pg: str, ranks: list[int], frames: dict[int, pd.DataFrame]) -> str | None:
    """Why the ranks' calls of group `pg` are not the same sequence of collectives, or None when they are."""
    counts = {r: len(frames[r]) for r in ranks}
    if len(set(counts.values())) > 1:
        return ", ".join(f"rank {r} has {n} call{'s' if n != 1 else ''}" for r, n in counts.items())
    first = frames[ranks[0]]
    for r in ranks[1:]:
        other = frames[r]
        same = (first["collective"].values == other["collective"].values) & \
            (first["bytes"].fillna(-1).values == other["bytes"].fillna(-1).values)
        if not same.all():
            k = int((~same).argmax())
            return f"call {k + 1} differs (rank {ranks[0]}: {first['collective'].iat[k]}, rank {r}: " \
                   f"{other['collective'].iat[k]})"
    return None


def match(calls: dict[int, pd.DataFrame], base_ns: dict[int, int | None] | None = None) -> Matched:
    """calls: rank -> collectives.comm_calls of its torch.profiler step; base_ns: rank -> its trace's
    baseTimeNanoseconds (None where the trace has none). Fewer than two ranks with NCCL calls: nothing to match,
    no warning (a missing trace is warned where it is read)."""
    frames = {r: _with_seq(df) for r, df in calls.items()}
    out = Matched(frames)
    if len(frames) < 2:
        return out
    bases = {r: b for r, b in (base_ns or {}).items() if r in frames and b is not None}
    if len(set(bases.values())) > 1:
        held = ", ".join(f"rank {r}: {b}" for r, b in sorted(bases.items()))
        out.warning = (f"the ranks' traces come from different clocks (baseTimeNanoseconds {held}): collectives are "
                       "not matched, NCCL times are as measured (waiting included)")
        return out
    groups = sorted({g for df in frames.values() for g in df["pg_key"]})
    for pg in groups:
        ranks = _members(pg, frames)
        sub = {r: frames[r][frames[r]["pg_key"] == pg] for r in ranks}
        why = _why_not(pg, ranks, sub)
        if why is None:
            why = _split(pg, ranks, sub, frames)
        if why is not None:
            out.unmatched[pg] = why
        else:
            out.instances += len(sub[ranks[0]])
    if out.unmatched:
        said = "; ".join(f"group {pg}: {why}" for pg, why in out.unmatched.items())
        out.warning = (f"collectives not matched across ranks ({said}): their NCCL times are as measured "
                       "(waiting included) and their busbw is over the kernels' time")
    return out


def _split(pg: str, ranks: list[int], sub: dict[int, pd.DataFrame], frames: dict[int, pd.DataFrame]) -> str | None:
    """Writes arrival, wait, transfer and the last rank of each instance of group `pg` into `frames`; a reason
    instead when an instance's kernels cannot be one collective (a rank ended before the last one started)."""
    starts = pd.DataFrame({r: sub[r]["start_us"].values for r in ranks})
    ends = pd.DataFrame({r: (sub[r]["start_us"] + sub[r]["dur_us"]).values for r in ranks})
    arrival = starts.max(axis=1)
    early = ends.min(axis=1) < arrival - CLOCK_SLACK_US
    if early.any():
        k = int(early.idxmax())
        return (f"call {k + 1} ends on one rank {arrival[k] - ends.min(axis=1)[k]:.1f} us before the last rank "
                "starts it (clocks of different hosts?)")
    last = starts.idxmax(axis=1)   # ties: the first (lowest) rank; nobody waited for it
    for r in ranks:
        idx = sub[r].index
        dur = sub[r]["dur_us"].values
        wait = (arrival.values - sub[r]["start_us"].values).clip(0, dur)
        frames[r].loc[idx, "arrival_us"] = arrival.values
        frames[r].loc[idx, "wait_us"] = wait
        frames[r].loc[idx, "transfer_us"] = dur - wait
        frames[r].loc[idx, "last_rank"] = last.values.astype(int)
    return None
