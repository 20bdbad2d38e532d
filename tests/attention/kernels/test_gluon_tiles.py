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


# the causal tile order (gluon_tiles.tile_order, the model of the kernel's gluon_state.tile_of)
def test_tile_order_by_hand():
    # 2 heads x 3 query tiles on 4 CTAs. A tile a head: tile index t -> (t % 2, 2 - t // 2), so 0..3 are the heads'
    # tiles 2, 2, 1, 1; the second wave (indices 4, 5) reversed: index 4 takes t 5 = (1, 0), index 5 t 4 = (0, 0)
    assert gluon_tiles.tile_order(2, 3, 4, True, 1) == [(0, 2), (1, 2), (0, 1), (1, 1), (1, 0), (0, 0)]
    # chunks of 2: the first chunk is head 0's tiles 2, 1 then head 1's; the last chunk has one tile a head
    # (t 4 = (0, 0), t 5 = (1, 0)), the second wave again reversed
    assert gluon_tiles.tile_order(2, 3, 4, True, 2) == [(0, 2), (0, 1), (1, 2), (1, 1), (1, 0), (0, 0)]
    # head dim 256: head by head, longest first; dense: head by head in query order
    assert gluon_tiles.tile_order(2, 3, 4, True, 2, block_d=256) == [(0, 2), (0, 1), (0, 0), (1, 2), (1, 1),
                                                                     (1, 0)]
    assert gluon_tiles.tile_order(2, 3, 4, False, 2) == [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2)]


@pytest.mark.parametrize("n_hz, n_m, ctas", [(32, 256, 132), (12, 17, 132), (3, 50, 7), (5, 1, 4), (40, 33, 132)])
@pytest.mark.parametrize("chunk", [1, 2, 6, 12, 16])
def test_tile_order_visits_each_tile_once_longest_first_within_a_wave(n_hz, n_m, ctas, chunk):
    order = gluon_tiles.tile_order(n_hz, n_m, ctas, True, chunk)
    assert sorted(order) == [(h, m) for h in range(n_hz) for m in range(n_m)]
    # a later wave's tiles are at most chunk - 1 query tiles longer than any earlier wave's (a tile a head: never
    # longer), so the short tiles still fill the end
    waves = [order[i:i + ctas] for i in range(0, len(order), ctas)]
    for w, wave in enumerate(waves[1:], 1):
        assert max(m for _, m in wave) <= min(m for earlier in waves[:w] for _, m in earlier) + chunk - 1


@pytest.mark.parametrize("seq", [16384, 32768])
@pytest.mark.parametrize("chunk", (1,) + gluon_tiles.Q_CHUNKS)
def test_offered_chunks_keep_the_ctas_balanced(seq, chunk):
    # (1,32,S,128) causal on 132 CTAs, CTA p runs indices p, p + 132, ...; tile m takes m + 1 key blocks. The
    # chunk's lengths fall in a sawtooth of period C; the odd waves' reversal pairs index i of one wave with
    # 2 x 132 - 1 - i of the next, whose offsets in the chunk sum to C - 1 only when C divides 132. Busiest CTA
    # within 0.5% of the mean (at 16k C = 8 gives 1.030)
    order = gluon_tiles.tile_order(32, seq // 128, 132, True, chunk)
    work = [0] * 132
    for i, (_, m) in enumerate(order):
        work[i % 132] += m + 1
    assert max(work) <= 1.005 * sum(work) / 132
    assert all(132 % c == 0 for c in gluon_tiles.Q_CHUNKS)


def test_chunked_configs_offered_only_for_long_plain_causal():
    base = gluon_tiles.candidate_configs(128, causal=True)
    long = gluon_tiles.candidate_configs(128, causal=True, longest_keys=32768)
    # each overlapped 128-key two-consumer config (s2 and s3 at head dim 128) once more per chunk, right after it
    added = [c for c in long if c.q_chunk > 1]
    assert [c.label() for c in added] == [f"ws M128xN128/s{s}/overlap/r240{q}/c{c}"
                                          for s, q in ((2, "/q2"), (3, "")) for c in gluon_tiles.Q_CHUNKS]
    assert [c for c in long if c.q_chunk == 1] == base
    assert gluon_tiles.candidate_configs(128, True, gluon_tiles.CHUNK_MIN_KEYS) == long
    # shorter, dense, or head dim 256 (head by head): nothing added, so their tuning takes no longer
    assert gluon_tiles.candidate_configs(128, True, gluon_tiles.CHUNK_MIN_KEYS - 1) == base
    assert gluon_tiles.candidate_configs(128, False, 32768) == gluon_tiles.candidate_configs(128)
    assert gluon_tiles.candidate_configs(256, True, 32768) == gluon_tiles.candidate_configs(256, True)
    assert gluon_tiles.candidate_configs(192, True, 32768) == gluon_tiles.candidate_configs(192, True)
    # 96 runs 128 wide: offered
    assert gluon_tiles.candidate_configs(96, True, 32768) == long
