"""Own FlashAttention forward for Hopper in Gluon, Triton's explicit tile language (triton.experimental.gluon):
the host side (launch, forward, tune). The kernel is gluon_kernel.py (state in gluon_state.py, per-tile math in
gluon_steps.py, split tail in gluon_split.py); which config runs where, gluon_tiles.py; the measurements behind
each choice, docs/attention-kernels.md ("Gluon").

Plain `tl` code cannot say what the fast Hopper kernels do: Triton's pipeliner puts CTA-wide barriers around each
TMA refill, so both warpgroups run softmax at the same moment while the tensor cores idle. Gluon lets the kernel
state it:

* warp specialisation: a 4-warp producer issues TMA loads into K and V rings; one to three 4-warp consumers each
  own 64 query rows. Stages are handed over with mbarriers, never a CTA-wide barrier, so one consumer's softmax
  runs while another's wgmma does (FA3's ping-pong, left to the warp schedulers).
* overlap: inside a consumer, QK^T of block j and PV of block j-1 are both in flight (FA3's intra-warpgroup
  pipelining); K and V have separate rings so each stage is released as soon as it is read.
* persistent grid (one or two CTAs per SM) walking tiles, the output staged in the tile's dead Q buffer for a TMA
  store, and, dense, the last waves split along the keys (stream-K's "data-parallel + one wave").

Any lengths: tiles past a head's end read the next head's rows (or TMA zero fill), the last key block is masked,
query rows past the end are never stored. Returns log-sum-exp. CAUSAL (top-left): key blocks up to each tile's
last row only, the diagonal ones masked, tiles longest first. GQA: kv head h // GROUP. Masks: a band (windows,
padding) or key intervals (documents: per-row key ranges and a block table per 64 rows), mask_schedule.py. Head
dims between powers of two (80, 96, 192) run at the next one up: TMA fills the columns past D with zeros and writes
none past D back (head_dims.py).
"""
from __future__ import annotations

from types import SimpleNamespace

from triton.experimental.gluon import language as gl

from . import head_dims
from .gluon_kernel import attn_fwd_ws_kernel
from .gluon_tiles import (ROWS_PER_CONSUMER, SPLIT_MAX_HEAD_DIM, Config, candidate_configs, default_config,
                          launch_options, work_split)

__all__ = ["Config", "SplitWorkspace", "candidate_configs", "candidates", "default_config", "forward", "launch", "tune"]


class SplitWorkspace:
    """The global memory a split launch merges its key-cut tiles through (gluon_split), one per device, stream and
    launch size: a slot of (64 x block_d fp32 acc, 64 max, 64 sums) per CTA and consumer (block_d: the tile width,
    head_dims.block_d), and two sets of a counter per slot, zeroed once here and then by the launches themselves;
    launches on one stream run in order, so they never share a set (`epoch` says which set a launch uses)."""
    _cache: dict = {}

    def __init__(self, device, n_ctas: int, block_d: int, consumers: int):
        import torch

        slots = n_ctas * consumers
        self.acc = torch.empty(slots * ROWS_PER_CONSUMER * block_d, dtype=torch.float32, device=device)
        self.stats = torch.empty(slots * 2 * ROWS_PER_CONSUMER, dtype=torch.float32, device=device)
        self.flags = torch.zeros(2 * slots, dtype=torch.int32, device=device)
        self.epoch = 0

    @classmethod
    def for_launch(cls, device, n_ctas: int, block_d: int, consumers: int, split: bool) -> "SplitWorkspace":
        """The workspace of this device, stream and size; its epoch advanced for a split launch about to be made
        (only those use and zero counters)."""
        import torch

        key = (device, torch.cuda.current_stream(device).stream_id, n_ctas, block_d, consumers)
        if key not in cls._cache:
            cls._cache[key] = cls(device, n_ctas, block_d, consumers)
        ws = cls._cache[key]
        if split:
            ws.epoch = ws.epoch % (2**31 - 1) + 1
        return ws


