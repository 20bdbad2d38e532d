"""Step time under Proton (CUPTI, no launch hook) over the plain step, for FLUX and the shipped decoder, in
one process, set up as `inductor-prof profile` sets them up (own Inductor cache, launch hooks installed while
compiling, Inductor's static launcher off).

Two timings, plain and under Proton alike (drivers/proton/session.py):
  synchronised  wall ms of a step with a host sync before and after: pays every launch's host time
  back to back  GPU ms per step between CUDA events, steps queued without a sync: host time per launch hides
                while the CPU keeps ahead of the GPU
Rounds alternate plain and Proton so that drift (clocks, heat) falls on both; each number is the median of
all its steps.

usage (from the repository root, on a GPU):
  python scripts/bench_proton_overhead.py                       # full FLUX.1-dev 1024x1024 + 8-layer decoder
  python scripts/bench_proton_overhead.py --double-blocks 2 --single-blocks 4 --steps 10 --rounds 3
  python scripts/bench_proton_overhead.py --only decoder --decoder-compile regional
"""
from __future__ import annotations

import argparse
import gc
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))   # the checkout's inductor_prof and examples/

from inductor_prof.drivers import proton  # noqa: E402
from inductor_prof.inductor.cache import isolated_cache  # noqa: E402
from inductor_prof.inductor.instrument import KernelRegistry, instrumented_inductor  # noqa: E402
from inductor_prof.pipeline.compile import CompileOptions, compile_target  # noqa: E402

DECODER = "examples.models.llama_decoder:decoder"


def build(name: str, a):
    from inductor_prof.targets import FluxOptions, load_custom, resolve

    if name == "flux":
        return resolve("flux", FluxOptions(height=a.height, width=a.width, double_blocks=a.double_blocks,
                                           single_blocks=a.single_blocks)), a.flux_compile
    return load_custom(DECODER), a.decoder_compile


def measure(target, steps: int, rounds: int) -> dict[str, list[float]]:
    times = {k: [] for k in ("plain_sync", "plain_b2b", "proton_sync", "proton_b2b")}
    for _ in range(rounds):
        times["plain_sync"] += proton.timed_steps(target, steps)
        times["plain_b2b"] += proton.back_to_back_steps(target, steps)
        with proton.discarded_session():
            times["proton_sync"] += proton.timed_steps(target, steps, scope_prefix="step_")
            times["proton_b2b"] += proton.back_to_back_steps(target, steps, scope_prefix="step_")
    return times


def run_one(name: str, a) -> dict[str, float]:
    import torch

    target, how = build(name, a)
    with instrumented_inductor(KernelRegistry()):
        compile_target(target, CompileOptions(regional=how == "regional"))
        if how == "regional":
            proton.BlockScopes.wrap(target.model, target.blocks)
        proton.timed_steps(target, 1 + a.warmup)   # the first step compiles
    med = {k: statistics.median(v) for k, v in measure(target, a.steps, a.rounds).items()}
    del target
    gc.collect()
    torch.cuda.empty_cache()
    return med


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", choices=("flux", "decoder"), help="one model (default: both)")
    ap.add_argument("--steps", type=int, default=10, help="steps per timing per round")
    ap.add_argument("--rounds", type=int, default=2, help="rounds of plain then Proton")
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--height", type=int, default=1024, help="flux: image height")
    ap.add_argument("--width", type=int, default=1024, help="flux: image width")
    ap.add_argument("--double-blocks", type=int, default=None, help="flux: double-stream blocks (default 19)")
    ap.add_argument("--single-blocks", type=int, default=None, help="flux: single-stream blocks (default 38)")
    ap.add_argument("--flux-compile", choices=("regional", "whole-model"), default="regional")
    ap.add_argument("--decoder-compile", choices=("regional", "whole-model"), default="whole-model")
    a = ap.parse_args()
    names = [a.only] if a.only else ["flux", "decoder"]
    rows = {}
    with tempfile.TemporaryDirectory(prefix="bench-proton-") as tmp, isolated_cache(Path(tmp)):
        for name in names:
            print(f"{name}: building, compiling, {a.rounds} x {a.steps} steps of each timing", file=sys.stderr)
            rows[name] = run_one(name, a)
    print(f"\nmedian ms per step ({a.rounds} rounds x {a.steps} steps)")
    print(f"{'model':10s} {'timing':14s} {'plain':>9s} {'Proton':>9s} {'ratio':>7s}")
    for name, med in rows.items():
        for label, key in (("synchronised", "sync"), ("back to back", "b2b")):
            plain, under = med[f"plain_{key}"], med[f"proton_{key}"]
            print(f"{name:10s} {label:14s} {plain:9.3f} {under:9.3f} {under / plain:7.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
