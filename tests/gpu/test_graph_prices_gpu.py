"""A CUDA-graphs run's Inductor kernels priced as in default mode: the tiny target (tests/experiments/tiny_blocks.py,
bf16 on the GPU) profiled with --mode reduce-overhead and in default mode, each in its own process; the replays'
kernels take their work from the launches recorded before the replays (proton/recorded_launches.json), so every
Inductor kernel of the graphs run is priced and the flops and bytes per step equal the default run's. Not yet run on
a GPU (written without device time; scripts/gpu_check_graph.sh checks the same on the decoder)."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
ARGS = ["--steps", "3", "--warmup", "2", "--no-ceilings", "--no-attention"]


def _profile(out: Path, *mode: str) -> None:
    env = {**os.environ, "INDUCTOR_PROF_COMPILE_CACHE": "off",
           "PYTHONPATH": f"{REPO}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    done = subprocess.run([sys.executable, "-m", "inductor_prof", "profile", "tests.experiments.tiny_blocks:tiny_cuda",
                           "--out", str(out), *mode, *ARGS], env=env, capture_output=True, text=True, timeout=600,
                          cwd=REPO)
    assert done.returncode == 0, done.stderr[-3000:]


def test_graph_replays_are_priced_as_the_default_run_prices_them(tmp_path):
    from inductor_prof.analysis import load_run_tables

    _profile(tmp_path / "graphs", "--mode", "reduce-overhead")
    _profile(tmp_path / "default")
    recorded = json.loads((tmp_path / "graphs" / "proton" / "recorded_launches.json").read_text())
    assert len(recorded["steps"]) == 3   # the compile step and the 2 warm-up steps
    g, d = load_run_tables(tmp_path / "graphs"), load_run_tables(tmp_path / "default")
    gi, di = (t.kernels[t.kernels["origin"] == "inductor"].set_index("name") for t in (g, d))
    assert len(gi) and gi["annotated"].all(), gi["unpriced"].to_dict()
    n_g, n_d = g.manifest["profile"]["steps"], d.manifest["profile"]["steps"]
    for col in ("bytes", "flops"):
        assert float(gi[col].sum()) / n_g == pytest.approx(float(di[col].sum()) / n_d, rel=1e-9), col
