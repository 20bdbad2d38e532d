"""ATen facts shared by every module: the attention and GEMM ops whose kernels come from libraries, their
argument positions, and the dtype names torch.profiler records with their sizes. One table each."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class AttentionOp:
    backend: str            # the SDPA backend that runs the same kernel (SDPA_BACKENDS)
    causal: int             # position of is_causal (of custom_mask_type for _efficient_attention_forward)
    mask: int | None        # position of the attention-mask / bias tensor, None where the op takes none
    scale: int              # position of scale
    layout: str = "bhsd"    # query/key dims as the op takes them: (B, H, S, D), or (B, S, H, D) for the kernels' own ops


# the SDPA backends by name -> torch.nn.attention.SDPBackend's member: the benchmark forces each, the ncu replay
# of an attention op the one that ran it
SDPA_BACKENDS = {"sdpa_flash": "FLASH_ATTENTION", "sdpa_efficient": "EFFICIENT_ATTENTION",
                 "sdpa_cudnn": "CUDNN_ATTENTION", "sdpa_math": "MATH"}

# positions as in each op's schema (tests check them against torch's own schemas)
ATTENTION_OPS = {
    "aten::_cudnn_attention_forward": AttentionOp("sdpa_cudnn", 10, 3, 12),
    "aten::_scaled_dot_product_cudnn_attention": AttentionOp("sdpa_cudnn", 6, 3, 8),
    "aten::_scaled_dot_product_flash_attention": AttentionOp("sdpa_flash", 4, None, 6),
    "aten::_flash_attention_forward": AttentionOp("sdpa_flash", 8, None, 10, "bshd"),
    "aten::_scaled_dot_product_efficient_attention": AttentionOp("sdpa_efficient", 6, 3, 7),
    "aten::_efficient_attention_forward": AttentionOp("sdpa_efficient", 9, 3, 11, "bshd"),
    "aten::_scaled_dot_product_flash_attention_for_cpu": AttentionOp("sdpa_math", 4, 5, 6),
}
MASK_TYPE_OP = "aten::_efficient_attention_forward"   # passes a mask type (0 none, 1/2 causal), not a bool


def as_bhsd(layout: str, four: list[int]) -> tuple[int, int, int, int]:
    """A 4-D tensor's recorded dims or strides in an op's layout ("bhsd" or "bshd") as the (B, H, S, D) view's:
    "bshd" swaps S and H."""
    a = [int(x) for x in four]
    return (a[0], a[2], a[1], a[3]) if layout == "bshd" else (a[0], a[1], a[2], a[3])


def attention_dims(layout: str, q: list[int], k: list[int]) -> tuple[int, int, int, int, int, int]:
    """(B, Hq, Sq, D, Hkv, Sk) of an attention op's recorded query and key dims in its layout ("bhsd" or "bshd")."""
    (b, h, sq, d), (_, hkv, sk, _) = as_bhsd(layout, q), as_bhsd(layout, k)
    return b, h, sq, d, hkv, sk


@dataclass(frozen=True)
class AttentionBackwardOp:
    causal: int             # position of is_causal (of custom_mask_type for _efficient_attention_backward)
    layout: str             # query/key dims as recorded: "bhsd" (B, H, S, D) or "bshd" (B, S, H, D)
    backend: str            # the SDPA backend whose forward's autograd runs it (ncu's replay of the call)


# the backward ops of SDPA (grad_out, query, key, value first in each; positions as in the ops' schemas): a
# training step's attention backward, priced by cost.attention_backward_flops
ATTENTION_BACKWARD_OPS = {
    "aten::_scaled_dot_product_cudnn_attention_backward": AttentionBackwardOp(14, "bhsd", "sdpa_cudnn"),
    "aten::_cudnn_attention_backward": AttentionBackwardOp(14, "bhsd", "sdpa_cudnn"),
    "aten::_scaled_dot_product_flash_attention_backward": AttentionBackwardOp(11, "bhsd", "sdpa_flash"),
    "aten::_flash_attention_backward": AttentionBackwardOp(11, "bshd", "sdpa_flash"),
    "aten::_scaled_dot_product_efficient_attention_backward": AttentionBackwardOp(11, "bhsd", "sdpa_efficient"),
    "aten::_efficient_attention_backward": AttentionBackwardOp(14, "bshd", "sdpa_efficient"),
}
MASK_TYPE_BACKWARD_OP = "aten::_efficient_attention_backward"

# GEMM ops -> how many leading arguments are tensor inputs (the trace lists `out=` tensors after them)
GEMM_OPS = {"aten::mm": 2, "aten::addmm": 3, "aten::bmm": 2, "aten::baddbmm": 3, "aten::linear": 3,
            "aten::matmul": 2, "aten::_scaled_mm": 6, "aten::_int_mm": 2, "aten::_grouped_mm": 4,
            "aten::_scaled_grouped_mm": 7}
# GEMMs whose two operands come first, their scales (row-wise: 2-D too) or offsets after: (a, b, ...); the others
# end in their operands (addmm, baddbmm, linear: a bias first or last, 1-D or 2-D)
GEMM_OPERANDS_FIRST = ("aten::_scaled_mm", "aten::_int_mm", "aten::_grouped_mm", "aten::_scaled_grouped_mm")
# position of the output dtype (a ScalarType code) among a GEMM's recorded scalars, where the op takes one
GEMM_OUT_DTYPE = {"aten::_scaled_mm": 6, "aten::_grouped_mm": 4, "aten::_scaled_grouped_mm": 7}
# c10::ScalarType codes (c10/core/ScalarType.h) -> torch dtype name, as torch.profiler records an out_dtype
SCALAR_TYPES = {0: "uint8", 1: "int8", 2: "int16", 3: "int32", 4: "int64", 5: "float16", 6: "float32", 7: "float64",
                11: "bool", 15: "bfloat16", 23: "float8_e5m2", 24: "float8_e4m3fn"}


