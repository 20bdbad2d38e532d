"""attention/semantics/shapes.py: parsing a shape, the sweep, shapes from captured calls and their rows, on small
constructed inputs (every expected value read off the input by hand)."""
import pytest
from inductor_prof.attention.semantics.masks import CAUSAL, NONE, MaskSpec
from inductor_prof.attention.semantics.shapes import (SWEEP_SEQ, call_mask, from_calls, parse_dtype, parse_shape, Shape,
                                                      sweep, to_dict)


TAIL = ("expected B,H,S,D or B,H,Sq,Sk,D with positive integers (H may be Hq/Hkv with Hkv dividing Hq; "
        "',causal' at the end)")


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


# ---- (mutation audit) attention/semantics/shapes.py ----


def test_parse_shape_accepts_x_as_separator_and_keeps_dtype():
    # "2x4x128x64" -> 2,4,128,64: B=2, H=4, S=128 (self-attention: Sq = Sk = 128), D=64; fp16 -> float16
    assert parse_shape("2x4x128x64", "fp16") == Shape(2, 4, 128, 128, 64, "float16")
    # five numbers: Sq=128, Sk=256 kept apart; "half" is float16 too
    assert parse_shape("2,4,128x256,64", "half") == Shape(2, 4, 128, 256, 64, "float16")
    # default dtype bfloat16
    assert parse_shape("1,2,3,4").dtype == "bfloat16"


def test_parse_shape_and_dtype_errors_name_the_input():
    with pytest.raises(ValueError, match=r"bad shape '1,2,3': expected B,H,S,D"):
        parse_shape("1,2,3")                       # three numbers
    with pytest.raises(ValueError, match=r"bad shape '1,0,3,4'"):
        parse_shape("1,0,3,4")                     # H = 0 is not positive
    with pytest.raises(ValueError, match=r"bad dtype 'fp8': use bfloat16 or float16"):
        parse_dtype("fp8")


def test_sweep_keeps_every_base_field():
    base = Shape(2, 6, 300, 300, 96, "float16", Hkv=3, mask=CAUSAL)
    # lengths = SWEEP_SEQ plus the base's 300, sorted; each shape is (B=2, H=6/3, s, s, D=96, float16, causal):
    # kv heads and causality carried
    lengths = sorted(set(SWEEP_SEQ) | {300})
    assert lengths[:2] == [300, 512]
    assert sweep(base) == [Shape(2, 6, s, s, 96, "float16", 3, CAUSAL) for s in lengths]
    # a padding mask is tied to its length: not carried
    padded = Shape(2, 3, 300, 300, 96, "float16", mask=MaskSpec("padding", key_lengths=(200, 300)))
    assert sweep(padded, seqs=(64,)) == [Shape(2, 3, 64, 64, 96, "float16"), Shape(2, 3, 300, 300, 96, "float16")]


def test_from_calls_fields_dtype_and_flags():
    calls = [
        # every field distinct so that a swapped or dropped one shows
        {"B": 2, "H": 3, "Sq": 5, "Sk": 7, "D": 11, "dtype": "torch.float16", "causal": True, "mask": True,
         "op": "aten::_scaled_dot_product_flash_attention"},
        # same shape again with another op: counted twice, the FIRST op kept
        {"B": "2", "H": "3", "Sq": "5", "Sk": "7", "D": "11", "dtype": "torch.float16", "causal": 1, "mask": 1,
         "op": "other_op"},
        # no dtype, no causal/mask, no op: dtype "", flags False, op ""
        {"B": 1, "H": 1, "Sq": 4, "Sk": 4, "D": 8},
        # a dtype outside DTYPES is kept verbatim (torch. prefix included); "bf16" maps to bfloat16
        {"B": 1, "H": 1, "Sq": 4, "Sk": 4, "D": 8, "dtype": "torch.float32", "op": "x"},
        {"B": 1, "H": 1, "Sq": 4, "Sk": 4, "D": 8, "dtype": "bf16", "op": "y"},
    ]
    out = from_calls(calls)
    assert out == [
        (Shape(2, 3, 5, 7, 11, "float16", mask=CAUSAL), 2, "aten::_scaled_dot_product_flash_attention"),
        (Shape(1, 1, 4, 4, 8, ""), 1, ""),
        (Shape(1, 1, 4, 4, 8, "torch.float32"), 1, "x"),
        (Shape(1, 1, 4, 4, 8, "bfloat16"), 1, "y"),
    ]
    # types, not only equality (Shape(2,...) == Shape(2.0,...) would hide a float)
    s = out[0][0]
    assert [type(v) for v in (s.B, s.H, s.Sq, s.Sk, s.D, s.Hkv, s.causal)] == [int] * 6 + [bool]
    assert out[1][0].mask == NONE
    assert out[1][0].dtype == "" and out[1][2] == ""


def test_from_calls_flags_default_false_and_most_calls_first():
    calls = [{"B": 1, "H": 2, "Sq": 8, "Sk": 8, "D": 4, "dtype": "fp16", "op": "a"}] + \
            [{"B": 1, "H": 2, "Sq": 16, "Sk": 16, "D": 4, "dtype": "float16", "causal": False, "op": "b"}] * 3
    # the 16-long shape has 3 calls and comes first; causal/mask missing -> False
    assert from_calls(calls) == [(Shape(1, 2, 16, 16, 4, "float16"), 3, "b"),
                                 (Shape(1, 2, 8, 8, 4, "float16"), 1, "a")]
