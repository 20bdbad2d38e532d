"""The compile cache of `profile` (inductor/compile_cache.py): seeded into the run's Inductor cache before the
compile (`seed`, called by the compile stage), stored after the harvest (stage `compile_cache`), so a second
run of the same target, options and versions reuses the first one's compiled artifacts while every kernel is
still harvested into the new run (harvest reads the output code of the graphs this process loaded)."""
from __future__ import annotations

import hashlib
import sys
from dataclasses import asdict
from pathlib import Path

from ..inductor.compile_cache import CompileCache, folder

INDUCTOR_PROF_HOOKS = ("instrument.py", "provenance.py")   # what inductor-prof changes in Inductor while compiling
ENV_FACTS = ("python", "inductor_prof", "torch", "triton", "diffusers", "cuda", "cudnn", "driver")


def _file_digest(paths: list[Path]) -> str:
    h = hashlib.sha256()
    for p in paths:
        try:
            h.update(p.name.encode() + b"\0" + p.read_bytes())
        except OSError:
            h.update(p.name.encode() + b"\0missing")
    return h.hexdigest()[:12]


def facts(opts, env: dict) -> dict:
    """What the compiled artifacts depend on besides Inductor's own keys: the target and its options, the compile
    options, the versions and GPU (`env`: the manifest's), inductor-prof's hooks into Inductor, and for a
    module:factory target its module's source (an edited model starts a new entry, not a growing one)."""
    out = {"target": opts.target, "compile": asdict(opts.compile),
           **{k: env.get(k) for k in ENV_FACTS},
           "gpu": {k: (env.get("gpu") or {}).get(k) for k in ("name", "sm")},
           "hooks": _file_digest([Path(__file__).parent.parent / "inductor" / f for f in INDUCTOR_PROF_HOOKS])}
    if ":" in opts.target:
        module = sys.modules.get(opts.target.split(":")[0])
        file = getattr(module, "__file__", None)
        out["factory_module"] = _file_digest([Path(file)]) if file else None
    else:
        out["flux"] = asdict(opts.flux)
    return out


def seed(ctx) -> dict:
    """Before the compile: the entry of this run's facts copied into its (still empty) Inductor cache."""
    cache = CompileCache(folder(ctx.opts.settings.compile_cache), facts(ctx.opts, ctx.manifest.data.get("env") or {}))
    ctx.compile_cache = cache
    cache.seed(ctx.run.inductor_cache)
    for line in cache.warnings:
        ctx.log(f"warning: {line}")
    return {"compile_cache": cache.summary()} if cache.root is not None else {"compile_cache": "off"}


def run(ctx) -> dict:
    """Stage `compile_cache`: the run's compiled artifacts and its kernels' provenance become the entry."""
    cache = getattr(ctx, "compile_cache", None)
    if cache is None or cache.root is None:
        return {"stored": False, "why": "off"}
    cache.store(ctx.run.inductor_cache, ctx.registry.provenance.records)
    if cache.not_written:
        ctx.log(f"compile cache {cache.entry}: not written ({cache.not_written}); the run goes on")
        return {"stored": False, "entry": str(cache.entry), "not_written": cache.not_written}
    return {"stored": True, "entry": str(cache.entry)}
