#!/bin/bash
# GPU check of branch trainranks (issue 50, item 2 on several GPUs): `profile --train --nproc 2` of the decoder's
# training step (examples/models/llama_train.py: 4 Llama-3.2-1B layers, 2 x 2048 tokens, AdamW), each rank in
# DistributedDataParallel wrapped by the tool, within 240 s on 2 H200s (kind nvidia-h200-x2):
#  1. the profile (steps 3, warmup 1, --no-attention; the ceilings kept: they measure the pair's all_reduce busbw,
#     which the collectives' % of the link is judged against, about 7 s);
#  2. `report` and `report --rank 1` (terminal, the phases' lines) and `--json` of both, then per rank: each phase's
#     ms/step, TFLOP and GB per step, the communication phase as waiting / moving / exposed / hidden, its top
#     collective's busbw, the phase that launched it, the ranks' split, the NCCL kernels' phase in the kernel table
#     and the trace (`trace RUN/rank0`), the top advice items (scripts/trainranks_figures.py prints each figure);
#  3. a tarball of the run folder (no inductor_cache, no *.ncu-rep) and the reports.
# Usage (device, repo root, after `source scripts/device_env.sh`): bash scripts/gpu_check_trainranks.sh
# Writes $OUT/trainranks.log (all of this output) and $OUT/trainranks.tgz.
# A dry run on the CPU: TRAINRANKS_CHECK_RUN=DIR (a run folder of several ranks) stands in for step 1.
OUT=${OUT:-/tmp/trainranks-out}
mkdir -p "$OUT"
exec > >(tee "$OUT/trainranks.log") 2>&1
R=/tmp/trainranks-runs
rm -rf "$R" && mkdir -p "$R"
P="python3 -m inductor_prof"
T=examples.models.llama_train:decoder_train
RUN=$R/train2
BUDGET=${TRAINRANKS_CHECK_BUDGET:-225}   # seconds for all steps; the tarball after

source "$(dirname "$0")/check_steps.sh"
echo "device: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | tr '\n' ';')"
echo "commit: $(git log --oneline -1 2>/dev/null)"

# --- 1. the profile ------------------------------------------------------------------------------------------
if [ -n "${TRAINRANKS_CHECK_RUN:-}" ]; then
  cp -r "$TRAINRANKS_CHECK_RUN" "$RUN"
else
  step profile_train_nproc2 170 $P profile $T --train --nproc 2 --steps 3 --warmup 1 --no-attention --out $RUN
  python3 -c "
import json
top = json.load(open('$RUN/ranks.json'))
print('ranks.json status:', top.get('status'), '| why:', top.get('why'), '| seconds:', top.get('seconds'))
for r in top.get('ranks', []):
    print('rank', r['rank'], 'exit', r['exit'], r['status'], r.get('why') or '')
for i in range(top.get('nproc', 0)):
    m = json.load(open(f'$RUN/rank{i}/manifest.json'))
    print('rank', i, 'stages:', {k: (v.get('status'), v.get('seconds')) for k, v in (m.get('stages') or {}).items()})
" || echo "STEP ranks_json failed: rc=$?"
  for i in 0 1; do [ -f $RUN/logs/rank$i.log ] && { echo "-- rank$i.log tail"; tail -12 $RUN/logs/rank$i.log; }; done
fi

# --- 2. reports ----------------------------------------------------------------------------------------------
step report_rank0 25 bash -c "$P report $RUN --top 8 --width 160 > $R/report0.txt 2>&1; rc=\$?
  grep -iE 'warning|error' $R/report0.txt | head -8; grep -A8 'training phases' $R/report0.txt
  grep -iE 'waiting for rank|no compute beside|imbalance|straggler|arrives last' $R/report0.txt | head -6
  exit \$rc"
step report_rank1 25 bash -c "$P report $RUN --rank 1 --top 8 --width 160 > $R/report1.txt 2>&1; rc=\$?
  grep -iE 'warning|error' $R/report1.txt | head -8; grep -A8 'training phases' $R/report1.txt; exit \$rc"
step report_json 30 bash -c "$P report $RUN --json > $R/report0.json 2> $R/report0.err &&
  $P report $RUN --rank 1 --json > $R/report1.json 2> $R/report1.err"
step trace_rank0 20 $P trace $RUN/rank0 --out $R/trace0.json
step figures 15 python3 scripts/trainranks_figures.py $RUN $R/report0.json $R/report1.json $R/trace0.json
step html 20 bash -c "$P report $RUN --html $R/report0.html > /dev/null 2>&1 && grep -c 'communication' $R/report0.html"

# --- 3. tarball ----------------------------------------------------------------------------------------------
echo "== tar at ${SECONDS}s"
keep=()
for f in train2 report0.txt report1.txt report0.json report1.json report0.err report1.err trace0.json report0.html; do
  [ -e "$R/$f" ] && keep+=("$f")
done
tar czf "$OUT/trainranks.tgz" --exclude inductor_cache --exclude '*.ncu-rep' -C $R "${keep[@]}" \
  || echo "STEP tar failed: rc=$?"
ls -la "$OUT"
echo "== done at ${SECONDS}s"
