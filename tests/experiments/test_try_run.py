"""`try` end to end on the CPU: a tiny module:factory target (tests/experiments/tiny_blocks.py) through the real
worker process, and the failures recorded with their reason while the others go on and the run stays as it was."""
import json
from pathlib import Path

import pytest

from inductor_prof.experiments.run import TryOptions, check, try_advice
from inductor_prof.errors import UserError
from inductor_prof.rundir import RunDir

ROOT = Path(__file__).resolve().parents[2]
ADVICE = [{"what": "launch overhead and idle", "category": "host", "headroom_ms_per_step": 0.5, "why": "",
           "do": "CUDA graphs, fewer launches"},
          {"what": "triton_poi_fused_relu_0", "category": "Inductor pointwise", "headroom_ms_per_step": 0.01,
           "why": "", "do": "fewer bytes (fuse, layout)"}]


def tiny_run(tmp_path) -> RunDir:
    run = tmp_path / "run"
    run.mkdir()
    (run / "manifest.json").write_text(json.dumps({"settings": {
        "target": "tests.experiments.tiny_blocks:tiny", "flux": {},
        "compile": {"mode": "default", "regional": True, "fullgraph": True, "blocks": [], "dynamic": False}}}))
    return RunDir(run)


def test_experiments_that_fail_are_recorded_and_the_run_is_untouched(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    run = tiny_run(tmp_path)
    before = run.manifest_path.read_bytes()
    lines = []
    doc = try_advice(run, ADVICE, TryOptions(timeout=0.5, rounds=2, steps=1, warmup=1), lines.append)
    names = [e["name"] for e in doc["experiments"]]
    assert names == ["cuda_graphs", "coordinate_descent", "max_autotune"]   # the advice's order, all tried
    for e in doc["experiments"]:
        assert e["status"] == "failed" and e["reason"].startswith("no result after 0.5 s")
        assert (run.experiment_dir(e["name"]) / "result.json").is_file()
    assert run.manifest_path.read_bytes() == before
    assert sorted(p.name for p in run.root.iterdir()) == ["experiments", "manifest.json"]
    assert json.loads(run.experiments_json.read_text())["experiments"][0]["name"] == "cuda_graphs"


@pytest.mark.long
def test_an_experiment_through_the_worker_on_the_cpu(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    run = tiny_run(tmp_path)
    doc = try_advice(run, ADVICE, TryOptions(experiments=["coordinate_descent"], rounds=2, steps=2, warmup=1,
                                             timeout=600), lambda line: None)
    (e,) = doc["experiments"]
    assert e["status"] == "ok", e["reason"]
    assert e["answers"] == ["triton_poi_fused_relu_0"] and e["predicted_ms"] == 0.01
    assert e["timing"]["before"]["n"] == 4 and e["timing"]["after"]["n"] == 4   # 2 rounds x 2 steps a side
    assert e["outputs"]["dtype"] == "float32" and e["outputs"]["ok"]
    assert e["device"] == "cpu"


@pytest.mark.parametrize("opts, said", [(TryOptions(experiments=["bogus"]), "unknown experiment 'bogus'"),
                                        (TryOptions(rounds=1), "--rounds must be at least 2")])
def test_bad_options_are_one_line(opts, said):
    with pytest.raises(UserError, match=said):
        check(opts)


@pytest.mark.long
def test_the_attention_override_on_the_cpu(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    run = tiny_run(tmp_path)
    manifest = json.loads(run.manifest_path.read_text())
    manifest["settings"]["target"] = "tests.experiments.tiny_attention:tiny"
    run.manifest_path.write_text(json.dumps(manifest))
    advice = [{"what": "sdpa_kernel", "category": "attention", "headroom_ms_per_step": 0.2, "why": "",
               "do": "use torch_blocked for (2,4/2,16,8),causal"}]
    doc = try_advice(run, advice, TryOptions(rounds=2, steps=1, warmup=1, timeout=600), lambda line: None)
    (e,) = doc["experiments"]
    assert (e["name"], e["attention"], e["status"]) == ("attention_backend", "torch_blocked", "ok"), e["reason"]
    # the same attention (causal, GQA) in float32 on another backend: within fp32's 4 * 2^-10, yet not bit-equal
    # (a graph that still called SDPA would give 0)
    assert 0 < e["outputs"]["error"] <= e["outputs"]["tolerance"]
    # the tiny model's one block calls SDPA once a step: warm-up, the output step, 2 timed rounds of 1 step and the
    # profiled steps (none on the CPU) all ran on the backend
    assert e["attention_calls"]["routed"] >= 1 + 1 + 2 and e["attention_calls"]["kept"] == {}


def test_an_asked_experiment_the_advice_gives_nothing_to_try_with_is_said(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    run = tiny_run(tmp_path)
    with pytest.raises(UserError, match="--experiment attention_backend: no advice item names a faster attention"):
        try_advice(run, ADVICE, TryOptions(experiments=["attention_backend"], timeout=0.5), lambda line: None)
    doc = try_advice(run, ADVICE, TryOptions(experiments=["attention_backend", "cuda_graphs"], timeout=0.5, rounds=2,
                                             steps=1, warmup=1), lambda line: None)
    got = {e["name"]: e for e in doc["experiments"]}
    assert got["attention_backend"]["status"] == "not run" and "no advice item" in got["attention_backend"]["reason"]
    assert got["cuda_graphs"]["status"] == "failed"   # 0.5 s: tried, and ended
