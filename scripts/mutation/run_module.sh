#!/usr/bin/env bash
# run_mutmut.sh over ONE module, on the test files named after it only: a bounded run (its own copy, its own stats
# run over those files), so a mutant reached through load_report is not tried against every CLI test. E.g.
#   bash scripts/mutation/run_module.sh inductor_prof/analysis/roofline.py \
#       tests/analysis/test_roofline.py tests/analysis/test_headroom.py tests/cli/test_report_numbers.py
# A mutant only a test outside the list kills counts as surviving: the score is a lower bound.
# DST defaults to /tmp/mutmut-<module>; results accumulate there (FRESH=1 for a new copy).
set -euo pipefail
cd "$(dirname "$(readlink -f "$0")")/../.."
module=$1; shift
[[ -f "$module" && $# -gt 0 ]] || { echo "usage: run_module.sh MODULE.py TEST_FILE..." >&2; exit 2; }
ign=""
for f in $(find tests -name 'test_*.py' -not -path 'tests/gpu/*' -not -path 'tests/data/*' | sort); do
  case " $* " in *" $f "*) continue;; esac
  ign+=" --ignore=$f"
done
name=$(basename "$module" .py)
dotted=$(echo "${module%.py}" | tr / .)
export EXTRA_SELECTION="$ign" MODULES="$module" DST=${DST:-/tmp/mutmut-$name}
exec bash scripts/mutation/run_mutmut.sh "$dotted.*"
