"""The own Gluon kernel compiled ahead of time for sm_90 with no GPU (Triton's bundled ptxas and cuobjdump):
it must build for every head dim, dense and causal, fit in registers (no local-memory spills) and shared memory,
be warp specialised (setmaxnreg) and, in the overlap configs, keep PV in flight while softmax runs (wgmma wait 1).
GQA is a run-time argument (GROUP, query heads per kv head), compiled here unspecialised."""
import functools
import os
import re
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace

import pytest
import sass_defs

gl = pytest.importorskip("triton.experimental.gluon.language")
pytest.importorskip("triton.experimental.gluon.language.nvidia.hopper")

import triton  # noqa: E402
from triton.backends.compiler import GPUTarget  # noqa: E402
from triton.experimental.gluon._runtime import GluonASTSource  # noqa: E402

from inductor_prof.attention.kernels import gluon_kernel, gluon_tiles, head_dims  # noqa: E402

HOPPER_SMEM = 232448  # bytes a block may use on sm_90
BIN = os.path.join(os.path.dirname(triton.__file__), "backends", "nvidia", "bin")


@functools.lru_cache(maxsize=None)
def _compile(head_dim: int, cfg: gluon_tiles.Config, causal: bool = False, band: bool = False, ranges: bool = False,
             rows: bool = False):
    """band: mask_schedule's band path (sliding windows), ranges: with per-batch key ranges (padding), rows: with
    per-row key intervals (documents; band must be set). The descriptors' boxes are the tile width the head dim
    runs at (gluon_fa.launch's)."""
    width = head_dims.block_d(head_dim)

    def desc(rows):
        layout = gl.NVMMASharedLayout.get_default_for([rows, width], gl.bfloat16)
        return f"tensordesc<bf16[{rows},{width}],{layout!r}>"
    sig = {"desc_q": desc(64), "desc_k": desc(cfg.block_n), "desc_v": desc(cfg.block_n), "O": "*bf16",
           "desc_o": desc(64), "LSE": "*fp32", "WS": "*fp32", "STATS": "*fp32", "FLAGS": "*i32", "epoch": "i32",
           "sm_scale": "fp32", "H": "i32",
           "GROUP": "i32", "N_Q": "i32", "N_KV": "i32", "stride_oz": "i32", "stride_oh": "i32", "stride_om": "i32",
           "n_m": "i32", "n_tiles": "i32", "n_dp": "i32", "LEFT": "i32", "RIGHT": "i32",
           "KV_RANGE": "*i32" if ranges else "*fp32", "ROW_KEYS": "*i32" if rows else "*fp32",
           "SCHED": "*i32" if rows else "*fp32", "HEAD_DIM": "constexpr", "BLOCK_D": "constexpr",
           "BLOCK_N": "constexpr", "STAGES": "constexpr", "OVERLAP": "constexpr", "CONSUMER_REGS": "constexpr",
           "CAUSAL": "constexpr", "Q_BUFS": "constexpr", "N_CONS": "constexpr", "SPLIT": "constexpr",
           "BAND": "constexpr", "RANGES": "constexpr", "ROWS": "constexpr"}
    src = GluonASTSource(fn=gluon_kernel.attn_fwd_ws_kernel, signature=sig, constexprs={
        "HEAD_DIM": head_dim, "BLOCK_D": width, "BLOCK_N": cfg.block_n, "STAGES": cfg.stages, "OVERLAP": cfg.overlap,
        "CONSUMER_REGS": cfg.consumer_regs, "CAUSAL": causal, "Q_BUFS": cfg.q_buffers,
        "N_CONS": cfg.consumers, "SPLIT": cfg.split and not causal and not band, "BAND": band, "RANGES": ranges,
        "ROWS": rows})
    # what launch() passes: two CTAs per SM need 128 registers a thread
    return triton.compile(src, target=GPUTarget("cuda", 90, 32), options=gluon_tiles.launch_options(cfg))


