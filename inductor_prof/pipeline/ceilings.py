"""Stage `ceilings`: rates measured on the run's GPU that bound what its kernels can reach: the bf16 tensor-core
rate at several GEMM shapes (square ones and the model's own largest, replayed from library_ops.csv), the 8-bit
one (fp8 and int8 at 8192^3), DRAM
bandwidth reading, writing and copying, and L2 bandwidth (reused from an earlier run of the same GPU, driver, versions and GEMM shapes: the manifest's
ceilings say `reused_from`; `--fresh` measures them). The report judges kernels against them (peaks.py
and analysis/roofline.py); each is the best of its kind, so a kernel above one is worth a reason.
"""
from __future__ import annotations

from pathlib import Path

import pandas as pd

from .. import runfiles
from ..analysis import telemetry
from ..aten import REPLAYABLE_GEMMS
from ..cost import gemm_flops, rates
from ..errors import one_line
from ..measure_store import MeasureStore, code_fingerprint, folder, gpu_facts
from ..runfiles.cells import json_cell
from ..units import MS_PER_S, US_PER_MS
from ..drivers.nvml import Telemetry
from ..specs import AtenCall
from . import gemm_templates, link
from .gpu_timing import BACK_TO_BACK, bench_ms

SQUARE_GEMMS = (4096, 8192, 16384)
EIGHT_BIT_GEMM = 8192      # the 8-bit tensor rate: fp8 (torch._scaled_mm) and int8 (torch._int_mm) at 8192^3
MODEL_GEMMS = 8            # the model's GEMM shapes with the most time per step, replayed
DRAM_BYTES = 1 << 30       # far beyond the 50 MB L2
L2_BYTES = 8 << 20         # a copy whose source and destination (16 MB) stay in the 50 MB L2
L2_COPIES = 64             # ... back to back in one CUDA graph (no launch gaps)
FLOOR_KERNELS = 256        # one-element kernels back to back in one CUDA graph: the GPU time a kernel takes


def model_gemms(library_ops: pd.DataFrame | None, n: int = MODEL_GEMMS) -> list[dict]:
    """The model's GEMM calls (op, dims, strides, types) with the most time per step, one per shape."""
    if library_ops is None or library_ops.empty:
        return []
    gemms = library_ops[library_ops["op"].isin(REPLAYABLE_GEMMS) & (library_ops["flops"] > 0)]
    by_shape = gemms.groupby(["op", "dims", "strides", "types"], as_index=False, observed=True).agg(
        dur_ns=("dur_ns", "sum"), flops=("flops", "first"), flops_key=("flops_key", "first"))
    top = by_shape.sort_values("dur_ns", ascending=False).head(n)
    return [AtenCall(r.op, json_cell(r.dims), json_cell(r.strides or "[]"), json_cell(r.types or "[]")).as_json(
                flops=int(r.flops), dims_key=r.dims, flops_key=r.flops_key or "flops16")
            for r in top.itertuples()]


def _timed_under_telemetry(fn, calls: int) -> dict:
    """{"ms": per call, "sm_mhz", "power_w"}: the clock and power the GPU ran this at (None without NVML)."""
    with Telemetry() as gpu:
        ms = bench_ms(fn, calls)
    t = telemetry.summarize(gpu.samples, gpu.power_limit_w, gpu.max_sm_mhz, gpu.error, gpu.energy_w)
    return {"ms": ms, "sm_mhz": t.get("sm_mhz"), "power_w": t.get("power_w")}


