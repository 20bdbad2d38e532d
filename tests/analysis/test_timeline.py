"""The step's timeline (analysis/timeline.py) on the recorded example runs: every kernel launch of the traced step
once, at its real start time in microseconds; slices nested in their Proton scopes; each kernel slice carrying
the report's own numbers for its kernel; hand-read values from the raw torch.profiler trace pinned."""
from collections import Counter

import pytest

from recorded import REPO
from inductor_prof import load_report, runfiles
from inductor_prof.analysis.timeline import (BYTES, FLOPS, GAP, GPU_PID, OVERLAP, OVERLAPS, REPORT_ARGS, build,
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
    # 542,791,108 ns: 730.66 TFLOP/s, 96.52% of the run's bf16 roof 757.03 ("reached": the 256x128 coopA nvjet,
    # 176,281,563,955,200 flop in 232,859,747 ns, above the measured ceiling 726.0)
    assert k["args"][FLOPS] == pytest.approx(208_735_410_585.6, rel=1e-12)
    assert k["args"][BYTES] == pytest.approx(141_567_590.4, rel=1e-12)
    assert k["args"]["TFLOP/s"] == pytest.approx(396_597_280_112_640 / 542_791_108 / 1e3, rel=1e-12)
    assert k["args"]["TFLOP/s"] == pytest.approx(730.6628, rel=1e-6)
    assert k["args"]["% of ceiling"] == pytest.approx(
        100 * (396_597_280_112_640 / 542_791_108) / (176_281_563_955_200 / 232_859_747), rel=1e-12)
    assert k["args"]["% of ceiling"] == pytest.approx(96.5172, rel=1e-5)
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
