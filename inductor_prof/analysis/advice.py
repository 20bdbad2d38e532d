"""Where to look next (pure): the step's savings ranked, one item per cause, each saying what to do and what it
is measured against.

- A kernel: its headroom to the ceiling that bounds it (analysis/roofline.py: a rate this GPU reaches). Where the
  run measured its exact calls another way, it is judged against the best time measured for them instead
  (`per_shape`): a library GEMM whose calls the ceilings stage replayed, and where asked built as Inductor's
  Triton template (as fast as that shape gets here, or a faster kernel or run of it exists), an attention kernel whose calls the attention stage benchmarked (the fastest backend
  that passed its check, timed side by side with the model's). The kernel and a better backend for its calls
  are then one item, with both figures said.
- The launch/idle gap: the plain (unprofiled) step minus the GPU-busy time, so Proton's own cost is not counted.
- A rank of several (`comm`): of that gap, the time its NCCL kernels waited for the last rank (its torch.profiler
  step's exposed wait, at most the gap) is an item of its own, naming the rank waited for; the rest stays the
  launch/idle item. Data moving with no compute beside it (exposed transfer) and the ranks' step imbalance
  (slowest plain step minus fastest) are items too.
"""
from __future__ import annotations

import math
from typing import Any, Callable, Sequence

import numpy as np
import pandas as pd

from ..attention.semantics import qkv_layout
from ..names import demangle
from ..units import US_PER_MS
from . import binding as bind, row_dicts
from .causes import causes, counter_facts, instruction_cause
from .call_label import call_label
from .step_split import exposed_comm_ms

TOP = 10
NAN = float("nan")
# a call beside an NCCL kernel for at least half its time is said to have run beside it (its "why")
MOSTLY_BESIDE = 0.5
AT_BEST = 0.02      # a call within 2% of the best time measured for it is as fast as it gets here
DO = {"compute": "a faster kernel, or less work", "memory": "fewer bytes (fuse, layout)",
      "floor": "fewer launches (fuse or batch its calls)"}   # a call bound by its launch: not by bytes or flops


def _gemm_judgement(headroom: float, shapes: list[dict[str, Any]], bound: str) -> tuple[float, str, str] | None:
    """(headroom ms/step, against what, what to do) of a library GEMM from its calls (with_best rows, as records):
    calls per step x (time per call - best time) over its measured calls (a cuBLAS replay, Inductor's Triton
    template), plus its roofline `headroom` for the share of its time in calls nothing else measured (`bound`: its
    roofline bound, whose action they get). None when none of its calls was."""
    measured = [s for s in shapes if not math.isnan(s["best_us"])]
    if not measured:
        return None

    # NaN as 0, summed as pandas sums a column (numpy's order)
    def total(rows: list[dict[str, Any]], f: Callable[[dict[str, Any]], float]) -> float:
        return float(np.nansum(np.array([f(s) for s in rows], dtype=float)))
    # library_ops.csv traces one pass over every input size: its calls are calls per step
    saving = total(measured, lambda s: max(s["us_per_call"] - s["best_us"], 0.0) * s["calls"]) / US_PER_MS
    others = [s for s in shapes if math.isnan(s["best_us"])]
    unmeasured = total(others, lambda s: s["share_of_kernel"])
    top = measured[0]
    shape = call_label(top["op"], top["dims"])
    # the part of the gap to a replay (which ran alone) that the call spent beside an NCCL kernel is the price
    # of that overlap (beside_nccl.py), not the call's: the headroom keeps only the rest; likewise the roofline
    # headroom of its other calls counts only their time alone
    beside = total(measured, lambda s: max(s["us_per_call"] - s["best_us"], 0.0) * s["calls"] * _beside(s)) \
        / US_PER_MS
    alone = total(others, lambda s: s["share_of_kernel"] * (1 - _beside(s)))
    alternatives = "; ".join(f"{what} {top[col]:.0f} us" for what, col in
                       (("a cuBLAS replay", "replay_us"), ("Inductor's Triton template", "template_us"))
                       if not math.isnan(top[col]))
    if saving <= AT_BEST * total(measured, lambda s: s["ms"]):
        why = f"as fast as this shape gets here: {shape} {top['us_per_call']:.0f} us a call; {alternatives}"
        # no headroom without an action: within AT_BEST the measured calls have none (timing noise), and what is
        # left is its other calls' roofline headroom, with the roofline's action for them
        do = f"its other calls ({unmeasured:.0%} of its time): {DO[bound]}; the measured ones are as fast as " \
             "they get here" if unmeasured > AT_BEST else "nothing for its measured calls"
        return headroom * alone if unmeasured > AT_BEST else 0.0, why, do   # its other calls' time alone, as below
    elif top["template_us"] < min(v for v in (top["replay_us"], top["us_per_call"]) if not math.isnan(v)):
        why = f"Inductor's Triton template is faster: {shape} {top['template_us']:.0f} vs {top['us_per_call']:.0f} us"
        do = "compile with mode=max-autotune (Inductor then picks its template for this shape)"
    elif _beside(top) >= MOSTLY_BESIDE:
        kind = top.get("beside_kind") or "collective"
        why = (f"ran beside NCCL {kind} for {_beside(top):.0%} of its time: the collective's SMs slow it; the replay "
               f"ran alone: {shape} {top['replay_us']:.0f} vs {top['us_per_call']:.0f} us ({beside:.2f} ms/step of "
               "the gap is that overlap, left out of the headroom, as is its other calls' time beside it)")
        do = "nothing for the call alone: its time beside the collective is what hiding the collective costs"
    else:
        why = f"a replay of the same call is faster: {shape} {top['replay_us']:.0f} vs {top['us_per_call']:.0f} us"
        do = "find why the model's call is slower (layout, alignment, its epilogue)"
    return saving - beside + headroom * alone, why, do


