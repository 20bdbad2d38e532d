#!/usr/bin/env bash
# run_mutmut.sh restricted to issue 11's modules and the fast test files that touch them
cd "$(dirname "$(readlink -f "$0")")/../.."
keep="test_attention.py test_attention_masks.py test_attention_semantics.py test_attention_capture.py test_attention_numbers.py test_provenance.py test_sizes_breakdown.py test_input_sizes_cli.py test_recorded_semantics.py test_recorded_sizes.py test_diff.py test_custom_target.py"
ign=""
for f in tests/test_*.py; do
  b=$(basename $f)
  case " $keep " in *" $b "*) continue;; esac
  case $b in test_mutants_*) continue;; esac
  ign+=" --ignore=$f"
done
export EXTRA_SELECTION="$ign"
export DST=${DST:-/tmp/mutmut-issue11}
export MODULES="inductor_prof/attention/semantics/masks.py inductor_prof/attention/semantics/join.py inductor_prof/attention/semantics/shapes.py inductor_prof/inductor/kernel_provenance.py inductor_prof/inductor/module_paths.py inductor_prof/analysis/sizes.py inductor_prof/analysis/diff_sizes.py inductor_prof/targets/inputs.py"
exec bash scripts/mutation/run_mutmut.sh "$@"
