"""Attention as a training step runs it: forward then backward, every backend x shape (a training run's stage).

Each backend's call (contract A, registry.py) on q, k, v that require grad, then torch.autograd.grad of its output
for a fixed upstream gradient: dq, dk, dv (the grads are returned, not accumulated into .grad, so no add kernel
joins the timing). Checked against the float64 gradients (reference_backward.py) at bench.check_shape's reduced
shape, its rows with no key kept left out as the forward's check does; timed at the full shape, the backends of a
shape interleaved as the forward's are. Priced at the forward's flops plus the backward's
(Shape.training_flops: cost.py's two formulas, 3.5x the forward's). A backend whose output is not differentiable
(the own kernels: forward only) is a row saying so.

The upstream gradient has the strides the model's backward got (opts.grad_layouts, from the run's library_ops.csv:
semantics/grad_layout.py), in the check, the timing and the probe alike: the same values as a contiguous dout, laid
out in a buffer as the model's was (its gaps zero). Each row says which layout it ran (`dout_layout`,
`dout_strides`); contiguous where the run recorded no backward call.

q, k and v have the layout of the model's call (opts.qkv_layouts, semantics/qkv_layout.py; `qkv_layout`, `qkv_strides`
columns). A backend that fails there (its probe, its call or its check) while q, k, v or dout are not contiguous gets
a second row, its contiguous variant (contiguous.py: "sdpa_cudnn (q,k,v contiguous)"), probed, checked and timed as
the others with the copies inside its call (q, k, v first; where that fails too and dout is strided as well, q, k,
v and dout); the failing row keeps its error.

A CUDA error such as an illegal memory access leaves the process's context unusable (every later call fails with
it), so before anything runs here `opts.probe` (the stage's: one fwd+bwd call of each backend at the full and the
check shape, in a child process, pipeline/attention_backward.py) says which backends fail; they are rows with
that error and never run in this process.
"""
from __future__ import annotations

import math
import time
from typing import Callable

from ...errors import one_line
from . import memory
from . import contiguous
from .bench import (FORWARD, TRAINING, BenchOptions, BenchResult, _inputs, _interleaved_ms, _row, check_shape,
                    laid_out, model_backend_of, qkv_columns, relative_error, semantics, wall_ms, with_speedup)
from .registry import Backend, cannot_take
from ..semantics import grad_layout, qkv_layout
from ..semantics.grad_layout import GradLayout
from ..semantics.shapes import Shape
from ...cost import rates
from ...units import MS_PER_S

__all__ = ["FORWARD", "TRAINING", "bench_shape", "laid_out", "probe_calls"]
NO_BACKWARD = "no backward: forward only (its output is not differentiable)"
# ||grad - ref|| / ||ref|| allowed per input dtype, the worst of dq, dk, dv: the backward rounds P and dS to
# 16 bits before two of its five matmuls, the forward one of two (bench.TOLERANCE)
GRAD_TOLERANCE = {"bfloat16": 2e-2, "float16": 4e-3}


def training_tflops(shape: Shape, ms: float) -> float:
    """The shape's forward and backward flops (Shape.training_flops) over `ms` milliseconds."""
    return rates(shape.training_flops, 0, ms / MS_PER_S)[0]


def _needs_grad(q, k, v):
    return tuple(t.detach().requires_grad_(True) for t in (q, k, v))


def fwd_bwd(backend: Backend, q, k, v, dout, scale: float, config=None, **sem):
    """(out, (dq, dk, dv)) of one forward and backward call; ValueError(NO_BACKWARD) when its output has no grad."""
    import torch

    out, _ = backend(q, k, v, scale, config, **sem)
    if out.grad_fn is None:
        raise ValueError(NO_BACKWARD)
    return out, torch.autograd.grad(out, (q, k, v), dout)


def grad_error(grads, ref, live=None) -> float:
    """The worst ||g - ref|| / ||ref|| of dq (over the live query rows `live`), dk and dv; NaN when one is not
    finite (a NaN anywhere fails)."""
    errs = [relative_error(grads[0], ref[0], live), relative_error(grads[1], ref[1]), relative_error(grads[2], ref[2])]
    return max(errs) if all(math.isfinite(e) for e in errs) else float("nan")


def _layout_columns(layout: GradLayout | None, shape: Shape) -> dict:
    """The row's dout columns: the layout in words (grad_layout.describe) and the strides it ran at full shape."""
    strides = grad_layout.at(layout, shape, shape)
    return {"dout_layout": grad_layout.describe(layout, shape),
            "dout_strides": ",".join(map(str, strides)) if strides else ""}


def _check(backend: Backend, shape: Shape, q, k, v, dout, ref, live, scale: float, sem: dict) -> dict:
    _, grads = fwd_bwd(backend, q, k, v, dout, scale, **sem)
    err = grad_error(grads, ref, live)
    return {"rel_err": err, "ok": math.isfinite(err) and err <= GRAD_TOLERANCE[shape.dtype]}


