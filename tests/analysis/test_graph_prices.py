"""The Inductor kernels of CUDA graph replays priced from the launches recorded before the replays
(inductor/launch_record.py -> proton/recorded_launches.json -> analysis/graph_prices.py).

Recorded data: examples/runs/llama-h200, the decoder profiled in default mode on an H200 (its README). A run with
reduce-overhead replays the same kernels: Proton's annotated rows then hold their calls and time but no work (no
launch hook in a replay), and the warm-up's recorded launches hold the work the same KernelMetrics gave for the same
arguments. The copy below is that run as such a graphs run records it: its Inductor rows' work zeroed, the work of
each of its kernels in one step (the default run's annotated step, the hook's own figures) written as the recorded
launches. What the report prices from it must equal what the default run priced; the GPU side of the claim is
scripts/gpu_check_graph.sh (both modes profiled on one device)."""
import json
import shutil
from pathlib import Path

import pandas as pd
import pytest

from inductor_prof.analysis import graph_prices, load_run_tables
from inductor_prof.cost import FLOP_KEYS
from inductor_prof.drivers.proton.launches import from_table, to_table
from inductor_prof.inductor import launch_record
from inductor_prof.inductor.metrics import KernelMetrics
from inductor_prof.rundir import file_record

ROOT = Path(__file__).resolve().parents[2]
LLAMA = ROOT / "examples" / "runs" / "llama-h200"
WORK = ("bytes", *FLOP_KEYS)


def _annotated(run: Path) -> pd.DataFrame:
    return from_table(json.loads((run / "proton" / "annotated_step.launches.json").read_text()))[0]


def _recorded_from(rows: pd.DataFrame, extra_first_step: dict[str, int] | None = None) -> dict:
    """The recorded launches of a graphs run of the same model: a compile step (the cudagraph warm-up, plus
    autotuning's benchmark launches of some kernels: `extra_first_step`) and a warm-up step (the recording)."""
    inductor = rows[rows["name"].str.startswith("triton_")]
    per = inductor.groupby("name")[["calls", *WORK]].sum()
    step = {n: {"launches": int(r["calls"]), "priced": int(r["calls"]), "uniform": True,
                **{k: float(r[k]) for k in WORK}} for n, r in per.iterrows()}
    first = {n: dict(k) for n, k in step.items()}
    for n, more in (extra_first_step or {}).items():   # the benchmark launches: more calls, more work
        first[n]["launches"] += more
        first[n]["priced"] += more
        first[n]["bytes"] += more * step[n]["bytes"] / step[n]["launches"]
    return {"format": launch_record.FORMAT, "steps": [
        {"index": 0, "stage": "compile", "size": None, "unnamed": 0, "kernels": first},
        {"index": 1, "stage": "warmup", "size": None, "unnamed": 0, "kernels": step}]}


def _graphs_run(tmp: Path, recorded: dict | None) -> Path:
    """examples/runs/llama-h200 as a reduce-overhead run records it (see the module's text)."""
    run = tmp / "dec-ro"
    shutil.copytree(LLAMA, run)
    table_path = run / "proton" / "annotated_step.launches.json"
    table = json.loads(table_path.read_text())
    rows, device = from_table(table)
    inductor = rows["name"].str.startswith("triton_")
    rows.loc[inductor, [*WORK, "flops"]] = 0.0     # a replay's row: calls and time, no launch hook
    new = {"run_id": table["run_id"], **to_table(rows, device, table["source_bytes"])}
    table_path.write_text(json.dumps(new, separators=(",", ":")))
    manifest = json.loads((run / "manifest.json").read_text())
    manifest["files"]["proton/annotated_step.launches.json"] = file_record(table_path)
    manifest["settings"]["compile"]["mode"] = "reduce-overhead"
    manifest["stages"]["annotated_step"]["cuda_graphs"] = "CUDA graph replays launch no kernel through Triton's " \
                                                          "launcher"
    if recorded is not None:
        path = run / "proton" / "recorded_launches.json"
        path.write_text(json.dumps({"run_id": manifest["run_id"], **recorded}))
        manifest["files"]["proton/recorded_launches.json"] = file_record(path)
        manifest["stages"]["warmup"]["recorded_launches"] = {"steps": len(recorded["steps"])}
    (run / "manifest.json").write_text(json.dumps(manifest))
    return run


