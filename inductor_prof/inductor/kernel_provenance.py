"""Per-kernel provenance from the records `provenance.capture_provenance` kept (pure: records and output-code
text in, JSON-able dicts out).

Which graph: Inductor reuses kernel names across graphs, so a kernel's records are looked up in the graph that
wrote its output-code module. A graph's records carry the handles Inductor also wrote into that module
(`# [Provenance debug handles] name:handle`, numbered from 1 in each graph); the module whose (name, handle)
lines equal a graph's records is that graph's. A module with such lines but no graph compiled them here came
from the FX graph cache ("cache hit": Inductor did not run, so nothing was traced); a module without them was
compiled with tracking off ("not tracked").

Library kernels: an extern kernel (extern_kernels.addmm, an SDPA op) is joined to the library kernels that
torch.profiler saw by ATen op and input shapes: the profiler op's leading tensor inputs have the shapes of
the FX node's tensor inputs (a symbolic dim matches any size). Several modules with the same op and shapes
(to_q, to_k, to_v) are all listed; `common_pattern` says where they live.
"""
from __future__ import annotations

import re
from collections import Counter
from typing import Any

from ..aten import ATTENTION_OPS, as_bhsd
from .module_paths import common_pattern, innermost_module, join, model_frame, relative_path, short_files
from .output_code import parse_output_code

_HANDLE = re.compile(r"# \[Provenance debug handles\] (\S+):(\d+)")
SHOWN_LINES = 5   # source lines kept for display (all are in `frames`)


def handles(output_code: str) -> list[tuple[str, int]]:
    """The (kernel, handle) lines Inductor wrote into an output-code module, in order."""
    return [(m.group(1), int(m.group(2))) for m in _HANDLE.finditer(output_code)]


def graph_groups(records: list[dict]) -> list[list[dict]]:
    """Records per compiled graph, in compile order: by the graph ordinal captured with them, or (records
    without one) a new graph wherever the handle numbering starts again."""
    groups: list[list[dict]] = []
    last_graph, last_handle = object(), None
    for r in records:
        if "graph" in r and r["graph"] is not None:
            new = r["graph"] != last_graph
        else:
            new = last_handle is None or r.get("handle") is None or r["handle"] <= last_handle
        if new or not groups:
            groups.append([])
        groups[-1].append(r)
        last_graph, last_handle = r.get("graph"), r.get("handle")
    return groups


def _signature(pairs) -> tuple:
    return tuple(sorted(set(pairs)))


def match_wrappers(groups: list[list[dict]], wrappers: dict[str, str]) -> dict[str, list[dict] | None]:
    """Output-code module -> the records of the graph that wrote it (None: it has handle lines but no graph
    here has them, a cache hit). Modules without handle lines are left out. Graphs alike in every
    (kernel, handle) pair cannot be told apart: their records are pooled."""
    by_sig: dict[tuple, list[dict]] = {}
    for g in groups:
        by_sig.setdefault(_signature((r["kernel"], r["handle"]) for r in g if "error" not in r), []).extend(g)
    out: dict[str, list[dict] | None] = {}
    for name, text in wrappers.items():
        pairs = handles(text)
        if pairs:
            out[name] = by_sig.get(_signature(pairs))
    return out


def with_saved(fresh: list[dict], saved: list[dict]) -> list[dict]:
    """This compile's records, plus the graphs of `saved` (an earlier compile's, kept with the compile cache)
    that this compile did not trace: a graph served from Inductor's cache is traced by no one, so its records
    come from the compile that built it. A saved graph alike (every kernel and handle) to a fresh one is left
    out, not pooled twice. Saved graphs get ordinals of their own ("saved N"), apart from the fresh ones."""
    have = {_signature((r["kernel"], r["handle"]) for r in g if "error" not in r) for g in graph_groups(fresh)}
    out = list(fresh)
    for i, group in enumerate(graph_groups(saved)):
        if _signature((r["kernel"], r["handle"]) for r in group if "error" not in r) not in have:
            out += [{**r, "graph": f"saved {i}"} for r in group]
    return out


def graph_block(records: list[dict], blocks: list[dict]) -> str:
    """Regional compile: the path pattern of the block class this graph belongs to: the class whose
    submodules hold most of the graph's (module path, class) pairs. "" when no blocks are known (whole model)."""
    pairs: Counter[tuple[str, str]] = Counter()
    for r in records:
        for n in r.get("nodes", []):
            for path, cls in (n.get("nn_module_stack") or {}).values():
                pairs[(relative_path(path), cls)] += 1
    scores = [(sum(k for (p, c), k in pairs.items() if b["modules"].get(p) == c), b["pattern"]) for b in blocks]
    best = max((s for s, _ in scores), default=0)
    return (common_pattern(p for s, p in scores if s == best) or "") if best else ""


def _node_module(node: dict, block: str) -> str:
    return join(block, innermost_module(node.get("nn_module_stack")) or "")


def summarize(records: list[dict], block: str, short: dict[str, str]) -> dict[str, Any]:
    """A kernel's provenance from its records (one per call site): FX nodes, modules, model source lines."""
    nodes: dict[str, str] = {}
    modules: dict[str, None] = {}
    lines: Counter = Counter()
    where: dict[tuple, dict] = {}
    for r in records:
        for n in r.get("nodes", []):
            nodes.setdefault(n["name"], n["target"])
            modules.setdefault(_node_module(n, block), None)
            f = model_frame(n.get("stack_trace"))
            if f:
                lines[(f["file"], f["line"])] += 1
                where.setdefault((f["file"], f["line"]), f)
    ranked = [where[k] for k, _ in lines.most_common()]   # the line most nodes came from first
    out: dict[str, Any] = {"source": "traced", "block": block or None,
           "nodes": [{"name": k, "target": v} for k, v in nodes.items()],
           "modules": list(modules), "module": module_pattern(list(modules), block),
           "source_lines": [f"{short.get(f['file'], f['file'])}:{f['line']}" for f in ranked[:SHOWN_LINES]],
           "frames": ranked}
    if any(r.get("backward_graph") for r in records):   # written for a training step's backward graph
        out["backward_graph"] = True
    return out