def _pass_row(backend: Backend, shape: Shape, calls: int, model_backend: str, layout: GradLayout | None = None,
              **values) -> dict:
    return {**_row(backend, shape, calls, model_backend, **values), "pass": TRAINING, "flops": shape.training_flops,
            **_layout_columns(layout, shape)}


def refusal(backend: Backend, shape: Shape, n_scores: int, device: str) -> str:
    """Why `backend` is not run forward+backward at `shape`, before any call: "" when it is."""
    if not backend.has_backward:   # said first: what the kernel lacks, on any machine
        return NO_BACKWARD
    if not backend.available:
        return backend.reason
    return cannot_take(backend, shape.needs, shape.mask.kind) or \
        memory.too_big(backend.score_bytes, n_scores, memory.free_bytes(device) if backend.score_bytes else None)


def bench_shape(shape: Shape, calls: int, op: str, backends: list[Backend], opts: BenchOptions, result: BenchResult,
                on_backend: Callable[[str], None] | None = None) -> list[dict]:
    """A row per backend at `shape`, forward+backward: checked, then the survivors timed side by side, on q, k, v
    and dout in the model's layouts; a backend failing there is followed by its contiguous variant's row."""
    layout = opts.qkv_layouts.get(shape.label)
    return [{**r, **qkv_columns(layout, shape)}
            for r in _bench_shape(shape, calls, op, backends, opts, result, layout, on_backend)]


def _bench_shape(shape: Shape, calls: int, op: str, backends: list[Backend], opts: BenchOptions,
                 result: BenchResult, qkv: str | None, on_backend: Callable[[str], None] | None) -> list[dict]:
    import torch

    from ..kernels.reference import attention_float64
    from ..kernels.reference_backward import attention_grads_float64
    from ..timing import time_ms

    model_backend = model_backend_of(op)
    layout = opts.grad_layouts.get(shape.label)

    def row(b: Backend, **values) -> dict:
        return _pass_row(b, shape, calls, model_backend, layout, **values)
    try:
        sem = semantics(shape, opts.device)
    except (ValueError, OSError) as e:
        return [row(b, available=False, reason=one_line(e)) for b in backends]
    scale = shape.scale or 1.0 / math.sqrt(shape.D)
    n_scores = shape.B * shape.H * shape.Sq * shape.Sk
    why = {b.name: refusal(b, shape, n_scores, opts.device) for b in backends}
    checked = check_shape(shape)
    try:
        qc, kc, vc = _needs_grad(*_inputs(checked, opts.seed, opts.device, qkv))
        g = torch.Generator(device=opts.device).manual_seed(opts.seed + 3)
        dout_c = laid_out(torch.randn(qc.shape, generator=g, device=opts.device, dtype=qc.dtype),
                          grad_layout.at(layout, shape, checked))
        ref = attention_grads_float64(qc.detach(), kc.detach(), vc.detach(), dout_c, scale, **sem)
        _, ref_lse = attention_float64(qc.detach(), kc.detach(), vc.detach(), scale, **sem)
        live = None if bool(torch.isfinite(ref_lse).all()) else torch.isfinite(ref_lse)
        qt, kt, vt = _needs_grad(*_inputs(shape, opts.seed + 1, opts.device, qkv))
        dout_t = laid_out(torch.randn(qt.shape, generator=g, device=opts.device, dtype=qt.dtype),
                          grad_layout.at(layout, shape, shape))
    except (RuntimeError, MemoryError) as e:
        reason = f"inputs or float64 gradients: {one_line(e)}"
        return [row(b, available=False, reason=reason) for b in backends]
    rows: list[dict] = []
    timed = []   # (row index, backend, check's values)

    def settle(bs: list[Backend], tick: bool) -> list[Backend]:
        """Probe (in a process apart), check and queue for timing each of `bs`, a row each; those that failed."""
        runnable = [b.name for b in bs if not why[b.name]]
        if opts.probe and runnable:   # a backend that breaks the process's CUDA context never runs in it
            failed = {n: e for n, e in opts.probe(shape, runnable).items() if e}   # (the probe reads the layouts too)
            if failed:
                result.probed.setdefault(shape.label, {}).update(failed)
            why.update(failed)
        out = []
        for b in bs:
            if on_backend and tick:
                on_backend(b.name)
            if why[b.name]:
                rows.append(row(b, available=False, reason=why[b.name]))
                if b.name in runnable:   # refused before any call: no variant; failed in its call: one
                    out.append(b)
                continue
            t0 = time.perf_counter()
            try:
                values = _check(b, shape, qc, kc, vc, dout_c, ref, live, scale, sem)
            except Exception as e:  # this backend cannot run this shape's backward: say why, go on
                rows.append(row(b, available=False, reason=one_line(e)))
                out.append(b)
                if opts.device == "cuda":
                    torch.cuda.synchronize()
                result.spent(b.name, t0)
                continue
            result.spent(b.name, t0)
            if not values["ok"]:
                out.append(b)
            timed.append((len(rows), b, values))
            rows.append({})
        return out
    left = settle(backends, True)
    # the copies a variant makes, fewest first: q, k, v alone, then with dout too where that is strided as well;
    # none where all are contiguous already (the same call again). FLUX's cuDNN backward needed the dout copy: it
    # failed on the mix of the model's two dout layouts, whatever q, k, v's (scripts/probe_cudnn_train.py)
    qkv_dense, dout_dense = qkv_layout.q_strides(qkv, shape) is None, grad_layout.at(layout, shape, shape) is None
    for what in dict.fromkeys(w for w in (qkv_layout.copied(qkv_dense), qkv_layout.copied(qkv_dense, dout_dense))
                              if w):
        if not left:
            break
        variants = [contiguous.variant(b, what) for b in left]
        why.update((v.name, "") for v in variants)
        still = {v.name for v in settle(variants, False)}
        left = [b for b, v in zip(left, variants) if v.name in still]
    timer = opts.timer or (time_ms if opts.device == "cuda" else wall_ms)
    ms = _interleaved_ms(timer, [lambda b=b: fwd_bwd(b, qt, kt, vt, dout_t, scale, **sem) for _, b, _ in timed],
                         opts.rep_ms)
    for (i, b, values), t in zip(timed, ms):
        rows[i] = row(b, ms=t, tflops=training_tflops(shape, t), **values)
    model_ms = next((r["ms"] for r in rows if r["backend"] == model_backend), float("nan"))
    with_speedup(rows, model_ms)
    return beside_their_bases(rows)


