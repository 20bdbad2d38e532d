"""The ncu stage's replay of a library call from its torch.profiler record (drivers/ncu/replay.recorded_args):
convolutions, scaled, int8 and grouped GEMMs called with their recorded scalars, on the CPU at small sizes (the
records' argument lists as the H200 runs under examples/runs recorded them, shapes made small)."""
import pytest
import torch

from inductor_prof.cost import aten_op
from inductor_prof.drivers.ncu.replay import recorded_args


def _replay(spec):
    fn, args = recorded_args(spec, device="cpu")
    return fn(*args), args


def test_a_convolution_with_its_stride_padding_and_groups():
    # aten::convolution(input, weight, bias, stride, padding, dilation, transposed, output_padding, groups)
    spec = {"op": "aten::convolution", "dims": [[2, 8, 10, 10], [16, 4, 3, 3], [], [], [], [], [], [], []],
            "types": ["float", "float", "", "ScalarList", "ScalarList", "ScalarList", "Scalar", "ScalarList", "Scalar"],
            "scalars": ["", "", "", "[2, 2]", "[1, 1]", "[1, 1]", "False", "[0, 0]", "2"]}
    out, args = _replay(spec)
    # stride 2, padding 1 on 10: (10 + 2 - 2 - 1) // 2 + 1 = 5; 16 output channels; 2 groups of 4 inputs each
    assert out.shape == (2, 16, 5, 5) and args[2] is None and args[8] == 2 and args[6] is False
    # the replay is the call the cost model priced: its flops from the same record
    assert aten_op(spec["op"], spec["dims"], spec["types"], spec["scalars"])["flops"] == 2 * (2 * 16 * 25) * 4 * 9


def test_a_scaled_fp8_gemm_with_its_out_dtype():
    # fp8_mlp's record, made small: A (16 x 32) e4m3, B column-major (32 x 48), 0-d fp32 scales, out_dtype 15
    spec = {"op": "aten::_scaled_mm", "dims": [[16, 32], [32, 48], [], [], [], [], [], [], [16, 48]],
            "strides": [[32, 1], [1, 32], [], [], [], [], [], [], [48, 1]],
            "types": ["c10::Float8_e4m3fn", "c10::Float8_e4m3fn", "float", "float", "", "", "Scalar", "Scalar",
                      "c10::BFloat16"],
            "scalars": ["", "", "", "", "", "", "15", "False", ""]}
    out, args = _replay(spec)
    assert out.shape == (16, 48) and out.dtype == torch.bfloat16       # code 15: bfloat16; the out= left out
    assert args[1].stride() == (1, 32) and float(args[2]) == 1.0 and args[6] == torch.bfloat16
    assert len(args) == 8


def test_a_grouped_gemm_gets_offsets_that_split_its_rows():
    spec = {"op": "aten::_grouped_mm", "dims": [[64, 32], [4, 32, 16], [4], [], []],
            "strides": [[32, 1], [512, 1, 32], [1], [], []],
            "types": ["float", "float", "int", "", ""], "scalars": ["", "", "", "", ""]}
    pytest.importorskip("torch").ops.aten._grouped_mm   # an older torch has no grouped GEMM
    fn, args = recorded_args(spec, device="cpu")
    # 64 rows over 4 groups: offsets 16, 32, 48, 64 (fresh zeros would give three empty groups)
    assert args[2].tolist() == [16, 32, 48, 64] and args[2].dtype == torch.int32
    args = [a.to(torch.bfloat16) if isinstance(a, torch.Tensor) and a.is_floating_point() else a for a in args]
    assert fn(*args).shape == (64, 16)


def test_an_int8_gemm():
    spec = {"op": "aten::_int_mm", "dims": [[32, 64], [64, 16], [32, 16]],
            "types": ["signed char", "signed char", "int"], "scalars": ["", "", ""]}
    out, args = _replay(spec)
    assert out.dtype == torch.int32 and out.shape == (32, 16) and len(args) == 2


def test_a_replay_spec_is_one_typed_call_whoever_writes_it():
    # pipeline/ncu.py, pipeline/ceilings.py and doctor write these objects, replay.py reads them: one shape each
    from inductor_prof.errors import UserError
    from inductor_prof.specs import AtenCall, InductorCall, replay_call
    call = AtenCall("aten::mm", [[4, 8], [8, 16]], [[8, 1], [16, 1]], ["float", "float"], ["", ""])
    written = call.as_json(shape="[4,8]x[8,16]", model_us=1.5)
    assert written["type"] == "aten" and written["model_us"] == 1.5   # the writer's own keys kept beside
    assert replay_call(written) == call
    kernel = InductorCall("triton_poi_fused_add_0", "/runs/x/kernels/k.py", {"XBLOCK": 128})
    assert replay_call(kernel.as_json()) == kernel
    with pytest.raises(UserError, match="unknown type 'mystery'"):
        replay_call({"type": "mystery"})
    # the replay builds the same call from the typed spec as from its JSON
    fn_a, args_a = recorded_args(call, device="cpu")
    fn_b, args_b = recorded_args(written, device="cpu")
    assert fn_a is fn_b and [a.shape for a in args_a] == [b.shape for b in args_b] == [(4, 8), (8, 16)]
