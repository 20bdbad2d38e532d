source scripts/device_env.sh
set -x
python3 -c "import torch, triton; print(torch.__version__, triton.__version__, torch.cuda.get_device_name())"
which ncu; ls -d /usr/local/cuda*/bin/ncu /opt/nvidia/nsight-compute/* 2>/dev/null
mkdir -p $OUT
time python3 -m inductor_prof profile flux --double-blocks 2 --single-blocks 4 --steps 3 --warmup 1 --out /tmp/small 2>&1 | tee $OUT/small.log
python3 -m inductor_prof report /tmp/small --top 15 2>&1 | tee -a $OUT/small.log
tar czf $OUT/small.tgz -C /tmp small
time python3 -m inductor_prof profile flux --steps 5 --out /tmp/full 2>&1 | tee $OUT/full.log
python3 -m inductor_prof report /tmp/full --top 25 2>&1 | tee -a $OUT/full.log
tar czf $OUT/full.tgz --exclude=inductor_cache -C /tmp full
find /tmp/full/inductor_cache -name "*.py" | head -3
du -sh /tmp/full/* 