def beside_their_bases(rows: list[dict]) -> list[dict]:
    """The rows in order, each contiguous variant's row right after its backend's."""
    variants: dict[str, list[dict]] = {}
    for r in rows:
        if qkv_layout.is_variant(r["backend"]):
            variants.setdefault(qkv_layout.base_of(r["backend"]), []).append(r)
    out = []
    for r in rows:
        if not qkv_layout.is_variant(r["backend"]):
            out += [r] + variants.pop(r["backend"], [])
    return out + [r for rs in variants.values() for r in rs]


def probe_calls(shape: Shape, backends: list[Backend], device: str, said: Callable[[str, str], None],
                layout: GradLayout | None = None, qkv: str | None = None) -> None:
    """One forward+backward call of each backend at the shape and at its check shape, synchronised, on a dout of
    the model's `layout` (None: contiguous) and q, k, v in its `qkv` layout (qkv_layout.py; None: contiguous), as
    bench_shape runs them: said(name, error or ""). A failure that
    leaves the device unusable (a sticky CUDA error) ends the probe after saying it: the caller starts a fresh
    process for the backends left."""
    import torch

    sem = semantics(shape, device)
    scale = shape.scale or 1.0 / math.sqrt(shape.D)
    sizes = [shape] + ([check_shape(shape)] if check_shape(shape) != shape else [])
    for b in backends:
        error = ""
        try:
            for s in sizes:
                sem_s = sem if s == shape else semantics(s, device)
                q, k, v = _needs_grad(*_inputs(s, 0, device, qkv))   # autograd.grad leaves them as they are
                for each in every_layout(layout):
                    fwd_bwd(b, q, k, v, laid_out(torch.ones_like(q), grad_layout.at(each, shape, s)), scale, **sem_s)
                    if device == "cuda":
                        torch.cuda.synchronize()
        except Exception as e:  # noqa: BLE001  the backend's error, its row's reason
            error = one_line(e)
        said(b.name, error)
        if error and not usable(device):
            return


def every_layout(layout: GradLayout | None) -> list[GradLayout | None]:
    """The model's dout layouts at a shape, most calls first, each run in turn: cuDNN's SDPA backward ran each of
    FLUX's two layouts alone but failed ("mha_graph.execute(...).is_good()", then an illegal memory access) once
    both ran in one process (torch 2.11, cuDNN 9.19, H200; scripts/probe_cudnn_train.py), as the model runs them."""
    if layout is None:
        return [None]
    return [layout, *(GradLayout(strides, calls) for strides, calls in layout.others)]


def usable(device: str) -> bool:
    """Whether the device still runs a kernel (after an illegal memory access no call does)."""
    import torch

    if device != "cuda":
        return True
    try:
        torch.cuda.synchronize()
        return float(torch.ones(2, device=device).sum().item()) == 2.0
    except Exception:  # noqa: BLE001  any CUDA error here is the answer
        return False
