#!/usr/bin/env bash
# GPU check of the qkvlayout branch (issue 50 item 4: the attention comparison runs q, k, v in the layout of the
# model's call; a backend failing there gets a contiguous variant row; the training advice recommends what ran), on
# one H200, from the repo root after merging and `source scripts/device_env.sh`. Within 240 s (each step has its own
# limit). Writes $OUT/qkvlayout.log (everything printed) and $OUT/qkvlayout.tgz (the copied run folder and the
# replays' outputs, without inductor_cache and *.ncu-rep).
#
# Input: examples/runs/flux-train-h200 (FLUX.1-dev training step, H200), copied to /tmp; its attention_shapes.json
# says "layout": "bshd" for all 57 calls, its library_ops.csv the dout layouts of the 40 backward calls.
#
# What proves the work (each a labelled line in the log):
#   "replay <variant>: ok|FAILED ...": the lead's six recorded FLUX calls (scripts/probe_cudnn_train.calls.json)
#     replayed under cuDNN, each variant in its own process: the model's strides; all contiguous; q, k, v
#     contiguous only; dout contiguous only; call 0 alone (dout (B,S,H,D)), call 2 alone (dout row pitch 15360)
#   "row forward+backward (1,24,4608,128) sdpa_cudnn: ... qkv_layout (B,S,H,D) ... reason <error>": cuDNN's row at
#     the model's layout keeps its error, and "row ... sdpa_cudnn (q,k,v contiguous): ms .. ok True" its variant
#     (q, k, v copied first; "sdpa_cudnn (q,k,v,dout contiguous)" follows only where that failed too), with a
#     forward row of the variant at the end
#   "VERDICT: ...": which of those happened
#   "advice 1..5: ...": the report's top 5; the attention item says "make q, k, v ... contiguous before SDPA"
#   "VERDICT advice: ...": no item recommends a row that failed
set -u
OUT=${OUT:-/tmp/qkvlayout-out}
mkdir -p "$OUT"
LOG=$OUT/qkvlayout.log
: > "$LOG"
exec > >(tee -a "$LOG") 2>&1
PY=${PY:-python3}
SRC=${QKVLAYOUT_RUN:-examples/runs/flux-train-h200}
# the six SDPA calls `probe_cudnn_train.py record` wrote on the H200 (torch 2.11.0+cu130, cuDNN 91900; FLUX 2 double +
# 4 single blocks): q, k, v (1,24,4608,128) strides (14155776, 128, 3072, 1) in all; dout of calls 0-1 the same
# strides, of calls 2-5 (70778880, 128, 15360, 1) (the single blocks' concat slice)
CALLS=scripts/probe_cudnn_train.calls.json
W=$(mktemp -d /tmp/qkvlayout.XXXXXX)
RUN=$W/flux-train

BUDGET=${BUDGET:-240}   # the steps' seconds in all (check_steps.sh: each step under its own limit too)
source "$(dirname "$0")/check_steps.sh"

replay() {   # replay NAME args...: one replay process, its output kept, one verdict line
  local name=$1
  shift
  CUDA_LAUNCH_BLOCKING=1 timeout -k 3 50 $PY scripts/probe_cudnn_train.py replay "$CALLS" "$@" > "$W/replay_$name.txt" 2>&1
  local rc=$?
  if grep -q "^replay ok" "$W/replay_$name.txt"; then
    echo "replay $name: ok ($(grep '^replay ok' "$W/replay_$name.txt"))"
  else
    echo "replay $name: FAILED rc=$rc, last call started: $(grep -E '^(fwd|bwd) ' "$W/replay_$name.txt" | tail -n 1); error: $(grep -E 'Error|error' "$W/replay_$name.txt" | tail -n 1 | cut -c1-240)"
  fi
}

echo "qkvlayout GPU check: $(git rev-parse --short HEAD 2>/dev/null) $(date -u +%FT%TZ) run $SRC"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,power.draw --format=csv,noheader || echo "STEP nvidia-smi failed: rc=$?"
$PY -c "import torch; print('torch', torch.__version__, 'cudnn', torch.backends.cudnn.version())" || echo "STEP versions failed: rc=$?"
mkdir -p "$RUN" && (cd "$SRC" && tar --exclude=inductor_cache --exclude='*.ncu-rep' -cf - .) | tar -C "$RUN" -xf - \
  || echo "STEP copy failed: rc=$?"
rm -f "$RUN"/attention.csv "$RUN"/attention/backward_probe_*.log   # only this check's rows and probes are shown

# (a) the recorded calls under cuDNN, each variant in a process of its own (a failure can be sticky), all at once
echo "== replays (limit 50 s each, in parallel)"
t0=$SECONDS
pids=()
replay model & pids+=($!)
replay contiguous --contiguous & pids+=($!)
replay qkv_contiguous --qkv-contiguous & pids+=($!)
replay dout_contiguous --dout-contiguous & pids+=($!)
replay call0_model --only=0 & pids+=($!)
replay call2_model --only=2 & pids+=($!)
wait "${pids[@]}"   # these only: a bare wait would wait for the log's tee too
echo "== replays: $((SECONDS - t0)) s"

# (b) the attention command on the training run: forward rows, then forward+backward with the probe, q, k, v in the
#     model's (B,S,H,D) layout and dout as its backward got it; what is left of 240 s less 60 for (c), at most 140
left=$((180 - SECONDS)); [ $left -gt 140 ] && left=140; [ $left -lt 40 ] && left=40
step attention $left $PY -m inductor_prof attention "$RUN" --backends sdpa_cudnn,sdpa_flash,sdpa_efficient --no-tune \
  --rep-ms 30 --width 220
step rows 10 $PY scripts/gpu_check_qkvlayout.py rows "$RUN"
for f in "$RUN"/attention/backward_probe_*.log; do
  [ -f "$f" ] && grep -H -E "^dout:|^probed " "$f" | sed "s|^$RUN/|probe |"
done

# (c) the report's top 5 ("where to look next") on that run
left=$((234 - SECONDS)); [ $left -gt 60 ] && left=60; [ $left -lt 15 ] && left=15
step advice $left $PY scripts/gpu_check_qkvlayout.py advice "$RUN"

tar -C "$W" --exclude=inductor_cache --exclude='*.ncu-rep' -czf "$OUT/qkvlayout.tgz" . || echo "STEP tar failed: rc=$?"
echo "wrote $LOG and $OUT/qkvlayout.tgz ($(du -h "$OUT/qkvlayout.tgz" | cut -f1)) in $SECONDS s"
