"""Attention shapes: parsed from the command line, swept, or taken from a run's captured SDPA calls."""
from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass

DTYPES = {"bfloat16": "bfloat16", "bf16": "bfloat16", "float16": "float16", "fp16": "float16", "half": "float16"}
SWEEP_SEQ = (512, 1024, 2048, 4096, 8192, 16384)


@dataclass(frozen=True)
class Shape:
    B: int
    H: int
    Sq: int
    Sk: int
    D: int
    dtype: str = "bfloat16"
    causal: bool = False
    mask: bool = False

    @property
    def label(self) -> str:
        seq = f"{self.Sq}" if self.Sq == self.Sk else f"{self.Sq}x{self.Sk}"
        extra = (",causal" if self.causal else "") + (",mask" if self.mask else "")
        return f"({self.B},{self.H},{seq},{self.D}){extra}"

    @property
    def flops(self) -> int:
        """4*B*H*Sq*Sk*D: the two matmuls, no causal discount (causal shapes are not benchmarked)."""
        return 4 * self.B * self.H * self.Sq * self.Sk * self.D


def parse_shape(text: str, dtype: str = "bfloat16") -> Shape:
    """'B,H,S,D' or 'B,H,Sq,Sk,D'."""
    try:
        nums = [int(x) for x in text.replace("x", ",").split(",") if x.strip()]
    except ValueError:
        nums = []
    if len(nums) not in (4, 5) or min(nums, default=0) < 1:
        raise ValueError(f"bad shape {text!r}: expected B,H,S,D or B,H,Sq,Sk,D with positive integers")
    if len(nums) == 4:
        b, h, s, d = nums
        return Shape(b, h, s, s, d, parse_dtype(dtype))
    b, h, sq, sk, d = nums
    return Shape(b, h, sq, sk, d, parse_dtype(dtype))


def parse_dtype(text: str) -> str:
    if text not in DTYPES:
        raise ValueError(f"bad dtype {text!r}: use bfloat16 or float16")
    return DTYPES[text]


def sweep(base: Shape, seqs=SWEEP_SEQ) -> list[Shape]:
    """The base shape at each sequence length (self-attention), the base's own length included."""
    lengths = sorted(set(seqs) | {base.Sq})
    return [Shape(base.B, base.H, s, s, base.D, base.dtype) for s in lengths]


def from_calls(calls: list[dict]) -> list[tuple[Shape, int, str]]:
    """Captured calls -> unique (shape, calls per profiled step, the op the model used), most calls first."""
    counts: Counter = Counter()
    ops: dict[Shape, str] = {}
    for c in calls:
        dtype = DTYPES.get(str(c.get("dtype", "")).replace("torch.", ""), str(c.get("dtype", "")))
        s = Shape(int(c["B"]), int(c["H"]), int(c["Sq"]), int(c["Sk"]), int(c["D"]), dtype,
                  bool(c.get("causal", False)), bool(c.get("mask", False)))
        counts[s] += 1
        ops.setdefault(s, c.get("op", ""))
    return [(s, n, ops[s]) for s, n in counts.most_common()]


def to_dict(shape: Shape) -> dict:
    return {**asdict(shape), "shape": shape.label}
