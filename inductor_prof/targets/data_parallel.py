"""A training step on several ranks (`profile --train --nproc N`): each rank runs the same training step, its
model wrapped in DistributedDataParallel unless the factory already spread it over the ranks itself (DDP,
FSDP, FSDP2's fully_shard, or parameters that are DTensors: tensor parallel). DDP all-reduces the gradients
in buckets from autograd's hooks while backward still computes, which is what a single-node training step does.

Only the training step's model is wrapped (`Training.model`): `Target.model` stays the factory's module, so
regional compile, the block scopes and provenance see the same module tree as on one GPU, and DDP calls the
compiled module from its own forward. Dynamo compiles a graph reached inside DDP's forward with its DDPOptimizer
(torch's default `optimize_ddp`): the graph split where DDP's gradient buckets end, so that each bucket's
all-reduce can start while the rest of backward computes; the record says the setting."""
from __future__ import annotations

from typing import Any


def world_size() -> int:
    """Ranks in the default process group; 1 outside one (one GPU, or torch without distributed)."""
    import torch.distributed as dist

    return dist.get_world_size() if dist.is_available() and dist.is_initialized() else 1


def own_parallelism(model) -> str | None:
    """How the factory already spread `model` over the ranks (the wrapper's name), None where it did not."""
    import torch

    from torch.nn.parallel import DistributedDataParallel

    kinds: list[tuple[type, str]] = [(DistributedDataParallel, "DistributedDataParallel")]
    try:
        from torch.distributed.fsdp import FullyShardedDataParallel

        kinds.append((FullyShardedDataParallel, "FullyShardedDataParallel"))
    except ImportError:   # a torch built without distributed
        pass
    try:
        from torch.distributed.fsdp import FSDPModule   # what fully_shard (FSDP2) makes a module

        kinds.append((FSDPModule, "fully_shard (FSDP2)"))
    except ImportError:   # older torch: FSDP2 shows as DTensor parameters below
        pass
    for module in model.modules() if isinstance(model, torch.nn.Module) else [model]:
        for kind, name in kinds:
            if isinstance(module, kind):
                return name
    try:
        from torch.distributed.tensor import DTensor
    except ImportError:
        return None
    if any(isinstance(p, DTensor) for p in model.parameters()):
        return "DTensor parameters (tensor parallel or FSDP2)"
    return None


def _device_ids(model) -> list[int] | None:
    """DDP's device_ids: the GPU the model's parameters are on; None for a CPU model (gloo)."""
    first = next(iter(model.parameters()), None)
    return [first.device.index] if first is not None and first.device.type == "cuda" else None


def wrap(training) -> dict[str, Any] | None:
    """Under several ranks, `training`'s model in DistributedDataParallel (torch's defaults: gradient buckets of
    bucket_bytes_cap, buffers broadcast from rank 0 at each forward) unless the factory spread it itself; the
    manifest's record of what was done. None for one rank or an inference target."""
    ranks = world_size()
    if training is None or ranks < 2:
        return None
    own = own_parallelism(training.model)
    if own is not None:
        return {"world_size": ranks, "wrapper": own, "wrapped_by": "factory"}
    from torch.nn.parallel import DistributedDataParallel

    import torch._dynamo.config as dynamo_config

    # a trainable parameter the loss never reaches (build_training's check counted them) would stop DDP at the
    # second step ("Expected to have finished reduction in the prior iteration"): DDP looks for them each step then
    unused = int(getattr(training, "unused_parameters", 0))
    ddp = DistributedDataParallel(training.model, device_ids=_device_ids(training.model),
                                  find_unused_parameters=unused > 0)
    training.model = ddp
    # what Dynamo does with graphs compiled inside DDP's forward (torch's default: split at the buckets' bounds,
    # DDPOptimizer), so a rank's kernels can differ from one GPU's
    return {"world_size": ranks, "wrapper": "DistributedDataParallel", "wrapped_by": "inductor-prof",
            "bucket_bytes": int(ddp.bucket_bytes_cap), "optimize_ddp": str(dynamo_config.optimize_ddp),
            "unused_parameters": unused, "find_unused_parameters": unused > 0}
