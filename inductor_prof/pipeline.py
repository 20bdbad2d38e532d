"""`profile`: target -> compile -> timed steps under Proton -> annotated step -> library ops -> harvest.

Each stage is recorded in the manifest as it ends; a failed optional stage is recorded and the run goes on,
so nothing already measured is lost. The caller learns of failures through `ProfileResult.failed`.
"""
from __future__ import annotations

import gzip
import shutil
import statistics
import sys
from dataclasses import asdict, dataclass, field
from typing import Callable

from . import rundir
from .compile import CompileOptions, compile_target, isolated_cache
from .errors import UserError
from .settings import Settings
from .targets import FluxOptions, resolve

Log = Callable[[str], None]


@dataclass
class ProfileOptions:
    target: str = "flux"
    out: str = "runs/flux"
    steps: int = 5
    warmup: int = 2
    force: bool = False
    ceilings: bool = True
    ncu: bool = False
    attention: bool = True
    settings: Settings = field(default_factory=Settings)
    flux: FluxOptions = field(default_factory=FluxOptions)
    compile: CompileOptions = field(default_factory=CompileOptions)


@dataclass
class ProfileResult:
    run: rundir.RunDir
    failed: dict[str, str]


def require_cuda() -> None:
    try:
        import torch
    except ImportError as e:
        raise UserError("profile needs torch with CUDA; `inductor-prof report` runs anywhere") from e
    if not torch.cuda.is_available():
        raise UserError("profile needs a CUDA GPU and none is visible; `inductor-prof report RUN` runs anywhere")


def _optional(manifest: rundir.Manifest, name: str, failed: dict, log: Log, fn: Callable[[dict], None]) -> None:
    try:
        with manifest.stage(name) as info:
            fn(info)
    except Exception as e:  # recorded in the manifest; the rest of the run goes on
        failed[name] = f"{type(e).__name__}: {e}"
        log(f"[red]stage {name} failed[/red]: {failed[name]}")


ATTENTION_TIMEOUT_S = 1200


def attention_subprocess(run: rundir.RunDir) -> dict:
    """`inductor-prof attention RUN` in a fresh process: its own CUPTI (torch.profiler holds this one's), and a
    crash in a hand-written kernel cannot take the profile with it. Output kept in attention/attention.log."""
    import subprocess

    from .childenv import python_env

    log_path = run.root / "attention" / "attention.log"
    log_path.parent.mkdir(parents=True, exist_ok=True)
    with open(log_path, "w") as f:
        proc = subprocess.run([sys.executable, "-m", "inductor_prof", "attention", str(run.root)], stdout=f,
                              stderr=subprocess.STDOUT, env=python_env(), timeout=ATTENTION_TIMEOUT_S)
    text = log_path.read_text(errors="replace")
    if proc.returncode != 0:
        tail = " | ".join(ln for ln in text.strip().splitlines()[-3:])
        raise RuntimeError(f"inductor-prof attention exited {proc.returncode}: {tail[:500]} (log: {log_path})")
    return {"log": str(log_path.relative_to(run.root)), "last_line": text.strip().splitlines()[-1][:300]}


def _median(xs: list[float]) -> float:
    return statistics.median(xs) if xs else float("nan")


