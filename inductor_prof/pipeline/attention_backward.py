"""A training run's attention comparison, forward+backward (attention/benchmark/backward.py), and the probe that
keeps a crashing backend out of the stage's process.

cuDNN's SDPA backward hit an illegal memory access at FLUX's shape on the H200 (scripts/probe_cudnn_train.py):
after one, every CUDA call of that process fails. So before a shape's backends run forward+backward in the stage's
process, each one's call runs once in a worker of its own kind (`attention_probe`, `work` below), which says after
each backend whether it failed (a `probed` phase event). A sticky error ends that worker, and a fresh one takes
the backends left; a worker that crashed outright costs the backend in flight. Those that failed are rows with
their error; the others are checked and timed in the stage's process as usual. The probe and the stage run each
call on the upstream gradient's layout the model's backward got (`grad_layouts`: its library_ops.csv rows) and on
q, k, v in the layout of the model's call (`qkv_layouts`: its attention_shapes.json), a backend's contiguous variant
(attention/benchmark/contiguous.py) by its row's name.
"""
from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Callable

from .. import procs, rundir, runfiles
from ..attention.benchmark.backward import probe_calls
from ..attention.benchmark.contiguous import backends as all_backends
from ..attention.semantics import grad_layout, qkv_layout
from ..attention.semantics.shapes import Shape, from_calls
from ..envinfo import require_cuda
from ..settings import Settings
from ..specs import AttentionProbeSpec

PROBED = "probed"     # the phase event a probe worker says after each backend: {"backend", "error"}
PROBE_TIMEOUT_S = 300  # one worker: start-up, FlexAttention's forward and backward compiles, a call of each
DEVICE = "cuda"


def is_training(manifest: dict) -> bool:
    """Whether the run profiled a training step (`profile --train`: the target's record says its phases)."""
    return bool(((manifest.get("target") or {}).get("training") or {}).get("phases"))


def grad_layouts(run_dir: rundir.RunDir, shapes: list[Shape]) -> dict[str, grad_layout.GradLayout]:
    """Shape label -> dout's layout as the run's backward calls got it (grad_layout.recorded over its
    library_ops.csv); {} for a run without that file (its dout stays contiguous)."""
    lib = runfiles.if_present(run_dir.library_ops_csv, runfiles.library_ops_file,
                              "the upstream gradient's layout of the forward+backward comparison")
    return {} if lib is None else grad_layout.recorded(lib.to_dict("records"), shapes)


def qkv_layouts(run_dir: rundir.RunDir) -> dict[str, str]:
    """Shape label -> q, k, v's layout in the model's calls (qkv_layout.recorded over attention_shapes.json); {}
    for a run without that file (q, k, v stay contiguous)."""
    calls = runfiles.if_present(run_dir.attention_shapes_json, runfiles.attention_calls_file,
                                "the layout of q, k, v in the attention comparison")
    return {} if calls is None else qkv_layout.recorded(calls)


def probe(run_dir: rundir.RunDir, settings: Settings, shape: Shape, names: list[str],
          run_worker: Callable[..., procs.WorkerOutcome] = procs.run_worker) -> dict[str, str]:
    """{backend: its failure, "" where its forward+backward call ran} for `names` at `shape`, each worker's log
    kept (RunDir.attention_probe_log, numbered on from the logs already there: a shape's contiguous variants are
    probed after its backends, and their logs must not replace those)."""
    said: dict[str, str] = {}
    left = list(names)
    first = next(i for i in itertools.count() if not run_dir.attention_probe_log(i).exists())
    for i in range(first, first + len(names)):   # each worker settles at least one backend
        if not left:
            break
        spec = AttentionProbeSpec(settings=settings, run=str(run_dir.root), shape=shape.label, backends=left)
        done = run_worker(spec, run_dir.attention_probe_log(i), PROBE_TIMEOUT_S)
        for e in done.seen("phase"):
            if e.get("name") == PROBED:
                d = json.loads(str(e.get("detail") or "{}"))
                said[str(d["backend"])] = str(d["error"])
        before, left = left, [n for n in left if n not in said]
        if left and (done.result is None or left == before):   # it crashed in the first one left (or said none)
            said[left.pop(0)] = f"crashed the process running it ({done.why()}; {run_dir.attention_probe_log(i)})"
    return said


def work(spec: AttentionProbeSpec, events) -> dict:
    """The probe worker: spec.backends' forward+backward call at the run's shape labelled spec.shape."""
    require_cuda("attention")
    run_dir = rundir.RunDir(Path(spec.run))   # the stage's own run folder: only its captured calls are read
    shapes = [s for s, _, _ in from_calls(runfiles.attention_calls_file(run_dir.attention_shapes_json))
              if s.label == spec.shape]
    if not shapes:
        raise ValueError(f"{run_dir.attention_shapes_json} has no call of shape {spec.shape}")

    def said(name: str, error: str) -> None:
        print(f"{PROBED} {name}: {error or 'ok'}", flush=True)
        events.phase(PROBED, json.dumps({"backend": name, "error": error}))
    layout = grad_layouts(run_dir, shapes[:1]).get(spec.shape)
    qkv = qkv_layouts(run_dir).get(spec.shape)
    print(f"dout: {grad_layout.describe(layout, shapes[0])}; q, k, v: {qkv_layout.describe(qkv, shapes[0])}",
          flush=True)
    probe_calls(shapes[0], all_backends(list(spec.backends)), DEVICE, said, layout, qkv)
    return {"probed": len(spec.backends)}
