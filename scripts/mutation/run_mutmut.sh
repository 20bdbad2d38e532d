#!/usr/bin/env bash
# Mutation testing of inductor-prof's pure modules with mutmut 3.x, on the fast CPU tests.
# Works on a COPY of the repo (never touches SRC); the README says how it is used and what it measured.
#
#   run_mutmut.sh [MUTANT_GLOB ...]
#
# Environment (all optional):
#   SRC      repo to copy                       (default: this checkout)
#   DST      scratch copy where mutmut runs     (default /tmp/mutmut-inductor-prof; a private path: FRESH=1 deletes it)
#   VENV     venv that has mutmut + the deps    (default $SRC/.venv)
#   MODULES  files to mutate, space-separated, relative to the repo root
#            (default: PURE_MODULES below; edit that list when the package is re-laid)
#   FRESH=1  wipe DST and copy SRC anew (drops mutants/ and cached results); do it after code/tests changed.
#            Without it an existing DST is reused as is, so chunked runs test one snapshot.
#   JOBS     parallel mutant workers            (default 2)
#   MUTMUT_CFG_ONLY=1  write the copy + config and stop (to inspect or run mutmut by hand)
#   EXTRA_SELECTION  more pytest selection args, space-separated, e.g.
#            "--ignore=tests/cli/test_streams.py --deselect=tests/test_x.py::test_slow"
# MUTANT_GLOB restricts the run to some mutants (fnmatch on mutant names), e.g.
#   "inductor_prof.analysis.kernels.*"  or  "inductor_prof.drivers.ncu.command.x_build_cmd*"
# Results accumulate in $DST/mutants/, so several chunked runs on one copy add up.
set -euo pipefail

SRC=${SRC:-$(cd "$(dirname "$(readlink -f "$0")")/../.." && pwd)}
DST=${DST:-/tmp/mutmut-inductor-prof}
VENV=${VENV:-$SRC/.venv}
JOBS=${JOBS:-2}
# one thread per math library: mutant children forked after the parent used OpenMP threads hang (measured:
# 90+ "timeouts", which mutmut counts as kills)
export OMP_NUM_THREADS=1 MKL_NUM_THREADS=1

# Pure modules (layout after issue 30's second re-layout: one cost model, one reader of the run folder).
PURE_MODULES="
inductor_prof/inductor/metrics.py
inductor_prof/inductor/ops.py
inductor_prof/inductor/kernel_files.py
inductor_prof/inductor/output_code.py
inductor_prof/pipeline/harvest.py
inductor_prof/drivers/proton/hatchet.py
inductor_prof/drivers/torch_profiler/trace.py
inductor_prof/drivers/ncu/metrics.py
inductor_prof/drivers/ncu/command.py
inductor_prof/drivers/ncu/report.py
inductor_prof/analysis/advice.py
inductor_prof/analysis/diff.py
inductor_prof/analysis/diff_inputs.py
inductor_prof/analysis/diff_sizes.py
inductor_prof/analysis/headroom.py
inductor_prof/analysis/kernels.py
inductor_prof/analysis/library_calls.py
inductor_prof/analysis/load.py
inductor_prof/analysis/match.py
inductor_prof/analysis/ncu_compare.py
inductor_prof/analysis/noise.py
inductor_prof/analysis/roofline.py
inductor_prof/analysis/sizes.py
inductor_prof/analysis/summary.py
inductor_prof/analysis/telemetry.py
inductor_prof/analysis/timeline.py
inductor_prof/settings.py
inductor_prof/attention/semantics/shapes.py
inductor_prof/aten.py
inductor_prof/cost.py
inductor_prof/units.py
inductor_prof/peaks.py
inductor_prof/steptime.py
"
MODULES=${MODULES:-$PURE_MODULES}

# ---- 1. the copy (rsync is not installed here; tar keeps mtimes) ----
# Copied once: later chunks reuse the same snapshot, so their results add up. FRESH=1 takes a new one.
if [[ "${FRESH:-0}" == 1 ]]; then rm -rf "$DST"; fi
if [[ ! -d "$DST" ]]; then
    mkdir -p "$DST"
    (cd "$SRC" && tar --exclude=./.venv --exclude=./.git --exclude=./mutants --exclude='__pycache__' -cf - .) \
        | (cd "$DST" && tar xf -)
    (cd "$SRC" && git rev-parse HEAD 2>/dev/null || echo unknown) > "$DST/.snapshot-of"
    echo "copied $SRC (HEAD $(cat "$DST/.snapshot-of"), plus its uncommitted changes) to $DST"
else
    echo "reusing the copy in $DST (of HEAD $(cat "$DST/.snapshot-of" 2>/dev/null)); FRESH=1 for a new one"
fi

# the pytest plugin for the stats run (see mutmut_pytest_plugin.py): function-scoped fixtures, so tests that
# read a module-scoped fixture are run against the mutants; no MUTANT_UNDER_TEST=stats in child processes
cp "$(dirname "$(readlink -f "$0")")/mutmut_pytest_plugin.py" "$DST/"

