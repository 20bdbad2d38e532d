"""Compare two `inductor-prof report RUN --json` documents number by number.

    python3 scripts/compare_json.py OLD.json NEW.json [--rel 1e-9] [--fields]
    python3 scripts/compare_json.py --dirs OLD_DIR NEW_DIR [--rel 1e-9]     # every NAME.json in both

Rows of a list are paired by their identity, not their position: a kernel by its name (and size), an attention
row by backend and shape, an advice item by what it names, a per-size row by size. Prints each value that changed
beyond the relative tolerance (numbers) or at all (strings, booleans, null), and each field only one side has. With
--dirs (or --fields) it prints a summary instead: per field, with the kernel or row names replaced by '*', how many
runs and values changed and one example old -> new. Used to check a refactor against an older commit's report
(issue 30: run each tree's own `python -m inductor_prof report` on the same run folders, then compare)."""
from __future__ import annotations

import argparse
import json
import math
import sys
from collections import defaultdict
from pathlib import Path

# the fields that identify a row of a list of dicts, tried in order
ROW_KEYS = (("name", "size"), ("name",), ("backend", "shape"), ("what",), ("size",), ("category",), ("kernel",))


def _row_key(row: dict) -> tuple | None:
    for keys in ROW_KEYS:
        if all(k in row for k in keys):
            return tuple(str(row[k]) for k in keys)
    return None


def flatten(doc, path: tuple = ()) -> dict[tuple, object]:
    """{path: leaf value}; a path step is a dict key, a row's identity ('[name]') or a list index ('#i')."""
    out: dict[tuple, object] = {}
    if isinstance(doc, dict):
        for k, v in doc.items():
            out.update(flatten(v, path + (str(k),)))
    elif isinstance(doc, list) and doc and all(isinstance(r, dict) for r in doc):
        seen: dict[tuple, int] = defaultdict(int)
        for i, row in enumerate(doc):
            key = _row_key(row)
            if key is None:
                step = f"#{i}"
            else:
                seen[key] += 1     # a repeated identity keeps its rank among its namesakes
                step = "[" + ",".join(key) + (f"]#{seen[key]}" if seen[key] > 1 else "]")
            out.update(flatten(row, path + (step,)))
    elif isinstance(doc, list):
        out[path] = json.dumps(doc, sort_keys=True)
    else:
        out[path] = doc
    return out


def _differs(a, b, rel: float) -> bool:
    num = (int, float)
    if isinstance(a, num) and isinstance(b, num) and not isinstance(a, bool) and not isinstance(b, bool):
        if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
            return False
        if a == b:
            return False
        scale = max(abs(a), abs(b))
        return not math.isfinite(scale) or abs(a - b) > rel * scale
    return a != b


def compare(old: dict, new: dict, rel: float = 1e-9) -> list[tuple[tuple, object, object]]:
    """(path, old, new) for each leaf that changed; a leaf one side lacks has the other side '<absent>'."""
    a, b = flatten(old), flatten(new)
    absent = "<absent>"
    out = []
    for path in sorted(set(a) | set(b), key=lambda p: tuple(map(str, p))):
        va, vb = a.get(path, absent), b.get(path, absent)
        if va is absent or vb is absent or _differs(va, vb, rel):
            out.append((path, va, vb))
    return out


def field_of(path: tuple) -> str:
    """The path with row identities and list positions as '*': one field across kernels, rows and runs."""
    return ".".join("*" if p.startswith(("[", "#")) else p for p in path)


def _short(v) -> str:
    if isinstance(v, float):
        return f"{v:.6g}"
    s = str(v)
    return s if len(s) <= 40 else s[:37] + "..."


def summary(changes_by_run: dict[str, list]) -> list[tuple[str, int, int, str]]:
    """(field, runs affected, values changed, an example 'old -> new (row)') per field, most values first."""
    runs: dict[str, set] = defaultdict(set)
    count: dict[str, int] = defaultdict(int)
    example: dict[str, str] = {}
    for run, changes in changes_by_run.items():
        for path, va, vb in changes:
            f = field_of(path)
            runs[f].add(run)
            count[f] += 1
            rows = [p for p in path if p.startswith("[")]
            example.setdefault(f, f"{_short(va)} -> {_short(vb)}" + (f"  ({run} {rows[0]})" if rows else f"  ({run})"))
    return sorted(((f, len(runs[f]), count[f], example[f]) for f in runs), key=lambda r: (-r[1], -r[2], r[0]))


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--dirs", action="store_true", help="OLD and NEW are folders of NAME.json")
    ap.add_argument("--rel", type=float, default=1e-9)
    ap.add_argument("--fields", action="store_true", help="a summary per field instead of every change")
    args = ap.parse_args(argv)
    if args.dirs:
        names = sorted(p.name for p in Path(args.old).glob("*.json") if (Path(args.new) / p.name).exists())
        pairs = {n[:-5]: (Path(args.old) / n, Path(args.new) / n) for n in names}
    else:
        pairs = {Path(args.new).stem: (Path(args.old), Path(args.new))}
    changes = {run: compare(json.loads(o.read_text()), json.loads(n.read_text()), args.rel)
               for run, (o, n) in pairs.items()}
    if args.dirs or args.fields:
        print(f"{'field':60s} {'runs':>4s} {'values':>6s}  example old -> new")
        for f, n_runs, n, ex in summary(changes):
            print(f"{f:60s} {n_runs:4d} {n:6d}  {ex}")
    else:
        for path, va, vb in next(iter(changes.values())):
            print(f"{'.'.join(path)}: {_short(va)} -> {_short(vb)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
