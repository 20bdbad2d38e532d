# Device session that recorded the example runs under examples/runs (2026-11-22, see its README): each named
# run (all when none is named) is profiled into /tmp/NAME, rendered, and tarred under $OUT without its
# Inductor cache. GPU tests run separately: scripts/gpu_tests.sh. The math-call costs:
# scripts/calibrate_math_flops.py. The small-FLUX fixture (tests/data/flux_small) came from (2026-11-21):
#   python3 -m inductor_prof profile flux --double-blocks 2 --single-blocks 4 --steps 3 --warmup 1 --ncu --out /tmp/small
#   usage: bash scripts/record_h100.sh [flux-h100 flux-h100-768x1344 llama-h100 ...]
source scripts/device_env.sh
mkdir -p "$OUT"
declare -A RUNS=(
  [flux-h100]="scripts/bench_profile.py /tmp/flux-h100 --ncu --steps 10"
  [flux-h100-768x1344]="scripts/bench_profile.py /tmp/flux-h100-768x1344 --ncu --steps 10 --height 768 --width 1344"
  [llama-h100]="-m inductor_prof profile examples.models.llama_decoder:decoder --ncu --steps 10 --out /tmp/llama-h100"
  [llama-padded-h100]="-m inductor_prof profile examples.models.llama_decoder:decoder_padded --steps 5 --out /tmp/llama-padded-h100"
  [llama-sizes-h100]="-m inductor_prof profile examples.models.llama_decoder:decoder_sizes --dynamic --steps 5 --no-attention --out /tmp/llama-sizes-h100"
  [flux-small-sizes-h100]="-m inductor_prof profile flux --double-blocks 2 --single-blocks 2 --dynamic --resolutions 1024x1024,512x512 --steps 3 --warmup 1 --ncu --no-attention --out /tmp/flux-small-sizes-h100"
)
names=("$@"); [ ${#names[@]} -gt 0 ] || names=(flux-h100 flux-h100-768x1344 llama-h100 llama-padded-h100 llama-sizes-h100 flux-small-sizes-h100)
for name in "${names[@]}"; do
  t0=$(date +%s)
  timeout 560 python3 ${RUNS[$name]} 2>&1 | grep -v "Warning\|warn(" | tail -22 | tee "$OUT/$name.log"
  echo "$name: $(( $(date +%s) - t0 )) s"
  python3 -m inductor_prof report /tmp/$name --top 40 > "$OUT/$name-report.txt" 2>&1
  tar czf "$OUT/$name.tgz" --exclude=inductor_cache -C /tmp $name
done
