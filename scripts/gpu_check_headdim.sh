#!/usr/bin/env bash
# The own attention kernels at every head dim (issue 51, item 4) on one GPU, within 150 s, from the repo root after
# `source scripts/device_env.sh`:
#   1. scripts/check_head_dims.py, the Gluon and the `tl` kernel in two processes side by side (compiling is most
#      of it): head dims 80, 96, 192 (bf16 and fp16; dense, causal, GQA, a mask each, Gluon's split last waves)
#      and 64, 128, 256 (fp16 causal GQA) against float64, a line a case with each kernel's register spills;
#   2. scripts/sweep_attention.py at the issue's (4,16,2048,96) bf16: both own kernels tuned, checked and timed
#      beside SDPA cuDNN (before this branch: both "head dim 96 not supported", cuDNN 469 TFLOP/s on an H200).
# Everything printed goes to $OUT/headdim.log; step 1's outputs and step 2's CSV also into $OUT/headdim.tgz. A step
# that fails says "STEP ... failed: rc=N" and the next one runs. PY: the Python to use (default python3).
OUT=${OUT:-/tmp/headdim-out}
PY=${PY:-python3}
dir="$OUT/headdim"
mkdir -p "$dir"
exec > >(tee "$OUT/headdim.log") 2>&1
echo "== headdim check $(date -u +%FT%TZ) at $(git rev-parse --short HEAD 2>/dev/null)"
t0=$SECONDS

echo "== 1 correctness at every head dim, gluon_fa3 and triton_fa2 side by side (limit 80 s)"
pids=()
for k in gluon_fa3 triton_fa2; do
  ( timeout 80 "$PY" scripts/check_head_dims.py --kernels "$k" > "$dir/check-$k.txt" 2>&1
    echo "rc=$?" >> "$dir/check-$k.txt" ) &
  pids+=($!)
done
wait "${pids[@]}"   # these two: a bare `wait` would also wait for the `tee` above, which never ends
for k in gluon_fa3 triton_fa2; do
  # its figure lines, then the end of anything else it printed (a traceback, a compiler's message)
  grep -E "^(gluon_fa3|triton_fa2|head dims|rc=)" "$dir/check-$k.txt"
  grep -vE "^(gluon_fa3|triton_fa2|head dims|rc=)" "$dir/check-$k.txt" | tail -5
  tail -1 "$dir/check-$k.txt" | grep -qx "rc=0" || echo "STEP check_head_dims $k failed: $(tail -1 "$dir/check-$k.txt")"
done
echo "   (step 1 ended at $((SECONDS - t0)) s)"

echo "== 2 tuned own kernels beside cuDNN at (4,16,2048,96) bf16 (limit 55 s)"
timeout 55 "$PY" scripts/sweep_attention.py "$dir/attention-d96.csv" --shape 4,16,2048,96 --rep-ms 20 \
  || echo "STEP sweep_attention failed: rc=$?"
echo "   (step 2 ended at $((SECONDS - t0)) s)"

tar czf "$OUT/headdim.tgz" -C "$OUT" headdim && rm -rf "$dir" || echo "STEP tar failed: rc=$?"
echo "== headdim check done in $((SECONDS - t0)) s"
