"""The own Gluon kernel compiled ahead of time for sm_90 with no GPU (tests/gluon_sm90.py: Triton's bundled ptxas,
cuobjdump and nvdisasm): a representative of each kernel family must build, fit in registers (no local-memory
spills) and shared memory, be warp specialised (setmaxnreg) and, in the overlap configs, keep PV in flight while
softmax runs (wgmma wait 1); then the tile configs' arithmetic. GQA is a run-time argument (GROUP, query heads per
kv head), compiled here unspecialised.

Every config x variant (60 compiles, about 250 CPU-seconds, more than a third of the suite's CPU time) is compiled and
checked the same way by tests/gpu/test_gluon_sm90_matrix.py in the GPU run (scripts/gpu_tests.sh), where
tests/gpu/test_gluon_fa.py and test_own_masks.py also run each config against float64; here, 5 compiles (about 18
CPU-seconds): the default config dense and causal, two CTAs an SM (the register cap), and the band path (documents,
without overlap); and one head dim that runs in a wider tile (80, causal). One Q buffer (the output staged in it),
three consumers, the window and padding variants and head dims 96 (split) and 192 in wider tiles are checked in
the GPU run only."""
import pytest
from gluon_sm90 import (BAND_VARIANTS, SM90_CONFIGS, WIDER_TILES, check_band, check_sm90, check_sm90_kernel,
                        compile_all, compile_sm90, needs_ptxas, sm90_id, spills_here)

from inductor_prof.attention.kernels import gluon_tiles

# one of each family, from the GPU run's matrix (SM90_CONFIGS): (head dim, config, causal). The default config
# dense at head dim 128 (FLUX's kernel) and causal at 64 (a decoder's), two CTAs an SM (its register cap, 128 a
# thread); 1.6-3.8 CPU-seconds a compile here, cold
SM90_FAMILIES = [(128, gluon_tiles.default_config(128), False), (64, gluon_tiles.default_config(64), True),
                 (*SM90_CONFIGS[7], False)]
assert all((d, cfg) in SM90_CONFIGS for d, cfg, _ in SM90_FAMILIES)


def _band(head_dim: int, variant: str, label: str):
    ranges, rows = BAND_VARIANTS[variant]
    cfg = next(c for c in gluon_tiles.candidate_configs(head_dim, causal=True) if c.label() == label)
    return pytest.param(head_dim, ranges, rows, cfg, id=f"{head_dim}-{variant}-{label}")


# the band path once: per-row key intervals (documents, the most of it compiled: rows, schedule) with a config
# without overlap (the wgmma-wait check's other side from the kernels above)
BAND_FAMILIES = [_band(128, "documents", "ws M128xN128/s2/r240/q2")]


# one head dim that runs in a wider tile (head_dims.py): 80 causal, 128 columns wide (the diagonal blocks' masks);
# 96 split and 192 in the GPU run's matrix (WIDER_TILES)
WIDER_FAMILIES = [WIDER_TILES[0]]
assert WIDER_FAMILIES[0][0] == 80 and WIDER_FAMILIES[0][2]


@pytest.fixture(scope="module")
def compiled():
    """Every kernel of this module compiled at once, a thread a core, the first time one is needed (not under
    pytest-xdist, where the workers are the parallelism)."""
    compile_all([case for case in SM90_FAMILIES if not spills_here(*case)] + WIDER_FAMILIES
                + [(p.values[0], p.values[3], False, True, p.values[1], p.values[2]) for p in BAND_FAMILIES])


@needs_ptxas
@pytest.mark.parametrize("head_dim,cfg,causal", SM90_FAMILIES, ids=sm90_id)
def test_compiles_for_sm90(head_dim, cfg, causal, compiled):
    check_sm90(head_dim, cfg, causal)


@needs_ptxas
@pytest.mark.parametrize("head_dim,cfg,causal", WIDER_FAMILIES, ids=sm90_id)
def test_head_dims_in_wider_tiles_compile_for_sm90(head_dim, cfg, causal, compiled):
    check_sm90_kernel(compile_sm90(head_dim, cfg, causal), cfg)


@needs_ptxas
@pytest.mark.parametrize("head_dim,ranges,rows,cfg", BAND_FAMILIES)
def test_band_kernels_compile_for_sm90_without_spills(head_dim, ranges, rows, cfg, compiled):
    check_band(head_dim, ranges, rows, cfg)


