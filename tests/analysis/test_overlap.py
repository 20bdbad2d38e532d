"""Communication hidden under compute (analysis/overlap.py): intervals worked by hand, and the real NCCL trace."""
import gzip
import json

import pandas as pd
import pytest

from inductor_prof.analysis import collectives, overlap
from recorded import data_path


def test_merged_joins_overlapping_and_touching_intervals():
    assert overlap.merged([(5, 7), (0, 2), (1, 3), (3, 4), (8, 8)]) == [(0, 4), (5, 7)]
    assert overlap.length([(0, 2), (1, 3), (10, 11)]) == 4   # [0,3] and [10,11]


def test_overlap_of_two_unions():
    # a = [0,10] u [20,30]; b = [5,25]: both cover [5,10] and [20,25]: 10
    assert overlap.overlap([(0, 10), (20, 30)], [(5, 25)]) == 10
    assert overlap.overlap([(0, 1)], [(1, 2)]) == 0
    assert overlap.overlap([], [(0, 5)]) == 0


def _kernels(rows):
    return pd.DataFrame(rows, columns=["start_us", "end_us", "comm"])


def test_comm_compute_by_hand():
    # compute on two streams: [0,400] and [300,600] -> 600 us; NCCL [500,900] and [1000,1100] -> 500 us;
    # compute runs beside NCCL over [500,600]: 100 us hidden (20%), 400 exposed
    k = _kernels([(0, 400, False), (300, 600, False), (500, 900, True), (1000, 1100, True)])
    got = overlap.comm_compute(k)
    assert got == {"compute_ms": 0.6, "comm_ms": 0.5, "hidden_ms": 0.1, "exposed_ms": pytest.approx(0.4),
                   "hidden_pct": pytest.approx(20.0)}


def test_no_communication_has_no_hidden_share():
    got = overlap.comm_compute(_kernels([(0, 10, False)]))
    assert got["comm_ms"] == 0 and got["hidden_pct"] is None
    assert overlap.comm_compute(_kernels([]))["compute_ms"] == 0


def test_real_trace_comm_time_is_its_nccl_kernels():
    with gzip.open(data_path("nccl_trace/rank0.json.gz"), "rt") as f:
        events = json.load(f)["traceEvents"]
    iv = collectives.kernel_intervals(events)
    got = overlap.comm_compute(iv)
    # the 21 NCCL kernels run one after another on stream 40: their union is their summed durations
    nccl = collectives.comm_calls(events)
    assert got["comm_ms"] == pytest.approx(nccl["dur_us"].sum() / 1000)
    assert got["hidden_ms"] + got["exposed_ms"] == pytest.approx(got["comm_ms"])
    assert 0 < got["hidden_pct"] < 100
