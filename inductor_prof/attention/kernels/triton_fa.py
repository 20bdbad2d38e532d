"""Own Triton FlashAttention-2 forward for Hopper: TMA tensor descriptors, online softmax in base 2, log-sum-exp.

Q, K, V are read through 2-D tensor descriptors over (B*H*S, D), so every tile load is one TMA copy. Tiles
that run past a head's sequence read the next head's rows (or TMA's zero fill at the tensor's end); those
key columns are masked in the one tail block and those query rows are never stored, so any lengths work.
CAUSAL (top-left, query i sees keys j <= i): blocks wholly below the tile's first row run unmasked, the diagonal
blocks masked, blocks past its last row are never loaded; tiles launch longest first within groups of heads
(heads_per_group). GQA: k/v have H // GROUP heads, query head h reads h // GROUP. Head dims between powers of two
(80, 96, 192) run at the next one up, BLOCK_D: TMA fills the columns past D with zeros, and the store writes the D
that exist (head_dims.py).
`SPLIT=2` processes the query tile as two independent halves in one loop, giving the scheduler two chains
of wgmma + softmax to overlap (a manual ping-pong; measured slower).

Why this `tl` kernel stops near 0.87x of cuDNN on the H100 (gluon_fa.py is the kernel that gets past it), and what was
tried: docs/attention-kernels.md ("`tl`").
"""
from __future__ import annotations

import math
import os
from dataclasses import dataclass

import triton
import triton.language as tl

from . import head_dims

DTYPES = ("torch.bfloat16", "torch.float16")


@triton.jit
def _accumulate(p, alpha, acc, l_i, v):
    """A block's softmax weights `p` into the running state rescaled by `alpha`: (acc, row sums)."""
    l_i = l_i * alpha + tl.sum(p, 1)
    acc = acc * alpha[:, None]
    return tl.dot(p.to(v.dtype), v, acc), l_i


@triton.jit
def _online_softmax_step(q, k, v, acc, m_i, l_i, qk_scale, start_n, N_KV, row0, MASK_TAIL: tl.constexpr,
                         BLOCK_N: tl.constexpr, CAUSAL_MASK: tl.constexpr = False):
    qk = tl.dot(q, k.T)
    if MASK_TAIL:
        cols = start_n + tl.arange(0, BLOCK_N)
        keep = cols[None, :] < N_KV
        if CAUSAL_MASK:  # top-left: query row i sees keys j <= i
            keep = keep & (cols[None, :] <= (row0 + tl.arange(0, q.shape[0]))[:, None])
        qk = tl.where(keep, qk * qk_scale, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(qk, 1))
        qk = qk - m_new[:, None]
    else:
        m_new = tl.maximum(m_i, tl.max(qk, 1) * qk_scale)
        qk = qk * qk_scale - m_new[:, None]
    acc, l_i = _accumulate(tl.math.exp2(qk), tl.math.exp2(m_i - m_new), acc, l_i, v)
    return acc, m_new, l_i


@triton.jit
def _band_step(q, k, v, acc, m_i, l_i, qk_scale, start_n, row0, left, right, kv_lo, kv_hi,
               BLOCK_N: tl.constexpr):
    """A partial key block of a band mask (mask_schedule): row i keeps key j when kv_lo <= j < kv_hi and
    i - left <= j <= i + right. A row that keeps no key yet has max -inf: it subtracts 0, so p and alpha are 0."""
    qk = tl.dot(q, k.T)
    cols = start_n + tl.arange(0, BLOCK_N)
    rows = row0 + tl.arange(0, q.shape[0])
    lo = tl.maximum(rows - left, kv_lo)
    hi = tl.minimum(rows + right + 1, kv_hi)
    keep = (cols[None, :] >= lo[:, None]) & (cols[None, :] < hi[:, None])
    qk = tl.where(keep, qk * qk_scale, float("-inf"))
    m_new = tl.maximum(m_i, tl.max(qk, 1))
    m_sub = tl.where(m_new == float("-inf"), 0.0, m_new)
    acc, l_i = _accumulate(tl.math.exp2(qk - m_sub[:, None]), tl.math.exp2(m_i - m_sub), acc, l_i, v)
    return acc, m_new, l_i


