"""drivers/torch_profiler/trace.py attention_call: one SDPA call from the op's recorded arguments."""
from inductor_prof.drivers.torch_profiler.trace import attention_call
import gzip
import json
import shutil
import pytest
from recorded import data_path
from inductor_prof.aten import ATTENTION_OPS
from inductor_prof.drivers.torch_profiler import op_cost, parse_trace


def test_grouped_query_attention_keeps_the_kv_heads_of_the_key():
    # aten::_scaled_dot_product_flash_attention(query, key, value, dropout_p, is_causal, return_debug_mask,
    # scale): q (B 2, Hq 32, Sq 1024, D 128), k and v (2, 8 heads, 2048 keys, 128): GQA, 4 query heads per
    # kv head. Hkv is the key's head count, Sk its length; q's strides (Sq*D*H, D, H*D, 1) are bshd.
    q, kv = [2, 32, 1024, 128], [2, 8, 2048, 128]
    strides = [[32 * 1024 * 128, 128, 32 * 128, 1], [8 * 2048 * 128, 2048 * 128, 128, 1],
               [8 * 2048 * 128, 2048 * 128, 128, 1]]
    call = attention_call("aten::_scaled_dot_product_flash_attention", [q, kv, kv, [], [], [], []], strides,
                          ["", "", "", "0.", "True", "False", "0.125"], "bfloat16", "flash_fwd_kernel")
    assert {k: call[k] for k in ("B", "H", "Hkv", "Sq", "Sk", "D", "causal", "scale", "layout", "mask")} == {
        "B": 2, "H": 32, "Hkv": 8, "Sq": 1024, "Sk": 2048, "D": 128, "causal": True, "scale": 0.125,
        "layout": "bshd", "mask": False}


# torch.profiler trace numbers: flops/bytes of the library ATen ops (op_cost), the attention calls' arguments
# (attention_call), on small constructed shapes and on the recorded FLUX trace, every value derived by hand.

# the table's (causal, mask) positions and op list, as the tests below check them
SDPA_FLAGS = {op: (a.causal, a.mask) for op, a in ATTENTION_OPS.items()}


SDPA_OPS = tuple(ATTENTION_OPS)


BF16, F32, F64, FP8 = "c10::BFloat16", "float", "double", "c10::Float8_e4m3fn"


# ---- GEMMs: M=3, K=5, N=7 throughout, so every dimension is distinct --------------------------------------

def test_mm():
    c = op_cost("aten::mm", [[3, 5], [5, 7]], [F32, F32])
    # 2*M*N*K = 2*3*7*5 = 210; bytes: A 15 + B 35 + out 21 = 71 floats x 4 B = 284
    assert c == {"flops_key": "flops32", "flops": 210, "bytes": 284, "dtype": "float32", "unpriced": ""}


def test_addmm_bias_comes_first():
    c = op_cost("aten::addmm", [[7], [3, 5], [5, 7], [], []], [BF16, BF16, BF16, "Scalar", "Scalar"])
    # flops 2*3*7*5 = 210; bytes: bias 7 + mat1 15 + mat2 35 + out 21 = 78 x 2 B = 156 (scalars count nothing)
    assert c == {"flops_key": "flops16", "flops": 210, "bytes": 156, "dtype": "bfloat16", "unpriced": ""}


def test_addmm_full_bias():
    c = op_cost("aten::addmm", [[3, 7], [3, 5], [5, 7], [], []], [F32, F32, F32, "Scalar", "Scalar"])
    # out is M x N = 21 (a mix-up of the operands would give 3 x 5 = 15); bytes (21+15+35+21) x 4 = 368
    assert (c["flops"], c["bytes"]) == (210, 368)


def test_bmm():
    c = op_cost("aten::bmm", [[2, 3, 5], [2, 5, 7]], [F64, F64])
    # 2*B*M*N*K = 2*2*3*7*5 = 420; bytes: 30 + 70 + out 2*3*7 = 42 -> 142 doubles x 8 B = 1,136
    assert c == {"flops_key": "flops64", "flops": 420, "bytes": 1136, "dtype": "float64", "unpriced": ""}


