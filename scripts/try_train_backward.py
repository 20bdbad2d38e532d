"""A FLUX training step's eager forward and backward, alone, with CUDA_LAUNCH_BLOCKING=1 set by the caller:
which SDPA backends its attention backward runs and whether it completes; `--no-cudnn` disables cuDNN's SDPA.

    CUDA_LAUNCH_BLOCKING=1 python3 scripts/try_train_backward.py [--no-cudnn]
"""
import sys

import torch

from inductor_prof.targets import FluxOptions, build_flux
from inductor_prof.targets.flux_train import trained_blocks

if "--no-cudnn" in sys.argv:
    torch.backends.cuda.enable_cudnn_sdp(False)
target = build_flux("flux", FluxOptions(double_blocks=2, single_blocks=4))
for b in trained_blocks(target.model):
    b.requires_grad_(True)
with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA, torch.profiler.ProfilerActivity.CPU]) as prof:
    out = target()[0]
    loss = out.float().square().mean()
    loss.backward()
    torch.cuda.synchronize()
ops = {e.key for e in prof.key_averages() if "attention" in e.key}
print("ok; attention ops:", sorted(ops), "loss", float(loss))
