"""The upstream gradient's layout of each attention shape, from a training run's recorded backward calls.

FLUX_ROWS are library_ops.csv rows of FLUX.1-dev's training step (`profile flux --train`, recorded 2026-11-28 on an
H200, torch 2.11.0+cu130, triton 3.6.0; run folder flux-train-h200, lines 701-703 and 1179-1181): the three
kernels of aten::_flash_attention_backward, grad_out (argument 0, op layout (B, S, H, D)) [1,4608,24,128] with
strides [70778880, 15360, 128, 1] in 38 calls (114 rows: the single blocks, a slice of the [attn, mlp] concat's
gradient, 3072 + 12288 = 15360 columns a token) and [14155776, 3072, 128, 1] in 2 calls (6 rows: the two trained
double blocks). Only dims, strides, types, op and kernel are kept (what grad_layout reads)."""
import json

import pandas as pd

from inductor_prof.attention.semantics import grad_layout
from inductor_prof.attention.semantics.grad_layout import GradLayout
from inductor_prof.attention.semantics.shapes import Shape, from_calls
from recorded import REPO

OP = "aten::_flash_attention_backward"
TRAITS = "Flash_bwd_kernel_traits<128, 64, 128, 8, 2, 4, 2, false, false, cutlass::bfloat16_t, " \
         "Flash_kernel_traits<128, 64, 128, 8, cutlass::bfloat16_t> >"
KERNELS = [f"void pytorch_flash::flash_bwd_dot_do_o_kernel<true, {TRAITS} >(pytorch_flash::Flash_bwd_params)",
           f"void pytorch_flash::flash_bwd_dq_dk_dv_loop_seqk_parallel_kernel<{TRAITS}, false, false, false, false, "
           "true, true, false>(pytorch_flash::Flash_bwd_params)",
           f"void pytorch_flash::flash_bwd_convert_dq_kernel<{TRAITS} >(pytorch_flash::Flash_bwd_params, int)"]
DIMS = "[[1, 4608, 24, 128], [1, 4608, 24, 128], [1, 4608, 24, 128], [1, 4608, 24, 128], [1, 4608, 24, 128], " \
       "[1, 24, 4608], [], [], [], [], [], [], [2], [], [], [], []]"
TYPES = '["c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "float", "", "", ' \
        '"Scalar", "Scalar", "Scalar", "Scalar", "long unsigned int", "long unsigned int", "Scalar", "", ""]'
REST = "[14155776, 3072, 128, 1], [14155776, 3072, 128, 1], [14155776, 3072, 128, 1], [14155776, 3072, 128, 1], " \
       "[110592, 4608, 1], [], [], [], [], [], [], [1], [], [], [], []]"
SLICED = "[[70778880, 15360, 128, 1], " + REST
DENSE = "[[14155776, 3072, 128, 1], " + REST


def _rows(strides: str, calls: int) -> list[dict]:
    return [{"op": OP, "kernel": k, "dims": DIMS, "strides": strides, "types": TYPES}
            for _ in range(calls) for k in KERNELS]


FLUX_ROWS = _rows(SLICED, 38) + _rows(DENSE, 2)
FLUX = Shape(1, 24, 4608, 4608, 128, scale=0.08838834764831843)


def test_flux_training_rows_give_the_concat_slice_as_the_bhsd_view():
    assert len(FLUX_ROWS) == 120 and sum(r["strides"] == SLICED for r in FLUX_ROWS) == 114
    got = grad_layout.recorded(FLUX_ROWS, [FLUX])
    # op layout (B, S, H, D) strides [70778880, 15360, 128, 1]: as the (B, H, S, D) view B 70778880, H 128,
    # S 15360, D 1 (S and H swapped); 114 rows of 3 kernels a call = 38 calls; the other layout [14155776, 3072,
    # 128, 1] -> (14155776, 128, 3072, 1) in 6 rows = 2 calls
    assert got == {"(1,24,4608,128)": GradLayout((70778880, 128, 15360, 1), 38, (((14155776, 128, 3072, 1), 2),))}
    layout = got["(1,24,4608,128)"]
    # memory order outer first B, S, H, D; a token's row spans 24 x 128 = 3072 elements but the next one starts
    # 15360 later: "row pitch 15360"; the 2 calls' layout is dense (B, S, H, D) with no gap
    assert grad_layout.words(layout.strides, FLUX) == "(B,S,H,D), row pitch 15360"
    assert grad_layout.describe(layout, FLUX) == "(B,S,H,D), row pitch 15360 (38 of 40 calls; 2: (B,S,H,D))"


