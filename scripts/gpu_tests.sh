# GPU tests on the device, each file in its own process (Inductor keeps per-process state between compiles).
source scripts/device_env.sh
mkdir -p "$OUT"
rc=0
# all of tests/gpu, or the files given
files=("$@"); [ ${#files[@]} -gt 0 ] || files=(tests/gpu/test_*.py)
for t in "${files[@]}"; do
  echo "== $t"
  timeout 300 python3 -m pytest -q -p no:cacheprovider "$t" 2>&1 | grep -v Warning | tail -6 | tee -a "$OUT/gpu_tests.log"
  [ "${PIPESTATUS[0]}" -eq 0 ] || rc=1
done
exit $rc
