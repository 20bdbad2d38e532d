"""Harvested kernels give bit-identical results before and after annotation (TRITON_INTERPRET=1, CPU).

The kernels are FLUX kernels recorded on the H100; the ones chosen run in the interpreter (kernels using
libdevice.tanh/erf do not run there)."""
import os
import subprocess
import sys
from pathlib import Path

from recorded import data_path

KERNELS = ["triton_per_fused__fused_rms_norm_view_3", "triton_per_fused__fused_rms_norm_view_4",
           "triton_poi_fused_add_mul_split_unsqueeze_view_11"]


def test_original_and_annotated_kernels_match_in_interpreter():
    kernels = data_path("flux_small", "kernels")
    env = {**os.environ, "TRITON_INTERPRET": "1",
           "PYTHONPATH": os.pathsep.join([str(Path(__file__).parent.parent), os.environ.get("PYTHONPATH", "")])}
    out = subprocess.run([sys.executable, str(Path(__file__).parent / "interpret_kernels.py"), str(kernels),
                          *KERNELS], capture_output=True, text=True, env=env, timeout=600)
    assert out.returncode == 0, out.stderr[-3000:]
    assert out.stdout.split() == [w for k in KERNELS for w in (k, "OK")]
