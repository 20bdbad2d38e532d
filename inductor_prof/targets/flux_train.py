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
# cuDNN's SDPA backward fails at FLUX's attention (1, 24, 4608, 128), bf16, on an H200 with torch 2.11 and cuDNN
# 9.19, once the two layouts of its upstream gradient (the single blocks' slice of row pitch 15360, the double
# blocks' (B,S,H,D)) both run in one process: "mha_graph.execute(...).is_good()" false, then an illegal memory
# access. Each layout alone runs, and so do both with the gradient made contiguous (scripts/probe_cudnn_train.py).
# The step as a user has it runs SDPA without cuDNN (flash); the attention comparison times cuDNN with the copies.
SDPA_NOTE = ("cuDNN's SDPA off: its backward fails once FLUX's two upstream-gradient layouts run in one process "
             "(torch 2.11, H200); flash runs instead")


def trained_blocks(model, n: int = TRAINED_BLOCKS) -> list:
    return [*list(model.transformer_blocks)[-n:], *list(model.single_transformer_blocks)[-n:]] if n else []


def flux_training(target: Target, n: int = TRAINED_BLOCKS) -> Target:
    """`target` (build_flux's) made a training target in place: the trained blocks, loss and AdamW, checked."""
    import torch

    if len(target.sizes) > 1:
        from ..errors import UserError

        raise UserError("--train profiles one input size; leave out --resolutions")
    torch.backends.cuda.enable_cudnn_sdp(False)   # SDPA_NOTE: before the eager check's backward
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
                               "loss": "mse of the output against a fixed random target", "sdpa": SDPA_NOTE}
    return target
