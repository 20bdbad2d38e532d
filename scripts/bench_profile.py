"""Performance of `inductor-prof profile` (FLUX by default) on this GPU: the stage split, cold and warm, side by
side, with Proton's cost over the plain step. Not a timed test: a measurement to read and to quote.

1. cold: the profile with empty user caches (compile cache, attention tuning cache: a fresh XDG_CACHE_HOME,
   `--cache`, wiped first); warm: the same profile again with the caches the cold run left. Each is a
   subprocess timed on the wall; its stages' seconds come from its manifest.
2. Per run: the plain compiled step, the step under Proton (synchronised and back to back) and their ratio,
   the annotated step over the plain one.
3. With --baseline: a plain torch.compile of FLUX in another process (Inductor's static launcher on, no hooks).

usage: python scripts/bench_profile.py OUT [--ncu] [--runs cold,warm|cold|warm] [--cache DIR] [--target T]
                                           [--steps N] [--baseline] [extra profile args, e.g. --height 768]
`--runs warm` after a cold run made by an earlier command (same OUT and --cache) measures the warm run alone.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

BASELINE = r"""
import statistics, sys, time, torch
from inductor_prof.targets import FluxOptions, resolve
from inductor_prof.pipeline.compile import CompileOptions, compile_target
t = resolve("flux", FluxOptions())
compile_target(t, CompileOptions())
for _ in range(3): t()
times = []
for _ in range(int(sys.argv[1])):
    torch.cuda.synchronize(); t0 = time.perf_counter(); t(); torch.cuda.synchronize()
    times.append((time.perf_counter() - t0) * 1e3)
print("PLAIN_MS", statistics.median(times))
"""
NAN = float("nan")
BASELINE_STEPS = 10   # the plain compile's timed steps (their median), where --steps is not given


def profile_once(a, extra: list[str], out: str, cache: Path) -> dict:
    """One `inductor-prof profile` in a subprocess whose user caches are under `cache`; its manifest, exit code
    and wall time."""
    cmd = [sys.executable, "-m", "inductor_prof", "profile", a.target, "--out", out, "--force",
           *(["--steps", str(a.steps)] if a.steps else []), *(["--ncu"] if a.ncu else []), *extra]
    env = {**os.environ, "XDG_CACHE_HOME": str(cache.resolve())}
    t0, started = time.perf_counter(), time.time()
    rc = subprocess.run(cmd, env=env, timeout=3600).returncode
    wall = time.perf_counter() - t0
    path = Path(out) / "manifest.json"
    manifest = json.loads(path.read_text()) if path.exists() else {}
    return {"rc": rc, "wall": wall, "manifest": manifest, "started": started}


OUTSIDE = ("start-up to the manifest, s", "manifest to 1st stage, s", "between stages, s", "after the stages, s")


def outside_stages(run: dict) -> tuple[float, float, float, float]:
    """Seconds outside the stages: the process's start to its manifest (imports, the target's check, the
    environment's facts), the manifest to the first stage, between stages, after the last one; from the
    manifest's times (epoch); NaN where it has none."""
    m = run["manifest"]
    stages = [st for st in (m.get("stages") or {}).values() if "started" in st and "seconds" in st]
    if not stages or "created" not in m:
        return NAN, NAN, NAN, NAN
    between = sum(b["started"] - (a["started"] + a["seconds"]) for a, b in zip(stages, stages[1:]))
    after = run["started"] + run["wall"] - (stages[-1]["started"] + stages[-1]["seconds"])
    return m["created"] - run["started"], stages[0]["started"] - m["created"], between, after


def _ratio(num, den) -> float:
    return num / den if isinstance(num, (int, float)) and isinstance(den, (int, float)) and den else NAN


def table(runs: dict[str, dict]) -> list[str]:
    """The stage split and the ratios of each run, one column per run."""
    names = list(runs)
    lines = [f"{'':26s}" + "".join(f"{n:>12s}" for n in names)]
    lines.append(f"{'exit code':26s}" + "".join(f"{runs[n]['rc']:>12d}" for n in names))
    lines.append(f"{'wall, s':26s}" + "".join(f"{runs[n]['wall']:>12.1f}" for n in names))
    stages: list[str] = []
    for n in names:
        stages += [s for s in (runs[n]["manifest"].get("stages") or {}) if s not in stages]
    for s in stages:
        cells = []
        for n in names:
            st = (runs[n]["manifest"].get("stages") or {}).get(s)
            cells.append(f"{st.get('seconds', NAN):>10.1f} {'' if st.get('status') == 'ok' else '!'}" if st
                         else f"{'-':>11s}")
        lines.append(f"  {s:24s}" + "".join(f"{c:>12s}" for c in cells))
    for i, label in enumerate(OUTSIDE):
        lines.append(f"  {label:24s}" + "".join(f"{outside_stages(runs[n])[i]:>12.1f}" for n in names))
    lines.append(f"{'  sum of stages, s':26s}" + "".join(
        f"{sum(st.get('seconds') or 0 for st in (runs[n]['manifest'].get('stages') or {}).values()):>12.1f}"
        for n in names))
    rows = [("plain step, ms", lambda p: p.get("plain_step_ms")),
            ("Proton step, ms", lambda p: p.get("proton_step_ms")),
            ("Proton x plain (sync)", lambda p: p.get("proton_over_plain", _ratio(p.get("proton_step_ms"),
                                                                                 p.get("plain_step_ms")))),
            ("Proton x plain (b2b)", lambda p: _ratio(p.get("proton_back_to_back_ms"), p.get("plain_back_to_back_ms"))),
            ("annotated x plain", lambda p: _ratio(p.get("annotated_step_ms"), p.get("plain_step_ms")))]
    for label, get in rows:
        values = [get(runs[n]["manifest"].get("profile") or {}) for n in names]
        lines.append(f"{label:26s}" + "".join(f"{v if isinstance(v, (int, float)) else NAN:>12.3f}" for v in values))
    for n in names:
        compile_info = ((runs[n]["manifest"].get("stages") or {}).get("compile") or {}).get("compile_cache")
        attention = ((runs[n]["manifest"].get("stages") or {}).get("attention") or {})
        lines.append(f"{n}: compile cache {compile_info}; attention: tuning {attention.get('tuning_cache')}, "
                     f"compile {attention.get('compile_cache')}")
        for stage in ("attention", "ncu", "ncu_source"):   # where a stage's seconds went, as it recorded them
            split = ((runs[n]["manifest"].get("stages") or {}).get(stage) or {}).get("seconds_by_phase")
            if split:
                lines.append(f"  {stage}: " + ", ".join(f"{k} {v:.1f}" for k, v in split.items()))
        if attention.get("precompile"):
            lines.append(f"  attention precompile: {attention['precompile']}")
    return lines


