"""Pure analysis: run-folder tables in, per-kernel DataFrame and summary out (no torch, no GPU)."""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from .drivers import proton as proton_driver
from .names import demangle, short_name
from .rundir import RunDir, open_run
from .specs import spec_peaks

FLOP_KEYS = ("flops8", "flops16", "flops32", "flops64")
_GEMM_NAME = re.compile(r"gemm|nvjet|cutlass|xmma|sm90_|sm80_|ampere_|cublas", re.I)
_ATTN_NAME = re.compile(r"flash|fmha|sdpa|attention|attn", re.I)
_GEMM_OPS = {"aten::mm", "aten::addmm", "aten::bmm", "aten::baddbmm", "aten::linear", "aten::matmul",
             "aten::_scaled_mm"}
CATEGORIES = ("GEMM", "attention", "Inductor pointwise", "Inductor reduction", "Inductor template", "other")


@dataclass
class RunTables:
    run: RunDir
    manifest: dict
    kernels: pd.DataFrame          # one row per kernel name
    summary: dict[str, Any]
    attention: pd.DataFrame | None


def peaks_for(manifest: dict) -> dict[str, Any]:
    """Peak rates: ceilings measured during the run where there are some, the spec table otherwise."""
    gpu = (manifest.get("env", {}).get("gpu") or {}).get("name", "")
    spec = spec_peaks(gpu) or {}
    measured = manifest.get("ceilings") or {}
    peaks = {k: spec.get(k) for k in ("flops8", "flops16", "flops32", "flops64", "dram_gbps")}
    source = {k: "spec" if spec.get(k) else "none" for k in peaks}
    if measured.get("flops16_tflops"):
        peaks["flops16"], source["flops16"] = measured["flops16_tflops"], "measured"
    if measured.get("dram_gbps"):
        peaks["dram_gbps"], source["dram_gbps"] = measured["dram_gbps"], "measured"
    return {"tflops": {k: peaks[k] for k in FLOP_KEYS}, "dram_gbps": peaks["dram_gbps"], "source": source,
            "gpu": gpu}


def _by_name(df: pd.DataFrame) -> pd.DataFrame:
    cols = ["calls", "time_ns", "bytes", *FLOP_KEYS]
    return df.groupby("name", as_index=True)[cols].sum() if len(df) else pd.DataFrame(columns=cols)


def _library_costs(path: Path) -> pd.DataFrame:
    """Per library kernel and step: flops (by width), bytes, and the ATen op behind it."""
    if not path.exists():
        return pd.DataFrame()
    ops = pd.read_csv(path, keep_default_na=False)
    if ops.empty:
        return pd.DataFrame()
    for key in FLOP_KEYS:
        ops[key] = ops["flops"].where(ops["flops_key"] == key, 0)
    agg = ops.groupby("kernel").agg(lib_calls=("op", "size"), lib_bytes=("bytes", "sum"),
                                    **{f"lib_{k}": (k, "sum") for k in FLOP_KEYS},
                                    op=("op", lambda s: s.mode().iat[0] if len(s) else ""))
    return agg


def classify(name: str, origin: str, kind: str | None, op: str) -> str:
    if origin == "inductor":
        if kind in ("pointwise", "foreach"):
            return "Inductor pointwise"
        if kind in ("reduction", "persistent_reduction"):
            return "Inductor reduction"
        if kind == "flex_attention":
            return "attention"
        if kind == "template_mm":
            return "Inductor template"
        return "other"
    if "scaled_dot_product" in op or "attention" in op:
        return "attention"
    if op in _GEMM_OPS:
        return "GEMM"
    if _ATTN_NAME.search(name):
        return "attention"
    if _GEMM_NAME.search(name):
        return "GEMM"
    return "other"


