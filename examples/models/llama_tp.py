"""The Llama-style decoder of llama_decoder.py split over the ranks of `profile --nproc N` by tensor parallelism
(Megatron's plan, as torchtitan applies it to Llama): in each layer q, k, v, gate and up projections split by
output columns, o and down by input rows, so each layer's attention and MLP end in one all_reduce (NCCL) of the
hidden states. Each rank holds 32/N query and 8/N key-value heads and 8192/N MLP columns; every rank gets the
same token ids. Random weights from one seed on every rank, as tensor parallelism expects (each rank keeps its
shard of the same full weight).

    inductor-prof profile examples.models.llama_tp:decoder_tp --nproc 2 --out runs/llama-tp2

Needs a process group (the ranks of `--nproc` start one); N must divide 8 (the key-value heads).
"""
from __future__ import annotations

from examples.models.llama_decoder import build

# module path in a LlamaDecoderLayer -> how it is split
PLAN = {"self_attn.q_proj": "colwise", "self_attn.k_proj": "colwise", "self_attn.v_proj": "colwise",
        "self_attn.o_proj": "rowwise", "mlp.gate_proj": "colwise", "mlp.up_proj": "colwise",
        "mlp.down_proj": "rowwise"}


def parallelize(model, device_type: str = "cuda"):
    """Each decoder layer of `model` split over all ranks of the default process group (PLAN)."""
    import torch.distributed as dist
    from torch.distributed.device_mesh import init_device_mesh
    from torch.distributed.tensor.parallel import ColwiseParallel, RowwiseParallel, parallelize_module

    mesh = init_device_mesh(device_type, (dist.get_world_size(),))
    styles = {"colwise": ColwiseParallel, "rowwise": RowwiseParallel}
    for layer in model.layers:
        parallelize_module(layer, mesh, {path: styles[style]() for path, style in PLAN.items()})
    return model


def build_tp(device: str = "cuda", **kw):
    """(model split over the ranks, inputs): llama_decoder.build's model, same seed on every rank."""
    import torch

    torch.manual_seed(0)   # the same full weights on every rank: each keeps its own shard of them
    model, kwargs = build(device=device, **kw)
    return parallelize(model, torch.device(device).type), kwargs


def decoder_tp():
    """8 layers of Llama-3.2-1B, causal, 2 x 2048 tokens, tensor parallel over the ranks."""
    return build_tp()
