"""The Gluon kernel's state, bundled as Triton's own Gluon attention example bundles it (`aggregate`): the shared
memory and its barriers (Buffers), the sizes and compile-time config (Problem), where results go (Output); the
register layouts of the wgmma tiles; and the tile index arithmetic every partition shares.

No `from __future__ import annotations` here: Triton 3.6 type-checks aggregate fields against the raw annotations,
which must be classes, not strings."""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import tma
from triton.experimental.gluon.language.nvidia.hopper.tma import tensor_descriptor

from .gluon_tiles import ROWS_PER_CONSUMER as _ROWS

# Triton 3.6 (the H100 machine) exports `aggregate` only as triton.language.core._aggregate (its own Gluon code
# imports it so) and names the TMA copies async_copy_global_to_shared / _shared_to_global; later releases export
# gluon.aggregate and name the copies async_load / async_store
if hasattr(gluon, "aggregate"):
    aggregate = gluon.aggregate
else:
    from triton.language.core import _aggregate as aggregate
tma_load = getattr(tma, "async_load", None) or tma.async_copy_global_to_shared
tma_store = getattr(tma, "async_store", None) or tma.async_copy_shared_to_global
ROWS_PER_CONSUMER = gl.constexpr(_ROWS)
# a run-time integer argument: Triton specialises one equal to 1 into a constant
Scalar = gl.tensor | gl.constexpr


@gluon.constexpr_function
def _scalar(x):
    """A run-time argument as a field: constexpr_function hands constants over unwrapped."""
    return x if isinstance(x, gl.tensor) else gl.constexpr(x)


@gluon.constexpr_function
def _fields(bundle, values):
    """Sets a bundle's fields from a dict (Triton 3.6 generates no __init__ for an aggregate; a dict, as a
    constexpr_function unwraps constexpr arguments)."""
    for name, value in values.items():
        setattr(bundle, name, value)


@aggregate
class Buffers:
    """Shared memory: Q_BUFS tiles of N_CONS 64-row Q pieces (one per consumer), the K and V rings of STAGES key
    blocks, and the mbarriers that hand each over (ready: loaded; free: every consumer is done with it)."""
    q: gl.shared_memory_descriptor
    k: gl.shared_memory_descriptor
    v: gl.shared_memory_descriptor
    q_ready: gl.shared_memory_descriptor
    q_free: gl.shared_memory_descriptor
    k_ready: gl.shared_memory_descriptor
    k_free: gl.shared_memory_descriptor
    v_ready: gl.shared_memory_descriptor
    v_free: gl.shared_memory_descriptor

    @gluon.constexpr_function
    def __init__(self, q, k, v, q_ready, q_free, k_ready, k_free, v_ready, v_free):
        _fields(self, dict(q=q, k=k, v=v, q_ready=q_ready, q_free=q_free, k_ready=k_ready, k_free=k_free,
                           v_ready=v_ready, v_free=v_free))


