"""Time of `inductor-prof report` on a SYNTHETIC large run against the recorded example it is built from.

The synthetic run is NOT a profile: it is examples/runs/flux-h100 copied to a temporary folder with every
kernel repeated under new names, to see how `report` scales with the size of a run. Each of the example's
kernel frames in the Proton hatchets (steps and annotated step) gets COPIES renamed copies beside it with the
same metrics, so kernels and hatchet kernel frames both grow COPIES+1 times (default 35: 57 -> 2,052 kernel
names, 6,990 -> 251,640 kernel frames in steps.hatchet). Renamed copies stay matched like the originals:
Inductor kernels get kernels.json records and copied kernel files, mangled library kernels a clone suffix
(`.copyN`, which demangles to `... [clone .copyN]`) and copies of their library_ops.csv rows.

It is reported twice: as an older run (hatchets only: `report` walks them), then with the launches tables a
profile now writes after each Proton session (written here by the same function, launches.write; with
--baseline, the baseline's tables by its own launches.write, in a copy of the synthetic run: a table format it
does not know would send it to the hatchet).

Each report is `python -m inductor_prof report RUN --json --top 0` in a fresh process (imports included, as a
user runs it); the median of --repeat runs is printed, wall time and the process's CPU time (user + system,
which other load on a shared machine disturbs less), and the ratio to the example.

--baseline REF also times the code of a git commit (its inductor_prof, from `git archive`) on the same folders,
side by side: each repetition runs every (code, folder) report once, in turn, so a change of load on a shared
machine falls on both; then each line says after/before and each code its synthetic/example ratio. A second table
pairs the reports of each repetition (synthetic over example, this tree over the baseline) and prints the median
CPU ratio with its spread over the repetitions: on a loaded machine the load moves both reports of a pair alike,
where the medians of the first table come from different moments.

--recorded records every file of both folders in their manifests (a copy of the example), as a profile does
today: then each report also checks each file it reads against its record (size and SHA-256), the 164 MB
steps.hatchet included, which the shipped example, recorded before records, does not show.

usage: python scripts/bench_report.py [--copies 35] [--repeat 5] [--keep DIR] [--baseline REF] [--recorded]
"""
from __future__ import annotations

import argparse
import copy
import csv
import json
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
EXAMPLE = REPO / "examples" / "runs" / "flux-h100"
sys.path.insert(0, str(REPO))

from inductor_prof.names import demangle  # noqa: E402
from inductor_prof.rundir import FILES, RunDir, file_record  # noqa: E402


def renamed(name: str, i: int) -> str:
    # a clone suffix keeps a mangled name demangleable; other names get a plain suffix
    return f"{name}.copy{i}" if name.startswith("_Z") else f"{name}_copy{i}"


def leaf_names(node: dict) -> set[str]:
    kids = node.get("children") or []
    return set().union(*map(leaf_names, kids)) if kids else {node["frame"]["name"]}


def rename_tree(node: dict, names: set[str], i: int) -> dict:
    out = copy.deepcopy(node)
    stack = [out]
    while stack:
        n = stack.pop()
        if n["frame"]["name"] in names:
            n["frame"]["name"] = renamed(n["frame"]["name"], i)
        stack.extend(n.get("children") or [])
    return out


def multiply_hatchet(path: Path, copies: int) -> tuple[set[str], int, int]:
    """Adds `copies` renamed copies beside every kernel subtree (a kernel frame, or an op frame named like its
    kernel); returns (original kernel names, kernel frames, launches) of the written file."""
    data = json.loads(path.read_text())
    root = data[0]
    names = leaf_names(root)
    stack = [root]
    while stack:
        scope = stack.pop()
        kids = scope.get("children") or []
        kernels = [k for k in kids if k["frame"]["name"] in names]
        stack.extend(k for k in kids if k["frame"]["name"] not in names)
        scope["children"] = kids + [rename_tree(k, names, i) for i in range(1, copies + 1) for k in kernels]
    frames = launches = 0
    stack = [root]
    while stack:
        n = stack.pop()
        if not n.get("children"):
            frames += 1
            launches += int(n["metrics"].get("count", 0) or 0)
        stack.extend(n.get("children") or [])
    path.write_text(json.dumps(data, indent=4, sort_keys=True))   # Proton's own layout
    return names, frames, launches


def multiply_kernels_json(run: RunDir, copies: int) -> None:
    records = json.loads(run.kernels_json.read_text())
    out = list(records)
    for i in range(1, copies + 1):
        for rec in records:
            new = dict(rec, name=renamed(rec["name"], i))
            for key in ("file", "annotated_file"):
                if rec.get(key):
                    new[key] = rec[key].replace(rec["name"], new["name"], 1)
                    shutil.copyfile(run.kernel_file(rec[key]), run.kernel_file(new[key]))
            out.append(new)
    run.kernels_json.write_text(json.dumps(out, indent=1))


