#!/bin/bash
# GPU check of branch graph2 (issue 54): a CUDA-graphs run's library kernels (cuBLAS GEMMs, cuDNN attention) priced
# from one step of the same compiled code on cudagraph trees' eager warm-up path, within 150 s on one GPU:
#  1. the decoder profiled with --mode reduce-overhead and in default mode, at once (the GPU shared: step times are
#     not to be quoted; the priced work does not depend on timing);
#  2. the graphs run's library_ops record (replayed launches, priced, unmatched), TFLOP/step and GB/step of both
#     runs with the ratio graphs/default (expected 1.000000), per library kernel side by side;
#  (beside 1: tests/gpu/test_graph_replays_gpu.py, the pairing in one process on a two-layer MLP, the graphs kept)
#  3. the report of the graphs run (its GEMM rows with TFLOP/s), `diff` default vs graphs (library calls paired by
#     op+shape; only the cudagraph trees' _foreach_copy_ new), and `try -e cuda_graphs` on the default run.
# Usage (device, repo root, after `source scripts/device_env.sh`): bash scripts/gpu_check_graph2.sh
# Writes $OUT/graph2.log (all of this output) and $OUT/graph2.tgz (the run folders without inductor_cache and
# *.ncu-rep; each run's torch_trace*.json.gz: the replayed step's and the step without graphs', for CPU fixtures).
# A dry run on the CPU: GRAPH2_CHECK_RUNS=DIR (holding dec/ and dec-cuda_graphs/) stands in for step 1.
OUT=${OUT:-/tmp/graph2-out}
mkdir -p "$OUT"
exec > >(tee "$OUT/graph2.log") 2>&1
R=/tmp/graph2-runs
rm -rf "$R" && mkdir -p "$R"
P="python3 -m inductor_prof"
T=examples.models.llama_decoder:decoder
BUDGET=${GRAPH2_CHECK_BUDGET:-145}   # seconds for all steps; the tarball after

source "$(dirname "$0")/check_steps.sh"
echo "device: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)"
python3 -c "import torch, triton, torch._inductor.config as c
print('torch', torch.__version__, 'triton', triton.__version__,
      '| triton.force_cudagraphs_warmup in this torch:', hasattr(c.triton, 'force_cudagraphs_warmup'))" \
  || echo "STEP versions failed: rc=$?"

# --- 1. both profiles at once ---------------------------------------------------------------------------------
if [ -n "${GRAPH2_CHECK_RUNS:-}" ]; then   # a dry run on the CPU: runs made elsewhere stand in for the profiles
  cp -r "$GRAPH2_CHECK_RUNS/dec" "$GRAPH2_CHECK_RUNS/dec-cuda_graphs" $R/
else
  lim=$(limit 90)
  echo "== profiles at ${SECONDS}s: $T reduce-overhead and default, at once (limit ${lim}s each)"
  timeout "$lim" $P profile $T --mode reduce-overhead --no-ceilings --no-attention --steps 5 \
      --out $R/dec-cuda_graphs > $R/profile-ro.log 2>&1 &
  ro=$!
  timeout "$lim" $P profile $T --no-ceilings --no-attention --steps 5 --out $R/dec > $R/profile-default.log 2>&1 &
  df=$!
  # the pairing in one process on a two-layer MLP (tests/gpu/test_graph_replays_gpu.py), beside them
  timeout "$lim" python3 -m pytest -q -rf -p no:cacheprovider tests/gpu/test_graph_replays_gpu.py > $R/gpu-test.log 2>&1 &
  gt=$!
  waited profile_reduce_overhead $ro $R/profile-ro.log
  waited profile_default $df $R/profile-default.log
  waited gpu_test_graph_replays $gt $R/gpu-test.log
  echo "gpu test: $(tail -1 $R/gpu-test.log)"
  tail -4 $R/profile-ro.log
fi

# --- 2. the graph replays' library kernels priced, totals side by side ----------------------------------------
step library_prices 25 python3 scripts/graph_library_prices.py $R/dec-cuda_graphs $R/dec
step stage_seconds 10 python3 -c "
import json
for r in ('dec-cuda_graphs', 'dec'):
    s = json.load(open('$R/' + r + '/manifest.json'))['stages'].get('library_ops') or {}
    print('library_ops seconds', r, s.get('seconds'), '| graph_replays:', s.get('graph_replays'))"

# --- 3. report, diff, try -------------------------------------------------------------------------------------
step report_graphs 20 bash -c "$P report $R/dec-cuda_graphs --top 6 --width 160 > $R/report-ro.txt 2>&1; rc=\$?
  grep -i 'warning' $R/report-ro.txt; head -12 $R/report-ro.txt; grep -E 'work per step|unpriced' $R/report-ro.txt
  exit \$rc"
step diff_json 20 bash -c "$P diff $R/dec $R/dec-cuda_graphs --json > $R/diff.json && python3 -c \"
import json
d = json.load(open('$R/diff.json'))
k = d['kernels'] + d['new_kernels'] + d['removed_kernels']
print('diff kernels matched:', len(d['kernels']), '| by op+shape:', sum(r.get('matched_by') == 'op+shape' for r in k),
      '| new:', [r.get('op') or r.get('name_b') for r in d['new_kernels']],
      '| removed:', [r.get('op') or r.get('name_a') for r in d['removed_kernels']])
for r in d['kernels'][:6]:
    print('  ', r.get('matched_by'), r.get('call') or r.get('name_a'))
\""
step try_cuda_graphs 40 $P try $R/dec -e cuda_graphs --rounds 2 --steps 5 --warmup 2 --timeout 35 --width 160

echo "== tar at ${SECONDS}s"
keep=()
for f in dec dec-cuda_graphs profile-ro.log profile-default.log gpu-test.log diff.json report-ro.txt; do
  [ -e "$R/$f" ] && keep+=("$f")
done
tar czf "$OUT/graph2.tgz" --exclude inductor_cache --exclude '*.ncu-rep' -C $R "${keep[@]}" || echo "STEP tar failed: rc=$?"
ls -la "$OUT"
echo "== done at ${SECONDS}s"