@aggregate
class Problem:
    """Run-time sizes (H query heads, GROUP query heads per kv head, N_Q / N_KV rows a head, n_m query tiles a head,
    n_tiles in all, n_dp of them done whole, epoch: the launch's counter set) and the config compiled in."""
    H: Scalar
    GROUP: Scalar
    N_Q: Scalar
    N_KV: Scalar
    n_m: Scalar
    n_tiles: Scalar
    n_dp: Scalar
    epoch: Scalar
    HEAD_DIM: gl.constexpr
    BLOCK_D: gl.constexpr
    BLOCK_N: gl.constexpr
    STAGES: gl.constexpr
    OVERLAP: gl.constexpr
    CAUSAL: gl.constexpr
    Q_BUFS: gl.constexpr
    N_CONS: gl.constexpr
    SPLIT: gl.constexpr
    TILE_M: gl.constexpr
    LEFT: Scalar
    RIGHT: Scalar
    KV_RANGE: gl.tensor
    ROW_KEYS: gl.tensor
    SCHED: gl.tensor
    BAND: gl.constexpr
    RANGES: gl.constexpr
    ROWS: gl.constexpr
    Q_CHUNK: gl.constexpr

    @gluon.constexpr_function
    def __init__(self, H, GROUP, N_Q, N_KV, n_m, n_tiles, n_dp, epoch, HEAD_DIM, BLOCK_D, BLOCK_N, STAGES, OVERLAP,
                 CAUSAL, Q_BUFS, N_CONS, SPLIT, LEFT, RIGHT, KV_RANGE, ROW_KEYS, SCHED, BAND, RANGES, ROWS, Q_CHUNK):
        """LEFT, RIGHT, KV_RANGE (per batch (lo, hi) int32, read only when RANGES), BAND: mask_schedule's band;
        ROWS: key intervals, ROW_KEYS (B, N_Q, 2) int32 per row, SCHED the table per 64 rows (key_intervals).
        Q_CHUNK: the causal tile order's chunk (tile_of).
        HEAD_DIM: the columns of Q, K, V and O; BLOCK_D: the tiles' width (head_dims.block_d), the columns past
        HEAD_DIM TMA's zeros, never stored."""
        scalars = dict(H=H, GROUP=GROUP, N_Q=N_Q, N_KV=N_KV, n_m=n_m, n_tiles=n_tiles, n_dp=n_dp, epoch=epoch,
                       LEFT=LEFT, RIGHT=RIGHT)
        config = dict(HEAD_DIM=HEAD_DIM, BLOCK_D=BLOCK_D, BLOCK_N=BLOCK_N, STAGES=STAGES, OVERLAP=OVERLAP,
                      CAUSAL=CAUSAL, Q_BUFS=Q_BUFS, N_CONS=N_CONS, SPLIT=SPLIT, TILE_M=N_CONS * _ROWS, BAND=BAND,
                      RANGES=RANGES, ROWS=ROWS, Q_CHUNK=Q_CHUNK)
        _fields(self, {**{k: _scalar(x) for k, x in scalars.items()}, **{k: gl.constexpr(x) for k, x in config.items()},
                       "KV_RANGE": KV_RANGE, "ROW_KEYS": ROW_KEYS, "SCHED": SCHED})


@aggregate
class Output:
    """Where a consumer's results go: O (through desc_o's TMA store or, for a head's ragged last rows, its strides),
    the log-sum-exp LSE, and the split tail's partial state (WS, STATS) and counters (FLAGS)."""
    O: gl.tensor
    desc_o: tensor_descriptor
    LSE: gl.tensor
    WS: gl.tensor
    STATS: gl.tensor
    FLAGS: gl.tensor
    sm_scale: Scalar
    stride_oz: Scalar
    stride_oh: Scalar
    stride_om: Scalar

    @gluon.constexpr_function
    def __init__(self, O, desc_o, LSE, WS, STATS, FLAGS, sm_scale, stride_oz, stride_oh, stride_om):
        _fields(self, dict(O=O, desc_o=desc_o, LSE=LSE, WS=WS, STATS=STATS, FLAGS=FLAGS, sm_scale=_scalar(sm_scale),
                           stride_oz=_scalar(stride_oz), stride_oh=_scalar(stride_oh), stride_om=_scalar(stride_om)))


@gluon.constexpr_function
def mma_layout(n):
    """Registers of a 64 x n wgmma result over one 4-warp consumer (n: BLOCK_N for scores, BLOCK_D for the
    output)."""
    return gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, n, 16])


@gluon.jit
def tile_of(tile, n_hz, prob):
    """(batch*head, query tile index) of a persistent tile. Causal: the longest tiles (the last of each head sees
    the most keys) go first over all heads (n_hz: batch x heads), so each wave of tiles over the CTAs is of about
    one length and the short ones fill the end; odd waves run backwards, so the CTA given one wave's longest tile
    gets the next one's shortest (CTA p takes tiles p, p + G, ...: without it CTA 0 took the longest of every
    wave; measured side by side, FLUX's causal shape 241 -> 221 us, (1,24,16384,128) 2752 -> 2533 us). At head
    dim 256 (and 192, run at 256) that index arithmetic spills (32 B of stack with Triton 3.9), so there each
    head's tiles go longest first, head by head. Q_CHUNK > 1: Q_CHUNK adjacent query tiles of a head together, so
    a wave spans fewer heads (their K/V stays in L2; gluon_tiles.tile_order is the model the tests check)."""
    n_m = prob.n_m
    if prob.CAUSAL:
        if prob.BLOCK_D < 256:
            G = gl.num_programs(0)
            w = tile // G
            if w % 2 == 1:
                tile = gl.minimum(n_m * n_hz, (w + 1) * G) - 1 - (tile - w * G)
            if prob.Q_CHUNK == 1:
                return tile % n_hz, n_m - 1 - tile // n_hz
            else:
                C: gl.constexpr = prob.Q_CHUNK
                chunk = tile // (n_hz * C)
                # at least 1: the producer asks for the tile after its last, past the end (never loaded)
                width = gl.maximum(gl.minimum(n_m - chunk * C, C), 1)
                r = tile - chunk * (n_hz * C)
                return r // width, n_m - 1 - chunk * C - r % width
        return tile // n_m, n_m - 1 - tile % n_m
    return tile // n_m, tile % n_m


