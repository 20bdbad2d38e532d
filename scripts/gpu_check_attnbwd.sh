#!/usr/bin/env bash
# GPU check of the attnbwd branch (issue 50: attention forward+backward compared; --train --ncu), on one H200, from
# the repo root after `source scripts/device_env.sh`. At most 146 s of steps (each step has its own limit). Writes
# $OUT/attnbwd.log (everything printed) and $OUT/attnbwd.tgz (the run folders, without inductor_cache, *.ncu-rep).
#
# What proves the work (each a labelled line in the log):
#   decoder: "Attention backends, forward+backward" table of `inductor-prof attention RUN` on a copy of the shipped
#            decoder training run (examples/runs/llama-train-h200): SDPA's backends and flex_compiled timed forward
#            +backward, TFLOP/s at 3.5x the forward's flops, gluon_fa3 "no backward"; `rows by pass` counts; the
#            report's training comparison and its "use ... (its forward and backward)" advice line if one is faster
#   flux:    "probe (1,24,4608,128) sdpa_cudnn: <error>" (expected: an illegal memory access, kept out of the
#            bench's process) and the flash/efficient rows timed and ok after it
#   ncu:     "ncu replay vs model <bprop kernel>": the decoder's cuDNN bprop kernel replayed as autograd's backward, its
#            duration against the model's per-call time (the fprop's too, replayed computing its lse); the foreach
#            kernel's row failed with "no get_args()"
set -u
OUT=${OUT:-/tmp/attnbwd-out}
mkdir -p "$OUT"
LOG=$OUT/attnbwd.log
: > "$LOG"
exec > >(tee -a "$LOG") 2>&1
PY=${PY:-python3}
W=$(mktemp -d /tmp/attnbwd.XXXXXX)

BUDGET=${BUDGET:-150}   # the steps' seconds in all (check_steps.sh: each step under its own limit too)
source "$(dirname "$0")/check_steps.sh"

echo "attnbwd GPU check: $(git rev-parse --short HEAD 2>/dev/null) $(date -u +%FT%TZ)"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,power.draw --format=csv,noheader || echo "STEP nvidia-smi failed: rc=$?"

# 1. the decoder training run: the attention command on an existing training run (both passes, the probe)
cp -r examples/runs/llama-train-h200 "$W/llama-train" || echo "STEP copy failed: rc=$?"
step decoder_attention 65 $PY -m inductor_prof attention "$W/llama-train" \
  --backends sdpa,sdpa_cudnn,sdpa_flash,sdpa_efficient,flex_compiled,gluon_fa3 --no-tune --rep-ms 30 --width 200
step decoder_rows 6 $PY - "$W/llama-train" <<'EOF'
import sys, pandas as pd
att = pd.read_csv(sys.argv[1] + "/attention.csv")
print("rows by pass:", att.groupby("pass")["ok"].agg(["size", "sum"]).to_dict("index"))
for r in att.to_dict("records"):
    print(f"decoder {r['pass']} {r['backend']}: ms {r['ms']:.3f} TFLOP/s {r['tflops']:.1f} flops {r['flops']:,} "
          f"rel_err {r['rel_err']:.2e} ok {r['ok']} vs model {r['speedup_vs_model']:.2f}x reason {r['reason']!s:.120}")
EOF
step decoder_report 10 bash -c "$PY -m inductor_prof report '$W/llama-train' --width 220 --top 12 2>&1 | \
  sed -n '/Attention backends, forward+backward/,/Summary/p' | grep -v '^\s*$' | head -60"

# 2. FLUX's attention shape: cuDNN's backward crash kept in a probe worker, the others timed
mkdir -p "$W/flux"
step flux_backward 40 $PY scripts/gpu_check_attnbwd.py flux "$W/flux"

# 3. ncu on the training run: the attention backward's library call replayed, a foreach kernel refused clearly
cp -r examples/runs/llama-train-h200 "$W/llama-train-ncu" || echo "STEP copy failed: rc=$?"
step ncu_backward 25 $PY scripts/gpu_check_attnbwd.py ncu "$W/llama-train-ncu"

tar -C "$W" --exclude=inductor_cache --exclude='*.ncu-rep' -czf "$OUT/attnbwd.tgz" . || echo "STEP tar failed: rc=$?"
echo "wrote $LOG and $OUT/attnbwd.tgz ($(du -h "$OUT/attnbwd.tgz" | cut -f1)) in $SECONDS s"
