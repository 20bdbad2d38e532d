"""The step's timeline (analysis/timeline.py) on the recorded example runs: every kernel launch of the traced step
once, at its real start time in microseconds; slices nested in their Proton scopes; each kernel slice carrying
the report's own numbers for its kernel; hand-read values from the raw torch.profiler trace pinned."""
from collections import Counter

import pandas as pd
import pytest

from recorded import REPO
from inductor_prof import load_report, runfiles
from inductor_prof.analysis.timeline import (BYTES, FLOPS, GAP, GPU_PID, OVERLAP, OVERLAPS, REPORT_ARGS, build,
                                             kernel_args,
                                             steps_of)
from inductor_prof.names import demangle

RUNS = REPO / "examples" / "runs"
CASES = {"llama-h100": None, "flux-h100": None, "llama-sizes-h100": "seq512", "flux-small-sizes-h100": "512x512"}


@pytest.fixture(scope="module")
def built():
    """run -> (tables, raw trace, kernel table of the size, Timeline of step_0)."""
    out = {}
    for name, size in CASES.items():
        tables = load_report(RUNS / name)
        raw = runfiles.torch_trace(tables.run, size, "the test needs it")
        kernels = tables.kernels if size is None else tables.by_size[tables.by_size["size"] == size]
        out[name] = (tables, raw, kernels, build(raw, kernels, tables.launches, "step_0", size))
    return out


def ns(us: float) -> int:
    return round(us * 1000)


def slices(timeline, cat=None):
    return [e for e in timeline.events if e["ph"] == "X" and (cat is None or e["cat"] == cat)]


def kernel_slices(timeline):
    return [e for e in slices(timeline) if e["pid"] == GPU_PID and e["cat"] not in ("scope", "gpu_memset",
                                                                                     "gpu_memcpy")]


@pytest.mark.parametrize("run", CASES)
def test_every_launch_once_at_its_start(built, run):
    _, raw, _, tl = built[run]
    want = sorted((e["name"], ns(e["ts"])) for e in raw["traceEvents"] if e.get("cat") == "kernel")
    got = sorted((e["name"], ns(e["ts"])) for e in kernel_slices(tl))
    assert len(got) == len(want) == tl.kernels
    # the same launches at the same offsets from the first one (a trace in ns, not us, would be 1000x apart)
    first_want, first_got = min(t for _, t in want), min(t for _, t in got)
    assert [(n, t - first_want) for n, t in want] == [(n, t - first_got) for n, t in got]
    assert tl.warnings == []


def test_times_in_microseconds(built):
    _, _, _, tl = built["llama-h100"]
    first, second = sorted(kernel_slices(tl), key=lambda e: e["ts"])[:2]
    # raw trace (microseconds, re-recorded run): vectorized_gather_kernel at 4677661642740.636 for 13.408 us; the
    # next kernel at 4677661642939.647: the stream idled 4677661642939.647 - (4677661642740.636 + 13.408)
    # = 185.603 us
    assert first["name"].startswith("void at::native::vectorized_gather_kernel")
    assert first["dur"] == pytest.approx(13.408, abs=1e-9)
    assert second["args"][GAP] == pytest.approx(185.603, abs=1e-6)
    assert first["args"][GAP] is None   # nothing ran before it on its stream
    # the step spans the first kernel's start to the last one's end: the elementwise_kernel at
    # 4677661653056.218 + 21.216 = 4677661653077.434; 4677661653077.434 - 4677661642740.636 = 10336.798
    step = next(e for e in slices(tl, "scope") if e["name"] == "step_0")
    assert step["dur"] == pytest.approx(10336.798, abs=1e-6)


