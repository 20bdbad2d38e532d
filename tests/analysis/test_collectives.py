"""The NCCL kernels of a torch.profiler trace with their collectives (analysis/collectives.py), on a real 2-rank
NCCL trace (tests/data/nccl_trace: HTA's, cut down; see the README there) and on events written here."""
import gzip
import json

import pytest

from inductor_prof.analysis import collectives as c
from recorded import data_path


@pytest.fixture(scope="module")
def events():
    with gzip.open(data_path("nccl_trace/rank0.json.gz"), "rt") as f:
        return json.load(f)["traceEvents"]


@pytest.mark.parametrize("name, kind", [
    ("allreduce", "all_reduce"), ("_allgather_base", "all_gather"), ("allgather_into_tensor_coalesced", "all_gather"),
    ("_reduce_scatter_base", "reduce_scatter"), ("reduce_scatter_tensor_coalesced", "reduce_scatter"),
    ("alltoall_base", "all_to_all"), ("broadcast", "broadcast"), ("reduce", "reduce"), ("send", "send_recv"),
    ("recv", "send_recv"), ("barrier", "other"), ("wait", "other"),
    ("ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)", "all_reduce"),
    ("ncclKernel_Broadcast_RING_LL_Sum_int8_t(ncclDevComm*, unsigned long, ncclWork*)", "broadcast"),
    ("ncclDevKernel_ReduceScatter_Sum_f32_RING_LL", "reduce_scatter"), ("ncclDevKernel_SendRecv", "send_recv"),
])
def test_collective_kind(name, kind):
    assert c.collective_kind(name) == kind


def test_nccl_kernels_by_name():
    assert c.is_nccl("ncclDevKernel_AllGather_RING_LL(x)") and c.is_nccl("ncclKernel_AllReduce_RING_LL_Sum_float")
    assert not c.is_nccl("triton_poi_fused_add_0") and not c.is_nccl("my_ncclKernel")


def test_real_trace_calls_from_the_kernels_args(events):
    calls = c.comm_calls(events)
    assert len(calls) == 21 and set(calls["source"]) == {"kernel args"}
    assert calls["collective"].value_counts().to_dict() == {"all_reduce": 15, "broadcast": 6}
    first = calls.iloc[0]   # In/Out msg nelems 6637568 Float (4 bytes), group 2, 2636.669 us
    assert (first["in_elems"], first["group"], first["bytes"], first["dur_us"]) == (6637568, 2, 26550272, 2636.669)


def test_real_trace_calls_joined_through_record_param_comms_alike(events):
    # the same trace with the collective args taken off the kernels: found on the launch's record_param_comms
    bare = [dict(e, args={k: v for k, v in e["args"].items() if k in ("correlation", "stream")})
            if e["cat"] == "kernel" else e for e in events]
    joined, direct = c.comm_calls(bare), c.comm_calls(events)
    assert set(joined["source"]) == {"record_param_comms"}
    assert joined.drop(columns="source").equals(direct.drop(columns="source"))


def test_real_trace_collective_table_worked_by_hand(events):
    from inductor_prof.analysis.link_reference import judged

    table = judged(c.collective_table(c.comm_calls(events)), {"busbw_gbps": 22.08})
    row = table[(table["bytes"] == 26550272)].iloc[0]
    # 3 calls of 2636.669, 2160.803 and 2417.184 us: 7214.656 us; 3 x 26,550,272 B / 7.214656 ms = 11.0401 GB/s;
    # all_reduce among 2: busbw = algbw x 2(2-1)/2, the same; 11.0401 / 22.08 = 50.0% of the link
    assert (row["collective"], row["dtype"], row["group"], row["calls"]) == ("all_reduce", "Float", 2, 3)
    assert row["step_ms"] == pytest.approx(7.214656)
    assert row["avg_us"] == pytest.approx(7214.656 / 3)
    assert row["algbw_gbps"] == pytest.approx(11.0401, abs=1e-4) and row["busbw_gbps"] == row["algbw_gbps"]
    assert row["pct_of_link"] == pytest.approx(50.0, abs=0.01)
    tiny = table[(table["collective"] == "broadcast") & (table["dtype"] == "Long")].iloc[0]
    # 53 int64 = 424 B, 3 calls of 7.775 + 7.648 + 7.904 = 23.327 us: 1272 B / 23.327 us = 0.05453 GB/s
    assert tiny["bytes"] == 424 and tiny["busbw_gbps"] == pytest.approx(0.05453, abs=1e-5)
    assert list(table["step_ms"]) == sorted(table["step_ms"], reverse=True)


def _kernel(name, ts, dur, **args):
    return {"ph": "X", "cat": "kernel", "name": name, "ts": ts, "dur": dur, "args": args}


def test_a_kernel_with_no_record_is_named_from_its_kernel_name_without_a_size():
    calls = c.comm_calls([_kernel("ncclDevKernel_AllGather_RING_LL", 0, 10, correlation=7)])
    row = calls.iloc[0]
    assert (row["collective"], row["source"]) == ("all_gather", "kernel name") and row["bytes"] is None
    table = c.collective_table(calls)
    assert table.iloc[0]["busbw_gbps"] is None and table.iloc[0]["step_ms"] == pytest.approx(0.01)


def test_collective_table_per_step_and_reduce_scatter_among_four():
    # 2 steps, each one reduce_scatter of 4 Mi bf16 in (1 Mi out) among 4 ranks in 100 us:
    # S = 8 MiB = 8,388,608 B; algbw = 8,388,608 / 100 us = 83.886 GB/s; busbw x 3/4 = 62.915 GB/s
    args = {"Collective name": "_reduce_scatter_base", "In msg nelems": 4 << 20, "Out msg nelems": 1 << 20,
            "Group size": 4, "dtype": "BFloat16"}
    calls = c.comm_calls([_kernel("ncclDevKernel_ReduceScatter_Sum_bf16_RING_LL", t, 100, **args) for t in (0, 500)])
    row = c.collective_table(calls, n_steps=2).iloc[0]
    assert (row["collective"], row["bytes"], row["calls"]) == ("reduce_scatter", 8 * 2**20, 1.0)
    assert row["step_ms"] == pytest.approx(0.1)
    assert row["algbw_gbps"] == pytest.approx(83.886, abs=1e-3)
    assert row["busbw_gbps"] == pytest.approx(62.915, abs=1e-3)
    assert row["pct_of_link"] is None


def test_no_nccl_kernels_is_an_empty_table():
    calls = c.comm_calls([_kernel("triton_poi_fused_add_0", 0, 5)])
    assert calls.empty and c.collective_table(calls).empty


def test_kernel_intervals_mark_the_nccl_ones(events):
    iv = c.kernel_intervals(events)
    assert len(iv) == 2700 and int(iv["comm"].sum()) == 21