def test_the_layout_with_the_most_calls_wins_whatever_the_order():
    got = grad_layout.recorded(_rows(DENSE, 2) + _rows(SLICED, 38), [FLUX])["(1,24,4608,128)"]
    assert got.strides == (70778880, 128, 15360, 1) and got.calls == 38
    got = grad_layout.recorded(_rows(SLICED, 2) + _rows(DENSE, 3), [FLUX])["(1,24,4608,128)"]
    assert got.strides == (14155776, 128, 3072, 1) and got.calls == 3 and got.others[0][1] == 2


def test_only_the_same_shape_joins():
    # another head count, another dtype, or another length: no backward recorded for FLUX's shape
    for other in (Shape(1, 12, 4608, 4608, 128), Shape(1, 24, 4608, 4608, 128, "float16"),
                  Shape(1, 24, 4096, 4096, 128), Shape(1, 24, 4608, 4608, 128, Hkv=8)):
        assert grad_layout.recorded(FLUX_ROWS, [other]) == {}
    assert grad_layout.describe(None, FLUX) == "contiguous (no backward call recorded)"
    # kv heads repeated by the model before the call (benchmarked as GQA 24/8): its op got 24 kv heads, joined
    repeated = Shape(1, 24, 4608, 4608, 128, Hkv=8, kv_repeated=True)
    assert grad_layout.recorded(FLUX_ROWS, [repeated])[repeated.label].calls == 38


def test_check_shape_keeps_the_gap_and_the_full_shape_its_strides():
    layout = grad_layout.recorded(FLUX_ROWS, [FLUX])["(1,24,4608,128)"]
    assert grad_layout.at(layout, FLUX, FLUX) == (70778880, 128, 15360, 1)
    # checked at 1024 tokens: D 1, H 128, a row still 3072 + the MLP's 12288 = 15360, B 1024 x 15360 = 15728640
    small = Shape(1, 24, 1024, 1024, 128)
    assert grad_layout.at(layout, FLUX, small) == (15728640, 128, 15360, 1)
    assert grad_layout.at(None, FLUX, small) is None
    # a buffer for the view: last element at 23 x 128 + 1023 x 15360 + 127 = 2,944 + 15,713,280 + 127 = 15,716,351,
    # so 15,716,352 elements
    assert grad_layout.storage_size((1, 24, 1024, 128), (15728640, 128, 15360, 1)) == 15_716_352


def test_words_of_dense_and_other_layouts():
    # (2,4,64,16): dense (B, H, S, D) strides D 1, S 16, H 64 x 16 = 1024, B 4 x 1024 = 4096; dense (B, S, H, D)
    # D 1, H 16, S 4 x 16 = 64, B 64 x 64 = 4096
    s = Shape(2, 4, 64, 64, 16)
    assert grad_layout.words((4096, 1024, 16, 1), s) == "contiguous"
    assert grad_layout.words(None, s) == "contiguous"
    assert grad_layout.words((4096, 16, 64, 1), s) == "(B,S,H,D)"
    # rows 32 apart (16 dense), heads 2500 apart (64 rows x 32 = 2048 dense), batches 20000 (4 x 2500 = 10000)
    assert grad_layout.words((20000, 2500, 32, 1), s) == "row pitch 32, head pitch 2500, batch pitch 20000"
    assert grad_layout.words((8192, 2048, 32, 1), s) == "row pitch 32"
    assert grad_layout.is_contiguous("contiguous (no backward call recorded)") and grad_layout.is_contiguous("")
    assert not grad_layout.is_contiguous("(B,S,H,D), row pitch 15360")


def test_the_recorded_decoder_training_run_counts_calls_not_launches():
    # examples/runs/llama-train-h200: cuDNN's backward at (2,32/8,2048,64) causal, 4 calls, each launching
    # compute_dot_do_o, the main kernel and convert_dq once and fmha_reduction twice (8 rows): 4 calls, not 8;
    # grad_out [2,32,2048,64] strides [4194304, 64, 2048, 1] (op layout (B, H, S, D)): dense (B, S, H, D)
    run = REPO / "examples" / "runs" / "llama-train-h200"
    lib = pd.read_csv(run / "library_ops.csv", keep_default_na=False)
    shapes = [s for s, _, _ in from_calls(json.loads((run / "attention_shapes.json").read_text()))]
    got = grad_layout.recorded(lib.to_dict("records"), shapes)
    assert list(got) == ["(2,32/8,2048,64),causal"]
    layout = got["(2,32/8,2048,64),causal"]
    assert layout == GradLayout((4194304, 64, 2048, 1), 4)
    assert grad_layout.describe(layout, shapes[0]) == "(B,S,H,D)"
