"""The library kernels of CUDA graph replays priced from a step of the same compiled code without graphs
(pipeline/library_ops.py -> drivers/torch_profiler/replays.py).

Recorded data: tests/data/graph_replays (its README): the decoder profiled on an H200 with --mode reduce-overhead
(`dec-cuda_graphs`) and in default mode (`dec`), in one session. The graphs run's torch.profiler step replays the
layers' GEMMs and attention from cudaGraphLaunch (no ATen op: unpriced, TFLOP/step 0.0026 against 4.26). In a run,
the step without graphs is the same compiled code on cudagraph trees' warm-up path; no such step was recorded
before this change, so the default run's step stands in for it: the same model compiled without graphs, the same
cuBLAS/cuDNN calls at the same shapes and grids inside compiled code (what the pairing reads). The GPU side is
scripts/gpu_check_graph2.sh."""
import gzip
import json
import shutil
from pathlib import Path
from types import SimpleNamespace

import pandas as pd
import pytest

from inductor_prof.analysis import load_run_tables
from inductor_prof.drivers.torch_profiler import parse_trace_launches
from inductor_prof.drivers.torch_profiler.trace import GRAPH_REPLAY
from inductor_prof.pipeline import library_ops
from inductor_prof.rundir import file_record

DATA = Path(__file__).resolve().parents[1] / "data" / "graph_replays"
GRAPHS, DEFAULT = DATA / "dec-cuda_graphs", DATA / "dec"
GEMM_256 = "nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_TNT"
GEMM_128 = "nvjet_sm90_tst_128x128_64x6_2x1_v_bz_TNT"

# The decoder's work in one step, by hand (2 x 2048 tokens, hidden 2048, 32 query / 8 kv heads of 64, MLP 8192,
# 8 layers): per layer q and o projections 2*4096*2048*2048 each, k and v 2*4096*2048*512 each, gate, up and down
# 2*4096*2048*8192 each; causal attention 4*D*Hq*B*S(S+1)/2 (QK^T and PV over the kept pairs); and the rotary
# embedding's one bmm [32,1]x[1,2048] at batch 1 (fp32): 2*32*1*2048.
GEMM_FLOPS = 8 * (2 * 2 * 4096 * 2048 * 2048 + 2 * 2 * 4096 * 2048 * 512 + 3 * 2 * 4096 * 2048 * 8192)
ATTENTION_FLOPS = 8 * 4 * 64 * 32 * 2 * 2048 * 2049 // 2
BMM_FLOPS = 2 * 32 * 2048


def _parsed(run: Path, tmp: Path):
    raw = tmp / f"{run.name}.json"
    with gzip.open(run / "torch_trace.json.gz", "rb") as src, open(raw, "wb") as dst:
        shutil.copyfileobj(src, dst)
    return parse_trace_launches(raw)


def _priced(tmp: Path, eager=None):
    table, attention, launches = _parsed(GRAPHS, tmp)
    w_table, w_attention, w_launches = eager or _parsed(DEFAULT, tmp)
    return library_ops.with_replays_priced(table, attention, launches, w_table, w_attention, w_launches), launches


def test_the_replayed_trace_says_which_kernels_a_graph_launched(tmp_path):
    table, _, launches = _parsed(GRAPHS, tmp_path)
    replayed = table[launches["graph"]]
    # per layer 5 GEMMs on the 256x128 kernel, 2 on the 128x128 one, 1 attention: 8 layers
    assert replayed["kernel"].value_counts().to_dict() == {GEMM_256: 40, GEMM_128: 16, replayed["kernel"].iloc[3]: 8}
    assert (replayed["op"] == "").all() and (replayed["unpriced"] == GRAPH_REPLAY).all()
    assert replayed["flops"].sum() == 0
    assert launches.loc[launches["graph"], "compiled"].all()
    # the eager parts (embedding, rotary) launch from their ops outside compiled code, priced as before
    assert not launches.loc[table["op"] == "aten::bmm", "compiled"].any()


