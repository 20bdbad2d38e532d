"""The roofline names its largest points (by time) on the chart; the others only on hover."""
import pandas as pd
from bokeh.models import LabelSet

from inductor_prof.report import charts


def _kernels(times_ms):
    n = len(times_ms)
    return pd.DataFrame({"display": [f"kernel_{i}" for i in range(n)], "kind": ["pointwise"] * n,
                         "flops": [1e9] * n, "bytes": [1e8] * n, "tflops": [10.0 + i for i in range(n)],
                         "gbps": [500.0] * n, "intensity": [10.0] * n, "step_ms": times_ms,
                         "pct_of_peak": [1.0] * n, "bound": ["memory"] * n, "flops_key": ["flops16"] * n})


def test_the_five_largest_points_are_named():
    # times 3, 9, 1, 7, 5, 8, 2 ms: the five largest are kernel_1 (9), kernel_5 (8), kernel_3 (7), kernel_4 (5),
    # kernel_0 (3); kernel_6 (2) and kernel_2 (1) only on hover
    fig = charts.roofline_chart(_kernels([3, 9, 1, 7, 5, 8, 2]), {"tflops": {"flops16": 989.0}, "dram_gbps": 3350.0})
    labels = [r for r in fig.center if isinstance(r, LabelSet)]
    assert len(labels) == 1
    data = labels[0].source.data
    assert list(data["label"]) == ["kernel_1", "kernel_5", "kernel_3", "kernel_4", "kernel_0"]
    assert list(data["tflops"]) == [11.0, 15.0, 13.0, 14.0, 10.0]   # each at its own point (tflops 10 + index)
