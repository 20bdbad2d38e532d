"""`profile flux --train`: a FLUX fine-tuning step. The last TRAINED_BLOCKS double-stream and the last
TRAINED_BLOCKS single-stream blocks are trained in full (bf16 weights, AdamW), the rest frozen; the loss is the
mean squared error of the output against a fixed random target (a flow-matching loss has this shape: the
model's velocity against the noise-minus-data target). Backward then runs through every single-stream block
(the frozen ones for their input gradients only) and stops at the first trained double-stream block."""
from __future__ import annotations

from .base import Target
from .custom import training_info
from .training import DEFAULT_LR, TrainingStep, build_training

TRAINED_BLOCKS = 2   # of each kind, the last ones


def trained_blocks(model, n: int = TRAINED_BLOCKS) -> list:
    return [*list(model.transformer_blocks)[-n:], *list(model.single_transformer_blocks)[-n:]] if n else []


def flux_training(target: Target, n: int = TRAINED_BLOCKS) -> Target:
    """`target` (build_flux's) made a training target in place: the trained blocks, loss and AdamW, checked."""
    import torch

    model = target.model
    blocks = trained_blocks(model, n)
    for block in blocks:
        block.requires_grad_(True)
    model.train()
    params = [p for b in blocks for p in b.parameters()]
    optimizer = torch.optim.AdamW(params, lr=DEFAULT_LR)
    sample = target.kwargs["hidden_states"]
    goal = torch.randn(sample.shape, generator=torch.Generator(sample.device).manual_seed(1), device=sample.device,
                       dtype=sample.dtype)

    def loss_fn(output):
        prediction = output[0] if isinstance(output, (tuple, list)) else output.sample
        return torch.nn.functional.mse_loss(prediction.float(), goal.float())

    step = TrainingStep(model, target.kwargs, loss_fn, optimizer)
    target.training = build_training(target.name, step, target.args, target.kwargs)
    target.info["training"] = {**training_info(target.training), "trained_blocks": len(blocks),
                               "loss": "mse of the output against a fixed random target"}
    return target
