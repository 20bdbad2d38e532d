#!/usr/bin/env bash
# The Gluon kernel's chunked causal tile order (Config.q_chunk; issue 51 item 4: at or above cuDNN at every causal
# length 1k-32k, head dim 128) on one GPU, within 200 s, from the repo root after `source scripts/device_env.sh`:
#   1. scripts/gpu_check_causal.py at (1,32,S,128) causal bf16, S = 32768 16384 8192 4096 (a new length only
#      while 75 s have not passed): gluon_fa3's default config with q_chunk 1 (the order before), 4, 6, 8, 12, 16,
#      22, 33 forced (tune() offers 6 and 12), tune()'s choice, and SDPA cuDNN, in rotated rounds in one process;
#      a line per (S, variant):
#      TFLOP/s, ratio to cuDNN, ms, the float64 check and "same bits as q_chunk=1". Before this branch (H200):
#      S=32768 592 vs cuDNN 607 (0.975x), 16384 641 vs 613, 8192 643 vs 608, 4096 581 vs 512.
#   2. pytest tests/gpu/test_gluon_causal_order.py: the kernel's tile_of against the model (gluon_tiles.tile_order);
#      chunked configs against float64 at ragged, GQA, multi-wave shapes, no spills, the same bits as a tile a head.
#   3. with 20 s or more left: tests/gpu/test_gluon_fa.py's no-spill check of every causal head-dim-128 candidate.
# Everything printed goes to $OUT/causal.log; the CSV of step 1 and the pytest output into $OUT/causal.tgz. A step
# that fails says "STEP ... failed: rc=N" and the next one runs. PY: the Python to use (default python3).
OUT=${OUT:-/tmp/causal-out}
PY=${PY:-python3}
dir="$OUT/causal"
mkdir -p "$dir"
exec > >(tee "$OUT/causal.log") 2>&1
echo "== causal check $(date -u +%FT%TZ) at $(git rev-parse --short HEAD 2>/dev/null)"
nvidia-smi --query-gpu=name,clocks.sm,power.draw,power.limit --format=csv,noheader 2>/dev/null || true
t0=$SECONDS

echo "== 1 gluon_fa3 tile orders beside cuDNN at (1,32,S,128) causal bf16 (limit 125 s)"
timeout 125 "$PY" scripts/gpu_check_causal.py "$dir/causal-orders.csv" --seqs 32768 16384 8192 4096 \
  --chunks 1 4 6 8 12 16 22 33 --rep-ms 300 --budget-s 75 || echo "STEP gpu_check_causal.py failed: rc=$?"
echo "   (step 1 ended at $((SECONDS - t0)) s)"

left=$((195 - (SECONDS - t0)))
echo "== 2 pytest tests/gpu/test_gluon_causal_order.py (limit ${left} s)"
if [ "$left" -gt 10 ]; then
  timeout "$left" "$PY" -m pytest -q -p no:cacheprovider tests/gpu/test_gluon_causal_order.py > "$dir/pytest.txt" 2>&1
  rc=$?
  tail -15 "$dir/pytest.txt"
  [ "$rc" -eq 0 ] || echo "STEP pytest test_gluon_causal_order failed: rc=$rc"
else
  echo "STEP pytest test_gluon_causal_order failed: rc=no time left"
fi
echo "   (step 2 ended at $((SECONDS - t0)) s)"

left=$((195 - (SECONDS - t0)))
echo "== 3 pytest tests/gpu/test_gluon_fa.py, every causal head-dim-128 candidate without spills (limit ${left} s)"
if [ "$left" -gt 20 ]; then
  timeout "$left" "$PY" -m pytest -q -p no:cacheprovider tests/gpu/test_gluon_fa.py \
    -k "without_spills and 128 and causal" > "$dir/pytest-spills.txt" 2>&1
  rc=$?
  tail -8 "$dir/pytest-spills.txt"
  [ "$rc" -eq 0 ] || echo "STEP pytest test_gluon_fa spills failed: rc=$rc"
else
  echo "STEP pytest test_gluon_fa spills skipped: ${left} s left"
fi
echo "   (step 3 ended at $((SECONDS - t0)) s)"

tar czf "$OUT/causal.tgz" -C "$OUT" causal && rm -rf "$dir" || echo "STEP tar failed: rc=$?"
echo "== causal check done in $((SECONDS - t0)) s"
