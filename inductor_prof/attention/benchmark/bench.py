"""Every backend x shape: correctness against float64, median device time, TFLOP/s, speed-up (% of peak is judged
by whoever runs it, by the one rule every table follows: analysis/roofline.judge_attention).

Each shape carries the model's semantics (shapes.Shape): q (B, Hq, Sq, D), k/v (B, Hkv, Sk, D), causal or the
recognised mask rebuilt (masks.build; an arbitrary one from its saved values). Every backend gets the same
causal/mask/GQA by contract A (registry.py); one that does not support them is a row with the reason, the others
still run. Correctness and timing use different random inputs (drawn fresh per shape). The float64 reference runs
on the same device with the same semantics, at a reduced length where the full one is costly (check_shape); query rows with no key kept are left out of the comparison (backends
differ there: 0 or NaN). FLOPs follow contract B (masks.py). A Proton pass afterwards runs each backend inside a
scope that carries `flops16`, so `proton-viewer` shows the same utilisation (the shapes measured in this run:
rows reused from an earlier run, reuse.py, were not run here).
"""
from __future__ import annotations

import dataclasses
import math
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from ...aten import ATTENTION_OPS
from ...cost import rates
from ...errors import one_line
from ...measure_store import MeasureStore
from ...units import MS_PER_S
from . import memory, reuse
from ..semantics import masks, qkv_layout
from .registry import Backend, backends as all_backends, cannot_take, own_mask_args
from ..semantics.grad_layout import GradLayout
from ..semantics.shapes import Shape, to_dict

if TYPE_CHECKING:
    from ..tuning_cache import TuningCache

# ||o - ref|| / ||ref|| allowed per input dtype (16-bit operands and a 16-bit P in the second matmul)
TOLERANCE = {"bfloat16": 1e-2, "float16": 2e-3}
LSE_TOLERANCE = 1e-2
# own kernels tuned per shape -> their module
# the `pass` column of attention.csv: what a row timed (a training run's stage times both)
FORWARD, TRAINING = "forward", "forward+backward"
TUNED = {"triton_fa2": "..kernels.triton_fa", "gluon_fa3": "..kernels.gluon_fa", "cuda_mma_fa2": "..kernels.cuda_fa"}


@dataclass
class BenchOptions:
    backends: list[str] | None = None
    tune: bool = True
    rep_ms: float = 100.0
    seed: int = 0
    proton_path: Path | None = None
    proton_runs: int = 3
    device: str = "cuda"
    # timer(fn, rep_ms=...) -> ms; None: CUDA events on a GPU (timing.time_ms), host wall time else (wall_ms)
    timer: Callable[..., float] | None = None
    cache: TuningCache | None = None   # a tuning_cache.TuningCache the own kernels' tuning reads and writes; None: none
    compile_cache: str | None = None   # the compile_cache setting: FlexAttention's compiles reused in a run folder
    backward: bool = False   # also forward+backward (backward.py): a training run's comparison
    # probe(shape, backend names) -> {name: error or ""}: one fwd+bwd call of each in a process apart (None: none)
    probe: Callable[[Shape, list[str]], dict[str, str]] | None = None
    # shape label -> the upstream gradient's layout the model's backward got (semantics/grad_layout.py): the
    # forward+backward rows run on it; a shape not here gets a contiguous dout
    grad_layouts: dict[str, GradLayout] = field(default_factory=dict)
    # shape label -> q, k, v's layout in the model's call ("bshd", "bhsd": semantics/qkv_layout.py): every row of
    # the shape runs on it; a shape not here gets contiguous q, k, v
    qkv_layouts: dict[str, str] = field(default_factory=dict)
    # timings kept across runs (reuse.py): the store, the id of the run measuring now ("": none kept), whether
    # stored rows are taken (False: --fresh), the machine's facts (None: reuse.machine_facts() on a GPU)
    store: MeasureStore | None = None
    run_id: str = ""
    reuse: bool = True
    machine: dict | None = None


