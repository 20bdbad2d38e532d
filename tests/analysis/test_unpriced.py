"""The GPU time without a price (analysis/summary.unpriced, through kernel_table): which kernels have neither
flops nor bytes, and why, on tables written by hand."""
import pandas as pd

from inductor_prof.analysis.kernels import NO_METADATA, NOT_TRACED, OLD_LIBRARY_OPS, kernel_table
from inductor_prof.analysis.summary import summarize, unpriced
from inductor_prof.peaks import FLOP_KEYS


def _launches(rows):
    """Hatchet kernel rows: (name, time ns, calls, bytes, flops16)."""
    return pd.DataFrame([{"name": n, "calls": c, "time_ns": float(t), "bytes": float(b),
                          **{k: (float(f) if k == "flops16" else 0.0) for k in FLOP_KEYS}}
                         for n, t, c, b, f in rows])


def _ops(rows, with_reason=True):
    """library_ops.csv rows: (kernel, op, flops, bytes, unpriced)."""
    cols = ["kernel", "op", "dims", "dur_ns", "flops_key", "flops", "bytes", "dtype", "unpriced"]
    df = pd.DataFrame([{"kernel": k, "op": op, "dims": "[]", "dur_ns": 1.0, "flops_key": "flops16" if f else "",
                        "flops": f, "bytes": b, "dtype": "bfloat16", "unpriced": u} for k, op, f, b, u in rows],
                      columns=cols)
    return df if with_reason else df.drop(columns="unpriced")


STEPS = _launches([("gemm", 600, 1, 0, 0), ("conv_helper", 100, 1, 0, 0), ("weird", 200, 1, 0, 0),
                   ("triton_poi_a", 50, 1, 0, 0), ("triton_poi_b", 40, 1, 0, 0), ("untraced", 10, 1, 0, 0),
                   ("ncclDevKernel_AllReduce", 0, 1, 0, 0)])
ANNOTATED = _launches([("triton_poi_a", 50, 1, 400, 0)])      # triton_poi_b has no launch metadata
OPS = _ops([("gemm", "aten::mm", 2e9, 1e6, ""),
            ("conv_helper", "aten::cudnn_convolution", 0, 0, ""),          # priced on its op's main kernel
            ("weird", "aten::foo", 0, 0, "aten::foo: unknown dtype 'c10::complex<float>'"),
            # the collective's op as the trace records it: its buffers priced as bytes moved, which the kernel
            # table must not take (its time waits; collectives.py prices it by busbw)
            ("ncclDevKernel_AllReduce", "aten::record_param_comms", 0, 4e6, "")])


def _table(ops=OPS):
    return kernel_table(STEPS, ANNOTATED, {"triton_poi_a": {"kind": "pointwise"}, "triton_poi_b": {"kind": "pointwise"}},
                        ops, {}, n_steps=1)


def test_each_kernel_without_a_price_says_why():
    why = dict(zip(*_table()[["name", "unpriced"]].T.values))
    assert why == {"gemm": "", "conv_helper": "", "weird": "aten::foo: unknown dtype 'c10::complex<float>'",
                   "triton_poi_a": "", "triton_poi_b": NO_METADATA, "untraced": NOT_TRACED,
                   "ncclDevKernel_AllReduce": ""}   # a collective is priced by the bytes it moves, elsewhere


def test_a_collective_takes_no_bytes_from_its_op():
    t = _table().set_index("name")
    assert t.at["ncclDevKernel_AllReduce", "bytes"] == 0 and t.at["ncclDevKernel_AllReduce", "category"] == \
        "communication"


def test_the_unpriced_share_of_gpu_time():
    # GPU time 600 + 100 + 200 + 50 + 40 + 10 = 1000 ns; unpriced: weird 200 + triton_poi_b 40 + untraced 10 = 250
    u = unpriced(_table(), n_steps=2)
    assert u["pct_of_gpu_time"] == 25.0
    assert u["ms_per_step"] == 250 / 2 / 1e6          # ns per step -> ms
    assert [k["name"] for k in u["kernels"]] == ["weird", "triton_poi_b", "untraced"]   # the longest first
    assert u["kernels"][0]["pct_of_gpu_time"] == 20.0
    assert summarize(_table(), {}, {"gpu": ""}, 2)["unpriced"] == u


def test_a_run_recorded_before_reasons_says_so():
    why = dict(zip(*_table(_ops([("gemm", "aten::mm", 2e9, 1e6, ""), ("weird", "aten::foo", 0, 0, "")],
                                with_reason=False))[["name", "unpriced"]].T.values))
    assert why["weird"] == OLD_LIBRARY_OPS and why["gemm"] == ""


def test_nothing_unpriced():
    u = unpriced(_table(_ops([])).query("name == 'triton_poi_a'"), n_steps=1)
    assert u == {"pct_of_gpu_time": 0.0, "ms_per_step": 0.0, "kernels": []}
