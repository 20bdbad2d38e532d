"""The Gluon kernel's host side (attention/kernels/gluon_fa.py): the workspace it allocates, sized by hand."""
from inductor_prof.attention.kernels import gluon_fa


def test_workspace_sizes():
    import torch

    # 3 CTAs x 2 consumers = 6 slots: a 64 x 128 fp32 accumulator, 64 maxima and 64 sums each, two counters each
    ws = gluon_fa.SplitWorkspace("cpu", 3, 128, 2)
    assert (ws.acc.numel(), ws.stats.numel(), ws.flags.numel(), ws.epoch) == (6 * 64 * 128, 6 * 128, 12, 0)
    assert ws.acc.dtype == ws.stats.dtype == torch.float32 and ws.flags.dtype == torch.int32
    assert not ws.flags.any()         # counters start at zero: launches rely on it


def test_candidates_offer_chunked_orders_at_long_plain_causal_shapes_only():
    import torch

    from inductor_prof.attention.kernels import gluon_tiles
    from inductor_prof.attention.kernels.mask_schedule import Band

    def labels(sq, sk, **mask):
        q, k = torch.empty(1, 2, sq, 128), torch.empty(1, 2, sk, 128)
        return {c.label() for c in gluon_fa.candidates(q, k, **mask)}
    chunked = {f"ws M128xN128/s2/overlap/r240/q2/c{c}" for c in gluon_tiles.Q_CHUNKS}
    # top-left causal: the longest tile reads min(Sq, Sk) keys, here 16,384 either way round
    assert chunked <= labels(16384, 20000, causal=True) and chunked <= labels(20000, 16384, causal=True)
    for short in (labels(16383, 32768, causal=True), labels(32768, 16383, causal=True),
                  labels(32768, 32768), labels(32768, 32768, causal=True, band=Band(100, 0))):
        assert not chunked & short