@pytest.mark.parametrize("run", CASES)
def test_slices_nest_in_their_scopes(built, run):
    _, _, _, tl = built[run]
    scopes = {(e["args"]["proton scope"], e["tid"]): e for e in slices(tl, "scope")}

    def inside(child, parent):
        assert ns(parent["ts"]) <= ns(child["ts"])
        assert ns(child["ts"] + child["dur"]) <= ns(parent["ts"] + parent["dur"])

    for k in kernel_slices(tl):
        inside(k, scopes[(k["args"]["scope"], k["args"]["stream"])])
    for (path, tid), s in scopes.items():
        if "/" in path:   # a block in its step, a step in its size
            inside(s, scopes[(path.rsplit("/", 1)[0], tid)])


def proper_nesting(events):
    """True when no two slices partly overlap (each is inside the other or apart): what a track needs to show
    as a stack; sorted by start, longest first, each slice must fit in the innermost open one."""
    stack = []
    for e in sorted(events, key=lambda e: (ns(e["ts"]), -ns(e["dur"]))):
        start, end = ns(e["ts"]), ns(e["ts"]) + ns(e["dur"])
        while stack and stack[-1] <= start:
            stack.pop()
        if stack and end > stack[-1]:
            return False
        stack.append(end)
    return True


@pytest.mark.parametrize("run", CASES)
def test_gpu_tracks_are_stacks(built, run):
    _, _, _, tl = built[run]
    tracks = {}
    for e in slices(tl):
        if e["pid"] == GPU_PID:
            tracks.setdefault(e["tid"], []).append(e)
    assert tracks and all(proper_nesting(events) for events in tracks.values())
    # the check itself: a kernel pushed 1 us past its block's end no longer nests
    block = next(e for e in slices(tl, "scope") if e["args"]["proton scope"].count("/") >= 1 and
                 e["name"][0] in "dls")
    late = {**block, "cat": "x", "ts": block["ts"] + block["dur"] - 0.5, "dur": 1.0}
    assert not proper_nesting(tracks[block["tid"]] + [late])


def test_blocks_named_in_call_order(built):
    _, _, _, tl = built["flux-h100"]
    blocks = [e for e in sorted(slices(tl, "scope"), key=lambda e: e["ts"]) if "/" in e["args"]["proton scope"]]
    # FLUX calls its 19 double-stream blocks, then its 38 single-stream ones
    assert [b["name"] for b in blocks] == [f"double_{i}" for i in range(19)] + [f"single_{i}" for i in range(38)]
    assert tl.blocks_placed == 57
    _, _, _, tl = built["llama-sizes-h100"]
    blocks = [e for e in sorted(slices(tl, "scope"), key=lambda e: e["ts"]) if e["name"].startswith("layers")]
    assert [b["args"]["proton scope"] for b in blocks] == [f"seq512/step_0/layers.{i}" for i in range(8)]


@pytest.mark.parametrize("run", CASES)
def test_kernel_args_are_the_reports(built, run):
    _, _, kernels, tl = built[run]
    table = {demangle(n): r for n, (_, r) in zip(kernels["name"], kernels.iterrows())}
    for k in kernel_slices(tl):
        row = table[k["name"]]
        assert k["args"][FLOPS] == pytest.approx(row["flops"] / row["calls"], rel=1e-12)
        assert k["args"][BYTES] == pytest.approx(row["bytes"] / row["calls"], rel=1e-12)
        for label, col in REPORT_ARGS.items():
            if col not in row.index:   # a column only some runs have (phase: training runs): no arg
                assert label not in k["args"]
                continue
            want = row[col]
            if isinstance(want, float) and want != want:
                assert k["args"][label] is None
            else:
                assert k["args"][label] == (pytest.approx(want, rel=1e-12) if isinstance(want, float) else want)


