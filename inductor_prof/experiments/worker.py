"""One experiment, in a process of its own (`python -m inductor_prof.experiments.worker SPEC_JSON`): the run's
target built as profiled, compiled twice in this process, as the run compiled it ("before") and with the
experiment's change ("after"), both at the run's default input size; then

1. both warmed up (the first step compiles; CUDA graphs are recorded),
2. one step of each, outputs compared leaf by leaf (raw numbers: the parent judges them),
3. `rounds` rounds of `steps` synchronised steps of each, the two alternating and their order swapped each round,
4. a few steps of each under torch.profiler: GPU µs per step of each kernel (graph replays' kernels included).

It prints one `experiment:` line of JSON on stdout: {"before_ms", "after_ms", "leaves", "dtype", "kernels_before",
"kernels_after"} or {"stage", "error", "oom"} where it failed (the stage: build, compile_before, compile_after,
...). Both compiles are torch.compile of the same module (regional: each block's `_call_impl`, as
nn.Module.compile does), a switch choosing which runs: the same weights and inputs on both sides."""
from __future__ import annotations

import json
import sys
import time
from types import ModuleType

RESULT = "experiment:"


def _inductor_options(mode: str, options: dict) -> dict:
    """torch.compile takes a mode or options, not both: the mode as the options it stands for, then the change."""
    import torch

    base = torch._inductor.list_mode_options(mode) if mode != "default" else {}
    return {**base, **options}


def _compiled(target, compile_opts: dict, sides: dict[str, dict]):
    """(step() running the side named in `state["side"]`, state). sides: name -> Inductor options."""
    import torch

    from ..targets.blocks import named_blocks

    state = {"side": next(iter(sides))}
    blocks = target.blocks
    if compile_opts.get("regional", True) and compile_opts.get("blocks"):
        blocks = named_blocks(target.model, list(compile_opts["blocks"]))
    regional = compile_opts.get("regional", True) and bool(blocks)
    kw = {"fullgraph": bool(compile_opts.get("fullgraph", True)) and regional,
          "dynamic": bool(compile_opts.get("dynamic", False))}

    def compile_fn(fn, options):
        return torch.compile(fn, **kw, **({"options": options} if options else {}))

    if regional:
        for _, block in blocks:
            fns = {side: compile_fn(block._call_impl, opts) for side, opts in sides.items()}
            block._compiled_call_impl = lambda *a, _fns=fns, **k: _fns[state["side"]](*a, **k)

        def step():
            torch.compiler.cudagraph_mark_step_begin()
            return target()
    else:
        fns = {side: compile_fn(target.model, opts) for side, opts in sides.items()}

        def step():
            torch.compiler.cudagraph_mark_step_begin()
            return fns[state["side"]](*target.args, **target.kwargs)
    return step, state


def _tensors(out) -> list:
    """The tensors of a model's output: a tensor, or tuples, lists and dicts of them (diffusers' outputs are
    dicts)."""
    import torch

    if isinstance(out, torch.Tensor):
        return [out]
    if isinstance(out, dict):
        return [t for v in out.values() for t in _tensors(v)]
    if isinstance(out, (list, tuple)):
        return [t for v in out for t in _tensors(v)]
    return []


def _leaves(ref: list, got: list) -> list[dict]:
    import torch

    out = []
    for r, g in zip(ref, got):
        if not (r.is_floating_point() and g.shape == r.shape):
            same = bool(torch.equal(r, g)) if g.shape == r.shape else False
            out.append({"max_abs_diff": 0.0 if same else float("inf"), "ref_max_abs": 1.0, "nan_mismatch": False})
            continue
        r64, g64 = r.double(), g.double()
        finite = torch.isfinite(r64)
        out.append({"max_abs_diff": float((r64 - g64)[finite].abs().max()) if finite.any() else 0.0,
                    "ref_max_abs": float(r64[finite].abs().max()) if finite.any() else 0.0,
                    "nan_mismatch": bool((finite & ~torch.isfinite(g64)).any())})
    if len(ref) != len(got):
        out.append({"max_abs_diff": float("inf"), "ref_max_abs": 1.0, "nan_mismatch": False})
    return out