@dataclass
class BenchResult:
    rows: list[dict] = field(default_factory=list)
    tuning: list[dict] = field(default_factory=list)
    chosen: dict = field(default_factory=dict)     # (backend, shape label) -> the tile config it was timed with
    checked: dict = field(default_factory=dict)    # shape label -> the reduced shape's label its checks ran at
    seconds: dict = field(default_factory=dict)    # backend -> wall seconds of its checks and tuning, all shapes
    probed: dict = field(default_factory=dict)     # shape label -> {backend: its forward+backward call's failure}
    reused: dict = field(default_factory=dict)     # shape label -> the run its rows were reused from

    def spent(self, backend: str, since: float) -> None:
        self.seconds[backend] = self.seconds.get(backend, 0.0) + time.perf_counter() - since


def with_speedup(rows: list[dict], model_ms: float) -> list[dict]:
    """Each row's speedup_vs_model: the model's backend's ms over its own (2.0: twice as fast as the model's);
    NaN where the row has no time, or the model's backend none (model_ms NaN). The one place it is computed: the
    forward, training and variant rows all call it."""
    for r in rows:
        r["speedup_vs_model"] = model_ms / r["ms"] if r["ms"] == r["ms"] else float("nan")
    return rows


def _inputs(shape: Shape, seed: int, device: str, layout: str | None = None):
    """q, k, v of `shape` in the model's `layout` (qkv_layout.py; None: contiguous), the same values either way."""
    import torch

    g = torch.Generator(device=device).manual_seed(seed)
    dtype = getattr(torch, shape.dtype)
    q = torch.randn(shape.B, shape.H, shape.Sq, shape.D, generator=g, device=device, dtype=dtype)
    k = torch.randn(shape.B, shape.kv_heads, shape.Sk, shape.D, generator=g, device=device, dtype=dtype)
    v = torch.randn(shape.B, shape.kv_heads, shape.Sk, shape.D, generator=g, device=device, dtype=dtype)
    kv = qkv_layout.kv_strides(layout, shape)
    return laid_out(q, qkv_layout.q_strides(layout, shape)), laid_out(k, kv), laid_out(v, kv)


def laid_out(dense, strides: tuple[int, ...] | None):
    """`dense`'s values in a tensor of these (B, H, S, D) strides over a zeroed buffer (None: `dense` itself)."""
    import torch

    from ..semantics.grad_layout import storage_size

    if strides is None:
        return dense
    buf = torch.zeros(storage_size(tuple(dense.shape), strides), device=dense.device, dtype=dense.dtype)
    out = buf.as_strided(tuple(dense.shape), strides)
    out.copy_(dense)
    return out


def qkv_columns(layout: str | None, shape: Shape) -> dict:
    """A row's q, k, v columns: the layout in words (qkv_layout.describe) and q's strides at full shape ("" where
    contiguous)."""
    strides = qkv_layout.q_strides(layout, shape)
    return {"qkv_layout": qkv_layout.describe(layout, shape),
            "qkv_strides": ",".join(map(str, strides)) if strides else ""}


def semantics(shape: Shape, device: str) -> dict:
    """{"causal": bool, "mask": bool keep or None} for the backends' calls. Raises ValueError (the reason every
    backend's row gives) when the shape's mask cannot be replayed."""
    spec = shape.mask
    if spec.kind == "causal":
        return {"causal": True, "mask": None}
    if spec.kind == "bias":
        raise ValueError("the model passed an additive float bias, not a mask: not benchmarked")
    saved = None
    if spec.kind == "arbitrary":
        if not spec.file:
            raise ValueError("the model's mask values were not captured (no eager capture): nothing to replay")
        from ..semantics import maskfile

        saved = maskfile.load(spec.file)
    return {"causal": False, "mask": masks.build(spec, shape.B, shape.Sq, shape.Sk, device, saved)}


def relative_error(out, ref, live=None) -> float:
    """||out - ref|| / ||ref|| over the query rows `live` (B, H, Sq) bool (None: all)."""
    import torch

    if out.shape != ref.shape:
        return float("nan")
    if live is not None:
        out, ref = out[live], ref[live]
    err = torch.linalg.vector_norm(out.double() - ref) / torch.linalg.vector_norm(ref)
    return float(err)