def test_one_kernel_by_hand(built):
    _, _, _, tl = built["flux-h100"]
    k = next(e for e in kernel_slices(tl) if e["name"] == "nvjet_sm90_tst_192x192_64x4_2x1_v_bz_coopB_bias_TNN")
    # the report: 396,597,280,112,640 flops over 1,900 launches (190 a step, 10 steps) = 208,735,410,585.6 each;
    # 268,978,421,760 bytes / 1,900 = 141,567,590.4 each (the same work as before the re-recording); in
    # 542,791,108 ns: 730.66 TFLOP/s, 88.19% of the run's bf16 roof 828.54 ("reached": the 256x128 coopA nvjet's
    # FF-down shape, [4096,12288]x[12288,3072]: 309,237,645,312 flop a call in 373.2321579 us, above the measured
    # ceiling 726.0 and its kernel's 757.0 average)
    assert k["args"][FLOPS] == pytest.approx(208_735_410_585.6, rel=1e-12)
    assert k["args"][BYTES] == pytest.approx(141_567_590.4, rel=1e-12)
    assert k["args"]["TFLOP/s"] == pytest.approx(396_597_280_112_640 / 542_791_108 / 1e3, rel=1e-12)
    assert k["args"]["TFLOP/s"] == pytest.approx(730.6628, rel=1e-6)
    assert k["args"]["% of ceiling"] == pytest.approx(
        100 * (396_597_280_112_640 / 542_791_108) / (309_237_645_312 / 373_232.1578947369), rel=1e-9)
    assert k["args"]["% of ceiling"] == pytest.approx(88.1868, rel=1e-5)
    assert (k["args"]["category"], k["args"]["launches per step"]) == ("GEMM", 190.0)
    assert k["cat"] == "GEMM"


def test_block_that_matches_no_scope_is_said(built):
    tables, raw, kernels, _ = built["llama-h100"]
    launches = tables.launches
    # one kernel row of step_0/layers.3 gone: no compiled region holds that scope's kernels any more
    drop = launches.index[launches["path"] == "step_0/layers.3"][0]
    tl = build(raw, kernels, launches.drop(drop), "step_0")
    assert tl.blocks_placed == 7
    assert any("1 compiled region(s) match no Proton block scope" in w for w in tl.warnings)
    assert any("not placed in time" in w and "layers.3" in w for w in tl.warnings)
    assert any("kernel launches, Proton's step_0" in w for w in tl.warnings)   # the step no longer agrees
    unnamed = [e for e in slices(tl, "scope") if e["args"]["proton scope"] is None]
    assert [e["name"].split()[0] for e in unnamed] == ["Call"]


def test_steps_of(built):
    tables = built["llama-sizes-h100"][0]
    assert steps_of(tables.launches, "seq512") == [f"step_{i}" for i in range(5)]
    assert steps_of(built["llama-h100"][0].launches) == [f"step_{i}" for i in range(10)]


def test_block_time_against_proton(built):
    _, _, _, tl = built["llama-h100"]
    b = next(e for e in slices(tl, "scope") if e["name"] == "layers.0")
    # both sums of the block's kernel times: the trace's and Proton's step_0 (same kernels, two executions)
    assert b["args"]["kernel launches"] == sum(Counter(
        e["args"]["scope"] for e in kernel_slices(tl))[s] for s in ["step_0/layers.0"])
    assert b["args"]["kernel time (us)"] == pytest.approx(b["args"]["proton kernel time (us)"], rel=0.05)


def test_overlapping_launch_gets_its_own_track(built):
    _, _, _, tl = built["flux-small-sizes-h100"]
    over = [e for e in kernel_slices(tl) if e["tid"] == OVERLAP + 7]
    # raw trace (re-recorded run): one pair overlaps now. nvjet 64x8 splitK at 4677941209398.881 for 10.528 us
    # ends at ...409.409; its splitKreduce starts at ...409.281 (PDL): 0.128 us before. The other splitK pairs
    # leave a gap (e.g. ...318.064 + 11.264 = ...329.328 < ...338.353)
    assert [e["name"].split("<")[0] for e in over] == ["void cublasLt::splitKreduce_kernel"]
    assert [e["args"][OVERLAPS] for e in over] == [pytest.approx(0.128, abs=1e-9)]
    assert all(e["args"][GAP] == 0 for e in over)
    names = {e["tid"]: e["args"]["name"] for e in tl.events if e["ph"] == "M" and e["name"] == "thread_name"}
    assert names[OVERLAP + 7] == "stream 7: kernels overlapping the one before"


