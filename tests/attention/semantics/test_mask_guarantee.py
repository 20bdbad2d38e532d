"""The guarantee behind the own kernels' masks: for every mask classify names (not arbitrary), the arguments the own
kernels get (registry.kernel_args, then mask_args.band_args as both the Triton and the Gluon kernel fold them)
keep exactly the pairs of the model's mask: mask_schedule's keep rule, evaluated on every (batch, query, key),
against the mask itself. And the key blocks each query tile visits (mask_schedule.tile_blocks) hold every kept
key, their "full" blocks nothing masked. On small random masks (windows, causal, bottom-right causal, padding on
either side, ragged and empty batches, Sq != Sk, windows wider than the sequence, bits flipped) and edge cases.
A structured mask the kernels can run must not fall back to arbitrary either (that would hide a wrong rebuild)."""
import random

import pytest
import torch

from inductor_prof.attention.benchmark import registry
from inductor_prof.attention.kernels import mask_schedule as ms
from inductor_prof.attention.semantics.masks import classify, pairs

mask_args = pytest.importorskip("inductor_prof.attention.kernels.mask_args")


def kernel_keep(args: dict, B: int, Sq: int, Sk: int):
    """(B, Sq, Sk) bool: the pairs the own kernels keep under `args`, from mask_schedule's rule."""
    q = torch.zeros(B, 1, Sq, 1)
    causal, band, ranges, _ = mask_args.band_args(q, bool(args.get("causal")), args.get("band"), args.get("key_ranges"))
    if band is None:       # the plain paths: dense, or causal (top-left) with no band
        band = ms.CAUSAL if causal else ms.DENSE
    spans = ranges.tolist() if ranges is not None else [(0, Sk)] * B
    return torch.tensor([[[band.keeps(i, j) and lo <= j < hi for j in range(Sk)] for i in range(Sq)]
                         for lo, hi in spans], dtype=torch.bool)


def schedule_covers(args: dict, keep, tile_m: int, block_n: int) -> bool:
    """The tiles' visited blocks (tile_blocks) hold every kept pair; their full blocks keep every pair."""
    if "band" not in args and "key_ranges" not in args:
        return True     # dense and plain causal: the kernels' own paths, not the band schedule
    q = torch.zeros(keep.shape[0], 1, keep.shape[1], 1)
    _, band, ranges, _ = mask_args.band_args(q, bool(args.get("causal")), args.get("band"), args.get("key_ranges"))
    B, Sq, Sk = keep.shape
    for b in range(B):
        lo, hi = ranges[b].tolist() if ranges is not None else (0, Sk)
        for m0 in range(0, Sq, tile_m):
            rows = min(tile_m, Sq - m0)
            a, full_a, full_d, d = ms.tile_blocks(m0, rows, block_n, Sk, band, lo, hi)
            tile = keep[b, m0:m0 + rows]
            visited = torch.zeros(Sk, dtype=torch.bool)
            visited[a * block_n:d * block_n] = True
            if bool((tile & ~visited).any()):
                return False
            if not bool(tile[:, full_a * block_n:min(full_d * block_n, Sk)].all()):
                return False
    return True


def check(mask, B: int, must_recognise: bool = False) -> str:
    """classify `mask` (b, 1, Sq, Sk) and hold the guarantee; returns the kind."""
    Sq, Sk = mask.shape[-2:]
    spec, _ = classify(mask, Sq, Sk, B)
    want = mask.expand(B, 1, Sq, Sk)[:, 0]
    assert pairs(spec, B, Sq, Sk) == int(want.sum()), spec
    if spec.kind == "arbitrary":
        assert not must_recognise, mask[:, 0].int().tolist()
        with pytest.raises(ValueError, match="^the own kernels take no arbitrary mask"):
            registry.kernel_args(spec, B, Sk)
        return spec.kind
    args = registry.kernel_args(spec, B, Sk)
    assert torch.equal(kernel_keep(args, B, Sq, Sk), want), (spec, args, want.int().tolist())
    for tile_m, block_n in ((1, 1), (2, 2), (4, 2), (3, 4)):
        assert schedule_covers(args, want, tile_m, block_n), (spec, args, tile_m, block_n)
    return spec.kind


