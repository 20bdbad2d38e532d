"""Flops and bytes of the Triton launches of a few steps, recorded outside Proton: for runs whose timed steps
replay CUDA graphs (reduce-overhead, max-autotune), where a replay launches no kernel through Triton's launcher,
so Proton's launch hook never prices the Inductor kernels of the annotated step.

Before the graphs replay, CUDA graph trees run each compiled graph eagerly once (warm-up) and then once under
stream capture (recording): both go through Triton's launcher, which evaluates the kernel's launch_metadata
(inductor/metrics.py's KernelMetrics) with the launch's own arguments and calls the launch hooks. `recording()`
adds a hook of its own to Triton's chain for the steps it wraps and keeps, per step, each kernel's launches and
their summed work. analysis/graph_prices.py later attaches a step's totals to the replayed launches of the same
kernel when the counts agree; nothing here guesses."""
from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Callable, Iterator

from ..cost import FLOP_KEYS

WORK_KEYS = ("bytes", *FLOP_KEYS)
FORMAT = "inductor-prof recorded launches 1"


def work_of(data: dict[str, Any]) -> dict[str, float] | None:
    """A launch's work as its launch_metadata gave it: bytes and flops by width (None: it gave none, a kernel
    without KernelMetrics)."""
    work = {k: float(data[k]) for k in WORK_KEYS if isinstance(data.get(k), (int, float))}
    return work or None


class LaunchRecorder:
    """A Triton launch_enter_hook: each launch's kernel name and work, grouped by the step `begin` opened."""

    def __init__(self) -> None:
        self.steps: list[dict[str, Any]] = []

    def begin(self, stage: str, size: str | None) -> None:
        self.steps.append({"stage": stage, "size": size, "kernels": {}, "unnamed": 0})

    def __call__(self, metadata: Any) -> None:
        if not self.steps:
            return
        step = self.steps[-1]
        data = metadata.get() if hasattr(metadata, "get") and callable(metadata.get) else None
        if not isinstance(data, dict) or not isinstance(data.get("name"), str):
            step["unnamed"] += 1   # launch_metadata gave nothing (no hook when its launcher was built)
            return
        name = data["name"]
        work = work_of(data)
        k = step["kernels"].setdefault(name, {"launches": 0, "priced": 0, "uniform": True, "first": None,
                                              **{key: 0.0 for key in WORK_KEYS}})
        k["launches"] += 1
        if work is None:
            return
        k["priced"] += 1
        if k["first"] is None:
            k["first"] = work
        elif work != k["first"]:
            k["uniform"] = False
        for key, v in work.items():
            k[key] += v

    def stepped(self, stage: str, size: str | None, step: Callable[[], Any]) -> Callable[[], Any]:
        """`step` opening a recorded step of its own at each call."""
        def run() -> Any:
            self.begin(stage, size)
            return step()
        return run

    def document(self) -> dict[str, Any]:
        """The run file (proton/recorded_launches.json): per recorded step, per kernel: launches, how many gave
        their work, whether every launch gave the same, and the summed work."""
        steps = []
        for i, s in enumerate(self.steps):
            kernels = {n: {key: v for key, v in k.items() if key != "first"} for n, k in sorted(s["kernels"].items())}
            steps.append({"index": i, "stage": s["stage"], "size": s["size"], "unnamed": s["unnamed"],
                          "kernels": kernels})
        return {"format": FORMAT, "steps": steps}


@contextmanager
def recording(recorder: LaunchRecorder) -> Iterator[LaunchRecorder]:
    """`recorder` in Triton's launch_enter_hook chain inside the block (Triton 3.5+: a HookChain, always set, so
    Inductor's launchers evaluate the launch_metadata on every launch)."""
    from triton import knobs

    chain = knobs.runtime.launch_enter_hook
    if not hasattr(chain, "add"):
        raise RuntimeError("this Triton's launch_enter_hook is not a hook chain (Triton 3.5 or later needed)")
    chain.add(recorder)
    try:
        yield recorder
    finally:
        chain.remove(recorder)
