"""Attention shapes with their semantics (kv heads, causal, mask): parsed from the command line, swept, or taken
from a run's captured attention calls."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ...cost import attention_backward_flops, attention_flops
from ...mask_pairs import CAUSAL, NONE, MaskSpec, call_mask

DTYPES = {"bfloat16": "bfloat16", "bf16": "bfloat16", "float16": "float16", "fp16": "float16", "half": "float16"}
SWEEP_SEQ = (512, 1024, 2048, 4096, 8192, 16384)


@dataclass(frozen=True)
class Shape:
    """q (B, H, Sq, D), k and v (B, Hkv, Sk, D); `mask` what the model's mask or is_causal meant;
    kv_repeated: the model repeated Hkv heads to H before the call (the bench runs them as GQA)."""
    B: int
    H: int
    Sq: int
    Sk: int
    D: int
    dtype: str = "bfloat16"
    Hkv: int = 0                 # 0: H (no GQA)
    mask: MaskSpec = NONE
    kv_repeated: bool = False
    scale: float = 0.0           # the model's softmax scale; 0: 1/sqrt(D)

    @property
    def kv_heads(self) -> int:
        return self.Hkv or self.H

    @property
    def causal(self) -> bool:
        return self.mask.kind == "causal"

    @property
    def needs(self) -> frozenset:
        """What a backend must support to run this shape: {"causal", "mask", "gqa"}."""
        kind = self.mask.kind
        return frozenset(({"causal"} if kind == "causal" else set())
                         | ({"mask"} if kind not in ("none", "causal") else set())
                         | ({"gqa"} if self.kv_heads != self.H else set()))

    @property
    def label(self) -> str:
        """'(2,32/8,2048,64),causal': B, H/Hkv (GQA), S or SqxSk, D, then the mask kind."""
        seq = f"{self.Sq}" if self.Sq == self.Sk else f"{self.Sq}x{self.Sk}"
        heads = f"{self.H}/{self.kv_heads}" if self.kv_heads != self.H else f"{self.H}"
        return f"({self.B},{heads},{seq},{self.D}){self.mask.label}" + (",kv repeated" if self.kv_repeated else "")

    @property
    def flops(self) -> int:
        """4 * D * B * H * kept query-key pairs (cost.py: dense Sq*Sk, causal only the kept triangle)."""
        return attention_flops(self.mask, self.B, self.H, self.Sq, self.Sk, self.D)

    @property
    def backward_flops(self) -> int:
        """Its backward over the same kept pairs (cost.attention_backward_flops: 2.5x the forward's)."""
        return attention_backward_flops(self.mask, self.B, self.H, self.Sq, self.Sk, self.D)

    @property
    def training_flops(self) -> int:
        """A forward and its backward: what one call costs in a training step (3.5x the forward's flops)."""
        return self.flops + self.backward_flops


def parse_shape(text: str, dtype: str = "bfloat16") -> Shape:
    """'B,H,S,D' or 'B,H,Sq,Sk,D'; H may be 'Hq/Hkv' (GQA); a trailing ',causal' makes it causal."""
    words = [w.strip() for w in text.replace("x", ",").split(",") if w.strip()]
    causal = bool(words) and words[-1] == "causal"
    words = words[:-1] if causal else words
    heads = words[1].split("/") if len(words) > 1 else []
    try:
        nums = [int(x) for x in words[:1] + heads[:1] + words[2:]]
        hkv = int(heads[1]) if len(heads) == 2 else nums[1]
    except (ValueError, IndexError):
        nums, hkv = [], 0
    if len(nums) not in (4, 5) or min(nums + [hkv], default=0) < 1 or len(heads) > 2 or nums[1] % hkv:
        raise ValueError(f"bad shape {text!r}: {_fault(words, heads, nums, hkv)}expected B,H,S,D or B,H,Sq,Sk,D "
                         "with positive integers (H may be Hq/Hkv with Hkv dividing Hq; ',causal' at the end)")
    b, h, *seq, d = nums
    sq, sk = (seq[0], seq[0]) if len(seq) == 1 else seq
    return Shape(b, h, sq, sk, d, parse_dtype(dtype), 0 if hkv == h else hkv, CAUSAL if causal else NONE)


def _fault(words: list[str], heads: list[str], nums: list[int], hkv: int) -> str:
    """What is wrong with a shape, where one word says it (else ""), ending in '; '."""
    for word in words[:1] + heads + words[2:]:
        try:
            size = int(word)
        except ValueError:
            return f"{word!r} is not a number; "
        if size < 1:
            return f"{word!r} is not a positive integer; "
    if len(nums) in (4, 5) and nums[1] % hkv:   # every word is a positive integer here: hkv >= 1
        return f"{nums[1]} query heads are not a multiple of {hkv} key-value heads; "
    return ""


def parse_dtype(text: str) -> str:
    if text not in DTYPES:
        raise ValueError(f"bad dtype {text!r}: use bfloat16 or float16")
    return DTYPES[text]


def sweep(base: Shape, seqs=SWEEP_SEQ) -> list[Shape]:
    """The base shape at each sequence length (self-attention), the base's own length included; its kv heads and
    causality kept (a mask of another kind is tied to its length: dropped)."""
    lengths = sorted(set(seqs) | {base.Sq})
    mask = CAUSAL if base.causal else NONE
    return [Shape(base.B, base.H, s, s, base.D, base.dtype, base.Hkv, mask) for s in lengths]


def from_call(c: dict) -> Shape:
    dtype = DTYPES.get(str(c.get("dtype", "")).replace("torch.", ""), str(c.get("dtype", "")))
    H = int(c["H"])
    return Shape(int(c["B"]), H, int(c["Sq"]), int(c["Sk"]), int(c["D"]), dtype,
                 0 if int(c.get("Hkv") or H) == H else int(c["Hkv"]), call_mask(c), bool(c.get("kv_repeated")),
                 float(c.get("scale") or 0.0))


def from_calls(calls: list[dict]) -> list[tuple[Shape, int, str]]:
    """Captured calls -> unique (shape, calls per profiled step, the op the model used), most calls first."""
    counts: Counter = Counter()
    ops: dict[Shape, str] = {}
    for c in calls:
        s = from_call(c)
        counts[s] += 1
        ops.setdefault(s, c.get("op", ""))
    return [(s, n, ops[s]) for s, n in counts.most_common()]


def to_dict(shape: Shape) -> dict:
    """A table row's shape columns (attention.csv)."""
    m = shape.mask
    return {"B": shape.B, "H": shape.H, "Hkv": shape.kv_heads, "Sq": shape.Sq, "Sk": shape.Sk, "D": shape.D,
            "dtype": shape.dtype, "causal": shape.causal, "mask": "" if m.kind in ("none", "causal") else m.kind,
            "window": m.window, "key_lengths": ",".join(map(str, m.key_lengths)), "kv_repeated": shape.kv_repeated,
            "scale": shape.scale or 1 / shape.D ** 0.5, "flops": shape.flops, "shape": shape.label}
