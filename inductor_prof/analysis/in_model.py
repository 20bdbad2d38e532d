"""A call slower in the model than the same call timed alone (pure): an item of its own, apart from the kernel's
headroom. The kernel is not slower there; its context is: the clocks (a power-capped step), the cache its
neighbours leave, overlap with other work. Two sources time a call alone: the attention stage (the model's own
backend at the model's shape, timed with the other backends) and ncu's replay of a library call (its duration
beside the in-model time of the same call, ncu.csv's model_us)."""
from __future__ import annotations

import math
from typing import AbstractSet, Any

import pandas as pd

from ..names import demangle
from . import row_dicts
from ..units import NS_PER_US, US_PER_MS

# a call within 5% of its time alone is the same call: run-to-run noise and clock wander reach a few % (the
# FLUX GEMMs' ncu replays: 97-104% of their in-model times)
GAP_PCT = 5.0
DO = "find what its context costs it (clocks under the power cap, cache, overlap), not the kernel"


def _known(v: object) -> bool:
    return v is not None and not (isinstance(v, float) and math.isnan(v))


def _records(df: pd.DataFrame, columns: tuple[str, ...]) -> list[dict[str, Any]]:
    """df's rows as records of the columns read here (records of every column cost most of a large run's items)."""
    return row_dicts.records(df[[c for c in columns if c in df.columns]])


def gap_ms(in_model_us: float, alone_us: float, calls_per_step: float | None) -> float:
    """ms/step the model's calls take above the same calls alone; 0 within GAP_PCT of the time alone."""
    if not all(_known(v) for v in (in_model_us, alone_us, calls_per_step)) or alone_us <= 0:
        return 0.0
    if in_model_us < alone_us * (1 + GAP_PCT / 100):
        return 0.0
    assert calls_per_step is not None   # _known above: a call without a call count returned 0.0
    return (in_model_us - alone_us) * calls_per_step / US_PER_MS


def attention_items(df: pd.DataFrame, attention: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per attention kernel of the table that ran the calls of exactly one benchmarked shape (and no other
    kernel did): its time a call in the timed steps against its backend's time alone in the attention stage."""
    rows = {demangle(n): r for n, r in zip(df["name"].tolist(), _records(df, ("avg_us", "calls_per_step", "display")))}
    out = []
    for a in attention:
        if a.get("pass", "forward") != "forward":   # a forward+backward time: not one kernel's call alone
            continue
        mine = [k for k in a.get("kernels") or [] if demangle(k) in rows]
        if len(mine) != 1 or sum(demangle(mine[0]) in map(demangle, b.get("kernels") or []) for b in attention) != 1:
            continue
        r = rows[demangle(mine[0])]
        alone_us = a["model_ms"] * US_PER_MS
        ms = gap_ms(r["avg_us"], alone_us, r["calls_per_step"])
        if ms > 0:
            out.append({"what": f"{r['display']} in the model vs alone", "category": "in model",
                        "headroom_ms_per_step": ms,
                        "why": f"{r['avg_us']:.0f} us a call in the timed steps vs {alone_us:.0f} us alone (attention "
                               f"stage, {a['model_backend']} at {a['shape']}); {r['calls_per_step']:.0f} calls/step",
                        "do": DO})
    return out


def replay_items(df: pd.DataFrame, ncu: pd.DataFrame | None,
                 skip: AbstractSet[str] = frozenset()) -> list[dict[str, Any]]:
    """Per library kernel whose calls ncu replayed (ncu.csv rows with model_us, the call's in-model time): the
    replayed calls' time in the model above their ncu duration, times their calls per step (the kernel's
    calls_by_shape row of that shape); summed over its calls more than GAP_PCT slower in the model. `skip`:
    kernels an attention item covers already."""
    if ncu is None or ncu.empty or "model_us" not in ncu.columns:
        return []
    rows = {n: r for n, r in zip(df["name"].tolist(), _records(df, ("display", "calls_by_shape")))}
    out = []
    replayed = ncu[ncu["model_us"].notna() & ncu["duration_ns"].notna() & ncu["name"].isin(list(rows))]
    for name, calls in replayed.groupby("name", sort=False, observed=True):
        if demangle(name) in skip:
            continue
        r = rows[name]
        per_step = {s["shape"]: s["calls_per_step"] for s in r.get("calls_by_shape") or []}
        timed = [(c["shape"], c["model_us"], c["duration_ns"] / NS_PER_US, per_step.get(c["shape"]))
                 for c in row_dicts.records(calls)]
        parts = [(s, m, a, n, gap_ms(m, a, n)) for s, m, a, n in timed]
        parts = [p for p in parts if p[4] > 0]
        if not parts:
            continue
        said = "; ".join(f"{s} {m:.0f} vs {a:.0f} us x {n:.0f}/step" for s, m, a, n, _ in parts)
        out.append({"what": f"{r['display']} in the model vs alone", "category": "in model",
                    "headroom_ms_per_step": sum(p[4] for p in parts),
                    "why": f"in the model vs ncu's replay alone (its cache flushed): {said}", "do": DO})
    return out


def items(df: pd.DataFrame, attention: list[dict[str, Any]], ncu: pd.DataFrame | None) -> list[dict[str, Any]]:
    """The in-model items of a run: attention stage first, ncu replays of the other kernels."""
    att = attention_items(df, attention)
    # a training run's forward+backward rows time no kernel's call alone: its kernels keep their ncu replay's item
    covered = {demangle(k) for a in attention if a.get("pass", "forward") == "forward" for k in a.get("kernels") or []}
    return att + replay_items(df, ncu, covered)
