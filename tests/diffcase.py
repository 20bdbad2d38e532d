"""Second runs for the `diff` tests, CONSTRUCTED: a copy of a recorded run (tests/data/flux_small) changed in
one known way, so each expectation can be derived by hand. These copies are test inputs, never real
profiles; the real second run of the README is recorded on a GPU."""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pandas as pd

from recorded import data_path

TEXT_SUFFIXES = {".json", ".hatchet", ".py", ".csv"}


def copy_run(dst: Path, src: str = "flux_small") -> Path:
    """The recorded run copied to `dst` (without the Inductor output code and the torch trace: diff reads
    neither)."""
    shutil.copytree(data_path(src), dst, ignore=shutil.ignore_patterns("cache", "torch_trace.json.gz"))
    return dst


def _whole_name(name: str) -> re.Pattern:
    return re.compile(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])")


def rename_kernel(run: Path, old: str, new: str) -> None:
    """Inductor's renumbering, simulated: `old` becomes `new` in every file (hatchets, kernels.json, ncu
    tables, kernel sources) and in the kernel files' names."""
    pattern = _whole_name(old)
    for path in sorted(run.rglob("*")):
        if path.is_file() and path.suffix in TEXT_SUFFIXES:
            text = path.read_text()
            if pattern.search(text):
                path.write_text(pattern.sub(new, text))
    for path in sorted(run.rglob("*")):
        if path.is_file() and pattern.match(path.name):
            path.rename(path.with_name(pattern.sub(new, path.name, count=1)))


def _edit_hatchet(path: Path, edit) -> None:
    data = json.loads(path.read_text())
    edit(data[0])
    path.write_text(json.dumps(data))


def _nodes(node: dict):
    yield node
    for child in node.get("children", []) or []:
        yield from _nodes(child)


def scale_kernel(run: Path, name: str, factor: float) -> None:
    """Every timed launch of `name` in the steps hatchet `factor` times as long."""
    def edit(root):
        for node in _nodes(root):
            if node["frame"]["name"] == name and "time (ns)" in node.get("metrics", {}):
                node["metrics"]["time (ns)"] *= factor
    _edit_hatchet(run / "proton" / "steps.hatchet", edit)


def remove_kernel(run: Path, name: str) -> None:
    """`name` gone from both hatchets and kernels.json, as if the model no longer launched it."""
    def edit(root):
        for node in _nodes(root):
            node["children"] = [c for c in node.get("children", []) or [] if c["frame"]["name"] != name]
    for hatchet in ("steps.hatchet", "annotated_step.hatchet"):
        _edit_hatchet(run / "proton" / hatchet, edit)
    kernels = run / "kernels" / "kernels.json"
    kernels.write_text(json.dumps([k for k in json.loads(kernels.read_text()) if k["name"] != name], indent=1))


def add_kernel(run: Path, name: str, ns_per_step: int) -> None:
    """A kernel launched once in each timed step, `ns_per_step` long."""
    def edit(root):
        for step in root["children"]:
            step["children"].append({"frame": {"name": name, "type": "function"}, "children": [],
                                     "metrics": {"count": 1, "device_id": "0", "device_type": "CUDA",
                                                 "time (ns)": ns_per_step}})
    _edit_hatchet(run / "proton" / "steps.hatchet", edit)


def edit_manifest(run: Path, edit) -> None:
    path = run / "manifest.json"
    manifest = json.loads(path.read_text())
    edit(manifest)
    path.write_text(json.dumps(manifest, indent=1))


def set_plain_steps(run: Path, step_ms: list[float]) -> None:
    def edit(m):
        m["stages"]["plain_steps"]["step_ms"] = step_ms
    edit_manifest(run, edit)


def change_launch_shape(run: Path, file: str, old: str, new: str) -> None:
    """The kernel file's get_args() launches another shape (e.g. another resolution)."""
    path = run / "kernels" / file
    text = path.read_text()
    assert old in text, f"{old!r} not in {file}"
    path.write_text(text.replace(old, new))


def move_call(run: Path, kernel: str, dims: str, new: str, scope_prefix: str, fraction: float,
              factor: float = 1.0) -> None:
    """cuBLAS picking kernel `new` for one GEMM shape that ran on `kernel`: the library_ops.csv rows of that
    call (`dims` as the file spells it) name `new`, and in the steps hatchet each node of `kernel` under a scope
    starting with `scope_prefix` hands one launch and `fraction` of its time to a node of `new` beside it (that
    time `factor` times as long: the call slower or faster on its new kernel)."""
    ops = run / "library_ops.csv"
    table = pd.read_csv(ops, keep_default_na=False)
    mine = (table["kernel"] == kernel) & (table["dims"] == dims)
    assert mine.any(), f"no call {dims} of {kernel}"
    table.loc[mine, "kernel"] = new
    table.to_csv(ops, index=False)

    def edit(root):
        for node in _nodes(root):
            if not node["frame"]["name"].startswith(scope_prefix):
                continue
            for child in list(node.get("children") or []):
                if child["frame"]["name"] == kernel:
                    m = child["metrics"]
                    moved = {**m, "count": 1, "time (ns)": m["time (ns)"] * fraction * factor}
                    m["count"], m["time (ns)"] = m["count"] - 1, m["time (ns)"] * (1 - fraction)
                    node["children"].append({"frame": {"name": new, "type": "function"}, "children": [],
                                             "metrics": moved})
    _edit_hatchet(run / "proton" / "steps.hatchet", edit)
