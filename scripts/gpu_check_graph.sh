#!/bin/bash
# GPU check of issue 54's open parts (branch graph), on one GPU, within 200 s:
#  A. the decoder profiled with --mode reduce-overhead and in default mode: the graph replays' Inductor kernels
#     priced from the launches recorded before the replays (proton/recorded_launches.json), totals side by side;
#  C. `try` on a copy of examples/runs/llama-h200 (the decoder, H200) with attention_backend and gemm_templates;
#  B. `try RUN -e cuda_graphs` on the default run of A, then `diff` of it against the reduce-overhead run (profiled
#     into the folder the experiment's rerun names): the diff says which experiment B applies.
# Phase 1 runs A's two profiles and C's try at once (the GPU shared: their step times and C's timing verdicts are
# not measurements to quote; the priced totals do not depend on timing, and C shows the experiments run); phase 2
# (B) runs alone on the GPU.
# Usage (device, repo root, after `source scripts/device_env.sh`): bash scripts/gpu_check_graph.sh
# Writes $OUT/graph.log (all of this output) and $OUT/graph.tgz (the run folders, without inductor_cache and
# *.ncu-rep). A dry run on the CPU: GRAPH_CHECK_RUNS=DIR (holding dec/ and dec-cuda_graphs/) stands in for A.
OUT=${OUT:-/tmp/graph-out}
mkdir -p "$OUT"
exec > >(tee "$OUT/graph.log") 2>&1
R=/tmp/graph-runs
rm -rf "$R" && mkdir -p "$R"
P="python3 -m inductor_prof"
T=examples.models.llama_decoder:decoder
BUDGET=${GRAPH_CHECK_BUDGET:-190}   # seconds for all steps; the tarball after

source "$(dirname "$0")/check_steps.sh"
echo "device: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)"
python3 -c "import torch, triton; print('torch', torch.__version__, 'triton', triton.__version__)"
cp -r examples/runs/llama-h200 $R/llama-h200

# --- phase 1: A's two profiles and C's try, at once -----------------------------------------------------------
if [ -n "${GRAPH_CHECK_RUNS:-}" ]; then   # a dry run on the CPU: runs made elsewhere stand in for the profiles
  cp -r "$GRAPH_CHECK_RUNS/dec" "$GRAPH_CHECK_RUNS/dec-cuda_graphs" $R/
  pids=()
else
  lim=$(limit 100)
  echo "== phase 1 at ${SECONDS}s: profile $T reduce-overhead and default (limit ${lim}s each), try attention_backend" \
       "and gemm_templates on llama-h200 (limit $(limit 125)s), all at once"
  timeout "$lim" $P profile $T --mode reduce-overhead --no-ceilings --no-attention --steps 5 \
      --out $R/dec-cuda_graphs > $R/profile-ro.log 2>&1 &
  ro=$!
  timeout "$lim" $P profile $T --no-ceilings --no-attention --steps 5 --out $R/dec > $R/profile-default.log 2>&1 &
  df=$!
  timeout "$(limit 125)" $P try $R/llama-h200 -e attention_backend -e gemm_templates --rounds 2 --steps 5 \
      --warmup 2 --timeout 90 --width 160 > $R/try-attention-gemm.log 2>&1 &
  tr=$!
  waited profile_reduce_overhead $ro $R/profile-ro.log
  waited profile_default $df $R/profile-default.log
fi

# --- A: the priced totals ------------------------------------------------------------------------------------
step recorded_launches 15 python3 -c "
import json
m = json.load(open('$R/dec-cuda_graphs/manifest.json'))
print('recorded launches (stage warmup):', m['stages']['warmup'].get('recorded_launches'))
print('annotated_step note:', m['stages']['annotated_step'].get('cuda_graphs'))
print('plain step ms (GPU shared), reduce-overhead:', round(m['profile']['plain_step_ms'], 3))
print('plain step ms (GPU shared), default:', round(json.load(open('$R/dec/manifest.json'))['profile']['plain_step_ms'], 3))"
step totals 25 python3 scripts/graph_price_totals.py $R/dec-cuda_graphs $R/dec
step report_graphs 20 bash -c "$P report $R/dec-cuda_graphs --top 8 --width 160 > $R/report-ro.txt 2>&1; rc=\$?
  grep -i 'warning' $R/report-ro.txt; head -24 $R/report-ro.txt; exit \$rc"

# --- C: which experiments try picks on the decoder run, and how its try ended ---------------------------------
step plan 20 python3 -c "
from inductor_prof.analysis import load_run_tables, experiment_plan as p
adv = load_run_tables('$R/llama-h200').summary['headroom']['next']
print('try would pick on its own:', [(e.name, e.attention) for e in p.plan(adv, 'default')])
print('asked:', [(e.name, e.attention, e.options) for e in p.plan(adv, 'default', ['attention_backend', 'gemm_templates'])])"
if [ -z "${GRAPH_CHECK_RUNS:-}" ]; then
  waited try_attention_gemm $tr $R/try-attention-gemm.log
  tail -12 $R/try-attention-gemm.log
fi
step experiments 10 python3 -c "
import json
for e in json.load(open('$R/llama-h200/experiments/experiments.json'))['experiments']:
    t = e.get('timing') or {}
    print('experiment', e['name'], e.get('attention'), e['status'], e.get('reason', ''), '| ratio (GPU shared)',
          t.get('ratio'), '| attention calls', e.get('attention_calls'), '| kernels', e.get('kernels'),
          '| seconds', e.get('seconds'))"

# --- B: the experiment recorded on the default run (GPU alone), then the diff of the run with it applied -------
step try_cuda_graphs 45 $P try $R/dec -e cuda_graphs --rounds 2 --steps 5 --warmup 2 --timeout 40 --width 160
step diff 20 bash -c "$P diff $R/dec $R/dec-cuda_graphs --width 160 > $R/diff.txt 2>&1; rc=\$?; head -45 $R/diff.txt
  exit \$rc"
step diff_json 20 bash -c "$P diff $R/dec $R/dec-cuda_graphs --json > $R/diff.json && python3 -c \"
import json
d = json.load(open('$R/diff.json'))
e = d.get('applied_experiment')
print('diff applied_experiment:', e['line'] if e else None, '| matched by:', e and e['matched_by'])
print('diff changed_settings:', d['changed_settings'])
print('diff kernels matched:', len(d['kernels']), 'new:', len(d['new_kernels']), 'removed:', len(d['removed_kernels']))
for r in d['kernels'][:12]:
    print('  ', r.get('matched_by'), str(r.get('name_a'))[:70], '->', str(r.get('name_b'))[:40])
\""

echo "== tar at ${SECONDS}s"
keep=()
for f in dec dec-cuda_graphs llama-h200/experiments profile-ro.log profile-default.log try-attention-gemm.log \
    diff.json diff.txt report-ro.txt; do
  [ -e "$R/$f" ] && keep+=("$f")
done
tar czf "$OUT/graph.tgz" --exclude inductor_cache --exclude '*.ncu-rep' -C $R "${keep[@]}" || echo "STEP tar failed: rc=$?"
ls -la "$OUT"
echo "== done at ${SECONDS}s"
