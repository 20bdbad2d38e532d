"""The model's attention calls from the two captures joined (pure): torch.profiler's trace of the compiled step
knows the ATen op and the kernel each call launched; the eager capture (capture.py) knows what the call meant
(kv heads repeated or not, the mask's kind, FlexAttention's mask_mod). Join: per key (B, Hq, Sq, Sk, D, dtype, is_causal), the
n-th trace call with the n-th eager SDPA call of that key (both in call order within one step; Inductor keeps the
model's order of extern attention calls). A trace call left without a partner keeps the trace's facts alone
(`captured: trace`); eager calls left over (FlexAttention, which the compiled step runs as an Inductor Triton
template, or an SDPA that Inductor decomposed) are added on their own (`captured: eager`).
"""
from __future__ import annotations

from collections import defaultdict, deque

# what the eager capture adds to a trace call
SEMANTICS = ("Hkv", "kv_repeated", "enable_gqa", "dropout", "mask_kind", "window", "window_right", "key_lengths",
             "padding_left", "mask_pairs", "mask_file", "mask_dtype")


def _key(c: dict) -> tuple:
    return (int(c["B"]), int(c["H"]), int(c["Sq"]), int(c["Sk"]), int(c["D"]), str(c.get("dtype", "")),
            bool(c.get("causal")))


def join(trace_calls: list[dict], eager_calls: list[dict]) -> list[dict]:
    """Trace calls (in order) with the semantics of their eager partners, then the eager calls left over."""
    queues: dict[tuple, deque] = defaultdict(deque)
    for c in eager_calls:
        if c.get("op") == "sdpa":
            queues[_key(c)].append(c)
    out, used = [], set()
    for t in trace_calls:
        e = queues[_key(t)].popleft() if queues[_key(t)] else None
        if e is None:
            out.append({**t, "captured": "trace"})
            continue
        used.add(id(e))
        # the trace's is_causal and scale are what the ATen op received: kept; the rest from the eager call
        out.append({**t, **{k: e[k] for k in SEMANTICS if k in e}, "captured": "trace+eager"})
    left = [c for c in eager_calls if id(c) not in used]
    return out + [{**c, "captured": "eager"} for c in left]