def test_baddbmm_self_comes_first():
    c = op_cost("aten::baddbmm", [[2, 3, 7], [2, 3, 5], [2, 5, 7], [], []], [F32, F32, F32, "Scalar", "Scalar"])
    # flops 420 from batch1 [2,3,5] x batch2 [2,5,7]; bytes: self 42 + 30 + 70 + out 42 = 184 x 4 B = 736
    assert (c["flops"], c["bytes"], c["flops_key"]) == (420, 736, "flops32")


def test_linear_weight_is_out_by_in():
    c = op_cost("aten::linear", [[2, 3, 5], [7, 5], [7]], [BF16, BF16, BF16])
    # x [2,3,5]: 6 rows of in=5; weight [out=7, in=5]: flops 2*6*7*5 = 420;
    # bytes: x 30 + w 35 + bias 7 + out 6*7 = 42 -> 114 x 2 B = 228
    assert (c["flops"], c["bytes"], c["flops_key"]) == (420, 228, "flops16")
    c = op_cost("aten::linear", [[6, 5], [7, 5], []], [BF16, BF16, ""])
    # no bias: (30 + 35 + 42) x 2 B = 214
    assert (c["flops"], c["bytes"]) == (420, 214)


@pytest.mark.parametrize("dtype, key, size, name", [
    (BF16, "flops16", 2, "bfloat16"), ("c10::Half", "flops16", 2, "float16"), (F32, "flops32", 4, "float32"),
    (F64, "flops64", 8, "float64"), (FP8, "flops8", 1, "float8_e4m3fn"), ("c10::Float8_e5m2", "flops8", 1, "float8_e5m2"),
])
def test_flops_key_and_element_size_by_dtype(dtype, key, size, name):
    c = op_cost("aten::mm", [[3, 5], [5, 7]], [dtype, dtype])
    # 71 elements (15 + 35 + 21) of `size` bytes each
    assert c == {"flops_key": key, "flops": 210, "bytes": 71 * size, "dtype": name, "unpriced": ""}


def test_integer_arguments_do_not_set_the_dtype():
    # the first operand that is not an index decides: "long int" and "int" are skipped; each tensor is read at
    # its own width: A 15 x 8 B + B 35 x 2 B + out 21 x 2 B (the op's dtype) = 232
    c = op_cost("aten::mm", [[3, 5], [5, 7]], ["long int", BF16])
    assert (c["flops_key"], c["bytes"]) == ("flops16", 232)


def test_ops_without_a_flops_formula_cost_their_bytes():
    # no flops; each input read (16 + 16 floats) and an output the size of the largest (16) written: 48 x 4 B
    assert op_cost("aten::mul", [[4, 4], [4, 4]], [F32, F32]) == \
        {"flops_key": "", "flops": 0, "bytes": 192, "dtype": "float32", "unpriced": ""}
    # a malformed call (one operand) costs nothing rather than raising
    assert op_cost("aten::bmm", [[2, 3, 5]], [F32])["flops"] == 0


# ---- attention: B=2, H=3, Sq=5, Sk=7, D=8 -------------------------------------------------------------

Q, KV, MASK = [2, 3, 5, 8], [2, 3, 7, 8], [2, 3, 5, 7]


@pytest.mark.parametrize("op", SDPA_OPS)
def test_sdpa_flops_use_sq_and_sk(op):
    # the flash and efficient kernels' own ops take (B, S, H, D): the same call recorded in that order
    q, kv = ([2, 5, 3, 8], [2, 7, 3, 8]) if ATTENTION_OPS[op].layout == "bshd" else (Q, KV)
    c = op_cost(op, [q, kv, kv], [BF16, BF16, BF16])
    # 4*B*H*Sq*Sk*D = 4*2*3*5*7*8 = 6,720 (Q K^T and P V, 2 flops per MAC each)
    # bytes: q 240 + k 336 + v 336 + out (B*H*Sq*D) 240 = 1,152 x 2 B = 2,304
    assert (c["flops"], c["bytes"], c["flops_key"]) == (6720, 2304, "flops16")


def test_sdpa_mask_is_an_input():
    c = op_cost("aten::_scaled_dot_product_efficient_attention", [Q, KV, KV, MASK, [], []], [F32] * 4)
    # mask 2*3*5*7 = 210 elements read too: (240 + 336 + 336 + 210 + 240) x 4 B = 5,448
    assert (c["flops"], c["bytes"], c["flops_key"]) == (6720, 5448, "flops32")