def _compile_all(cases: list[tuple]) -> None:
    """_compile of each case at once, a thread a core: most of a compile is Triton's LLVM lowering and ptxas (about
    5 s a kernel; cold, 4 configs: 13.4 s one after another, 7.4 s in two threads on a 2-core machine); the tests
    then read the cache. Under pytest-xdist nothing is compiled ahead: each test compiles its own kernel, the
    workers being the parallelism (a module fixture runs again on each worker that takes one of its tests, which
    compiled every kernel of the module twice)."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        return
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        list(pool.map(lambda case: _compile(*case), cases))


def _resource_usage(kernel) -> dict:
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "k.cubin")
        with open(path, "wb") as f:
            f.write(kernel.asm["cubin"])
        out = subprocess.run([os.path.join(BIN, "cuobjdump"), "--dump-resource-usage", path], capture_output=True,
                             text=True, timeout=60, check=True).stdout
    m = re.search(r"REG:(\d+) STACK:(\d+) SHARED:\d+ LOCAL:(\d+)", out)
    assert m, out
    return {"reg": int(m[1]), "stack": int(m[2]), "local": int(m[3])}


def _stale_descriptor_reads(kernel) -> list:
    """The kernel's wgmmas that read a descriptor register some path leaves unwritten (tests/sass_defs.py: Triton
    3.6's ptxas did so in the serial band path, an illegal address on the H100)."""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "k.cubin")
        with open(path, "wb") as f:
            f.write(kernel.asm["cubin"])
        sass = subprocess.run([os.path.join(BIN, "nvdisasm"), "-c", path], capture_output=True, text=True,
                              timeout=120, check=True).stdout
    return sass_defs.undefined_descriptor_reads(sass)


SM90_CONFIGS = [(128, gluon_tiles.default_config(128)),
                (128, gluon_tiles.Config(128, 2, False, q_buffers=2)),
                (128, gluon_tiles.Config(128, 3, True)),  # one Q buffer
                (64, gluon_tiles.default_config(64)), (256, gluon_tiles.default_config(256)),
                # three consumers, 192-row tiles; one, 64-row tiles
                (64, gluon_tiles.Config(128, 2, False, 160, q_buffers=2, consumers=3)),
                (256, gluon_tiles.Config(64, 2, True, q_buffers=2, consumers=1)),
                # one, two CTAs per SM
                (64, gluon_tiles.Config(128, 2, True, 216, q_buffers=2, consumers=1, ctas_per_sm=2))]


def _spills_here(head_dim: int, cfg: gluon_tiles.Config, causal: bool) -> bool:
    """What this Triton's ptxas is known to spill (the H100 image's 3.6 does not): skipped below."""
    return (cfg.consumers != 2 or head_dim == 256) and causal and not triton.__version__.startswith("3.6")


@pytest.fixture(scope="module")
def sm90_compiled():
    """Every case of test_compiles_for_sm90 compiled at once, the first time one runs."""
    _compile_all([(d, cfg, causal) for d, cfg in SM90_CONFIGS for causal in (False, True)
                  if not _spills_here(d, cfg, causal)])


@pytest.mark.skipif(not os.path.exists(os.path.join(BIN, "ptxas")), reason="no ptxas in this Triton install")
@pytest.mark.parametrize("causal", [False, True], ids=["dense", "causal"])
@pytest.mark.parametrize("head_dim,cfg", SM90_CONFIGS, ids=lambda x: x.label() if hasattr(x, "label") else f"D{x}")
def test_compiles_for_sm90(head_dim, cfg, causal, sm90_compiled):
    if _spills_here(head_dim, cfg, causal):
        # the H100 image's Triton 3.6 keeps them in registers; tests/gpu/test_gluon_tiles.py checks every config there
        pytest.skip(f"Triton {triton.__version__}'s ptxas spills the causal kernels of 192- and 64-row tiles "
                    "(32 and 24 B of stack) and, with the output staged in Q, of head dim 256 (32 B)")
    _check_sm90(_compile(head_dim, cfg, causal), cfg)


def _check_sm90(kernel, cfg: gluon_tiles.Config) -> None:
    """No spills, within shared memory, no stale wgmma descriptor, warp specialised with cfg's registers, PV in
    flight where cfg overlaps, the output stored by TMA (one Q buffer: the store read before the buffer is freed)."""
    usage = _resource_usage(kernel)
    assert usage["local"] == 0 and usage["stack"] == 0, usage
    assert kernel.metadata.shared <= HOPPER_SMEM
    assert not _stale_descriptor_reads(kernel)
    if cfg.ctas_per_sm == 2:
        # 65,536 registers of an SM over 2 CTAs x (4 producer + 4 consumer warps) x 32 threads = 128 a thread;
        # shared memory: 228 KiB an SM (233,472 B), each CTA also keeps 1 KiB for the runtime
        assert usage["reg"] == 128, usage
        assert 2 * (kernel.metadata.shared + 1024) <= 233472, kernel.metadata.shared
    ptx = kernel.asm["ptx"]
    # consumers run with consumer_regs registers: 4 producer warps + 4 per consumer launch with 64 K / threads
    # each (168 at 12 warps, 128 at 16: raised; 256 at 8 warps, one consumer: lowered to 240)
    assert re.search(rf"setmaxnreg\.(inc|dec)\.sync\.aligned\.u32\s+{cfg.consumer_regs};", ptx)
    assert kernel.metadata.num_warps == 4 + 4 * cfg.consumers
    waits = set(re.findall(r"wgmma\.wait_group\.sync\.aligned\s+(\d+)", ptx))
    assert ("1" in waits) == cfg.overlap, waits
    # with one Q buffer or two, the output leaves through shared memory by TMA store (tensor, global <- shared)
    assert "cp.async.bulk.tensor.2d.global.shared" in ptx
    if cfg.q_buffers == 1:
        # the one Q buffer holds the staged output: after each store, the next of (wait until the store has read
        # shared memory, arrive on a barrier) must be the wait, or the producer's next Q load overwrites the output
        events = re.findall(r"cp\.async\.bulk\.tensor\.2d\.global\.shared|wait_group\.read|mbarrier\.arrive\b", ptx)
        after_store = [b for a, b in zip(events, events[1:]) if a.startswith("cp.async.bulk.tensor")]
        assert after_store and set(after_store) == {"wait_group.read"}, after_store


