"""Which head dims the own kernels take and the tile width each runs at (attention/kernels/head_dims.py)."""
import pytest

from inductor_prof.attention.kernels import head_dims


@pytest.mark.parametrize("head_dim, width", [
    # the next power of two at or above: powers of two are their own width; 80 and 96 lie between 64 and 128,
    # 192 between 128 and 256
    (64, 64), (80, 128), (96, 128), (128, 128), (192, 256), (256, 256), (65, 128), (129, 256), (1, 1)])
def test_block_d(head_dim, width):
    assert head_dims.block_d(head_dim) == width


def test_supported_and_the_error_for_others():
    assert head_dims.SUPPORTED == (64, 80, 96, 128, 192, 256)
    for d in head_dims.SUPPORTED:
        head_dims.check(d)
        assert d % 8 == 0    # a TMA row (d x 2 B) must be a multiple of 16 B
    with pytest.raises(ValueError, match=r"^head dim 112 not supported \(64, 80, 96, 128, 192, 256\)$"):
        head_dims.check(112)
