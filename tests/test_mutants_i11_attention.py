"""Small constructed inputs that pin attention/semantics/masks.py, attention/semantics/join.py and attention/semantics/shapes.py (issue 11's
mutation audit: mutants that survived the fast suite). Every expected value is read off the input by hand."""
import pytest
import torch

from inductor_prof.attention.semantics import masks
from inductor_prof.attention.semantics.join import join
from inductor_prof.attention.semantics.masks import CAUSAL, NONE, MaskSpec, build, classify, pairs
from inductor_prof.attention.semantics.shapes import Shape, call_mask, parse_shape, to_dict

TAIL = ("expected B,H,S,D or B,H,Sq,Sk,D with positive integers (H may be Hq/Hkv with Hkv dividing Hq; "
        "',causal' at the end)")

# ---- masks.py: counting ----------------------------------------------------------------------------------


def test_pair_counts_are_ints():
    # flops = 4*D*Hq*pairs go into JSON/CSV: an int count must stay an int (10 pairs, not 10.0)
    assert type(masks.causal_pairs(4, 4)) is int and masks.causal_pairs(4, 4) == 10


def test_window_longer_query_than_keys():
    # window 2, Sq = 5 queries, Sk = 3 keys: row i keeps j in {i-1, i} with j < 3:
    # i=0 {0}, i=1 {0,1}, i=2 {1,2}, i=3 {2}, i=4 {} -> 1 + 2 + 2 + 1 + 0 = 6
    spec = MaskSpec("window", window=2)
    assert pairs(spec, 1, 5, 3) == 6
    assert int(build(spec, 1, 5, 3).sum()) == 6


def test_unknown_kind_is_named():
    with pytest.raises(ValueError, match=r"^unknown mask kind 'weird'$"):
        pairs(MaskSpec("weird"), 1, 2, 2)


# ---- masks.py: recognising ------------------------------------------------------------------------------


def _tril(n):
    return torch.ones(n, n, dtype=torch.bool).tril()


def test_float_mask_threshold_is_half_the_lowest():
    # masked: -inf or <= finfo.min / 2 (exactly half counts); a value between min/2 and 0 is a bias
    low = torch.finfo(torch.float32).min
    at_half = torch.zeros(4, 4).masked_fill(~_tril(4), low / 2)
    assert classify(at_half, 4, 4)[0] == CAUSAL
    above_half = torch.zeros(4, 4).masked_fill(~_tril(4), low * 0.4)    # -1.36e38 > min/2 = -1.70e38
    assert classify(above_half, 4, 4) == (MaskSpec("bias"), None)


def test_heads_alike_are_one_mask():
    # 2 heads, both causal: the mask does not differ per head -> causal, its keep kept for one head
    both = torch.stack([_tril(4), _tril(4)])[None]          # (1, 2, 4, 4)
    spec, keep = classify(both, 4, 4)
    assert spec == CAUSAL
    assert tuple(keep.shape) == (1, 1, 4, 4)


def test_heads_differing_with_one_query_row():
    # Sq = 1: head 0 keeps keys 0,1, head 1 all 4 -> per head: (2 + 4) / 2 = 3 pairs, arbitrary
    m = torch.tensor([[1, 1, 0, 0], [1, 1, 1, 1]], dtype=torch.bool)[None, :, None, :]   # (1, 2, 1, 4)
    assert classify(m, 1, 4)[0] == MaskSpec("arbitrary", pairs=3)


def test_per_head_pairs_floor_to_an_int():
    # head 0 causal 4x4 (10 kept), head 1 causal plus (0, 3) (11 kept): 21 // 2 heads = 10 per head
    h1 = _tril(4).clone()
    h1[0, 3] = True
    spec, _ = classify(torch.stack([_tril(4), h1])[None], 4, 4)
    assert spec.kind == "arbitrary" and type(spec.pairs) is int and spec.pairs == 10


def test_everything_masked_is_padding_of_zero_keys():
    # no key kept anywhere: the last row keeps no key -> padding with 0 keys, 0 pairs (not a window of 0)
    spec, keep = classify(torch.zeros(1, 1, 3, 3, dtype=torch.bool), 3, 3)
    assert spec == MaskSpec("padding", key_lengths=(0,))
    assert pairs(spec, 1, 3, 3) == 0
    assert not bool(keep.any())