def profile(opts: ProfileOptions, log: Log = print, step_progress=None, ncu_progress=None) -> ProfileResult:
    require_cuda()
    opts.compile.validate()
    if opts.steps < 1:
        raise UserError("--steps must be at least 1")
    from . import ceilings, envinfo
    from .drivers import proton as proton_driver
    from .drivers import torch_profiler
    from .instrument import KernelRegistry, instrumented_inductor

    run = rundir.create(opts.out, opts.force)
    settings = asdict(opts)
    manifest = rundir.Manifest(run, {"tool": "inductor-prof", "command": sys.argv, "settings": settings,
                                     "env": envinfo.collect()})
    failed: dict[str, str] = {}
    registry = KernelRegistry()
    profile_info: dict = {"steps": opts.steps, "warmup": opts.warmup}
    with isolated_cache(run.inductor_cache):
        with manifest.stage("build") as info:
            log(f"building {opts.target}")
            target = resolve(opts.target, opts.flux)
            info.update(parameters=target.info.get("parameters"))
        manifest.set("target", target.info)
        with instrumented_inductor(registry):
            with manifest.stage("compile") as info:
                log(f"compiling ({opts.compile.mode}, {'regional' if opts.compile.regional else 'whole model'})")
                info["how"] = compile_target(target, opts.compile)
                if info["how"] == "regional":
                    proton_driver.BlockScopes.wrap(target.model, target.blocks)
                info["first_step_ms"] = proton_driver.timed_steps(target, 1)[0]
            with manifest.stage("warmup") as info:
                info["step_ms"] = proton_driver.timed_steps(target, opts.warmup)
        with manifest.stage("plain_steps") as info:
            log(f"timing {opts.steps} plain steps")
            plain = proton_driver.timed_steps(target, opts.steps, on_step=step_progress)
            info["step_ms"] = plain
        with manifest.stage("proton_steps") as info:
            log(f"profiling {opts.steps} steps under Proton")
            with proton_driver.session(run.steps_hatchet, hook=None):
                timed = proton_driver.timed_steps(target, opts.steps, scope_prefix="step_", on_step=step_progress)
            info["step_ms"] = timed
        profile_info.update(plain_step_ms=_median(plain), proton_step_ms=_median(timed),
                            proton_over_plain=_median(timed) / _median(plain))
        manifest.set("profile", profile_info)

        def annotated(info):
            log("profiling one annotated step (flops/bytes per launch)")
            with proton_driver.session(run.annotated_hatchet, hook="triton"):
                info["step_ms"] = proton_driver.timed_steps(target, 1, scope_prefix="annotated_step_")[0]
            profile_info["annotated_step_ms"] = info["step_ms"]
            manifest.set("profile", profile_info)
        _optional(manifest, "annotated_step", failed, log, annotated)

        def library_ops(info):
            log("mapping library kernels to ATen ops (torch.profiler, one step)")
            trace = run.root / "torch_trace.json"
            torch_profiler.record(target, trace)
            table, attention = torch_profiler.parse_trace(trace)
            table.to_csv(run.library_ops_csv, index=False)
            rundir.write_json(run.attention_shapes_json, attention)
            with open(trace, "rb") as src, gzip.open(f"{trace}.gz", "wb") as dst:
                shutil.copyfileobj(src, dst)
            trace.unlink()
            info.update(library_launches=len(table), attention_calls=len(attention))
        _optional(manifest, "library_ops", failed, log, library_ops)

        if opts.ceilings:
            def measure_ceilings(info):
                log("measuring ceilings (bf16 matmul, device copy)")
                c = ceilings.measure()
                info.update(c)
                manifest.set("ceilings", c)
            _optional(manifest, "ceilings", failed, log, measure_ceilings)

        def harvest(info):
            from .harvest import harvest_cache, write_kernels

            log("harvesting kernels")
            records = harvest_cache(run.inductor_cache)
            launched = set(proton_driver.parse(run.steps_hatchet)["name"])
            for r in records:
                built = registry.kernels.get(r.name)
                if built is not None:
                    r.launch_config = built.launch_config()
                r.launched = r.name in launched
            rows = write_kernels([r for r in records if r.launched], run.kernels_dir)
            rundir.write_json(run.kernels_json, rows)
            info.update(harvested=len(records), launched=len(rows),
                        instrumented=len(registry.kernels))
        _optional(manifest, "harvest", failed, log, harvest)
        del target  # the model's weights are not needed past this point
        import torch

        torch.cuda.empty_cache()
        if opts.attention:
            def attention(info):
                log("benchmarking attention backends at the model's attention shapes (own process)")
                info.update(attention_subprocess(run))
            _optional(manifest, "attention", failed, log, attention)
        if opts.ncu:
            def ncu(info):
                from .ncu_stage import run_ncu

                log("Nsight Compute over each unique kernel")
                info.update(run_ncu(run, opts.settings, log=log, on_kernel=ncu_progress))
            _optional(manifest, "ncu", failed, log, ncu)
    manifest.set("failed_stages", failed)
    return ProfileResult(run=run, failed=failed)