def _totals(t) -> tuple[float, float]:
    df = t.kernels
    return float(t.summary["tflops_per_step"]), float(df["bytes"].sum())


def test_a_graphs_run_prices_its_replays_as_the_default_run_did(tmp_path):
    ref = load_run_tables(LLAMA)
    rows = _annotated(LLAMA)
    # autotuning launched the RMS-norm kernel 3 more times in the first step: that step is not taken for it
    recorded = _recorded_from(rows, {"triton_red_fused__to_copy_add_mean_mul_pow_rsqrt_0": 3})
    got = load_run_tables(_graphs_run(tmp_path, recorded))
    # 4.2634 TFLOP/step on this run (its README's summary): the Inductor kernels' part comes back whole
    assert _totals(got) == pytest.approx(_totals(ref), rel=1e-12)
    assert _totals(ref)[0] == pytest.approx(4.2634, abs=1e-4)
    ind = got.kernels[got.kernels["origin"] == "inductor"]
    assert ind["annotated"].all() and (ind["unpriced"] == "").all()
    assert not any("recorded_launches" in w or "launch no kernel" in w for w in got.warnings)


def test_without_the_record_the_replays_stay_unpriced_and_said(tmp_path):
    got = load_run_tables(_graphs_run(tmp_path, None))
    ind = got.kernels[got.kernels["origin"] == "inductor"]
    assert not ind["annotated"].any()
    ref = load_run_tables(LLAMA)
    # the Inductor kernels' flops are missing: 4.2634 TFLOP/step less theirs
    lost = float(ref.kernels.loc[ref.kernels["origin"] == "inductor", "flops"].sum()) / 5 / 1e12
    assert got.summary["tflops_per_step"] == pytest.approx(ref.summary["tflops_per_step"] - lost, rel=1e-9)
    assert any("launch no kernel through Triton's launcher" in w for w in got.warnings)


def test_a_kernel_whose_launch_count_matches_no_recorded_step_stays_unpriced(tmp_path):
    rows = _annotated(LLAMA)
    name = "triton_poi_fused__unsafe_view_add_5"
    recorded = _recorded_from(rows)
    for step in recorded["steps"]:   # 8 launches a step recorded, 40 replayed over 5 steps... one fewer recorded
        step["kernels"][name]["launches"] -= 1
        step["kernels"][name]["priced"] -= 1
    got = load_run_tables(_graphs_run(tmp_path, recorded))
    row = got.kernels.set_index("name").loc[name]
    assert not row["annotated"] and row["bytes"] == 0
    assert "the replayed step launched it 8 times, the recorded steps 7" in row["unpriced"]
    assert any(f"1 Inductor kernel(s) of the CUDA graph replays left without flops or bytes ({name}" in w
               for w in got.warnings)


def test_step_work_takes_only_whole_agreeing_fully_priced_steps():
    w = {"bytes": 100.0, **{k: 0.0 for k in FLOP_KEYS}, "flops32": 50.0}
    whole = {"launches": 2, "priced": 2, **w}
    assert graph_prices.step_work("k", 2, [{"kernels": {"k": whole}}]) == w
    # a first step with autotuning's 5 benchmark launches more: passed over, the recording step taken
    more = {**whole, "launches": 7, "priced": 7, "bytes": 350.0}
    assert graph_prices.step_work("k", 2, [{"kernels": {"k": more}}, {"kernels": {"k": whole}}]) == w
    assert "launched it 2 times, the recorded steps 7" in graph_prices.step_work("k", 2, [{"kernels": {"k": more}}])
    half = {**whole, "priced": 1}
    assert "no flops or bytes" in graph_prices.step_work("k", 2, [{"kernels": {"k": half}}])
    other = {**whole, "bytes": 101.0}
    assert "disagree" in graph_prices.step_work("k", 2, [{"kernels": {"k": whole}}, {"kernels": {"k": other}}])
    assert "no step recorded" in graph_prices.step_work("k", 2, [{"kernels": {}}])


def _rows(*rows: tuple) -> pd.DataFrame:
    cols = ["name", "path", "calls", "time_ns", *WORK, "flops"]
    return pd.DataFrame([(n, p, c, 1.0, b, 0.0, 0.0, f32, 0.0, 0.0) for n, p, c, b, f32 in rows], columns=cols)


