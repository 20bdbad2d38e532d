"""Own FlashAttention forward for Hopper in Gluon, Triton's explicit tile language (triton.experimental.gluon).

Plain `tl` code cannot say what the fast Hopper kernels do (measured in scripts/bench_attention.py): Triton's
pipeliner puts CTA-wide barriers around each TMA refill, so both warpgroups run softmax at the same moment while
the tensor cores idle, and its automatic warp specialisation did not help. Gluon lets the kernel state it:

* warp specialisation: a 4-warp producer partition issues TMA loads into K and V rings; two 4-warp consumer
  partitions each own 64 query rows. Stages are handed over with mbarriers, never a CTA-wide barrier, so the
  two consumers drift apart and one's softmax runs while the other's wgmma does (FA3's ping-pong, left to the
  warp schedulers).
* `OVERLAP`: inside a consumer, QK^T of block j and PV of block j-1 are both in flight; softmax(j) runs after
  `wait(1)` retires only the first (FA3's intra-warpgroup pipelining). K and V have separate rings so the
  K stage of block j and the V stage of block j-1 are released independently.
* persistent grid: one CTA per SM walks tiles, so one tile's epilogue overlaps the next tile's loads.

Any lengths: K/V/Q tiles past a head's end read the next head's rows (or TMA zero fill at the tensor's end);
the last key block is masked, and query rows past the end are never stored. Returns log-sum-exp.
CAUSAL (top-left): the producer loads key blocks up to the tile's last row only; each consumer runs the blocks below
its first row unmasked, then the diagonal ones masked; tiles go longest first over all heads. GQA: kv head h // GROUP.
"""
from __future__ import annotations

from dataclasses import dataclass

from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import mbarrier, tma, warpgroup_mma, warpgroup_mma_wait

# Triton 3.6 (the H100 machine) names the TMA load async_copy_global_to_shared; later releases async_load
_tma_load = getattr(tma, "async_load", None) or tma.async_copy_global_to_shared
ROWS_PER_CONSUMER = gl.constexpr(64)  # one wgmma M per 4-warp consumer


@gluon.jit
def _tile(tile, n_m, n_hz, CAUSAL: gl.constexpr, HEAD_DIM: gl.constexpr):
    """(batch*head, query tile index) of a persistent tile. Causal: the longest tiles (the last of each head sees
    the most keys) go first over all heads (n_hz: batch x heads), so each round of tiles over the CTAs is of
    about one length and the short ones fill the end; a head-by-head order gave one CTA a head's longest tiles
    and another its shortest. At head dim 256 the extra index arithmetic spills (32 B of stack), so there each
    head's tiles go longest first, head by head."""
    if CAUSAL:
        if HEAD_DIM < 256:
            return tile % n_hz, n_m - 1 - tile // n_hz
        return tile // n_m, n_m - 1 - tile % n_m
    return tile // n_m, tile % n_m


