#!/usr/bin/env bash
# GPU check of the gradout branch (issue 50 item 4: attention forward+backward compared on the model's upstream
# gradient layout), on one H200, from the repo root after `source scripts/device_env.sh`. Within 90 s (each step has
# its own limit). Writes $OUT/gradout.log (everything printed) and $OUT/gradout.tgz (the copied run folder, without
# inductor_cache and *.ncu-rep).
#
# Input: FLUX.1-dev's training run (`profile flux --train`, H200, 2026-11-28), carried as scratch/flux-train-h200
# (GRADOUT_RUN names another). Its library_ops.csv recorded the single blocks' grad_out as a slice of the [attn, mlp]
# concat's gradient (row pitch 15360) in 38 of its 40 backward calls.
#
# What proves the work (each a labelled line in the log):
#   "fwd+bwd (1,24,4608,128) <backend>: ms .. ok .. dout (B,S,H,D), row pitch 15360 (38 of 40 calls; 2: (B,S,H,D))
#    strides 70778880,128,15360,1 reason ..": each backend's forward+backward row ran on the model's dout
#   "VERDICT: ...": cuDNN failed on the model's layout (its row's reason: the probe's error), or it ran fine and the
#    layout was NOT the cause
#   "ab cudnn fwd+bwd dout contiguous|model ...: ok|FAILED": the same call alone, each layout in its own process
#    (q, k, v as the model's (B, S, H, D) tensors): run first, at once
#   "advice: ...": the report's attention item; its "measured against" names the dout layout when cuDNN ran
#   "probe ... dout: ..." lines of the probe workers' logs (attention/backward_probe_*.log)
set -u
OUT=${OUT:-/tmp/gradout-out}
mkdir -p "$OUT"
LOG=$OUT/gradout.log
: > "$LOG"
exec > >(tee -a "$LOG") 2>&1
PY=${PY:-python3}
SRC=${GRADOUT_RUN:-scratch/flux-train-h200}
W=$(mktemp -d /tmp/gradout.XXXXXX)
RUN=$W/flux-train

BUDGET=${BUDGET:-240}   # the steps' seconds in all (check_steps.sh: each step under its own limit too)
source "$(dirname "$0")/check_steps.sh"

echo "gradout GPU check: $(git rev-parse --short HEAD 2>/dev/null) $(date -u +%FT%TZ) run $SRC"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,power.draw --format=csv,noheader || echo "STEP nvidia-smi failed: rc=$?"
mkdir -p "$RUN" && (cd "$SRC" && tar --exclude=inductor_cache --exclude='*.ncu-rep' -cf - .) | tar -C "$RUN" -xf - \
  || echo "STEP copy failed: rc=$?"
rm -f "$RUN"/attention.csv "$RUN"/attention/backward_probe_*.log   # only this check's rows and probes are shown

# 1. cuDNN alone at FLUX's shape, contiguous dout and the model's, each in its own process (a crash is sticky),
#    both at once: the direct answer, before the stage's rows
step ab_contiguous 15 $PY scripts/gpu_check_gradout.py ab contiguous > "$W/ab_contiguous.txt" 2>&1 &
p1=$!
step ab_model 15 $PY scripts/gpu_check_gradout.py ab model > "$W/ab_model.txt" 2>&1 &
p2=$!
wait "$p1" "$p2"   # these two only: a bare wait would wait for the log's tee too
cat "$W/ab_contiguous.txt" "$W/ab_model.txt"
# 2. the attention command on the training run: forward rows, then forward+backward with the probe, on the dout
#    layout its library_ops.csv recorded (what is left of 90 s, less 14 for the steps after it)
left=$((76 - SECONDS)); [ $left -gt 62 ] && left=62; [ $left -lt 20 ] && left=20
step attention $left $PY -m inductor_prof attention "$RUN" --backends sdpa_cudnn,sdpa_flash,sdpa_efficient --no-tune \
  --rep-ms 30 --width 200
step rows 5 $PY scripts/gpu_check_gradout.py rows "$RUN"
for f in "$RUN"/attention/backward_probe_*.log; do
  [ -f "$f" ] && grep -H -E "^dout:|^probed " "$f" | sed "s|^$RUN/|probe |"
done
# 3. the report's attention advice (what "use ..." is measured against)
step advice 9 $PY scripts/gpu_check_gradout.py advice "$RUN"

tar -C "$W" --exclude=inductor_cache --exclude='*.ncu-rep' -czf "$OUT/gradout.tgz" . || echo "STEP tar failed: rc=$?"
echo "wrote $LOG and $OUT/gradout.tgz ($(du -h "$OUT/gradout.tgz" | cut -f1)) in $SECONDS s"