def test_diagonal_is_a_window_of_one():
    # each query sees itself only: window 1 (i - 1 < j <= i), 4 pairs
    spec, _ = classify(torch.eye(4, dtype=torch.bool), 4, 4)
    assert spec == MaskSpec("window", window=1)
    assert pairs(spec, 1, 4, 4) == 4


def test_left_and_right_padding_mixed_is_arbitrary():
    # batch 0 keeps its first 3 keys, batch 1 its last 3: no single `left` -> arbitrary, 4 rows x 3 x 2 = 24
    m = torch.tensor([[[1, 1, 1, 0, 0]] * 4, [[0, 0, 1, 1, 1]] * 4], dtype=torch.bool)[:, None]
    assert classify(m, 4, 5, B=2)[0] == MaskSpec("arbitrary", pairs=24)


# ---- masks.py: rebuilding -------------------------------------------------------------------------------


def test_build_none_bias_and_arbitrary():
    assert build(NONE, 1, 2, 2) is None and build(MaskSpec("bias"), 1, 2, 2) is None
    saved = torch.tensor([[[[1, 0], [0, 1]]]], dtype=torch.bool)
    assert torch.equal(build(MaskSpec("arbitrary", pairs=2), 1, 2, 2, saved=saved), saved)
    with pytest.raises(ValueError, match=r"^an arbitrary mask is rebuilt from its saved values: none given$"):
        build(MaskSpec("arbitrary", pairs=2), 1, 2, 2)


@pytest.mark.parametrize("spec", [CAUSAL, MaskSpec("window", window=2), MaskSpec("padding", key_lengths=(2, 3)),
                                  MaskSpec("causal_padding", key_lengths=(2,), left=True)],
                         ids=["causal", "window", "padding", "causal_padding"])
def test_build_on_the_device_asked(spec):
    # the bench rebuilds the mask on the GPU: every tensor made on `device` ("meta" stands for it here)
    assert build(spec, 2, 4, 4, device="meta").device.type == "meta"


def test_build_moves_saved_values_to_the_device():
    saved = torch.ones(1, 1, 2, 2, dtype=torch.bool)
    assert build(MaskSpec("arbitrary", pairs=4), 1, 2, 2, device="meta", saved=saved).device.type == "meta"


# ---- join.py ----------------------------------------------------------------------------------------------

def _call(dtype=None, **kw):
    c = {"B": 1, "H": 2, "Sq": 4, "Sk": 4, "D": 8, "causal": False, **kw}
    if dtype is not None:
        c["dtype"] = dtype
    return c


def test_join_keys_on_dtype():
    # same shape in bf16 then fp16 in the trace; the eager capture saw fp16 (Hkv 1) first, then bf16 (Hkv 2):
    # each trace call takes the eager call of its own dtype
    trace = [_call("torch.bfloat16"), _call("torch.float16")]
    eager = [_call("torch.float16", op="sdpa", Hkv=1), _call("torch.bfloat16", op="sdpa", Hkv=2)]
    out = join(trace, eager)
    assert [(c["dtype"], c["Hkv"], c["captured"]) for c in out] == [
        ("torch.bfloat16", 2, "trace+eager"), ("torch.float16", 1, "trace+eager")]


def test_join_missing_dtype_matches_empty_dtype():
    # no dtype recorded and an empty dtype both mean "unknown": the same key
    out = join([_call("")], [_call(op="sdpa", Hkv=1)])
    assert [(c["captured"], c.get("Hkv")) for c in out] == [("trace+eager", 1)]


def test_join_goes_on_after_an_unmatched_trace_call():
    # the first trace call (D=16) has no eager partner; the second still gets its own
    trace = [_call("torch.float16", D=16), _call("torch.float16")]
    out = join(trace, [_call("torch.float16", op="sdpa", Hkv=1)])
    assert [(c["D"], c["captured"], c.get("Hkv")) for c in out] == [(16, "trace", None), (8, "trace+eager", 1)]