# ---- a hand-made trace (mutation audit: the host track, flows, gaps and every argument pinned) ----------------

def _x(cat, name, ts, dur, tid, **args):
    return {"ph": "X", "cat": cat, "name": name, "ts": ts, "dur": dur, "tid": tid, "pid": 99, "args": args}


def _tiny(size=None):
    """A step of three launches on stream 3 inside one compiled region, launched from host thread 7."""
    trace = {"traceEvents": [
        _x("cpu_op", "aten::mm", 100.0, 5.0, 7, **{"Input Dims": [[2, 2]], "External id": 5}),
        _x("cuda_runtime", "cudaLaunchKernel", 102.0, 1.0, 7, correlation=11),
        _x("gpu_user_annotation", "## Call CompiledFxGraph abc ##", 110.0, 20.0, 3),
        _x("kernel", "k_a", 110.5, 4.0, 3, correlation=11, grid=[4, 1, 1], stream=3, device=0),
        _x("kernel", "k_b", 116.0, 3.0, 3, correlation=12),
        _x("kernel", "k_a", 118.0, 2.0, 3, correlation=13),            # starts 1 us before k_b ends
        _x("gpu_memset", "Memset (Device)", 125.0, 1.0, 3),
        {"ph": "X", "cat": "kernel", "name": "no_ts", "tid": 3},       # no time: left out
        {"ph": "i", "cat": "kernel", "name": "instant", "ts": 50.0, "tid": 3},
        {"ph": "s", "cat": "ac2g", "id": 11, "ts": 102.5, "pid": 99, "tid": 7},
        {"ph": "f", "cat": "ac2g", "id": 11, "ts": 110.5, "pid": 99, "tid": 3},
        {"ph": "s", "cat": "ac2g", "id": 99, "ts": 103.0, "pid": 99, "tid": 7},   # a launch of no GPU event here
    ]}
    kernels = pd.DataFrame([{"name": "k_a", "calls": 4, "flops": 400.0, "bytes": 800.0, "tflops": 1.5,
                             "gbps": 2.5, "pct_of_peak": float("nan"), "ceiling": "DRAM (measured)",
                             "bound": "memory", "category": "GEMM", "kind": "gemm", "origin": "library",
                             "module": "*.mlp", "avg_us": 3.0, "calls_per_step": 2.0}])
    step = f"{size}/step_0" if size else "step_0"
    launches = pd.DataFrame({"name": ["k_a", "k_b", "k_a"], "calls": [2, 1, 9], "time_ns": [6000, 3000, 1],
                             "path": [f"{step}/blk_0", f"{step}/blk_0", "step_1/x"]})
    return build(trace, kernels, launches, "step_0", size)


