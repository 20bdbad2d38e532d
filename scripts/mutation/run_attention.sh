#!/usr/bin/env bash
# run_mutmut.sh over the attention comparison's Python (the backends, bench, timing, references, masks for
# FlexAttention, the own kernels' host side; @triton.jit / @gluon.jit bodies are decorated, so mutmut leaves them
# alone) and the report's attention table and chart. Globs chunk the run, e.g.
#   bash scripts/mutation/run_attention.sh "inductor_prof.attention.benchmark.bench.*"
# With none: every attention mutant (about 25 minutes on 2 cores).
cd "$(dirname "$(readlink -f "$0")")/../.."
export DST=${DST:-/tmp/mutmut-attention}
export MODULES="inductor_prof/attention/benchmark/bench.py inductor_prof/attention/benchmark/registry.py inductor_prof/attention/timing.py
inductor_prof/attention/semantics/maskfile.py inductor_prof/attention/benchmark/library.py inductor_prof/attention/benchmark/flex_mask.py
inductor_prof/attention/kernels/reference.py inductor_prof/attention/kernels/triton_fa.py inductor_prof/attention/kernels/gluon_fa.py
inductor_prof/report/terminal.py inductor_prof/report/charts.py"
if [[ $# == 0 ]]; then
    set -- "inductor_prof.attention.*" "inductor_prof.report.terminal.x_attention_table*" \
        "inductor_prof.report.charts.x_attention_chart*"
fi
exec bash scripts/mutation/run_mutmut.sh "$@"