def test_attention_call_shape():
    c = attention_call("aten::_scaled_dot_product_flash_attention", [Q, KV, KV, [], []], [], [], "bfloat16", "k")
    assert (c["B"], c["H"], c["Sq"], c["Sk"], c["D"]) == (2, 3, 5, 7, 8)
    assert (c["op"], c["dtype"], c["kernel"], c["layout"]) == ("aten::_scaled_dot_product_flash_attention",
                                                               "bfloat16", "k", "")


def _schema_indices(op):
    """(causal index, mask index) from torch's own schema of the op: the independent source of SDPA_FLAGS."""
    import torch

    args = [a.name for a in getattr(torch.ops.aten, op.split("::")[1]).default._schema.arguments]
    causal = args.index("custom_mask_type" if "custom_mask_type" in args else "is_causal")
    mask = next((args.index(n) for n in ("attn_bias", "bias", "attn_mask") if n in args), None)
    return causal, mask


_FLAG_CASES = list(SDPA_FLAGS)


@pytest.mark.parametrize("op", _FLAG_CASES)
def test_sdpa_flag_indices_match_torch_schema(op):
    assert SDPA_FLAGS[op] == _schema_indices(op)


@pytest.mark.parametrize("op", [op for op in SDPA_FLAGS if op != "aten::_efficient_attention_forward"])
def test_causal_read_at_the_schema_index(op):
    causal_i, _ = _schema_indices(op)
    n = causal_i + 4
    scalars = ["False"] * n
    scalars[causal_i] = "True"
    dims = [Q, KV, KV] + [[]] * (n - 3)
    assert attention_call(op, dims, [], scalars, "bfloat16", "k")["causal"] is True
    # True only next to the flag: not causal
    for other in (causal_i - 1, causal_i + 1):
        moved = ["False"] * n
        moved[other] = "True"
        assert attention_call(op, dims, [], moved, "bfloat16", "k")["causal"] is False


@pytest.mark.parametrize("mask_type, causal", [("0", False), ("1", True), ("2", True), ("", False)])
def test_efficient_attention_forward_integer_mask_type(mask_type, causal):
    # custom_mask_type: 0 none, 1 causal from the top left, 2 causal from the bottom right
    scalars = ["", "", "", "", "", "", "5", "7", "0.", mask_type, "False", ""]
    dims = [Q, KV, KV] + [[]] * 9
    assert attention_call("aten::_efficient_attention_forward", dims, [], scalars, "float32", "k")["causal"] \
        is causal


@pytest.mark.parametrize("op", ["aten::_cudnn_attention_forward", "aten::_scaled_dot_product_cudnn_attention",
                                "aten::_scaled_dot_product_efficient_attention",
                                "aten::_efficient_attention_forward"])
def test_mask_presence(op):
    # all four take the bias/mask as argument 3
    without = [Q, KV, KV, [], [], []]
    with_mask = [Q, KV, KV, MASK, [], []]
    assert attention_call(op, without, [], [], "bfloat16", "k")["mask"] is False
    assert attention_call(op, with_mask, [], [], "bfloat16", "k")["mask"] is True


def test_flash_attention_has_no_mask_argument():
    # argument 3 of _flash_attention_forward is cum_seq_q, a tensor that is not a mask
    dims = [Q, KV, KV, [3], [3], [], []]
    assert attention_call("aten::_flash_attention_forward", dims, [], [], "bfloat16", "k")["mask"] is False


def test_cpu_flash_attention_mask_as_recorded():
    # Input Dims / Concrete Inputs of F.scaled_dot_product_attention(q, k, v, attn_mask=m) as torch 2.13's
    # profiler records them on CPU: (query, key, value, dropout_p, is_causal, attn_mask, scale)
    dims = [Q, KV, KV, [], [], [1, 1, 5, 7], []]
    scalars = ["", "", "", "0.", "False", "", ""]
    c = attention_call("aten::_scaled_dot_product_flash_attention_for_cpu", dims, [], scalars, "float32", "k")
    assert (c["mask"], c["causal"]) == (True, False)


