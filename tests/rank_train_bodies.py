"""A rank program for `profile --train --nproc N` tests on a CPU (the `body` pipeline/rank.py runs in place of the
profile, under a real torchrun and gloo group): the tiny decoder's training step (examples/models/llama_train.py)
checked and wrapped by the profile's build stage (pipeline/build.py: targets/training.py, targets/data_parallel.py), one step run with
each phase in its torch.profiler range (pipeline/training.py's marking, without Proton), and what each rank saw
written to RUN/train<rank>.json. Run in the launch of rank_bodies.tensor_parallel_fsdp_then_training, inside its gloo
group."""
import json
import os
from types import SimpleNamespace


def tiny_train():
    """The factory the build stage resolves: the tiny decoder's TrainingStep on the CPU."""
    from examples.models.llama_train import training_step
    from rank_bodies import _tiny_decoder

    return training_step(**_tiny_decoder())


def _collectives_by_phase(trace_path):
    """(collective, phase) of each c10d op in a torch.profiler trace of the CPU (gloo records no
    record_param_comms there), by the phase range around it (drivers/torch_profiler/trace.phase_at, as library_ops tags a launch)."""
    from inductor_prof.drivers.torch_profiler import PHASE_RANGE
    from inductor_prof.drivers.torch_profiler.trace import phase_at

    events = json.load(open(trace_path))["traceEvents"]
    phases = [(e["ts"], e["ts"] + e.get("dur", 0), e["name"][len(PHASE_RANGE):]) for e in events
              if str(e.get("name", "")).startswith(PHASE_RANGE)]
    return sorted({(e["name"][len("c10d::"):].rstrip("_"), phase_at(phases, e["ts"])) for e in events
                   if str(e.get("name", "")).startswith("c10d::") and e.get("cat") == "cpu_op"})


def training(root, rank):
    import torch
    import torch.distributed as dist

    from examples.models.llama_fsdp import build_fsdp
    from examples.models.llama_tp import build_tp
    from inductor_prof.drivers.torch_profiler import phase_range
    from inductor_prof.pipeline import build
    from inductor_prof.targets.data_parallel import own_parallelism, wrap
    from rank_bodies import _tiny_decoder

    tiny = _tiny_decoder()
    torch.manual_seed(rank)   # different weights on each rank: DDP's first broadcast makes them rank 0's
    ctx = SimpleNamespace(opts=SimpleNamespace(target="rank_train_bodies:tiny_train", flux=None, train=True),
                          manifest=SimpleNamespace(set=lambda key, value: None), profile={}, log=lambda line: None)
    build.run(ctx)   # the profile's build stage: the factory's TrainingStep checked, then wrapped
    target, training = ctx.target, ctx.target.training
    ids = target.kwargs["input_ids"]
    ids.copy_((ids + rank) % tiny["vocab_size"])   # each rank its own batch, as data parallel does
    record = target.info.get("data_parallel")
    before = [p.detach().clone() for p in training.model.parameters()]
    training.phase = phase_range
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU]) as prof:
        loss = target()
    trace = os.path.join(root, f"trace{rank}.json")
    prof.export_chrome_trace(trace)
    after = torch.cat([p.detach().flatten() for p in training.model.parameters()])
    moved = float(max((p.detach() - b).abs().max() for p, b in zip(training.model.parameters(), before)))
    sums = [None, None]
    dist.all_gather_object(sums, after.double().sum().item())
    losses = [None, None]
    dist.all_gather_object(losses, float(loss.detach()))
    # the blocks compiled as regional compile does, reached inside DDP's forward (Dynamo's DDPOptimizer), AOTAutograd's
    # backward (aot_eager: no C++ compiler on the CPU): a second step still updates both ranks alike
    for _, block in target.blocks:
        block.compile(backend="aot_eager", fullgraph=True)
    target()
    compiled = [None, None]
    dist.all_gather_object(compiled, torch.cat([p.detach().flatten() for p in training.model.parameters()])
                           .double().sum().item())
    fsdp, _ = build_fsdp(**tiny)
    tp, _ = build_tp(**tiny)
    with open(os.path.join(root, f"train{rank}.json"), "w") as f:
        json.dump({"record": record, "collectives": _collectives_by_phase(trace), "params_equal": sums[0] == sums[1],
                   "moved": moved, "losses_differ": losses[0] != losses[1],
                   "again": wrap(training), "fsdp": own_parallelism(fsdp), "tp": own_parallelism(tp),
                   "blocks": len(target.blocks), "compiled_equal": compiled[0] == compiled[1],
                   "compiled_moved": compiled[0] != sums[0]}, f)
