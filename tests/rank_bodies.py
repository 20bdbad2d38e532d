"""Rank programs for `profile --nproc` tests on a CPU: each is the `body` a rank of pipeline/rank.py runs (named in
the spec in place of the profile), over a real torchrun and gloo process group; what it does is chosen by the
spec's target (`ok`, `fail`, `segv`, `hang`)."""
import json
import os
import signal
import time

from inductor_prof.pipeline.rank import rank_options


def gloo(spec, rank, local_rank, root):
    import torch
    import torch.distributed as dist

    dist.init_process_group("gloo")
    x = torch.ones(4)
    dist.all_reduce(x)   # a real collective: both ranks are up and joined
    opts = rank_options(spec["options"], rank, root)
    os.makedirs(opts.out)
    with open(os.path.join(opts.out, "options.json"), "w") as f:
        json.dump({"out": opts.out, "ncu": opts.ncu, "nproc": opts.nproc, "sum": x.tolist(),
                   "nvls": os.environ.get("NCCL_NVLS_ENABLE")}, f)
    target = spec["options"]["target"]
    if rank == 1 and target == "fail":
        print("rank one is about to break", flush=True)
        raise RuntimeError("rank one broke")
    if rank == 1 and target == "segv":
        os.kill(os.getpid(), signal.SIGSEGV)
    if target != "ok":
        with open(os.path.join(root, f"ready{rank}"), "w") as f:   # the test interrupts once both are here
            f.write(str(os.getpid()))
        time.sleep(120)   # until torchrun ends this rank (SIGTERM), another having failed or an interrupt
    dist.destroy_process_group()