def _sync() -> None:
    import torch

    if torch.cuda.is_available():   # a CPU model (the tests') has nothing to wait for
        torch.cuda.synchronize()


def _timed(step, n: int) -> list[float]:
    times = []
    for _ in range(n):
        _sync()
        t0 = time.perf_counter()
        step()
        _sync()
        times.append((time.perf_counter() - t0) * 1e3)
    return times


def _kernels(step, n: int) -> dict[str, float]:
    """GPU µs per step of each kernel over `n` steps under torch.profiler (CUPTI: kernels replayed from a CUDA
    graph are recorded too)."""
    import torch
    from torch.autograd import DeviceType
    from torch.profiler import ProfilerActivity, profile

    if not torch.cuda.is_available():
        return {}
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(n):
            step()
        _sync()
    out: dict[str, float] = {}
    for e in prof.events():
        if e.device_type == DeviceType.CUDA:
            out[e.name] = out.get(e.name, 0.0) + e.time_range.elapsed_us() / n
    return out


def run(spec: dict) -> dict:
    import torch

    from ..targets import FluxOptions, resolve

    stage = "build"
    try:
        flux = dict(spec.get("flux") or {})
        flux["resolutions"] = tuple(flux.get("resolutions") or ())
        target = resolve(spec["target"], FluxOptions(**flux))
        dynamo = torch._dynamo.config
        dynamo.recompile_limit = max(dynamo.recompile_limit, 64)   # two compiles of every block's code
        copts = spec["compile"]
        exp = spec["experiment"]
        sides = {"before": _inductor_options(copts.get("mode", "default"), {}),
                 "after": _inductor_options(exp.get("mode") or copts.get("mode", "default"), exp.get("options") or {})}
        step, state = _compiled(target, copts, sides)
        override: ModuleType | None = None
        if exp.get("attention"):   # the model's SDPA calls to another backend, on the changed side only
            stage = "attention_override"
            from . import attention_override

            override = attention_override
            override.install(exp["attention"])

        def use(side: str) -> None:
            state["side"] = side
            if override is not None:
                override.use(side == "after")

        outputs = {}
        for side in sides:
            stage = f"compile_{side}"
            use(side)
            for _ in range(spec["warmup"]):
                step()
            stage = f"output_{side}"
            outputs[side] = [t.detach().clone() for t in _tensors(step())]   # a graph's outputs are overwritten
        _sync()
        stage = "timing"
        times: dict[str, list[float]] = {side: [] for side in sides}
        order = list(sides)
        for r in range(spec["rounds"]):
            for side in order if r % 2 == 0 else order[::-1]:
                use(side)
                times[side] += _timed(step, spec["steps"])
        stage = "kernels"
        kernels = {}
        for side in sides:
            use(side)
            kernels[side] = _kernels(step, spec["profile_steps"])
        ref = outputs["before"]
        routed = {"attention_calls": override.calls()} if override is not None else {}
        return {**routed, "before_ms": times["before"], "after_ms": times["after"], "leaves": _leaves(ref, outputs["after"]),
                "dtype": str(ref[0].dtype).replace("torch.", "") if ref else "",
                "kernels_before": kernels["before"], "kernels_after": kernels["after"],
                "graphs_compiled": int(torch._dynamo.utils.counters["stats"]["unique_graphs"]),
                "device": torch.cuda.get_device_name() if torch.cuda.is_available() else "cpu"}
    except torch.cuda.OutOfMemoryError as e:
        return {"stage": stage, "error": f"out of memory: {str(e).splitlines()[0]}", "oom": True}
    except Exception as e:   # one line for the record; the log keeps the traceback
        import traceback

        traceback.print_exc()
        first = str(e).strip().splitlines()[0] if str(e).strip() else ""
        return {"stage": stage, "error": f"{type(e).__name__}: {first}"[:600], "oom": False}


def main(argv: list[str]) -> int:
    with open(argv[1]) as f:
        spec = json.load(f)
    out = run(spec)
    print(RESULT, json.dumps(out), flush=True)
    from ..quick_exit import exit_now

    exit_now(0)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