def test_candidate_configs_fit_shared_memory():
    # tiles as wide as the next power of two: 80 and 96 take 128 columns of shared memory a row, 192 takes 256
    for d, width in ((64, 64), (80, 128), (96, 128), (128, 128), (192, 256), (256, 256)):
        cfgs = gluon_tiles.candidate_configs(d)
        assert cfgs and gluon_tiles.default_config(d) in cfgs
        assert cfgs == gluon_tiles.candidate_configs(width)
        assert gluon_tiles.candidate_configs(d, causal=True) == gluon_tiles.candidate_configs(width, causal=True)
        for c in cfgs:
            # ctas_per_sm CTAs share an SM's 227 KiB and 65,536 registers
            rows = 64 * c.consumers * c.q_buffers + 2 * c.stages * c.block_n   # Q tiles, K and V rings
            assert rows * width * 2 * c.ctas_per_sm <= 227 * 1024
            # 128 threads per consumer and for the producer, which keeps at least setmaxnreg's floor of 24
            assert 128 * (c.consumers * c.consumer_regs + 24) * c.ctas_per_sm <= 65536, c


@pytest.mark.parametrize("head_dim,block_n,stages,expected", [
    # D128, 2 stages of 128 keys: K+V ring 2*2*128*128*2 B = 128 KiB, a 128-row Q tile 32 KiB: 128+64 = 192 KiB fit
    (128, 128, 2, 2),
    # 3 stages: ring 192 KiB; 192+64 = 256 KiB does not fit in 227, 192+32 = 224 does
    (128, 128, 3, 1),
    # D256, 2 stages of 64 keys: ring 2*2*64*256*2 = 128 KiB, Q tile 64 KiB: 256 KiB no, 192 KiB yes
    (256, 64, 2, 1),
    # D256, 2 stages of 128 keys: the ring alone is 256 KiB
    (256, 128, 2, 0),
    # D64, 4 stages of 64 keys: ring 64 KiB, Q tile 16 KiB
    (64, 64, 4, 2),
    # exactly full (a made-up head dim): ring 2*2*64*227*2 = 116,224 B + two Q tiles 2*128*227*2 = 116,224 B
    # = 232,448 B = 227 KiB, which fits
    (227, 64, 2, 2),
])
def test_q_buffers_that_fit(head_dim, block_n, stages, expected):
    assert gluon_tiles.q_buffers_that_fit(head_dim, block_n, stages) == expected


@pytest.mark.parametrize("head_dim,block_n,stages,expected", [
    # D64, 2 stages of 128 keys: ring 2*2*128*64*2 = 64 KiB; a 192-row Q tile 192*64*2 = 24 KiB: 64+48 fits
    (64, 128, 2, 2),
    # D128: ring 128 KiB, Q tile 48 KiB: 128+96 = 224 KiB fits in 227
    (128, 128, 2, 2),
    # D128, 3 stages: ring 192 KiB; 192+48 = 240 no, 192 alone leaves no room for one tile of 48 either
    (128, 128, 3, 0),
    # D256, 2 stages of 64 keys: ring 128 KiB, Q tile 96 KiB: 224 KiB for one buffer
    (256, 64, 2, 1),
])
def test_q_buffers_of_three_consumers(head_dim, block_n, stages, expected):
    assert gluon_tiles.q_buffers_that_fit(head_dim, block_n, stages, consumers=3) == expected


def test_q_buffers_of_one_consumer():
    # D256, 2 stages of 64 keys: ring 128 KiB; a 64-row Q tile 64*256*2 = 32 KiB: 128+64 = 192 KiB fits
    assert gluon_tiles.q_buffers_that_fit(256, 64, 2, consumers=1) == 2
    # 3 stages: ring 192 KiB; 192+64 = 256 no, 192+32 = 224 yes
    assert gluon_tiles.q_buffers_that_fit(256, 64, 3, consumers=1) == 1


def test_three_consumers_only_at_head_dim_64_and_without_overlap_or_split():
    # 160 registers a consumer hold 64x128 fp32 scores + a 64x64 accumulator, not PV in flight beside them
    three = {c.label() for c in gluon_tiles.candidate_configs(64) if c.consumers == 3}
    assert three == {"ws M192xN128/s2/r160/q2", "ws M192xN128/s3/r160/q2"}
    assert {c.label() for c in gluon_tiles.candidate_configs(64, causal=True) if c.consumers == 3} == three
    assert not any(c.consumers == 3 for d in (128, 256) for c in gluon_tiles.candidate_configs(d))


