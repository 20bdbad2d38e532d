"""Annotated bytes against ncu's DRAM counters in the recorded H100 run (examples/runs/flux-h100)."""

from inductor_prof.analysis import load_run_tables
from inductor_prof.inductor.kernel_files import io_bytes
from inductor_prof.inductor.metrics import loaded_in_out
from recorded import REPO

EXAMPLE = REPO / "examples" / "runs" / "flux-h100"


def test_in_out_pointer_counted_once_when_only_stored():
    src = (EXAMPLE / "kernels" /
           "triton_red_fused_add_cat_mul_native_layer_norm_split_unsqueeze_1.14acf58c2c9a.py").read_text()
    assert loaded_in_out(src) == frozenset()          # in_out_ptr0 is stored to, never loaded
    io = io_bytes(src)
    # reads: text (512x3072) + image (4096x3072) rows + modulation (9216), bf16; write: 4608x3072 bf16
    assert io == {"read": (512 * 3072 + 4096 * 3072 + 9216) * 2, "write": 4608 * 3072 * 2}


def test_loaded_in_out_pointer_counts_as_read_too():
    src = "@triton.jit\ndef k(in_out_ptr0, xnumel):\n    x = tl.load(in_out_ptr0 + 1)\n    tl.store(in_out_ptr0 + 1, x)\n"
    assert loaded_in_out(src) == frozenset({"in_out_ptr0"})


def test_dram_reads_match_annotation_for_every_timed_inductor_kernel():
    df = load_run_tables(EXAMPLE).kernels
    d = df[df["origin"] == "inductor"]
    share = d["total_ns"] / d["total_ns"].sum()
    big = d[share >= 0.01]
    assert len(big) >= 10
    # ncu flushes caches before the replay, so every byte the formula says is read comes from DRAM
    assert ((big["dram_read_ratio"] - 1).abs() < 0.02).all(), big[["name", "dram_read_ratio"]]
    # writes: lines still dirty in the write-back L2 when the kernel ends never reach DRAM within it
    assert (big["dram_write_ratio"] <= 1.02).all()