def test_a_hand_made_step():
    tl = _tiny()
    assert (tl.kernels, tl.blocks_placed) == (3, 1)
    assert tl.warnings == ["kernel k_b is not in the report's kernel table"]
    by = {}
    for e in tl.events:
        by.setdefault((e["ph"], e.get("pid"), e.get("name")), []).append(e)
    # the host: its op and launch at their times from the first event (100 us), their args kept in part
    (op,) = by[("X", 2, "aten::mm")]
    assert (op["cat"], op["tid"], op["ts"], op["dur"]) == ("cpu_op", 7, 0.0, 5.0)
    assert op["args"] == {"Input Dims": [[2, 2]]}
    (launch,) = by[("X", 2, "cudaLaunchKernel")]
    assert (launch["ts"], launch["dur"], launch["args"]) == (2.0, 1.0, {"correlation": 11})
    # flows of the step's launches only: the start on the host, the end on the GPU, re-timed
    flows = [e for e in tl.events if e.get("cat") == "ac2g"]
    assert [(e["ph"], e["pid"], e["ts"], e["id"]) for e in flows] == [("s", 2, 2.5, 11), ("f", 1, 10.5, 11)]
    # the step scope and the block over the stream, the block named by the Proton scope of the same kernels
    (step,) = by[("X", 1, "step_0")]
    assert (step["cat"], step["tid"], step["ts"], step["dur"]) == ("scope", 3, 10.0, 20.0)
    assert step["args"]["proton scope"] == "step_0"
    assert (step["args"]["kernel launches"], step["args"]["proton launches"]) == (3, 3)
    (blk,) = by[("X", 1, "blk_0")]
    assert (blk["ts"], blk["dur"]) == (10.0, 20.0)
    assert {k: blk["args"][k] for k in ("proton scope", "compiled region", "kernel launches", "kernel time (us)",
                                        "proton kernel time (us)")} == {
        "proton scope": "step_0/blk_0", "compiled region": "Call CompiledFxGraph abc", "kernel launches": 3,
        "kernel time (us)": 9.0, "proton kernel time (us)": 9.0}
    # the kernels: the report's numbers per launch, the gap since the stream's last activity
    first, second = by[("X", 1, "k_a")]
    assert (first["cat"], first["tid"], first["ts"], first["dur"]) == ("GEMM", 3, 10.5, 4.0)
    assert first["args"][GAP] is None and first["args"]["scope"] == "step_0/blk_0"
    assert (first["args"][FLOPS], first["args"][BYTES], first["args"]["grid"], first["args"]["stream"]) == \
        (100.0, 200.0, [4, 1, 1], 3)
    assert "device" not in first["args"] and first["args"]["TFLOP/s"] == 1.5
    assert first["args"]["% of ceiling"] is None
    assert first["args"]["launches per step"] == 2.0 and first["args"]["kernel"] == "k_a"
    (kb,) = by[("X", 1, "k_b")]
    assert (kb["cat"], kb["args"][GAP], kb["args"]["source"]) == \
        ("kernel", 1.5, "time: torch.profiler step (library_ops stage); not in the report")
    # started before k_b ended: a track of its own, the overlap said, no gap
    assert (second["tid"], second["args"][OVERLAPS], second["args"][GAP]) == (OVERLAP + 3, 1.0, 0.0)
    (memset,) = by[("X", 1, "Memset (Device)")]
    assert (memset["cat"], memset["args"][GAP], memset["args"]["source"]) == \
        ("gpu_memset", 5.0, "torch.profiler step (library_ops stage)")
    assert not any(e.get("name") in ("no_ts", "instant") for e in tl.events)
    # the tracks' names: the GPU's stream and its overlap track above the host's thread
    names = {(e["pid"], e.get("tid"), e["name"]): e["args"] for e in tl.events if e["ph"] == "M"}
    assert names == {
        (1, None, "process_name"): {"name": "GPU (kernels, Proton scopes)"},
        (1, None, "process_sort_index"): {"sort_index": 0},
        (2, None, "process_name"): {"name": "host (ops, launches)"},
        (2, None, "process_sort_index"): {"sort_index": 1},
        (1, 3, "thread_name"): {"name": "stream 3"},
        (1, OVERLAP + 3, "thread_name"): {"name": "stream 3: kernels overlapping the one before"},
        (2, 7, "thread_name"): {"name": "thread 7"}}
    assert tl.document() == {"traceEvents": tl.events, "displayTimeUnit": "ns"}


def test_a_hand_made_step_of_a_size():
    tl = _tiny("s1")
    scopes = [e for e in tl.events if e.get("cat") == "scope"]
    # the size's slice above the step's, both over the whole step
    assert [(e["name"], e["args"]["proton scope"], e["ts"], e["dur"]) for e in scopes] == [
        ("s1", "s1", 10.0, 20.0), ("step_0", "s1/step_0", 10.0, 20.0), ("blk_0", "s1/step_0/blk_0", 10.0, 20.0)]


def test_a_trace_without_kernels():
    tl = build({"traceEvents": [_x("cpu_op", "aten::mm", 1.0, 1.0, 7)]}, pd.DataFrame({"name": []}),
               pd.DataFrame({"name": [], "path": [], "calls": [], "time_ns": []}), "step_0")
    assert (tl.events, tl.warnings) == ([], ["the torch.profiler trace holds no kernel events"])