def test_one_consumer_at_head_dim_256_and_two_ctas_of_it_at_64():
    # 8 heads x 1,024 tokens: 64 tiles of 128 rows leave 68 of 132 SMs idle; 64-row tiles make 128
    for causal in (False, True):
        one = [c.label() for c in gluon_tiles.candidate_configs(256, causal) if c.consumers == 1]
        assert one == ["ws M64xN64/s2/overlap/r240/q2"]
        # head dim 64: two CTAs per SM, never split (a split piece measured slower there)
        two = [c.label() for c in gluon_tiles.candidate_configs(64, causal) if c.consumers == 1]
        assert two == ["ws M64xN128/s2/overlap/r216/q2/2cta"]
        assert not any(c.consumers == 1 for c in gluon_tiles.candidate_configs(128, causal))
        assert all(c.ctas_per_sm == 1 for d in (128, 256) for c in gluon_tiles.candidate_configs(d, causal))


@pytest.mark.parametrize("consumers,ctas,expected", [
    # 2 CTAs x 2 warpgroups (producer + consumer) x 128 threads = 512 threads: 65,536 / 512 = 128
    (1, 2, 128),
    # 2 CTAs x 3 warpgroups = 768 threads: 85.3 a thread, down to ptxas's multiple of 8: 80
    (2, 2, 80),
    # one CTA: left to ptxas
    (2, 1, None),
])
def test_launch_maxnreg(consumers, ctas, expected):
    cfg = gluon_tiles.Config(128, 2, True, consumers=consumers, ctas_per_sm=ctas)
    assert gluon_tiles.launch_maxnreg(cfg) == expected


def test_q_buffers_of_two_ctas_per_sm():
    # half of 227 KiB each (116,224 B). D64, one consumer, 2 stages of 128 keys: ring 2*2*128*64*2 = 64 KiB, a
    # 64-row Q tile 8 KiB: 64+16 = 80 KiB fits
    assert gluon_tiles.q_buffers_that_fit(64, 128, 2, consumers=1, ctas_per_sm=2) == 2
    # 3 stages: ring 96 KiB; 96+16 = 112 KiB = 114,688 B still fits in 116,224
    assert gluon_tiles.q_buffers_that_fit(64, 128, 3, consumers=1, ctas_per_sm=2) == 2
    # D128, 2 stages of 128 keys: the ring alone is 128 KiB
    assert gluon_tiles.q_buffers_that_fit(128, 128, 2, consumers=1, ctas_per_sm=2) == 0


@pytest.mark.parametrize("args,expected", [
    # FLUX: 36 query tiles x 24 heads = 864 tiles = 6 whole waves of 132 + 72; the last whole wave joins the cut
    # part: 5 x 132 = 660 tiles whole, 204 tiles cut
    ((864, 36, 132, True), (132, 660)),
    ((864, 36, 132, False), (132, 864)),
    # 1,024 tokens x 24 heads: 192 tiles, one whole wave, so none stays whole: 192 x 8 = 1536 key blocks cut
    ((192, 8, 132, True), (132, 0)),
    # fewer tiles than CTAs: 96 tiles x 4 blocks = 384 >= 132 units, all of it cut
    ((96, 4, 132, True), (132, 0)),
    # 66 tiles x 2 blocks = 132 units: exactly one per CTA, still split
    ((66, 2, 132, True), (132, 0)),
    # 8 tiles x 8 blocks = 64 units < 132 CTAs: some CTA would get no share, so not split; 8 CTAs
    ((8, 8, 132, True), (8, 8)),
    # 1,056 = 8 x 132 tiles fill the waves: nothing to cut
    ((1056, 36, 132, True), (132, 1056)),
])
def test_work_split(args, expected):
    assert gluon_tiles.work_split(*args) == expected


def test_split_configs_only_for_dense_overlapped_kernels():
    dense, causal = gluon_tiles.candidate_configs(128), gluon_tiles.candidate_configs(128, causal=True)
    assert not any(c.split for c in causal + gluon_tiles.candidate_configs(256))
    assert {c for c in dense if c.split} == {gluon_tiles.Config(c.block_n, c.stages, True, split=True,
                                                             q_buffers=c.q_buffers) for c in causal if c.overlap}
    assert gluon_tiles.Config(128, 2, True, split=True).label() == "ws M128xN128/s2/overlap/r240/split"
    assert gluon_tiles.Config(128, 2, True, split=True, q_buffers=2).label() == "ws M128xN128/s2/overlap/r240/q2/split"
