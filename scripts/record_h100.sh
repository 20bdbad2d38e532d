# Device session that recorded examples/runs/flux-h100 and examples/runs/flux-h100-768x1344 (2026-11-22): the
# full FLUX.1-dev profile with ncu, the attention benchmark and the measured ceilings, through the performance
# script, at 1024x1024 and at 768x1344. Everything worth keeping is written under $OUT.
# GPU tests run separately: scripts/gpu_tests.sh. The math-call costs: scripts/calibrate_math_flops.py.
# The small-FLUX fixture (tests/data/flux_small) came from (2026-11-21):
#   python3 -m inductor_prof profile flux --double-blocks 2 --single-blocks 4 --steps 3 --warmup 1 --ncu --out /tmp/small
source scripts/device_env.sh
mkdir -p "$OUT"
for run in "flux-h100" "flux-h100-768x1344 --height 768 --width 1344"; do
  set -- $run
  name=$1; shift
  timeout 560 python3 scripts/bench_profile.py /tmp/$name --ncu --steps 10 "$@" 2>&1 | tail -22 | tee "$OUT/$name.log"
  python3 -m inductor_prof report /tmp/$name --top 40 > "$OUT/$name-report.txt" 2>&1
  tar czf "$OUT/$name.tgz" --exclude=inductor_cache -C /tmp $name
done
