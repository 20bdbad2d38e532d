"""Does a run's "launch overhead and idle: CUDA graphs" item hold? The target's plain step compiled with
mode="default" and mode="reduce-overhead" in one process, in alternating rounds of synchronised steps; prints
each median, their ratio and the largest difference between the two outputs.

    python scripts/try_cuda_graphs.py examples.models.convnet:unet

On an H200 (2026-11-28) the UNet (examples/runs/unet-h200, whose first item was 1.95 ms of launch gap in a 2.67 ms
step) printed "default: median 1.501 ms/step ... reduce-overhead: median 0.864 ms/step ... 0.576x; largest
output difference 0" (an earlier draft of this script on the same kind of machine: 1.986 and 0.895 ms)."""
from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from side_by_side import arguments, model_and_inputs  # noqa: E402  (this folder is the script's first path)


def main() -> int:
    parser = arguments(__doc__.splitlines()[0])
    args = parser.parse_args()
    import torch

    model, call_args, kwargs = model_and_inputs(args.target)
    compiled = {mode: torch.compile(model, mode=mode) for mode in ("default", "reduce-overhead")}
    times: dict[str, list[float]] = {mode: [] for mode in compiled}
    with torch.no_grad():
        for fn in compiled.values():   # compile, record the graphs, warm up
            for _ in range(5):
                fn(*call_args, **kwargs)
        for _ in range(args.rounds):
            for mode, fn in compiled.items():
                for _ in range(args.steps):
                    torch.cuda.synchronize()
                    start = time.perf_counter()
                    fn(*call_args, **kwargs)
                    torch.cuda.synchronize()
                    times[mode].append((time.perf_counter() - start) * 1e3)
        ref = compiled["default"](*call_args, **kwargs)
        got = compiled["reduce-overhead"](*call_args, **kwargs).clone()
    med = {mode: statistics.median(t) for mode, t in times.items()}
    for mode, t in times.items():
        q = sorted(t)
        print(f"{mode}: median {med[mode]:.3f} ms/step (p10 {q[len(q) // 10]:.3f}, p90 {q[9 * len(q) // 10]:.3f})")
    print(f"reduce-overhead / default: {med['reduce-overhead'] / med['default']:.3f}x; largest output difference "
          f"{float((ref.float() - got.float()).abs().max()):.3g}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
