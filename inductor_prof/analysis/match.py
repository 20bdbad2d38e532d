"""Kernels of two runs paired up (pure: records and texts in, a DataFrame out).

Inductor renumbers kernels between compiles (`triton_poi_fused_gelu_view_12` in one run is `_10` in the
next, and `_12` may then be another kernel), so a name alone can pair the wrong kernels. An Inductor kernel's
fingerprint is what it computes on what: its kind, its fused ATen ops, and the arguments its `get_args()`
launches it with (parameter names, tensor shapes and dtypes, sizes). Pairing, in order, each tier over the
kernels left unpaired by the ones before:
  1. "name": same name and same fingerprint (or no fingerprint on either side: library kernels, a run with
     no kernels.json);
  2. "kind+ops+shapes": same fingerprint, another name (renumbered); among several candidates the one with
     the same code (the source with its own name blanked), then the same launch config, then the same name
     stem wins;
  3. "name (shapes differ)": same name, another fingerprint (e.g. another resolution);
  4. "kind+ops": same kind, fused ATen ops and name stem, when exactly one such kernel is left on each side.
What is left is removed (only in run A) or new (only in run B).
"""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from typing import Any

import pandas as pd

from ..inductor.kernel_files import launch_args

_NUMBER_SUFFIX = re.compile(r"_\d+$")
MATCH_COLUMNS = ["name_a", "name_b", "matched_by"]


@dataclass(frozen=True)
class Fingerprint:
    """What identifies an Inductor kernel across compiles; `code` and `config` only break ties."""
    key: frozenset[Any]          # (kind, fused ATen ops, launch arguments) of each kernel sharing the name
    code: frozenset[Any]         # hash of the source with the kernel's own name blanked
    config: frozenset[Any]       # chosen launch config (block sizes, warps, stages)
    stem: str               # the name without its number
    kind: str
    aten_ops: tuple[Any, ...]


def stem(name: str) -> str:
    return _NUMBER_SUFFIX.sub("", name)


def _record_parts(record: dict[str, Any], text: str | None) -> tuple[Any, ...]:
    args = launch_args(text) if text else None
    shapes = tuple((p, t if t is not None else v) for p, v, t in args) if args else ()
    key = (record.get("kind"), tuple(sorted(record.get("aten_ops", []))), shapes)
    code = hashlib.sha1(text.replace(record["name"], "KERNEL").encode()).hexdigest() if text else ""
    config = tuple(sorted((k, v) for k, v in (record.get("launch_config") or {}).items()
                          if k not in ("n_regs", "n_spills", "shared", "candidate_configs")))
    return key, code, config


def fingerprints(records: list[dict[str, Any]], texts: dict[str, str]) -> dict[str, Fingerprint]:
    """Per kernel name, from kernels.json records and their file texts (by file name). A name Inductor gave
    to several kernels (kernels.json `name_shared_by`) gets the set of their parts."""
    by_name: dict[str, list[tuple[Any, ...]]] = {}
    for rec in records:
        by_name.setdefault(rec["name"], []).append((rec, _record_parts(rec, texts.get(rec.get("file", "")))))
    out = {}
    for name, items in by_name.items():
        rec = items[0][0]
        out[name] = Fingerprint(key=frozenset(p[0] for _, p in items), code=frozenset(p[1] for _, p in items),
                                config=frozenset(p[2] for _, p in items), stem=stem(name),
                                kind=str(rec.get("kind")), aten_ops=tuple(sorted(rec.get("aten_ops", []))))
    return out


def _tie_rank(fa: Fingerprint, fb: Fingerprint) -> tuple[Any, ...]:
    return (fa.code != fb.code, fa.config != fb.config, fa.stem != fb.stem)


def match_kernels(names_a: list[str], names_b: list[str], fp_a: dict[str, Fingerprint] | None,
                  fp_b: dict[str, Fingerprint] | None) -> pd.DataFrame:
    """Rows name_a, name_b, matched_by: a pair, or name_b None (removed) or name_a None (new)."""
    fp_a, fp_b = fp_a or {}, fp_b or {}
    left_a, left_b = list(dict.fromkeys(names_a)), list(dict.fromkeys(names_b))
    pairs: list[tuple[str | None, str | None, str]] = []

    def take(a: str, b: str, how: str) -> None:
        pairs.append((a, b, how))
        left_a.remove(a)
        left_b.remove(b)

    # 1. same name, and the same kernel where both sides know what it is
    for a in [a for a in left_a if a in left_b]:
        if a not in fp_a or a not in fp_b or fp_a[a].key == fp_b[a].key:
            take(a, a, "name")
    # 2. same fingerprint under another name; ties go to the closest code/config/stem, then name order
    for a in sorted(a for a in left_a if a in fp_a):
        cands = sorted((_tie_rank(fp_a[a], fp_b[b]), b) for b in left_b if b in fp_b and fp_b[b].key == fp_a[a].key)
        if cands:
            take(a, cands[0][1], "kind+ops+shapes")
    # 3. same name, shapes (or ops) changed
    for a in [a for a in left_a if a in left_b]:
        take(a, a, "name (shapes differ)")
    # 4. one kernel of the same kind, ops and stem left on each side
    def group(fp: dict[str, Fingerprint], names: list[str]) -> dict[tuple[Any, ...], list[str]]:
        out: dict[tuple[Any, ...], list[str]] = {}
        for n in names:
            if n in fp:
                out.setdefault((fp[n].kind, fp[n].aten_ops, fp[n].stem), []).append(n)
        return out
    groups_b = group(fp_b, left_b)
    for g, members in group(fp_a, left_a).items():
        if len(members) == 1 and len(groups_b.get(g, [])) == 1:
            take(members[0], groups_b[g][0], "kind+ops")
    pairs += [(a, None, "") for a in left_a] + [(None, b, "") for b in left_b]
    return pd.DataFrame(pairs, columns=MATCH_COLUMNS, dtype=object)   # None stays None (pandas 3 would NaN it)