def _beside(s: dict[str, Any]) -> float:
    """A call's share of its traced time beside an NCCL kernel (0 where unknown: judged as if alone)."""
    v = s.get("beside_nccl_share")
    return float(v) if isinstance(v, (int, float)) and v == v else 0.0


def _attention_judgement(r: pd.Series, savings: list[dict[str, Any]]) -> tuple[float, str, str]:
    """(headroom ms/step, against what, what to do) of an attention kernel whose calls the attention stage
    benchmarked: the measured saving of the fastest backend for each of its shapes, plus its roofline headroom for
    the share of its time in calls no benchmark covered."""
    saving = sum(a["saving_ms_per_step"] for a in savings)
    per_call_ms = float(r["step_ms"]) / max(float(r["calls_per_step"]), 1e-9)
    covered = min(1.0, sum(a["calls_per_step"] for a in savings) * per_call_ms / max(float(r["step_ms"]), 1e-12))
    best = max(savings, key=lambda a: a["saving_ms_per_step"])
    roof = f"{r['pct_of_peak']:.0f}% of {r['ceiling']}" if r["ceiling"] else ""
    if best["saving_ms_per_step"] > 0:
        # a contiguous variant is timed after the others of its shape, once one failed: not in their rounds
        timed = ("timed in the same process, after the others" if qkv_layout.is_variant(best["best_backend"])
                 else "timed side by side")
        why = (f"{best['best_backend']} {best['best_ms']:.3f} vs {best['model_backend']} {best['model_ms']:.3f} ms "
               f"a call{_pass_said(best)}, {timed}; {roof}")
        do = best.get("do") or f"use {best['best_backend']} for {best['shape']}" + (
            " (its forward and backward)" if best.get("part") else "")   # `do`: a layout change to add as well
    else:
        why = f"its backend ({best['model_backend']}) is the fastest measured for {best['shape']}; {roof}"
        do = "nothing faster was measured for its calls"
        if covered < 1 - AT_BEST:   # no headroom without an action: the rest's, judged on the roofline
            do = f"its calls no benchmark covered ({1 - covered:.0%} of its time): " \
                 f"{DO.get(r['bound'], DO['compute'])}; nothing faster was measured for the others"
        else:
            return 0.0, why, do
    return saving + float(r["headroom_ms_per_step"]) * (1 - covered), why, do