def bytecode_line() -> str:
    """Whether this machine's Python processes reuse compiled bytecode: where they do not (PYTHONDONTWRITEBYTECODE
    and no .pyc beside the sources, as on some images), every process of the profile compiles torch's modules again
    (about 9 s each on the H100 machine), which a pip install's .pyc files spare a user."""
    if sys.dont_write_bytecode and not sys.pycache_prefix:
        return "Python bytecode: not written (PYTHONDONTWRITEBYTECODE): each process compiles its imports again"
    return f"Python bytecode: cached ({'PYTHONPYCACHEPREFIX=' + sys.pycache_prefix if sys.pycache_prefix else 'beside the sources'})"


def compile_bytecode() -> str:
    """compileall over site-packages and PYTHONPATH (into PYTHONPYCACHEPREFIX where set), as pip does at install."""
    import site

    dirs = [d for d in dict.fromkeys([*site.getsitepackages(), *os.environ.get("PYTHONPATH", "").split(os.pathsep)])
            if d and Path(d).is_dir()]
    t0 = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "compileall", "-q", "-j", "0", *dirs], capture_output=True,
                          text=True, timeout=1800)
    line = (f"bytecode compiled for {len(dirs)} folders in {time.perf_counter() - t0:.1f} s (exit {done.returncode}; "
            f"{bytecode_line()})")
    # Triton builds its driver utilities (C, gcc) at first use on a machine: once per install, like the bytecode
    t0 = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", "from triton.runtime import driver; driver.active.utils"],
                          capture_output=True, text=True, timeout=600)
    return f"{line}\nTriton's driver utilities ready in {time.perf_counter() - t0:.1f} s (exit {done.returncode})"


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--target", default="flux")
    ap.add_argument("--ncu", action="store_true")
    ap.add_argument("--runs", default="cold,warm", help="cold,warm | cold | warm")
    ap.add_argument("--cache", default=None, help="XDG_CACHE_HOME of the runs (default: OUT.cache)")
    ap.add_argument("--baseline", action="store_true")
    ap.add_argument("--steps", type=int, default=None,
                    help="the profile's --steps (default: the profile's own, as the README's main job runs it)")
    ap.add_argument("--compile-bytecode", action="store_true",
                    help="first compile the installed packages' bytecode (as pip does at install) and build Triton's "
                         "driver utilities (its first use on a machine), each timed: the cold run then measures "
                         "the tool's own first run")
    a, extra = ap.parse_known_args()   # the rest goes to `inductor-prof profile` (--height 768 ...)
    which = [r.strip() for r in a.runs.split(",") if r.strip()]
    if not which or any(r not in ("cold", "warm") for r in which):
        ap.error(f"--runs: cold, warm or both, not {a.runs!r}")
    cache = Path(a.cache or f"{a.out.rstrip('/')}.cache")
    if a.compile_bytecode:
        print(compile_bytecode(), flush=True)
    runs = {}
    for r in which:
        if r == "cold":
            shutil.rmtree(cache, ignore_errors=True)
        elif not cache.is_dir():
            print(f"warning: {cache} does not exist: the warm run starts cold", file=sys.stderr)
        cache.mkdir(parents=True, exist_ok=True)
        runs[r] = profile_once(a, extra, a.out, cache)
        print(f"\n{r}: profile {a.target}: exit {runs[r]['rc']}, wall {runs[r]['wall']:.1f} s", flush=True)
    steps = f"--steps {a.steps} " if a.steps else ""
    print(f"\nprofile {a.target} {'--ncu ' if a.ncu else ''}{steps}(user caches in {cache})")
    print(bytecode_line())
    print("\n".join(table(runs)))
    if a.baseline:
        out = subprocess.run([sys.executable, "-c", BASELINE, str(a.steps or BASELINE_STEPS)], capture_output=True,
                             text=True, timeout=1800)
        line = [ln for ln in out.stdout.splitlines() if ln.startswith("PLAIN_MS")]
        if line:
            base = float(line[0].split()[1])
            last = (runs[which[-1]]["manifest"].get("profile") or {}).get("proton_step_ms", NAN)
            print(f"plain compile, own process (static launcher) {base:8.2f} ms; profiled step over it "
                  f"{last / base:.3f}")
        else:
            print("baseline failed:", out.stderr[-2000:])
    return max(r["rc"] for r in runs.values())


if __name__ == "__main__":
    sys.exit(main())