def test_replayed_gemms_and_attention_get_the_ops_and_work_of_the_step_without_graphs(tmp_path):
    (table, attention, said), launches = _priced(tmp_path)
    assert said == {"graph_replayed_library_launches": 64, "priced_from_step_without_graphs": 64}
    replayed = table[launches["graph"]]
    assert (replayed["unpriced"] == "").all()
    assert set(replayed["op"]) == {"aten::mm", "aten::_cudnn_attention_forward"}
    assert replayed.loc[replayed["op"] == "aten::mm", "flops"].sum() == GEMM_FLOPS
    assert replayed.loc[replayed["op"] != "aten::mm", "flops"].sum() == ATTENTION_FLOPS
    assert table["flops"].sum() == GEMM_FLOPS + ATTENTION_FLOPS + BMM_FLOPS == 4_260_741_906_432
    # the replay's own durations stay (the step without graphs only lends op and shapes)
    graphs_table = _parsed(GRAPHS, tmp_path)[0]
    assert table["dur_ns"].tolist() == graphs_table["dur_ns"].tolist()
    # each replayed call its own shape: the up/gate projection (N=8192) and the down one (K=8192) on one kernel
    gemm = replayed[replayed["kernel"] == GEMM_256]["dims"].map(json.loads)
    assert gemm.map(lambda d: (d[0][1], d[1][1])).value_counts().to_dict() == {
        (2048, 8192): 16, (2048, 2048): 16, (8192, 2048): 8}
    # the attention calls now name their rows in this table, in step order
    rows = [c["row"] for c in attention if c["op"] == "aten::_cudnn_attention_forward"]
    assert len(rows) == 8 and rows == sorted(rows) and (table.loc[rows, "op"] == "aten::_cudnn_attention_forward").all()


def test_a_count_that_differs_leaves_that_kernel_unpriced_and_said(tmp_path):
    w_table, w_attention, w_launches = _parsed(DEFAULT, tmp_path)
    drop = w_table.index[w_table["kernel"] == GEMM_128][0]   # one k/v projection fewer without graphs
    eager = (w_table.drop(index=drop), w_attention, w_launches.drop(index=drop))
    (table, _, said), launches = _priced(tmp_path, eager)
    replayed = table[launches["graph"]]
    lost = replayed[replayed["kernel"] == GEMM_128]
    assert (lost["flops"] == 0).all() and (lost["op"] == "").all()
    assert lost["unpriced"].iloc[0] == (f"{GRAPH_REPLAY}; the replayed step ran it 16 times in compiled code, the "
                                        "step without graphs 15: which call is which is not known")
    assert said["priced_from_step_without_graphs"] == 64 - 16 and list(said["unmatched"]) == [GEMM_128]
    assert (replayed.loc[replayed["kernel"] == GEMM_256, "flops"] > 0).all()


def test_a_launch_at_another_grid_is_not_the_same_call(tmp_path):
    w_table, w_attention, w_launches = _parsed(DEFAULT, tmp_path)
    w_launches = w_launches.copy()
    first = w_launches.index[(w_table["kernel"] == GEMM_256) & w_launches["compiled"]][0]
    w_launches.at[first, "grid"] = "[1, 1, 1]"
    (table, _, said), launches = _priced(tmp_path, (w_table, w_attention, w_launches))
    lost = table[launches["graph"] & (table["kernel"] == GEMM_256)]
    assert (lost["flops"] == 0).all() and "its launch 1 of 40 ran at grid" in lost["unpriced"].iloc[0]
    assert "[1, 1, 1]" in said["unmatched"][GEMM_256]


def test_a_step_that_replayed_graphs_again_prices_nothing(tmp_path):
    replayed = _parsed(GRAPHS, tmp_path)
    (table, _, said), launches = _priced(tmp_path, replayed)
    assert table.loc[launches["graph"], "flops"].sum() == 0
    assert "replayed graphs too" in said["failed"]


def _graphs_run_priced(tmp: Path) -> Path:
    """dec-cuda_graphs with its library_ops.csv as the stage now writes it (hatchets unpacked, manifest's record of
    the file renewed)."""
    run = _unpacked(tmp, GRAPHS)
    recorded = pd.read_csv(GRAPHS / "library_ops.csv", keep_default_na=False)
    (table, _, _), _ = _priced(tmp)
    table["modules"] = recorded["modules"]    # provenance's modules: not what this test is about
    table["run_id"] = recorded["run_id"]
    path = run / "library_ops.csv"
    table.to_csv(path, index=False)
    manifest = json.loads((run / "manifest.json").read_text())
    manifest["files"]["library_ops.csv"] = file_record(path)
    (run / "manifest.json").write_text(json.dumps(manifest))
    return run


def _unpacked(tmp: Path, run: Path) -> Path:
    out = tmp / run.name
    shutil.copytree(run, out)
    for packed in (out / "proton").glob("*.hatchet.gz"):
        with gzip.open(packed, "rb") as src, open(packed.with_suffix(""), "wb") as dst:
            shutil.copyfileobj(src, dst)
    return out


