"""Multi-rank run folders for tests of `report` and `diff` (no multi-GPU recording exists here): copies of a real
single-GPU run (examples/runs/llama-h100) arranged as RUN/rank<i>/ with a RUN/ranks.json. Rank 1's step time can
be set in its manifest and its torch.profiler trace replaced by three hand-written kernels (one of them NCCL),
so that the numbers tests check are worked by hand."""
import gzip
import json
import shutil

from recorded import REPO

LLAMA = REPO / "examples" / "runs" / "llama-h100"
NCCL_ARGS = {"Collective name": "allreduce", "In msg nelems": 1 << 20, "Out msg nelems": 1 << 20, "Group size": 2,
             "dtype": "BFloat16"}
# compute on two streams [0,400] and [300,600] us; NCCL all_reduce [500,900] of 1 Mi bf16 (2 MiB) among 2 ranks
TRACE = {"traceEvents": [
    {"ph": "X", "cat": "kernel", "name": "triton_poi_fused_add_0", "ts": 0, "dur": 400, "args": {"stream": 7}},
    {"ph": "X", "cat": "kernel", "name": "nvjet_sm90_tst_64x8", "ts": 300, "dur": 300, "args": {"stream": 20}},
    {"ph": "X", "cat": "kernel", "name": "ncclDevKernel_AllReduce_Sum_bf16_RING_LL", "ts": 500, "dur": 400,
     "args": {"stream": 40, **NCCL_ARGS}},
]}


# Two ranks' steps for waiting apart from moving (us, one clock; all_reduce of 1 Mi bf16 = 2,097,152 B among
# ranks 0 and 1, process group "0"):
#   rank 0: A [0,100]  all_reduce#1 [100,400]           B [400,500]  all_reduce#2 [500,800]
#   rank 1: A [0,100]  (GPU idle)   all_reduce#1 [300,400]  B [400,650]  all_reduce#2 [650,800]
# rank 1 arrives last at both: its first launch late (idle 200 us), its B 150 us slower
AR = "ncclDevKernel_AllReduce_Sum_bf16_RING_LL"
PG_ARGS = {**NCCL_ARGS, "Process Group Name": "0", "Process Group Ranks": "[0, 1]"}
BASE_NS = 1_764_000_000_000_000_000


def kernel(name, ts, end, **args):
    return {"ph": "X", "cat": "kernel", "name": name, "ts": ts, "dur": end - ts, "args": args}


def rank_step(b_end, ar1_start, ar2_start, args=PG_ARGS):
    return [kernel("A", 0, 100), kernel(AR, ar1_start, 400, **args), kernel("B", 400, b_end),
            kernel(AR, ar2_start, 800, **args)]


STEPS = {0: rank_step(500, 100, 500), 1: rank_step(650, 300, 650)}


def _rank(root, i, step_ms=None, trace=None, link=None):
    dest = root / f"rank{i}"
    shutil.copytree(LLAMA, dest)
    m = json.loads((dest / "manifest.json").read_text())
    if step_ms is not None:
        m["profile"]["plain_step_ms"] = step_ms
    if link is not None:
        m.setdefault("ceilings", {})["link_busbw_gbps"] = link
    (dest / "manifest.json").write_text(json.dumps(m))
    if trace is not None:
        with gzip.open(dest / "torch_trace.json.gz", "wt") as f:
            json.dump(trace, f)
    return dest


def make(root, rank1_step_ms=9.150):
    """RUN with rank0 (the recorded run as it is) and rank1 (its step set, TRACE as its trace), ranks.json."""
    root.mkdir(parents=True)
    _rank(root, 0)
    _rank(root, 1, step_ms=rank1_step_ms, trace=TRACE, link=10.48576)
    ranks = [{"rank": i, "exit": 0, "status": "ok", "why": ""} for i in (0, 1)]
    (root / "ranks.json").write_text(json.dumps({"nproc": 2, "status": "ok", "failed_rank": None, "ranks": ranks}))
    return root


def make_matched(root, rank1_step_ms=9.150, steps=None):
    """RUN as `make`, each rank's trace its step of `steps` (default STEPS), one host clock (the same
    baseTimeNanoseconds)."""
    root.mkdir(parents=True)
    for i, step in ((0, None), (1, rank1_step_ms)):
        _rank(root, i, step_ms=step, trace={"baseTimeNanoseconds": BASE_NS, "traceEvents": (steps or STEPS)[i]},
              link=10.48576)
    ranks = [{"rank": i, "exit": 0, "status": "ok", "why": ""} for i in (0, 1)]
    (root / "ranks.json").write_text(json.dumps({"nproc": 2, "status": "ok", "failed_rank": None, "ranks": ranks}))
    return root