def test_layout_from_query_strides():
    # B=2, H=3, S=5, D=8. bshd in memory: D contiguous, then heads (stride D=8), then tokens (stride H*D=24)
    bshd = [[120, 8, 24, 1]] * 3
    # bhsd: tokens stride D=8, heads stride S*D=40
    bhsd = [[120, 40, 8, 1]] * 3
    dims = [Q, KV, KV]
    op = "aten::_scaled_dot_product_flash_attention"
    assert attention_call(op, dims, bshd, [], "bfloat16", "k")["layout"] == "bshd"
    assert attention_call(op, dims, bhsd, [], "bfloat16", "k")["layout"] == "bhsd"
    assert attention_call(op, dims, [[40, 8, 1]] * 3, [], "bfloat16", "k")["layout"] == ""   # not 4-d


# ---- the recorded FLUX trace (H100, bf16) --------------------------------------------------------------------

@pytest.fixture(scope="module")
def trace(tmp_path_factory):
    path = tmp_path_factory.mktemp("trace") / "torch_trace.json"
    with gzip.open(data_path("flux_small", "torch_trace.json.gz")) as src, open(path, "wb") as dst:
        shutil.copyfileobj(src, dst)
    ops, attention = parse_trace(path)
    events = json.loads(path.read_text())["traceEvents"]
    return ops, attention, events


def _rows(ops, op, dims):
    rows = ops[(ops["op"] == op) & (ops["dims"] == json.dumps(dims))]
    assert len(rows) > 0, (op, dims)
    return rows


def test_trace_addmm_time_embedding(trace):
    ops, _, _ = trace
    rows = _rows(ops, "aten::addmm", [[6144], [1, 3072], [3072, 6144], [], []])
    # bias 6144, mat1 1 x 3072, mat2 3072 x 6144: flops 2*1*6144*3072 = 37,748,736
    # bytes: (6,144 + 3,072 + 18,874,368 + out 6,144) x 2 B = 18,889,728 x 2 = 37,779,456
    assert set(rows["flops"]) == {37_748_736} and set(rows["bytes"]) == {37_779_456}
    assert set(rows["flops_key"]) == {"flops16"} and set(rows["dtype"]) == {"bfloat16"}


def test_trace_addmm_txt_projection(trace):
    ops, _, _ = trace
    rows = _rows(ops, "aten::addmm", [[3072], [512, 4096], [4096, 3072], [], []])
    # 512 text tokens x 4096 -> 3072: flops 2*512*3072*4096 = 12,884,901,888
    # bytes: (3,072 + 2,097,152 + 12,582,912 + out 1,572,864) x 2 B = 16,256,000 x 2 = 32,512,000
    assert set(rows["flops"]) == {12_884_901_888} and set(rows["bytes"]) == {32_512_000}


OUT_ADDMM = [[3072], [512, 3072], [3072, 3072], [], [], [512, 3072]]   # addmm.out: the 6th argument is `out`


def test_trace_addmm_out_flops(trace):
    ops, _, _ = trace
    # flops 2*512*3072*3072 = 9,663,676,416
    assert set(_rows(ops, "aten::addmm", OUT_ADDMM)["flops"]) == {9_663_676_416}


def test_trace_addmm_out_bytes_count_the_output_once(trace):
    ops, _, _ = trace
    # read bias 3,072 + mat1 1,572,864 + mat2 9,437,184, write out 1,572,864 once:
    # 12,585,984 x 2 B = 25,171,968
    assert set(_rows(ops, "aten::addmm", OUT_ADDMM)["bytes"]) == {25_171_968}