# The float64 reference costs B*H*Sq*Sk scores (and each backend's check a full call): past CHECK_MAX_SCORES
# (2^27, one block of the reference's scores) the backends are checked at CHECK_SEQ tokens plus the full length's
# remainder modulo CHECK_TILE, the own kernels' largest tile (triton_fa's 256-row split tiles), same B, H, Hkv, D,
# dtype and semantics. That reduced call runs every code path of the full one: the same heads and batch, at least
# 4 query tiles and 8 key blocks of 128 (so the online softmax rescales across blocks, and causal has skipped,
# unmasked and masked diagonal blocks), the same ragged last tile (same remainder), the same GQA head mapping, and
# more tiles than a persistent grid has CTAs at FLUX's 24 heads (192 of 128 rows on 132 SMs: a partial last wave,
# Gluon's split tail). What it does not see: error growing with length (fp32 accumulators: slow, against
# tolerances well above what the kernels give) and a grid bug at exactly the full tile count (the full call is
# still timed). FLUX (1,24,4608,128): 509.6M scores, checked at (1,24,1024,128), 25.2M, 1/20 of the work.
CHECK_MAX_SCORES = 1 << 27
CHECK_SEQ = 1024
CHECK_TILE = 256


def check_shape(shape: Shape) -> Shape:
    """The shape the backends are checked at: `shape`, or past CHECK_MAX_SCORES scores, with no mask or causal
    (a recorded mask holds the model's values, for its lengths; causal only where Sq == Sk, so top-left keeps
    its meaning), each length over CHECK_SEQ + CHECK_TILE cut to CHECK_SEQ + (length mod CHECK_TILE)."""
    if (shape.B * shape.H * shape.Sq * shape.Sk <= CHECK_MAX_SCORES or shape.mask.kind not in ("none", "causal")
            or (shape.causal and shape.Sq != shape.Sk)):
        return shape

    def cut(n: int) -> int:
        return n if n <= CHECK_SEQ + CHECK_TILE else CHECK_SEQ + n % CHECK_TILE
    return dataclasses.replace(shape, Sq=cut(shape.Sq), Sk=cut(shape.Sk))


def check(backend: Backend, shape: Shape, q, k, v, ref, ref_lse, scale: float, causal: bool = False,
          mask=None) -> dict:
    """rel_err, lse_err, ok for one call on the check inputs (NaN anywhere fails), over the query rows that keep
    at least one key (the reference's lse finite)."""
    import torch

    out, lse = backend(q, k, v, scale, causal=causal, mask=mask)
    live = None if ref_lse is None or bool(torch.isfinite(ref_lse).all()) else torch.isfinite(ref_lse)
    rel = relative_error(out, ref, live)
    if lse is not None:
        lse_ok = lse.double()[live] if live is not None else lse.double()
        lse_err = float((lse_ok - (ref_lse[live] if live is not None else ref_lse)).abs().max())
    else:
        lse_err = float("nan")
    live_out = out if live is None or out.shape != ref.shape else out[live]
    ok = math.isfinite(rel) and rel <= TOLERANCE[shape.dtype] and bool(torch.isfinite(live_out).all())
    if lse is not None:
        ok = ok and math.isfinite(lse_err) and lse_err <= LSE_TOLERANCE
    return {"rel_err": rel, "lse_err": lse_err, "ok": ok}


# the backend that runs the model's own kernel for an op the capture names that is not an ATen attention op
MODEL_BACKEND = {"flex_attention": "flex_compiled"}


def model_backend_of(op: str) -> str:
    """The benchmark's backend for the model's call: the SDPA backend of its ATen op, flex_compiled for
    FlexAttention (Inductor's template kernel, as the model ran it), else PyTorch's own choice ("sdpa")."""
    return ATTENTION_OPS[op].backend if op in ATTENTION_OPS else MODEL_BACKEND.get(op, "sdpa")


def _row(backend: Backend, shape: Shape, calls: int, model_backend: str, **values) -> dict:
    row = {"backend": backend.name, "origin": backend.origin, **to_dict(shape), "calls_per_step": calls,
           "model_backend": model_backend, "available": backend.available, "reason": backend.reason,
           "ms": float("nan"), "tflops": float("nan"), "pct_of_peak": float("nan"), "rel_err": float("nan"),
           "lse_err": float("nan"), "ok": False, "speedup_vs_model": float("nan"), "config": "",
           "description": backend.description, "pass": FORWARD}
    row.update(values)
    return row