def eight_bit_rates(n: int = EIGHT_BIT_GEMM) -> list[dict]:
    """TFLOP/s of an n^3 fp8 GEMM (e4m3, tensor-wise scales, bf16 out: cuBLAS) and an int8 one (int32 out; its
    second operand row-major and column-major, the faster kept: torch picks another kernel for each), each with
    `flops_key` flops8; a GPU or build without one gives {"shape", "error"} instead."""
    import torch

    one = torch.ones((), device="cuda")
    a = torch.randn(n, n, device="cuda").to(torch.float8_e4m3fn)
    b = torch.randn(n, n, device="cuda").to(torch.float8_e4m3fn).t()     # column-major, as cuBLAS asks
    ai = torch.randint(-127, 128, (n, n), device="cuda", dtype=torch.int8)
    bi = torch.randint(-127, 128, (n, n), device="cuda", dtype=torch.int8)
    bi_t = bi.t().contiguous().t()
    calls = {"fp8": [lambda: torch._scaled_mm(a, b, scale_a=one, scale_b=one, out_dtype=torch.bfloat16)],
             "int8": [lambda: torch._int_mm(ai, bi), lambda: torch._int_mm(ai, bi_t)]}
    out = []
    for dtype, fns in calls.items():
        shape, timed, errors = f"{n}x{n}x{n} {dtype}", [], []
        for fn in fns:
            try:
                fn()
                timed.append(_timed_under_telemetry(fn, BACK_TO_BACK))
            except RuntimeError as e:   # no fp8 on this GPU, no int8 kernel for a layout: said, not fatal
                errors.append(one_line(e))
        if not timed:
            out.append({"shape": shape, "error": errors[0]})
            continue
        t = min(timed, key=lambda x: x["ms"])
        out.append({"shape": shape, "flops_key": "flops8",
                    "tflops": rates(gemm_flops(n, n, n), 0, t["ms"] / MS_PER_S)[0], **t})
    return out


def gemm_rates(model: list[dict]) -> list[dict]:
    """TFLOP/s of bf16 matmuls at square shapes and of the model's own GEMM calls."""
    import torch

    from ..drivers.ncu.replay import aten_launch

    out = []
    for n in SQUARE_GEMMS:
        a = torch.randn(n, n, device="cuda", dtype=torch.bfloat16)
        b = torch.randn(n, n, device="cuda", dtype=torch.bfloat16)
        t = _timed_under_telemetry(lambda: a @ b, BACK_TO_BACK)
        out.append({"shape": f"{n}x{n}x{n} bf16", "flops_key": "flops16",
                    "tflops": rates(gemm_flops(n, n, n), 0, t["ms"] / MS_PER_S)[0], **t})
        del a, b
    for spec in model:   # op and dims as library_ops.csv has them: the report finds each call's best time by them
        t = _timed_under_telemetry(aten_launch(spec), BACK_TO_BACK)
        out.append({"shape": f"{spec['op']} {spec['dims'][:3]}",
                    "tflops": rates(spec["flops"], 0, t["ms"] / MS_PER_S)[0], "op": spec["op"],
                    "flops_key": spec["flops_key"],
                    "dims": spec["dims_key"], **t})
    return out


def gbps(nbytes: float, ms: float) -> float:
    """GB/s of `nbytes` moved in `ms` milliseconds (cost.rates)."""
    return rates(0, nbytes, ms / MS_PER_S)[1]


