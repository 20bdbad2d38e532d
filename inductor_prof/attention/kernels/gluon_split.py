"""The Gluon kernel's split tail (gluon_tiles.work_split): the tiles past the last whole waves are cut along the
keys into one even share per CTA; the CTA holding a tile's first key block merges the other pieces' (acc, max,
sum), handed over through global memory.

A piece that does not start its tile stores its partial state in its CTA's slot, then each of the consumer's 128
threads adds 1 to the slot's counter with release semantics; the owner acquires 128 and merges the slot into its
registers. Counters come in two sets, used by alternate launches: each launch zeroes the set the next one uses."""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl

from .gluon_state import ROWS_PER_CONSUMER, mma_layout

_RELEASE = gl.constexpr("red.release.gpu.global.add.s32 [$1], 1;\nmov.b32 $0, 0;")
_ACQUIRE = gl.constexpr("{\n.reg .pred %spin_p;\n.reg .b32 %spin_v;\nspin_wait:\n"
                        "ld.acquire.gpu.global.b32 %spin_v, [$1];\nsetp.lt.s32 %spin_p, %spin_v, 128;\n"
                        "@%spin_p bra spin_wait;\nmov.b32 $0, 0;\n}")


@gluon.jit
def item(u, nk, base, lo, hi, G):
    """The work item at unit u (a unit: one key block of one tile; tile t is units t*nk .. t*nk+nk-1):
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
def tail_range(n_tiles, n_dp, nk):
    """(base, lo, hi): the split tail's first unit and this CTA's share of it, an even cut of the units left
    after the n_dp whole tiles."""
    G = gl.num_programs(0)
    pid = gl.program_id(0)
    base = n_dp * nk
    n_units = (n_tiles - n_dp) * nk
    return base, base + (pid * n_units) // G, base + ((pid + 1) * n_units) // G


@gluon.jit
def _partial_ptrs(out, slot, BLOCK_D: gl.constexpr, BLOCK_N: gl.constexpr):
    """(acc, max, sum) of slot `slot`: acc in the accumulator's register layout, the statistics in its rows'."""
    BLOCK_M: gl.constexpr = ROWS_PER_CONSUMER
    o_layout: gl.constexpr = mma_layout(BLOCK_D)
    rows = gl.arange(0, BLOCK_M, layout=gl.SliceLayout(1, o_layout))
    cols = gl.arange(0, BLOCK_D, layout=gl.SliceLayout(0, o_layout))
    stat_rows = gl.arange(0, BLOCK_M, layout=gl.SliceLayout(1, mma_layout(BLOCK_N)))
    m_ptrs = out.STATS + slot * (2 * BLOCK_M) + stat_rows
    return out.WS + slot * (BLOCK_M * BLOCK_D) + rows[:, None] * BLOCK_D + cols[None, :], m_ptrs, m_ptrs + BLOCK_M


@gluon.jit
def write_partial(out, counter, slot, acc, m_i, l_i, BLOCK_D: gl.constexpr, BLOCK_N: gl.constexpr):
    per_thread: gl.constexpr = gl.BlockedLayout([1], [32], [4], [0])  # one element in each of the 128 threads
    acc_ptrs, m_ptrs, l_ptrs = _partial_ptrs(out, slot, BLOCK_D, BLOCK_N)
    gl.store(acc_ptrs, acc)
    gl.store(m_ptrs, m_i)
    gl.store(l_ptrs, l_i)
    gl.inline_asm_elementwise(_RELEASE, "=r,l", [counter + gl.zeros([4 * 32], gl.int32, layout=per_thread)],
                              dtype=gl.int32, is_pure=False, pack=1)


@gluon.jit
def merge_partial(out, counter, slot, acc, m_i, l_i, BLOCK_D: gl.constexpr, BLOCK_N: gl.constexpr):
    """acc, m_i, l_i merged with slot `slot` once all its writer's threads released it."""
    o_rows: gl.constexpr = gl.SliceLayout(1, mma_layout(BLOCK_D))
    acc_ptrs, m_ptrs, l_ptrs = _partial_ptrs(out, slot, BLOCK_D, BLOCK_N)
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