@triton.jit
def _rows_tile(entry, nk):
    """(a, b, c, d) of a tile from its entry of the key-interval table (mask_schedule.merge_tile: an empty tile
    visits one block, masked)."""
    a = tl.load(entry)
    b = tl.load(entry + 1)
    c = tl.load(entry + 2)
    d = tl.load(entry + 3)
    a = tl.minimum(a, nk - 1)
    d = tl.maximum(d, a + 1)
    b = tl.minimum(tl.maximum(b, a), d)
    c = tl.minimum(tl.maximum(c, b), d)
    return a, b, c, d


@triton.jit
def _row_keys(ROW_KEYS, off_z, row0, N_Q, ROWS_N: tl.constexpr):
    """The kept keys [lo, hi) of rows row0 .. row0 + ROWS_N - 1 of batch off_z (rows past N_Q: none)."""
    rows = row0 + tl.arange(0, ROWS_N)
    ptr = ROW_KEYS + (off_z.to(tl.int64) * N_Q + rows) * 2
    return tl.load(ptr, mask=rows < N_Q, other=0), tl.load(ptr + 1, mask=rows < N_Q, other=0)


@triton.jit
def _load_kv_masked(desc_k, desc_v, kv_row, start_n, N_KV, BLOCK_N: tl.constexpr):
    """K and V of a partial block; value rows past the head's end (the next head's, or TMA's zero fill) zeroed,
    as in the ragged tail."""
    k = desc_k.load([kv_row + start_n, 0])
    v = desc_v.load([kv_row + start_n, 0])
    v = tl.where(((start_n + tl.arange(0, BLOCK_N)) < N_KV)[:, None], v, 0.0).to(k.dtype)
    return k, v


@triton.jit
def _store_tile(O, LSE, acc, m_i, l_i, off_z, off_h, rows, N_Q, H, stride_oz, stride_oh, stride_om,
                HEAD_DIM: tl.constexpr, BLOCK_D: tl.constexpr):
    cols = tl.arange(0, BLOCK_D)   # the padded columns (HEAD_DIM on) are not the output's
    ok = rows < N_Q
    out = acc / tl.where(l_i == 0.0, 1.0, l_i)[:, None]   # a row that kept no key: 0 (mask_schedule's note)
    ptrs = O + off_z.to(tl.int64) * stride_oz + off_h.to(tl.int64) * stride_oh + rows[:, None].to(tl.int64) * stride_om
    tl.store(ptrs + cols[None, :], out.to(O.dtype.element_ty), mask=ok[:, None] & (cols < HEAD_DIM)[None, :])
    lse = (m_i + tl.math.log2(l_i)) * 0.6931471805599453
    tl.store(LSE + (off_z * H + off_h).to(tl.int64) * N_Q + rows, lse, mask=ok)


