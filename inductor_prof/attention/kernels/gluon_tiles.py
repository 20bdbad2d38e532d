"""The Gluon kernel's tile policy for the H100 (sm_90): the Config a launch is compiled for, the candidate configs
per head dim that tune() times, how each fits the SM's shared memory and registers, and how a launch's tiles are
cut over the persistent CTAs. Plain Python: no Triton here (gluon_fa.py launches, gluon_kernel.py is the kernel)."""
from __future__ import annotations

from dataclasses import dataclass, replace

from . import head_dims

ROWS_PER_CONSUMER = 64  # one wgmma M per 4-warp consumer


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
    q_chunk: int = 1  # causal: C adjacent query tiles of a head run side by side (tile_order); 1: a tile a head

    @property
    def tile_m(self) -> int:
        return ROWS_PER_CONSUMER * self.consumers

    def label(self) -> str:
        return (f"ws M{self.tile_m}xN{self.block_n}/s{self.stages}{'/overlap' if self.overlap else ''}"
                f"/r{self.consumer_regs}"
                f"{'/q2' if self.q_buffers == 2 else ''}{'/split' if self.split else ''}"
                f"{f'/{self.ctas_per_sm}cta' if self.ctas_per_sm > 1 else ''}"
                f"{f'/c{self.q_chunk}' if self.q_chunk > 1 else ''}")


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


def q_buffers_that_fit(head_dim: int, block_n: int, stages: int, consumers: int = 2, ctas_per_sm: int = 1) -> int:
    """How many Q tile buffers (Config.q_buffers) fit in one CTA's shared memory beside its K and V rings of
    `stages` x block_n keys (2-byte elements): 2 where two do, else 1 where one does, else 0 (the config cannot
    run); with two CTAs per SM, in half of SHARED_MEMORY_BYTES."""
    room = SHARED_MEMORY_BYTES // ctas_per_sm
    ring = 2 * stages * block_n * head_dim * 2
    q_tile = consumers * ROWS_PER_CONSUMER * head_dim * 2
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
# CTA's tile start and end run beside the other's loop (figures: docs/attention-kernels.md, "Gluon").
_SHAPES = [(128, 2, True, 2, 240, 1), (128, 3, True, 2, 240, 1), (128, 2, False, 2, 240, 1),
           (64, 2, True, 2, 240, 1), (64, 3, True, 2, 240, 1), (64, 4, True, 2, 240, 1),
           (128, 2, False, 3, 160, 1), (128, 3, False, 3, 160, 1), (64, 2, True, 1, 240, 1),
           (128, 2, True, 1, 216, 2)]
THREE_CONSUMERS_MAX_HEAD_DIM = 64
ONE_CONSUMER_MIN_HEAD_DIM = 256
TWO_CTAS_MAX_HEAD_DIM = 64
# the owner of a split tile holds a second accumulator while merging: at head dim 256 that spills
SPLIT_MAX_HEAD_DIM = 128


def consumers_fit(consumers: int, ctas_per_sm: int, head_dim: int) -> bool:
    """Whether a tile of `consumers` warpgroups, ctas_per_sm CTAs to an SM, is a candidate at this head dim (the
    register budget and the measurements above): three consumers only up to THREE_CONSUMERS_MAX_HEAD_DIM; one
    only from ONE_CONSUMER_MIN_HEAD_DIM, or with two CTAs per SM up to TWO_CTAS_MAX_HEAD_DIM; two at any."""
    if ctas_per_sm > 1:
        return consumers == 1 and head_dim <= TWO_CTAS_MAX_HEAD_DIM
    return {3: head_dim <= THREE_CONSUMERS_MAX_HEAD_DIM, 1: head_dim >= ONE_CONSUMER_MIN_HEAD_DIM}.get(consumers, True)


