"""Training targets: a factory returns `TrainingStep(model, inputs, loss_fn, optimizer)` and `profile --train`
profiles one optimisation step of it: forward (the model, then `loss_fn(output)`), backward
(`loss.backward()`), optimizer (`optimizer.step()`, then `zero_grad(set_to_none=True)`).

The tool runs the three phases itself, rather than calling a user's own `step()`, so that it can mark where
each begins and ends (Proton scopes, torch.profiler ranges, memory peaks) and compile the optimizer step.
Backward runs on the calling thread (`torch.autograd.set_multithreading_enabled(False)`): autograd otherwise
runs a CUDA backward on a device thread of its own, where the Proton scopes of the calling thread do not reach.

Checks before anything is compiled (each one line naming the problem, exit 2): the factory returned an
inference step (model, inputs) under --train, or a TrainingStep without --train; the optimizer updates tensors
that are not the model's parameters; no parameter is trainable; the loss of one eager forward is not a scalar,
or does not depend on any parameter the optimizer updates (backward would compute nothing for it)."""
from __future__ import annotations

from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from typing import Any, Callable, ContextManager, Iterator

from ..errors import UserError

PHASES = ("forward", "backward", "optimizer")
DEFAULT_LR = 1e-4   # the default AdamW's learning rate: kernels do not depend on it


@dataclass
class TrainingStep:
    """What a training factory returns. inputs: as for (model, inputs) (args, kwargs, an (args, kwargs)
    pair, one tensor); loss_fn: the model's output -> a scalar tensor; optimizer: a torch.optim.Optimizer over
    the model's parameters, None for AdamW(lr=1e-4) over those that require grad."""
    model: Any
    inputs: Any
    loss_fn: Callable[[Any], Any]
    optimizer: Any = None


def no_phase(name: str) -> ContextManager:
    return nullcontext()


class Training:
    """One training step of a model: `step(args, kwargs)` runs the three phases, each inside `phase(name)`
    (set by the profile: Proton scopes, torch.profiler ranges, memory peaks); `optimizer_step` is the
    optimizer's step, replaced by its compiled form by the compile stage."""

    def __init__(self, model, loss_fn: Callable[[Any], Any], optimizer):
        self.model, self.loss_fn, self.optimizer = model, loss_fn, optimizer
        self.optimizer_step: Callable[[], Any] = optimizer.step
        self.phase: Callable[[str], ContextManager] = no_phase
        self.unused_parameters = 0   # trainable parameters the loss does not reach (check_loss)

    def step(self, args: tuple, kwargs: dict):
        import torch

        with self.phase("forward"):
            loss = self.loss_fn(self.model(*args, **kwargs))
        with self.phase("backward"), torch.autograd.set_multithreading_enabled(False):
            loss.backward()
        with self.phase("optimizer"):
            self.optimizer_step()
            self.optimizer.zero_grad(set_to_none=True)
        return loss

    def compile_optimizer(self) -> str:
        """The optimizer step under torch.compile (Inductor's foreach kernels); where Dynamo cannot trace it,
        it runs eagerly between graph breaks (fullgraph=False), as torch allows."""
        import torch

        optimizer = self.optimizer

        def optimizer_step():   # as torch's compiled-optimizer recipe writes it: the step inside a function
            optimizer.step()

        self.optimizer_step = torch.compile(optimizer_step, fullgraph=False)
        return type(self.optimizer).__name__


def default_optimizer(model):
    import torch

    return torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=DEFAULT_LR)


def check_kind(spec: str, result: Any, train: bool) -> None:
    """A TrainingStep under --train, anything else without it: else one line saying which to do."""
    if train and not isinstance(result, TrainingStep):
        raise UserError(f"{spec} returned an inference step ({type(result).__name__}), which calls no backward; "
                        "under --train return inductor_prof.targets.TrainingStep(model, inputs, loss_fn, optimizer)")
    if not train and isinstance(result, TrainingStep):
        raise UserError(f"{spec} returned a TrainingStep: pass --train to profile its training step")


