#!/usr/bin/env bash
# run_mutmut.sh restricted to issue 11's modules and the fast test files that touch them
cd "$(dirname "$(readlink -f "$0")")/../.."
keep="tests/attention/test_on_cpu.py tests/attention/semantics/test_masks.py tests/attention/semantics/test_join.py
tests/attention/semantics/test_shapes.py tests/attention/semantics/test_capture.py tests/attention/benchmark/test_bench.py
tests/inductor/test_kernel_provenance.py tests/inductor/test_module_paths.py tests/analysis/test_sizes.py
tests/analysis/test_diff_sizes.py tests/targets/test_inputs.py tests/cli/test_report_recorded_semantics.py
tests/cli/test_report_recorded_sizes.py tests/cli/test_diff.py tests/targets/test_custom.py"
ign=""
for f in $(find tests -name 'test_*.py' -not -path 'tests/gpu/*' -not -path 'tests/data/*' | sort); do
  case " $(echo $keep) " in *" $f "*) continue;; esac
  ign+=" --ignore=$f"
done
export EXTRA_SELECTION="$ign"
export DST=${DST:-/tmp/mutmut-issue11}
export MODULES="inductor_prof/mask_pairs.py inductor_prof/attention/semantics/masks.py inductor_prof/attention/semantics/join.py inductor_prof/attention/semantics/shapes.py inductor_prof/inductor/kernel_provenance.py inductor_prof/inductor/module_paths.py inductor_prof/analysis/sizes.py inductor_prof/analysis/diff_sizes.py inductor_prof/targets/inputs.py"
exec bash scripts/mutation/run_mutmut.sh "$@"
