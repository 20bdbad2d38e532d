"""The Gluon kernel: its entry point, the producer partition (TMA loads of Q and the K/V rings) and the consumer
partitions (gluon_steps per tile, then the epilogue), each walking the persistent CTA's tiles. What each choice is
for: gluon_fa.py; the measurements behind them: docs/attention-kernels.md."""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import fence_async_shared, mbarrier, tma

from .gluon_split import item, merge_partial, tail_range, write_partial
from .gluon_state import (ROWS_PER_CONSUMER, Buffers, Output, Problem, band_blocks, first_row, key_range,
                          mma_layout, q_rows, rows_tile, tile_of, tma_load, tma_store)
from .gluon_steps import consume_band_tile, consume_tile, free_single_q


@gluon.jit
def _kv_row(hz, prob):
    """First row of the K/V head that query head hz % H reads (GQA: head h // GROUP of H // GROUP)."""
    H = prob.H
    GROUP = prob.GROUP
    return ((hz // H) * (H // GROUP) + (hz % H) // GROUP) * prob.N_KV


@gluon.jit
def _load_q(desc_q, bufs, hz, m, t, prob):
    """Q of tile (hz, m), the t-th this CTA takes, into buffer t % Q_BUFS once every consumer freed it (see
    gluon_steps._free_q): one 64-row load per consumer (TMA boxes and Gluon's shared tiles take powers of two,
    not 192)."""
    Q_BUFS: gl.constexpr = prob.Q_BUFS
    N_CONS: gl.constexpr = prob.N_CONS
    b = t % Q_BUFS
    mbarrier.wait(bufs.q_free.index(b), ((t // Q_BUFS) & 1) ^ 1)  # a fresh barrier passes a wait on phase 1
    mbarrier.expect(bufs.q_ready.index(b), N_CONS * desc_q.block_type.nbytes)
    for c in gl.static_range(N_CONS):
        tma_load(desc_q, [hz * prob.N_Q + (m * N_CONS + c) * ROWS_PER_CONSUMER, 0], bufs.q_ready.index(b),
                 bufs.q.index(b * N_CONS + c))


@gluon.jit
def _load_kv(desc_k, desc_v, bufs, row, i, STAGES: gl.constexpr):
    """Key block at K/V row `row` into ring slot i % STAGES; returns i + 1."""
    s = i % STAGES
    free_phase = ((i // STAGES) & 1) ^ 1
    mbarrier.wait(bufs.k_free.index(s), free_phase)
    mbarrier.expect(bufs.k_ready.index(s), desc_k.block_type.nbytes)
    tma_load(desc_k, [row, 0], bufs.k_ready.index(s), bufs.k.index(s))
    mbarrier.wait(bufs.v_free.index(s), free_phase)
    mbarrier.expect(bufs.v_ready.index(s), desc_v.block_type.nbytes)
    tma_load(desc_v, [row, 0], bufs.v_ready.index(s), bufs.v.index(s))
    return i + 1


@gluon.jit
def _produce_tile(desc_q, desc_k, desc_v, bufs, prob, hz, m, b0, b1, i, t, next_hz, next_m, has_next):
    """The tile's key blocks b0 .. b1-1 (causal: up to the tile's last row) into the rings, and its Q. One Q
    buffer: the tile's own Q goes first. Two: the next tile's Q goes a tile ahead (its latency under load is
    several microseconds), after the first STAGES key blocks, the ones whose ring slots free up before this tile
    starts: waiting for the Q buffer (freed once this tile starts) before them stalled its second block (FLUX
    388 -> 383 us, 4608 queries x 512 keys 70.0 -> 62.8 us; device run 4)."""
    BLOCK_N: gl.constexpr = prob.BLOCK_N
    STAGES: gl.constexpr = prob.STAGES
    N_KV = prob.N_KV
    kv_row = _kv_row(hz, prob)
    n_kv = gl.minimum(N_KV, b1 * BLOCK_N)
    if prob.CAUSAL:  # key blocks past the tile's last row are never loaded
        n_kv = gl.minimum(N_KV, (m + 1) * prob.TILE_M)
    if prob.BAND:  # the blocks the tile's band reaches (mask_schedule), at least one
        if prob.ROWS:
            b0, b1 = rows_tile(prob, hz, m)
        else:
            kv_lo, kv_hi = key_range(prob, hz)
            b0, _b, _c, b1 = band_blocks(prob, kv_lo, kv_hi, m * prob.TILE_M,
                                         gl.minimum((m + 1) * prob.TILE_M, prob.N_Q))
        n_kv = b1 * BLOCK_N
    if prob.Q_BUFS == 1:
        _load_q(desc_q, bufs, hz, m, t, prob)
    q_at = gl.minimum((b0 + STAGES - 1) * BLOCK_N, ((n_kv - 1) // BLOCK_N) * BLOCK_N)
    for start_n in range(b0 * BLOCK_N, n_kv, BLOCK_N):
        i = _load_kv(desc_k, desc_v, bufs, kv_row + start_n, i, STAGES)
        if prob.Q_BUFS == 2:
            if has_next & (start_n == q_at):
                _load_q(desc_q, bufs, next_hz, next_m, t + 1, prob)
    return i, t + 1


@gluon.jit
def _producer(desc_q, desc_k, desc_v, bufs, prob, out):
    i = 0  # key blocks issued so far, across tiles: ring slot i % STAGES, lap i // STAGES
    t = 0  # tiles started
    n_tiles = prob.n_tiles
    n_hz = n_tiles // prob.n_m
    nk = gl.cdiv(prob.N_KV, prob.BLOCK_N)
    G = gl.num_programs(0)
    if not prob.SPLIT:  # whole tiles, strided over the CTAs
        hz, m = tile_of(gl.program_id(0), n_hz, prob)
        if prob.Q_BUFS == 2:
            if gl.program_id(0) < n_tiles:
                _load_q(desc_q, bufs, hz, m, 0, prob)
        for tile in range(gl.program_id(0), n_tiles, G):
            next_hz, next_m = tile_of(tile + G, n_hz, prob)
            i, t = _produce_tile(desc_q, desc_k, desc_v, bufs, prob, hz, m, 0, nk, i, t, next_hz, next_m,
                                 tile + G < n_tiles)
            hz = next_hz
            m = next_m
    else:
        # this CTA's counters (one per consumer) in the set the next launch uses (see gluon_split)
        N_CONS: gl.constexpr = prob.N_CONS
        four: gl.constexpr = gl.BlockedLayout([1], [32], [4], [0])
        c = gl.arange(0, 4, four)
        gl.store(out.FLAGS + ((prob.epoch + 1) % 2) * (N_CONS * G) + gl.program_id(0) * N_CONS + c,
                 gl.zeros([4], gl.int32, four), mask=c < N_CONS)
        base, lo, hi = tail_range(n_tiles, prob.n_dp, nk)
        u = gl.program_id(0) * nk
        if gl.program_id(0) >= prob.n_dp:
            u = lo
        # the item at u and the one after it (whose Q is loaded during this one)
        tile, b0, b1, nxt = item(u, nk, base, lo, hi, G)
        hz, m = tile_of(tile, n_hz, prob)
        if prob.Q_BUFS == 2:
            if u < hi:
                _load_q(desc_q, bufs, hz, m, 0, prob)
        while u < hi:
            next_tile, next_b0, next_b1, after = item(nxt, nk, base, lo, hi, G)
            next_hz, next_m = tile_of(next_tile, n_hz, prob)
            i, t = _produce_tile(desc_q, desc_k, desc_v, bufs, prob, hz, m, b0, b1, i, t, next_hz, next_m,
                                 nxt < hi)
            u = nxt
            nxt = after
            b0 = next_b0
            b1 = next_b1
            hz = next_hz
            m = next_m


@gluon.jit
def _store_rows(out, o, hz, row0, prob):
    """The output rows that exist, from registers (a head's ragged last rows)."""
    o_layout: gl.constexpr = mma_layout(prob.BLOCK_D)
    rows = row0 + gl.arange(0, ROWS_PER_CONSUMER, layout=gl.SliceLayout(1, o_layout))
    cols = gl.arange(0, prob.BLOCK_D, layout=gl.SliceLayout(0, o_layout))
    z = hz // prob.H
    h = hz % prob.H
    ptrs = (out.O + z.to(gl.int64) * out.stride_oz + h.to(gl.int64) * out.stride_oh
            + rows[:, None].to(gl.int64) * out.stride_om)
    gl.store(ptrs + cols[None, :], o, mask=(rows < prob.N_Q)[:, None] & (cols < prob.HEAD_DIM)[None, :])


@gluon.jit
def _store_out(out, o_smem, acc, m_i, l_i, hz, row0, prob):
    """Normalise, store the rows that exist, natural-log LSE. The output goes through this consumer's rows of the
    tile's Q buffer (dead after its last QK^T) and a TMA store, which writes no column past the output's last
    (a padded head dim, head_dims.py; see gluon_steps._free_q and free_single_q for when the buffer is handed
    back); register stores took ~2.5 us a tile (measured with clock64 probes)."""
    BLOCK_M: gl.constexpr = ROWS_PER_CONSUMER
    N_Q = prob.N_Q
    o_rows: gl.constexpr = gl.SliceLayout(1, mma_layout(prob.BLOCK_D))
    # one reciprocal per row, not a division per element
    if prob.BAND:  # a row that kept no key: l 0, acc 0 -> out 0 (mask_schedule's note); lse stays -inf (m -inf)
        l_i = gl.where(l_i == 0.0, 1.0, l_i)
    o = (acc * gl.convert_layout(1.0 / l_i, o_rows)[:, None]).to(out.O.dtype.element_ty)
    if row0 + BLOCK_M <= N_Q:  # q, k, v, o are contiguous (B*H*N, D): the rows lie inside this head
        o_smem.store(o)
        fence_async_shared()
        tma_store(out.desc_o, [hz * N_Q + row0, 0], o_smem)
    else:
        _store_rows(out, o, hz, row0, prob)
    lse_rows = row0 + gl.arange(0, BLOCK_M, layout=gl.SliceLayout(1, mma_layout(prob.BLOCK_N)))
    lse = (m_i + gl.log2(l_i)) * 0.6931471805599453
    gl.store(out.LSE + hz.to(gl.int64) * N_Q + lse_rows, lse, mask=lse_rows < N_Q)


@gluon.jit
def _consumer(bufs, prob, out, CONSUMER: gl.constexpr):
    qk_scale = out.sm_scale * 1.4426950408889634  # exp(x) = exp2(x * log2(e))
    N_CONS: gl.constexpr = prob.N_CONS
    TILE_M: gl.constexpr = prob.TILE_M
    BLOCK_D: gl.constexpr = prob.BLOCK_D
    BLOCK_N: gl.constexpr = prob.BLOCK_N
    Q_BUFS: gl.constexpr = prob.Q_BUFS
    n_tiles = prob.n_tiles
    nk = gl.cdiv(prob.N_KV, BLOCK_N)
    i = 0
    t = 0
    n_hz = n_tiles // prob.n_m
    if not prob.SPLIT:
        for tile in range(gl.program_id(0), n_tiles, gl.num_programs(0)):
            hz, m = tile_of(tile, n_hz, prob)
            if prob.BAND:
                acc, m_i, l_i, i, t = consume_band_tile(bufs, prob, hz, m, i, t, qk_scale, CONSUMER)
            else:
                acc, m_i, l_i, i, t = consume_tile(bufs, prob, m, 0, nk, nk, i, t, qk_scale, CONSUMER)
            _store_out(out, q_rows(bufs, t - 1, CONSUMER, Q_BUFS), acc, m_i, l_i, hz,
                       first_row(m, CONSUMER, TILE_M), prob)
            free_single_q(bufs, Q_BUFS)
    else:
        G = gl.num_programs(0)
        pid = gl.program_id(0)
        n_dp = prob.n_dp
        base, lo, hi = tail_range(n_tiles, n_dp, nk)
        u = pid * nk
        if pid >= n_dp:
            u = lo
        while u < hi:
            tile, b0, b1, u = item(u, nk, base, lo, hi, G)
            hz, m = tile_of(tile, n_hz, prob)
            # the owner (key block 0 of a split tile) merges the pieces of the CTAs after it up to the one
            # holding the tile's last unit (the inverse of tail_range's cut)
            n_merge = 0
            if b0 == 0 and b1 < nk:
                n_merge = (((tile + 1) * nk - base) * G - 1) // ((n_tiles - n_dp) * nk) - pid
            acc, m_i, l_i, i, t = consume_tile(bufs, prob, m, b0, b1, nk, i, t, qk_scale, CONSUMER)
            counters = out.FLAGS + (prob.epoch % 2) * (N_CONS * G)
            if b0 > 0:  # a later piece of a split tile: to this CTA's slot
                slot = pid * N_CONS + CONSUMER
                write_partial(out, counters + slot, slot, acc, m_i, l_i, BLOCK_D, BLOCK_N)
            else:
                for c in range(pid + 1, pid + 1 + n_merge):
                    slot = c * N_CONS + CONSUMER
                    acc, m_i, l_i = merge_partial(out, counters + slot, slot, acc, m_i, l_i, BLOCK_D, BLOCK_N)
                _store_out(out, q_rows(bufs, t - 1, CONSUMER, Q_BUFS), acc, m_i, l_i, hz,
                           first_row(m, CONSUMER, TILE_M), prob)
            free_single_q(bufs, Q_BUFS)  # a piece that wrote a partial frees it too
    tma.store_wait(0)  # the last output store reads shared memory that ends with the kernel


# Not specialised: epoch changes every launch; N_KV == 1 (a single key) specialised to a constant crashes Triton
# 3.6's LLVM lowering of the split path (ConvertTritonGPUToLLVM, SmallVector index assertion)
@gluon.jit(do_not_specialize=["epoch", "N_KV", "n_dp"])
def attn_fwd_ws_kernel(desc_q, desc_k, desc_v, O, desc_o, LSE, WS, STATS, FLAGS, epoch, sm_scale, H, GROUP, N_Q, N_KV,
                       stride_oz, stride_oh, stride_om, n_m, n_tiles, n_dp, LEFT, RIGHT, KV_RANGE, ROW_KEYS, SCHED,
                       HEAD_DIM: gl.constexpr, BLOCK_D: gl.constexpr,
                       BLOCK_N: gl.constexpr, STAGES: gl.constexpr, OVERLAP: gl.constexpr, CONSUMER_REGS: gl.constexpr,
                       CAUSAL: gl.constexpr, Q_BUFS: gl.constexpr, N_CONS: gl.constexpr, SPLIT: gl.constexpr,
                       BAND: gl.constexpr, RANGES: gl.constexpr, ROWS: gl.constexpr, Q_CHUNK: gl.constexpr = 1):
    dtype: gl.constexpr = desc_q.dtype
    # Q_BUFS tiles of N_CONS 64-row pieces, one per consumer
    q_smem = gl.allocate_shared_memory(dtype, [Q_BUFS * N_CONS] + desc_q.block_type.shape, desc_q.layout)
    k_smem = gl.allocate_shared_memory(dtype, [STAGES, BLOCK_N, BLOCK_D], desc_k.layout)
    v_smem = gl.allocate_shared_memory(dtype, [STAGES, BLOCK_N, BLOCK_D], desc_v.layout)
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
    bufs = Buffers(q_smem, k_smem, v_smem, q_ready, q_free, k_ready, k_free, v_ready, v_free)
    prob = Problem(H, GROUP, N_Q, N_KV, n_m, n_tiles, n_dp, epoch, HEAD_DIM, BLOCK_D, BLOCK_N, STAGES, OVERLAP, CAUSAL,
                   Q_BUFS, N_CONS, SPLIT, LEFT, RIGHT, KV_RANGE, ROW_KEYS, SCHED, BAND, RANGES, ROWS, Q_CHUNK)
    out = Output(O, desc_o, LSE, WS, STATS, FLAGS, sm_scale, stride_oz, stride_oh, stride_om)
    producer = (desc_q, desc_k, desc_v, bufs, prob, out)
    R: gl.constexpr = CONSUMER_REGS
    # Gluon takes the partitions as a literal list (a tuple of functions does not compile): one per consumer count
    if N_CONS == 3:
        gl.warp_specialize([(_producer, producer), (_consumer, (bufs, prob, out, 0)), (_consumer, (bufs, prob, out, 1)),
                            (_consumer, (bufs, prob, out, 2))], [4, 4, 4], [R, R, R])
    elif N_CONS == 1:
        gl.warp_specialize([(_producer, producer), (_consumer, (bufs, prob, out, 0))], [4], [R])
    else:
        gl.warp_specialize([(_producer, producer), (_consumer, (bufs, prob, out, 0)),
                            (_consumer, (bufs, prob, out, 1))], [4, 4], [R, R])