# one kernel per head dim that runs in a wider tile (head_dims.py; each compile is 10-20 CPU-s): 80 causal (the
# diagonal blocks' masks), 96 dense with the split last waves (the partial accumulators 128 wide), 192 dense at its
# default config (one Q buffer, 64-key blocks: 256-wide tiles)
WIDER_TILES = [(80, gluon_tiles.default_config(80), True),
               (96, replace(gluon_tiles.default_config(96), split=True), False),
               (192, gluon_tiles.default_config(192), False)]


@pytest.mark.skipif(not os.path.exists(os.path.join(BIN, "ptxas")), reason="no ptxas in this Triton install")
@pytest.mark.parametrize("head_dim,cfg,causal", WIDER_TILES, ids=lambda x: x.label() if hasattr(x, "label") else str(x))
def test_head_dims_in_wider_tiles_compile_for_sm90(head_dim, cfg, causal):
    assert cfg.block_n == (64 if head_dim == 192 else 128) and cfg.split == (head_dim == 96)
    _check_sm90(_compile(head_dim, cfg, causal), cfg)


BAND_VARIANTS = {"window": (False, False), "window+padding": (True, False), "documents": (False, True)}
# every candidate config at head dims 64 and 128 (those tune picks from: the causal list), a test each: the
# longest test of the suite is one compile, and pytest-xdist's workers share them out
BAND_CASES = [pytest.param(head_dim, ranges, rows, cfg, id=f"{head_dim}-{variant}-{cfg.label()}")
              for head_dim in (64, 128) for variant, (ranges, rows) in BAND_VARIANTS.items()
              for cfg in gluon_tiles.candidate_configs(head_dim, causal=True)]


@pytest.fixture(scope="module")
def band_compiled():
    """Every band kernel compiled at once, the first time a band test runs (not under pytest-xdist)."""
    _compile_all([(p.values[0], p.values[3], False, True, p.values[1], p.values[2]) for p in BAND_CASES])


@pytest.mark.skipif(not os.path.exists(os.path.join(BIN, "ptxas")), reason="no ptxas in this Triton install")
@pytest.mark.parametrize("head_dim,ranges,rows,cfg", BAND_CASES)
def test_band_kernels_compile_for_sm90_without_spills(head_dim, ranges, rows, cfg, band_compiled):
    """The band path (sliding windows, padding; per-row key intervals: documents) of a candidate config: no stack,
    no local memory, within shared memory, no wgmma reading a descriptor some path leaves unwritten (Triton 3.6's
    serial band kernels did: run this file with the H100's Triton), PV still in flight while a partial block's
    softmax runs (wgmma wait 1) where the config overlaps."""
    # Triton 3.9's ptxas keeps 8 B of stack in the overlapped head-dim-64 band kernels (no .local in the PTX; not
    # the producer's registers: 232 for the consumers gave it too); tests/gpu/test_own_masks.py checks spills of
    # every band config with the H100's Triton
    stack = 8 if head_dim == 64 and not triton.__version__.startswith("3.6") else 0
    kernel = _compile(head_dim, cfg, False, True, ranges, rows)   # positional: the key band_compiled cached
    usage = _resource_usage(kernel)
    stale = _stale_descriptor_reads(kernel)
    assert not (usage["local"] or usage["stack"] > stack or kernel.metadata.shared > HOPPER_SMEM or stale), \
        (cfg.label(), usage, kernel.metadata.shared, [hex(offset) for offset, _, _ in stale])
    waits = set(re.findall(r"wgmma\.wait_group\.sync\.aligned\s+(\d+)", kernel.asm["ptx"]))
    assert ("1" in waits) == cfg.overlap, (cfg.label(), waits)


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
