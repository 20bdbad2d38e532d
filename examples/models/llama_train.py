"""A Llama-style decoder's training step, as a `--train` target:

    inductor-prof profile examples.models.llama_train:decoder_train --train --out runs/llama-train
    inductor-prof profile examples.models.llama_train:decoder_train --train --whole-model --out runs/llama-train-whole

The decoder of llama_decoder.py (Llama-3.2-1B shapes, SDPA causal with GQA, bf16, random weights) with 4 layers,
every parameter trained (the embedding too), AdamW; the loss is next-token cross-entropy through the output
head tied to the embedding, as Llama 3.2 ties them: logits = hidden @ embedding^T over the 128256-token
vocabulary, in float32, for 2 sequences of 2048 tokens (labels: the ids shifted by one).
"""
from __future__ import annotations

from examples.models.llama_decoder import BATCH, SEQ, build

TRAIN_LAYERS = 4
LR = 1e-4


def training_step(layers: int = TRAIN_LAYERS, batch: int = BATCH, seq: int = SEQ, device: str = "cuda", dtype=None,
                  **shape):
    """TrainingStep of the decoder (`shape` overrides the published shapes: the tests build a tiny one)."""
    import torch
    import torch.nn.functional as F

    from inductor_prof.targets import TrainingStep

    model, kwargs = build(layers=layers, batch=batch, seq=seq, device=device, dtype=dtype, **shape)
    model.requires_grad_(True).train()
    ids = kwargs["input_ids"]
    labels = ids[:, 1:].reshape(-1)

    def next_token_loss(out):
        hidden = out.last_hidden_state[:, :-1]
        logits = hidden @ model.embed_tokens.weight.t()        # the tied output head
        return F.cross_entropy(logits.float().reshape(-1, logits.shape[-1]), labels)

    optimizer = torch.optim.AdamW(model.parameters(), lr=LR)
    return TrainingStep(model, kwargs, next_token_loss, optimizer)


def decoder_train():
    """4 layers of Llama-3.2-1B, causal, 2 x 2048 tokens, next-token loss, AdamW over every parameter."""
    return training_step()
