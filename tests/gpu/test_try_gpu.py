"""`try` on the GPU: the tiny target (tests/experiments/tiny_blocks.py) moved to CUDA in bf16, through the real
worker: CUDA graphs and the GEMM templates each beside the run's configuration, outputs within bf16's tolerance,
kernels listed by torch.profiler on both sides (graph replays included), the device recorded. Not yet run on a
GPU (written after the session's device budget was spent)."""
import json
from pathlib import Path

from inductor_prof.experiments.run import TryOptions, try_advice
from inductor_prof.rundir import RunDir

ROOT = Path(__file__).resolve().parents[2]
ADVICE = [{"what": "launch overhead and idle", "category": "host", "headroom_ms_per_step": 0.5, "why": "",
           "do": "CUDA graphs, fewer launches"},
          {"what": "nvjet_sm90_tst", "category": "GEMM", "headroom_ms_per_step": 0.1, "why": "",
           "do": "a faster kernel, or less work"}]


def test_graphs_and_gemm_templates_on_the_gpu(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    run = tmp_path / "run"
    run.mkdir()
    (run / "manifest.json").write_text(json.dumps({"settings": {
        "target": "tests.experiments.tiny_blocks:tiny_cuda", "flux": {},
        "compile": {"mode": "default", "regional": True, "fullgraph": True, "blocks": [], "dynamic": False}}}))
    doc = try_advice(RunDir(run), ADVICE, TryOptions(experiments=["cuda_graphs", "gemm_templates"], rounds=3,
                                                     steps=5, timeout=280), print)
    for e in doc["experiments"]:
        assert e["status"] == "ok", (e["name"], e["reason"])
        assert e["device"].startswith("NVIDIA") and e["outputs"]["dtype"] == "bfloat16"
        assert e["kernels"]["before"] > 0 and e["kernels"]["after"] > 0


def test_the_attention_override_on_an_own_kernel(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    run = tmp_path / "run"
    run.mkdir()
    (run / "manifest.json").write_text(json.dumps({"settings": {
        "target": "tests.experiments.tiny_attention:tiny_cuda", "flux": {},
        "compile": {"mode": "default", "regional": True, "fullgraph": True, "blocks": [], "dynamic": False}}}))
    advice = [{"what": "sdpa", "category": "attention", "headroom_ms_per_step": 0.1, "why": "",
               "do": "use triton_fa2 for (2,4/2,128,64),causal"}]
    doc = try_advice(RunDir(run), advice, TryOptions(rounds=3, steps=5, timeout=280), print)
    (e,) = doc["experiments"]
    assert (e["name"], e["status"]) == ("attention_backend", "ok"), e["reason"]
    # the own kernel is new on the changed side, SDPA's kernel gone from it
    moved = e["kernels_moved"]
    assert any(m["before_us"] == 0 for m in moved) and any(m["after_us"] == 0 for m in moved)