def kernel_table(run: RunDir, manifest: dict) -> pd.DataFrame:
    steps = proton_driver.parse(run.steps_hatchet)
    n_steps = max(int(manifest.get("profile", {}).get("steps", 1) or 1), 1)
    timed = _by_name(steps)
    annotated = _by_name(proton_driver.parse(run.annotated_hatchet)) if run.annotated_hatchet.exists() \
        else pd.DataFrame()
    harvested = {k["name"]: k for k in json.loads(run.kernels_json.read_text())} if run.kernels_json.exists() else {}
    library = _library_costs(run.library_ops_csv)
    rows = []
    for name, t in timed.iterrows():
        rec = harvested.get(name)
        origin = "inductor" if (rec is not None or name.startswith("triton_")) else "library"
        calls = int(t["calls"])
        flops = {k: 0.0 for k in FLOP_KEYS}
        nbytes = 0.0
        annotated_ok = False
        if origin == "inductor" and name in annotated.index and annotated.at[name, "calls"] > 0:
            a = annotated.loc[name]
            per_call = calls / a["calls"]
            flops = {k: a[k] * per_call for k in FLOP_KEYS}
            nbytes = a["bytes"] * per_call
            annotated_ok = bool(a["bytes"] > 0 or any(a[k] > 0 for k in FLOP_KEYS))
        op = ""
        lib_name = demangle(name)
        if origin == "library" and lib_name in library.index:
            lib = library.loc[lib_name]
            op = lib["op"]
            # the op map covers one step; scale to the timed steps
            flops = {k: lib[f"lib_{k}"] * n_steps for k in FLOP_KEYS}
            nbytes = lib["lib_bytes"] * n_steps
            annotated_ok = nbytes > 0
        kind = rec["kind"] if rec else None
        io = _io_split(run, rec)
        rows.append({
            "name": name, "display": name if origin == "inductor" else short_name(name), "origin": origin, "kind": kind or classify(name, origin, None, op).lower(),
            "category": classify(name, origin, kind, op),
            "aten_ops": ", ".join(rec.get("aten_ops", [])) if rec else op,
            "calls": calls, "calls_per_step": calls / n_steps, "total_ns": float(t["time_ns"]),
            "bytes": nbytes, **flops, "flops": sum(flops.values()), "annotated": annotated_ok,
            "read_bytes_per_call": io["read"] if io else float("nan"),
            "write_bytes_per_call": io["write"] if io else float("nan"),
        })
    df = pd.DataFrame(rows)
    if df.empty:
        return df
    df = add_derived(df, peaks_for(manifest), n_steps)
    return merge_ncu(df, pd.read_csv(run.ncu_csv) if run.ncu_csv.exists() else None)


NCU_COLUMNS = {"duration_ns": "ncu_duration_ns", "dram_bytes": "ncu_dram_bytes",
               "dram_read_bytes": "ncu_dram_read_bytes", "dram_write_bytes": "ncu_dram_write_bytes", "flops": "ncu_flops",
               "sol_compute_pct": "sol_compute_pct", "sol_memory_pct": "sol_memory_pct",
               "occupancy_pct": "occupancy_pct", "registers": "registers", "l2_bytes": "ncu_l2_bytes",
               "l1_bytes": "ncu_l1_bytes", "local_bytes": "ncu_local_bytes", "tensor_pipe_pct": "tensor_pipe_pct",
               "status": "ncu_status", "reason": "ncu_reason"}
ANNOTATION_TOLERANCE = 0.25


def merge_ncu(df: pd.DataFrame, ncu: pd.DataFrame | None) -> pd.DataFrame:
    """ncu columns per kernel; measured over annotated bytes/flops per launch; off by > 25% flagged."""
    df = df.copy()
    if ncu is None or ncu.empty:
        return df
    keep = {k: v for k, v in NCU_COLUMNS.items() if k in ncu.columns}
    ncu = ncu[["name", *keep]].rename(columns=keep).drop_duplicates("name")
    df = df.merge(ncu, on="name", how="left")
    per_call_bytes = df["bytes"] / df["calls"].clip(lower=1)
    per_call_flops = df["flops"] / df["calls"].clip(lower=1)
    if "ncu_dram_bytes" in df:
        df["dram_ratio"] = (df["ncu_dram_bytes"] / per_call_bytes).where(per_call_bytes > 0)
    if "ncu_dram_read_bytes" in df and "read_bytes_per_call" in df:
        # reads are what ncu measures exactly (caches flushed before the replay); writes that stay dirty in
        # the write-back L2 when the kernel ends never reach DRAM inside it, so DRAM writes undercount
        df["dram_read_ratio"] = (df["ncu_dram_read_bytes"] / df["read_bytes_per_call"]).where(
            df["read_bytes_per_call"] > 0)
        df["dram_write_ratio"] = (df["ncu_dram_write_bytes"] / df["write_bytes_per_call"]).where(
            df["write_bytes_per_call"] > 0)
    if "ncu_flops" in df:
        df["flops_ratio"] = (df["ncu_flops"] / per_call_flops).where(
            (per_call_flops > 0) & (df["category"] != "GEMM") & (df["category"] != "attention"))
    # Flags only for Inductor kernels: ncu replays exactly the launch that was annotated. A library kernel
    # name (cuBLAS nvjet_*) serves many shapes, and the one replayed is not the average the step saw.
    inductor = df["origin"] == "inductor"
    bytes_ratio = df["dram_read_ratio"] if "dram_read_ratio" in df else df.get("dram_ratio")
    bytes_off = inductor & ((bytes_ratio - 1).abs() > ANNOTATION_TOLERANCE) if bytes_ratio is not None \
        else pd.Series(False, index=df.index)
    flops_off = inductor & ((df["flops_ratio"] - 1).abs() > ANNOTATION_TOLERANCE) if "flops_ratio" in df \
        else pd.Series(False, index=df.index)
    df["annotation_off"] = bytes_off | flops_off
    df["annotation_off_in"] = [("bytes" if b else "") + ("+" if b and f else "") + ("flops" if f else "")
                               for b, f in zip(bytes_off, flops_off)]
    return df