@gluon.jit
def key_range(prob, hz):
    """The kept keys [lo, hi) of query head hz's batch: per batch under RANGES (padding), else all."""
    lo = 0
    hi = prob.N_KV
    if prob.RANGES:
        z = hz // prob.H
        lo = gl.load(prob.KV_RANGE + 2 * z)
        hi = gl.load(prob.KV_RANGE + 2 * z + 1)
    return lo, hi


@gluon.jit
def band_blocks(prob, kv_lo, kv_hi, r0, r1):
    """mask_schedule.tile_blocks for query rows r0 .. r1-1: (a, b, c, d), key blocks a..d-1 visited (at least
    one), b..c-1 of them full."""
    BLOCK_N: gl.constexpr = prob.BLOCK_N
    nk = gl.cdiv(prob.N_KV, BLOCK_N)
    a = gl.minimum(gl.maximum(kv_lo, r0 - prob.LEFT) // BLOCK_N, nk - 1)
    d = gl.minimum(gl.maximum(gl.cdiv(gl.minimum(kv_hi, r1 + prob.RIGHT), BLOCK_N), a + 1), nk)
    b = gl.minimum(gl.maximum(gl.cdiv(gl.maximum(kv_lo, r1 - 1 - prob.LEFT), BLOCK_N), a), d)
    c = gl.minimum(gl.maximum(gl.minimum(kv_hi, r0 + prob.RIGHT + 1) // BLOCK_N, b), d)
    return a, b, c, d


@gluon.jit
def rows_entry(prob, z, piece):
    """(a, b, c, d) of 64-row piece `piece` of batch z in the key-interval table (mask_schedule.interval_blocks); a
    piece past the head's last row reads the last one (no row of it is stored)."""
    n_p = gl.cdiv(prob.N_Q, ROWS_PER_CONSUMER)
    e = prob.SCHED + (z * n_p + gl.minimum(piece, n_p - 1)) * 4
    return gl.load(e), gl.load(e + 1), gl.load(e + 2), gl.load(e + 3)


@gluon.jit
def rows_tile(prob, hz, m):
    """(a, d): the key blocks tile m of query head hz visits under key intervals, the union of its consumers'
    (mask_schedule.merge_tile: at least one)."""
    z = hz // prob.H
    a = gl.cdiv(prob.N_KV, prob.BLOCK_N) - 1
    d = a - a
    for c in gl.static_range(prob.N_CONS):
        ea, _b, _c, ed = rows_entry(prob, z, m * prob.N_CONS + c)
        a = gl.minimum(a, ea)
        d = gl.maximum(d, ed)
    return a, gl.maximum(d, a + 1)


@gluon.jit
def row_keys(prob, hz, row0, layout: gl.constexpr):
    """The kept keys [lo, hi) of query rows row0 .. row0 + 63 of hz's batch (rows past N_Q: none)."""
    rows = row0 + gl.arange(0, ROWS_PER_CONSUMER, layout=layout)
    ptr = prob.ROW_KEYS + ((hz // prob.H).to(gl.int64) * prob.N_Q + rows) * 2
    ok = rows < prob.N_Q
    return gl.load(ptr, mask=ok, other=0), gl.load(ptr + 1, mask=ok, other=0)


@gluon.jit
def first_row(m, CONSUMER: gl.constexpr, TILE_M: gl.constexpr):
    """First query row (within its head) of consumer CONSUMER's 64 rows in TILE_M-row tile m."""
    return m * TILE_M + CONSUMER * ROWS_PER_CONSUMER


@gluon.jit
def q_rows(bufs, t, CONSUMER: gl.constexpr, Q_BUFS: gl.constexpr):
    """This consumer's 64 rows of the t-th tile's Q buffer: its QK^T operand, then where its output is staged for
    the TMA store."""
    return bufs.q.index((t % Q_BUFS) * (bufs.q.shape[0] // Q_BUFS) + CONSUMER)