def bench_shape(shape: Shape, calls: int, op: str, backends: list[Backend], opts: BenchOptions,
                result: BenchResult, on_backend: Callable[[str], None] | None = None) -> list[dict]:
    """A row per backend at `shape`, forward: checked, then those that ran timed side by side, on q, k, v in the
    model's layout (opts.qkv_layouts), which each row says."""
    layout = opts.qkv_layouts.get(shape.label)
    return [{**r, **qkv_columns(layout, shape)}
            for r in _bench_shape(shape, calls, op, backends, opts, result, layout, on_backend)]


def _bench_shape(shape: Shape, calls: int, op: str, backends: list[Backend], opts: BenchOptions,
                 result: BenchResult, layout: str | None, on_backend: Callable[[str], None] | None) -> list[dict]:
    import torch

    from ..kernels.reference import attention_float64
    from ..timing import time_ms

    model_backend = model_backend_of(op)
    rows = []
    timed = []  # (row index, backend, config, its label, check's values): those that passed, timed together below
    try:
        sem = semantics(shape, opts.device)
    except (ValueError, OSError) as e:
        return [_row(b, shape, calls, model_backend, available=False, reason=one_line(e)) for b in backends]
    scale = shape.scale or 1.0 / math.sqrt(shape.D)
    checked = check_shape(shape)
    if checked != shape:
        result.checked[shape.label] = checked.label
    try:
        qc, kc, vc = _inputs(checked, opts.seed, opts.device, layout)
        ref, ref_lse = attention_float64(qc, kc, vc, scale, **sem)   # no mask beyond causal if reduced: same sem
        qt, kt, vt = _inputs(shape, opts.seed + 1, opts.device, layout)
    except (RuntimeError, MemoryError) as e:   # too large for this device (torch's OutOfMemoryError included)
        reason = f"inputs or float64 reference: {one_line(e)}"
        return [_row(b, shape, calls, model_backend, available=False, reason=reason) for b in backends]
    n_scores = shape.B * shape.H * shape.Sq * shape.Sk
    for b in backends:
        if on_backend:
            on_backend(b.name)
        if not b.available:
            rows.append(_row(b, shape, calls, model_backend))
            continue
        why = cannot_take(b, shape.needs, shape.mask.kind)
        if why:
            rows.append(_row(b, shape, calls, model_backend, available=False, reason=why))
            continue
        why = memory.too_big(b.score_bytes, n_scores, memory.free_bytes(opts.device) if b.score_bytes else None)
        if why:
            rows.append(_row(b, shape, calls, model_backend, available=False, reason=why))
            continue
        t0 = time.perf_counter()
        try:
            values = check(b, shape, qc, kc, vc, ref, ref_lse, scale, **sem)
        except Exception as e:  # this backend cannot run this shape (or is broken): say why, go on
            rows.append(_row(b, shape, calls, model_backend, available=False, reason=one_line(e)))
            if opts.device == "cuda":
                torch.cuda.synchronize()
            result.spent(b.name, t0)
            continue
        config, label = None, ""
        if opts.tune and b.name in TUNED:
            config, label = _tune(b.name, shape, qt, kt, vt, scale, result, sem, opts.cache)
            result.chosen[(b.name, shape.label)] = config
        result.spent(b.name, t0)
        timed.append((len(rows), b, config, label, values))
        rows.append({})  # filled in once every backend has been timed
    timer = opts.timer or (time_ms if opts.device == "cuda" else wall_ms)
    ms = _interleaved_ms(timer, [lambda b=b, config=config: b(qt, kt, vt, scale, config, **sem)
                                 for _, b, config, _, _ in timed], opts.rep_ms)
    for (i, b, _, label, values), t in zip(timed, ms):
        tflops = _tflops(shape, t)
        rows[i] = _row(b, shape, calls, model_backend, ms=t, tflops=tflops, config=label, **values)
    model_ms = next((r["ms"] for r in rows if r["backend"] == model_backend), float("nan"))
    with_speedup(rows, model_ms)
    del qc, kc, vc, ref, ref_lse
    return rows


NAN = float("nan")


def _tflops(shape: Shape, ms: float) -> float:
    """The shape's contract-B flops over `ms` milliseconds."""
    return rates(shape.flops, 0, ms / MS_PER_S)[0]