# ---- shapes.py --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("text, fault", [
    ("1,0,3,4", "'0' is not a positive integer; "),   # H = 0
    ("1,-2,128,64", "'-2' is not a positive integer; "),   # a number, but negative
    ("1,--2,128,64", "'--2' is not a number; "),
    ("7", ""),                            # one number
    # ("x" separates numbers like ",": another letter is the bad word)
    ("2,q/2", "'q' is not a number; "),   # the query heads of Hq/Hkv
    ("1,2,q,4", "'q' is not a number; "),  # the third word
    ("1,6/4,8,64", "6 query heads are not a multiple of 4 key-value heads; "),
    ("1,6/4,8,16,64", "6 query heads are not a multiple of 4 key-value heads; "),   # five numbers
    ("0,8/4,3,4", "'0' is not a positive integer; "),   # B = 0; 8 heads ARE a multiple of 4: not blamed
    ("2,32/0,128,64", "'0' is not a positive integer; "),   # Hkv = 0: said before any multiple is tried
    ("2,32/8/2,128,64", ""),              # three head words, 32 a multiple of 8: no one word or count at fault
])
def test_bad_shape_message_word_for_word(text, fault):
    with pytest.raises(ValueError) as e:
        parse_shape(text)
    assert str(e.value) == f"bad shape {text!r}: {fault}{TAIL}"


def test_call_mask_reads_every_semantic_field():
    assert call_mask({"mask_kind": "window", "window": 128}) == MaskSpec("window", window=128)
    assert call_mask({"mask_kind": "padding", "key_lengths": [3, 5], "padding_left": True}) == \
        MaskSpec("padding", key_lengths=(3, 5), left=True)
    assert call_mask({"mask_kind": "arbitrary", "mask_pairs": 12, "mask_file": "attention_masks/0.npz"}) == \
        MaskSpec("arbitrary", pairs=12, file="attention_masks/0.npz")
    assert call_mask({"causal": True, "mask_kind": "window", "window": 3}) == CAUSAL   # is_causal wins
    assert call_mask({"mask": True}) == MaskSpec("arbitrary")       # values not captured
    assert call_mask({}) == NONE


def test_to_dict_padding_gqa_row():
    s = Shape(2, 8, 16, 32, 64, "float16", Hkv=2, mask=MaskSpec("padding", key_lengths=(5, 7)), kv_repeated=True)
    # pairs: 16 rows x 5 keys + 16 x 7 = 192; flops 4 * 64 * 8 heads * 192 = 393,216; scale 1/sqrt(64)
    assert to_dict(s) == {"B": 2, "H": 8, "Hkv": 2, "Sq": 16, "Sk": 32, "D": 64, "dtype": "float16",
                          "causal": False, "mask": "padding", "window": 0, "key_lengths": "5,7",
                          "kv_repeated": True, "scale": 0.125, "flops": 393_216,
                          "shape": "(2,8/2,16x32,64),padding,kv repeated"}


def test_to_dict_causal_and_window_rows():
    # causal 4x4 keeps 10 pairs: 4 * 8 * 2 heads * 10 = 640; the model's own scale 0.2 kept
    causal = to_dict(Shape(1, 2, 4, 4, 8, mask=CAUSAL, scale=0.2))
    assert causal == {"B": 1, "H": 2, "Hkv": 2, "Sq": 4, "Sk": 4, "D": 8, "dtype": "bfloat16", "causal": True,
                      "mask": "", "window": 0, "key_lengths": "", "kv_repeated": False, "scale": 0.2,
                      "flops": 640, "shape": "(1,2,4,8),causal"}
    # window 2 over 5x5 keeps 1+2+2+2+2 = 9 pairs: 4 * D=16 * 1 head * 9 = 576; scale 1/sqrt(16) = 0.25
    window = to_dict(Shape(1, 1, 5, 5, 16, mask=MaskSpec("window", window=2)))
    assert (window["mask"], window["window"], window["flops"], window["scale"]) == ("window", 2, 4 * 16 * 9, 0.25)
    assert to_dict(Shape(1, 1, 2, 2, 4))["mask"] == ""      # none: empty, as causal