@triton.jit
def program_tile(HEADS_PER_GROUP):
    """(batch*head, query tile) of this program of a launch over the grid (query tiles, batch*heads), numbered in
    launch order: groups of HEADS_PER_GROUP heads (the last may be smaller) one after another; within a group the
    heads take turns, last (longest) query tile first."""
    n_m = tl.num_programs(0)
    pid = tl.program_id(0) + tl.program_id(1) * n_m
    per_group = HEADS_PER_GROUP * n_m
    first = (pid // per_group) * HEADS_PER_GROUP
    heads = tl.minimum(HEADS_PER_GROUP, tl.num_programs(1) - first)
    r = pid % per_group
    return first + r % heads, n_m - 1 - r // heads


@triton.jit
def attn_fwd_kernel(desc_q, desc_k, desc_v, O, LSE, sm_scale, H, N_Q, N_KV, GROUP,
                    stride_oz, stride_oh, stride_om, HEADS_PER_GROUP, LEFT, RIGHT, KV_RANGE, ROW_KEYS, SCHED,
                    HEAD_DIM: tl.constexpr, BLOCK_D: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                    SPLIT: tl.constexpr, NUM_STAGES: tl.constexpr, CAUSAL: tl.constexpr,
                    BAND: tl.constexpr = False, RANGES: tl.constexpr = False, ROWS: tl.constexpr = False):
    if CAUSAL:  # programs in launch order, grouped (see heads_per_group)
        off_hz, start_m = program_tile(HEADS_PER_GROUP)
    else:  # a 1-D grid with that index arithmetic ran FLUX's dense shape 5% slower (492-495 vs 464-469 us)
        start_m = tl.program_id(0)
        off_hz = tl.program_id(1)
    off_z = off_hz // H
    off_h = off_hz % H
    SUB_M: tl.constexpr = BLOCK_M // SPLIT
    q_row = off_hz * N_Q + start_m * BLOCK_M
    # GQA: query head h reads kv head h // GROUP of H // GROUP (Triton specialises GROUP == 1 to a constant)
    kv_row = (off_z * (H // GROUP) + off_h // GROUP) * N_KV
    qk_scale = sm_scale * 1.4426950408889634  # softmax in base 2: exp(x) = exp2(x * log2(e))
    n_full = (N_KV // BLOCK_N) * BLOCK_N
    m0 = start_m * BLOCK_M
    if CAUSAL:
        # key blocks wholly at or below the tile's first row need no mask; blocks past its last row are skipped
        n_full = tl.minimum(n_full, ((m0 + 1) // BLOCK_N) * BLOCK_N)
        n_end = tl.minimum(N_KV, m0 + BLOCK_M)

    q0 = desc_q.load([q_row, 0])
    m_0 = tl.full([SUB_M], float("-inf"), tl.float32)
    l0 = tl.zeros([SUB_M], tl.float32)
    acc0 = tl.zeros([SUB_M, BLOCK_D], tl.float32)
    if SPLIT == 2:
        q1 = desc_q.load([q_row + SUB_M, 0])
        m_1 = tl.full([SUB_M], float("-inf"), tl.float32)
        l1 = tl.zeros([SUB_M], tl.float32)
        acc1 = tl.zeros([SUB_M, BLOCK_D], tl.float32)
    if BAND:
        n_full = 0  # the band's own loops below
    for start_n in tl.range(0, n_full, BLOCK_N, num_stages=NUM_STAGES):
        k = desc_k.load([kv_row + start_n, 0])
        v = desc_v.load([kv_row + start_n, 0])
        acc0, m_0, l0 = _online_softmax_step(q0, k, v, acc0, m_0, l0, qk_scale, start_n, N_KV, m0, False, BLOCK_N)
        if SPLIT == 2:
            acc1, m_1, l1 = _online_softmax_step(q1, k, v, acc1, m_1, l1, qk_scale, start_n, N_KV, m0 + SUB_M,
                                                 False, BLOCK_N)
    if BAND:  # mask_schedule.tile_blocks: partial blocks a..b-1 and c..d-1 masked, full blocks b..c-1 not
        nk = tl.cdiv(N_KV, BLOCK_N)
        if ROWS:  # key intervals: the host's table (mask_schedule.interval_blocks), each row's own [lo, hi)
            a, b, c, d = _rows_tile(SCHED + (off_z * tl.cdiv(N_Q, BLOCK_M) + start_m) * 4, nk)
            kv_lo, kv_hi = _row_keys(ROW_KEYS, off_z, m0, N_Q, SUB_M)
            kv_lo1, kv_hi1 = _row_keys(ROW_KEYS, off_z, m0 + SUB_M, N_Q, SUB_M)
        else:
            kv_lo = 0
            kv_hi = N_KV
            if RANGES:  # this batch's kept keys [lo, hi) (padding)
                kv_lo = tl.load(KV_RANGE + 2 * off_z)
                kv_hi = tl.load(KV_RANGE + 2 * off_z + 1)
            kv_lo1 = kv_lo
            kv_hi1 = kv_hi
            m1 = tl.minimum(m0 + BLOCK_M, N_Q)  # one past the tile's last row that exists
            a = tl.minimum(tl.maximum(kv_lo, m0 - LEFT) // BLOCK_N, nk - 1)
            d = tl.minimum(tl.maximum(tl.cdiv(tl.minimum(kv_hi, m1 + RIGHT), BLOCK_N), a + 1), nk)
            b = tl.minimum(tl.maximum(tl.cdiv(tl.maximum(kv_lo, m1 - 1 - LEFT), BLOCK_N), a), d)
            c = tl.minimum(tl.maximum(tl.minimum(kv_hi, m0 + RIGHT + 1) // BLOCK_N, b), d)
        for i in tl.range(0, (b - a) + (d - c)):  # the partial blocks a..b-1, then c..d-1
            start_n = (a + i + (i >= b - a) * (c - b)) * BLOCK_N
            k, v = _load_kv_masked(desc_k, desc_v, kv_row, start_n, N_KV, BLOCK_N)
            acc0, m_0, l0 = _band_step(q0, k, v, acc0, m_0, l0, qk_scale, start_n, m0, LEFT, RIGHT, kv_lo, kv_hi,
                                       BLOCK_N)
            if SPLIT == 2:
                acc1, m_1, l1 = _band_step(q1, k, v, acc1, m_1, l1, qk_scale, start_n, m0 + SUB_M, LEFT, RIGHT,
                                           kv_lo1, kv_hi1, BLOCK_N)
        for blk in tl.range(b, c, num_stages=NUM_STAGES):
            k = desc_k.load([kv_row + blk * BLOCK_N, 0])
            v = desc_v.load([kv_row + blk * BLOCK_N, 0])
            acc0, m_0, l0 = _online_softmax_step(q0, k, v, acc0, m_0, l0, qk_scale, blk * BLOCK_N, N_KV, m0, False,
                                                 BLOCK_N)
            if SPLIT == 2:
                acc1, m_1, l1 = _online_softmax_step(q1, k, v, acc1, m_1, l1, qk_scale, blk * BLOCK_N, N_KV,
                                                     m0 + SUB_M, False, BLOCK_N)
    elif CAUSAL:  # the diagonal block(s) and the ragged tail, masked
        for start_n in tl.range(n_full, n_end, BLOCK_N):
            k = desc_k.load([kv_row + start_n, 0])
            v = desc_v.load([kv_row + start_n, 0])
            keep = (start_n + tl.arange(0, BLOCK_N)) < N_KV
            v = tl.where(keep[:, None], v, 0.0).to(k.dtype)
            acc0, m_0, l0 = _online_softmax_step(q0, k, v, acc0, m_0, l0, qk_scale, start_n, N_KV, m0, True,
                                                 BLOCK_N, True)
            if SPLIT == 2:
                acc1, m_1, l1 = _online_softmax_step(q1, k, v, acc1, m_1, l1, qk_scale, start_n, N_KV, m0 + SUB_M,
                                                     True, BLOCK_N, True)
    elif n_full < N_KV:  # ragged tail: one masked block; rows past the sequence get weight 0
        k = desc_k.load([kv_row + n_full, 0])
        v = desc_v.load([kv_row + n_full, 0])
        keep = (n_full + tl.arange(0, BLOCK_N)) < N_KV
        v = tl.where(keep[:, None], v, 0.0).to(k.dtype)
        acc0, m_0, l0 = _online_softmax_step(q0, k, v, acc0, m_0, l0, qk_scale, n_full, N_KV, m0, True, BLOCK_N)
        if SPLIT == 2:
            acc1, m_1, l1 = _online_softmax_step(q1, k, v, acc1, m_1, l1, qk_scale, n_full, N_KV, m0 + SUB_M, True,
                                                 BLOCK_N)
    rows = m0 + tl.arange(0, SUB_M)
    _store_tile(O, LSE, acc0, m_0, l0, off_z, off_h, rows, N_Q, H, stride_oz, stride_oh, stride_om, HEAD_DIM,
                BLOCK_D)
    if SPLIT == 2:
        _store_tile(O, LSE, acc1, m_1, l1, off_z, off_h, rows + SUB_M, N_Q, H, stride_oz, stride_oh, stride_om,
                    HEAD_DIM, BLOCK_D)


@dataclass(frozen=True)
class Config:
    block_m: int
    block_n: int
    split: int
    num_warps: int
    num_stages: int
    maxnreg: int | None = None   # a register cap that lets two CTAs share an SM (one's softmax hides the other's MMA)

    def label(self) -> str:
        cap = f"/r{self.maxnreg}" if self.maxnreg else ""
        return f"M{self.block_m}xN{self.block_n}/split{self.split}/w{self.num_warps}/s{self.num_stages}{cap}"


def candidate_configs(head_dim: int) -> list[Config]:
    """Tiles that fit Hopper's 228 KB of shared memory and 64K registers at this head dim's tile width (192 runs
    at 256: only tiles of at most 128 x 64 keys, 2 stages)."""
    width = head_dims.block_d(head_dim)
    out = []
    for bm, bn, split, warps, stages, cap in [
            (128, 128, 1, 8, 2, None), (128, 128, 1, 8, 3, None), (128, 128, 1, 8, 4, None),
            (128, 64, 1, 8, 2, None), (128, 64, 1, 8, 3, None), (128, 64, 1, 8, 4, None),
            (128, 64, 1, 8, 2, 128), (128, 128, 1, 8, 2, 128), (64, 128, 1, 4, 3, None), (64, 128, 1, 4, 4, None),
            (64, 64, 1, 4, 3, None), (64, 64, 1, 4, 4, None), (256, 64, 2, 8, 3, None), (256, 128, 2, 8, 2, None),
            (128, 64, 1, 4, 3, None)]:
        if width == 256 and (bn * bm > 128 * 64 or stages > 2):
            continue
        out.append(Config(bm, bn, split, warps, stages, cap))
    return out


def default_config(head_dim: int, interpret: bool) -> Config:
    if interpret:
        return Config(32, 16, 1, 4, 1)
    return Config(128, 64 if head_dims.block_d(head_dim) >= 128 else 128, 1, 8, 2)


def descriptors(q, k, v, cfg: Config):
    """The TMA descriptors the kernel loads through: q, k and v (contiguous) each seen as one table of rows
    (B * heads * length, D), a box of one sub-tile of queries (block_m / split rows) or one block of keys
    (block_n rows) by the tile width (head_dims.block_d: D's columns, then TMA's zeros); a tile past a head's end
    reads the next head's rows, or zeros past the table's end."""
    from triton.tools.tensor_descriptor import TensorDescriptor

    B, H, NQ, D = q.shape
    HKV, NK = k.shape[1], k.shape[2]
    sub_m = cfg.block_m // cfg.split
    width = head_dims.block_d(D)
    dq = TensorDescriptor(q, [B * H * NQ, D], [D, 1], [sub_m, width])
    dk = TensorDescriptor(k, [B * HKV * NK, D], [D, 1], [cfg.block_n, width])
    dv = TensorDescriptor(v, [B * HKV * NK, D], [D, 1], [cfg.block_n, width])
    return dq, dk, dv


def check_inputs(q, k, v) -> None:
    """q (B,Hq,Sq,D), k and v (B,Hkv,Sk,D) with Hq a multiple of Hkv (GQA/MQA when Hkv < Hq)."""
    if (q.dim() != 4 or k.dim() != 4 or k.shape != v.shape or q.shape[0] != k.shape[0] or q.shape[3] != k.shape[3]
            or q.shape[1] % k.shape[1]):
        raise ValueError(f"expected q (B,Hq,Sq,D), k and v (B,Hkv,Sk,D) with Hq a multiple of Hkv; got "
                         f"{tuple(q.shape)}, {tuple(k.shape)}, {tuple(v.shape)}")
    head_dims.check(q.shape[3])
    if str(q.dtype) not in DTYPES or k.dtype != q.dtype or v.dtype != q.dtype:
        raise ValueError(f"dtype {q.dtype} not supported (bfloat16, float16)")


def prepare(q, k, v, scale: float | None):
    """Checked, contiguous q, k, v, the scale (default 1/sqrt(D), the true head dim, not the padded tile width),
    and empty out (like q) and lse (float32)."""
    import torch

    check_inputs(q, k, v)
    q, k, v = q.contiguous(), k.contiguous(), v.contiguous()
    scale = 1.0 / math.sqrt(q.shape[3]) if scale is None else scale
    lse = torch.empty(q.shape[:3], device=q.device, dtype=torch.float32)
    return q, k, v, scale, torch.empty_like(q), lse


def num_sms(device) -> int:
    import torch

    return torch.cuda.get_device_properties(device).multi_processor_count


def l2_bytes(device) -> int:
    import torch

    return torch.cuda.get_device_properties(device).L2_cache_size


def heads_per_group(n_heads: int, n_m: int, kv_bytes_per_head: float, l2: int, n_sms: int, causal: bool) -> int:
    """Query heads whose causal tiles interleave, longest first (dense tiles are all alike: 1, the plain order).
    Longest first over many heads makes each wave of tiles about one length, so the short ones fill the end; but
    every running tile streams its head's K and V, so a group holds only the heads whose K and V fit in half of L2
    (kv_bytes_per_head: bytes of K and V one query head reads, shared under GQA), and at least two waves of tiles
    (2 x SMs). Groups are then evened out: a small last group of long tiles would run alone at the end.
    Measured on the H100 (FLUX's causal shape, 24 heads of 36 tiles, 2.4 MB of K/V each): groups of 8 265 us,
    all 24 at once 270, 22 + 2 309, one head at a time 296; cuDNN 253."""
    if not causal:
        return 1
    fit = int(l2 / 2 // kv_bytes_per_head)
    waves = -(-2 * n_sms // n_m)
    group = min(n_heads, max(fit, waves))
    n_groups = -(-n_heads // group)
    return -(-n_heads // n_groups)


def launch(q, k, v, scale: float | None = None, config: Config | None = None, causal: bool = False,
           group: int | None = None, band=None, key_ranges=None, key_intervals=None, compile_only: bool = False):
    """(out, lse, the compiled kernel: None in the interpreter) — `tune` reads the kernel's register spills;
    compile_only: the kernel compiled, not run (launching.launcher).
    group: heads per group of tiles (default heads_per_group's). band: a mask_schedule.Band; key_ranges: per batch
    the kept keys (lo, hi) (padding); either runs the band path (mask_schedule), with causal folded in.
    key_intervals (key_intervals.KeyIntervals): per row the kept keys (documents), the whole mask."""
    from .launching import launcher
    from .mask_args import band_args

    causal, band, ranges, intervals = band_args(q, causal, band, key_ranges, key_intervals)
    q, k, v, scale, o, lse = prepare(q, k, v, scale)
    B, H, NQ, D = q.shape
    NK = k.shape[2]
    interpret = os.environ.get("TRITON_INTERPRET") == "1"
    cfg = config or default_config(D, interpret)
    dq, dk, dv = descriptors(q, k, v, cfg)
    n_m = triton.cdiv(NQ, cfg.block_m)
    kv_bytes = 2 * NK * D * k.element_size() / (H // k.shape[1])
    on_gpu = q.is_cuda
    group = group or heads_per_group(B * H, n_m, kv_bytes, l2_bytes(q.device) if on_gpu else 0,
                                     num_sms(q.device) if on_gpu else 1, causal)
    rows = intervals.rows if intervals else None
    table = intervals.table(cfg.block_m, cfg.block_n, NK) if intervals else None
    kernel = launcher(attn_fwd_kernel, (n_m, B * H), compile_only)(
        dq, dk, dv, o, lse, scale, H, NQ, NK, H // k.shape[1], o.stride(0), o.stride(1), o.stride(2), group,
        band.left if band else 0, band.right if band else 0, ranges, rows, table, HEAD_DIM=D,
        BLOCK_D=head_dims.block_d(D), BLOCK_M=cfg.block_m, BLOCK_N=cfg.block_n, SPLIT=cfg.split,
        NUM_STAGES=cfg.num_stages, CAUSAL=bool(causal),
        BAND=band is not None, RANGES=ranges is not None, ROWS=intervals is not None, num_warps=cfg.num_warps,
        num_stages=cfg.num_stages, **({"maxnreg": cfg.maxnreg} if cfg.maxnreg else {}))
    return o, lse, kernel


def forward(q, k, v, scale: float | None = None, config: Config | None = None, causal: bool = False, band=None,
            key_ranges=None, key_intervals=None):
    """(out, lse): out (B,Hq,Sq,D) like q, lse (B,Hq,Sq) float32 natural log-sum-exp of the scaled scores.
    k, v (B,Hkv,Sk,D): query head h reads kv head h // (Hq // Hkv). causal: top-left, query i sees keys j <= i.
    band (mask_schedule.Band), key_ranges (per batch (lo, hi)) and key_intervals: see launch. A row that keeps no
    key: out 0, lse -inf."""
    return launch(q, k, v, scale, config, causal, band=band, key_ranges=key_ranges, key_intervals=key_intervals)[:2]


def tune(q, k, v, scale: float | None = None, causal: bool = False, configs: list[Config] | None = None,
         bench=None, known: dict | None = None, band=None, key_ranges=None,
         key_intervals=None, compile_only: bool = False) -> tuple[list[dict], Config | None]:
    """(a row per config timed at this shape, failures and spilling configs recorded not raised; the fastest
    config or None). known: the tuning cache's entry at this shape; compile_only: timing.tune_forward."""
    from ..timing import compile_workers, kernel_spills, tune_forward

    return tune_forward(lambda cfg, only=False: launch(q, k, v, scale, cfg, causal, band=band, key_ranges=key_ranges,
                                                       key_intervals=key_intervals, compile_only=only),
                        configs or candidate_configs(q.shape[3]), Config.label, bench,
                        spills=lambda res: kernel_spills(res[2]), known=known, parallel=compile_workers(),
                        compile_only=compile_only)
