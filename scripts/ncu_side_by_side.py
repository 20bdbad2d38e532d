"""Does the source pass beside the metric pass change what the metric pass measures? On copies of one run
(its ncu results left out), the metric pass and the source pass run one after the other, then side by side (as
`profile --ncu` runs them), twice each, alternating; printed: each order's walls, and per kernel its duration
side by side over alone, beside the two alone runs' own ratio (run-to-run noise). Not a timed test.

usage: python scripts/ncu_side_by_side.py RUN WORKDIR     (RUN: a profile with --ncu, on this GPU)
"""
from __future__ import annotations

import shutil
import sys
import threading
import time
from pathlib import Path

import pandas as pd

from inductor_prof import rundir
from inductor_prof.pipeline import ncu as ncu_stage, ncu_source
from inductor_prof.settings import resolve

ORDERS = ("alone1", "side1", "alone2", "side2")


def fresh(src: Path, work: Path, name: str, stems: list[str], settings):
    """A copy of the run without its ncu folder; the source pass's replays of `stems` there."""
    folder = work / name
    shutil.rmtree(folder, ignore_errors=True)
    shutil.copytree(src, folder, symlinks=True, ignore=shutil.ignore_patterns("ncu"))
    run = rundir.RunDir(folder)
    have = {t.stem: t for ts in ncu_source.replays(run, settings, profiled_only=False).values() for t in ts}
    return run, [have[s] for s in stems]


def main(argv: list[str]) -> int:
    src, work = Path(argv[1]), Path(argv[2])
    settings = resolve()[0]
    stems = [t.stem for t in ncu_source.automatic(rundir.RunDir(src), settings)]
    durations = {}
    for name in ORDERS:
        run, chosen = fresh(src, work, name, stems, settings)
        walls: dict[str, float] = {}

        def metric():
            t = time.monotonic()
            ncu_stage.run_ncu(run, settings, log=lambda line: None)
            walls["metric"] = time.monotonic() - t

        def source():
            t = time.monotonic()
            ncu_source.collect(run, settings, chosen, log=print)
            walls["source"] = time.monotonic() - t
        t0 = time.monotonic()
        if name.startswith("side"):
            threads = [threading.Thread(target=metric), threading.Thread(target=source)]
            for th in threads:
                th.start()
            for th in threads:
                th.join()
        else:
            metric()
            source()
        print(f"{name}: {time.monotonic() - t0:.1f} s (metric pass {walls['metric']:.1f} s, source pass "
              f"{walls['source']:.1f} s)", flush=True)
        durations[name] = pd.read_csv(run.ncu_csv).set_index("stem")["duration_ns"]
    d = pd.DataFrame(durations)
    alone = (d["alone1"] + d["alone2"]) / 2
    table = pd.DataFrame({"us alone": (alone / 1e3).round(1), "alone2/alone1": (d["alone2"] / d["alone1"]).round(3),
                          "side1/alone": (d["side1"] / alone).round(3), "side2/alone": (d["side2"] / alone).round(3)})
    print(table.sort_values("us alone", ascending=False).to_string(max_colwidth=40))
    big = alone > 20e3
    for col in ("alone2/alone1", "side1/alone", "side2/alone"):
        r = table.loc[big, col]
        print(f"{col}: {r.min():.3f}-{r.max():.3f} over the {int(big.sum())} kernels above 20 us")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