def _pass_said(a: dict[str, Any]) -> str:
    """' forward+backward (the backward's share of the saving)', or ' forward, N calls a step (its share)' for a training run's saving
    (attention_training.savings), with the upstream gradient's layout where it was not contiguous; '' for a
    forward one."""
    if not a.get("part"):
        return ""
    share = a["saving_ms_per_step"] / a["call_saving_ms_per_step"] if a.get("call_saving_ms_per_step") else 0.0
    n, m = a.get("calls_per_step") or 0, a.get("backward_calls_per_step") or 0
    if a["part"] == "forward":   # its times are the forward rows' (attention_training.savings)
        return f" forward, {n:.0f} calls a step ({share:.0%} of the forward+backward saving)"
    some = f", {m:.0f} of its {n:.0f} calls a step run a backward" if 0 < m < n else ""
    dout = f", dout {a['dout']} as the model's backward got it" if a.get("dout") else ""
    return f" forward+backward ({share:.0%} of the saving is the {a['part']}'s{some}{dout})"


def _other_roofs(r: dict[str, Any]) -> str:
    """'; 102% of measured, 66% of spec' for a compute-bound kernel (roofline.roof_shares), '' otherwise."""
    said = [f"{r[c]:.0f}% of {what}" for c, what in (("pct_of_measured_ceiling", "measured"), ("pct_of_spec", "spec"))
            if isinstance(r.get(c), float) and not math.isnan(r[c])]
    return "; " + ", ".join(said) if said else ""


def _roof_columns(df: pd.DataFrame) -> list[dict[str, Any]]:
    """Per row, the columns _other_roofs reads (records of the whole table cost more than the rest of per_shape)."""
    records: list[dict[str, Any]] = \
        row_dicts.records(df[[c for c in ("pct_of_measured_ceiling", "pct_of_spec") if c in df.columns]])
    return records


def per_shape(df: pd.DataFrame, gemm_shapes: pd.DataFrame | None, attention: list[dict[str, Any]] | None = None) -> pd.DataFrame:
    """The kernel table with each kernel's headroom said (`headroom_vs`: what it is measured against, `do`), and
    where the run measured a kernel's exact calls another way, its headroom and speed of light against the best
    time measured for them: a library GEMM's replayed calls (gemm_shapes: library_calls.with_best), an attention
    kernel's benchmarked calls (attention: headroom.attention_saving rows with the model's kernels of each shape).
    Every table and the advice then carry one headroom per kernel."""
    df = df.copy()
    known = df["sol_ms_per_step"].notna()
    df["headroom_vs"] = [f"{p:.0f}% of {c}" + _other_roofs(r) if c and k else "" for p, c, k, r in
                         zip(df["pct_of_peak"].tolist(), df["ceiling"].tolist(), known.tolist(), _roof_columns(df))]
    # (columns as lists: iterating a Series of text gets each cell through pandas, thousands of rows)
    df["do"] = [DO.get(b, "") if k else "" for b, k in zip(df["bound"].tolist(), known.tolist())]
    # what the headroom is measured against (reachable.py re-bases only the roofline's on the binding unit)
    df["headroom_by"] = ["roofline" if k else "" for k in known.tolist()]
    floor = df["at_floor"].fillna(False).astype(bool) & known if "at_floor" in df.columns else known & False
    if floor.any():   # bound by their launch (roofline.add_derived: at the run's kernel floor)
        df.loc[floor, "headroom_vs"] = [f"{us:.1f} µs a call, the shortest kernel {fl:.1f}" for us, fl in
                                        zip(df.loc[floor, "avg_us"], df.loc[floor, "floor_us"])]
        df.loc[floor, "do"] = DO["floor"]
        df.loc[floor, "headroom_by"] = "launch floor"
    shaped = set() if gemm_shapes is None or gemm_shapes.empty else set(gemm_shapes["kernel"])
    # groups only of the kernels with a measured call: the others' judgement is None (thousands of kernels in a
    # large run, a DataFrame each)
    measured: set[str] = set()
    if shaped:
        assert gemm_shapes is not None   # shaped is its kernel column
        measured = set(gemm_shapes.loc[gemm_shapes["best_us"].notna(), "kernel"])
    by_kernel: dict[str, list[dict[str, Any]]] = {}   # plain records: a DataFrame per kernel cost ms in each judgement
    if measured:
        assert gemm_shapes is not None   # measured is a subset of shaped, its kernel column
        for r in row_dicts.records(gemm_shapes[gemm_shapes["kernel"].isin(measured)]):
            by_kernel.setdefault(r["kernel"], []).append(r)
    savings: dict[str, list[dict[str, Any]]] = {}
    for a in attention or []:
        for k in a.get("kernels") or []:
            savings.setdefault(demangle(k), []).append(a)
    names = df["name"].map(demangle)
    gemm = (df["category"] == "GEMM") & (df["origin"] == "library") & names.isin(shaped)
    # the rows a branch below judges (iterrows of every known row cost more than the judging)
    some = known & (gemm | names.isin(list(savings)))
    judged_rows = {}
    for i, r in zip(df.index[some], row_dicts.records(df[some])):
        judged = None
        name = demangle(r["name"])
        if gemm.at[i]:
            judged = _gemm_judgement(float(r["headroom_ms_per_step"]), by_kernel[name], r["bound"]) \
                if name in by_kernel else None
        elif name in savings:
            judged = _attention_judgement(r, savings[name])
        if judged:
            judged_rows[i] = (*judged, float(r["step_ms"]) - judged[0])
    if judged_rows:   # written at once: a .loc write per row cost milliseconds each
        at = list(judged_rows)
        for j, col in enumerate(("headroom_ms_per_step", "headroom_vs", "do", "sol_ms_per_step")):
            df.loc[at, col] = [judged_rows[i][j] for i in at]
        df.loc[at, "headroom_by"] = "measured"
    return _said_beside_nccl(df, gemm_shapes, set(judged_rows))