@dataclass(frozen=True)
class ConvOp:
    """Positions of a convolution op's arguments; `transposed`: a position, or the op's fixed answer."""
    stride: int
    padding: int
    dilation: int | None
    groups: int
    transposed: int | bool
    output_padding: int | None = None


# positions as in each op's schema (aten/src/ATen/native/native_functions.yaml)
CONV_OPS = {
    "aten::convolution": ConvOp(3, 4, 5, 8, 6, 7),
    "aten::_convolution": ConvOp(3, 4, 5, 8, 6, 7),
    "aten::cudnn_convolution": ConvOp(3, 2, 4, 5, False),
    "aten::cudnn_convolution_transpose": ConvOp(4, 2, 5, 6, True, 3),
    **{f"aten::conv{n}d": ConvOp(3, 4, 5, 6, False) for n in (1, 2, 3)},
    **{f"aten::conv_transpose{n}d": ConvOp(3, 4, 7, 6, True, 5) for n in (1, 2, 3)},
}
REPLAYABLE_GEMMS = ("aten::addmm", "aten::mm", "aten::bmm", "aten::baddbmm")
GROUPED_GEMMS = ("aten::_grouped_mm", "aten::_scaled_grouped_mm")
# ops the ncu stage can replay on their own from their recorded arguments (CPU attention runs no CUDA kernel)
REPLAYABLE_OPS = REPLAYABLE_GEMMS + ("aten::_scaled_mm", "aten::_int_mm", *GROUPED_GEMMS) + tuple(
    op for op in CONV_OPS if "cudnn" in op or op.endswith("convolution")) + tuple(
    op for op, a in ATTENTION_OPS.items() if a.backend != "sdpa_math") + tuple(ATTENTION_BACKWARD_OPS)

# torch.profiler's "Input type" -> (torch dtype name, bytes per element)
PROFILER_DTYPES = {
    "float": ("float32", 4), "c10::BFloat16": ("bfloat16", 2), "c10::Half": ("float16", 2),
    "double": ("float64", 8), "c10::Float8_e4m3fn": ("float8_e4m3fn", 1), "c10::Float8_e5m2": ("float8_e5m2", 1),
    "long int": ("int64", 8), "long unsigned int": ("uint64", 8), "int": ("int32", 4), "bool": ("bool", 1), "signed char": ("int8", 1),
    "unsigned char": ("uint8", 1), "short int": ("int16", 2),
}
INDEX_DTYPES = ("long int", "int", "bool")
# dtype names of torch.profiler's collective records (record_param_comms "dtype": c10::toString(ScalarType)) ->
# bytes per element
COMMS_DTYPE_BYTES = {"Float": 4, "BFloat16": 2, "Half": 2, "Double": 8, "Long": 8, "Int": 4, "Short": 2,
                     "Char": 1, "Byte": 1, "Bool": 1, "Float8_e4m3fn": 1, "Float8_e5m2": 1,
                     "Float8_e4m3fnuz": 1, "Float8_e5m2fnuz": 1, "ComplexFloat": 8, "ComplexDouble": 16}
# torch dtype name -> bytes per element
DTYPE_BYTES = {**{name: size for name, size in PROFILER_DTYPES.values()}, "int8": 1, "uint8": 1, "int16": 2}


def flops_key_for_dtype(dtype) -> str:
    """Proton's metric key for the operand width of a computation: flops8/16/32/64 (int8 operations count as
    8-bit work: the tensor cores run int8 and fp8 at one rate)."""
    name = str(dtype).replace("torch.", "")
    if "float8" in name or name.startswith("fp8") or name in ("int8", "uint8"):   # 8-bit tensor-core operands
        return "flops8"
    if name in ("bfloat16", "float16", "bf16", "fp16", "half"):
        return "flops16"
    if name in ("float64", "fp64", "double"):
        return "flops64"
    return "flops32"


# position of compute_log_sumexp in the attention ops that take it: True when a backward follows (training), and
# the kernel then writes the logsumexp too (flash's always does)
ATTENTION_LSE = {"aten::_cudnn_attention_forward": 8, "aten::_scaled_dot_product_cudnn_attention": 4,
                 "aten::_scaled_dot_product_efficient_attention": 4, "aten::_efficient_attention_forward": 10}


def attention_keeps_lse(op: str, scalars: list) -> bool:
    """Whether the recorded attention call computed its logsumexp for a backward (compute_log_sumexp True)."""
    at = ATTENTION_LSE.get(op)
    return at is not None and at < len(scalars) and scalars[at] == "True"


def attention_backward_causal(op: str, scalars: list) -> bool:
    """Whether an SDPA backward op's recorded call was causal (its is_causal, or a causal mask type)."""
    spec = ATTENTION_BACKWARD_OPS[op]
    flag = scalars[spec.causal] if spec.causal < len(scalars) else ""
    return flag == "True" or (op == MASK_TYPE_BACKWARD_OP and flag not in ("", "0"))


def attention_flags(op: str, scalars: list) -> dict:
    """is_causal and scale as the model passed them to attention op `op` (torch.profiler records scalars as text;
    an absent scale is None: the default 1/sqrt(D))."""
    spec = ATTENTION_OPS[op]
    flag = scalars[spec.causal] if spec.causal < len(scalars) else ""
    causal = flag == "True" or (op == MASK_TYPE_OP and flag not in ("", "0"))
    try:
        scale = float(scalars[spec.scale]) if spec.scale < len(scalars) else None
    except ValueError:
        scale = None
    return {"is_causal": causal, "scale": scale}
