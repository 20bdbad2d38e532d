"""A run's experiments judged again from what their processes printed (each worker.log's `experiment:` line),
with the current judging code: for experiments.json written before a change to the judging (the advice verdict's
rule, a new field). The timings, outputs and kernels are the recorded ones; nothing is measured.
`--device NAME`: the GPU to record for results printed before the worker said it (the device session's own
output names it).

    python scripts/rejudge_experiments.py examples/runs/unet-h200 --device "NVIDIA H200"
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from inductor_prof import rundir  # noqa: E402
from inductor_prof.analysis.experiment_plan import Experiment  # noqa: E402
from inductor_prof.experiments.run import record_of, then  # noqa: E402
from inductor_prof.experiments.worker import RESULT  # noqa: E402

KEEP = [f for f in Experiment.__dataclass_fields__]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run")
    parser.add_argument("--device", default=None)
    args = parser.parse_args()
    run = rundir.open_run(args.run)
    doc = json.loads(run.experiments_json.read_text())
    manifest = json.loads(run.manifest_path.read_text())
    out = []
    for old in doc["experiments"]:
        log = run.root / old["log"]
        lines = [ln for ln in log.read_text(errors="replace").splitlines() if ln.startswith(RESULT)]
        raw = json.loads(lines[-1][len(RESULT):]) if lines else None
        if raw is not None and args.device and "device" not in raw:
            raw["device"] = args.device
        rec = record_of({k: old[k] for k in KEEP}, raw, old.get("reason", ""), doc["advice"], old["seconds"],
                        old["log"])
        rec.update(then(manifest, run, old["name"], old.get("profile_flag", "")))
        rundir.write_json(run.experiment_dir(old["name"]) / "result.json", rec)
        out.append(rec)
        print(old["name"], rec["status"], rec.get("advice_verdict"))
    rundir.write_json(run.experiments_json, {**doc, "experiments": out})
    return 0


if __name__ == "__main__":
    sys.exit(main())
