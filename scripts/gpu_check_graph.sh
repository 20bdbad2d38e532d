#!/bin/bash
# GPU check of issue 54's open parts (branch graph), on one GPU, within 200 s:
#  A. the decoder profiled with --mode reduce-overhead and in default mode: the graph replays' Inductor kernels
#     priced from the launches recorded before the replays (proton/recorded_launches.json), totals side by side;
#  B. `try RUN -e cuda_graphs` on the default run, then `diff` of it against the reduce-overhead run (profiled into
#     the folder the experiment's rerun names): the diff says which experiment B applies;
#  C. `try` on a copy of examples/runs/llama-h200 (the decoder, H200) with attention_backend and gemm_templates.
# Usage (device, repo root, after `source scripts/device_env.sh`): bash scripts/gpu_check_graph.sh
# Writes $OUT/graph.log (all of this output) and $OUT/graph.tgz (the run folders, without inductor_cache and
# *.ncu-rep). The two profiles of A run at once (their totals do not depend on timing; their step times and the
# diff's timing verdicts are then not measurements to quote).
OUT=${OUT:-/tmp/graph-out}
mkdir -p "$OUT"
exec > >(tee "$OUT/graph.log") 2>&1
R=/tmp/graph-runs
rm -rf "$R" && mkdir -p "$R"
P="python3 -m inductor_prof"
T=examples.models.llama_decoder:decoder
BUDGET=${GRAPH_CHECK_BUDGET:-192}   # seconds for all steps; the tarball after

limit() {   # the step's own limit, or what is left of the budget when less
  local left=$((BUDGET - SECONDS))
  (( $1 < left )) && echo "$1" || echo "$left"
}
step() {    # step NAME LIMIT CMD...: one line before and after, its failure said and the rest still run
  local name=$1 lim; lim=$(limit "$2"); shift 2
  if (( lim < 5 )); then echo "STEP $name skipped: ${SECONDS}s of ${BUDGET}s spent"; return 0; fi
  echo "== $name (limit ${lim}s, at ${SECONDS}s)"
  timeout "$lim" "$@"; local rc=$?
  (( rc != 0 )) && echo "STEP $name failed: rc=$rc"
  echo "== $name ended at ${SECONDS}s"
}
echo "device: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)"
python3 -c "import torch, triton; print('torch', torch.__version__, 'triton', triton.__version__)"

# --- A: both modes profiled (at once), priced totals compared ------------------------------------------------
if [ -n "${GRAPH_CHECK_RUNS:-}" ]; then   # a dry run on the CPU: runs made elsewhere stand in for the profiles
  cp -r "$GRAPH_CHECK_RUNS/dec" "$GRAPH_CHECK_RUNS/dec-cuda_graphs" $R/
else
  lim=$(limit 100)
  echo "== A: profile $T, reduce-overhead and default, at once (limit ${lim}s, at ${SECONDS}s)"
  timeout "$lim" $P profile $T --mode reduce-overhead --no-ceilings --no-attention --steps 5 \
      --out $R/dec-cuda_graphs > $R/profile-ro.log 2>&1 &
  ro=$!
  timeout "$lim" $P profile $T --no-ceilings --no-attention --steps 5 --out $R/dec > $R/profile-default.log 2>&1 &
  df=$!
  wait $ro; rc_ro=$?
  wait $df; rc_df=$?
  echo "profile reduce-overhead: rc=$rc_ro; default: rc=$rc_df (at ${SECONDS}s)"
  (( rc_ro != 0 )) && { echo "STEP profile_reduce_overhead failed: rc=$rc_ro"; tail -15 $R/profile-ro.log; }
  (( rc_df != 0 )) && { echo "STEP profile_default failed: rc=$rc_df"; tail -15 $R/profile-default.log; }
fi
step recorded_launches 15 python3 -c "
import json
m = json.load(open('$R/dec-cuda_graphs/manifest.json'))
print('recorded launches (stage warmup):', m['stages']['warmup'].get('recorded_launches'))
print('annotated_step note:', m['stages']['annotated_step'].get('cuda_graphs'))
print('plain step ms, reduce-overhead:', round(m['profile']['plain_step_ms'], 3))
print('plain step ms, default:', round(json.load(open('$R/dec/manifest.json'))['profile']['plain_step_ms'], 3))"
step totals 25 python3 scripts/graph_price_totals.py $R/dec-cuda_graphs $R/dec
step report_graphs 20 bash -c "$P report $R/dec-cuda_graphs --top 8 --width 160 > $R/report-ro.txt 2>&1; rc=\$?
  grep -i 'warning' $R/report-ro.txt; head -24 $R/report-ro.txt; exit \$rc"

# --- B: the experiment recorded on the default run, then the diff of the run with it applied ----------------
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
    print('  ', r.get('matched_by'), r.get('name_a', r.get('name'))[:70], '->', str(r.get('name_b'))[:40])
\""

# --- C: attention_backend and gemm_templates on a decoder run ------------------------------------------------
cp -r examples/runs/llama-h200 $R/llama-h200
step plan 20 python3 -c "
from inductor_prof.analysis import load_run_tables, experiment_plan as p
adv = load_run_tables('$R/llama-h200').summary['headroom']['next']
print('try would pick on its own:', [(e.name, e.attention) for e in p.plan(adv, 'default')])
print('asked:', [(e.name, e.attention, e.options) for e in p.plan(adv, 'default', ['attention_backend', 'gemm_templates'])])"
step try_attention_gemm 110 $P try $R/llama-h200 -e attention_backend -e gemm_templates --rounds 2 --steps 5 \
    --warmup 2 --timeout 75 --width 160
step experiments 10 python3 -c "
import json
for e in json.load(open('$R/llama-h200/experiments/experiments.json'))['experiments']:
    t = e.get('timing') or {}
    print('experiment', e['name'], e.get('attention'), e['status'], e.get('reason', ''), '| ratio', t.get('ratio'),
          '| verdict', t.get('verdict'), '| attention calls', e.get('attention_calls'), '| seconds', e.get('seconds'))"

echo "== tar at ${SECONDS}s"
keep=()
for f in dec dec-cuda_graphs llama-h200/experiments profile-ro.log profile-default.log diff.json diff.txt \
    report-ro.txt; do
  [ -e "$R/$f" ] && keep+=("$f")
done
tar czf "$OUT/graph.tgz" --exclude inductor_cache --exclude '*.ncu-rep' -C $R "${keep[@]}" || echo "STEP tar failed: rc=$?"
ls -la "$OUT"
echo "== done at ${SECONDS}s"