@gluon.jit
def _kv_row(hz, H, GROUP, N_KV):
    """First row of the K/V head that query head hz % H reads (GQA: head h // GROUP of H // GROUP)."""
    return ((hz // H) * (H // GROUP) + (hz % H) // GROUP) * N_KV


@gluon.jit
def _producer(desc_q, desc_k, desc_v, q_smem, k_smem, v_smem, q_ready, q_free, k_ready, k_free, v_ready, v_free,
              H, GROUP, N_Q, N_KV, n_m, n_tiles, BLOCK_N: gl.constexpr, STAGES: gl.constexpr, CAUSAL: gl.constexpr):
    q_rows: gl.constexpr = desc_q.block_type.shape[0]
    i = 0  # key blocks issued so far, across tiles: ring slot i % STAGES, lap i // STAGES
    t = 0  # tiles started
    n_hz = n_tiles // n_m
    for tile in range(gl.program_id(0), n_tiles, gl.num_programs(0)):
        hz, m = _tile(tile, n_m, n_hz, CAUSAL, desc_q.block_type.shape[1])
        kv_row = _kv_row(hz, H, GROUP, N_KV)
        n_kv = N_KV
        if CAUSAL:  # key blocks past the tile's last row are never loaded
            n_kv = gl.minimum(N_KV, (m + 1) * q_rows)
        # the Q buffer is free once both consumers issued the last QK^T of the previous tile
        mbarrier.wait(q_free, (t & 1) ^ 1)
        mbarrier.expect(q_ready, desc_q.block_type.nbytes)
        _tma_load(desc_q, [hz * N_Q + m * q_rows, 0], q_ready, q_smem)
        for start_n in range(0, n_kv, BLOCK_N):
            s = i % STAGES
            free_phase = ((i // STAGES) & 1) ^ 1  # a fresh barrier passes a wait on phase 1
            mbarrier.wait(k_free.index(s), free_phase)
            mbarrier.expect(k_ready.index(s), desc_k.block_type.nbytes)
            _tma_load(desc_k, [kv_row + start_n, 0], k_ready.index(s), k_smem.index(s))
            mbarrier.wait(v_free.index(s), free_phase)
            mbarrier.expect(v_ready.index(s), desc_v.block_type.nbytes)
            _tma_load(desc_v, [kv_row + start_n, 0], v_ready.index(s), v_smem.index(s))
            i += 1
        t += 1


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
def _consumer(q_smem, k_smem, v_smem, q_ready, q_free, k_ready, k_free, v_ready, v_free, O, LSE, sm_scale, H,
              N_Q, N_KV, stride_oz, stride_oh, stride_om, n_m, n_tiles,
              CONSUMER: gl.constexpr, HEAD_DIM: gl.constexpr, BLOCK_N: gl.constexpr, STAGES: gl.constexpr,
              OVERLAP: gl.constexpr, CAUSAL: gl.constexpr):
    BLOCK_M: gl.constexpr = ROWS_PER_CONSUMER
    dtype: gl.constexpr = q_smem.dtype
    s_layout: gl.constexpr = gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1],
                                                       instr_shape=[16, BLOCK_N, 16])
    o_layout: gl.constexpr = gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1],
                                                       instr_shape=[16, HEAD_DIM, 16])
    p_layout: gl.constexpr = gl.DotOperandLayout(operand_index=0, parent=o_layout, k_width=2)
    s_rows: gl.constexpr = gl.SliceLayout(1, s_layout)
    o_rows: gl.constexpr = gl.SliceLayout(1, o_layout)
    qk_scale = sm_scale * 1.4426950408889634  # exp(x) = exp2(x * log2(e))
    n_blocks = gl.cdiv(N_KV, BLOCK_N)
    n_plain = n_blocks - 1  # blocks before the first that needs a mask (here: the ragged last one)
    tail = N_KV - (n_blocks - 1) * BLOCK_N  # valid columns in the last block
    q = q_smem.slice(CONSUMER * BLOCK_M, BLOCK_M, dim=0)
    i = 0
    t = 0
    n_hz = n_tiles // n_m
    for tile in range(gl.program_id(0), n_tiles, gl.num_programs(0)):
        hz, m = _tile(tile, n_m, n_hz, CAUSAL, HEAD_DIM)
        row0 = m * (2 * BLOCK_M) + CONSUMER * BLOCK_M
        if CAUSAL:
            # both consumers take every block the producer loads for the 128-row tile; masks start at the first
            # block reaching past this consumer's first row
            n_blocks = gl.cdiv(gl.minimum(N_KV, (m + 1) * (2 * BLOCK_M)), BLOCK_N)
            n_plain = gl.minimum(N_KV // BLOCK_N, (row0 + 1) // BLOCK_N)
        mbarrier.wait(q_ready, t & 1)
        m_i = gl.full([BLOCK_M], float("-inf"), gl.float32, layout=s_rows)
        l_i = gl.zeros([BLOCK_M], gl.float32, layout=s_rows)
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
            mbarrier.arrive(q_free)
            v_idx = (i + n_blocks - 1) % STAGES
            mbarrier.wait(v_ready.index(v_idx), ((i + n_blocks - 1) // STAGES) & 1)
            acc = warpgroup_mma(p_op, v_smem.index(v_idx), acc, is_async=True)
            acc = warpgroup_mma_wait(0, deps=[acc])
            mbarrier.arrive(v_free.index(v_idx))
        else:
            for j in range(0, n_blocks):
                idx = (i + j) % STAGES
                phase = ((i + j) // STAGES) & 1
                mbarrier.wait(k_ready.index(idx), phase)
                s = warpgroup_mma(q, k_smem.index(idx).permute((1, 0)),
                                  gl.zeros([BLOCK_M, BLOCK_N], gl.float32, layout=s_layout), use_acc=False,
                                  is_async=True)
                s = warpgroup_mma_wait(0, deps=[s])
                mbarrier.arrive(k_free.index(idx))
                if j >= n_plain:
                    n_valid = tail
                    if CAUSAL:
                        n_valid = N_KV - j * BLOCK_N
                    p, alpha, m_i, l_i = _softmax_block(s, m_i, l_i, qk_scale, n_valid, row0 - j * BLOCK_N, True,
                                                        CAUSAL, BLOCK_N, s_layout)
                else:
                    p, alpha, m_i, l_i = _softmax_block(s, m_i, l_i, qk_scale, N_KV, row0, False, CAUSAL, BLOCK_N,
                                                        s_layout)
                acc = acc * gl.convert_layout(alpha, o_rows)[:, None]
                mbarrier.wait(v_ready.index(idx), phase)
                acc = warpgroup_mma(gl.convert_layout(p.to(dtype), p_layout), v_smem.index(idx), acc,
                                    is_async=True)
                acc = warpgroup_mma_wait(0, deps=[acc])
                mbarrier.arrive(v_free.index(idx))
            mbarrier.arrive(q_free)
        i += n_blocks
        t += 1
        # epilogue: normalise, store the rows that exist, natural-log LSE
        rows = row0 + gl.arange(0, BLOCK_M, layout=o_rows)
        cols = gl.arange(0, HEAD_DIM, layout=gl.SliceLayout(0, o_layout))
        out = acc / gl.convert_layout(l_i, o_rows)[:, None]
        z = hz // H
        h = hz % H
        ptrs = O + z.to(gl.int64) * stride_oz + h.to(gl.int64) * stride_oh + rows[:, None].to(gl.int64) * stride_om
        gl.store(ptrs + cols[None, :], out.to(dtype), mask=(rows < N_Q)[:, None])
        lse_rows = row0 + gl.arange(0, BLOCK_M, layout=s_rows)
        lse = (m_i + gl.log2(l_i)) * 0.6931471805599453
        gl.store(LSE + hz.to(gl.int64) * N_Q + lse_rows, lse, mask=lse_rows < N_Q)


@gluon.jit
def attn_fwd_ws_kernel(desc_q, desc_k, desc_v, O, LSE, sm_scale, H, GROUP, N_Q, N_KV, stride_oz, stride_oh,
                       stride_om, n_m, n_tiles, HEAD_DIM: gl.constexpr, BLOCK_N: gl.constexpr, STAGES: gl.constexpr,
                       OVERLAP: gl.constexpr, CONSUMER_REGS: gl.constexpr, CAUSAL: gl.constexpr):
    dtype: gl.constexpr = desc_q.dtype
    q_smem = gl.allocate_shared_memory(dtype, desc_q.block_type.shape, desc_q.layout)
    k_smem = gl.allocate_shared_memory(dtype, [STAGES, BLOCK_N, HEAD_DIM], desc_k.layout)
    v_smem = gl.allocate_shared_memory(dtype, [STAGES, BLOCK_N, HEAD_DIM], desc_v.layout)
    q_ready = gl.allocate_shared_memory(gl.int64, [1], mbarrier.MBarrierLayout())
    q_free = gl.allocate_shared_memory(gl.int64, [1], mbarrier.MBarrierLayout())
    k_ready = gl.allocate_shared_memory(gl.int64, [STAGES, 1], mbarrier.MBarrierLayout())
    k_free = gl.allocate_shared_memory(gl.int64, [STAGES, 1], mbarrier.MBarrierLayout())
    v_ready = gl.allocate_shared_memory(gl.int64, [STAGES, 1], mbarrier.MBarrierLayout())
    v_free = gl.allocate_shared_memory(gl.int64, [STAGES, 1], mbarrier.MBarrierLayout())
    mbarrier.init(q_ready, count=1)
    mbarrier.init(q_free, count=2)
    for s in gl.static_range(STAGES):
        mbarrier.init(k_ready.index(s), count=1)
        mbarrier.init(k_free.index(s), count=2)
        mbarrier.init(v_ready.index(s), count=1)
        mbarrier.init(v_free.index(s), count=2)
    gl.warp_specialize([
        (_producer, (desc_q, desc_k, desc_v, q_smem, k_smem, v_smem, q_ready, q_free, k_ready, k_free, v_ready,
                     v_free, H, GROUP, N_Q, N_KV, n_m, n_tiles, BLOCK_N, STAGES, CAUSAL)),
        (_consumer, (q_smem, k_smem, v_smem, q_ready, q_free, k_ready, k_free, v_ready, v_free, O, LSE, sm_scale, H,
                     N_Q, N_KV, stride_oz, stride_oh, stride_om, n_m, n_tiles, 0, HEAD_DIM, BLOCK_N, STAGES,
                     OVERLAP, CAUSAL)),
        (_consumer, (q_smem, k_smem, v_smem, q_ready, q_free, k_ready, k_free, v_ready, v_free, O, LSE, sm_scale, H,
                     N_Q, N_KV, stride_oz, stride_oh, stride_om, n_m, n_tiles, 1, HEAD_DIM, BLOCK_N, STAGES,
                     OVERLAP, CAUSAL)),
    ], [4, 4], [CONSUMER_REGS, CONSUMER_REGS])


@dataclass(frozen=True)
class Config:
    block_n: int
    stages: int
    overlap: bool
    consumer_regs: int = 240

    def label(self) -> str:
        return f"ws M128xN{self.block_n}/s{self.stages}{'/overlap' if self.overlap else ''}/r{self.consumer_regs}"


def candidate_configs(head_dim: int) -> list[Config]:
    """K and V rings that fit 227 KB of shared memory next to the 128-row Q tile."""
    out = []
    for bn, stages, overlap in [(128, 2, True), (128, 3, True), (128, 2, False), (64, 2, True), (64, 3, True),
                                (64, 4, True)]:
        if (128 + 2 * stages * bn) * head_dim * 2 > 227 * 1024:
            continue
        out.append(Config(bn, stages, overlap))
    return out


def default_config(head_dim: int) -> Config:
    return Config(128 if head_dim <= 128 else 64, 2, True)



def _num_sms(device) -> int:
    import torch

    return torch.cuda.get_device_properties(device).multi_processor_count


def launch(q, k, v, scale: float | None = None, config: Config | None = None, causal: bool = False):
    """(out, lse, the compiled kernel) — `tune` reads the kernel's register spills."""
    import torch
    from triton.experimental.gluon.nvidia.hopper import TensorDescriptor

    from .triton_fa import prepare

    q, k, v, scale, o, lse = prepare(q, k, v, scale)
    B, H, NQ, D = q.shape
    HKV, NK = k.shape[1], k.shape[2]
    cfg = config or default_config(D)
    gdt = gl.bfloat16 if q.dtype == torch.bfloat16 else gl.float16
    q_rows = 2 * ROWS_PER_CONSUMER.value

    def desc(t, rows):
        layout = gl.NVMMASharedLayout.get_default_for([rows, D], gdt)
        return TensorDescriptor(t, [t.shape[0] * t.shape[1] * t.shape[2], D], [D, 1], [rows, D], layout)

    n_m = -(-NQ // q_rows)
    n_tiles = n_m * B * H
    grid = (min(n_tiles, _num_sms(q.device)),)
    kernel = attn_fwd_ws_kernel[grid](desc(q, q_rows), desc(k, cfg.block_n), desc(v, cfg.block_n), o, lse, scale, H,
                                      H // HKV, NQ, NK, o.stride(0), o.stride(1), o.stride(2), n_m, n_tiles,
                                      HEAD_DIM=D, BLOCK_N=cfg.block_n, STAGES=cfg.stages, OVERLAP=cfg.overlap,
                                      CONSUMER_REGS=cfg.consumer_regs, CAUSAL=bool(causal), num_warps=4)
    return o, lse, kernel


def forward(q, k, v, scale: float | None = None, config: Config | None = None, causal: bool = False):
    """(out, lse) like triton_fa.forward: out (B,Hq,Sq,D), lse (B,Hq,Sq) float32 natural log; k, v (B,Hkv,Sk,D),
    query head h reads kv head h // (Hq // Hkv); causal: top-left, query i sees keys j <= i."""
    return launch(q, k, v, scale, config, causal)[:2]


def tune(q, k, v, scale: float | None = None, causal: bool = False, configs: list[Config] | None = None,
         bench=None) -> tuple[list[dict], Config | None]:
    """(a row per config timed at this shape, failures and spilling configs recorded not raised; the fastest
    config or None)."""
    from .timing import kernel_spills, tune_forward

    return tune_forward(lambda cfg: launch(q, k, v, scale, cfg, causal), configs or candidate_configs(q.shape[3]),
                        Config.label, bench, spills=lambda res: kernel_spills(res[2]))