def launch(q, k, v, scale: float | None = None, config: Config | None = None, causal: bool = False, band=None,
           key_ranges=None, key_intervals=None, compile_only: bool = False):
    """(out, lse, the compiled kernel) — `tune` reads the kernel's register spills. band (mask_schedule.Band) and
    key_ranges (per batch (lo, hi): padding) run the band path, causal folded in; key_intervals
    (key_intervals.KeyIntervals: per row the kept keys, documents) the whole mask (mask_args.band_args).
    compile_only: the kernel compiled, not run (launching.launcher)."""
    import torch
    from triton.experimental.gluon.nvidia.hopper import TensorDescriptor

    from .launching import launcher
    from .mask_args import band_args
    from .triton_fa import num_sms, prepare

    causal, band, ranges, intervals = band_args(q, causal, band, key_ranges, key_intervals)
    q, k, v, scale, o, lse = prepare(q, k, v, scale)
    B, H, NQ, D = q.shape
    HKV, NK = k.shape[1], k.shape[2]
    cfg = config or default_config(D)
    gdt = gl.bfloat16 if q.dtype == torch.bfloat16 else gl.float16
    q_rows = cfg.tile_m
    width = head_dims.block_d(D)

    def desc(t, rows):
        """t's rows (B * heads * length, D) in boxes of rows x width: columns D.. read as zeros, never written."""
        layout = gl.NVMMASharedLayout.get_default_for([rows, width], gdt)
        return TensorDescriptor(t, [t.shape[0] * t.shape[1] * t.shape[2], D], [D, 1], [rows, width], layout)

    n_m = -(-NQ // q_rows)
    n_tiles = n_m * B * H
    # a CUDA graph would replay one epoch, so its counters would never be zeroed again: captured, not split
    n_ctas, n_dp = work_split(n_tiles, -(-NK // cfg.block_n), cfg.ctas_per_sm * num_sms(q.device),
                              cfg.split and not causal and band is None and width <= SPLIT_MAX_HEAD_DIM
                              and not torch.cuda.is_current_stream_capturing())
    split = n_dp < n_tiles
    # compiled only: no workspace (its counters are zeroed on the GPU); any tensors of its dtypes compile the same
    ws = (SimpleNamespace(acc=lse, stats=lse, flags=torch.empty(1, dtype=torch.int32, device=q.device), epoch=1)
          if compile_only else SplitWorkspace.for_launch(q.device, n_ctas, width, cfg.consumers, split))
    kernel = launcher(attn_fwd_ws_kernel, (n_ctas,), compile_only)(
        desc(q, ROWS_PER_CONSUMER), desc(k, cfg.block_n), desc(v, cfg.block_n), o,
        desc(o, ROWS_PER_CONSUMER),  # a consumer's rows, staged in its piece of the Q buffer
        lse, ws.acc, ws.stats, ws.flags, ws.epoch,
        scale, H, H // HKV, NQ, NK, o.stride(0), o.stride(1), o.stride(2), n_m, n_tiles, n_dp,
        band.left if band else 0, band.right if band else 0,
        lse if ranges is None else ranges,  # never read without RANGES (nor the next two without ROWS): any pointer
        lse if intervals is None else intervals.rows,
        lse if intervals is None else intervals.table(ROWS_PER_CONSUMER, cfg.block_n, NK),
        HEAD_DIM=D, BLOCK_D=width,
        BLOCK_N=cfg.block_n, STAGES=cfg.stages, OVERLAP=cfg.overlap, CONSUMER_REGS=cfg.consumer_regs,
        CAUSAL=bool(causal), Q_BUFS=cfg.q_buffers, N_CONS=cfg.consumers, SPLIT=split, BAND=band is not None,
        RANGES=ranges is not None, ROWS=intervals is not None, Q_CHUNK=cfg.q_chunk if causal and band is None else 1,
        **launch_options(cfg))
    return o, lse, kernel


def forward(q, k, v, scale: float | None = None, config: Config | None = None, causal: bool = False, band=None,
            key_ranges=None, key_intervals=None):
    """(out, lse) like triton_fa.forward: out (B,Hq,Sq,D), lse (B,Hq,Sq) float32 natural log; k, v (B,Hkv,Sk,D),
    query head h reads kv head h // (Hq // Hkv); causal: top-left, query i sees keys j <= i; band, key_ranges and
    key_intervals: see launch (a row that keeps no key: out 0, lse -inf)."""
    return launch(q, k, v, scale, config, causal, band, key_ranges, key_intervals)[:2]


def candidates(q, k, causal: bool = False, band=None, key_ranges=None, key_intervals=None) -> list[Config]:
    """The configs tune() times at this shape: a mask's are the causal ones (no split tail); plain causal also
    passes the keys its longest tile reads (top-left: min(Sq, Sk)), from which the chunked tile orders are
    offered (gluon_tiles.candidate_configs)."""
    masked = causal or band is not None or key_ranges is not None or key_intervals is not None
    plain_causal = causal and band is None and key_ranges is None and key_intervals is None
    return candidate_configs(q.shape[3], masked, min(q.shape[2], k.shape[2]) if plain_causal else 0)


def tune(q, k, v, scale: float | None = None, causal: bool = False, configs: list[Config] | None = None,
         bench=None, known: dict | None = None, band=None, key_ranges=None,
         key_intervals=None, compile_only: bool = False) -> tuple[list[dict], Config | None]:
    """(a row per config timed at this shape, failures and spilling configs recorded not raised; the fastest
    config or None). known: the tuning cache's entry at this shape; compile_only: timing.tune_forward. A band's
    configs are the causal ones (no split tail)."""
    from ..timing import compile_workers, kernel_spills, tune_forward

    return tune_forward(lambda cfg, only=False: launch(q, k, v, scale, cfg, causal, band, key_ranges, key_intervals,
                                                       only),
                        configs or candidates(q, k, causal, band, key_ranges, key_intervals),
                        Config.label, bench, spills=lambda res: kernel_spills(res[2]), known=known,
                        parallel=compile_workers(), compile_only=compile_only)
