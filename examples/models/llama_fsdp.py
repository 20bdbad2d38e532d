"""The Llama-style decoder of llama_decoder.py sharded over the ranks of `profile --nproc N` by FSDP2
(`fully_shard`, as torchtitan applies it to Llama): each decoder layer one FSDP unit, the embeddings and final
norm the root's, so every rank stores 1/N of each weight and a layer's forward starts with an all_gather of its
weights (NCCL) and frees them after (reshard_after_forward). bf16 weights, an inference step (no gradients: no
reduce_scatter). Data parallel: each rank gets its own token ids (seeded by its rank), the weights are the same
full model on every rank before sharding (one seed).

    inductor-prof profile examples.models.llama_fsdp:decoder_fsdp --nproc 2 --out runs/llama-fsdp2

Needs a process group (the ranks of `--nproc` start one).
"""
from __future__ import annotations

from examples.models.llama_decoder import build


def shard(model, device_type: str = "cuda"):
    """`model` sharded over all ranks of the default process group: each decoder layer, then the root."""
    import torch.distributed as dist
    from torch.distributed.device_mesh import init_device_mesh
    from torch.distributed.fsdp import fully_shard

    mesh = init_device_mesh(device_type, (dist.get_world_size(),))
    for layer in model.layers:
        fully_shard(layer, mesh=mesh)
    fully_shard(model, mesh=mesh)
    # fully_shard swaps each layer's class for FSDP<name>: regional compile finds the blocks by that name
    model._repeated_blocks = [type(model.layers[0]).__name__]
    return model


def rank_tokens(kwargs: dict, vocab_size: int) -> dict:
    """The inputs with token ids of this rank's own (data parallel), same shape and device."""
    import torch
    import torch.distributed as dist

    ids = kwargs["input_ids"]
    gen = torch.Generator(device="cpu").manual_seed(1000 + dist.get_rank())
    return {**kwargs, "input_ids": torch.randint(0, vocab_size, tuple(ids.shape), generator=gen).to(ids.device)}


def build_fsdp(device: str = "cuda", **kw):
    """(model sharded over the ranks, inputs): llama_decoder.build's model, same seed on every rank, its token
    ids the rank's own."""
    import torch

    torch.manual_seed(0)   # the same full weights on every rank before each keeps its shard
    model, kwargs = build(device=device, **kw)
    return shard(model, torch.device(device).type), rank_tokens(kwargs, model.config.vocab_size)


def decoder_fsdp():
    """8 layers of Llama-3.2-1B, causal, 2 x 2048 tokens a rank, FSDP2 over the ranks."""
    return build_fsdp()
