"""The own Gluon kernel compiled ahead of time for sm_90 with no GPU (Triton's bundled ptxas, cuobjdump and nvdisasm)
and what its compiled form must show: shared by tests/attention/kernels/test_gluon_kernel.py (a representative of
each family, in the default run) and tests/gpu/test_gluon_sm90_matrix.py (every config, in the GPU run)."""
import functools
import os
import re
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor

import pytest
from dataclasses import replace

import sass_defs

gl = pytest.importorskip("triton.experimental.gluon.language")
pytest.importorskip("triton.experimental.gluon.language.nvidia.hopper")

import triton  # noqa: E402
from triton.backends.compiler import GPUTarget  # noqa: E402
from triton.experimental.gluon._runtime import GluonASTSource  # noqa: E402

from inductor_prof.attention.kernels import gluon_kernel, gluon_tiles, head_dims  # noqa: E402

HOPPER_SMEM = 232448  # bytes a block may use on sm_90
BIN = os.path.join(os.path.dirname(triton.__file__), "backends", "nvidia", "bin")
needs_ptxas = pytest.mark.skipif(not os.path.exists(os.path.join(BIN, "ptxas")),
                                 reason="no ptxas in this Triton install")

# (head dim, config) compiled dense and causal
SM90_CONFIGS = [(128, gluon_tiles.default_config(128)),
                (128, gluon_tiles.Config(128, 2, False, q_buffers=2)),
                (128, gluon_tiles.Config(128, 3, True)),  # one Q buffer
                (64, gluon_tiles.default_config(64)), (256, gluon_tiles.default_config(256)),
                # three consumers, 192-row tiles; one, 64-row tiles
                (64, gluon_tiles.Config(128, 2, False, 160, q_buffers=2, consumers=3)),
                (256, gluon_tiles.Config(64, 2, True, q_buffers=2, consumers=1)),
                # one, two CTAs per SM
                (64, gluon_tiles.Config(128, 2, True, 216, q_buffers=2, consumers=1, ctas_per_sm=2)),
                # causal tiles in chunks of adjacent query tiles (gluon_state.tile_of's index arithmetic)
                (128, replace(gluon_tiles.default_config(128), q_chunk=gluon_tiles.Q_CHUNKS[-1]))]
# one kernel per head dim that runs in a wider tile (head_dims.py; each compile is 10-20 CPU-s): 80 causal (the
# diagonal blocks' masks), 96 dense with the split last waves (the partial accumulators 128 wide), 192 dense at its
# default config (one Q buffer, 64-key blocks: 256-wide tiles)
WIDER_TILES = [(80, gluon_tiles.default_config(80), True),
               (96, replace(gluon_tiles.default_config(96), split=True), False),
               (192, gluon_tiles.default_config(192), False)]
# the band path's variants: (per-batch key ranges: padding, per-row key intervals: documents)
BAND_VARIANTS = {"window": (False, False), "window+padding": (True, False), "documents": (False, True)}


def sm90_id(x) -> str:
    if isinstance(x, bool):
        return "causal" if x else "dense"
    return x.label() if hasattr(x, "label") else f"D{x}"


def band_cases() -> list:
    """Every candidate config at head dims 64 and 128 (those tune picks from: the causal list) x each variant:
    pytest params (head_dim, ranges, rows, cfg)."""
    return [pytest.param(head_dim, ranges, rows, cfg, id=f"{head_dim}-{variant}-{cfg.label()}")
            for head_dim in (64, 128) for variant, (ranges, rows) in BAND_VARIANTS.items()
            for cfg in gluon_tiles.candidate_configs(head_dim, causal=True)]


@functools.lru_cache(maxsize=None)
def compile_sm90(head_dim: int, cfg: gluon_tiles.Config, causal: bool = False, band: bool = False,
                 ranges: bool = False, rows: bool = False):
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
           "BAND": "constexpr", "RANGES": "constexpr", "ROWS": "constexpr", "Q_CHUNK": "constexpr"}
    src = GluonASTSource(fn=gluon_kernel.attn_fwd_ws_kernel, signature=sig, constexprs={
        "HEAD_DIM": head_dim, "BLOCK_D": width, "BLOCK_N": cfg.block_n, "STAGES": cfg.stages, "OVERLAP": cfg.overlap,
        "CONSUMER_REGS": cfg.consumer_regs, "CAUSAL": causal, "Q_BUFS": cfg.q_buffers,
        "N_CONS": cfg.consumers, "SPLIT": cfg.split and not causal and not band, "BAND": band, "RANGES": ranges,
        "ROWS": rows, "Q_CHUNK": cfg.q_chunk if causal and not band else 1})
    # what launch() passes: two CTAs per SM need 128 registers a thread
    return triton.compile(src, target=GPUTarget("cuda", 90, 32), options=gluon_tiles.launch_options(cfg))