def add_derived(df: pd.DataFrame, peaks: dict, n_steps: int) -> pd.DataFrame:
    """avg time, share, TFLOP/s, GB/s, arithmetic intensity, roofline bound and % of the bounding peak."""
    df = df.copy()
    seconds = df["total_ns"] * 1e-9
    df["avg_us"] = df["total_ns"] / df["calls"].clip(lower=1) / 1e3
    df["step_ms"] = df["total_ns"] / n_steps / 1e6
    df["pct_of_gpu_time"] = 100 * df["total_ns"] / df["total_ns"].sum()
    df["tflops"] = df["flops"] / seconds / 1e12
    df["gbps"] = df["bytes"] / seconds / 1e9
    df["flops_key"] = df[list(FLOP_KEYS)].idxmax(axis=1).where(df["flops"] > 0, "")
    peak_bw = peaks.get("dram_gbps") or float("nan")
    peak_flops = df["flops_key"].map(lambda k: (peaks["tflops"].get(k) or float("nan")) if k else float("nan"))
    df["intensity"] = (df["flops"] / df["bytes"]).where(df["bytes"] > 0)
    ridge = peak_flops * 1e12 / (peak_bw * 1e9)
    compute_bound = df["intensity"] >= ridge
    df["bound"] = "memory"
    df.loc[compute_bound, "bound"] = "compute"
    df.loc[df["bytes"] <= 0, "bound"] = ""
    pct_mem = 100 * df["gbps"] / peak_bw
    pct_cmp = 100 * df["tflops"] / peak_flops
    df["pct_of_peak"] = pct_mem.where(~compute_bound, pct_cmp).where(df["bytes"] > 0)
    return df.sort_values("total_ns", ascending=False).reset_index(drop=True)


def summarize(df: pd.DataFrame, manifest: dict, peaks: dict) -> dict[str, Any]:
    prof = manifest.get("profile", {})
    n_steps = max(int(prof.get("steps", 1) or 1), 1)
    total_ns = float(df["total_ns"].sum()) if len(df) else 0.0
    by_cat = {}
    for cat in CATEGORIES:
        sub = df[df["category"] == cat] if len(df) else df
        ns = float(sub["total_ns"].sum()) if len(sub) else 0.0
        fl = float(sub["flops"].sum()) if len(sub) else 0.0
        if ns or cat in CATEGORIES[:4]:
            by_cat[cat] = {"step_ms": ns / n_steps / 1e6, "pct": 100 * ns / total_ns if total_ns else 0.0,
                           "tflops": fl / (ns * 1e-9) / 1e12 if ns else 0.0, "kernels": int(len(sub))}
    flops = float(df["flops"].sum()) if len(df) else 0.0
    inductor = df[df["origin"] == "inductor"] if len(df) else df
    return {
        "target": manifest.get("target", {}).get("preset") or manifest.get("settings", {}).get("target"),
        "gpu": peaks.get("gpu"), "steps": n_steps,
        "step_ms_wall": prof.get("proton_step_ms"), "plain_step_ms": prof.get("plain_step_ms"),
        "gpu_kernel_ms_per_step": total_ns / n_steps / 1e6,
        "tflops_per_step": flops / n_steps / 1e12,
        "overall_tflops": flops / (total_ns * 1e-9) / 1e12 if total_ns else 0.0,
        "kernels": int(len(df)), "inductor_kernels": int(len(inductor)),
        "inductor_annotated": int(inductor["annotated"].sum()) if len(inductor) else 0,
        "by_category": by_cat, "peaks": peaks,
    }


def _io_split(run, rec: dict | None) -> dict | None:
    """Per-launch read/write bytes of a harvested Inductor kernel, from its file (see annotate.io_bytes)."""
    if not rec or not rec.get("file"):
        return None
    path = run.kernels_dir / rec["file"]
    if not path.is_file():
        return None
    from .annotate import io_bytes

    return io_bytes(path.read_text())


def load_run_tables(path) -> RunTables:
    run = open_run(path)
    manifest = run.read_manifest()
    if not run.steps_hatchet.exists():
        from .errors import UserError

        raise UserError(f"{run.root} has no Proton steps ({run.steps_hatchet.relative_to(run.root)}); "
                        "the profile did not get that far")
    df = kernel_table(run, manifest)
    peaks = peaks_for(manifest)
    attention = pd.read_csv(run.attention_csv) if run.attention_csv.exists() else None
    return RunTables(run=run, manifest=manifest, kernels=df, summary=summarize(df, manifest, peaks),
                     attention=attention)