def _said_beside_nccl(df: pd.DataFrame, shapes: pd.DataFrame | None, judged: set[Any]) -> pd.DataFrame:
    """A library kernel judged on its roofline that ran beside NCCL kernels for most of its traced time has that
    said after its "why": part of its gap may be the overlap, but with no time of its calls alone to split by, its
    headroom stays the roofline's. (A GEMM with a replay is split: _gemm_judgement.)"""
    if shapes is None or shapes.empty or "beside_nccl_share" not in shapes:
        return df
    known = shapes[shapes["beside_nccl_share"].notna()]
    share = (known["beside_nccl_share"] * known["share_of_kernel"]).groupby(known["kernel"], observed=True).sum()
    kinds = known.dropna(subset=["beside_kind"]).groupby("kernel", observed=True)["beside_kind"].first()
    names = df["name"].map(demangle)
    for i in df.index[names.isin(share[share >= MOSTLY_BESIDE].index) & ~df.index.isin(judged)]:
        name = names.at[i]
        said = f"beside NCCL {kinds.get(name, 'collectives')} for {share[name]:.0%} of its time (part of this gap " \
               "may be that overlap)"
        df.at[i, "headroom_vs"] = f"{df.at[i, 'headroom_vs']}; {said}" if df.at[i, "headroom_vs"] else said
    return df


# what to do where ncu contradicts the roofline: the unit that was busy, not the roof the flops and bytes imply
DO_BINDING = {bind.SM: "fewer instructions a byte (SM {sm:.0f}% busy: the math per element, conversions)",
              bind.TENSOR: "fewer or cheaper MMAs (tensor pipes {tensor:.0f}% busy)",
              bind.DRAM: "fewer bytes (DRAM busy, memory SOL {mem:.0f}%: fuse, layout)",
              bind.L2: "fewer bytes through L2 (memory SOL {mem:.0f}%: reuse in shared memory, tile order)",
              bind.L1: "fewer L1/shared accesses (memory SOL {mem:.0f}%: wider loads, bank conflicts)"}