# At 16,384 tokens the H100 reaches its power cap (nvidia-smi: throttle reason 0x4, SM clock 1980 -> 1800 MHz) and
# cuDNN's own time moved 6% between two rounds a minute apart; timing the backends one after another lets that
# drift land on one of them. So each is timed in TIMING_ROUNDS rounds, in an order rotated every round, and
# keeps its median round.
TIMING_ROUNDS = 3


def _interleaved_ms(timer, fns: list, rep_ms: float) -> list[float]:
    """The median over TIMING_ROUNDS rounds of timer(fn, rep_ms / rounds) for each fn; round r starts at fn r."""
    import statistics

    times: list[list[float]] = [[] for _ in fns]
    for r in range(TIMING_ROUNDS):
        for j in range(len(fns)):
            i = (r + j) % len(fns)
            times[i].append(timer(fns[i], rep_ms=rep_ms / TIMING_ROUNDS))
    return [statistics.median(t) for t in times]


def wall_ms(fn, rep_ms: float = 100.0, runs: int = 3, clock: Callable[[], float] = time.perf_counter) -> float:
    """Median host wall time of fn after one untimed call (a CPU bench: no device events to time it by); `clock`
    gives seconds."""
    import statistics

    fn()
    times = []
    for _ in range(runs):
        t0 = clock()
        fn()
        times.append((clock() - t0) * MS_PER_S)
    return statistics.median(times)


def _tune(name: str, shape: Shape, q, k, v, scale: float, result: BenchResult, sem: dict | None = None,
          cache=None):
    """(the fastest tile config of an own kernel at this shape, its label); (None, "") if every one failed.
    Each config tried is recorded in result.tuning with its source: "tuned" here, or "cache" (the tuning cache's
    best, timed when it was tuned, and its failed configs, not tried again); what was tuned is stored there."""
    from .. import tuning_cache

    module, key, known, args = tuning_of(name, shape, q, k, sem, cache)
    tuned, best = module.tune(q, k, v, scale, **args, **({"known": known} if known else {}))
    for t in tuned:
        result.tuning.append({"backend": name, "shape": shape.label, "dtype": shape.dtype,
                              "config": t["config"], "ms": t["ms"],
                              "tflops": _tflops(shape, t["ms"]) if t["ms"] == t["ms"] else NAN,
                              "error": t["error"], "source": t.get("source", "tuned")})
    ok = [t for t in tuned if t["ms"] == t["ms"]]
    fastest: dict[str, Any] = min(ok, key=lambda t: t["ms"]) if ok else {"config": "", "ms": NAN}
    if cache and (known is None or any(t.get("source", "tuned") == "tuned" for t in tuned)):
        cache.store(key, tuning_cache.entry(fastest["config"], fastest["ms"],
                                            {t["config"]: t["error"] for t in tuned if t["error"]}))
    return best, fastest["config"]


def tuning_of(name: str, shape: Shape, q, k, sem: dict | None, cache) -> tuple[Any, str, dict | None, dict]:
    """An own kernel's tuning at this shape: (its module, the tuning cache's key, what the cache knows there,
    the keyword arguments of its tune: the mask as the kernel runs it, causal)."""
    import importlib

    # imported by name: a Triton without Gluon must still tune the other kernels
    module = importlib.import_module(TUNED[name], __package__)
    key = cache.key(name, shape) if cache else ""
    known = cache.lookup(key) if cache else None
    sem = sem or {}
    args = own_mask_args(sem.get("mask"), q, k)   # the mask as the kernel runs it (a band, key ranges)
    if sem.get("causal"):
        args = {**args, "causal": True}
    return module, key, known, args


