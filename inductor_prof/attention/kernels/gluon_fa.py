"""Own FlashAttention forward for Hopper in Gluon, Triton's explicit tile language (triton.experimental.gluon).

Plain `tl` code cannot say what the fast Hopper kernels do (measured in scripts/bench_attention.py): Triton's
pipeliner puts CTA-wide barriers around each TMA refill, so both warpgroups run softmax at the same moment while
the tensor cores idle, and its automatic warp specialisation did not help. Gluon lets the kernel state it:

* warp specialisation: a 4-warp producer partition issues TMA loads into K and V rings; two (one or three:
  Config.consumers) 4-warp consumer partitions each own 64 query rows. Stages are handed over with mbarriers,
  never a CTA-wide barrier, so the consumers drift apart and one's softmax runs while another's wgmma does
  (FA3's ping-pong, left to the warp schedulers: named barriers forcing the turns measured no faster at
  (2,32/8,1024,64), 49.1 against 49.2 us with FA3's placement, 53.8 around the exp2s as cuDNN places them; on
  the serial step, cuDNN's whole schedule there, 50.0 against 48.8 for this overlapped loop).
* `OVERLAP`: inside a consumer, QK^T of block j and PV of block j-1 are both in flight; softmax(j) runs after
  `wait(1)` retires only the first (FA3's intra-warpgroup pipelining). K and V have separate rings so the
  K stage of block j and the V stage of block j-1 are released independently.
* persistent grid: one CTA per SM walks tiles, so one tile's epilogue overlaps the next tile's loads.
* output staged in Q: each consumer writes its output into its rows of the tile's Q buffer (dead after its last
  QK^T) for a TMA store. clock64 probes at 4608 queries x 512 keys found register stores of the output ~2.5 us a
  tile and the Q load exposed at each tile's start. Two Q buffers (Config.q_buffers, where shared memory allows:
  head dim <= 128 with two K/V stages): the next tile's Q loads a whole tile ahead and the store runs on while the
  next tile starts. One: the buffer is freed once the store has read it.
* split last waves (Config.split, dense, head dim <= 128): a whole number of waves leaves the last one partly
  idle (FLUX: 864 tiles on 132 SMs, 6.5 waves). The last whole wave and the partial one are cut along the keys
  into one even share per CTA (stream-K's "data-parallel + one wave"); the CTA holding a tile's first key block
  merges the other piece's (acc, max, sum) in registers, handed over through global memory (_RELEASE).
  Compiled in only where a launch splits (SPLIT); other launches walk whole tiles with less index state.
* three consumers (head dim 64): 192-row tiles, FA3's choice there. Softmax's exp2 on the MUFU costs as much
  as the MMAs at head dim 64, and a third warpgroup gives the SM another softmax to run beside the other two's
  MMAs; the tuner picks it from 4,096 tokens up in examples/sweeps/attention-h100.csv (GQA 32/8). Computing
  some exp2s with an FMA polynomial instead (FA4) was slower at every share tried (1 in 8: 50.1 against 49.2 us
  at (2,32/8,1024,64)): each takes 8 instructions, and the MUFU is 43% busy there (ncu). One consumer
  (head dim 256): 64-row tiles, twice as many, where 128-row ones of a short sequence leave SMs idle.
* two CTAs per SM (Config.ctas_per_sm, head dim 64): one consumer each, 128 registers a thread at launch
  (launch_maxnreg), 216 for the consumer. A tile's start and end (first QK^T waited on, last PV, epilogue)
  cost about 2.7 key blocks of a persistent CTA's time at (2,32/8,1024,64), 2.2 in cuDNN's; with two CTAs the
  other one's loop runs beside them. Measured on the H100 against the tuned one-CTA kernel: (2,32/8,1024,64)
  49.5 -> 48.4 us (cuDNN 46.2), 512 tokens 20.1 -> 18.6 (18.0), causal 2,048 99.8 -> 97.7 (102.9). Each CTA
  streams its own K and V, twice the shared-memory fills: at head dim 128 it lost (1,024 tokens 35.8 -> 38.5).
  At head dim 64 that is not the limit (ncu at 1,024 tokens: L2 throughput 24%); its serial step (0.92x of
  cuDNN), 64-key blocks (0.82x) and one Q buffer (0.90x) were slower than the 0.95x config (H100, 2026-11-22).

Any lengths: K/V/Q tiles past a head's end read the next head's rows (or TMA zero fill at the tensor's end);
the last key block is masked, and query rows past the end are never stored. Returns log-sum-exp.
CAUSAL (top-left): the producer loads key blocks up to the tile's last row only; each consumer runs the blocks below
its first row unmasked, then the diagonal ones masked; tiles go longest first over all heads, odd waves backwards
(see _tile). GQA: kv head h // GROUP.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)

# Triton 3.6 (the H100 machine) names the TMA copies async_copy_global_to_shared / _shared_to_global; later
# releases async_load / async_store
_tma_load = getattr(tma, "async_load", None) or tma.async_copy_global_to_shared
_tma_store = getattr(tma, "async_store", None) or tma.async_copy_shared_to_global
ROWS_PER_CONSUMER = gl.constexpr(64)  # one wgmma M per 4-warp consumer


@gluon.jit
def _tile(tile, n_m, n_hz, CAUSAL: gl.constexpr, HEAD_DIM: gl.constexpr):
    """(batch*head, query tile index) of a persistent tile. Causal: the longest tiles (the last of each head sees
    the most keys) go first over all heads (n_hz: batch x heads), so each wave of tiles over the CTAs is of about
    one length and the short ones fill the end; odd waves run backwards, so the CTA given one wave's longest tile
    gets the next one's shortest (CTA p takes tiles p, p + G, ...: without it CTA 0 took the longest of every
    wave; measured side by side, FLUX's causal shape 241 -> 221 us, (1,24,16384,128) 2752 -> 2533 us). At head
    dim 256 that index arithmetic spills (32 B of stack with Triton 3.9), so there each head's tiles go longest
    first, head by head."""
    if CAUSAL:
        if HEAD_DIM < 256:
            G = gl.num_programs(0)
            w = tile // G
            if w % 2 == 1:
                tile = gl.minimum(n_m * n_hz, (w + 1) * G) - 1 - (tile - w * G)
            return tile % n_hz, n_m - 1 - tile // n_hz
        return tile // n_m, n_m - 1 - tile % n_m
    return tile // n_m, tile % n_m


@gluon.jit
def _first_row(m, CONSUMER: gl.constexpr, TILE_M: gl.constexpr):
    """First query row (within its head) of consumer CONSUMER's 64 rows in TILE_M-row tile m."""
    return m * TILE_M + CONSUMER * ROWS_PER_CONSUMER


