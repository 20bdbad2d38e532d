# GPU tests on the device, each file in its own process (Inductor keeps per-process state between compiles),
# each within GPU_TEST_TIMEOUT seconds (default 300).
source scripts/device_env.sh
mkdir -p "$OUT"
rc=0
# all of tests/gpu, or the files given
files=("$@"); [ ${#files[@]} -gt 0 ] || files=(tests/gpu/test_*.py)
for t in "${files[@]}"; do
  echo "== $t"
  log="$OUT/$(basename "$t" .py).log"   # the whole output kept; failures' summary lines shown
  timeout "${GPU_TEST_TIMEOUT:-300}" python3 -m pytest -q -rf -p no:cacheprovider "$t" > "$log" 2>&1
  code=$?
  grep -E "^(FAILED|ERROR)" "$log" | cut -c1-400 | head -12
  tail -1 "$log" | tee -a "$OUT/gpu_tests.log"
  [ $code -eq 0 ] || rc=1
done
exit $rc
