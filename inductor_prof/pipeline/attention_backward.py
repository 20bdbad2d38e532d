"""A training run's attention comparison, forward+backward (attention/benchmark/backward.py), and the probe that
keeps a crashing backend out of the stage's process.

cuDNN's SDPA backward hit an illegal memory access at FLUX's shape on the H200 (scripts/try_train_backward.py):
after one, every CUDA call of that process fails. So before a shape's backends run forward+backward in the stage's
process, each one's call runs once in a worker of its own kind (`attention_probe`, `work` below), which says after
each backend whether it failed (a `probed` phase event). A sticky error ends that worker, and a fresh one takes
the backends left; a worker that crashed outright costs the backend in flight. Those that failed are rows with
their error; the others are checked and timed in the stage's process as usual.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Callable

from .. import procs, rundir, runfiles
from ..attention.benchmark.backward import probe_calls
from ..attention.benchmark.registry import backends as all_backends
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


def probe(run_dir: rundir.RunDir, settings: Settings, shape: Shape, names: list[str],
          run_worker: Callable[..., procs.WorkerOutcome] = procs.run_worker) -> dict[str, str]:
    """{backend: its failure, "" where its forward+backward call ran} for `names` at `shape`, each worker's log
    kept (RunDir.attention_probe_log)."""
    said: dict[str, str] = {}
    left = list(names)
    for i in range(len(names)):   # each worker settles at least one backend
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
    probe_calls(shapes[0], all_backends(list(spec.backends)), DEVICE, said)
    return {"probed": len(spec.backends)}
