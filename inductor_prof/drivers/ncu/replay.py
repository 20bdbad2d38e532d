"""The program ncu profiles: replays each kernel once, then once more inside its own profiler range.

A worker (`python -m inductor_prof.worker SPEC`, a ReplaySpec naming the kernels' spec files, `work`), where
each kernel's spec is either
  {"type": "inductor", "file": ".../kernel.py", "name": "triton_...", "config": {...}}  (a harvested kernel) or
  {"type": "aten", "op": "aten::addmm", "dims": [...], "strides": [...], "types": [...], "scalars": [...]}
ncu runs with --profile-from-start off: the first launch (autotuning, library heuristics) is not profiled.
Several specs in one process share its start-up (Python, torch, CUDA context under ncu: most of the cost).
Each step is a progress event (`ready`; `load` of kernel i, ok or skipped with the reason; `profile` of kernel
i), timed by the event's `t`: the per-kernel timeout restarts on each, and they say which kernel was in flight
when a process failed and where its seconds went. Its events go to a file of their own: its stdout and stderr
are shared with ncu's. The same steps are written to stderr for a person reading the log (STEP, SKIPPED); a
kernel it could not load makes it exit 3, the others' results still in the report.
"""
from __future__ import annotations

import importlib.util
import json
import sys
import time

from inductor_prof.aten import (ATTENTION_BACKWARD_OPS, ATTENTION_OPS, GROUPED_GEMMS, PROFILER_DTYPES,
                                SCALAR_TYPES, SDPA_BACKENDS, attention_backward_causal, attention_flags,
                                attention_keeps_lse)
from inductor_prof.errors import one_line
from inductor_prof.specs import AtenCall, InductorCall, replay_call

SKIPPED = "ncu_runner: skipped"   # the log's line for a kernel it could not load
STEP = "ncu_runner: step"         # the log's line for each step


def _step(events, total: int, what: str, index: int | None = None, **detail) -> None:
    words = [what] + ([str(index)] if index is not None else []) + \
        (["ok" if detail["ok"] else "skipped"] if "ok" in detail else [])
    print(STEP, *words, f"at={time.time():.3f}", file=sys.stderr, flush=True)
    events.progress(0 if index is None else index + 1, total, what, index=index, **detail)


def _steps(events: list[dict], what: str) -> list[dict]:
    return [e for e in events if e.get("event") == "progress" and e.get("what") == what]


def phases(events: list[dict], started: float, ended: float) -> dict[str, float]:
    """Where the seconds of one ncu process (launched at `started`, ended at `ended`, epoch seconds) went, from
    the times of its step events: start-up (ncu, Python, torch, the CUDA context under ncu) up to `ready`,
    loading the kernels (each launched once, unprofiled), profiling them, and after the last one (ncu writing
    its report). {} when it has no `ready` and `profile` steps (a process that failed early)."""
    times = {what: float(steps[-1]["t"]) for what in ("ready", "load", "profile") if (steps := _steps(events, what))}
    if "ready" not in times or "profile" not in times:
        return {}
    loaded = times.get("load", times["ready"])
    return {"start-up": times["ready"] - started, "loading": loaded - times["ready"],
            "profiling": times["profile"] - loaded, "report": ended - times["profile"]}


def skipped(events: list[dict]) -> dict[int, str]:
    """Index -> why the program could not load that kernel."""
    return {int(e["index"]): str(e.get("reason", "")) for e in _steps(events, "load") if not e.get("ok")}


def in_flight(events: list[dict], n: int) -> int | None:
    """Which of the n specs the program was on when it stopped, from its step events: the first not loaded,
    else the first loaded one not profiled; None when every step finished."""
    loaded = {int(e["index"]): bool(e.get("ok")) for e in _steps(events, "load")}
    profiled = {int(e["index"]) for e in _steps(events, "profile")}
    pending = [i for i in range(n) if i not in loaded] or [i for i in range(n) if loaded[i] and i not in profiled]
    return pending[0] if pending else None


def only_chosen_config(tuner, chosen: dict) -> None:
    """Keep the config the model ran with: no autotuning (compiles and benchmark launches) under ncu."""
    configs = getattr(tuner, "configs", None)
    if not configs or not chosen:
        return
    for cfg in configs:
        if (cfg.num_warps == chosen.get("num_warps") and cfg.num_stages == chosen.get("num_stages")
                and all(chosen.get(k) == v for k, v in cfg.kwargs.items())):
            tuner.configs = [cfg]
            return