def test_rows_of_a_kernel_share_its_step_work_by_calls_less_what_proton_priced():
    # one kernel in two blocks' scopes (3 and 1 replayed calls) and once outside a graph, priced by Proton (1 call,
    # 10 bytes): the step's 5 launches moved 50 bytes, so the 4 replayed ones 40, 30 and 10 by their calls
    rows = _rows(("triton_poi_a", "s/b0", 3, 0.0, 0.0), ("triton_poi_a", "s/b1", 1, 0.0, 0.0),
                 ("triton_poi_a", "s", 1, 10.0, 0.0), ("nvjet_x", "s", 2, 0.0, 0.0))
    rec = {"steps": [{"size": None, "kernels": {"triton_poi_a": {"launches": 5, "priced": 5, "bytes": 50.0,
                                                                 **{k: 0.0 for k in FLOP_KEYS}}}}]}
    got, why = graph_prices.priced(rows, rec, [])
    assert got["bytes"].tolist() == [30.0, 10.0, 10.0, 0.0] and why == {}   # the library kernel left to its op


def test_each_size_takes_its_own_steps_and_a_kernel_unknown_at_one_size_stays_unpriced_at_all():
    rows = _rows(("triton_poi_a", "1024/annotated_step_0", 2, 0.0, 0.0),
                 ("triton_poi_a", "512/annotated_step_0", 2, 0.0, 0.0))
    k = {k: 0.0 for k in FLOP_KEYS}
    rec = {"steps": [{"size": "1024", "kernels": {"triton_poi_a": {"launches": 2, "priced": 2, "bytes": 8.0, **k}}},
                     {"size": "512", "kernels": {"triton_poi_a": {"launches": 2, "priced": 2, "bytes": 2.0, **k}}}]}
    got, why = graph_prices.priced(rows, rec, ["1024", "512"])
    assert got["bytes"].tolist() == [8.0, 2.0] and why == {}
    rec["steps"][1]["kernels"]["triton_poi_a"]["launches"] = 3
    got, why = graph_prices.priced(rows, rec, ["1024", "512"])
    assert got["bytes"].tolist() == [0.0, 0.0] and "launched it 2 times, the recorded steps 3" in why["triton_poi_a"]


def test_the_recorder_sums_each_kernels_launches_through_tritons_hook_chain():
    """Triton's launcher calls the hook chain with a LazyDict carrying the kernel's launch_metadata, as
    CompiledKernel.launch_metadata builds it (triton/compiler/compiler.py); the tensors are real (CPU)."""
    import torch
    from triton import knobs
    from triton.compiler.compiler import LazyDict

    metrics = KernelMetrics("pointwise", ops_per_element=2)
    a, b, out = torch.ones(1024), torch.ones(1024), torch.empty(1024)

    def launch(name: str, n: int) -> None:
        meta = LazyDict({"name": name, "function": 0, "stream": 0})
        meta.add(metrics, ((1, 1, 1), None, {"in_ptr0": a, "in_ptr1": b, "out_ptr0": out, "xnumel": n}))
        knobs.runtime.launch_enter_hook(meta)

    rec = launch_record.LaunchRecorder()
    with launch_record.recording(rec):
        rec.begin("warmup", None)
        launch("triton_poi_k", 1024)
        launch("triton_poi_k", 512)
        knobs.runtime.launch_enter_hook(LazyDict({"name": "user_kernel", "function": 0, "stream": 0}))
    launch("triton_poi_k", 1024)   # after the block: the hook is out of the chain, nothing recorded
    doc = rec.document()
    k = doc["steps"][0]["kernels"]["triton_poi_k"]
    # bytes: three fp32 tensors once each, clamped to xnumel elements: 3*1024*4 + 3*512*4 = 18,432;
    # flops32: 2 ops an element: 2*1024 + 2*512 = 3,072
    assert (k["launches"], k["priced"], k["bytes"], k["flops32"], k["uniform"]) == (2, 2, 18432.0, 3072.0, False)
    assert doc["steps"][0]["kernels"]["user_kernel"] == {"launches": 1, "priced": 0, "uniform": True,
                                                         **{w: 0.0 for w in WORK}}
    assert rec not in knobs.runtime.launch_enter_hook.calls
