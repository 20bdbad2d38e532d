"""`inductor-prof try RUN`: the experiments for the run's advice (analysis/experiment_plan.py), one process each
(launch.py), judged (analysis/experiment_stats.py) and written to RUN/experiments/: each one's spec.json,
worker.log and result.json in a folder of its own, all of them in experiments.json with the advice items they
answer. A failed experiment is recorded with its reason and the others go on; nothing else of the run is
written."""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable

from .. import rundir, runfiles
from ..analysis import experiment_plan, experiment_stats
from ..errors import UserError
from .launch import run_experiment


NOT_RUN = "not run"   # an asked experiment the run's advice gives nothing to try with


@dataclass
class TryOptions:
    experiments: list[str] | None = None   # None: those the advice calls for
    top: int = 5           # advice items considered
    rounds: int = 6        # alternating rounds ...
    steps: int = 10        # ... of this many synchronised steps a side
    warmup: int = 3        # steps before timing (compile, graph recording)
    profile_steps: int = 3   # steps of each side under torch.profiler (the kernels that moved)
    timeout: float = 900.0   # seconds for one experiment's process


def check(opts: TryOptions) -> None:
    unknown = [n for n in opts.experiments or [] if n not in experiment_plan.NAMES]
    if unknown:
        raise UserError(f"unknown experiment {unknown[0]!r}; use one of {', '.join(experiment_plan.NAMES)}")
    for name, value, least in (("--rounds", opts.rounds, 2), ("--steps", opts.steps, 1), ("--warmup", opts.warmup, 1),
                               ("--top", opts.top, 1)):
        if value < least:
            raise UserError(f"{name} must be at least {least}, not {value}")


def spec(manifest: dict, exp: experiment_plan.Experiment, opts: TryOptions) -> dict:
    """What the worker builds and runs: the run's target, FLUX options and compile options as profiled."""
    settings = manifest.get("settings") or {}
    if not settings.get("target") or "compile" not in settings:
        raise UserError("the run's manifest.json lacks settings.target or settings.compile (a run recorded by an "
                        "older version): profile it again to try its advice")
    return {"target": settings["target"], "flux": settings.get("flux") or {}, "compile": settings["compile"],
            "experiment": {"name": exp.name, "mode": exp.mode, "options": exp.options, "attention": exp.attention},
            "warmup": opts.warmup, "rounds": opts.rounds, "steps": opts.steps, "profile_steps": opts.profile_steps}


def merged(old: dict | None, new: list[dict]) -> list[dict]:
    """Earlier experiments of the run kept, those tried again replaced."""
    names = {e["name"] for e in new}
    return [e for e in (old or {}).get("experiments", []) if e.get("name") not in names] + new


def predicted_ms(answers: list[str], advice: list[dict]) -> float | None:
    """The saving the advice promised for the items an experiment answers: the sum of their headroom (None: it
    answers none)."""
    got = [i["headroom_ms_per_step"] for i in advice if i["what"] in answers]
    return float(sum(got)) if got else None


def record_of(exp: dict, raw: dict | None, why: str, advice: list[dict], seconds: float, log: str) -> dict:
    """An experiment's record: what it is (experiment_plan.Experiment.record), its judged result, its time."""
    return {**exp, **experiment_stats.judge(raw, why, predicted_ms(exp["answers"], advice)), "seconds": seconds,
            "log": log}


def then(manifest: dict, run: rundir.RunDir, name: str, profile_flag: str) -> dict:
    """{"then": the `profile` of the run with the change applied, and its diff against this run}, or {}."""
    applied = experiment_plan.applied_command(manifest.get("command") or [], profile_flag, f"{run.root}-{name}")
    return {"then": [" ".join(applied), f"inductor-prof diff {run.root} {run.root}-{name}"]} if applied else {}


def try_advice(run: rundir.RunDir, advice: list[dict], opts: TryOptions, log: Callable[[str], None]) -> dict:
    """Runs the planned experiments; returns experiments.json's document (also written)."""
    manifest = runfiles.manifest(run, "`try` needs the run's settings")
    mode = (manifest.get("settings") or {}).get("compile", {}).get("mode", "default")
    planned = experiment_plan.plan(advice, mode, opts.experiments, opts.top)
    skipped = experiment_plan.not_planned(opts.experiments, planned, mode)
    if not planned:
        if skipped:
            raise UserError("; ".join(f"--experiment {n}: {why}" for n, why in skipped.items()))
        raise UserError(f"none of the top {opts.top} advice items of {run.root} has an experiment; name one with "
                        f"--experiment ({', '.join(experiment_plan.NAMES)})")
    old = runfiles.earlier_experiments(run)
    done: list[dict] = []
    for name, why in skipped.items():   # asked for and not run: said in the record, not dropped
        log(f"{name}: {NOT_RUN} ({why})")
        done.append({"name": name, "status": NOT_RUN, "reason": why, "answers": [], "advice_verdict": None})
    doc = {"advice": advice[:opts.top], "rounds": opts.rounds, "steps": opts.steps, "experiments": merged(old, done)}
    for exp in planned:
        folder = run.experiment_dir(exp.name)
        spec_path, log_path = folder / "spec.json", folder / "worker.log"
        rundir.write_json(spec_path, spec(manifest, exp, opts))
        log(f"{exp.name}: {exp.what}")
        t0 = time.monotonic()
        raw, why = run_experiment(spec_path, log_path, run.experiments_cache, opts.timeout)
        record = record_of(exp.record(), raw, why, advice, round(time.monotonic() - t0, 1),
                           str(log_path.relative_to(run.root)))
        record.update(then(manifest, run, exp.name, exp.profile_flag))
        rundir.write_json(folder / "result.json", record)
        log(f"{exp.name}: {record['status']}" + (f" ({record['reason']})" if record["reason"] else ""))
        done.append(record)
        doc["experiments"] = merged(old, done)
        rundir.write_json(run.experiments_json, doc)   # after each: an interrupted `try` keeps those it finished
    return doc
