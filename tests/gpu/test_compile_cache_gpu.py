"""The compile cache on the GPU: a tiny FLUX profiled twice, each in its own process with the same user cache
folder. The second run's compile is served from Inductor's caches (seeded from the first run), and its harvest
still finds every kernel the first found, with the same launch configs, annotations and provenance."""
import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

# found, not imported: importing diffusers costs every pytest-xdist worker 2-4 CPU-seconds at collection, on
# machines where tests/gpu/conftest.py skips this file anyway
if importlib.util.find_spec("diffusers") is None:
    pytest.skip("diffusers not installed (the flux extra)", allow_module_level=True)

REPO = Path(__file__).resolve().parents[2]
TINY = ["--height", "256", "--width", "256", "--text-len", "64", "--double-blocks", "1", "--single-blocks", "1",
        "--steps", "2", "--warmup", "1", "--no-ceilings", "--no-attention"]


def _profile(out: Path, cache: Path) -> dict:
    env = {**os.environ, "INDUCTOR_PROF_COMPILE_CACHE": str(cache),
           "PYTHONPATH": f"{REPO}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    done = subprocess.run([sys.executable, "-m", "inductor_prof", "profile", "flux", "--out", str(out), *TINY],
                          env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads((out / "manifest.json").read_text())


def _kernels(out: Path) -> dict:
    return {k["name"]: k for k in json.loads((out / "kernels" / "kernels.json").read_text())}


def test_second_run_reuses_the_compile_and_harvests_every_kernel(tmp_path):
    cache = tmp_path / "compile-cache"
    first = _profile(tmp_path / "cold", cache)
    assert first["stages"]["compile"]["compile_cache"].endswith(": cold")
    assert first["stages"]["compile_cache"]["stored"] is True
    second = _profile(tmp_path / "warm", cache)
    assert " seeded " in second["stages"]["compile"]["compile_cache"]
    cold, warm = _kernels(tmp_path / "cold"), _kernels(tmp_path / "warm")
    assert set(warm) == set(cold) and len(warm) >= 5
    for name, k in warm.items():
        assert k["source_sha"] == cold[name]["source_sha"]
        assert k["launch_config"].get("num_warps") == cold[name]["launch_config"].get("num_warps")
        assert (k.get("provenance") or {}).get("source") == (cold[name].get("provenance") or {}).get("source")
        assert (k.get("provenance") or {}).get("modules") == (cold[name].get("provenance") or {}).get("modules")
    print("compile s, cold / warm:", first["stages"]["compile"]["seconds"], second["stages"]["compile"]["seconds"])