def proton_pass(shapes: list[tuple[Shape, int, str]], backends: list[Backend], result: BenchResult,
                opts: BenchOptions) -> None:
    """Each backend that passed, inside a Proton scope carrying its flops: open with proton-viewer."""
    import triton.profiler as proton

    from ...drivers.proton import session

    passed = {(r["backend"], r["shape"]) for r in result.rows
              if r["ok"] and not r.get(reuse.ORIGIN) and r.get("pass", FORWARD) == FORWARD}
    assert opts.proton_path is not None   # set by the caller, the run folder's attention hatchet
    with session(opts.proton_path, hook=None):
        for shape, _, _ in shapes:
            if not any(name == shape.label for _, name in passed):
                continue
            q, k, v = _inputs(shape, opts.seed + 2, opts.device, opts.qkv_layouts.get(shape.label))
            sem = semantics(shape, opts.device)
            scale = shape.scale or 1.0 / math.sqrt(shape.D)
            for b in backends:
                if (b.name, shape.label) not in passed:
                    continue
                key = "flops32" if b.name == "numba_fa" else "flops16"
                for _ in range(opts.proton_runs):
                    with proton.scope(f"{b.name} {shape.label}", {key: float(shape.flops)}):   # contract B flops
                        b(q, k, v, scale, result.chosen.get((b.name, shape.label)), **sem)


def _reused_or_measured(shape: Shape, calls: int, op: str, backends: list[Backend], opts: BenchOptions,
                        result: BenchResult, tick: Callable[[str], None]) -> list[dict]:
    """The shape's rows: from the store where an earlier run measured them with the same facts (reuse.py), else
    measured (bench_shape) and stored."""
    store = opts.store if opts.store is not None and opts.run_id else None
    if store is not None and opts.machine is None and opts.device == "cuda":
        opts.machine = reuse.machine_facts()
    facts = reuse.shape_facts(opts.machine, shape, calls, op, backends, {
        "seed": opts.seed, "rep_ms": opts.rep_ms, "tune": opts.tune, "device": opts.device,
        **({"qkv_layout": opts.qkv_layouts[shape.label]} if shape.label in opts.qkv_layouts else {})}) \
        if store is not None and opts.machine else None
    found = reuse.take(store, facts) if store is not None and facts is not None and opts.reuse else None
    if found is not None:
        rows, checked, origin = found
        for b in backends:
            tick(b.name)
        result.checked.update(checked)
        result.reused[shape.label] = origin
        return rows
    rows = bench_shape(shape, calls, op, backends, opts, result, tick)
    if store is not None and facts is not None:
        reuse.keep(store, facts, opts.run_id, rows,
                   {shape.label: result.checked[shape.label]} if shape.label in result.checked else {})
    return rows


def variant_forwards(shape: Shape, calls: int, op: str, training: list[dict], opts: BenchOptions,
                     result: BenchResult) -> list[dict]:
    """Forward rows of the contiguous variants whose forward+backward row passed (contiguous.py): the forward part
    of their saving in a step whose calls do not all run a backward. Their speed-up is over the model backend's
    forward row of the shape, timed in the shape's forward comparison."""
    from .contiguous import backends as with_variants

    names = [r["backend"] for r in training if qkv_layout.is_variant(r["backend"]) and r["ok"]]
    if not names:
        return []
    rows = bench_shape(shape, calls, op, with_variants(names), opts, result)
    model_ms = next((r["ms"] for r in result.rows if r["shape"] == shape.label and r["pass"] == FORWARD
                     and r["backend"] == r["model_backend"]), float("nan"))
    with_speedup(rows, model_ms)
    return rows


def run(shapes: list[tuple[Shape, int, str]], opts: BenchOptions,
        on_backend: Callable[[int, int, str], None] | None = None) -> BenchResult:
    """Benchmarks every (shape, backend); `on_backend(done, total, label)` drives a progress bar."""
    from ..timing import warm_gpu

    backends = all_backends(opts.backends)
    result = BenchResult()
    if opts.device == "cuda":
        warm_gpu()
    elif opts.device == "cpu":
        opts.tune = False      # the own kernels' tuning times CUDA events
    total, done = len(shapes) * len(backends) * (2 if opts.backward else 1), 0
    for shape, calls, op in shapes:
        def tick(name: str, shape=shape) -> None:
            nonlocal done
            if on_backend:
                on_backend(done, total, f"{name} {shape.label}")
            done += 1
        result.rows += _reused_or_measured(shape, calls, op, backends, opts, result, tick)
        if opts.backward:   # a training run's forward+backward rows: timed each run, never reused
            from .backward import bench_shape as bench_training

            training = bench_training(shape, calls, op, backends, opts, result, tick)
            result.rows += training + variant_forwards(shape, calls, op, training, opts, result)
    if on_backend:
        on_backend(total, total, "done")
    return result