def test_trace_cudnn_attention(trace):
    ops, attention, events = trace
    # the raw events: 6 cuDNN attention calls, q/k/v [1, 24, 4608, 128] with strides [14155776, 128, 3072, 1]
    raw = [e for e in events if e.get("cat") == "cpu_op" and e["name"] == "aten::_cudnn_attention_forward"]
    assert len(raw) == 6
    args = raw[0]["args"]
    assert args["Input Dims"][:4] == [[1, 24, 4608, 128]] * 3 + [[]]            # no attn_bias
    assert args["Concrete Inputs"][10] == "False"                              # is_causal (schema index 10)
    assert args["Input Strides"][0] == [14155776, 128, 3072, 1]
    assert len(attention) == 6
    for call in attention:
        # token stride 3072 (= 24 heads x 128) > head stride 128: tokens outside heads, bshd
        assert {k: call[k] for k in ("op", "B", "H", "Sq", "Sk", "D", "dtype", "causal", "mask", "layout")} == {
            "op": "aten::_cudnn_attention_forward", "B": 1, "H": 24, "Sq": 4608, "Sk": 4608, "D": 128,
            "dtype": "bfloat16", "causal": False, "mask": False, "layout": "bshd"}
        assert call["kernel"].startswith("cudnn_generated_fort_native_sdpa")
    rows = ops[ops["op"] == "aten::_cudnn_attention_forward"]
    # 4*B*H*Sq*Sk*D = 4 * 24 * 4608^2 * 128 = 4 * 24 * 21,233,664 * 128 = 260,919,263,232
    # bytes: q, k, v, out of 24*4608*128 = 14,155,776 bf16 each: 4 x 28,311,552 = 113,246,208
    assert len(rows) == 6
    assert set(rows["flops"]) == {260_919_263_232} and set(rows["bytes"]) == {113_246_208}
    assert set(rows["flops_key"]) == {"flops16"}


# ---- pinned where a mutation audit found it unpinned (each expected value derived by hand)

# ==== torch.profiler trace: op_cost, attention_call ========================================================



def test_op_cost_private_mm_and_bare_name():
    # aten::_mm is a mm: 2*M*N*K = 2*2*4*3 = 48; bytes (6 + 12 + out 8) x 4 = 104
    want = {"flops_key": "flops32", "flops": 48, "bytes": 104, "dtype": "float32", "unpriced": ""}
    assert op_cost("aten::_mm", [[2, 3], [3, 4]], [F32, F32]) == want
    # the name after the last '::' counts (none at all: the whole name)
    assert op_cost("mm", [[2, 3], [3, 4]], [F32, F32]) == want
    assert op_cost("x::y::mm", [[2, 3], [3, 4]], [F32, F32]) == want


def test_op_cost_mm_uses_last_two_dims():
    # batched-looking [1, 2, 3] x [1, 3, 4]: M, K = 2, 3 and N = 4 from the last two dims -> 48 flops;
    # bytes (6 + 12 + out 8) x 2 B (bf16) = 52
    c = op_cost("aten::mm", [[1, 2, 3], [1, 3, 4]], [BF16, BF16])
    assert c == {"flops_key": "flops16", "flops": 48, "bytes": 52, "dtype": "bfloat16", "unpriced": ""}
    # addmm: mat1/mat2 are the 2nd and 3rd inputs; bias [4]: bytes (4 + 6 + 12 + 8) x 4 = 120
    c = op_cost("aten::addmm", [[4], [1, 2, 3], [1, 3, 4]], [F32, F32, F32])
    assert (c["flops"], c["bytes"]) == (48, 120)


def test_op_cost_linear_1d_input():
    # x [5] (one row, m = prod([]) = 1), w [3, 5]: 2*1*3*5 = 30 flops; bytes (5 + 15 + out 3) x 4 = 92
    c = op_cost("aten::linear", [[5], [3, 5]], [F32, F32])
    assert (c["flops"], c["bytes"]) == (30, 92)


def test_op_cost_three_4d_inputs_are_not_attention_unless_the_op_is():
    # add of three (1, 2, 3, 4) tensors: no flops; the bytes it moves, 3 x 24 read + 24 written, x 4 B = 384
    c = op_cost("aten::add", [[1, 2, 3, 4]] * 3, [F32] * 3)
    assert c == {"flops_key": "", "flops": 0, "bytes": 384, "dtype": "float32", "unpriced": ""}


def test_attention_call_mask_position_past_the_args():
    # efficient attention: mask position 3; with only 3 args there is no mask (and no IndexError)
    op = "aten::_scaled_dot_product_efficient_attention"
    c = attention_call(op, [[1, 2, 8, 4], [1, 2, 6, 4], [1, 2, 6, 4]], [], [], "float32", "kern")
    assert c == {"op": op, "B": 1, "H": 2, "Hkv": 2, "Sq": 8, "Sk": 6, "D": 4, "dtype": "float32", "causal": False,
                 "mask": False, "scale": None, "layout": "", "kernel": "kern"}