def module_pattern(modules: list[str], block: str | None) -> str | None:
    """The common pattern of a kernel's modules; nodes of the compiled module's own forward (residual adds,
    masks: path == the block, or "" for a whole model) do not widen it when other modules are there."""
    inner = [m for m in modules if m != (block or "")]
    return common_pattern(inner or modules)


def _all_files(groups: list[list[dict]]) -> list[str]:
    files = []
    for g in groups:
        for r in g:
            for n in r.get("nodes", []):
                f = model_frame(n.get("stack_trace"))
                if f:
                    files.append(f["file"])
    return files


def merge(provenances: list[dict]) -> dict:
    """One kernel (name and source) launched from several graphs: their provenance together."""
    traced = [p for p in provenances if p.get("source") == "traced"]
    if not traced:
        return dict(provenances[0])
    nodes = {(n["name"], n["target"]): n for p in traced for n in p.get("nodes", [])}
    modules = list(dict.fromkeys(m for p in traced for m in p.get("modules", [])))
    frames = list({(f["file"], f["line"]): f for p in traced for f in p.get("frames", [])}.values())
    lines = list(dict.fromkeys(s for p in traced for s in p.get("source_lines", [])))[:SHOWN_LINES]
    blocks = list(dict.fromkeys(p["block"] for p in traced if p.get("block")))
    block = common_pattern(blocks) if blocks else None
    out: dict[str, Any] = {"source": "traced", "block": block,
           "nodes": list(nodes.values()), "modules": modules, "module": module_pattern(modules, block),
           "source_lines": lines, "frames": frames}
    if any(p.get("backward_graph") for p in traced):
        out["backward_graph"] = True
    if len(traced) < len(provenances):   # some graphs of this kernel came from the cache
        out["also"] = sorted({str(p.get("source")) for p in provenances} - {"traced"})
    return out


def kernel_provenance(records: list[dict], wrappers: dict[str, str], blocks: list[dict] | None = None
                      ) -> dict[tuple[str, str], dict]:
    """(kernel name, source sha) -> provenance, for every Triton kernel defined in the output-code modules
    `wrappers` ({name: text})."""
    groups = graph_groups(records)
    short = short_files(_all_files(groups))
    matched = match_wrappers(groups, wrappers)
    found: dict[tuple[str, str], list[dict]] = {}
    for name, text in wrappers.items():
        graph = matched.get(name)
        block = graph_block(graph, blocks or []) if graph else ""
        for k in parse_output_code(text, name):
            if name not in matched:
                prov = {"source": "not tracked"}
            elif graph is None:
                prov = {"source": "cache hit"}
            else:
                prov = summarize([r for r in graph if r["kernel"] == k.name], block, short)
            found.setdefault((k.name, k.source_sha), []).append({**prov, "wrapper": name})
    return {key: {**merge(provs), "wrappers": [p["wrapper"] for p in provs]} for key, provs in found.items()}


def extern_calls(records: list[dict], blocks: list[dict] | None = None) -> list[dict]:
    """Each extern kernel's op node: ATen op (`aten::addmm`), input shapes, module path."""
    calls = []
    for graph in graph_groups(records):
        block = graph_block(graph, blocks or [])
        for r in graph:
            if not r.get("extern"):
                continue
            for n in r.get("nodes", []):
                op = n["target"].split(".")
                # the op the extern kernel runs, not the views that feed it (origins without an origin_node)
                if "input_shapes" in n and len(op) >= 2 and (len(r["nodes"]) == 1 or op[1] in r["kernel"]):
                    calls.append({"op": f"{op[0]}::{op[1]}",
                                  "shapes": n["input_shapes"], "module": _node_module(n, block)})
    return calls


def _same_shape(fx: list, profiled: list) -> bool:
    return len(fx) == len(profiled) and all(isinstance(a, str) or a == b for a, b in zip(fx, profiled))


def same_op(extern: str, profiled: str) -> bool:
    """The extern kernel's op launched the profiled one: the same op, or two attention ops of one SDPA backend
    (Inductor calls aten::_scaled_dot_product_cudnn_attention; the kernel runs under its inner
    aten::_cudnn_attention_forward)."""
    if extern == profiled:
        return True
    a, b = ATTENTION_OPS.get(extern), ATTENTION_OPS.get(profiled)
    return a is not None and b is not None and a.backend == b.backend


def library_modules(op: str, dims: list, calls: list[dict]) -> list[str]:
    """Module paths of the extern calls that match a profiled op (name and input shapes)."""
    tensors = [d for d in dims if isinstance(d, list) and d and all(isinstance(x, int) for x in d)]
    spec = ATTENTION_OPS.get(op)
    if spec is not None and spec.layout == "bshd":   # Inductor's call passes the (B, H, S, D) view
        tensors = [list(as_bhsd(spec.layout, d)) if len(d) == 4 else d for d in tensors]
    out: dict[str, None] = {}
    for c in calls:
        fx = [s for s in c["shapes"] if s]
        if same_op(c["op"], op) and len(fx) <= len(tensors) and all(_same_shape(a, b) for a, b in zip(fx, tensors)):
            out.setdefault(c["module"], None)
    return list(out)
