"""The eager capture (capture.eager_step, as the library_ops stage runs it) of a model with two-sided local windows
and left padding (tests/local_window_encoder.py), on the CPU: each call's shape label and kept pairs, counted by
hand below, and the own kernels' arguments for the mask rebuilt from what was captured."""
import warnings
from dataclasses import replace

import pytest

torch = pytest.importorskip("torch")

from inductor_prof.attention.benchmark import registry  # noqa: E402
from inductor_prof.attention.kernels.mask_schedule import Band  # noqa: E402
from inductor_prof.attention.semantics import masks  # noqa: E402
from inductor_prof.attention.semantics.capture import eager_step  # noqa: E402
from inductor_prof.attention.semantics.shapes import from_call  # noqa: E402

import local_window_encoder as enc  # noqa: E402


@pytest.fixture(scope="module")
def calls():
    model, kwargs = enc.encoder()
    compiled = torch.compile(model, backend="eager")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")      # flex_attention's "called without torch.compile" (eager on purpose)
        return eager_step(lambda: compiled(**kwargs)).calls


# Hand counts, S = 64 (rows i, keys j in 0..63), per row the keys [max(lo, i - back), min(63, i + ahead)]:
# |i - j| <= 8, no padding: rows 0..7 keep i + 9 (9..16: 100), rows 8..55 keep 17 (48 x 17 = 816), rows 56..63
#   keep 72 - i (16..9: 100) -> 1,016
# the same from key 16 (the left-padded sequence): rows 0..7 keep none, 8..24 keep i - 7 (1..17: 153), 25..55
#   keep 17 (31 x 17 = 527), 56..63 keep 72 - i (100) -> 780
# i - 16 <= j <= i + 4, no padding: rows 0..16 keep i + 5 (5..21: 221), 17..59 keep 21 (43 x 21 = 903),
#   60..63 keep 80 - i (20..17: 74) -> 1,198
# the same from key 16: rows 0..11 none, 12..32 keep i - 11 (1..21: 231), 33..59 keep 21 (27 x 21 = 567),
#   60..63 keep 80 - i (74) -> 872
EXPECTED = [
    ("sdpa", "(2,4,64,16),window=9+8,padding", 1016 + 780,
     masks.MaskSpec("window_padding", window=9, right=8, key_lengths=(48, 64), left=True)),
    ("sdpa", "(2,4,64,16),window=17+4,padding", 1198 + 872,
     masks.MaskSpec("window_padding", window=17, right=4, key_lengths=(48, 64), left=True)),
    ("flex_attention", "(2,4,64,16),window=9+8", 2 * 1016, masks.MaskSpec("window", window=9, right=8)),
]


def test_each_layers_window_label_and_pairs(calls):
    # (MaskSpec.pairs is read back for every kind; it means something for arbitrary masks only)
    got = [(c["op"], from_call(c).label, c["mask_pairs"], replace(from_call(c).mask, pairs=0)) for c in calls]
    assert got == EXPECTED


def test_the_mask_rebuilt_is_the_models_and_the_own_kernels_take_it(calls):
    # 9 keys up to the query's own (left bound 8), 8 ahead; the left-padded sequence keeps keys 16..63
    q, k = torch.zeros(2, 4, 64, 16), torch.zeros(2, 4, 64, 16)
    want = {0: {"band": Band(8, 8), "key_ranges": [(16, 64), (0, 64)]},
            1: {"band": Band(16, 4), "key_ranges": [(16, 64), (0, 64)]},
            2: {"band": Band(8, 8)}}
    kept = torch.arange(64)[None] >= torch.tensor(enc.PADDED)[:, None]           # (B, S) keys kept
    for n, c in enumerate(calls):
        spec = from_call(c).mask
        keep = masks.build(spec, 2, 64, 64)
        back, ahead, pad = [(8, 8, True), (16, 4, True), (8, 8, False)][n]
        model_keep = enc.band(64, back, ahead)[None, None] & (kept[:, None, None, :] if pad else True)
        assert torch.equal(keep.expand(2, 1, 64, 64), model_keep.expand(2, 1, 64, 64)), n
        assert registry.own_mask_args(keep, q, k) == want[n], n
        assert registry.cannot_take(registry.backends(["triton_fa2"])[0], from_call(c).needs, spec.kind) == ""