def test_attention_call_layout_from_q_strides():
    op = "aten::_scaled_dot_product_flash_attention"
    q, k = [1, 2, 8, 4], [1, 2, 6, 4]
    # q bshd: strides (S*H*D, D, H*D, 1) = (64, 4, 8, 1): stride of S (8) > stride of H (4) -> bshd;
    # k given as bhsd (48, 24, 4, 1): only q's strides decide
    c = attention_call(op, [q, k, k], [[64, 4, 8, 1], [48, 24, 4, 1]], [], "bfloat16", "k")
    assert c["layout"] == "bshd"
    # H = 1: bshd strides (8, 4, 4, 1) have equal S and H strides -> not "S stride > H stride" -> bhsd
    c = attention_call(op, [[1, 1, 2, 4], [1, 1, 2, 4], [1, 1, 2, 4]], [[8, 4, 4, 1]], [], "bfloat16", "k")
    assert c["layout"] == "bhsd"


# ==== torch.profiler trace: parse_trace =====================================================================

COLUMNS = ["kernel", "op", "phase", "dims", "strides", "types", "scalars", "dur_ns", "flops_key", "flops", "bytes", "dtype",
           "unpriced"]


def _write(tmp_path, events, key="traceEvents"):
    p = tmp_path / "trace.json"
    p.write_text(json.dumps({key: events} if key else {}))
    return p


def _op(name, ts, dur=None, tid=1, **args):
    e = {"cat": "cpu_op", "name": name, "ts": ts, "tid": tid, "args": args}
    if dur is not None:
        e["dur"] = dur
    return e


def _rt(ts, corr, dur=None, tid=1, cat="cuda_runtime"):
    e = {"cat": cat, "name": "cudaLaunchKernel", "ts": ts, "tid": tid, "args": {"correlation": corr}}
    if dur is not None:
        e["dur"] = dur
    return e


def _k(name, corr, dur=None):
    e = {"cat": "kernel", "name": name, "ts": 1000, "args": {"correlation": corr}}
    if name is None:
        del e["name"]
    if dur is not None:
        e["dur"] = dur
    return e


def _ops_of(df):
    return dict(zip(df["kernel"], df["op"]))


def test_parse_trace_no_events_and_columns(tmp_path):
    for key in ("traceEvents", None):
        df, att = parse_trace(_write(tmp_path, [], key))
        assert list(df.columns) == COLUMNS and len(df) == 0 and att == []


def test_parse_trace_row_fields(tmp_path):
    mm = _op("aten::mm", 10, 100, **{"Input Dims": [[2, 3], [3, 4]], "Input type": [F32, F32],
                                     "Input Strides": [[3, 1], [4, 1]], "Concrete Inputs": ["", ""]})
    ev = [mm, _rt(20, 1, dur=5), _k("gemm", 1, dur=2.5),
          _k("triton_poi_x", 1, dur=9)]                     # Inductor kernels are skipped
    df, att = parse_trace(_write(tmp_path, ev))
    assert list(df.columns) == COLUMNS and att == []
    (row,) = df.to_dict("records")
    # the op's args serialised as JSON; 2.5 us = 2500 ns; mm cost: 48 flops, (6+12+8) x 4 = 104 B
    assert row == {"kernel": "gemm", "op": "aten::mm", "phase": "", "dims": "[[2, 3], [3, 4]]", "strides": "[[3, 1], [4, 1]]",
                   "types": '["float", "float"]', "scalars": '["", ""]', "dur_ns": 2500.0,
                   "flops_key": "flops32", "flops": 48, "bytes": 104, "dtype": "float32", "unpriced": ""}


def test_parse_trace_kernel_without_launch_or_name(tmp_path):
    # no runtime event with its correlation, no name, no dur: an empty row of zero cost
    df, _ = parse_trace(_write(tmp_path, [_op("aten::mm", 0, 10), _k(None, 99)]))
    (row,) = df.to_dict("records")
    assert row == {"kernel": "", "op": "", "phase": "", "dims": "[]", "strides": "[]", "types": "[]", "scalars": "[]",
                   "dur_ns": 0, "flops_key": "", "flops": 0, "bytes": 0, "dtype": "",
                   "unpriced": "no ATen op launched it"}


