"""The calls ncu replays, on the recorded FLUX run: a library kernel's costliest call, not the first one seen."""
import shutil

import pytest

from inductor_prof.pipeline.ncu import targets
from inductor_prof.rundir import open_run
from recorded import REPO


def test_flux_replays_the_calls_that_take_the_time(tmp_path):
    run = tmp_path / "run"
    shutil.copytree(REPO / "examples" / "runs" / "flux-h100", run, ignore=shutil.ignore_patterns("ncu"))
    lib = [t for t in targets(open_run(run), 8, 1.0) if t.origin == "library"]
    gemm = [t for t in lib if t.name == "nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_bias_TNT"]
    # library_ops.csv: its calls were [4096,64]x[64,3072] once (first in the trace, 11 us), and three shapes of
    # 7.2-7.8 ms per step each (7.3%, 7.1% and 6.8% of the 106.2 ms traced): all three above 1%, costliest first
    assert [t.spec["shape"] for t in gemm] == ["[4096,3072]x[3072,3072]", "[4096,3072]x[3072,12288]",
                                               "[4096,12288]x[12288,3072]"]
    assert gemm[0].spec["calls"] == 76 and round(gemm[0].spec["model_us"], 1) == 102.5
    assert len({t.stem for t in lib}) == len(lib)              # one report file each
    # a share of 50%: each kernel's costliest call alone
    assert len(targets(open_run(run), 8, 50.0)) - len(targets(open_run(run), 0)) == 8


def test_a_library_rows_ncu_is_its_costliest_call_and_its_time_is_checked_against_that_call():
    import pandas as pd

    from inductor_prof.analysis.ncu_compare import merge_ncu

    df = pd.DataFrame([{"name": "nvjet_a", "origin": "library", "category": "GEMM", "calls": 100, "bytes": 100e6,
                        "flops": 1e12}])
    ncu = pd.DataFrame([
        # listed first but rank 1: the kernel's second call (K = 64), 12.4 us in ncu
        {"name": "nvjet_a", "duration_ns": 12.4e3, "dram_bytes": 1e6, "shape": "[4096,64]x[64,3072]",
         "model_us": 11.2, "model_bytes": 2e6, "rank": 1},
        # its costliest call: profiled at 204.7 us a call, replayed in 119.2 us (0.58x: flagged, beyond 25%)
        {"name": "nvjet_a", "duration_ns": 119.2e3, "dram_bytes": 60e6, "shape": "[4096,3072]x[3072,3072]",
         "model_us": 204.7, "model_bytes": 50e6, "rank": 0},
    ])
    row = merge_ncu(df, ncu).iloc[0]
    assert row["ncu_shape"] == "[4096,3072]x[3072,3072]"
    assert row["dram_ratio"] == pytest.approx(60e6 / 50e6)     # the call's own 50 MB, not 100 MB / 100 calls
    assert bool(row["ncu_time_off"])
    ncu.loc[1, "duration_ns"] = 160e3                           # 160 / 204.7 = 0.78: within 25%
    assert not bool(merge_ncu(df, ncu).iloc[0]["ncu_time_off"])