def test_the_graphs_run_reports_the_default_runs_work_per_step(tmp_path):
    before = load_run_tables(_unpacked(tmp_path / "before", GRAPHS))
    ref = load_run_tables(_unpacked(tmp_path, DEFAULT))
    got = load_run_tables(_graphs_run_priced(tmp_path / "after"))
    n = 5   # timed steps in each run
    # before: the replayed GEMMs and attention unpriced (the 0.0026 TFLOP/step)
    assert before.summary["tflops_per_step"] == pytest.approx(0.0026, abs=1e-4)
    # after: the default run's 4.26 TFLOP/step (library 4,260,741,906,432 flops a step plus the Inductor kernels'
    # own, priced from the recorded launches) and its bytes, exactly: the two runs run the same calls; the graphs
    # run adds only the cudagraph trees' input copies (_foreach_copy_, unpriced: a tensor list without dtypes)
    assert got.summary["tflops_per_step"] == pytest.approx(ref.summary["tflops_per_step"], rel=1e-12)
    assert ref.summary["tflops_per_step"] == pytest.approx(4.2634, abs=1e-4)
    assert got.kernels["bytes"].sum() / n == pytest.approx(ref.kernels["bytes"].sum() / n, rel=1e-12)
    gemm = got.kernels.set_index("name").loc[GEMM_256]
    assert gemm["annotated"] and gemm["unpriced"] == "" and gemm["flops"] / n == 8 * (
        2 * 2 * 4096 * 2048 * 2048 + 3 * 2 * 4096 * 2048 * 8192)


def _stage(tmp: Path, monkeypatch, mode: str = "reduce-overhead"):
    """library_ops.run over a context of one size whose torch.profiler steps are the recorded ones: the replayed
    step's trace, and the default run's where the step runs on the warm-up path (the flag is read as it records)."""
    import torch._inductor.config as inductor_config

    from inductor_prof import rundir
    from inductor_prof.drivers import torch_profiler

    seen = []

    def record(step, trace_path):
        eager = bool(inductor_config.triton.force_cudagraphs_warmup)
        seen.append(eager)
        with gzip.open((DEFAULT if eager else GRAPHS) / "torch_trace.json.gz", "rb") as src, \
                open(trace_path, "wb") as dst:
            shutil.copyfileobj(src, dst)
    monkeypatch.setattr(torch_profiler, "record", record)
    run = rundir.create(str(tmp / "run"), False)
    ctx = SimpleNamespace(
        run=run, log=lambda *_: None, opts=SimpleNamespace(compile=SimpleNamespace(mode=mode)),
        registry=SimpleNamespace(provenance=SimpleNamespace(records=[], blocks=[])),
        target=SimpleNamespace(each_size=lambda: iter([(None, lambda: None)]), training=None))
    return library_ops.run(ctx), run, seen


def test_the_stage_takes_a_step_on_the_warm_up_path_after_the_replayed_one(tmp_path, monkeypatch):
    info, run, seen = _stage(tmp_path, monkeypatch)
    assert seen == [False, True]
    assert info["graph_replays"] == {"graph_replayed_library_launches": 64, "priced_from_step_without_graphs": 64}
    table = pd.read_csv(run.library_ops_csv, keep_default_na=False)
    assert table["flops"].sum() == GEMM_FLOPS + ATTENTION_FLOPS + BMM_FLOPS
    assert (run.root / "torch_trace.json.gz").exists() and (run.root / "torch_trace_without_graphs.json.gz").exists()
    calls = json.loads(run.attention_shapes_json.read_text())
    assert [c["op"] for c in calls] == ["aten::_cudnn_attention_forward"] * 8


def test_a_default_mode_run_takes_one_step(tmp_path, monkeypatch):
    info, run, seen = _stage(tmp_path, monkeypatch, mode="default")
    assert seen == [False] and "graph_replays" not in info


def test_diff_pairs_every_library_call_of_the_default_run_with_the_replayed_one(tmp_path):
    from inductor_prof.analysis.diff import compare
    from inductor_prof.analysis.diff_inputs import load_side

    d = compare(load_side(_unpacked(tmp_path, DEFAULT), "A"), load_side(_graphs_run_priced(tmp_path / "b"), "B"))
    k = d.kernels
    # the layers' GEMM shapes and attention, paired by op and shape as between two default runs
    paired = set(k.loc[k["matched_by"] == "op+shape", "call"])
    assert {"mm [4096,2048]x[2048,8192]", "mm [4096,8192]x[8192,2048]", "mm [4096,2048]x[2048,2048]",
            "mm [4096,2048]x[2048,512]"} <= paired
    assert any(c.startswith("_cudnn_attention_forward [2,32,2048,64]") for c in paired)
    # nothing of A is left unpaired; only the cudagraph trees' input copies are new in B
    assert (k["status"] != "removed").all()
    assert set(k.loc[k["status"] == "new", "op"]) == {"aten::_foreach_copy_"}