def memory_rates() -> dict[str, float]:
    """GB/s reading (a sum), writing (a fill) and copying 1 GiB in DRAM, and copying 8 MB 64 times over in
    one CUDA graph (L2: after the first copy both buffers are there)."""
    import torch

    src = torch.empty(DRAM_BYTES // 4, device="cuda", dtype=torch.float32).normal_()
    dst = torch.empty_like(src)
    read = gbps(DRAM_BYTES, bench_ms(lambda: src.sum()))
    write = gbps(DRAM_BYTES, bench_ms(lambda: dst.fill_(1.0)))
    copy = gbps(2 * DRAM_BYTES, bench_ms(lambda: dst.copy_(src)))     # read and write each byte
    del src, dst
    a = torch.empty(L2_BYTES // 4, device="cuda", dtype=torch.float32).normal_()
    b = torch.empty_like(a)
    b.copy_(a)
    torch.cuda.synchronize()
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        for _ in range(L2_COPIES):
            b.copy_(a)
    l2 = gbps(2 * L2_BYTES * L2_COPIES, bench_ms(graph.replay))
    return {"dram_read_gbps": read, "dram_write_gbps": write, "dram_copy_gbps": copy, "l2_gbps": l2}


def kernel_floor_us() -> float:
    """The GPU time of a kernel that does (almost) nothing, in µs: one-element adds back to back in a CUDA graph
    (no host in the way). No kernel of the model can take less a call, whatever its bytes."""
    import torch

    x = torch.zeros(1, device="cuda")
    x.add_(1)
    torch.cuda.synchronize()
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        for _ in range(FLOOR_KERNELS):
            x.add_(1)
    return bench_ms(graph.replay) * US_PER_MS / FLOOR_KERNELS


def with_templates(gemms: list[dict], templates: list[dict]) -> list[dict]:
    """The model's GEMM rows with Inductor's template time (or why there is none) for the same call."""
    by_call = {(t["op"], t["dims"]): t for t in templates}
    return [{**g, **{k: v for k, v in by_call.get((g.get("op"), g.get("dims")), {}).items() if k.startswith("template")}}
            for g in gemms]


def best_rates(gemms: list[dict]) -> dict[str, float]:
    """{"flops16_tflops": the best bf16 rate (the square GEMMs and the model's own, recorded before flops_key was
    written: bf16), "flops8_tflops": the best 8-bit one (fp8 or int8; absent where none ran)}."""
    out: dict[str, float] = {}
    for g in gemms:
        if g.get("tflops") is not None:
            key = f"{g.get('flops_key') or 'flops16'}_tflops"
            out[key] = max(out.get(key, 0.0), float(g["tflops"]))
    return out


def measure(library_ops: pd.DataFrame | None = None, templates=None) -> dict:
    """The ceilings; `templates`: a function of the model's GEMM specs giving gemm_templates results, or None."""
    model = model_gemms(library_ops)
    gemms = gemm_rates(model)
    if templates is not None and model:
        gemms = with_templates(gemms, templates(model[:gemm_templates.SHAPES]))
    gemms += eight_bit_rates()
    mem = memory_rates()
    return {**best_rates(gemms), "gemms": gemms, "kernel_floor_us": kernel_floor_us(),
            "dram_gbps": max(mem["dram_read_gbps"], mem["dram_write_gbps"], mem["dram_copy_gbps"]), **mem}


def run(ctx) -> dict:
    collectives = link.measure()   # first: every rank of a --nproc run reaches it together (None: one process)
    timed = gemm_templates.wanted(ctx.opts.compile.mode, ctx.opts.settings.gemm_templates)
    ctx.log("measuring ceilings (bf16 GEMMs incl. the model's own shapes, fp8 and int8 GEMMs" +
            (", Inductor's Triton template at its top shapes" if timed else "") + ", DRAM read/write/copy, L2, the shortest kernel)")
    ops = runfiles.if_present(ctx.run.library_ops_csv, runfiles.library_ops_file, "the ceilings stage needs it")
    templates = (lambda specs: gemm_templates.in_subprocess(specs, ctx.run.gemm_templates_cache,
                                                            ctx.run.gemm_templates_log)) if timed else None
    facts = reuse_facts(ctx.manifest.data.get("env") or {}, model_gemms(ops), timed) if collectives is None else None
    store = MeasureStore(folder(ctx.opts.settings.measure_store) if facts else None)
    found = store.get(KIND, facts) if facts and not ctx.opts.settings.fresh else None
    for line in store.warnings:
        ctx.log(line)
    if found is not None and isinstance(found["value"], dict) and found["value"].get("gemms"):
        ctx.log(f"ceilings: reused from run {found['run_id']} (same GPU, driver, versions and GEMM shapes; "
                "--fresh measures them again)")
        measured = {**found["value"], REUSED_FROM: found["run_id"]}
    else:
        measured = {**measure(ops, templates), **(collectives or {})}
        if facts and isinstance(ctx.manifest.data.get("run_id"), str):
            store.put(KIND, facts, ctx.manifest.data["run_id"], measured)
    ctx.manifest.set("ceilings", measured)
    return {k: v for k, v in measured.items() if k != "gemms"}


KIND = "ceilings"             # the measurement store's kind (measure_store.py)
REUSED_FROM = "reused_from"   # the manifest's ceilings: the run that measured them, when reused
CODE = [Path(__file__), Path(__file__).with_name("gpu_timing.py"), Path(__file__).with_name("gemm_templates.py")]


def reuse_facts(env: dict, gemms: list[dict], templates: bool) -> dict | None:
    """What the ceilings depend on: the GPU, driver and versions (None without them: measured, never stored), the
    model's GEMM calls replayed, whether Inductor's templates are timed, and this code. One process only (a
    multi-rank run measures its link and its ranks' ceilings together)."""
    gpu = gpu_facts(env)
    if gpu is None:
        return None
    return {**gpu, "model_gemms": gemms, "templates": templates, "code": code_fingerprint(*CODE)}