def multiply_library_ops(run: RunDir, names: set[str], copies: int) -> None:
    with run.library_ops_csv.open(newline="") as f:
        reader = csv.DictReader(f)
        fields, rows = reader.fieldnames, list(reader)
    by_kernel: dict[str, list[dict]] = {}
    for row in rows:
        by_kernel.setdefault(row["kernel"], []).append(row)
    for name in sorted(names):
        for i in range(1, copies + 1):
            rows += [dict(r, kernel=demangle(renamed(name, i))) for r in by_kernel.get(demangle(name), [])]
    with run.library_ops_csv.open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=fields)
        writer.writeheader()
        writer.writerows(rows)


def build_synthetic(dst: Path, copies: int) -> dict:
    shutil.copytree(EXAMPLE, dst)
    run = RunDir(dst)
    names, frames, launches = multiply_hatchet(run.steps_hatchet, copies)
    multiply_hatchet(run.annotated_hatchet, copies)
    multiply_kernels_json(run, copies)
    multiply_library_ops(run, names, copies)
    return {"kernels": len(names) * (copies + 1), "frames": frames, "launches": launches,
            "mb": run.steps_hatchet.stat().st_size / 1e6}


def record_files(run: Path) -> None:
    """Records every file of `run` in its manifest (`files`: size, lines, SHA-256), as a profile now does, so that
    `report` checks each one it reads against its record (runfiles/integrity.py), as it does a run recorded today."""
    manifest = json.loads((run / "manifest.json").read_text())
    manifest[FILES] = {p.relative_to(run).as_posix(): file_record(p) for p in sorted(run.rglob("*"))
                       if p.is_file() and p.name != "manifest.json"}
    (run / "manifest.json").write_text(json.dumps(manifest, indent=1))


def report_cmd(run: Path, code: Path) -> tuple[list[str], dict]:
    cmd = [sys.executable, "-m", "inductor_prof", "report", str(run), "--json", "--top", "0"]
    return cmd, {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(code), "HOME": str(Path.home())}


def one_report(run: Path, code: Path) -> tuple[float, float]:
    """(wall s, CPU s) of one report of `run` by the inductor_prof under `code`, in a fresh process."""
    cmd, env = report_cmd(run, code)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    # cwd: the code's own folder (`python -m` puts the working folder first on sys.path, before PYTHONPATH)
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, timeout=600,
                   cwd=code)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def timed(jobs: list[tuple[Path, Path]], repeat: int) -> list[list[tuple[float, float]]]:
    """(wall s, CPU s) of each of `repeat` reports of each (run, code) job, the jobs taking turns each
    repetition (so the reports of one repetition ran side by side, under the same load)."""
    times: list[list[tuple[float, float]]] = [[] for _ in jobs]
    for _ in range(repeat):
        for i, (run, code) in enumerate(jobs):
            times[i].append(one_report(run, code))
    return times


def medians(times: list[list[tuple[float, float]]]) -> list[tuple[float, float]]:
    """Median (wall s, CPU s) of each job's reports."""
    return [(statistics.median(w for w, _ in t), statistics.median(c for _, c in t)) for t in times]


def paired_cpu(over: list[tuple[float, float]], under: list[tuple[float, float]]) -> str:
    """CPU of `over` / CPU of `under`, a ratio per repetition (the two reports ran one after the other, so a
    change of load on a shared machine falls on both): median [lowest - highest] of them."""
    ratios = sorted(o[1] / u[1] for o, u in zip(over, under))
    return f"{statistics.median(ratios):.2f} [{ratios[0]:.2f}-{ratios[-1]:.2f}]"


def write_tables(run: Path, code: Path) -> None:
    """The launches tables of `run`'s hatchets, written by the inductor_prof under `code` (launches.write)."""
    script = ("import sys; from pathlib import Path; from inductor_prof.rundir import RunDir; "
              "from inductor_prof.drivers.proton import launches; r = RunDir(Path(sys.argv[1])); "
              "launches.write(r.steps_hatchet, r.steps_launches); "
              "launches.write(r.annotated_hatchet, r.annotated_launches)")
    subprocess.run([sys.executable, "-c", script, str(run)], check=True, env=report_cmd(run, code)[1], cwd=code,
                   timeout=600)


