"""One consumer's work on one tile of the Gluon kernel: QK^T, online softmax and PV over the tile's key blocks, in
the overlapped order (QK^T of block j in flight beside PV of block j-1) or the serial one, with the Q buffer
handed back to the producer as soon as it may be."""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import mbarrier, tma, warpgroup_mma, warpgroup_mma_wait

from .gluon_state import (ROWS_PER_CONSUMER, band_blocks, first_row, key_range, mma_layout, q_rows, row_keys,
                          rows_entry, rows_tile)


@gluon.jit
def softmax_block(s, m_i, l_i, qk_scale, n_valid, diag, MASK: gl.constexpr, CAUSAL: gl.constexpr,
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
def softmax_band(s, m_i, l_i, qk_scale, start, row0, prob, kv_lo, kv_hi, s_layout: gl.constexpr):
    """Online softmax of a partial block of a band mask (mask_schedule): row r keeps key start + c when
    kv_lo <= key < kv_hi and row0 + r - LEFT <= key <= row0 + r + RIGHT. A row that keeps no key yet (max -inf)
    subtracts 0, so its p and alpha are 0, not NaN."""
    cols = start + gl.arange(0, prob.BLOCK_N, layout=gl.SliceLayout(0, s_layout))
    rows = row0 + gl.arange(0, s.shape[0], layout=gl.SliceLayout(1, s_layout))
    lo = gl.maximum(rows - prob.LEFT, kv_lo)
    hi = gl.minimum(rows + prob.RIGHT + 1, kv_hi)
    s = gl.where((cols[None, :] >= lo[:, None]) & (cols[None, :] < hi[:, None]), s, float("-inf"))
    m_new = gl.maximum(m_i, gl.max(s, axis=1) * qk_scale)
    m_sub = gl.where(m_new == float("-inf"), 0.0, m_new)
    p = gl.exp2(s * qk_scale - m_sub[:, None])
    alpha = gl.exp2(m_i - m_sub)
    l_new = l_i * alpha + gl.sum(p, axis=1)
    return p, alpha, m_new, l_new


@gluon.jit
def _overlap_step(q, bufs, prob, acc, p_op, m_i, l_i, qk_scale, i, j, masked, tail, row0, MASK_MODE: gl.constexpr,
                  IN_FLIGHT: gl.constexpr = 1, start=0, kv_lo=0, kv_hi=0):
    """Key block j of the overlapped loop: QK^T(j) issued beside PV(j-1), softmax(j) while PV runs (IN_FLIGHT=1;
    0: PV retired first). MASK_MODE: 0 no mask, 1 masked, 2 masked where the run-time `masked` says (the dense
    kernel's ragged last block, `tail` valid columns), 3 a band's partial block (its first key `start`, the
    batch's keys [kv_lo, kv_hi))."""
    BLOCK_N: gl.constexpr = prob.BLOCK_N
    STAGES: gl.constexpr = prob.STAGES
    s_layout: gl.constexpr = mma_layout(BLOCK_N)
    o_layout: gl.constexpr = mma_layout(prob.BLOCK_D)
    N_KV = prob.N_KV
    k_idx = (i + j) % STAGES
    v_idx = (i + j - 1) % STAGES
    mbarrier.wait(bufs.k_ready.index(k_idx), ((i + j) // STAGES) & 1)
    s = warpgroup_mma(q, bufs.k.index(k_idx).permute((1, 0)),
                      gl.zeros([ROWS_PER_CONSUMER, BLOCK_N], gl.float32, layout=s_layout), use_acc=False,
                      is_async=True)
    mbarrier.wait(bufs.v_ready.index(v_idx), ((i + j - 1) // STAGES) & 1)
    acc = warpgroup_mma(p_op, bufs.v.index(v_idx), acc, is_async=True)
    s = warpgroup_mma_wait(IN_FLIGHT, deps=[s])  # scores ready; PV(j-1) still runs
    mbarrier.arrive(bufs.k_free.index(k_idx))
    if MASK_MODE == 3:
        p, alpha, m_i, l_i = softmax_band(s, m_i, l_i, qk_scale, start, row0, prob, kv_lo, kv_hi, s_layout)
    elif MASK_MODE == 2:
        if masked:
            p, alpha, m_i, l_i = softmax_block(s, m_i, l_i, qk_scale, tail, row0, True, prob.CAUSAL, BLOCK_N,
                                               s_layout)
        else:
            p, alpha, m_i, l_i = softmax_block(s, m_i, l_i, qk_scale, N_KV, row0, False, prob.CAUSAL, BLOCK_N,
                                               s_layout)
    else:
        p, alpha, m_i, l_i = softmax_block(s, m_i, l_i, qk_scale, N_KV - j * BLOCK_N, row0 - j * BLOCK_N,
                                           MASK_MODE == 1, prob.CAUSAL, BLOCK_N, s_layout)
    acc = warpgroup_mma_wait(0, deps=[acc])
    mbarrier.arrive(bufs.v_free.index(v_idx))
    acc = acc * gl.convert_layout(alpha, gl.SliceLayout(1, o_layout))[:, None]
    p_op = gl.convert_layout(p.to(bufs.q.dtype), gl.DotOperandLayout(operand_index=0, parent=o_layout, k_width=2))
    return acc, p_op, m_i, l_i


@gluon.jit
def _serial_step(q, bufs, prob, acc, m_i, l_i, qk_scale, i, j, n_valid, diag, MASK: gl.constexpr,
                 BAND: gl.constexpr = False, start=0, kv_lo=0, kv_hi=0):
    """Key block j without overlap: QK^T, softmax (MASK: see softmax_block; with BAND a band's partial block, its
    first key `start`, `diag` its first row: see softmax_band), PV, each retired before the next."""
    BLOCK_N: gl.constexpr = prob.BLOCK_N
    STAGES: gl.constexpr = prob.STAGES
    s_layout: gl.constexpr = mma_layout(BLOCK_N)
    o_layout: gl.constexpr = mma_layout(prob.BLOCK_D)
    idx = (i + j) % STAGES
    phase = ((i + j) // STAGES) & 1
    mbarrier.wait(bufs.k_ready.index(idx), phase)
    s = warpgroup_mma(q, bufs.k.index(idx).permute((1, 0)),
                      gl.zeros([ROWS_PER_CONSUMER, BLOCK_N], gl.float32, layout=s_layout), use_acc=False,
                      is_async=True)
    s = warpgroup_mma_wait(0, deps=[s])
    mbarrier.arrive(bufs.k_free.index(idx))
    if BAND and MASK:
        p, alpha, m_i, l_i = softmax_band(s, m_i, l_i, qk_scale, start, diag, prob, kv_lo, kv_hi, s_layout)
    else:
        p, alpha, m_i, l_i = softmax_block(s, m_i, l_i, qk_scale, n_valid, diag, MASK and not BAND, prob.CAUSAL,
                                           BLOCK_N, s_layout)
    acc = acc * gl.convert_layout(alpha, gl.SliceLayout(1, o_layout))[:, None]
    mbarrier.wait(bufs.v_ready.index(idx), phase)
    p_op = gl.convert_layout(p.to(bufs.q.dtype), gl.DotOperandLayout(operand_index=0, parent=o_layout, k_width=2))
    acc = warpgroup_mma(p_op, bufs.v.index(idx), acc, is_async=True)
    acc = warpgroup_mma_wait(0, deps=[acc])
    mbarrier.arrive(bufs.v_free.index(idx))
    return acc, m_i, l_i


@gluon.jit
def _free_q(bufs, t, Q_BUFS: gl.constexpr):
    """Two Q buffers: a buffer holds its tile's output until the TMA store has read it, so the previous tile's is
    freed during this one (after its first QK^T), once that store is done."""
    if Q_BUFS == 2:
        tma.store_wait(0)
        mbarrier.arrive(bufs.q_free.index((t + 1) % 2), pred=t > 0)


@gluon.jit
def free_single_q(bufs, Q_BUFS: gl.constexpr):
    """One Q buffer: freed once this consumer's output store has read it. Freeing it before the epilogue (after
    the last QK^T) and storing from registers was 0.90x of cuDNN at (1,8,2048,256); staged, 1.00x (H100)."""
    if Q_BUFS == 1:
        tma.store_wait(0)
        mbarrier.arrive(bufs.q_free.index(0))


@gluon.jit
def _tile_start(bufs, prob, t):
    """Waits for tile t's Q; a fresh tile's running max (-inf), row sums and accumulator."""
    s_layout: gl.constexpr = mma_layout(prob.BLOCK_N)
    o_layout: gl.constexpr = mma_layout(prob.BLOCK_D)
    mbarrier.wait(bufs.q_ready.index(t % prob.Q_BUFS), (t // prob.Q_BUFS) & 1)
    m_i = gl.full([ROWS_PER_CONSUMER], float("-inf"), gl.float32, layout=gl.SliceLayout(1, s_layout))
    l_i = gl.zeros([ROWS_PER_CONSUMER], gl.float32, layout=gl.SliceLayout(1, s_layout))
    acc = gl.zeros([ROWS_PER_CONSUMER, prob.BLOCK_D], gl.float32, layout=o_layout)
    return m_i, l_i, acc


@gluon.jit
def _first_scores(q, bufs, prob, i, t):
    """The overlapped loop's start: QK^T of the tile's first block (ring slot i), retired; its K slot and the
    previous tile's Q buffer handed back."""
    STAGES: gl.constexpr = prob.STAGES
    s_layout: gl.constexpr = mma_layout(prob.BLOCK_N)
    s_idx = i % STAGES
    mbarrier.wait(bufs.k_ready.index(s_idx), (i // STAGES) & 1)
    s = warpgroup_mma(q, bufs.k.index(s_idx).permute((1, 0)),
                      gl.zeros([ROWS_PER_CONSUMER, prob.BLOCK_N], gl.float32, layout=s_layout), use_acc=False,
                      is_async=True)
    s = warpgroup_mma_wait(0, deps=[s])
    mbarrier.arrive(bufs.k_free.index(s_idx))
    _free_q(bufs, t, prob.Q_BUFS)
    return s


@gluon.jit
def _last_pv(bufs, prob, acc, p_op, last):
    """The overlapped loop's end: PV of its last block (ring slot `last`), retired, its V slot handed back."""
    v_idx = last % prob.STAGES
    mbarrier.wait(bufs.v_ready.index(v_idx), (last // prob.STAGES) & 1)
    acc = warpgroup_mma(p_op, bufs.v.index(v_idx), acc, is_async=True)
    acc = warpgroup_mma_wait(0, deps=[acc])
    mbarrier.arrive(bufs.v_free.index(v_idx))
    return acc


@gluon.jit
def consume_tile(bufs, prob, m, b0, b1, nk, i, t, qk_scale, CONSUMER: gl.constexpr):
    """This consumer's 64 rows of tile row m over key blocks b0 .. b1-1 (causal: up to its diagonal):
    (unnormalised acc, running max in base 2, row sums, blocks consumed, tiles consumed)."""
    BLOCK_N: gl.constexpr = prob.BLOCK_N
    CAUSAL: gl.constexpr = prob.CAUSAL
    Q_BUFS: gl.constexpr = prob.Q_BUFS
    TILE_M: gl.constexpr = prob.TILE_M
    s_layout: gl.constexpr = mma_layout(BLOCK_N)
    o_layout: gl.constexpr = mma_layout(prob.BLOCK_D)
    N_KV = prob.N_KV
    n_blocks = b1 - b0
    n_plain = nk - 1 - b0  # blocks before the first that needs a mask (here: the ragged last one)
    tail = N_KV - (nk - 1) * BLOCK_N  # valid columns in the last block
    q = q_rows(bufs, t, CONSUMER, Q_BUFS)
    row0 = first_row(m, CONSUMER, TILE_M)
    if CAUSAL:
        # every consumer takes every block the producer loads for the tile; masks start at the first block
        # reaching past this consumer's first row
        n_blocks = gl.cdiv(gl.minimum(N_KV, (m + 1) * TILE_M), BLOCK_N)
        n_plain = gl.minimum(N_KV // BLOCK_N, (row0 + 1) // BLOCK_N)
    m_i, l_i, acc = _tile_start(bufs, prob, t)
    if prob.OVERLAP:
        # block 0: scores and softmax; its PV is issued together with block 1's scores
        s = _first_scores(q, bufs, prob, i, t)
        if n_plain == 0:
            p, alpha, m_i, l_i = softmax_block(s, m_i, l_i, qk_scale, N_KV if CAUSAL else tail, row0, True,
                                               CAUSAL, BLOCK_N, s_layout)
        else:
            p, alpha, m_i, l_i = softmax_block(s, m_i, l_i, qk_scale, N_KV, row0, False, CAUSAL, BLOCK_N,
                                               s_layout)
        p_op = gl.convert_layout(p.to(bufs.q.dtype),
                                 gl.DotOperandLayout(operand_index=0, parent=o_layout, k_width=2))
        if CAUSAL:  # the unmasked blocks, then the diagonal ones: no branch in either loop
            # at D = 256 (192 runs at 256) the mask's registers do not fit beside an in-flight PV: retire it first
            DIAG_IN_FLIGHT: gl.constexpr = 0 if prob.BLOCK_D > 128 else 1
            split = gl.maximum(n_plain, 1)
            for j in range(1, split):
                acc, p_op, m_i, l_i = _overlap_step(q, bufs, prob, acc, p_op, m_i, l_i, qk_scale, i, j, False, 0,
                                                    row0, 0)
            for j in range(split, n_blocks):
                acc, p_op, m_i, l_i = _overlap_step(q, bufs, prob, acc, p_op, m_i, l_i, qk_scale, i, j, True, 0,
                                                    row0, 1, DIAG_IN_FLIGHT)
        else:
            for j in range(1, n_blocks):
                acc, p_op, m_i, l_i = _overlap_step(q, bufs, prob, acc, p_op, m_i, l_i, qk_scale, i, j,
                                                    j >= n_plain, tail, row0, 2)
        acc = _last_pv(bufs, prob, acc, p_op, i + n_blocks - 1)
    else:
        _free_q(bufs, t, Q_BUFS)
        for j in range(0, n_blocks):
            if j >= n_plain:  # dense: the ragged last block; causal: the diagonal ones
                acc, m_i, l_i = _serial_step(q, bufs, prob, acc, m_i, l_i, qk_scale, i, j,
                                             N_KV - j * BLOCK_N if CAUSAL else tail, row0 - j * BLOCK_N, True)
            else:
                acc, m_i, l_i = _serial_step(q, bufs, prob, acc, m_i, l_i, qk_scale, i, j, N_KV, row0, False)
    return acc, m_i, l_i, i + n_blocks, t + 1


@gluon.jit
def consume_band_tile(bufs, prob, hz, m, i, t, qk_scale, CONSUMER: gl.constexpr):
    """consume_tile under a band mask (mask_schedule): the tile's blocks a..d-1, as the producer loads them; this
    consumer's full blocks b..c-1 (from its own 64 rows) unmasked, the others masked. Overlapped: no branch inside
    a loop (the partial blocks before the full ones, the full ones, the partial ones after; block 0's QK^T before
    them all); serial: one loop with a branch (see there)."""
    BLOCK_M: gl.constexpr = ROWS_PER_CONSUMER
    BLOCK_N: gl.constexpr = prob.BLOCK_N
    Q_BUFS: gl.constexpr = prob.Q_BUFS
    TILE_M: gl.constexpr = prob.TILE_M
    s_layout: gl.constexpr = mma_layout(BLOCK_N)
    o_layout: gl.constexpr = mma_layout(prob.BLOCK_D)
    N_Q = prob.N_Q
    row0 = first_row(m, CONSUMER, TILE_M)
    if prob.ROWS:  # key intervals: the host's table, each row's own [lo, hi) (vectors, one per row)
        a, d = rows_tile(prob, hz, m)
        _a, b, c, _d = rows_entry(prob, hz // prob.H, m * prob.N_CONS + CONSUMER)
        kv_lo, kv_hi = row_keys(prob, hz, row0, gl.SliceLayout(1, s_layout))
    else:
        kv_lo, kv_hi = key_range(prob, hz)
        a, _b, _c, d = band_blocks(prob, kv_lo, kv_hi, m * TILE_M, gl.minimum((m + 1) * TILE_M, N_Q))
        _a, b, c, _d = band_blocks(prob, kv_lo, kv_hi, row0, gl.minimum(row0 + BLOCK_M, N_Q))
    b = gl.minimum(gl.maximum(b, a), d)
    c = gl.minimum(gl.maximum(c, b), d)
    n_blocks = d - a
    q = q_rows(bufs, t, CONSUMER, Q_BUFS)
    m_i, l_i, acc = _tile_start(bufs, prob, t)
    if prob.OVERLAP:
        s = _first_scores(q, bufs, prob, i, t)
        if (a < b) | (a >= c):
            p, alpha, m_i, l_i = softmax_band(s, m_i, l_i, qk_scale, a * BLOCK_N, row0, prob, kv_lo, kv_hi, s_layout)
        else:
            p, alpha, m_i, l_i = softmax_block(s, m_i, l_i, qk_scale, 0, 0, False, False, BLOCK_N, s_layout)
        p_op = gl.convert_layout(p.to(bufs.q.dtype),
                                 gl.DotOperandLayout(operand_index=0, parent=o_layout, k_width=2))
        # at D = 256 the mask's registers do not fit beside an in-flight PV: retire it first there
        EDGE_IN_FLIGHT: gl.constexpr = 0
        full0 = gl.maximum(b - a, 1)
        full1 = gl.maximum(c - a, full0)
        for j in range(1, full0):
            acc, p_op, m_i, l_i = _overlap_step(q, bufs, prob, acc, p_op, m_i, l_i, qk_scale, i, j, True, 0, row0, 3,
                                                EDGE_IN_FLIGHT, (a + j) * BLOCK_N, kv_lo, kv_hi)
        for j in range(full0, full1):
            acc, p_op, m_i, l_i = _overlap_step(q, bufs, prob, acc, p_op, m_i, l_i, qk_scale, i, j, False, 0, row0,
                                                0)
        for j in range(full1, n_blocks):
            acc, p_op, m_i, l_i = _overlap_step(q, bufs, prob, acc, p_op, m_i, l_i, qk_scale, i, j, True, 0, row0, 3,
                                                EDGE_IN_FLIGHT, (a + j) * BLOCK_N, kv_lo, kv_hi)
        acc = _last_pv(bufs, prob, acc, p_op, i + n_blocks - 1)
    else:
        _free_q(bufs, t, Q_BUFS)
        # one loop, the mask picked per block (as consume_tile's serial loop): as three loops in a row, Triton 3.6's
        # ptxas wrote Q's wgmma descriptors only before the first, and the second read stale ones when the first
        # ran no block (illegal shared-memory address on the H100; tests/sass_defs.py finds such reads)
        for j in range(0, n_blocks):
            if (j < b - a) | (j >= c - a):
                acc, m_i, l_i = _serial_step(q, bufs, prob, acc, m_i, l_i, qk_scale, i, j, 0, row0, True, True,
                                             (a + j) * BLOCK_N, kv_lo, kv_hi)
            else:
                acc, m_i, l_i = _serial_step(q, bufs, prob, acc, m_i, l_i, qk_scale, i, j, 0, 0, False, True)
    return acc, m_i, l_i, i + n_blocks, t + 1
