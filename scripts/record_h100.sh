# Device session: GPU tests, a small FLUX run (test fixtures), the full FLUX.1-dev example run with ncu,
# and the performance script. Everything worth keeping is written under $OUT.
source scripts/device_env.sh
mkdir -p "$OUT"
python3 -m pytest -q -x tests/gpu/test_mm_annotation.py 2>&1 | grep -v Warning | tail -40 | tee "$OUT/gpu_tests.log"
: small run recorded earlier




timeout 470 python3 scripts/bench_profile.py /tmp/flux-h100 --ncu --steps 10 2>&1 | tail -30 | tee "$OUT/bench.log"
python3 -m inductor_prof report /tmp/flux-h100 --top 40 > "$OUT/report.txt" 2>&1
tar czf "$OUT/flux-h100.tgz" --exclude=inductor_cache -C /tmp flux-h100
du -sh /tmp/flux-h100/* | tee -a "$OUT/bench.log"
