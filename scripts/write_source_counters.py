"""Write again the counters files (`ncu/source/<stem>.counters.json`) that `inspect` and the HTML report read
instead of the source reports, from the reports themselves, with the ncu-report this Python has (the ncu extra).

    python3 scripts/write_source_counters.py            # the shipped run and the test fixtures (below)
    python3 scripts/write_source_counters.py RUN...     # these run folders

The shipped ones: examples/runs/flux-h100 (its source reports predate the files; one report per kernel), and the
recorded source reports of tests/data/ncu_source/ (NAME.ncu-rep.gz -> NAME.counters.json.gz, gzip without a
timestamp, so the same report writes the same bytes; without "report" and "index", as files written before batch
reports were). A run's files are what the source pass writes per kernel (pipeline/ncu_source.py): its result in
the report status.json names, a report several kernels share read once. The .ncu-rep files are kept. Prints one
line per counters file; exit 1 when one could not be written."""
from __future__ import annotations

import gzip
import json
import sys
import tempfile
from pathlib import Path

from inductor_prof.pipeline.ncu_source import read_counters, write_run_counters
from inductor_prof.rundir import RunDir

REPO = Path(__file__).resolve().parent.parent
SHIPPED_RUNS = [REPO / "examples" / "runs" / "flux-h100"]
FIXTURES = REPO / "tests" / "data" / "ncu_source"


def fixture_counters(packed: Path) -> str:
    """NAME.ncu-rep.gz -> NAME.counters.json.gz beside it; why not ("" when written)."""
    data = gzip.decompress(packed.read_bytes())
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / packed.name.removesuffix(".gz")
        report.write_bytes(data)
        counters, why = read_counters(report)
    if not why:   # no "report" nor "index": unpacked under the kernel's name (tests/recorded.py), result 0
        text = json.dumps({"report_bytes": len(data), "counters": counters}, indent=1) + "\n"
        out = packed.with_name(packed.name.removesuffix(".ncu-rep.gz") + ".counters.json.gz")
        out.write_bytes(gzip.compress(text.encode(), mtime=0))
    return why


def main(argv: list[str]) -> int:
    runs = [Path(a) for a in argv] or SHIPPED_RUNS
    results = {}
    for run in runs:
        results.update({str(RunDir(run).ncu_source_counters(stem)): why
                        for stem, why in write_run_counters(RunDir(run)).items()})
    if not argv:
        results.update({str(p): fixture_counters(p) for p in sorted(FIXTURES.glob("*.ncu-rep.gz"))})
    for path, why in results.items():
        print(f"{path}: {why or 'written'}")
    return 1 if any(results.values()) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
