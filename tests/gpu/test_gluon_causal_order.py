"""The Gluon kernel's chunked causal tile order (Config.q_chunk, gluon_state.tile_of): the kernel's tile_of gives
gluon_tiles.tile_order's (hz, m) for every tile index (the model the CPU tests check); against float64 at shapes
where a chunk is cut short at a head's end, with more tiles than SMs (odd waves reversed), GQA, two batches,
Sq != Sk, every tile computed once and stored where it belongs, the same bits as a tile a head. Which configs
tune() offers where: the CPU tests. Five compiles (and the default's): the default config at each offered chunk
and 16 (not a divisor of 132), the three-stage one-Q-buffer config at 12; head dim 64 at 12."""
import math
from dataclasses import replace

import pytest
import torch

from inductor_prof.attention.benchmark import registry
from inductor_prof.attention.benchmark.bench import TOLERANCE
from inductor_prof.attention.kernels import gluon_fa, gluon_tiles
from inductor_prof.attention.kernels.reference import attention_float64
from inductor_prof.attention.timing import kernel_spills
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from inductor_prof.attention.kernels.gluon_state import Problem, tile_of

if not torch.cuda.is_available() or not registry.backends(["gluon_fa3"])[0].available:
    pytest.skip(registry.backends(["gluon_fa3"])[0].reason or "no CUDA", allow_module_level=True)

# (B, Hq, Hkv, Sq, Sk, D). 2 x 6 heads x 17 tiles (2,100 rows) = 204 tiles: 17 = 12 + 5 and 2 x 6 + 5, a short last
# chunk at 6 and 12; 2 x 12/4 x 9 tiles = 216 > 132 (a partial, reversed second wave); 1 x 10/2 x 4 tiles with 700
# keys > 500 queries (top-left causal); head dim 64 at 3 x 16/4 x 16 = 768 tiles. The head-dim-128 shapes share one
# Triton specialisation (no size a multiple of 16 but the strides, no GROUP of 1), so each config compiles once
SHAPES = [(2, 6, 3, 2100, 2100, 128), (2, 12, 4, 1030, 1030, 128), (1, 10, 2, 500, 700, 128),
          (3, 16, 4, 2000, 2000, 64)]


@gluon.jit
def _order_kernel(OUT, n_hz, n_m, n_tiles, CAUSAL: gl.constexpr, BLOCK_D: gl.constexpr, Q_CHUNK: gl.constexpr):
    """(hz, m) of each tile index as the kernel's tile_of gives it, CTA p taking p, p + G, ... as the kernel does
    (a Problem with only what tile_of reads meaningful)."""
    prob = Problem(1, 1, 1, 1, n_m, n_tiles, n_tiles, 0, BLOCK_D, BLOCK_D, 128, 2, True, CAUSAL, 1, 2, False, 0, 0,
                   OUT, OUT, OUT, False, False, False, Q_CHUNK)
    for tile in range(gl.program_id(0), n_tiles, gl.num_programs(0)):
        hz, m = tile_of(tile, n_hz, prob)
        gl.store(OUT + 2 * tile, hz)
        gl.store(OUT + 2 * tile + 1, m)


# (heads, query tiles a head, CTAs): (1,32,32768,128) on 132; a short last chunk and a partial reversed wave
@pytest.mark.parametrize("n_hz, n_m, ctas", [(32, 256, 132), (12, 17, 132), (3, 50, 7)])
@pytest.mark.parametrize("chunk", (1,) + gluon_tiles.Q_CHUNKS + (16,))
@pytest.mark.parametrize("block_d", [128, 256])
def test_kernel_tile_order_is_the_model(n_hz, n_m, ctas, chunk, block_d):
    out = torch.full((n_hz * n_m, 2), -1, dtype=torch.int32, device="cuda")
    _order_kernel[(ctas,)](out, n_hz, n_m, n_hz * n_m, CAUSAL=True, BLOCK_D=block_d, Q_CHUNK=chunk, num_warps=1)
    want = gluon_tiles.tile_order(n_hz, n_m, ctas, True, chunk, block_d)
    assert [tuple(x) for x in out.tolist()] == [tuple(x) for x in want]


def _rel(a, b):
    return ((a.double() - b).norm() / b.norm()).item()


@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: "x".join(map(str, s)))
def test_chunked_causal_order_matches_float64(shape):
    B, Hq, Hkv, Sq, Sk, D = shape
    g = torch.Generator(device="cuda").manual_seed(Sq * 7 + Sk)
    q = torch.randn(B, Hq, Sq, D, device="cuda", dtype=torch.bfloat16, generator=g)
    k = torch.randn(B, Hkv, Sk, D, device="cuda", dtype=torch.bfloat16, generator=g)
    v = torch.randn(B, Hkv, Sk, D, device="cuda", dtype=torch.bfloat16, generator=g)
    ref, ref_lse = attention_float64(q, k, v, 1 / math.sqrt(D), causal=True)
    default = gluon_tiles.default_config(D)
    configs = [replace(default, q_chunk=12)]
    if D == 128:
        configs += [replace(default, q_chunk=c) for c in (6, 16)]
        configs += [gluon_tiles.Config(128, 3, True, q_buffers=1, q_chunk=12)]
    plain, plain_lse = gluon_fa.forward(q, k, v, None, default, causal=True)
    for cfg in configs:
        out, lse, kernel = gluon_fa.launch(q, k, v, None, cfg, causal=True)
        assert kernel_spills(kernel) == 0, cfg.label()
        assert _rel(out, ref) < TOLERANCE["bfloat16"], cfg.label()
        assert _rel(lse, ref_lse) < 1e-5, cfg.label()
        # a tile's arithmetic does not depend on when it runs: the same bits as a tile a head
        assert torch.equal(out, plain) and torch.equal(lse, plain_lse), cfg.label()