@gluon.jit
def _kv_row(hz, H, GROUP, N_KV):
    """First row of the K/V head that query head hz % H reads (GQA: head h // GROUP of H // GROUP)."""
    return ((hz // H) * (H // GROUP) + (hz % H) // GROUP) * N_KV


@gluon.jit
def _item(u, nk, base, lo, hi, G):
    """The work item at unit u (a unit: one key block of one 128-row tile; tile t is units t*nk .. t*nk+nk-1):
    (tile, first key block b0, end block b1, the CTA's next unit). Units below `base` are whole tiles, strided
    over the CTAs; from `base` on each CTA owns the contiguous range lo..hi (the split tail)."""
    tile = u // nk
    b0 = u - tile * nk
    b1 = nk
    nxt = u + G * nk
    if nxt >= base:
        nxt = lo
    if u >= base:
        b1 = gl.minimum(nk, b0 + hi - u)
        nxt = u + b1 - b0
    return tile, b0, b1, nxt


@gluon.jit
def _tail_range(n_tiles, n_dp, nk):
    """(base, lo, hi): the split tail's first unit and this CTA's share of it, an even cut of the units left
    after the n_dp whole tiles."""
    G = gl.num_programs(0)
    pid = gl.program_id(0)
    base = n_dp * nk
    n_units = (n_tiles - n_dp) * nk
    return base, base + (pid * n_units) // G, base + ((pid + 1) * n_units) // G


@gluon.jit
def _load_q(desc_q, q_smem, q_ready, q_free, hz, m, t, N_Q, Q_BUFS: gl.constexpr):
    """Q of tile (hz, m), the t-th this CTA takes, into buffer t % Q_BUFS once every consumer freed it (see
    _free_q): one 64-row load per consumer (TMA boxes and Gluon's shared tiles take powers of two, not 192)."""
    N_CONS: gl.constexpr = q_smem.shape[0] // Q_BUFS
    b = t % Q_BUFS
    mbarrier.wait(q_free.index(b), ((t // Q_BUFS) & 1) ^ 1)  # a fresh barrier passes a wait on phase 1
    mbarrier.expect(q_ready.index(b), N_CONS * desc_q.block_type.nbytes)
    for c in gl.static_range(N_CONS):
        _tma_load(desc_q, [hz * N_Q + (m * N_CONS + c) * ROWS_PER_CONSUMER, 0], q_ready.index(b),
                  q_smem.index(b * N_CONS + c))


@gluon.jit
def _load_kv(desc_k, desc_v, k_smem, v_smem, k_ready, k_free, v_ready, v_free, row, i, STAGES: gl.constexpr):
    """Key block at K/V row `row` into ring slot i % STAGES; returns i + 1."""
    s = i % STAGES
    free_phase = ((i // STAGES) & 1) ^ 1
    mbarrier.wait(k_free.index(s), free_phase)
    mbarrier.expect(k_ready.index(s), desc_k.block_type.nbytes)
    _tma_load(desc_k, [row, 0], k_ready.index(s), k_smem.index(s))
    mbarrier.wait(v_free.index(s), free_phase)
    mbarrier.expect(v_ready.index(s), desc_v.block_type.nbytes)
    _tma_load(desc_v, [row, 0], v_ready.index(s), v_smem.index(s))
    return i + 1


@gluon.jit
def _produce_tile(desc_q, desc_k, desc_v, q_smem, k_smem, v_smem, q_ready, q_free, k_ready, k_free, v_ready,
                  v_free, hz, m, b0, b1, i, t, next_hz, next_m, has_next, H, GROUP, N_KV, N_Q, BLOCK_N: gl.constexpr,
                  STAGES: gl.constexpr, CAUSAL: gl.constexpr, Q_BUFS: gl.constexpr):
    """The tile's key blocks b0 .. b1-1 (causal: up to the tile's last row) into the rings, and its Q. One Q
    buffer: the tile's own Q goes first. Two: the next tile's Q goes a tile ahead (its latency under load is
    several microseconds), after the first STAGES key blocks, the ones whose ring slots free up before this tile
    starts: waiting for the Q buffer (freed once this tile starts) before them stalled its second block (FLUX
    388 -> 383 us, 4608 queries x 512 keys 70.0 -> 62.8 us; device run 4)."""
    TILE_M: gl.constexpr = q_smem.shape[0] // Q_BUFS * ROWS_PER_CONSUMER
    kv_row = _kv_row(hz, H, GROUP, N_KV)
    n_kv = gl.minimum(N_KV, b1 * BLOCK_N)
    if CAUSAL:  # key blocks past the tile's last row are never loaded
        n_kv = gl.minimum(N_KV, (m + 1) * TILE_M)
    if Q_BUFS == 1:
        _load_q(desc_q, q_smem, q_ready, q_free, hz, m, t, N_Q, Q_BUFS)
    q_at = gl.minimum((b0 + STAGES - 1) * BLOCK_N, ((n_kv - 1) // BLOCK_N) * BLOCK_N)
    for start_n in range(b0 * BLOCK_N, n_kv, BLOCK_N):
        i = _load_kv(desc_k, desc_v, k_smem, v_smem, k_ready, k_free, v_ready, v_free, kv_row + start_n, i, STAGES)
        if Q_BUFS == 2:
            if has_next & (start_n == q_at):
                _load_q(desc_q, q_smem, q_ready, q_free, next_hz, next_m, t + 1, N_Q, Q_BUFS)
    return i, t + 1


@gluon.jit
def _producer(desc_q, desc_k, desc_v, q_smem, k_smem, v_smem, q_ready, q_free, k_ready, k_free, v_ready, v_free,
              FLAGS, epoch, H, GROUP, N_Q, N_KV, n_m, n_tiles, n_dp, BLOCK_N: gl.constexpr,
              STAGES: gl.constexpr, CAUSAL: gl.constexpr, Q_BUFS: gl.constexpr, SPLIT: gl.constexpr):
    i = 0  # key blocks issued so far, across tiles: ring slot i % STAGES, lap i // STAGES
    t = 0  # tiles started
    n_hz = n_tiles // n_m
    nk = gl.cdiv(N_KV, BLOCK_N)
    HEAD_DIM: gl.constexpr = desc_q.block_type.shape[1]
    G = gl.num_programs(0)
    if not SPLIT:  # whole tiles, strided over the CTAs
        hz, m = _tile(gl.program_id(0), n_m, n_hz, CAUSAL, HEAD_DIM)
        if Q_BUFS == 2:
            if gl.program_id(0) < n_tiles:
                _load_q(desc_q, q_smem, q_ready, q_free, hz, m, 0, N_Q, Q_BUFS)
        for tile in range(gl.program_id(0), n_tiles, G):
            next_hz, next_m = _tile(tile + G, n_m, n_hz, CAUSAL, HEAD_DIM)
            i, t = _produce_tile(desc_q, desc_k, desc_v, q_smem, k_smem, v_smem, q_ready, q_free, k_ready, k_free,
                                 v_ready, v_free, hz, m, 0, nk, i, t, next_hz, next_m, tile + G < n_tiles, H, GROUP,
                                 N_KV, N_Q, BLOCK_N, STAGES, CAUSAL, Q_BUFS)
            hz = next_hz
            m = next_m
    else:
        # this CTA's counters (one per consumer) in the set the next launch uses (see _RELEASE)
        N_CONS: gl.constexpr = q_smem.shape[0] // Q_BUFS
        four: gl.constexpr = gl.BlockedLayout([1], [32], [4], [0])
        c = gl.arange(0, 4, four)
        gl.store(FLAGS + ((epoch + 1) % 2) * (N_CONS * G) + gl.program_id(0) * N_CONS + c,
                 gl.zeros([4], gl.int32, four), mask=c < N_CONS)
        base, lo, hi = _tail_range(n_tiles, n_dp, nk)
        u = gl.program_id(0) * nk
        if gl.program_id(0) >= n_dp:
            u = lo
        # the item at u and the one after it (whose Q is loaded during this one)
        tile, b0, b1, nxt = _item(u, nk, base, lo, hi, G)
        hz, m = _tile(tile, n_m, n_hz, CAUSAL, HEAD_DIM)
        if Q_BUFS == 2:
            if u < hi:
                _load_q(desc_q, q_smem, q_ready, q_free, hz, m, 0, N_Q, Q_BUFS)
        while u < hi:
            next_tile, next_b0, next_b1, after = _item(nxt, nk, base, lo, hi, G)
            next_hz, next_m = _tile(next_tile, n_m, n_hz, CAUSAL, HEAD_DIM)
            i, t = _produce_tile(desc_q, desc_k, desc_v, q_smem, k_smem, v_smem, q_ready, q_free, k_ready, k_free,
                                 v_ready, v_free, hz, m, b0, b1, i, t, next_hz, next_m, nxt < hi, H, GROUP, N_KV,
                                 N_Q, BLOCK_N, STAGES, CAUSAL, Q_BUFS)
            u = nxt
            nxt = after
            b0 = next_b0
            b1 = next_b1
            hz = next_hz
            m = next_m



@gluon.jit
def _softmax_block(s, m_i, l_i, qk_scale, n_valid, diag, MASK: gl.constexpr, CAUSAL: gl.constexpr,
                   BLOCK_N: gl.constexpr, s_layout: gl.constexpr):
    """Online softmax of one score block in base 2; returns (p, alpha, m_new, l_new). MASK: columns from n_valid
    on get no weight, and with CAUSAL so do those past diag + the row (row r sees block column c <= diag + r)."""
    if MASK:
        cols = gl.arange(0, BLOCK_N, layout=gl.SliceLayout(0, s_layout))
        if CAUSAL:  # one limit per row: min(n_valid, diag + row + 1), one compare per score
            rows = gl.arange(0, s.shape[0], layout=gl.SliceLayout(1, s_layout))
            s = gl.where(cols[None, :] < gl.minimum(diag + 1 + rows, n_valid)[:, None], s, float("-inf"))
        else:
            s = gl.where(cols[None, :] < n_valid, s, float("-inf"))
    # max of the raw scores, scaled once per row: qk_scale > 0, and qk*scale - m fuses into one FMA
    m_new = gl.maximum(m_i, gl.max(s, axis=1) * qk_scale)
    p = gl.exp2(s * qk_scale - m_new[:, None])
    alpha = gl.exp2(m_i - m_new)
    l_new = l_i * alpha + gl.sum(p, axis=1)
    return p, alpha, m_new, l_new


@gluon.jit
def _overlap_step(q, k_smem, v_smem, k_ready, k_free, v_ready, v_free, acc, p_op, m_i, l_i, qk_scale, i, j, masked,
                  N_KV, tail, row0, MASK_MODE: gl.constexpr, CAUSAL: gl.constexpr, BLOCK_M: gl.constexpr,
                  BLOCK_N: gl.constexpr, STAGES: gl.constexpr, dtype: gl.constexpr, s_layout: gl.constexpr,
                  o_rows: gl.constexpr, p_layout: gl.constexpr, IN_FLIGHT: gl.constexpr = 1):
    """Key block j of the overlapped loop: QK^T(j) issued beside PV(j-1), softmax(j) while PV runs (IN_FLIGHT=1;
    0: PV retired first). MASK_MODE: 0 no mask, 1 masked, 2 masked where the run-time `masked` says (the dense
    kernel's ragged last block, `tail` valid columns)."""
    k_idx = (i + j) % STAGES
    v_idx = (i + j - 1) % STAGES
    mbarrier.wait(k_ready.index(k_idx), ((i + j) // STAGES) & 1)
    s = warpgroup_mma(q, k_smem.index(k_idx).permute((1, 0)),
                      gl.zeros([BLOCK_M, BLOCK_N], gl.float32, layout=s_layout), use_acc=False,
                      is_async=True)
    mbarrier.wait(v_ready.index(v_idx), ((i + j - 1) // STAGES) & 1)
    acc = warpgroup_mma(p_op, v_smem.index(v_idx), acc, is_async=True)
    s = warpgroup_mma_wait(IN_FLIGHT, deps=[s])  # scores ready; PV(j-1) still runs
    mbarrier.arrive(k_free.index(k_idx))
    if MASK_MODE == 2:
        if masked:
            p, alpha, m_i, l_i = _softmax_block(s, m_i, l_i, qk_scale, tail, row0, True, CAUSAL, BLOCK_N, s_layout)
        else:
            p, alpha, m_i, l_i = _softmax_block(s, m_i, l_i, qk_scale, N_KV, row0, False, CAUSAL, BLOCK_N, s_layout)
    else:
        p, alpha, m_i, l_i = _softmax_block(s, m_i, l_i, qk_scale, N_KV - j * BLOCK_N, row0 - j * BLOCK_N,
                                            MASK_MODE == 1, CAUSAL, BLOCK_N, s_layout)
    acc = warpgroup_mma_wait(0, deps=[acc])
    mbarrier.arrive(v_free.index(v_idx))
    acc = acc * gl.convert_layout(alpha, o_rows)[:, None]
    p_op = gl.convert_layout(p.to(dtype), p_layout)
    return acc, p_op, m_i, l_i


@gluon.jit
def _serial_step(q, k_smem, v_smem, k_ready, k_free, v_ready, v_free, acc, m_i, l_i, qk_scale, i, j, n_valid, diag,
                 MASK: gl.constexpr, CAUSAL: gl.constexpr, BLOCK_M: gl.constexpr, BLOCK_N: gl.constexpr,
                 STAGES: gl.constexpr, dtype: gl.constexpr, s_layout: gl.constexpr, o_rows: gl.constexpr,
                 p_layout: gl.constexpr):
    """Key block j without overlap: QK^T, softmax (MASK: see _softmax_block), PV, each retired before the next."""
    idx = (i + j) % STAGES
    phase = ((i + j) // STAGES) & 1
    mbarrier.wait(k_ready.index(idx), phase)
    s = warpgroup_mma(q, k_smem.index(idx).permute((1, 0)),
                      gl.zeros([BLOCK_M, BLOCK_N], gl.float32, layout=s_layout), use_acc=False, is_async=True)
    s = warpgroup_mma_wait(0, deps=[s])
    mbarrier.arrive(k_free.index(idx))
    p, alpha, m_i, l_i = _softmax_block(s, m_i, l_i, qk_scale, n_valid, diag, MASK, CAUSAL, BLOCK_N, s_layout)
    acc = acc * gl.convert_layout(alpha, o_rows)[:, None]
    mbarrier.wait(v_ready.index(idx), phase)
    acc = warpgroup_mma(gl.convert_layout(p.to(dtype), p_layout), v_smem.index(idx), acc, is_async=True)
    acc = warpgroup_mma_wait(0, deps=[acc])
    mbarrier.arrive(v_free.index(idx))
    return acc, m_i, l_i


@gluon.jit
def _free_q(q_free, t, Q_BUFS: gl.constexpr):
    """Two Q buffers: a buffer holds its tile's output until the TMA store has read it, so the previous tile's is
    freed during this one (after its first QK^T), once that store is done."""
    if Q_BUFS == 2:
        tma.store_wait(0)
        mbarrier.arrive(q_free.index((t + 1) % 2), pred=t > 0)


@gluon.jit
def _free_single_q(q_free, Q_BUFS: gl.constexpr):
    """One Q buffer: freed once this consumer's output store has read it. Freeing it before the epilogue (after
    the last QK^T) and storing from registers was 0.90x of cuDNN at (1,8,2048,256); staged, 1.00x (H100)."""
    if Q_BUFS == 1:
        tma.store_wait(0)
        mbarrier.arrive(q_free.index(0))


@gluon.jit
def _q_rows(q_smem, t, CONSUMER: gl.constexpr, Q_BUFS: gl.constexpr):
    """This consumer's 64 rows of the t-th tile's Q buffer: its QK^T operand, then where its output is staged for
    the TMA store."""
    return q_smem.index((t % Q_BUFS) * (q_smem.shape[0] // Q_BUFS) + CONSUMER)


@gluon.jit
def _consume_tile(q_smem, k_smem, v_smem, q_ready, q_free, k_ready, k_free, v_ready, v_free, m, b0, b1, nk, i, t,
                  qk_scale, N_KV, CONSUMER: gl.constexpr, HEAD_DIM: gl.constexpr, BLOCK_N: gl.constexpr,
                  STAGES: gl.constexpr, OVERLAP: gl.constexpr, CAUSAL: gl.constexpr, Q_BUFS: gl.constexpr):
    """This consumer's 64 rows of tile row m over key blocks b0 .. b1-1 (causal: up to its diagonal):
    (unnormalised acc, running max in base 2, row sums, blocks consumed, tiles consumed)."""
    BLOCK_M: gl.constexpr = ROWS_PER_CONSUMER
    dtype: gl.constexpr = q_smem.dtype
    s_layout: gl.constexpr = gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1],
                                                       instr_shape=[16, BLOCK_N, 16])
    o_layout: gl.constexpr = gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1],
                                                       instr_shape=[16, HEAD_DIM, 16])
    p_layout: gl.constexpr = gl.DotOperandLayout(operand_index=0, parent=o_layout, k_width=2)
    o_rows: gl.constexpr = gl.SliceLayout(1, o_layout)
    n_blocks = b1 - b0
    n_plain = nk - 1 - b0  # blocks before the first that needs a mask (here: the ragged last one)
    tail = N_KV - (nk - 1) * BLOCK_N  # valid columns in the last block
    TILE_M: gl.constexpr = q_smem.shape[0] // Q_BUFS * ROWS_PER_CONSUMER
    q = _q_rows(q_smem, t, CONSUMER, Q_BUFS)
    row0 = _first_row(m, CONSUMER, TILE_M)
    if CAUSAL:
        # every consumer takes every block the producer loads for the tile; masks start at the first block
        # reaching past this consumer's first row
        n_blocks = gl.cdiv(gl.minimum(N_KV, (m + 1) * TILE_M), BLOCK_N)
        n_plain = gl.minimum(N_KV // BLOCK_N, (row0 + 1) // BLOCK_N)
    mbarrier.wait(q_ready.index(t % Q_BUFS), (t // Q_BUFS) & 1)
    m_i = gl.full([BLOCK_M], float("-inf"), gl.float32, layout=gl.SliceLayout(1, s_layout))
    l_i = gl.zeros([BLOCK_M], gl.float32, layout=gl.SliceLayout(1, s_layout))
    acc = gl.zeros([BLOCK_M, HEAD_DIM], gl.float32, layout=o_layout)
    if OVERLAP:
        # block 0: scores and softmax; its PV is issued together with block 1's scores
        s_idx = i % STAGES
        mbarrier.wait(k_ready.index(s_idx), (i // STAGES) & 1)
        s = warpgroup_mma(q, k_smem.index(s_idx).permute((1, 0)),
                          gl.zeros([BLOCK_M, BLOCK_N], gl.float32, layout=s_layout), use_acc=False,
                          is_async=True)
        s = warpgroup_mma_wait(0, deps=[s])
        mbarrier.arrive(k_free.index(s_idx))
        _free_q(q_free, t, Q_BUFS)
        if n_plain == 0:
            p, alpha, m_i, l_i = _softmax_block(s, m_i, l_i, qk_scale, N_KV if CAUSAL else tail, row0, True,
                                                CAUSAL, BLOCK_N, s_layout)
        else:
            p, alpha, m_i, l_i = _softmax_block(s, m_i, l_i, qk_scale, N_KV, row0, False, CAUSAL, BLOCK_N,
                                                s_layout)
        p_op = gl.convert_layout(p.to(dtype), p_layout)
        if CAUSAL:  # the unmasked blocks, then the diagonal ones: no branch in either loop
            # at D = 256 the mask's registers do not fit beside an in-flight PV: retire it first there
            DIAG_IN_FLIGHT: gl.constexpr = 0 if HEAD_DIM > 128 else 1
            split = gl.maximum(n_plain, 1)
            for j in range(1, split):
                acc, p_op, m_i, l_i = _overlap_step(
                    q, k_smem, v_smem, k_ready, k_free, v_ready, v_free, acc, p_op, m_i, l_i, qk_scale, i, j,
                    False, N_KV, 0, row0, 0, CAUSAL, BLOCK_M, BLOCK_N, STAGES, dtype, s_layout, o_rows, p_layout)
            for j in range(split, n_blocks):
                acc, p_op, m_i, l_i = _overlap_step(
                    q, k_smem, v_smem, k_ready, k_free, v_ready, v_free, acc, p_op, m_i, l_i, qk_scale, i, j,
                    True, N_KV, 0, row0, 1, CAUSAL, BLOCK_M, BLOCK_N, STAGES, dtype, s_layout, o_rows, p_layout,
                    DIAG_IN_FLIGHT)
        else:
            for j in range(1, n_blocks):
                acc, p_op, m_i, l_i = _overlap_step(
                    q, k_smem, v_smem, k_ready, k_free, v_ready, v_free, acc, p_op, m_i, l_i, qk_scale, i, j,
                    j >= n_plain, N_KV, tail, row0, 2, CAUSAL, BLOCK_M, BLOCK_N, STAGES, dtype, s_layout, o_rows,
                    p_layout)
        v_idx = (i + n_blocks - 1) % STAGES
        mbarrier.wait(v_ready.index(v_idx), ((i + n_blocks - 1) // STAGES) & 1)
        acc = warpgroup_mma(p_op, v_smem.index(v_idx), acc, is_async=True)
        acc = warpgroup_mma_wait(0, deps=[acc])
        mbarrier.arrive(v_free.index(v_idx))
    else:
        _free_q(q_free, t, Q_BUFS)
        for j in range(0, n_blocks):
            if j >= n_plain:  # dense: the ragged last block; causal: the diagonal ones
                acc, m_i, l_i = _serial_step(q, k_smem, v_smem, k_ready, k_free, v_ready, v_free, acc, m_i, l_i,
                                             qk_scale, i, j, N_KV - j * BLOCK_N if CAUSAL else tail,
                                             row0 - j * BLOCK_N, True, CAUSAL, BLOCK_M, BLOCK_N, STAGES, dtype,
                                             s_layout, o_rows, p_layout)
            else:
                acc, m_i, l_i = _serial_step(q, k_smem, v_smem, k_ready, k_free, v_ready, v_free, acc, m_i, l_i,
                                             qk_scale, i, j, N_KV, row0, False, CAUSAL, BLOCK_M, BLOCK_N, STAGES,
                                             dtype, s_layout, o_rows, p_layout)
    return acc, m_i, l_i, i + n_blocks, t + 1



# Split tail: a piece that does not start its tile stores its partial state in its CTA's slot, then each of the
# consumer's 128 threads adds 1 to the slot's counter with release semantics; the owner (the CTA holding the
# tile's first key block) acquires 128 and merges the slot into its registers. Counters come in two sets, used
# by alternate launches: each launch zeroes the set the next one uses.
_RELEASE = gl.constexpr("red.release.gpu.global.add.s32 [$1], 1;\nmov.b32 $0, 0;")
_ACQUIRE = gl.constexpr("{\n.reg .pred %spin_p;\n.reg .b32 %spin_v;\nspin_wait:\n"
                        "ld.acquire.gpu.global.b32 %spin_v, [$1];\nsetp.lt.s32 %spin_p, %spin_v, 128;\n"
                        "@%spin_p bra spin_wait;\nmov.b32 $0, 0;\n}")


@gluon.jit
def _partial_ptrs(WS, STATS, slot, HEAD_DIM: gl.constexpr, BLOCK_N: gl.constexpr):
    """(acc, max, sum) of slot `slot`: acc in the accumulator's register layout, the statistics in its rows'."""
    BLOCK_M: gl.constexpr = ROWS_PER_CONSUMER
    o_layout: gl.constexpr = gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1],
                                                       instr_shape=[16, HEAD_DIM, 16])
    s_layout: gl.constexpr = gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1],
                                                       instr_shape=[16, BLOCK_N, 16])
    rows = gl.arange(0, BLOCK_M, layout=gl.SliceLayout(1, o_layout))
    cols = gl.arange(0, HEAD_DIM, layout=gl.SliceLayout(0, o_layout))
    stat_rows = gl.arange(0, BLOCK_M, layout=gl.SliceLayout(1, s_layout))
    m_ptrs = STATS + slot * (2 * BLOCK_M) + stat_rows
    return WS + slot * (BLOCK_M * HEAD_DIM) + rows[:, None] * HEAD_DIM + cols[None, :], m_ptrs, m_ptrs + BLOCK_M


@gluon.jit
def _write_partial(WS, STATS, counter, slot, acc, m_i, l_i, HEAD_DIM: gl.constexpr, BLOCK_N: gl.constexpr):
    per_thread: gl.constexpr = gl.BlockedLayout([1], [32], [4], [0])  # one element in each of the 128 threads
    acc_ptrs, m_ptrs, l_ptrs = _partial_ptrs(WS, STATS, slot, HEAD_DIM, BLOCK_N)
    gl.store(acc_ptrs, acc)
    gl.store(m_ptrs, m_i)
    gl.store(l_ptrs, l_i)
    gl.inline_asm_elementwise(_RELEASE, "=r,l", [counter + gl.zeros([4 * 32], gl.int32, layout=per_thread)],
                              dtype=gl.int32, is_pure=False, pack=1)


@gluon.jit
def _merge_partial(WS, STATS, counter, slot, acc, m_i, l_i, HEAD_DIM: gl.constexpr, BLOCK_N: gl.constexpr):
    """acc, m_i, l_i merged with slot `slot` once all its writer's threads released it."""
    o_layout: gl.constexpr = gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1],
                                                       instr_shape=[16, HEAD_DIM, 16])
    o_rows: gl.constexpr = gl.SliceLayout(1, o_layout)
    acc_ptrs, m_ptrs, l_ptrs = _partial_ptrs(WS, STATS, slot, HEAD_DIM, BLOCK_N)
    # zero, once the counter reads 128 in this thread; the loads' addresses depend on it, so none runs earlier
    zero = gl.inline_asm_elementwise(_ACQUIRE, "=r,l", [counter + gl.zeros_like(m_i).to(gl.int32)],
                                     dtype=gl.int32, is_pure=False, pack=1)
    m_p = gl.load(m_ptrs + zero, cache_modifier=".cg")
    l_p = gl.load(l_ptrs + zero, cache_modifier=".cg")
    acc_p = gl.load(acc_ptrs + gl.convert_layout(zero, o_rows)[:, None], cache_modifier=".cg")
    m_new = gl.maximum(m_i, m_p)
    a = gl.exp2(m_i - m_new)
    b = gl.exp2(m_p - m_new)
    acc = acc * gl.convert_layout(a, o_rows)[:, None] + acc_p * gl.convert_layout(b, o_rows)[:, None]
    return acc, m_new, l_i * a + l_p * b


@gluon.jit
def _store_rows(O, out, hz, row0, H, N_Q, stride_oz, stride_oh, stride_om, HEAD_DIM: gl.constexpr):
    """The output rows that exist, from registers (a head's ragged last rows)."""
    o_layout: gl.constexpr = gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1],
                                                       instr_shape=[16, HEAD_DIM, 16])
    rows = row0 + gl.arange(0, ROWS_PER_CONSUMER, layout=gl.SliceLayout(1, o_layout))
    cols = gl.arange(0, HEAD_DIM, layout=gl.SliceLayout(0, o_layout))
    z = hz // H
    h = hz % H
    ptrs = O + z.to(gl.int64) * stride_oz + h.to(gl.int64) * stride_oh + rows[:, None].to(gl.int64) * stride_om
    gl.store(ptrs + cols[None, :], out, mask=(rows < N_Q)[:, None])


@gluon.jit
def _store_out(O, LSE, desc_o, o_smem, acc, m_i, l_i, hz, row0, H, N_Q, stride_oz, stride_oh, stride_om,
               HEAD_DIM: gl.constexpr, BLOCK_N: gl.constexpr):
    """Normalise, store the rows that exist, natural-log LSE. The output goes through this consumer's rows of the
    tile's Q buffer (dead after its last QK^T) and a TMA store (see _free_q and _free_single_q for when the buffer
    is handed back); register stores took ~2.5 us a tile (measured with clock64 probes)."""
    BLOCK_M: gl.constexpr = ROWS_PER_CONSUMER
    o_layout: gl.constexpr = gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1],
                                                       instr_shape=[16, HEAD_DIM, 16])
    o_rows: gl.constexpr = gl.SliceLayout(1, o_layout)
    # one reciprocal per row, not a division per element
    out = (acc * gl.convert_layout(1.0 / l_i, o_rows)[:, None]).to(O.dtype.element_ty)
    if row0 + BLOCK_M <= N_Q:  # q, k, v, o are contiguous (B*H*N, D): the rows lie inside this head
        o_smem.store(out)
        fence_async_shared()
        _tma_store(desc_o, [hz * N_Q + row0, 0], o_smem)
    else:
        _store_rows(O, out, hz, row0, H, N_Q, stride_oz, stride_oh, stride_om, HEAD_DIM)
    s_layout: gl.constexpr = gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1],
                                                       instr_shape=[16, BLOCK_N, 16])
    lse_rows = row0 + gl.arange(0, BLOCK_M, layout=gl.SliceLayout(1, s_layout))
    lse = (m_i + gl.log2(l_i)) * 0.6931471805599453
    gl.store(LSE + hz.to(gl.int64) * N_Q + lse_rows, lse, mask=lse_rows < N_Q)


@gluon.jit
def _consumer(q_smem, k_smem, v_smem, q_ready, q_free, k_ready, k_free, v_ready, v_free, O, desc_o, LSE, WS, STATS,
              FLAGS, epoch, sm_scale, H, N_Q, N_KV, stride_oz, stride_oh, stride_om, n_m, n_tiles, n_dp,
              CONSUMER: gl.constexpr, HEAD_DIM: gl.constexpr, BLOCK_N: gl.constexpr, STAGES: gl.constexpr,
              OVERLAP: gl.constexpr, CAUSAL: gl.constexpr, Q_BUFS: gl.constexpr, SPLIT: gl.constexpr):
    qk_scale = sm_scale * 1.4426950408889634  # exp(x) = exp2(x * log2(e))
    N_CONS: gl.constexpr = q_smem.shape[0] // Q_BUFS
    TILE_M: gl.constexpr = N_CONS * ROWS_PER_CONSUMER
    nk = gl.cdiv(N_KV, BLOCK_N)
    i = 0
    t = 0
    n_hz = n_tiles // n_m
    if not SPLIT:
        for tile in range(gl.program_id(0), n_tiles, gl.num_programs(0)):
            hz, m = _tile(tile, n_m, n_hz, CAUSAL, HEAD_DIM)
            acc, m_i, l_i, i, t = _consume_tile(q_smem, k_smem, v_smem, q_ready, q_free, k_ready, k_free, v_ready,
                                                v_free, m, 0, nk, nk, i, t, qk_scale, N_KV, CONSUMER, HEAD_DIM,
                                                BLOCK_N, STAGES, OVERLAP, CAUSAL, Q_BUFS)
            _store_out(O, LSE, desc_o, _q_rows(q_smem, t - 1, CONSUMER, Q_BUFS), acc, m_i, l_i, hz,
                       _first_row(m, CONSUMER, TILE_M), H, N_Q, stride_oz, stride_oh, stride_om, HEAD_DIM, BLOCK_N)
            _free_single_q(q_free, Q_BUFS)
    else:
        G = gl.num_programs(0)
        pid = gl.program_id(0)
        base, lo, hi = _tail_range(n_tiles, n_dp, nk)
        u = pid * nk
        if pid >= n_dp:
            u = lo
        while u < hi:
            tile, b0, b1, u = _item(u, nk, base, lo, hi, G)
            hz, m = _tile(tile, n_m, n_hz, CAUSAL, HEAD_DIM)
            # the owner (key block 0 of a split tile) merges the pieces of the CTAs after it up to the one
            # holding the tile's last unit (the inverse of _tail_range's cut)
            n_merge = 0
            if b0 == 0 and b1 < nk:
                n_merge = (((tile + 1) * nk - base) * G - 1) // ((n_tiles - n_dp) * nk) - pid
            acc, m_i, l_i, i, t = _consume_tile(q_smem, k_smem, v_smem, q_ready, q_free, k_ready, k_free, v_ready,
                                                v_free, m, b0, b1, nk, i, t, qk_scale, N_KV, CONSUMER, HEAD_DIM,
                                                BLOCK_N, STAGES, OVERLAP, CAUSAL, Q_BUFS)
            counters = FLAGS + (epoch % 2) * (N_CONS * G)
            if b0 > 0:  # a later piece of a split tile: to this CTA's slot
                slot = pid * N_CONS + CONSUMER
                _write_partial(WS, STATS, counters + slot, slot, acc, m_i, l_i, HEAD_DIM, BLOCK_N)
            else:
                for c in range(pid + 1, pid + 1 + n_merge):
                    slot = c * N_CONS + CONSUMER
                    acc, m_i, l_i = _merge_partial(WS, STATS, counters + slot, slot, acc, m_i, l_i, HEAD_DIM,
                                                   BLOCK_N)
                _store_out(O, LSE, desc_o, _q_rows(q_smem, t - 1, CONSUMER, Q_BUFS), acc, m_i, l_i, hz,
                           _first_row(m, CONSUMER, TILE_M), H, N_Q, stride_oz, stride_oh, stride_om, HEAD_DIM,
                           BLOCK_N)
            _free_single_q(q_free, Q_BUFS)  # a piece that wrote a partial frees it too
    tma.store_wait(0)  # the last output store reads shared memory that ends with the kernel


# Not specialised: epoch changes every launch; N_KV == 1 (a single key) specialised to a constant crashes Triton
# 3.6's LLVM lowering of the split path (ConvertTritonGPUToLLVM, SmallVector index assertion)
@gluon.jit(do_not_specialize=["epoch", "N_KV", "n_dp"])
def attn_fwd_ws_kernel(desc_q, desc_k, desc_v, O, desc_o, LSE, WS, STATS, FLAGS, epoch, sm_scale, H, GROUP, N_Q, N_KV,
                       stride_oz, stride_oh, stride_om, n_m, n_tiles, n_dp, HEAD_DIM: gl.constexpr,
                       BLOCK_N: gl.constexpr, STAGES: gl.constexpr, OVERLAP: gl.constexpr, CONSUMER_REGS: gl.constexpr,
                       CAUSAL: gl.constexpr, Q_BUFS: gl.constexpr, N_CONS: gl.constexpr, SPLIT: gl.constexpr):
    dtype: gl.constexpr = desc_q.dtype
    # Q_BUFS tiles of N_CONS 64-row pieces, one per consumer
    q_smem = gl.allocate_shared_memory(dtype, [Q_BUFS * N_CONS] + desc_q.block_type.shape, desc_q.layout)
    k_smem = gl.allocate_shared_memory(dtype, [STAGES, BLOCK_N, HEAD_DIM], desc_k.layout)
    v_smem = gl.allocate_shared_memory(dtype, [STAGES, BLOCK_N, HEAD_DIM], desc_v.layout)
    q_ready = gl.allocate_shared_memory(gl.int64, [Q_BUFS, 1], mbarrier.MBarrierLayout())
    q_free = gl.allocate_shared_memory(gl.int64, [Q_BUFS, 1], mbarrier.MBarrierLayout())
    k_ready = gl.allocate_shared_memory(gl.int64, [STAGES, 1], mbarrier.MBarrierLayout())
    k_free = gl.allocate_shared_memory(gl.int64, [STAGES, 1], mbarrier.MBarrierLayout())
    v_ready = gl.allocate_shared_memory(gl.int64, [STAGES, 1], mbarrier.MBarrierLayout())
    v_free = gl.allocate_shared_memory(gl.int64, [STAGES, 1], mbarrier.MBarrierLayout())
    for b in gl.static_range(Q_BUFS):
        mbarrier.init(q_ready.index(b), count=1)
        mbarrier.init(q_free.index(b), count=N_CONS)  # every consumer frees each buffer and stage
    for s in gl.static_range(STAGES):
        mbarrier.init(k_ready.index(s), count=1)
        mbarrier.init(k_free.index(s), count=N_CONS)
        mbarrier.init(v_ready.index(s), count=1)
        mbarrier.init(v_free.index(s), count=N_CONS)
    # Gluon takes the partitions as a literal list (a tuple of functions does not compile), hence three spelled out
    if N_CONS == 3:
        gl.warp_specialize([
            (_producer, (desc_q, desc_k, desc_v, q_smem, k_smem, v_smem, q_ready, q_free, k_ready, k_free, v_ready,
                         v_free, FLAGS, epoch, H, GROUP, N_Q, N_KV, n_m, n_tiles, n_dp, BLOCK_N, STAGES, CAUSAL,
                         Q_BUFS, SPLIT)),
            (_consumer, (q_smem, k_smem, v_smem, q_ready, q_free, k_ready, k_free, v_ready, v_free, O, desc_o, LSE,
                         WS, STATS, FLAGS, epoch, sm_scale, H, N_Q, N_KV, stride_oz, stride_oh, stride_om, n_m,
                         n_tiles, n_dp, 0, HEAD_DIM, BLOCK_N, STAGES, OVERLAP, CAUSAL, Q_BUFS, SPLIT)),
            (_consumer, (q_smem, k_smem, v_smem, q_ready, q_free, k_ready, k_free, v_ready, v_free, O, desc_o, LSE,
                         WS, STATS, FLAGS, epoch, sm_scale, H, N_Q, N_KV, stride_oz, stride_oh, stride_om, n_m,
                         n_tiles, n_dp, 1, HEAD_DIM, BLOCK_N, STAGES, OVERLAP, CAUSAL, Q_BUFS, SPLIT)),
            (_consumer, (q_smem, k_smem, v_smem, q_ready, q_free, k_ready, k_free, v_ready, v_free, O, desc_o, LSE,
                         WS, STATS, FLAGS, epoch, sm_scale, H, N_Q, N_KV, stride_oz, stride_oh, stride_om, n_m,
                         n_tiles, n_dp, 2, HEAD_DIM, BLOCK_N, STAGES, OVERLAP, CAUSAL, Q_BUFS, SPLIT)),
        ], [4, 4, 4], [CONSUMER_REGS, CONSUMER_REGS, CONSUMER_REGS])
    elif N_CONS == 1:
        gl.warp_specialize([
            (_producer, (desc_q, desc_k, desc_v, q_smem, k_smem, v_smem, q_ready, q_free, k_ready, k_free, v_ready,
                         v_free, FLAGS, epoch, H, GROUP, N_Q, N_KV, n_m, n_tiles, n_dp, BLOCK_N, STAGES, CAUSAL,
                         Q_BUFS, SPLIT)),
            (_consumer, (q_smem, k_smem, v_smem, q_ready, q_free, k_ready, k_free, v_ready, v_free, O, desc_o, LSE,
                         WS, STATS, FLAGS, epoch, sm_scale, H, N_Q, N_KV, stride_oz, stride_oh, stride_om, n_m,
                         n_tiles, n_dp, 0, HEAD_DIM, BLOCK_N, STAGES, OVERLAP, CAUSAL, Q_BUFS, SPLIT)),
        ], [4], [CONSUMER_REGS])
    else:
        gl.warp_specialize([
            (_producer, (desc_q, desc_k, desc_v, q_smem, k_smem, v_smem, q_ready, q_free, k_ready, k_free, v_ready,
                         v_free, FLAGS, epoch, H, GROUP, N_Q, N_KV, n_m, n_tiles, n_dp, BLOCK_N, STAGES, CAUSAL,
                         Q_BUFS, SPLIT)),
            (_consumer, (q_smem, k_smem, v_smem, q_ready, q_free, k_ready, k_free, v_ready, v_free, O, desc_o, LSE,
                         WS, STATS, FLAGS, epoch, sm_scale, H, N_Q, N_KV, stride_oz, stride_oh, stride_om, n_m,
                         n_tiles, n_dp, 0, HEAD_DIM, BLOCK_N, STAGES, OVERLAP, CAUSAL, Q_BUFS, SPLIT)),
            (_consumer, (q_smem, k_smem, v_smem, q_ready, q_free, k_ready, k_free, v_ready, v_free, O, desc_o, LSE,
                         WS, STATS, FLAGS, epoch, sm_scale, H, N_Q, N_KV, stride_oz, stride_oh, stride_om, n_m,
                         n_tiles, n_dp, 1, HEAD_DIM, BLOCK_N, STAGES, OVERLAP, CAUSAL, Q_BUFS, SPLIT)),
        ], [4, 4], [CONSUMER_REGS, CONSUMER_REGS])


@dataclass(frozen=True)
class Config:
    block_n: int
    stages: int
    overlap: bool
    consumer_regs: int = 240
    split: bool = False  # dense: the tiles past the last full wave are cut along the keys, evenly over the CTAs
    q_buffers: int = 1  # 2: the next tile's Q loads during this one, and its output store runs on into the next
    consumers: int = 2  # 64-row consumer warpgroups: the tile has 64 x consumers query rows
    ctas_per_sm: int = 1  # 2: the persistent grid has two CTAs on each SM (see launch_maxnreg)

    @property
    def tile_m(self) -> int:
        return ROWS_PER_CONSUMER.value * self.consumers

    def label(self) -> str:
        return (f"ws M{self.tile_m}xN{self.block_n}/s{self.stages}{'/overlap' if self.overlap else ''}"
                f"/r{self.consumer_regs}"
                f"{'/q2' if self.q_buffers == 2 else ''}{'/split' if self.split else ''}"
                f"{f'/{self.ctas_per_sm}cta' if self.ctas_per_sm > 1 else ''}")


REGISTERS_PER_SM = 65536  # 32-bit registers of an H100 SM


def launch_maxnreg(cfg: Config) -> int | None:
    """Registers per thread a CTA launches with so that cfg.ctas_per_sm of them fit on an SM (a multiple of 8,
    as ptxas allocates); None for one CTA, left to ptxas. The partitions then move registers between them with
    setmaxnreg within that CTA's share: the consumers get consumer_regs, the producer the rest."""
    if cfg.ctas_per_sm == 1:
        return None
    threads = 128 * (1 + cfg.consumers)
    return REGISTERS_PER_SM // (cfg.ctas_per_sm * threads) // 8 * 8


def launch_options(cfg: Config) -> dict:
    """The compile options of cfg's launch: the producer's 4 warps (the consumers' come from warp_specialize), and
    launch_maxnreg's cap where there is one."""
    maxnreg = launch_maxnreg(cfg)
    return {"num_warps": 4, **({"maxnreg": maxnreg} if maxnreg else {})}


SHARED_MEMORY_BYTES = 227 * 1024  # per CTA on the H100 (sm_90)


def _q_buffers(head_dim: int, block_n: int, stages: int, consumers: int = 2, ctas_per_sm: int = 1) -> int:
    """Two Q tile buffers where they fit in shared memory beside the K and V rings (2-byte elements), else one;
    with two CTAs per SM, in half of it."""
    room = SHARED_MEMORY_BYTES // ctas_per_sm
    ring = 2 * stages * block_n * head_dim * 2
    q_tile = consumers * ROWS_PER_CONSUMER.value * head_dim * 2
    if ring + 2 * q_tile <= room:
        return 2
    return 1 if ring + q_tile <= room else 0


# (block_n, stages, overlap, consumers, consumer registers, CTAs per SM). Three consumers (192-row tiles, FA3's
# choice at head dim 64, where softmax's exp2 costs as much as the MMAs) get 160 registers each (3 x 128 x 160
# + 128 x 32 for the producer = 64 K): 64 x 128 fp32 scores fit beside the accumulator only with PV retired before the
# next QK^T; overlapped they spill (ptxas, sm_90a: 40 B of stack), and so does the split tail's merge. One consumer
# (64-row tiles) at head dim 256 doubles the tiles where a short sequence leaves SMs idle (8 heads x 1,024 tokens:
# 64 tiles of 128 rows on 132 SMs; measured 36.3 -> 23.9 us there, cuDNN 31.9). One consumer with two CTAs per SM
# (head dim 64): 128 registers a thread at launch, 216 for the consumer; each CTA streams its own K and V, and one
# CTA's tile start and end run beside the other's loop (see the module docstring for the figures).
_SHAPES = [(128, 2, True, 2, 240, 1), (128, 3, True, 2, 240, 1), (128, 2, False, 2, 240, 1),
           (64, 2, True, 2, 240, 1), (64, 3, True, 2, 240, 1), (64, 4, True, 2, 240, 1),
           (128, 2, False, 3, 160, 1), (128, 3, False, 3, 160, 1), (64, 2, True, 1, 240, 1),
           (128, 2, True, 1, 216, 2)]
THREE_CONSUMERS_MAX_HEAD_DIM = 64
ONE_CONSUMER_MIN_HEAD_DIM = 256
TWO_CTAS_MAX_HEAD_DIM = 64
# the owner of a split tile holds a second accumulator while merging: at head dim 256 that spills
SPLIT_MAX_HEAD_DIM = 128


def _consumers_fit(consumers: int, ctas_per_sm: int, head_dim: int) -> bool:
    """Three consumers only up to THREE_CONSUMERS_MAX_HEAD_DIM; one only from ONE_CONSUMER_MIN_HEAD_DIM, or with
    two CTAs per SM up to TWO_CTAS_MAX_HEAD_DIM; two at any."""
    if ctas_per_sm > 1:
        return consumers == 1 and head_dim <= TWO_CTAS_MAX_HEAD_DIM
    return {3: head_dim <= THREE_CONSUMERS_MAX_HEAD_DIM, 1: head_dim >= ONE_CONSUMER_MIN_HEAD_DIM}.get(consumers, True)


def candidate_configs(head_dim: int, causal: bool = False) -> list[Config]:
    """K and V rings that fit in shared memory next to the Q tile(s); dense, each overlapped one of one CTA per SM
    also with its last waves split (causal tiles are already ordered longest first, so there is no even tail to
    cut; two CTAs per SM split measured 53.9 against 48.4 us at (2,32/8,1024,64))."""
    out = []
    for bn, stages, overlap, consumers, regs, ctas in _SHAPES:
        q_bufs = _q_buffers(head_dim, bn, stages, consumers, ctas)
        if not q_bufs or not _consumers_fit(consumers, ctas, head_dim):
            continue
        cfg = Config(bn, stages, overlap, regs, q_buffers=q_bufs, consumers=consumers, ctas_per_sm=ctas)
        out.append(cfg)
        if overlap and not causal and head_dim <= SPLIT_MAX_HEAD_DIM and ctas == 1:
            out.append(replace(cfg, split=True))
    return out


def default_config(head_dim: int) -> Config:
    bn = 128 if head_dim <= 128 else 64
    return Config(bn, 2, True, q_buffers=_q_buffers(head_dim, bn, 2))


def work_split(n_tiles: int, n_kv_blocks: int, n_ctas: int, split: bool) -> tuple[int, int]:
    """(CTAs launched, tiles done whole). Split (stream-K's "data-parallel + one wave"): all whole waves but the
    last stay whole; the last whole wave and the partial one are cut along the keys into one even share per CTA,
    each between one and two tiles long, so a tile has at most two pieces when there are more tiles than CTAs.
    FLUX's 864 tiles on 132 SMs: 5 whole waves (660 tiles), then 204 tiles x 36 key blocks as 132 shares of
    55-56 blocks. Not split when the tiles fill the waves, or when the cut part has fewer key blocks than there
    are CTAs (an owner waits for a piece from every CTA after it up to its tile's end)."""
    if not split or n_tiles % n_ctas == 0:
        return min(n_tiles, n_ctas), n_tiles
    n_dp = max(n_tiles // n_ctas - 1, 0) * n_ctas
    if (n_tiles - n_dp) * n_kv_blocks < n_ctas:
        return min(n_tiles, n_ctas), n_tiles
    return n_ctas, n_dp


class _Workspace:
    """Partial state of split tiles, per device and stream: a slot of (64 x D fp32 acc, 64 max, 64 sums) per CTA
    and consumer, and two sets of a counter per slot (see _RELEASE), zeroed once here and then by the launches
    themselves; launches on one stream run in order, so they never share a set."""
    _cache: dict = {}

    def __init__(self, device, n_ctas: int, head_dim: int, consumers: int):
        import torch

        slots = n_ctas * consumers
        self.acc = torch.empty(slots * ROWS_PER_CONSUMER.value * head_dim, dtype=torch.float32, device=device)
        self.stats = torch.empty(slots * 2 * ROWS_PER_CONSUMER.value, dtype=torch.float32, device=device)
        self.flags = torch.zeros(2 * slots, dtype=torch.int32, device=device)
        self.epoch = 0

    @classmethod
    def for_launch(cls, device, n_ctas: int, head_dim: int, consumers: int, split: bool) -> "_Workspace":
        """The workspace of this device, stream and size; its epoch advanced for a split launch about to be made
        (only those use and zero counters)."""
        import torch

        key = (device, torch.cuda.current_stream(device).stream_id, n_ctas, head_dim, consumers)
        if key not in cls._cache:
            cls._cache[key] = cls(device, n_ctas, head_dim, consumers)
        ws = cls._cache[key]
        if split:
            ws.epoch = ws.epoch % (2**31 - 1) + 1
        return ws


def launch(q, k, v, scale: float | None = None, config: Config | None = None, causal: bool = False):
    """(out, lse, the compiled kernel) — `tune` reads the kernel's register spills."""
    import torch
    from triton.experimental.gluon.nvidia.hopper import TensorDescriptor

    from .triton_fa import num_sms, prepare

    q, k, v, scale, o, lse = prepare(q, k, v, scale)
    B, H, NQ, D = q.shape
    HKV, NK = k.shape[1], k.shape[2]
    cfg = config or default_config(D)
    gdt = gl.bfloat16 if q.dtype == torch.bfloat16 else gl.float16
    q_rows = cfg.tile_m

    def desc(t, rows):
        layout = gl.NVMMASharedLayout.get_default_for([rows, D], gdt)
        return TensorDescriptor(t, [t.shape[0] * t.shape[1] * t.shape[2], D], [D, 1], [rows, D], layout)

    n_m = -(-NQ // q_rows)
    n_tiles = n_m * B * H
    # a CUDA graph would replay one epoch, so its counters would never be zeroed again: captured, not split
    n_ctas, n_dp = work_split(n_tiles, -(-NK // cfg.block_n), cfg.ctas_per_sm * num_sms(q.device),
                              cfg.split and not causal and D <= SPLIT_MAX_HEAD_DIM
                              and not torch.cuda.is_current_stream_capturing())
    split = n_dp < n_tiles
    ws = _Workspace.for_launch(q.device, n_ctas, D, cfg.consumers, split)
    kernel = attn_fwd_ws_kernel[(n_ctas,)](
        desc(q, ROWS_PER_CONSUMER.value), desc(k, cfg.block_n), desc(v, cfg.block_n), o,
        desc(o, ROWS_PER_CONSUMER.value),  # a consumer's rows, staged in its piece of the Q buffer
        lse, ws.acc, ws.stats, ws.flags, ws.epoch,
        scale, H, H // HKV, NQ, NK, o.stride(0), o.stride(1), o.stride(2), n_m, n_tiles, n_dp, HEAD_DIM=D,
        BLOCK_N=cfg.block_n, STAGES=cfg.stages, OVERLAP=cfg.overlap, CONSUMER_REGS=cfg.consumer_regs,
        CAUSAL=bool(causal), Q_BUFS=cfg.q_buffers, N_CONS=cfg.consumers, SPLIT=split,
        **launch_options(cfg))
    return o, lse, kernel


def forward(q, k, v, scale: float | None = None, config: Config | None = None, causal: bool = False):
    """(out, lse) like triton_fa.forward: out (B,Hq,Sq,D), lse (B,Hq,Sq) float32 natural log; k, v (B,Hkv,Sk,D),
    query head h reads kv head h // (Hq // Hkv); causal: top-left, query i sees keys j <= i."""
    return launch(q, k, v, scale, config, causal)[:2]


def tune(q, k, v, scale: float | None = None, causal: bool = False, configs: list[Config] | None = None,
         bench=None) -> tuple[list[dict], Config | None]:
    """(a row per config timed at this shape, failures and spilling configs recorded not raised; the fastest
    config or None)."""
    from ..timing import kernel_spills, tune_forward

    return tune_forward(lambda cfg: launch(q, k, v, scale, cfg, causal),
                        configs or candidate_configs(q.shape[3], causal),
                        Config.label, bench, spills=lambda res: kernel_spills(res[2]))