def test_kernel_args_per_launch_and_missing_values():
    row = pd.Series({"name": "k", "calls": 0, "flops": 0.0, "bytes": float("nan"), "tflops": float("nan")})
    # no calls counts as one; no flops stays 0, a missing byte count None
    assert kernel_args(row) == {"kernel": "k", FLOPS: 0.0, BYTES: None, "TFLOP/s": None}
    import numpy as np
    row = pd.Series({"name": "k", "calls": np.int64(4), "flops": np.float64(10.0), "bytes": np.float64(8.0),
                     "calls_per_step": np.int64(2)})
    got = kernel_args(row)
    assert got == {"kernel": "k", FLOPS: 2.5, BYTES: 2.0, "launches per step": 2}
    assert type(got["launches per step"]) is int and type(got[FLOPS]) is float


def test_a_hand_made_step_that_disagrees_with_proton():
    trace = {"traceEvents": [_x("gpu_user_annotation", "## Call A ##", 10.0, 5.0, 1),
                             _x("kernel", "k1", 11.0, 6.0, 1)]}           # ends 2 us after its region
    kernels = pd.DataFrame([{"name": "k1", "calls": 1, "flops": 0.0, "bytes": 0.0}])
    launches = pd.DataFrame({"name": ["k1", "k2", "k1"], "calls": [2, 1, 5], "time_ns": [1, 1, 1],
                             "path": ["step_0/blk_10", "step_0/blk_2/inner", "step_1/blk_10"]})
    tl = build(trace, kernels, launches, "step_0")
    assert tl.blocks_placed == 0 and tl.kernels == 1
    assert tl.warnings == [
        "kernel k1 ends 2000 ns after its compiled region",
        "2 Proton block scope(s) of step_0 not placed in time (no compiled region of the trace holds the same "
        "kernels): blk_2, blk_10",
        "1 compiled region(s) match no Proton block scope; shown under their torch.profiler name",
        "the torch.profiler step ran 1 kernel launches, Proton's step_0 3 (0 only in the trace, 2 only in Proton)"]
    step, block, kernel = [e for e in tl.events if e["ph"] == "X"]
    assert step["args"]["source"] == ("time: torch.profiler step (library_ops stage); name: Proton scope step_0 "
                                      "(hatchet: no timestamps)")
    assert (block["name"], block["args"]["proton scope"], block["args"]["proton kernel time (us)"]) == \
        ("Call A", None, None)
    assert block["args"]["source"] == ("time: torch.profiler step (library_ops stage) (its GPU range of the "
                                       "compiled region call); name: torch.profiler (no Proton scope holds the "
                                       "same kernels)")
    assert (block["args"]["kernel launches"], block["args"]["kernel time (us)"]) == (1, 6.0)
    # a kernel of an unnamed block is in the step's scope under the region's name; the report's numbers said
    assert kernel["args"]["scope"] == "step_0/Call A" and kernel["cat"] == "kernel"
    assert kernel["args"]["source"] == ("time, grid, block: torch.profiler step (library_ops stage); numbers: "
                                        "report kernel table (Proton, mean over the run's timed steps)")


def test_scope_kernels_adds_the_rows_of_a_scope_and_of_the_scopes_below_it():
    launches = pd.DataFrame({"name": ["k", "k", "j", "k"], "calls": [1, 2, 4, 8],
                             "path": ["step_0/b", "step_0/b/inner", "step_0", "step_01/b"]})
    from inductor_prof.analysis.timeline import scope_kernels

    assert scope_kernels(launches, "step_0") == {"step_0": Counter({"k": 3, "j": 4}), "step_0/b": Counter({"k": 3})}


def test_steps_of_hand_made():
    launches = pd.DataFrame({"path": ["step_0/a", "step_10/b", "step_2", "s1/step_3/x", "s2/step_9", "s1", "other"]})
    assert steps_of(launches) == ["step_0", "step_2", "step_10"]
    assert steps_of(launches, "s1") == ["step_3"]
