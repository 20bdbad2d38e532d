"""Installs the annotations into Inductor while it compiles, and remembers every kernel it built.

What works (measured on torch 2.11 / triton 3.6, see the guide): the `launch_metadata` must be on the
`JITFunction` when its `CachingAutotuner` is constructed, kernels must be compiled in this process
(`compile_threads = 1`: workers return kernels without their JITFunction), and Inductor's static launcher
must be off (it never calls launch hooks). All of it is scoped to `instrumented_inductor()`: nothing changes
at import.
"""
from __future__ import annotations

import weakref
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Iterator

from .metrics import KernelMetrics
from .provenance import ProvenanceRecorder, capture_provenance


@dataclass
class BuiltKernel:
    name: str
    heuristic: str | None
    inductor_meta: dict
    signature: dict
    filename: str | None
    metrics: KernelMetrics
    source: str = field(repr=False, default="")        # the JITFunction's source (from its `def` on)
    autotuner: Any = field(repr=False, default=None)   # weakref to the CachingAutotuner

    def launch_config(self) -> dict[str, Any]:
        """The config Inductor chose (after autotuning): block sizes, warps, stages, registers, spills."""
        tuner = self.autotuner() if self.autotuner else None
        launchers = getattr(tuner, "launchers", None) or []
        if not launchers:
            return {}
        launcher = launchers[0]
        cfg = getattr(launcher, "config", None)
        out: dict[str, Any] = {}
        if cfg is not None:
            out.update({k: v for k, v in cfg.kwargs.items()})
            out["num_warps"] = cfg.num_warps
            out["num_stages"] = cfg.num_stages
        for attr in ("n_regs", "n_spills", "shared"):
            value = getattr(launcher, attr, None)
            if value is not None:
                out[attr] = value
        out["candidate_configs"] = len(getattr(tuner, "configs", []) or [])
        return out


class KernelRegistry:
    """Every kernel built while compiling, by name: a list, since Inductor gives one name to different code in
    different graphs (each with its own autotuned config)."""

    def __init__(self):
        self.kernels: dict[str, list[BuiltKernel]] = {}
        self.provenance = ProvenanceRecorder()   # which FX nodes went into each kernel (provenance.py)

    def find(self, name: str, source: str) -> BuiltKernel | None:
        """The kernel of that name built from `source` (a harvested kernel's module text)."""
        built = self.kernels.get(name, [])
        return next((b for b in built if b.source and b.source.strip() in source), None)

    def add(self, tuner) -> None:
        fn = tuner.fn
        meta = dict(getattr(tuner, "inductor_meta", None) or {})
        name = str(meta.get("kernel_name") or getattr(fn, "__name__", "unknown"))
        heuristic = getattr(getattr(tuner, "heuristic_type", None), "name", None)
        source = getattr(fn, "src", "") or ""
        # cached_autotune pops mutated_arg_names out of inductor_meta onto the tuner (torch 2.11-2.13)
        mutated = getattr(tuner, "mutated_arg_names", None) or meta.get("mutated_arg_names") or ()
        metrics = KernelMetrics.for_source(name, source, heuristic, mutated)
        if getattr(fn, "launch_metadata", None) is None:
            fn.launch_metadata = metrics
        triton_meta = getattr(tuner, "triton_meta", None) or {}
        self.kernels.setdefault(name, []).append(BuiltKernel(
            name=name, heuristic=heuristic.lower() if heuristic else None, inductor_meta=meta,
            signature=dict(triton_meta.get("signature", {})), filename=getattr(tuner, "filename", None),
            metrics=metrics, source=source, autotuner=weakref.ref(tuner)))


@contextmanager
def instrumented_inductor(registry: KernelRegistry) -> Iterator[None]:
    """Inside: every CachingAutotuner built gets launch_metadata and is recorded, every kernel's provenance
    captured (registry.provenance); config as needed."""
    import torch._inductor.config as inductor_config
    from torch._inductor.runtime import triton_heuristics

    original_init = triton_heuristics.CachingAutotuner.__init__

    def init(self, *args, **kwargs):
        original_init(self, *args, **kwargs)
        if not getattr(self, "custom_kernel", False):
            registry.add(self)

    patch = {"benchmark_kernel": True, "compile_threads": 1}
    if hasattr(inductor_config, "use_static_triton_launcher"):
        patch["use_static_triton_launcher"] = False
    triton_heuristics.CachingAutotuner.__init__ = init  # type: ignore[method-assign]  # the hook, undone below
    try:
        with inductor_config.patch(patch), capture_provenance(registry.provenance):
            yield
    finally:
        triton_heuristics.CachingAutotuner.__init__ = original_init  # type: ignore[method-assign]
