"""A rough model of the Gluon kernel's causal tile order in L2 (gluon_tiles.tile_order), no GPU: 132 CTAs each
stream their tiles' K/V blocks at one block per unit of time (2 units to start a tile); a 64 KB K+V block (128
keys x 128 x 2 B x 2) is looked up in an LRU cache of --l2-mb. Prints, per q_chunk, the misses per block read
and the busiest CTA's finish over the mean. A model to choose candidates by, not a measurement: the tuner times
them (scripts/gpu_check_causal.sh). Usage: python scripts/sim_causal_order.py 32768 --heads 32 --chunks 1 6 12"""
import argparse
import heapq
from collections import OrderedDict

from inductor_prof.attention.kernels.gluon_tiles import tile_order

TILE_M = 128  # query rows a tile (two consumers), key rows a block at BLOCK_N 128
BLOCK_KB = 64  # K and V of one 128-key block at head dim 128, 2-byte elements


def simulate(seq: int, heads: int, chunk: int, ctas: int = 132, l2_mb: int = 40, start_cost: float = 2.0):
    """(L2 misses per block read, busiest CTA's finish / mean work a CTA)."""
    n_m = -(-seq // TILE_M)
    order = tile_order(heads, n_m, ctas, True, chunk)
    queues = [order[p::ctas] for p in range(ctas)]
    capacity = l2_mb * 1024 // BLOCK_KB
    lru: OrderedDict = OrderedDict()
    misses = reads = 0
    finish = 0.0
    events = [(0.0, p, 0, 0) for p in range(ctas)]  # (time, CTA, its tile, block within the tile)
    while events:
        now, p, i, j = heapq.heappop(events)
        if i >= len(queues[p]):
            finish = max(finish, now)
            continue
        hz, m = queues[p][i]
        if j == 0:
            now += start_cost
        reads += 1
        if (hz, j) in lru:
            lru.move_to_end((hz, j))
        else:
            misses += 1
            lru[(hz, j)] = None
            if len(lru) > capacity:
                lru.popitem(last=False)
        j += 1
        if j > m:  # causal: tile m reads blocks 0..m
            i, j = i + 1, 0
        heapq.heappush(events, (now + 1, p, i, j))
    work = sum(m + 1 + start_cost for _, m in order) / ctas
    return misses / reads, finish / work


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("seq", type=int)
    ap.add_argument("--heads", type=int, default=32)
    ap.add_argument("--chunks", type=int, nargs="+", default=[1, 6, 12])
    ap.add_argument("--l2-mb", type=int, default=40)
    args = ap.parse_args()
    for c in args.chunks:
        miss, span = simulate(args.seq, args.heads, c, l2_mb=args.l2_mb)
        print(f"S={args.seq} heads={args.heads} q_chunk={c}: L2 misses per block read {miss:.3f}, "
              f"busiest CTA / mean {span:.4f}", flush=True)


if __name__ == "__main__":
    main()
