"""The Gluon kernel's tile configs (attention/kernels/gluon_tiles.py) that test_gluon_kernel.py's compiles leave
open: the default config per head dim, which consumer counts fit, the shared-memory fit at its exact edge, the
launch options (found by a mutation audit)."""
import pytest
from inductor_prof.attention.kernels import gluon_tiles
from inductor_prof.attention.kernels.gluon_tiles import Config


@pytest.mark.parametrize("head_dim, want", [
    # 128-key blocks up to head dim 128. Q buffers (227 KB = 232,448 B): K+V ring 2 stages x 128 x D x 2 B x 2 and
    # a 128-row Q tile 128 x D x 2 B: D 64: 65,536 + 2 x 16,384 fits -> 2; D 128: 131,072 + 2 x 32,768 = 196,608
    # -> 2; D 256, 64-key blocks: 131,072 + 2 x 65,536 = 262,144 too much, + 65,536 = 196,608 -> 1
    (64, Config(128, 2, True, q_buffers=2)), (128, Config(128, 2, True, q_buffers=2)),
    (256, Config(64, 2, True, q_buffers=1)),
    # 80 and 96 run 128 wide, 192 256 wide (head_dims.block_d): their widths' configs
    (80, Config(128, 2, True, q_buffers=2)), (96, Config(128, 2, True, q_buffers=2)),
    (192, Config(64, 2, True, q_buffers=1))])
def test_default_config(head_dim, want):
    assert gluon_tiles.default_config(head_dim) == want


@pytest.mark.parametrize("consumers, ctas, head_dim, fits", [
    (2, 1, 64, True), (2, 1, 256, True), (3, 1, 64, True), (3, 1, 128, False), (1, 1, 256, True),
    (1, 1, 128, False), (1, 2, 64, True), (1, 2, 128, False), (2, 2, 64, False)])
def test_consumers_fit(consumers, ctas, head_dim, fits):
    # two CTAs an SM: only one consumer each, only up to head dim 64
    assert gluon_tiles.consumers_fit(consumers, ctas, head_dim) is fits


def test_q_buffers_at_the_exact_edge():
    # D 64, 292-key blocks, 3 stages, one consumer: ring 2 x 3 x 292 x 64 x 2 = 224,256 B, Q tile 64 x 64 x 2 =
    # 8,192: together exactly 232,448 B (227 KB), which fits: one buffer
    assert gluon_tiles.q_buffers_that_fit(64, 292, 3, consumers=1) == 1
    assert gluon_tiles.q_buffers_that_fit(64, 293, 3, consumers=1) == 0


def test_launch_maxnreg_is_a_whole_number():
    # 65,536 registers / (2 CTAs x 256 threads) = 128, a multiple of 8; an int (a compile option)
    got = gluon_tiles.launch_maxnreg(Config(128, 2, True, consumers=1, ctas_per_sm=2))
    assert got == 128 and type(got) is int


def test_launch_options():
    # the producer's 4 warps; a register cap only with two CTAs an SM
    assert gluon_tiles.launch_options(Config(128, 2, True)) == {"num_warps": 4}
    assert gluon_tiles.launch_options(Config(128, 2, True, consumers=1, ctas_per_sm=2)) == {"num_warps": 4,
                                                                                        "maxnreg": 128}
