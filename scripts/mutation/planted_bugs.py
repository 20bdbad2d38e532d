"""Issue 30's audit bugs, planted one at a time in a COPY of this checkout (never in it): each is a slip the
audit made by hand and the suite did not catch then; the tests listed with it must fail on it now. Prints, per
bug, the tests that failed (docs/mutation-scores.md lists each bug with its tests).

    python3 scripts/mutation/planted_bugs.py [NUMBER ...]     # e.g. 1 9: only those

A line it plants in that no longer reads as written here fails loudly (assert): plant that bug again by hand."""
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

A = "tests/analysis/"
# (number and what, file, [(text as written, the planted text), ...], the test files to run)
BUGS = [
    ("1 the ridge in GiB/s (2**30) instead of GB/s", "inductor_prof/cost.py",
     [("return peak_tflops * TFLOP / (peak_gbps * GB)", "return peak_tflops * TFLOP / (peak_gbps * 2**30)")],
     ["tests/test_cost.py", A + "test_roofline.py"]),
    ("2 the switch to the spec roof made even when the spec is below the measured roof",
     "inductor_prof/analysis/roofline.py",
     [("    compute_roof = peak_flops\n",
       "    compute_roof = peak_flops.where(~(out['tflops'] > peak_flops),"
       " flops_key.map(lambda k: (peaks.get('spec') or {}).get(k) or NAN))\n")],
     [A + "test_roofline.py", "tests/test_peaks.py"]),
    ("2b (today's form) a measured roof lowered to a reached rate below it", "inductor_prof/peaks.py",
     [('if out["source"].get(key) == "measured" and tflops <= out["tflops"][key]:',
       'if out["source"].get(key) == "measured" and False:')],
     [A + "test_roofline.py", "tests/test_peaks.py"]),
    ("3 per-kernel headroom not clipped at 0", "inductor_prof/analysis/roofline.py",
     [('(df["step_ms"] - df["sol_ms_per_step"]).clip(lower=0)', '(df["step_ms"] - df["sol_ms_per_step"])')],
     [A + "test_roofline.py", A + "test_headroom.py"]),
    ("4 the step gate failing on a speed-up (absolute change)", "inductor_prof/analysis/diff_gate.py",
     [('beyond_noise(r.change_pct, r.noise_pct) > fail_above:\n            out.append(Failure("steps"',
       'beyond_noise(abs(r.change_pct), r.noise_pct) > fail_above:\n            out.append(Failure("steps"')],
     [A + "test_diff.py", A + "test_diff_gate.py"]),
    ("5 the gate also watching the step under Proton", "inductor_prof/analysis/diff.py",
     [('df["gated"] = [i == 0 and w != GPU_ROW for i, w in enumerate(df["what"])]',
       'df["gated"] = [w != GPU_ROW for i, w in enumerate(df["what"])]')],
     [A + "test_diff.py", A + "test_diff_gate.py"]),
    ("6 a renamed kernel's noise looked up in run B by run A's name", "inductor_prof/analysis/diff_kernels.py",
     [("spreads_b.get(name_b, NAN))", "spreads_b.get(name_a, NAN))")],
     [A + "test_diff.py", A + "test_diff_kernels.py"]),
    ("7 the per-size GPU time a median instead of the mean", "inductor_prof/analysis/diff_sizes.py",
     [("float(np.mean(ga)), float(np.mean(gb))", "float(np.median(ga)), float(np.median(gb))")],
     [A + "test_diff.py", A + "test_diff_sizes.py", "tests/test_steptime.py"]),
    ("8 kernel matching's last tier ignoring the name stem", "inductor_prof/analysis/match.py",
     [("out.setdefault((fp[n].kind, fp[n].aten_ops, fp[n].stem), []).append(n)",
       "out.setdefault((fp[n].kind, fp[n].aten_ops), []).append(n)")],
     [A + "test_match.py", A + "test_diff_kernels.py"]),
    ("9 --json writing Infinity for an infinite value", "inductor_prof/report/export.py",
     [("and (math.isnan(v) or math.isinf(v)):", "and math.isnan(v):"),
      ("indent=1, allow_nan=False", "indent=1, allow_nan=True")],
     ["tests/report/test_export.py"]),
    ("10 a captured SDPA call's key-value heads taken from the query", "inductor_prof/attention/semantics/capture.py",
     [("Hkv, Sk = k4.shape[1], k4.shape[2]", "Hkv, Sk = q4.shape[1], k4.shape[2]")],
     ["tests/attention/semantics/test_capture.py", "tests/drivers/torch_profiler/test_trace.py"]),
]


def main(only: list[str]) -> int:
    root = Path(tempfile.mkdtemp(prefix="planted-bugs-"))
    try:
        shutil.copytree(Path(__file__).resolve().parents[2], root, dirs_exist_ok=True,
                        ignore=shutil.ignore_patterns(".git", ".venv", "mutants", "__pycache__"))
        env = {"PYTHONPATH": str(root), "PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin"}
        for name, rel, edits, tests in BUGS:
            if only and name.split()[0] not in only:
                continue
            path = root / rel
            text = planted = path.read_text()
            for old, new in edits:
                assert planted.count(old) == 1, f"{name}: {old!r} is no longer in {rel} once"
                planted = planted.replace(old, new)
            path.write_text(planted)
            try:
                r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rf", *tests],
                                   cwd=root, capture_output=True, text=True, env=env)
            finally:
                path.write_text(text)
            failed = sorted(set(re.findall(r"^FAILED (\S+)", r.stdout, re.M)))
            print(f"## {name} ({rel}): {len(failed)} failed" + ("" if failed else "  <-- NOT CAUGHT"))
            print("".join(f"   {f}\n" for f in failed), end="", flush=True)
    finally:
        shutil.rmtree(root)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