def memory_level_mismatch(bound: str, unit: str, dram_pct: float, roofline_pct: float | None = None) -> bool:
    """Memory-bound on the roofline (its bytes at DRAM's rate), while ncu finds DRAM is not what is busy: L1/shared,
    or L2 with DRAM below BUSY_PCT; or no unit busy (latency) where the roofline agrees that DRAM is not busy
    either (`roofline_pct`, its % of the roof, below BUSY_PCT: a kernel at 90% of DRAM in the model that ncu's
    replay, its inputs no longer in L2, finds idle is DRAM-bound in the model). Fewer DRAM bytes would not make
    it faster."""
    if bound != "memory":
        return False
    if unit == bind.L2:
        return bind._known(dram_pct) and dram_pct < bind.BUSY_PCT
    if unit in (bind.LATENCY, bind.NONE):
        if not bind._known(roofline_pct):
            return True
        assert roofline_pct is not None   # _known: not None, not NaN
        return roofline_pct < bind.BUSY_PCT
    return unit == bind.L1


# what to do where the memory level is not DRAM and the source pass found no cause
DO_LEVEL = {bind.L1: DO_BINDING[bind.L1], bind.L2: DO_BINDING[bind.L2],
            bind.LATENCY: "more warps in flight (occupancy {occ:.0f}%: fewer registers or shared memory a block, "
                          "more blocks)",
            bind.NONE: "more work in flight (no unit 60% busy: a larger tile or more blocks a launch)"}


def with_counters(df: pd.DataFrame, facts: dict[str, dict[str, Any]] | None = None) -> pd.DataFrame:
    """Per kernel whose roofline judgement ncu contradicts (binding.add_binding's `binding_disagrees`), or whose
    bytes are at DRAM's rate on the roofline while ncu finds another memory level busy or none
    (memory_level_mismatch), its `do` names the unit that binds, or with the source pass's counters (`facts`:
    name -> causes.source_facts) the causes it found (uncoalesced lines, the loads' latency), and `headroom_vs`
    says both, keeping the roofline's figure beside. Items judged another way (a replay, a benchmark, the launch
    floor) keep theirs: they were measured, not inferred."""
    if "binding_disagrees" not in df.columns:
        return df
    df = df.copy()
    facts = facts or {}
    roofline_said = df["do"] == df["bound"].map(DO).fillna("")
    roof = df["pct_of_peak"] if "pct_of_peak" in df.columns else pd.Series(NAN, index=df.index)
    level = pd.Series([memory_level_mismatch(b, u, d, p) for b, u, d, p in
                       zip(df["bound"].tolist(), df["binding_unit"].tolist(), df["ncu_dram_pct"].tolist(),
                           roof.tolist())], index=df.index, dtype=bool)
    for i, r in df[(df["binding_disagrees"].astype(bool) | level) & roofline_said].iterrows():
        unit = r["binding_unit"]
        # the source pass's counters (with its lines), else the metric pass's stall counters where recorded
        mine = facts.get(r["name"]) or counter_facts(r.to_dict())
        found = causes(mine) if mine else []
        if unit == bind.SM and mine:   # the instructions, by line and op, where the source pass has them
            found = [c for c in [instruction_cause(mine, r["sol_compute_pct"])] if c] + found
        if found:
            df.loc[i, "do"] = "; ".join(found)
        elif level.at[i]:
            df.loc[i, "do"] = DO_LEVEL[unit].format(mem=r["sol_memory_pct"], occ=r.get("occupancy_pct", NAN))
        else:
            df.loc[i, "do"] = DO_BINDING[unit].format(sm=r["sol_compute_pct"], mem=r["sol_memory_pct"],
                                                      tensor=r.get("tensor_pipe_pct", NAN))
        busier = f"{unit} busier" if unit not in (bind.LATENCY, bind.NONE) else "no unit busy"
        df.loc[i, "headroom_vs"] = (f"{r['headroom_vs']} on the roofline ({r['bound']}-bound by its bytes and "
                                    f"flops); ncu finds {busier}: {r['binding_evidence']}")
    return df