def test_parse_trace_phase_of_each_launch(tmp_path):
    # a training step's ranges (record_function on the calling thread): each library launch gets the phase whose
    # host range holds its runtime call, whichever thread made it; a launch outside every range gets none
    def phase(name, ts, dur):
        return {"cat": "user_annotation", "name": f"inductor_prof.phase.{name}", "ts": ts, "dur": dur, "tid": 1}

    ev = [phase("forward", 0, 100), phase("backward", 100, 200), phase("optimizer", 300, 50),
          _op("aten::mm", 10, 20), _rt(15, 1, dur=1), _k("fwd_gemm", 1),
          _op("aten::mm", 150, 20, tid=7), _rt(155, 2, dur=1, tid=7), _k("bwd_gemm", 2),
          _op("aten::_foreach_add_", 310, 20), _rt(320, 3, dur=1), _k("adam", 3),
          _op("aten::mm", 400, 20), _rt(405, 4, dur=1), _k("after", 4)]
    df, _ = parse_trace(_write(tmp_path, ev))
    assert dict(zip(df["kernel"], df["phase"])) == {"fwd_gemm": "forward", "bwd_gemm": "backward",
                                                    "adam": "optimizer", "after": ""}


def test_parse_trace_launch_on_thread_without_ops(tmp_path):
    # the launch's thread (tid 2) recorded no cpu_op: no op, and no failure
    df, _ = parse_trace(_write(tmp_path, [_op("aten::mm", 0, 100, tid=1), _rt(5, 1, dur=1, tid=2), _k("g", 1)]))
    assert _ops_of(df) == {"g": ""}


def test_parse_trace_op_args_missing(tmp_path):
    # an op with no args: no price, and why (no dtype is guessed)
    df, _ = parse_trace(_write(tmp_path, [{"cat": "cpu_op", "name": "aten::mm", "ts": 0, "dur": 50, "tid": 1},
                                          _rt(5, 1, dur=1), _k("g", 1)]))
    (row,) = df.to_dict("records")
    assert (row["op"], row["dims"], row["dtype"], row["flops"]) == ("aten::mm", "[]", "", 0)
    assert row["unpriced"] == "aten::mm: no tensor inputs recorded"


def test_parse_trace_enclosure_boundaries(tmp_path):
    ev = [
        # launch 1 at ts 100 with no dur: "start" starts exactly then and ends exactly then (ts == rt ts,
        # end == rt end): it encloses; "outer" too, but "start" starts later, so it is innermost
        _op("outer", 0, 1000), _op("start", 100, 0), _rt(100, 1), _k("k1", 1),
        # launch 2 at ts 200 lasting 10: "ends_early" (190..205) ends before the launch ends -> not enclosing
        _op("ends_early", 190, 15), _rt(200, 2, dur=10), _k("k2", 2),
        # launch 3 at ts 300.5, no dur: "nodur" (ts 300, no dur = ends at 300) does not enclose it
        _op("nodur", 300), _rt(300.5, 3), _k("k3", 3),
        # launch 4 through the driver API, at ts 400 lasting 10: "exact" ends at 410 = launch end -> encloses
        _op("exact", 395, 15), _rt(400, 4, dur=10, cat="cuda_driver"), _k("k4", 4),
    ]
    df, _ = parse_trace(_write(tmp_path, ev))
    assert _ops_of(df) == {"k1": "start", "k2": "outer", "k3": "outer", "k4": "exact"}


def test_parse_trace_first_op_is_found(tmp_path):
    # the enclosing op is the thread's first cpu_op (index 0 of the window)
    df, _ = parse_trace(_write(tmp_path, [_op("first", 0, 100), _op("short", 1, 1), _rt(50, 1, dur=1),
                                          _k("g", 1)]))
    assert _ops_of(df) == {"g": "first"}


