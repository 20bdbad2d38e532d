"""A call that moves a few KB is bound by its launch: its speed of light is never below the shortest time a
kernel takes on this GPU (the ceilings stage's kernel_floor_us), and its advice says so (analysis/roofline.py,
analysis/advice.py), on a table written by hand."""
import pandas as pd

from inductor_prof.analysis import add_derived, advice
from inductor_prof.peaks import FLOP_KEYS

PEAKS = {"tflops": {"flops8": 2000.0, "flops16": 1000.0, "flops32": 50.0, "flops64": 25.0}, "dram_gbps": 2000.0}


def _table(floor_us):
    rows = [  # (name, total ns, calls, bytes): per step of 2
        ("tiny", 400_000, 100, 100 * 1_000),        # 100 calls of 1 kB: 4 µs a call
        ("big", 2_000_000, 2, 2 * 1e9),             # 2 calls of 1 GB: 1 ms each, 0.5 ms at 2,000 GB/s
    ]
    df = pd.DataFrame([{"name": n, "display": n, "total_ns": float(t), "calls": c, "bytes": float(b),
                        **{k: 0.0 for k in FLOP_KEYS}, "flops": 0.0, "category": "other", "origin": "library"}
                       for n, t, c, b in rows])
    derived = add_derived(df, {**PEAKS, "kernel_floor_us": floor_us}, n_steps=2)
    return advice.per_shape(derived, None).set_index("name")


def test_a_tiny_kernels_light_speed_is_its_calls_at_the_floor():
    t = _table(floor_us=1.5)
    # tiny: 100 kB at 2,000 GB/s is 0.05 µs, but 100 calls at 1.5 µs is 150 µs: speed of light 150 µs over 2
    # steps = 0.075 ms/step; its 400 µs / 2 = 0.2 ms/step leaves 0.125 ms/step of headroom
    assert round(t.at["tiny", "sol_ms_per_step"], 6) == 0.075
    assert round(t.at["tiny", "headroom_ms_per_step"], 6) == 0.125
    assert t.at["tiny", "do"] == advice.DO["floor"]
    assert t.at["tiny", "headroom_vs"] == "4.0 µs a call, the shortest kernel 1.5"
    # big: 2 GB at 2,000 GB/s = 1 ms over 2 steps = 0.5 ms/step, far above 2 calls x 1.5 µs: DRAM binds
    assert round(t.at["big", "sol_ms_per_step"], 6) == 0.5 and t.at["big", "do"] == advice.DO["memory"]


def test_without_a_measured_floor_nothing_changes():
    t = _table(floor_us=None)
    # tiny: 0.05 µs x ... 100 kB / 2,000 GB/s = 0.05 µs over 2 steps = 0.000025 ms/step
    assert round(t.at["tiny", "sol_ms_per_step"], 9) == 0.000025
    assert t.at["tiny", "do"] == advice.DO["memory"]