def candidate_configs(head_dim: int, causal: bool = False, longest_keys: int = 0) -> list[Config]:
    """K and V rings that fit in shared memory next to the Q tile(s); dense, each overlapped one of one CTA per SM
    also with its last waves split (causal tiles are already ordered longest first, so there is no even tail to
    cut; two CTAs per SM split measured 53.9 against 48.4 us at (2,32/8,1024,64)). A head dim between powers of
    two takes the configs of the tile width it runs at (head_dims.block_d: 80, 96 those of 128; 192 of 256).
    longest_keys: plain causal only (no band), the keys its longest tile reads (min(Sq, Sk)); from CHUNK_MIN_KEYS
    on, the 128-key overlapped configs of two consumers also with each of Q_CHUNKS (see tile_order)."""
    head_dim = head_dims.block_d(head_dim)
    out = []
    chunked = causal and longest_keys >= CHUNK_MIN_KEYS and head_dim <= CHUNK_MAX_HEAD_DIM
    for bn, stages, overlap, consumers, regs, ctas in _SHAPES:
        q_bufs = q_buffers_that_fit(head_dim, bn, stages, consumers, ctas)
        if not q_bufs or not consumers_fit(consumers, ctas, head_dim):
            continue
        cfg = Config(bn, stages, overlap, regs, q_buffers=q_bufs, consumers=consumers, ctas_per_sm=ctas)
        out.append(cfg)
        if overlap and not causal and head_dim <= SPLIT_MAX_HEAD_DIM and ctas == 1:
            out.append(replace(cfg, split=True))
        if chunked and overlap and bn == 128 and consumers == 2 and ctas == 1:
            out.extend(replace(cfg, q_chunk=c) for c in Q_CHUNKS)
    return out


# Causal tile order (tile_order). At (1,32,32768,128) a tile streams its head's whole K and V (32,768 keys x 128 x
# 2 B x 2 = 16 MB) and, a tile a head, a wave of 132 tiles spans all 32 heads (512 MB of K/V, ~4 tiles reading
# each); the 50 MB L2 keeps that reuse only while the ~4 CTAs of a head stay within a few blocks of each other.
# C adjacent query tiles of a head in one wave put 132 / C heads in it, each read by ~C CTAs. scripts/
# sim_causal_order.py (CTAs at one block per unit of time, 2 units a tile start, a 40 MB LRU L2 of 64 KB K+V blocks)
# at (1,32,32768,128): L2 misses per block read 0.244 a tile a head, 0.169 at C = 6, 0.087 at 12. Within a chunk
# the lengths fall in a sawtooth of period C, which the odd waves' reversal cancels only where C divides the CTAs
# (132 on the H100 and H200: 6 and 12, not 8 and 16); busiest CTA / mean at (1,32,16384,128): 1.002 a tile a head,
# 1.002 at C = 6, 1.004 at 12, 1.030 at 8 and 16. At 16k and below the tuner's choice already beat cuDNN
# (1.05-1.30x, H200); offered from 16k only, so shorter shapes take no longer to tune. Head dim 256 keeps its
# head-by-head order (its index arithmetic spills otherwise).
Q_CHUNKS = (6, 12)
CHUNK_MIN_KEYS = 16384
CHUNK_MAX_HEAD_DIM = 128


def tile_order(n_hz: int, n_m: int, n_ctas: int, causal: bool = True, q_chunk: int = 1,
               block_d: int = 128) -> list[tuple[int, int]]:
    """(batch*head, query tile) of each persistent tile index in turn: CTA p runs indices p, p + n_ctas, ...; the
    plain-Python model of gluon_state.tile_of (the kernel's copy; tests check this one). Causal, block_d < 256:
    longest tiles first, in chunks of q_chunk adjacent query tiles (the last chunk of a head may be shorter): the
    chunk's tiles of head 0, then of head 1, ...; odd waves of n_ctas indices reversed (the CTA given one wave's
    longest tile gets the next one's shortest). Causal at block_d 256: head by head, longest first. Dense: head
    by head in query order."""
    n_tiles = n_hz * n_m
    out = []
    for tile in range(n_tiles):
        if not causal:
            out.append((tile // n_m, tile % n_m))
        elif block_d >= 256:
            out.append((tile // n_m, n_m - 1 - tile % n_m))
        else:
            w = tile // n_ctas
            if w % 2 == 1:
                tile = min(n_tiles, (w + 1) * n_ctas) - 1 - (tile - w * n_ctas)
            chunk = tile // (n_hz * q_chunk)
            width = min(q_chunk, n_m - chunk * q_chunk)  # tiles of each head in this chunk
            r = tile - chunk * n_hz * q_chunk
            out.append((r // width, n_m - 1 - chunk * q_chunk - r % width))
    return out


def default_config(head_dim: int) -> Config:
    head_dim = head_dims.block_d(head_dim)   # the tile width it runs at
    bn = 128 if head_dim <= 128 else 64
    return Config(bn, 2, True, q_buffers=q_buffers_that_fit(head_dim, bn, 2))


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