# ---- 2. the [tool.mutmut] table, appended to the COPY's pyproject.toml ----
only=""
for m in $MODULES; do
    [[ -f "$DST/$m" ]] || { echo "no such module in the copy: $m" >&2; exit 2; }
    only+="    \"$m\",\n"
done
python3 - "$DST/pyproject.toml" <<'EOF'
import sys, re
p = sys.argv[1]; s = open(p).read()
s = re.sub(r"\n# ---- mutmut \(generated\) ----\n.*", "\n", s, flags=re.S)   # idempotent
open(p, "w").write(s.rstrip("\n") + "\n")
EOF
cat >> "$DST/pyproject.toml" <<EOF

# ---- mutmut (generated) ----
[tool.mutmut]
# the whole package goes into mutants/ so every import resolves there; only the files below get mutants
source_paths = ["inductor_prof/"]
only_mutate = [
$(printf "$only")]
# tests read recorded data (examples/), the README and docs/ outside tests/ via recorded.REPO
also_copy = ["examples/", "README.md", "docs/", "mutmut_pytest_plugin.py"]
# the fast CPU tests (tests/ and pyproject.toml are copied by default)
pytest_add_cli_args_test_selection = [
    "tests/",
    "--ignore=tests/gpu",
    "--ignore=tests/inductor/test_interpret.py",
    # its sm_90 compiles are slow under mutmut; its pure tests (tile configs, shared memory, work split) stay
    "--deselect=tests/attention/kernels/test_gluon_kernel.py::test_compiles_for_sm90",
    "--deselect=tests/attention/test_on_cpu.py::test_triton_kernel_in_interpreter",
    "--deselect=tests/attention/test_on_cpu.py::test_triton_kernel_two_subtiles_in_interpreter",
    "--deselect=tests/attention/test_on_cpu.py::test_numba_kernel_in_simulator",
    # a real child inductor-prof ncu under mutmut's load outlasts the test's 60 s limit
    "--deselect=tests/cli/test_ncu_run_integrity.py::test_ctrl_c_in_the_first_batch_then_report",
$(for a in ${EXTRA_SELECTION:-}; do printf '    "%s",\n' "$a"; done)]
pytest_add_cli_args = ["-p", "no:cacheprovider", "-p", "mutmut_pytest_plugin"]
# no git in the copy: hash the curated dependency files instead
use_git_change_detection = false
EOF
if [[ "${MUTMUT_CFG_ONLY:-0}" == 1 ]]; then echo "config written to $DST/pyproject.toml"; exit 0; fi

# ---- 3. run, then the numbers ----
cd "$DST"
export PATH="$VENV/bin:$PATH"
start=$(date +%s)
log="$DST/mutmut-run-$(date +%Y%m%d-%H%M%S).log"
# never pipe mutmut into a filter that can exit early: a SIGPIPE kills the run silently
mutmut run --max-children "$JOBS" "$@" >"$log" 2>&1 || echo "mutmut run exited with $?" >&2
tr '\r' '\n' <"$log" | grep -a -v -e 'Generating mutants' -e 'Running stats' -e 'Running clean' \
    | grep -a -v -e '^[[:space:]]*$' | grep -a -v -e '^🎉' | tail -n 12 || true
echo "wall time: $(( $(date +%s) - start )) s   (full log: $log)"
mutmut export-cicd-stats >/dev/null
python3 - "$@" <<'EOF'
import collections, fnmatch, json, subprocess, sys
globs = sys.argv[1:] or ["*"]
rows = subprocess.run(["mutmut", "results", "--all", "true"], capture_output=True, text=True).stdout.splitlines()
by_file = collections.defaultdict(collections.Counter)
for r in rows:
    if ": " not in r:
        continue
    name, status = (x.strip() for x in r.rsplit(": ", 1))
    if not any(fnmatch.fnmatch(name, g) for g in globs):
        continue
    by_file[name.rsplit(".", 1)[0]][status] += 1
def score(c):
    tested = sum(c.values()) - c["skipped"]
    return 100.0 * (c["killed"] + c["timeout"]) / tested if tested else float("nan")
tot = collections.Counter()
print(f"{'module':45s} {'total':>6s} {'killed':>6s} {'surv':>5s} {'notest':>6s} {'tmout':>5s} {'susp':>4s} {'score':>6s}")
for mod, c in sorted(by_file.items()):
    tot += c
    print(f"{mod:45s} {sum(c.values()):6d} {c['killed']:6d} {c['survived']:5d} {c['no tests']:6d} "
          f"{c['timeout']:5d} {c['suspicious']:4d} {score(c):5.1f}%")
print(f"{'ALL (this selection)':45s} {sum(tot.values()):6d} {tot['killed']:6d} {tot['survived']:5d} "
      f"{tot['no tests']:6d} {tot['timeout']:5d} {tot['suspicious']:4d} {score(tot):5.1f}%")
print("score = (killed + timeout) / (total - skipped), as `mutmut badge` computes it")
EOF
