#!/bin/bash
# The device session of issue 54 (try): profile --mode reduce-overhead on a regional and a whole-model target,
# the graph replays' attribution checked against default runs, then `try` on copies of shipped runs.
# Usage (device, repo root, after device_env.sh): bash scripts/device_try_session.sh PART OUT
part=$1; out=$2; r=/tmp/r; mkdir -p $r
P="python3 -m inductor_prof"
case $part in
a)
  timeout 110 $P profile examples.models.llama_decoder:decoder --mode reduce-overhead --no-ceilings --no-attention \
      --steps 5 --out $r/dec-ro; echo "rc=$?"
  timeout 80 $P profile examples.models.convnet:unet --whole-model --mode reduce-overhead --no-ceilings \
      --no-attention --steps 5 --out $r/unet-ro; echo "rc=$?"
  python3 scripts/check_graph_attribution.py $r/dec-ro ../examples/runs/llama-h100
  python3 scripts/check_graph_attribution.py $r/unet-ro ../examples/runs/unet-h200
  cp -r ../examples/runs/unet-h200 $r/unet
  timeout 90 $P try $r/unet -e cuda_graphs --rounds 4 --steps 10; echo "rc=$?"
  $P report $r/unet --top 3 --width 160 | tail -25
  ;;
b)
  timeout 70 $P profile examples.models.llama_decoder:decoder --mode reduce-overhead --no-ceilings --no-attention \
      --steps 5 --out $r/dec-ro; echo "rc=$?"
  python3 scripts/check_graph_attribution.py $r/dec-ro ../examples/runs/llama-h100
  for run in llama-h100 moe-h200; do cp -r ../examples/runs/$run $r/$run; done
  timeout 140 $P try $r/llama-h100 -e cuda_graphs -e coordinate_descent -e max_autotune --rounds 4 --steps 10 \
      --timeout 120; echo "rc=$?"
  timeout 80 $P try $r/moe-h200 -e cuda_graphs -e coordinate_descent --rounds 4 --steps 10 --timeout 70; echo "rc=$?"
  ;;
c)
  timeout 60 $P profile examples.models.llama_decoder:decoder --mode reduce-overhead --no-ceilings --no-attention \
      --steps 5 --out $r/dec-ro2 --force; echo "rc=$?"
  python3 scripts/check_graph_attribution.py $r/dec-ro2 ../examples/runs/llama-h100
  rm -rf $r/flux-h100; cp -r ../examples/runs/flux-h100 $r/flux-h100
  timeout 228 $P try $r/flux-h100 -e cuda_graphs -e coordinate_descent --rounds 3 --steps 5 --timeout 150
  echo "rc=$?"
  ;;
esac
tar czf $out/runs.tgz --exclude inductor_cache --exclude '*.hatchet' -C $r . 2>/dev/null