def check_optimizer(spec: str, model, optimizer) -> None:
    """The optimizer updates parameters of this model only, and at least one that requires grad."""
    import torch

    if not isinstance(optimizer, torch.optim.Optimizer):
        raise UserError(f"{spec}: optimizer is a {type(optimizer).__name__}, not a torch.optim.Optimizer")
    own = {id(p) for p in model.parameters()}
    updated = [p for group in optimizer.param_groups for p in group["params"]]
    foreign = [p for p in updated if id(p) not in own]
    if foreign:
        raise UserError(f"{spec}: the optimizer's parameters are not the model's: {len(foreign)} of its "
                        f"{len(updated)} tensors are not parameters of the {type(model).__name__} (build it from "
                        "model.parameters())")
    if not any(p.requires_grad for p in updated):
        raise UserError(f"{spec}: none of the optimizer's {len(updated)} parameters requires grad: nothing to "
                        "train (requires_grad_(True) on the trainable part)")


def check_loss(spec: str, loss, optimizer, model=None) -> int:
    """The loss of one eager forward: a floating scalar tensor whose graph reaches the optimizer's
    parameters. Returns how many trainable parameters (the optimizer's and `model`'s that require grad) it does
    not reach: DistributedDataParallel must be told of them or its second step fails."""
    import torch

    if not isinstance(loss, torch.Tensor):
        raise UserError(f"{spec}: loss_fn returned a {type(loss).__name__}, not a tensor; return a scalar loss")
    if loss.numel() != 1:
        raise UserError(f"{spec}: the loss is not a scalar: loss_fn returned a tensor of shape "
                        f"{tuple(loss.shape)}; reduce it (.mean(), .sum())")
    if not loss.dtype.is_floating_point:
        raise UserError(f"{spec}: the loss is a {loss.dtype} tensor; backward needs a floating one")
    if loss.grad_fn is None:
        raise UserError(f"{spec}: the loss does not depend on any parameter that requires grad: backward would "
                        "compute nothing (does loss_fn detach the output, or run under no_grad?)")
    params = [p for group in optimizer.param_groups for p in group["params"] if p.requires_grad]
    known = {id(p) for p in params}
    others = [p for p in (model.parameters() if model is not None else ()) if p.requires_grad and id(p) not in known]
    reached = torch.autograd.grad(loss, params + others, allow_unused=True, retain_graph=False)
    if all(g is None for g in reached[:len(params)]):
        raise UserError(f"{spec}: the loss does not depend on any of the optimizer's {len(params)} parameters: "
                        "backward would leave them without gradients")
    return sum(g is None for g in reached)


def build_training(spec: str, step: TrainingStep, args: tuple, kwargs: dict) -> Training:
    """The checked Training of a factory's TrainingStep (one eager forward and its gradients, for the loss)."""
    if not callable(step.loss_fn):
        raise UserError(f"{spec}: loss_fn is a {type(step.loss_fn).__name__}, not a callable of the model's output")
    if step.optimizer is None and not any(p.requires_grad for p in step.model.parameters()):
        raise UserError(f"{spec}: no parameter of the {type(step.model).__name__} requires grad: nothing to train "
                        "(requires_grad_(True) on the trainable part)")
    optimizer = step.optimizer if step.optimizer is not None else default_optimizer(step.model)
    check_optimizer(spec, step.model, optimizer)
    try:
        loss = step.loss_fn(step.model(*args, **kwargs))
    except UserError:
        raise
    except Exception as e:
        from ..errors import one_line

        raise UserError(f"{spec}: the eager forward and loss failed: {one_line(e)}") from e
    training = Training(step.model, step.loss_fn, optimizer)
    training.unused_parameters = check_loss(spec, loss, optimizer, step.model)
    return training


@contextmanager
def phases_around(training: Training | None, phase: Callable[[str], ContextManager]) -> Iterator[None]:
    """Inside: `training`'s phases wrapped in `phase(name)`; no-op for an inference target."""
    if training is None:
        yield
        return
    before = training.phase
    training.phase = phase
    try:
        yield
    finally:
        training.phase = before
