"""Which experiment of `inductor-prof try` a diff's other run applies (pure): `try` records, for an experiment
with a `profile` option, the profile that applies it and its diff against the run (the record's `then`). A diff
of the two says the change and what `try` measured of it, read from the original run's experiments.json.

A run is taken as an experiment's when its folder is the one the experiment's `then` profiles into, or when the
settings the two runs differ in are exactly the experiment's (its compile mode: the only `profile` option an
experiment has); either run may be the original (diff A B or diff B A)."""
from __future__ import annotations

import shlex
from pathlib import Path
from typing import Any

MODE = "compile.mode"


def out_folder(then: list[str] | None) -> str | None:
    """The run folder an experiment's profile command writes (its --out), or None."""
    if not then:
        return None
    try:
        args = shlex.split(then[0])
    except ValueError:
        return None
    for i, a in enumerate(args):
        if a in ("--out", "-o") and i + 1 < len(args):
            return args[i + 1]
        if a.startswith("--out="):
            return a.split("=", 1)[1]
    return None


def _same_folder(a: str, b: str) -> bool:
    return Path(a).expanduser().resolve() == Path(b).expanduser().resolve()


def _changed_settings(changes: list[str]) -> set[str]:
    """The setting keys of diff.setting_changes' lines ("compile.mode: default -> reduce-overhead"), versions
    (env.*) left out: a rerun on the same machine keeps them."""
    keys = {c.split(":", 1)[0] for c in changes}
    return {k for k in keys if not k.startswith("env.")}


def _match(original: dict[str, Any] | None, other_root: str, other_mode: str | None,
           changed: set[str]) -> tuple[dict[str, Any], str] | None:
    for e in (original or {}).get("experiments", []):
        out = out_folder(e.get("then"))
        if out is not None and _same_folder(out, other_root):
            return e, "the folder its `then` profiles into"
    for e in (original or {}).get("experiments", []):
        if e.get("profile_flag") and e.get("mode") and changed == {MODE} and other_mode == e["mode"]:
            return e, f"the one setting the runs differ in ({MODE}: {other_mode})"
    return None


def applied(root_a: str, manifest_a: dict[str, Any], experiments_a: dict[str, Any] | None,
            root_b: str, manifest_b: dict[str, Any], experiments_b: dict[str, Any] | None,
            changes: list[str]) -> dict[str, Any] | None:
    """{"run": "B" (or "A"), "of": the other, "matched_by": how, "experiment": its record} where one run applies
    an experiment of the other's; None otherwise. `changes`: diff.setting_changes of the two manifests."""
    changed = _changed_settings(changes)

    def mode(m: dict[str, Any]) -> str | None:
        return ((m.get("settings") or {}).get("compile") or {}).get("mode")

    for label, other, original, root, m in (("B", "A", experiments_a, root_b, manifest_b),
                                            ("A", "B", experiments_b, root_a, manifest_a)):
        found = _match(original, root, mode(m), changed)
        if found:
            return {"run": label, "of": other, "matched_by": found[1], "experiment": found[0]}
    return None