def checkout(ref: str, dst: Path) -> Path:
    """The inductor_prof package of git commit `ref`, written under dst (a folder for PYTHONPATH)."""
    archive = subprocess.run(["git", "-C", str(REPO), "archive", ref, "inductor_prof"], check=True,
                             capture_output=True).stdout
    dst.mkdir(parents=True)
    subprocess.run(["tar", "-x", "-C", str(dst)], input=archive, check=True)
    return dst


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--copies", type=int, default=35, help="renamed copies of each kernel (default 35)")
    ap.add_argument("--repeat", type=int, default=5, help="report runs per folder (median shown)")
    ap.add_argument("--keep", type=Path, help="build the synthetic run here and keep it")
    ap.add_argument("--baseline", metavar="REF", help="also time this git commit's code, side by side")
    ap.add_argument("--recorded", action="store_true", help="record every file of the example (a copy) and of the "
                    "synthetic run in their manifests, as a profile does today: each report checks what it reads")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench_report_") as tmp:
        codes = [("this tree", REPO)]
        if a.baseline:
            sha = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", a.baseline], check=True,
                                 capture_output=True, text=True).stdout.strip()
            codes.insert(0, (f"{a.baseline} ({sha})", checkout(a.baseline, Path(tmp) / "baseline")))
        dst = a.keep or Path(tmp) / "synthetic-run"
        facts = build_synthetic(dst, a.copies)
        example = EXAMPLE
        if a.recorded:   # the shipped example has no records (recorded before them): a copy with them
            example = Path(shutil.copytree(EXAMPLE, Path(tmp) / "example-recorded"))
            record_files(example)
            record_files(dst)
        print(f"SYNTHETIC run (not a profile): {EXAMPLE.relative_to(REPO)} with every kernel repeated "
              f"{a.copies} more times under new names, at {dst}")
        print(f"  {facts['kernels']:,} kernel names, {facts['frames']:,} kernel frames, {facts['launches']:,} "
              f"launches in steps.hatchet ({facts['mb']:.0f} MB)")
        # rows[label][code] = (wall, cpu); the example is timed in both phases, beside each synthetic state
        rows: dict[str, list[tuple[float, float]]] = {}
        raw: dict[str, list[list[tuple[float, float]]]] = {}   # each report's times, as rows (per code)
        got = timed([(run, code) for _, code in codes for run in (example, dst)], a.repeat)
        raw["example (recorded)"], raw["synthetic, hatchets only"] = got[0::2], got[1::2]
        # each code reads tables its own writer wrote (a format it does not know sends it to the hatchet): the
        # baseline's in a copy of the synthetic run
        folders = {}
        for _, code in codes:
            folders[code] = dst if code == REPO else Path(shutil.copytree(dst, Path(tmp) / "synthetic-baseline"))
            write_tables(folders[code], code)
            if a.recorded:   # the tables as the profile records them
                record_files(folders[code])
        got = timed([(run, code) for _, code in codes for run in (example, folders[code])], a.repeat)
        raw["example (again)"], raw["synthetic, launches tables"] = got[0::2], got[1::2]
        rows = {label: medians(per_code) for label, per_code in raw.items()}
    print(f"report --json --top 0, median of {a.repeat}, each a fresh process; wall s / CPU s "
          f"(x example: wall, CPU over the example's beside it)" + (", every file recorded" if a.recorded else ""))
    print(f"  {'':28s}" + "".join(f"{label:>32s}" for label, _ in codes) +
          (f"{'after / before (wall, CPU)':>30s}" if len(codes) > 1 else ""))
    for label, per_code in rows.items():
        rows_of_example = rows["example (again)" if "launches" in label else "example (recorded)"]
        cells = "".join(f"{f'{w:.2f} / {c:.2f}  (x{w / ex[0]:.2f}, {c / ex[1]:.2f})':>32s}"
                        for (w, c), ex in zip(per_code, rows_of_example))
        ratio = (f"{per_code[-1][0] / per_code[0][0]:>22.2f}, {per_code[-1][1] / per_code[0][1]:.2f}"
                 if len(codes) > 1 else "")
        print(f"  {label:28s}{cells}{ratio}")
    print(f"CPU ratios paired per repetition: median [lowest-highest] of the {a.repeat}")
    print(f"  {'':28s}" + "".join(f"{label:>32s}" for label, _ in codes) +
          (f"{'after / before':>30s}" if len(codes) > 1 else ""))
    for label, per_code in raw.items():
        if label.startswith("example"):
            ratio = (f"{paired_cpu(per_code[-1], per_code[0]):>30s}" if len(codes) > 1 else "")
            print(f"  {label:28s}" + "".join(f"{'':>32s}" for _ in codes) + ratio)
            continue
        of_example = raw["example (again)" if "launches" in label else "example (recorded)"]
        cells = "".join(f"{'x ' + paired_cpu(t, ex):>32s}" for t, ex in zip(per_code, of_example))
        ratio = (f"{paired_cpu(per_code[-1], per_code[0]):>30s}" if len(codes) > 1 else "")
        print(f"  {label:28s}{cells}{ratio}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
