# Device session that recorded examples/runs/flux-h100: the full FLUX.1-dev profile with ncu and the attention
# benchmark, through the performance script. Everything worth keeping is written under $OUT.
# GPU tests run separately: scripts/gpu_tests.sh.
# The small-FLUX fixture (tests/data/flux_small) came from:
#   python3 -m inductor_prof profile flux --double-blocks 2 --single-blocks 4 --steps 3 --warmup 1 --ncu --out /tmp/small
source scripts/device_env.sh
mkdir -p "$OUT"
timeout 540 python3 scripts/bench_profile.py /tmp/flux-h100 --ncu --steps 10 2>&1 | tail -40 | tee "$OUT/bench.log"
python3 -m inductor_prof report /tmp/flux-h100 --top 40 > "$OUT/report.txt" 2>&1
tar czf "$OUT/flux-h100.tgz" --exclude=inductor_cache -C /tmp flux-h100
du -sh /tmp/flux-h100/* | tee -a "$OUT/bench.log"