def comm_items(gap_ms: float | None, comm: dict[str, Any]) -> tuple[list[dict[str, Any]], float | None, float]:
    """(the items of a rank of several, the launch/idle gap left once its waiting is taken out of it, that
    waiting in ms per step).

    Waiting at a collective is not the collective's cost (its transfer is) nor this rank's kernel time (Proton's
    NCCL waiting is out of GPU busy): it is another rank arriving late, whose cause the straggler names. It is
    measured in the torch.profiler step (exposed: nothing else on this GPU), which runs under the profiler's host
    cost: a rank whose launches are host-bound arrives later there than unprofiled. So it is bounded by what the
    plain step leaves beyond this rank's own GPU work: the launch gap (plain step - GPU busy), with the compute
    that ran beside NCCL moving data (`hidden_transfer_ms`) counted once, since a per-kernel sum counts it twice
    (rank 1 of llama-train-ddp-h200x2: gap 0, 1.600 ms beside transfer; waiting 3.025 ms in the traced step, of
    which 1.600 can be the plain step's). What is left of that room is the launch/idle item: each ms once."""
    items = []
    s: Any = comm.get("straggler")   # straggler.straggler's dict, or None
    room = 0.0 if gap_ms is None else max(gap_ms, 0.0) + (comm.get("hidden_transfer_ms") or 0.0)
    wait = min(comm.get("wait_ms") or 0.0, room)
    if wait > 0:
        other = s is not None and s["rank"] != comm["rank"]
        who = f"rank {s['rank']}" if other else "the other ranks"
        late = "its launches come late: host work" if other and s["cause"] == "host" else "its kernels are slower"
        if other and "late_ms" in s:   # straggler.straggler's cut of its lateness, the straggler line's figures
            late = (f"it fell behind {s['late_ms']:.3f} ms in all: "
                    f"{s['start_ms'] + s['extra_idle_ms']:.3f} ms launching late (host work), "
                    f"{s['extra_compute_ms']:.3f} ms in slower kernels; see the straggler line")
        capped = f", bounded by the plain step's {room:.3f} ms off this rank's own work" \
            if wait < (comm.get("wait_ms") or 0.0) else ""
        items.append({"what": f"waiting for {who} at collectives", "category": "ranks", "headroom_ms_per_step": wait,
                      "why": f"NCCL kernels waiting for the last rank to arrive, nothing else on this GPU "
                             f"({comm.get('wait_ms') or 0.0:.3f} ms in the torch.profiler step{capped}); not this "
                             "rank's kernel time",
                      "do": f"make {who} arrive sooner ({late}); nothing to change on this rank" if other
                            else "balance the ranks' work"})
    gap_ms = None if gap_ms is None else room - wait
    exposed = exposed_comm_ms(comm) or 0.0
    if exposed > 0:
        items.append({"what": "communication with no compute beside it", "category": "ranks",
                      "headroom_ms_per_step": exposed,
                      "why": "NCCL moving data after every rank arrived, nothing else on the GPU (torch.profiler "
                             "step)",
                      "do": "overlap it with compute (async collectives, prefetch), or move fewer bytes"})
    spread = comm.get("spread")
    if spread and spread["max_ms"] > spread["min_ms"]:
        items.append({"what": f"imbalance: rank {spread['slowest_rank']}'s step vs rank {spread['fastest_rank']}'s",
                      "category": "ranks", "headroom_ms_per_step": spread["max_ms"] - spread["min_ms"],
                      "why": "slowest rank's plain step minus the fastest's (every rank waits for the slowest)",
                      "do": "give the ranks equal work; see the straggler line"})
    return items, gap_ms, wait


def _straggling(comm: dict[str, Any] | None) -> str:
    """What the launch gap item of the straggler adds when its late launches are why the others wait."""
    s = (comm or {}).get("straggler")
    if not s or s["rank"] != comm["rank"] or s["cause"] != "host":   # type: ignore[index]
        return ""
    return (f"; its late launches make rank {s['waiter']} wait ({s['exposed_wait_ms']:.3f} ms with nothing else on "
            "its GPU, traced step; the straggler line)") if "exposed_wait_ms" in s else ""


