"""The library kernels of CUDA graph replays priced (pure): a replay launches its kernels from cudaGraphLaunch, with no
ATen op around them, so torch.profiler cannot say which op and shapes each one ran. The same compiled code run
without graphs (cudagraph trees' warm-up path, inductor/graph_warmup.py) launches the same kernels from their ops;
its rows give the replayed rows their op, shapes, flops and bytes.

Kernels are paired by name and count per step, inside compiled code: a kernel the replayed step launched N times
there must have been launched N times there by the step without graphs, and the k-th launches of each (in time
order) must have the same grid and block (one cuBLAS kernel serves several shapes, at other grids). Otherwise the
replayed rows of that kernel stay unpriced, with the reason; nothing is guessed."""
from __future__ import annotations

from dataclasses import dataclass, field

import pandas as pd

from .trace import GRAPH_REPLAY

# what a replayed row takes from its eager twin; its own kernel name, phase and duration (the replay's) stay
PRICE_COLUMNS = ["op", "dims", "strides", "types", "scalars", "flops_key", "flops", "bytes", "dtype", "unpriced"]


@dataclass
class Priced:
    table: pd.DataFrame                # the replayed step's rows, those of graph replays priced where paired
    attention: list[dict]              # the eager step's attention calls of paired rows, `row` in `table`
    replayed: int = 0                  # library launches of graph replays in the replayed step
    priced: int = 0                    # of them, paired with an eager launch
    unmatched: dict[str, str] = field(default_factory=dict)   # kernel -> why its replayed rows stay unpriced

    def record(self) -> dict:
        """The stage's record of it (manifest)."""
        out: dict = {"graph_replayed_library_launches": self.replayed, "priced_from_step_without_graphs": self.priced}
        if self.unmatched:
            out["unmatched"] = self.unmatched
        return out


def _in_compiled(table: pd.DataFrame, launches: pd.DataFrame, name: str, graph: bool | None) -> list:
    """Row labels of kernel `name` launched inside compiled code, in time order; `graph`: only replays (True),
    only launches from an op (False), either (None)."""
    keep = (table["kernel"] == name) & (launches["compiled"] | launches["graph"])
    if graph is not None:
        keep &= launches["graph"] == graph
    return launches.index[keep].sort_values(key=lambda i: launches.loc[i, "ts"]).tolist()


def price_replays(replayed: pd.DataFrame, replayed_launches: pd.DataFrame, eager: pd.DataFrame,
                  eager_launches: pd.DataFrame, eager_attention: list[dict]) -> Priced:
    """`replayed`/`eager`: parse_trace tables of one step with graphs and one without, of the same compiled code;
    `*_launches`: their launch facts (trace.parse_trace_launches)."""
    table = replayed.copy()
    graph_rows = replayed_launches.index[replayed_launches["graph"]]
    out = Priced(table, [], replayed=len(graph_rows))
    pairs: dict[int, int] = {}   # eager row -> replayed row
    for name in dict.fromkeys(table.loc[graph_rows, "kernel"]):
        mine = _in_compiled(replayed, replayed_launches, name, None)
        theirs = _in_compiled(eager, eager_launches, name, False)
        if len(mine) != len(theirs):
            out.unmatched[name] = (f"{GRAPH_REPLAY}; the replayed step ran it {len(mine)} times in compiled code, "
                                   f"the step without graphs {len(theirs)}: which call is which is not known")
            continue
        for k, (g, w) in enumerate(zip(mine, theirs)):
            shape_g = (replayed_launches.at[g, "grid"], replayed_launches.at[g, "block"])
            shape_w = (eager_launches.at[w, "grid"], eager_launches.at[w, "block"])
            if shape_g != shape_w:
                out.unmatched[name] = (f"{GRAPH_REPLAY}; its launch {k + 1} of {len(mine)} ran at grid {shape_g[0]} "
                                       f"block {shape_g[1]} in the replay, {shape_w[0]} {shape_w[1]} without graphs: "
                                       "not the same call")
                break
        else:
            pairs.update({w: g for g, w in zip(mine, theirs) if replayed_launches.at[g, "graph"]})
    for w, g in pairs.items():
        for col in PRICE_COLUMNS:
            table.at[g, col] = eager.at[w, col]
    for name, why in out.unmatched.items():
        table.loc[graph_rows[table.loc[graph_rows, "kernel"] == name], "unpriced"] = why
    out.priced = len(pairs)
    out.attention = [{**c, "row": pairs[c["row"]]} for c in eager_attention if c.get("row") in pairs]
    return out