def compile_all(cases: list[tuple]) -> None:
    """compile_sm90 of each case at once, a thread a core: most of a compile is Triton's LLVM lowering and ptxas
    (about 5 s a kernel; cold, 4 configs: 13.4 s one after another, 7.4 s in two threads on a 2-core machine); the
    tests then read the cache. Under pytest-xdist nothing is compiled ahead: each test compiles its own kernel, the
    workers being the parallelism (a module fixture runs again on each worker that takes one of its tests, which
    compiled every kernel of the module twice)."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        return
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        list(pool.map(lambda case: compile_sm90(*case), cases))


def resource_usage(kernel) -> dict:
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "k.cubin")
        with open(path, "wb") as f:
            f.write(kernel.asm["cubin"])
        out = subprocess.run([os.path.join(BIN, "cuobjdump"), "--dump-resource-usage", path], capture_output=True,
                             text=True, timeout=60, check=True).stdout
    m = re.search(r"REG:(\d+) STACK:(\d+) SHARED:\d+ LOCAL:(\d+)", out)
    assert m, out
    return {"reg": int(m[1]), "stack": int(m[2]), "local": int(m[3])}


def stale_descriptor_reads(kernel) -> list:
    """The kernel's wgmmas that read a descriptor register some path leaves unwritten (tests/sass_defs.py: Triton
    3.6's ptxas did so in the serial band path, an illegal address on the H100)."""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "k.cubin")
        with open(path, "wb") as f:
            f.write(kernel.asm["cubin"])
        sass = subprocess.run([os.path.join(BIN, "nvdisasm"), "-c", path], capture_output=True, text=True,
                              timeout=120, check=True).stdout
    return sass_defs.undefined_descriptor_reads(sass)


def spills_here(head_dim: int, cfg: gluon_tiles.Config, causal: bool) -> bool:
    """What this Triton's ptxas is known to spill (the H100 image's 3.6 does not): skipped by the checks."""
    return (cfg.consumers != 2 or head_dim == 256) and causal and not triton.__version__.startswith("3.6")


def check_sm90(head_dim: int, cfg: gluon_tiles.Config, causal: bool) -> None:
    """The kernel (no band) must fit in registers (no local memory, no stack) and shared memory, be warp
    specialised (setmaxnreg) and, in the overlap configs, keep PV in flight while softmax runs (wgmma wait 1)."""
    if spills_here(head_dim, cfg, causal):
        # the H100 image's Triton 3.6 keeps them in registers; tests/gpu/test_gluon_fa.py checks every config there
        pytest.skip(f"Triton {triton.__version__}'s ptxas spills the causal kernels of 192- and 64-row tiles "
                    "(32 and 24 B of stack) and, with the output staged in Q, of head dim 256 (32 B)")
    check_sm90_kernel(compile_sm90(head_dim, cfg, causal), cfg)


def check_sm90_kernel(kernel, cfg: gluon_tiles.Config) -> None:
    """No spills, within shared memory, no stale wgmma descriptor, warp specialised with cfg's registers, PV in
    flight where cfg overlaps, the output stored by TMA (one Q buffer: the store read before the buffer is freed)."""
    usage = resource_usage(kernel)
    assert usage["local"] == 0 and usage["stack"] == 0, usage
    assert kernel.metadata.shared <= HOPPER_SMEM
    assert not stale_descriptor_reads(kernel)
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


def check_band(head_dim: int, ranges: bool, rows: bool, cfg: gluon_tiles.Config) -> None:
    """The band path (sliding windows, padding; per-row key intervals: documents) of a config: no stack, no local
    memory, within shared memory, no wgmma reading a descriptor some path leaves unwritten (Triton 3.6's serial
    band kernels did), PV still in flight while a partial block's softmax runs (wgmma wait 1) where the config
    overlaps."""
    # Triton 3.9's ptxas keeps 8 B of stack in the overlapped head-dim-64 band kernels (no .local in the PTX; not
    # the producer's registers: 232 for the consumers gave it too); tests/gpu/test_own_masks.py checks spills of
    # every band config with the H100's Triton
    stack = 8 if head_dim == 64 and not triton.__version__.startswith("3.6") else 0
    kernel = compile_sm90(head_dim, cfg, False, True, ranges, rows)   # positional: the key compile_all cached
    usage = resource_usage(kernel)
    stale = stale_descriptor_reads(kernel)
    assert not (usage["local"] or usage["stack"] > stack or kernel.metadata.shared > HOPPER_SMEM or stale), \
        (cfg.label(), usage, kernel.metadata.shared, [hex(offset) for offset, _, _ in stale])
    waits = set(re.findall(r"wgmma\.wait_group\.sync\.aligned\s+(\d+)", kernel.asm["ptx"]))
    assert ("1" in waits) == cfg.overlap, (cfg.label(), waits)
