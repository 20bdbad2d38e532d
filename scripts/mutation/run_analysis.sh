#!/usr/bin/env bash
# run_mutmut.sh over the pure analysis modules (analysis/*.py, cost.py, units.py, peaks.py, steptime.py) on the
# fast tests that reach them (about 240 tests, 15 s plain): tests/analysis, the top-level cost/peaks/steptime
# tests, the report's number formatting, and the CLI's report numbers and diff on recorded runs. Globs chunk the
# run, e.g.
#   bash scripts/mutation/run_analysis.sh "inductor_prof.analysis.roofline.*"
# KEEP_EXTRA adds test files, e.g. cost.py's pricing of ATen ops is tested where the trace is read:
#   KEEP_EXTRA="tests/drivers/torch_profiler/test_trace.py tests/inductor/test_metrics.py" \
#       bash scripts/mutation/run_analysis.sh "inductor_prof.cost.*"
# SKIP leaves test files out: tests/analysis/test_timeline.py renders four recorded runs per mutant (10 s) and
# reaches every module through load_report; outside timeline.py's own mutants it only slows the run:
#   SKIP=tests/analysis/test_timeline.py bash scripts/mutation/run_analysis.sh "inductor_prof.analysis.roofline.*"
cd "$(dirname "$(readlink -f "$0")")/../.."
keep_dirs="tests/analysis"
keep="tests/test_cost.py tests/test_peaks.py tests/test_steptime.py tests/report/test_format.py
tests/cli/test_report_numbers.py tests/cli/test_diff.py ${KEEP_EXTRA:-}"
ign=""
for f in $(find tests -name 'test_*.py' -not -path 'tests/gpu/*' -not -path 'tests/data/*' | sort); do
  case " ${SKIP:-} " in *" $f "*) ign+=" --ignore=$f"; continue;; esac
  case " $(echo $keep) " in *" $f "*) continue;; esac
  d=$(dirname "$f")
  case " $keep_dirs " in *" $d "*) continue;; esac
  ign+=" --ignore=$f"
done
export EXTRA_SELECTION="$ign"
export DST=${DST:-/tmp/mutmut-analysis}
export MODULES="${MODULES:-$(ls inductor_prof/analysis/*.py | grep -v __init__ | tr '\n' ' ') inductor_prof/cost.py inductor_prof/units.py inductor_prof/peaks.py inductor_prof/steptime.py}"
exec bash scripts/mutation/run_mutmut.sh "$@"
