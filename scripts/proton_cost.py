"""Where does Proton's cost on a launch-bound step go? A target's compiled step timed plainly and under each
profiler set-up in alternating rounds, one process: synchronised wall ms per step, and host ms per step (the
time until the step's Python returns, before the sync: what launching costs the CPU).

    python scripts/proton_cost.py examples.models.convnet:unet [--rounds 5] [--steps 20]

Set-ups: plain; Proton as `profile` runs it (CUPTI, no launch hook, a scope per step); Proton without scopes;
a Proton session started then deactivated (CUPTI subscribed, not recording); and, for scale, Proton with the launch hook (the annotated step's set-up). Prints each median and its ratio to
plain, and the kernels a step launches.

On an H200 (2026-11-28, 10 rounds x 20 steps, the UNet: 99 GPU activities a step, launch-bound: host 1.485 of a
1.516 ms step): plain 1.516 ms; Proton with step scopes 1.846 (1.218x), without scopes 1.870 (1.234x), a session
started and deactivated 1.866 (1.231x), with the launch hook 1.872 (1.235x). The cost is CUPTI's subscription
(about 3.5 us of host time a launch), not the scopes, the hook or the recording; torch.profiler's CUDA tracing
cost more (`--torch-profiler`: 1.785 -> 2.381 ms, 1.334x). Kernel durations are GPU timestamps, which the host
cost does not stretch; only the host gap grows, and `report` takes that gap from the plain step."""
from __future__ import annotations

import statistics
import sys
import tempfile
import time
from contextlib import contextmanager, nullcontext
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from side_by_side import arguments, model_and_inputs  # noqa: E402  (this folder is the script's first path)


def main() -> int:
    parser = arguments(__doc__.splitlines()[0])
    parser.add_argument("--torch-profiler", action="store_true",
                        help="plain against torch.profiler (CUDA activities) instead: Kineto keeps CUPTI "
                             "subscribed once used, so Proton cannot run beside it in one process (CUPTI error 39)")
    args = parser.parse_args()
    import torch
    import triton.profiler as proton

    model, call_args, kwargs = model_and_inputs(args.target)
    fn = torch.compile(model)
    tmp = Path(tempfile.mkdtemp(prefix="proton-cost-"))

    @contextmanager
    def proton_session(hook=None, deactivated=False):
        sid = proton.start(str(tmp / "s"), hook=hook)
        if deactivated:
            proton.deactivate(sid)
        try:
            yield
        finally:
            proton.finalize()

    def torch_profiler():
        return torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA])

    setups = {
        "plain": (nullcontext, False),
        "proton, step scopes": (proton_session, True),
        "proton, no scopes": (proton_session, False),
        "proton, deactivated": (lambda: proton_session(deactivated=True), False),
        "proton, launch hook": (lambda: proton_session(hook="triton"), True),
    }
    if args.torch_profiler:
        setups = {"plain": (nullcontext, False), "torch.profiler CUDA": (torch_profiler, False)}
    wall: dict[str, list[float]] = {k: [] for k in setups}
    host: dict[str, list[float]] = {k: [] for k in setups}
    with torch.no_grad():
        for _ in range(5):
            fn(*call_args, **kwargs)
        names = list(setups)
        for r in range(args.rounds):
            for name in names[r % len(names):] + names[:r % len(names)]:   # each set-up first in turn
                setup, scopes = setups[name]
                with setup():
                    for _ in range(3):   # a session's first steps pay its one-time set-up
                        fn(*call_args, **kwargs)
                    for i in range(args.steps):
                        torch.cuda.synchronize()
                        t0 = time.perf_counter()
                        with (proton.scope(f"step_{i}") if scopes else nullcontext()):
                            fn(*call_args, **kwargs)
                        t1 = time.perf_counter()
                        torch.cuda.synchronize()
                        t2 = time.perf_counter()
                        host[name].append((t1 - t0) * 1e3)
                        wall[name].append((t2 - t0) * 1e3)
        # last: Kineto keeps CUPTI subscribed once used, and Proton cannot subscribe beside it (CUPTI error 39)
        with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
            fn(*call_args, **kwargs)
            torch.cuda.synchronize()
        kernels = sum(1 for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA)
    base = statistics.median(wall["plain"])
    print(f"{args.target}: {kernels} GPU activities a step (torch.profiler), {args.rounds} rounds x {args.steps} steps")
    print(f"{'set-up':<24}{'wall ms':>9}{'x plain':>9}{'host ms':>9}")
    for name in setups:
        w, h = statistics.median(wall[name]), statistics.median(host[name])
        print(f"{name:<24}{w:>9.3f}{w / base:>9.3f}{h:>9.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
