"""Captures, while Inductor compiles, which FX nodes went into each kernel (its provenance).

With `trace.provenance_tracking_level = 1` Inductor calls `debug.set_kernel_post_grad_provenance_tracing(
node_schedule, kernel_name, is_extern)` for every kernel it writes (Triton, C++ and extern kernels) and writes
the handle it returns into the output code (`# [Provenance debug handles] name:handle`). Its own tables are
reset after each graph, so the nodes are read here, in a wrapper, while the graph compiles. Scoped to
`capture_provenance()`: nothing changes at import. `kernel_provenance.py` turns the records into per-kernel
provenance.
"""
from __future__ import annotations

import importlib
import itertools
import weakref
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Iterator

# modules that import the function by name (so each needs the wrapper too)
CALLERS = ("torch._inductor.debug", "torch._inductor.codegen.triton", "torch._inductor.codegen.cpp")
FUNCTION = "set_kernel_post_grad_provenance_tracing"


@dataclass
class ProvenanceRecorder:
    """One record per provenance call: kernel, handle, extern, graph (an ordinal per compiled graph) and the
    origin nodes (name, target, stack_trace, nn_module_stack, and for extern kernels their input shapes)."""
    records: list[dict] = field(default_factory=list)
    blocks: list[dict] = field(default_factory=list)   # regional compile: see block_classes()
    _graphs: Any = field(default_factory=weakref.WeakKeyDictionary, repr=False)
    _next: Any = field(default_factory=itertools.count, repr=False)

    def graph_ordinal(self) -> int | None:
        try:
            from torch._inductor.virtualized import V

            graph = V.graph
            if graph not in self._graphs:
                self._graphs[graph] = next(self._next)
            return self._graphs[graph]
        except Exception:   # no graph being lowered, or one that cannot be weakly referenced
            return None

    def add(self, node_schedule, kernel_name: str, is_extern: bool, handle: int | None) -> None:
        origins = extern_origins(node_schedule) if is_extern else schedule_origins(node_schedule)
        record = {"kernel": kernel_name, "handle": handle, "extern": bool(is_extern), "graph": self.graph_ordinal(),
                  "nodes": [node_record(o, shapes=is_extern) for o in origins]}
        if backward_graph():   # AOTAutograd's backward graph of a training step
            record["backward_graph"] = True
        self.records.append(record)


def backward_graph() -> bool:
    """Whether the graph Inductor is lowering is a backward graph (GraphLowering.is_backward)."""
    try:
        from torch._inductor.virtualized import V

        return bool(getattr(V.graph, "is_backward", False))
    except Exception:   # no graph being lowered
        return False


def extern_origins(kernel) -> list:
    """An extern kernel's FX node: its `origin_node` when Inductor knows it exactly, else its origins."""
    node = getattr(kernel, "origin_node", None)
    return [node] if node is not None else list(getattr(kernel, "origins", ()) or ())


def schedule_origins(node_schedule) -> list:
    out: dict[Any, None] = {}
    for snode in node_schedule or ():
        node = getattr(snode, "node", None)
        for origin in getattr(node, "origins", ()) or ():
            out.setdefault(origin, None)
    return list(out)


def _dims(value) -> list | None:
    shape = getattr(value, "shape", None)
    if shape is None:
        return None
    return [int(d) if str(d).lstrip("-").isdigit() else str(d) for d in shape]   # symbolic: its expression


def node_record(node, shapes: bool = False) -> dict:
    meta = getattr(node, "meta", {}) or {}
    # a backward graph's node: AOTAutograd copies the module stack of the forward node it is the gradient of
    # (fwd_nn_module_stack), so a backward kernel is traced to the forward module that produced it
    stack = meta.get("nn_module_stack") or meta.get("fwd_nn_module_stack") or {}
    rec = {"name": node.name, "target": str(node.target), "stack_trace": meta.get("stack_trace"),
           "nn_module_stack": {str(k): [str(x) for x in v] for k, v in stack.items()}}
    if shapes:   # the tensor inputs, to join the library kernel the op launches (kernel_provenance.library)
        args = [a for a in node.args if hasattr(a, "meta")]
        rec["input_shapes"] = [d for d in (_dims(a.meta.get("val")) for a in args) if d is not None]
    return rec


def block_classes(model, blocks: list[tuple[str, Any]]) -> list[dict]:
    """Per class of repeated block: the path pattern of its blocks in `model` (`transformer_blocks.*`) and its
    submodules ({relative path: str(class)}, as nn_module_stack names them), to tell which class a graph is."""
    where = {id(m): name for name, m in model.named_modules()}
    by_class: dict[type, list] = {}
    for _, block in blocks:
        by_class.setdefault(type(block), []).append(block)
    from .module_paths import block_pattern

    return [{"pattern": block_pattern(where[id(b)] for b in members if id(b) in where),
             "class": str(cls),
             "modules": {name: str(type(m)) for name, m in members[0].named_modules() if name}}
            for cls, members in by_class.items()]


@contextmanager
def capture_provenance(recorder: ProvenanceRecorder) -> Iterator[None]:
    """Inside: provenance tracking on, every kernel's origin nodes appended to `recorder.records`."""
    import torch._inductor.config as inductor_config

    modules = []
    for name in CALLERS:
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        if hasattr(module, FUNCTION):
            modules.append(module)
    original = getattr(modules[0], FUNCTION)

    def traced(node_schedule, kernel_name, is_extern=False):
        handle = original(node_schedule, kernel_name, is_extern)
        try:
            recorder.add(node_schedule, kernel_name, is_extern, handle)
        except Exception as e:   # provenance must never break a compile
            recorder.records.append({"kernel": kernel_name, "handle": handle, "error": repr(e)})
        return handle

    saved = [(m, getattr(m, FUNCTION)) for m in modules]
    for m in modules:
        setattr(m, FUNCTION, traced)
    try:
        with inductor_config.patch({"trace.provenance_tracking_level": 1}):
            yield
    finally:
        for m, fn in saved:
            setattr(m, FUNCTION, fn)
