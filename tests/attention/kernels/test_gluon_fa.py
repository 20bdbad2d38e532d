"""The Gluon kernel's host side (attention/kernels/gluon_fa.py): the workspace it allocates, sized by hand."""
from inductor_prof.attention.kernels import gluon_fa


def test_workspace_sizes():
    import torch

    # 3 CTAs x 2 consumers = 6 slots: a 64 x 128 fp32 accumulator, 64 maxima and 64 sums each, two counters each
    ws = gluon_fa.SplitWorkspace("cpu", 3, 128, 2)
    assert (ws.acc.numel(), ws.stats.numel(), ws.flags.numel(), ws.epoch) == (6 * 64 * 128, 6 * 128, 12, 0)
    assert ws.acc.dtype == ws.stats.dtype == torch.float32 and ws.flags.dtype == torch.int32
    assert not ws.flags.any()         # counters start at zero: launches rely on it