ITEM_COLUMNS = ["display", "category", "headroom_ms_per_step", "headroom_vs", "do"]   # what a kernel's item says


def rank(df: pd.DataFrame, gap_ms: float | None, attention: list[dict[str, Any]], top: int = TOP,
         comm: dict[str, Any] | None = None, apart: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    """The ranked items: {"what", "category", "headroom_ms_per_step", "why" (what it is measured against),
    "do"}. df: the kernel table after per_shape (an attention kernel there already carries the better backend for
    its calls); attention: headroom.attention_saving rows, listed apart only where no kernel of the table ran
    their calls; comm: a rank of several (comm_items)."""
    kernels = {demangle(n) for n in df["name"].tolist()}
    extra: list[dict[str, Any]] = []
    waited = 0.0
    if comm:
        extra, gap_ms, waited = comm_items(gap_ms, comm)
    reach = "reachable_headroom_ms_per_step" if "reachable_headroom_ms_per_step" in df.columns else \
        "headroom_ms_per_step"
    # a kernel's item: its headroom to the unit that binds it (reachable.py), the roofline's beside it
    items = extra + [{"what": r["display"], "category": r["category"], "headroom_ms_per_step": float(r[reach]),
                      "roofline_headroom_ms_per_step": float(r["headroom_ms_per_step"]), "why": r["headroom_vs"],
                      "do": r["do"]}
                     # records, not iterrows: a Series per row cost most of this with thousands of kernels
                     for r in row_dicts.records(df.loc[df["sol_ms_per_step"].notna(),
                                                  list(dict.fromkeys([*ITEM_COLUMNS, reach]))]) if r[reach] > 0]
    items += [i for i in apart or [] if i["headroom_ms_per_step"] > 0]
    for a in attention:
        if a["saving_ms_per_step"] > 0 and not kernels & {demangle(k) for k in a.get("kernels") or []}:
            items.append({"what": f"attention {a['shape']}" + (f" ({a['part']})" if a.get("part") else ""),
                          "category": "attention",
                          "headroom_ms_per_step": a["saving_ms_per_step"],
                          "why": f"{a['best_backend']} {a['best_ms']:.3f} vs {a['model_backend']} "
                                 f"{a['model_ms']:.3f} ms a call{_pass_said(a)}, timed side by side",
                          "do": a.get("do") or f"use {a['best_backend']} instead of {a['model_backend']}"})
    if gap_ms is not None and not math.isnan(gap_ms) and gap_ms > 0:
        items.append({"what": "launch overhead and idle", "category": "host", "headroom_ms_per_step": gap_ms,
                      "why": "plain step (no profiler) minus GPU-busy time" +
                             (" (compute beside NCCL moving data counted once)"
                              if comm and comm.get("hidden_transfer_ms") else "") +
                             (" and the waiting at collectives" if waited > 0 else ""),
                      "do": "CUDA graphs, fewer launches" + _straggling(comm)})
    items.sort(key=lambda i: i["headroom_ms_per_step"], reverse=True)
    return items[:top]


def kernels_by_shape(calls: list[dict[str, Any]] | None, flex_kernels: Sequence[str] = ()) -> dict[str, list[str]]:
    """The model's kernels of each captured attention shape (its benchmark label), from attention_shapes.json.
    FlexAttention calls come from the eager capture alone (no kernel name): when they all share one shape, their
    kernels are the run's FlexAttention template kernels (`flex_kernels`)."""
    from ..attention.semantics.shapes import from_call

    out: dict[str, list[str]] = {}
    flex = set()
    for c in calls or []:
        label = from_call(c).label
        if c.get("kernel"):
            if c["kernel"] not in out.setdefault(label, []):
                out[label].append(c["kernel"])
        elif c.get("op") == "flex_attention":
            flex.add(label)
    if len(flex) == 1 and flex_kernels:
        mine = out.setdefault(flex.pop(), [])
        mine.extend(k for k in flex_kernels if k not in mine)
    return out