def test_parse_trace_looks_back_200_ops_only(tmp_path):
    # 200 short ops start between the enclosing op and the launch: the window holds the 200 ops that start
    # last before the launch, so "outer" (201st back) is out of it
    ev = [_op("outer", 0, 10_000)] + [_op(f"s{i}", 1 + i, 0.5) for i in range(200)] + [_rt(500, 1, dur=1),
                                                                                       _k("g", 1)]
    df, _ = parse_trace(_write(tmp_path, ev))
    assert _ops_of(df) == {"g": ""}
    # 199 short ops: outer is the 200th back, inside the window
    ev = [_op("outer", 0, 10_000)] + [_op(f"s{i}", 1 + i, 0.5) for i in range(199)] + [_rt(500, 1, dur=1),
                                                                                       _k("g", 1)]
    df, _ = parse_trace(_write(tmp_path, ev))
    assert _ops_of(df) == {"g": "outer"}


def test_parse_trace_split_kernels_cost_to_longest(tmp_path):
    mm = _op("aten::mm", 0, 100, **{"Input Dims": [[2, 3], [3, 4]], "Input type": [F32, F32]})
    df, _ = parse_trace(_write(tmp_path, [mm, _rt(10, 1, dur=1), _k("splitk", 1, dur=3),
                                          _rt(20, 2, dur=1), _k("reduce", 2, dur=1)]))
    rows = {r["kernel"]: r for r in df.to_dict("records")}
    # the op's cost (48 flops, 104 B) once, on the longer kernel (3 us > 1 us)
    assert (rows["splitk"]["flops"], rows["splitk"]["bytes"], rows["splitk"]["flops_key"]) == (48, 104, "flops32")
    assert (rows["reduce"]["flops"], rows["reduce"]["bytes"], rows["reduce"]["flops_key"]) == (0, 0, "")
    assert rows["reduce"]["dur_ns"] == 1000.0 and rows["splitk"]["dur_ns"] == 3000.0


def test_parse_trace_attention_call_reads_scalars_and_strides(tmp_path):
    op = "aten::_scaled_dot_product_flash_attention"   # is_causal at position 4, scale at 6
    q = [1, 2, 8, 4]
    att_op = _op(op, 0, 100, **{"Input Dims": [q, q, q, [], [], [], []], "Input type": [BF16] * 3,
                                "Input Strides": [[64, 4, 8, 1], [64, 4, 8, 1], [64, 4, 8, 1]],
                                "Concrete Inputs": ["", "", "", "0.0", "True", "False", "0.5"]})
    df, att = parse_trace(_write(tmp_path, [att_op, _rt(10, 1, dur=1), _k("fa", 1, dur=1)]))
    # is_causal True: 4*B*H*D * kept pairs (row i keeps i+1 keys: 8*9/2 = 36) = 4*1*2*4*36 = 1152 flops
    # (dense would be 4*1*2*8*8*4 = 2048); bytes (3 x 64 in + 64 out) x 2 B = 512
    assert (df["flops"][0], df["bytes"][0], df["dtype"][0]) == (1152, 512, "bfloat16")
    assert att == [{"op": op, "B": 1, "H": 2, "Hkv": 2, "Sq": 8, "Sk": 8, "D": 4, "dtype": "bfloat16",
                    "causal": True, "mask": False, "scale": 0.5, "layout": "bshd", "kernel": "fa", "row": 0}]


def test_flash_forward_call_in_its_bshd_layout():
    # FLUX's training-step record (tests/test_cost.py FLUX_FLASH_FORWARD): (B, S, H, D) = (1, 4608, 24, 128),
    # contiguous in that order
    dims = [[1, 4608, 24, 128]] * 3 + [[]] * 12
    strides = [[14155776, 3072, 128, 1]] * 3 + [[]] * 12
    scalars = ["", "", "", "", "", "4608", "4608", "0.", "False", "False", "0.088388347648318433", "", "", "", ""]
    c = attention_call("aten::_flash_attention_forward", dims, strides, scalars, "bfloat16", "k")
    assert (c["B"], c["H"], c["Hkv"], c["Sq"], c["Sk"], c["D"]) == (1, 24, 24, 4608, 4608, 128)
    assert c["layout"] == "bshd" and c["causal"] is False and c["scale"] == pytest.approx(128 ** -0.5)