def structured(rng: random.Random):
    """A random mask built as a band and key ranges: (mask (b, 1, Sq, Sk), B, whether the kernels can run it).
    The band i + off - left <= j <= i + off + right (None: no bound; off: a bottom-right shift Sk - Sq)."""
    B, Sq, Sk = rng.randint(1, 3), rng.randint(1, 7), rng.randint(1, 7)
    left, right = rng.choice([None, 0, 1, 2, 4, 9]), rng.choice([None, 0, 1, 3, 9])
    off = rng.choice([0, 0, 0, Sk - Sq])
    i, j = torch.arange(Sq)[:, None], torch.arange(Sk)[None]
    band = torch.ones(Sq, Sk, dtype=torch.bool)
    if left is not None:
        band &= j >= i + off - left
    if right is not None:
        band &= j <= i + off + right
    side = rng.choice(["right", "left", "none"])
    b = rng.choice([1, B])                       # one mask broadcast over the batch, or one per batch
    lengths = [rng.choice([0, Sk, rng.randint(0, Sk)]) for _ in range(b)]
    keys = [(j[0] >= Sk - n) if side == "left" else (j[0] < n) if side == "right" else torch.ones(Sk, dtype=torch.bool)
            for n in lengths]
    mask = torch.stack([band & k[None] for k in keys])[:, None]
    # the kernels run a band holding the query's own key (left - off >= 0, right + off >= 0) with one side's padding
    runs = (left is None or left - off >= 0) and (right is None or right + off >= 0)
    return mask, B, runs


def test_random_structured_masks():
    rng = random.Random(35)
    kinds = set()
    for _ in range(1500):
        mask, B, runs = structured(rng)
        kinds.add(check(mask, B, must_recognise=runs))
    # every kind the kernels take was reached (the generator is not stuck on one)
    assert {"none", "causal", "window", "padding", "causal_padding", "window_padding"} <= kinds


def test_random_masks_with_flipped_bits():
    rng = random.Random(36)
    for _ in range(800):
        mask, B, _ = structured(rng)
        mask = mask.clone()
        for _ in range(rng.randint(1, 2)):
            mask.view(-1)[rng.randrange(mask.numel())] ^= True
        check(mask, B)
    for _ in range(300):                         # no structure at all
        b, Sq, Sk = rng.randint(1, 3), rng.randint(1, 6), rng.randint(1, 6)
        check(torch.rand(b, 1, Sq, Sk, generator=torch.Generator().manual_seed(rng.randrange(1 << 30))) < 0.6, b)


def _tri(Sq, Sk):
    return torch.arange(Sk)[None] <= torch.arange(Sq)[:, None]


@pytest.mark.parametrize("name, mask, B, kind", [
    # every row of every batch masked
    ("all masked", torch.zeros(2, 1, 3, 4, dtype=torch.bool), 2, "padding"),
    # rows 0..2 of a left-padded causal batch keep nothing (keys 3, 4 only), batch 1 full
    ("masked rows", (_tri(5, 5) & torch.tensor([[0, 0, 0, 1, 1], [1] * 5], dtype=torch.bool)[:, None])[:, None],
     2, "causal_padding"),
    ("Sq > Sk causal", _tri(7, 3)[None, None], 1, "causal"),
    ("Sq < Sk causal", _tri(2, 6)[None, None], 3, "causal"),
    # |i - j| <= 20 on 5 x 3: keeps all; i - 20 <= j <= i: causal; i - 1 <= j <= i + 20: no bound ahead
    ("wide window", ((torch.arange(5)[:, None] - torch.arange(3)[None]).abs() <= 20)[None, None], 1, "none"),
    ("wide causal window", (_tri(5, 3) & (torch.arange(5)[:, None] - torch.arange(3)[None] <= 20))[None, None], 1,
     "causal"),
    ("window, nothing ahead bounds", (torch.arange(3)[None] >= torch.arange(5)[:, None] - 1)[None, None], 1,
     "window"),
    # ragged right padding, a window, a batch with no key
    ("ragged window padding", (((torch.arange(6)[:, None] - torch.arange(6)[None]).abs() <= 1)
                               & (torch.arange(6) < torch.tensor([[0], [4], [6]]))[:, None])[:, None], 3,
     "window_padding"),
])
def test_edge_cases(name, mask, B, kind):
    assert check(mask, B, must_recognise=True) == kind, name