def inductor_launch(call: InductorCall):
    mod_spec = importlib.util.spec_from_file_location(call.name, call.file)
    assert mod_spec is not None and mod_spec.loader is not None, call.file   # a .py file always has both
    module = importlib.util.module_from_spec(mod_spec)
    mod_spec.loader.exec_module(module)
    if not hasattr(module, "get_args"):
        raise RuntimeError(f"{call.name}: its file has no get_args() (Inductor writes none for a foreach kernel, "
                           "such as a compiled optimizer step's): it cannot be replayed alone")
    only_chosen_config(getattr(module, call.name, None), call.config)
    args = module.get_args()
    return lambda: module.call(args)


def _is_shape(d) -> bool:
    return isinstance(d, list) and bool(d) and all(isinstance(x, int) for x in d)


def _tensor(dims, strides, type_name, device):
    import torch

    dtype = getattr(torch, PROFILER_DTYPES.get(type_name, ("float32", 4))[0])
    t = torch.empty_strided(dims, strides, dtype=dtype, device=device) if strides else \
        torch.empty(dims, dtype=dtype, device=device)
    if dtype.itemsize == 1 and dtype.is_floating_point:   # fp8: no normal_ of its own
        t.copy_(torch.randn(t.shape, device=device))
    elif t.is_floating_point():
        t.normal_()
    else:
        t.zero_()
    return t


def _scalar(text: str, schema_type: str):
    """A recorded non-tensor argument (torch.profiler's Concrete Inputs text) as the op's schema types it."""
    if text in ("", "None"):
        return None
    if "ScalarType" in schema_type:
        import torch

        return getattr(torch, SCALAR_TYPES[int(text)])
    if "List[" in schema_type:
        return json.loads(text)
    if "bool" in schema_type:
        return text == "True"
    if "int" in schema_type.lower():
        return int(text)
    return float(text) if any(c in text for c in ".e") else int(text)


