"""The one table of ATen facts, checked against torch's own op schemas (an independent source)."""
import pytest
import torch

from inductor_prof.aten import (ATTENTION_OPS, CONV_OPS, GEMM_OPS, GEMM_OUT_DTYPE, PROFILER_DTYPES, SCALAR_TYPES,
                              attention_flags, flops_key_for_dtype)


@pytest.mark.parametrize("op", sorted(ATTENTION_OPS))
def test_attention_argument_positions_match_the_schema(op):
    names = [a.name for a in getattr(torch.ops.aten, op.split("::")[1]).default._schema.arguments]
    spec = ATTENTION_OPS[op]
    assert names[spec.causal] == ("custom_mask_type" if op == "aten::_efficient_attention_forward" else "is_causal")
    assert names[spec.scale] == "scale"
    if spec.mask is None:
        assert not {"attn_bias", "bias", "attn_mask"} & set(names)
    else:
        assert names[spec.mask] in ("attn_bias", "bias", "attn_mask")


@pytest.mark.parametrize("op", sorted(GEMM_OPS))
def test_gemm_input_counts_match_the_schema(op):
    schema = getattr(torch.ops.aten, op.split("::")[1]).default._schema
    leading = 0   # positional arguments of type Tensor or Optional[Tensor] before the first other one
    for a in schema.arguments:
        if a.kwarg_only or "Tensor" not in str(a.type):
            break
        leading += 1
    assert leading == GEMM_OPS[op]


def test_profiler_dtype_sizes_match_torch():
    for name, (dtype, size) in PROFILER_DTYPES.items():
        assert getattr(torch, dtype).itemsize == size, name


def test_attention_flags_from_recorded_scalars():
    # FLUX's cuDNN call as torch.profiler recorded it: is_causal at 10 False, scale at 12 absent
    scalars = ["", "", "", "", "", "", "4608", "4608", "False", "0.", "False", "False", ""]
    assert attention_flags("aten::_cudnn_attention_forward", scalars) == {"is_causal": False, "scale": None}
    scalars[10], scalars[12] = "True", "0.125"
    assert attention_flags("aten::_cudnn_attention_forward", scalars) == {"is_causal": True, "scale": 0.125}
    # _efficient_attention_forward passes a mask type at 9: 0 none, 1 causal from the top left
    eff = [""] * 9 + ["1"]
    assert attention_flags("aten::_efficient_attention_forward", eff)["is_causal"] is True
    eff[9] = "0"
    assert attention_flags("aten::_efficient_attention_forward", eff)["is_causal"] is False


def test_flops_key_by_width():
    assert [flops_key_for_dtype(d) for d in (torch.float8_e4m3fn, torch.bfloat16, torch.float16, torch.float32,
                                             torch.float64, "fp8")] == \
        ["flops8", "flops16", "flops16", "flops32", "flops64", "flops8"]


def _positions(op):
    """Argument names by position of an op's schema (conv_transpose{n}d has only its `input` overload)."""
    packet = getattr(torch.ops.aten, op.split("::")[1])
    overload = packet.default if "default" in packet.overloads() else getattr(packet, packet.overloads()[0])
    return [a.name for a in overload._schema.arguments]


@pytest.mark.parametrize("op", sorted(CONV_OPS))
def test_convolution_argument_positions_match_the_schema(op):
    names, spec = _positions(op), CONV_OPS[op]
    assert (names[spec.stride], names[spec.padding], names[spec.groups]) == ("stride", "padding", "groups")
    assert spec.dilation is None or names[spec.dilation] == "dilation"
    assert isinstance(spec.transposed, bool) or names[spec.transposed] == "transposed"
    assert spec.output_padding is None or names[spec.output_padding] == "output_padding"


@pytest.mark.parametrize("op", sorted(GEMM_OUT_DTYPE))
def test_gemm_out_dtype_position_matches_the_schema(op):
    assert _positions(op)[GEMM_OUT_DTYPE[op]] == "out_dtype"


def test_scalar_type_codes_match_torch():
    # torch.profiler records a ScalarType argument (an op's dtype=, out_dtype=) as its c10 code: record each
    # dtype of the table as torch's profiler writes it, the way a model's _scaled_mm(out_dtype=...) is recorded
    from torch.profiler import profile

    x = torch.ones(2)
    with profile(record_shapes=True) as p:
        for name in SCALAR_TYPES.values():
            torch.ops.aten._to_copy(x, dtype=getattr(torch, name))
    recorded = [int(e.concrete_inputs[1]) for e in p.events() if e.name == "aten::_to_copy"]
    assert recorded == list(SCALAR_TYPES)


def test_int8_and_fp8_are_8_bit_work():
    assert {flops_key_for_dtype(d) for d in ("int8", "uint8", "float8_e4m3fn", "float8_e5m2")} == {"flops8"}


def test_attention_backward_positions_match_torch_schemas():
    import torch

    from inductor_prof.aten import ATTENTION_BACKWARD_OPS, MASK_TYPE_BACKWARD_OP

    for op, spec in ATTENTION_BACKWARD_OPS.items():
        packet = getattr(torch.ops.aten, op.split("::")[1], None)
        if packet is None:   # an op this torch does not have
            continue
        names = [a.name for a in packet.default._schema.arguments]
        assert names[1:3] == ["query", "key"], op
        assert names[spec.causal] == ("custom_mask_type" if op == MASK_TYPE_BACKWARD_OP else "is_causal"), op
