"""`--train --nproc N`'s DDP wrap of a model with a trainable parameter its loss never reaches: DDP must be told
(find_unused_parameters), or its second step fails with "Expected to have finished reduction in the prior
iteration" (a reviewer's run: step 0 ran, step 1 raised)."""
import torch
from torch import nn

from inductor_prof.targets import data_parallel
from inductor_prof.targets.training import TrainingStep, build_training


class _Net(nn.Module):
    def __init__(self, spare: bool):
        super().__init__()
        self.used = nn.Linear(4, 4)
        self.spare = nn.Linear(4, 4) if spare else None   # trainable, never called in forward

    def forward(self, x):
        return self.used(x)


def _training(spare: bool):
    model = _Net(spare)
    step = TrainingStep(model, (torch.randn(2, 4),), lambda out: out.square().mean())
    return build_training("t:make", step, (torch.randn(2, 4),), {})


class _SeenDDP:
    """Stands in for DistributedDataParallel: what it was asked (no process group on a test's CPU)."""
    def __init__(self, module, **kwargs):
        self.module, self.kwargs, self.bucket_bytes_cap = module, kwargs, 25 * 2**20


def test_the_check_counts_the_trainable_parameters_the_loss_does_not_reach():
    # spare: a Linear's weight and bias, 2 tensors the loss never reaches; without it none
    assert _training(True).unused_parameters == 2 and _training(False).unused_parameters == 0


def test_ddp_is_told_of_unused_parameters_only_where_there_are_some(monkeypatch):
    monkeypatch.setattr(data_parallel, "world_size", lambda: 2)
    monkeypatch.setattr(torch.nn.parallel, "DistributedDataParallel", _SeenDDP)
    for spare, unused in ((True, 2), (False, 0)):
        training = _training(spare)
        record = data_parallel.wrap(training)
        assert training.model.kwargs["find_unused_parameters"] is (unused > 0)
        assert (record["unused_parameters"], record["find_unused_parameters"]) == (unused, unused > 0)