def recorded_args(spec: AtenCall | dict, device: str = "cuda") -> tuple:
    """(the ATen op, its positional arguments) of a recorded call: fresh tensors of the recorded shapes, strides
    and dtypes (0-d ones: 1, the scales of a scaled GEMM), the recorded scalars as its schema types them, absent
    optionals None; `out=` tensors (kwarg-only) left out. A grouped GEMM's offsets split its grouped dim evenly
    (fresh zeros would put every row in one group)."""
    import torch

    call = AtenCall.of(spec)
    dims, strides, types, scalars = call.dims, call.strides, call.types, call.scalars
    fn = getattr(torch.ops.aten, call.op.split("::")[-1]).default
    params = [a for a in fn._schema.arguments if not a.kwarg_only]
    args = []
    for i, param in enumerate(params[:len(dims)]):
        kind = str(param.real_type)   # ScalarType, not the int the JIT's `type` says
        if "Tensor" in kind and isinstance(dims[i], list) and types[i] in PROFILER_DTYPES:
            t = _tensor(dims[i], strides[i] if i < len(strides) and strides[i] else None, types[i], device)
            if not dims[i]:
                t.fill_(1)
            args.append(t)
        else:
            text = scalars[i] if i < len(scalars) else ""
            args.append(param.default_value if text == "" and param.has_default_value() else _scalar(text, kind))
    if call.op in GROUPED_GEMMS and "offs" in [p.name for p in params]:
        k = [p.name for p in params].index("offs")
        groups, total = args[k].numel(), args[0].shape[0] if args[0].dim() == 2 else args[1].shape[-1]
        args[k] = (torch.arange(1, groups + 1, device=device) * (total // groups)).clamp(max=total) \
            .to(torch.int32)
        args[k][-1] = total
    return fn, args


def aten_launch(spec: AtenCall | dict, device: str = "cuda"):
    """A call of the recorded op on fresh tensors of the recorded shapes, strides and dtypes. Attention ops run
    through SDPA forced onto the backend the model used, with its causal flag, scale, a mask of the recorded shape
    and dtype (every pair kept: the kernel the mask selects, without rows of NaN) and enable_gqa when k has fewer
    heads than q."""
    import torch

    call = AtenCall.of(spec)
    dims, strides, types = call.dims, call.strides, call.types

    def tensor_at(i):
        return _tensor(dims[i], strides[i] if i < len(strides) else None, types[i] if i < len(types) else "float",
                       device)
    op = call.op
    if op in ATTENTION_BACKWARD_OPS:
        return attention_backward_launch(call, tensor_at)
    if op in ATTENTION_OPS:
        from torch.nn.attention import SDPBackend, sdpa_kernel

        attn = ATTENTION_OPS[op]
        q, k, v = (tensor_at(i) for i in range(3))
        if attn.layout == "bshd":   # the kernel's own op takes (B, S, H, D); SDPA the (B, H, S, D) view of it
            q, k, v = (x.transpose(1, 2) for x in (q, k, v))
        if attention_keeps_lse(op, call.scalars):   # a training step's forward: its kernel writes the lse too
            q, k, v = (t.requires_grad_(True) for t in (q, k, v))
        mask = tensor_at(attn.mask) if attn.mask is not None and attn.mask < len(dims) and _is_shape(dims[attn.mask]) \
            else None
        if mask is not None:
            mask = torch.ones_like(mask) if mask.dtype == torch.bool else torch.zeros_like(mask)
        flags = attention_flags(op, call.scalars)
        if k.dim() == 4 and q.dim() == 4 and k.shape[1] != q.shape[1]:
            flags["enable_gqa"] = True
        backend = getattr(SDPBackend, SDPA_BACKENDS[attn.backend])

        def run():
            with sdpa_kernel([backend]):
                return torch.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=mask, **flags)
        return run
    fn, args = recorded_args(call, device)
    return lambda: fn(*args)


def attention_backward_launch(call: AtenCall, tensor_at):
    """An SDPA backward call replayed as the model's step ran it: the forward of the backend that owns the op
    (aten.ATTENTION_BACKWARD_OPS), run once here on fresh q, k, v of the recorded shapes (bshd ones as the (B, H,
    S, D) views SDPA takes), with its causal flag and GQA; the launch is autograd's backward of that output for a
    fresh grad_out, the graph kept so that every launch runs the same backward kernels (the op's own helpers, such
    as cuDNN's dO.O reduction, with it: ncu profiles the named kernel only)."""
    import torch
    from torch.nn.attention import SDPBackend, sdpa_kernel

    spec = ATTENTION_BACKWARD_OPS[call.op]

    def bhsd(t):
        return t.transpose(1, 2) if spec.layout == "bshd" else t
    dout, q, k, v = (bhsd(tensor_at(i)) for i in range(4))
    q, k, v = (t.detach().requires_grad_(True) for t in (q, k, v))
    flags = {"is_causal": attention_backward_causal(call.op, call.scalars)}
    if k.shape[1] != q.shape[1]:
        flags["enable_gqa"] = True
    with sdpa_kernel([getattr(SDPBackend, SDPA_BACKENDS[spec.backend])]):
        out = torch.nn.functional.scaled_dot_product_attention(q, k, v, **flags)
    return lambda: torch.autograd.grad(out, (q, k, v), dout, retain_graph=True)


def work(spec, events) -> dict:
    """The program (worker.py, kind `ncu_replay`): each kernel loaded (launched once, unprofiled), then each
    loaded one profiled in its own range. Exits 3 when it skipped a kernel it could not load."""
    import torch

    from inductor_prof.inductor.cache import inductors_ptxas

    inductors_ptxas()   # the ptxas the model's kernels were built and keyed with: Triton's cache has them
    torch.cuda.init()
    n = len(spec.specs)
    _step(events, n, "ready")   # imports and CUDA's initialisation done: what follows is the kernels'
    launches = []
    for i, path in enumerate(spec.specs):
        kernel = json.loads(open(path).read())
        label = kernel.get("name") or kernel.get("op")
        try:
            call = replay_call(kernel)
            launch = inductor_launch(call) if isinstance(call, InductorCall) else aten_launch(call)
            launch()                  # compile / autotune / pick the library kernel: not profiled
            torch.cuda.synchronize()
            launches.append((i, launch))
            _step(events, n, "load", i, ok=True)
        except Exception as e:  # one broken kernel must not cost the others their profile
            why = one_line(e, None)
            print(f"{SKIPPED} {label}: {why}", file=sys.stderr, flush=True)
            _step(events, n, "load", i, ok=False, reason=why)
    for i, launch in launches:
        torch.cuda.cudart().cudaProfilerStart()
        launch()
        torch.cuda.synchronize()
        torch.cuda.cudart().cudaProfilerStop()
        _step(events, n, "profile", i)
    if len(launches) != n:
        raise SystemExit(3)
    return {"profiled": len(launches)}
