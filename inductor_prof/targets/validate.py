"""Checks of what a `module:factory` returned, before any compile: each failure is one line naming what is
wrong (a traceback from deep inside torch.compile would not)."""
from __future__ import annotations

import inspect
from typing import Any, Iterator

from ..errors import UserError

INPUT_FORMS = "a tuple of args, a dict of kwargs, or an (args, kwargs) pair"


def check_result(spec: str, result: Any) -> tuple[Any, Any]:
    """(model, inputs) out of the factory's return value."""
    import torch

    if not isinstance(result, (tuple, list)) or len(result) != 2:
        got = f"a {type(result).__name__} of {len(result)} items" if isinstance(result, (tuple, list)) \
            else type(result).__name__
        raise UserError(f"{spec} must return (model, inputs); got {got}")
    model, inputs = result
    if not isinstance(model, torch.nn.Module):
        raise UserError(f"{spec} returned a {type(model).__name__} as its model; expected a torch.nn.Module "
                        f"(return (model, inputs))")
    if inputs is None:
        raise UserError(f"{spec} returned None as its inputs; return {INPUT_FORMS}")
    return model, inputs


def _tensors(value, path: str) -> Iterator[tuple[str, Any]]:
    import torch

    if isinstance(value, torch.Tensor):
        yield path, value
    elif isinstance(value, (tuple, list)):
        for i, v in enumerate(value):
            yield from _tensors(v, f"{path}[{i}]")
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _tensors(v, f"{path}[{k!r}]")


def _argument_names(model, args: tuple) -> list[str]:
    """`forward`'s parameter name for each positional input, where the signature says it."""
    try:
        params = list(inspect.signature(model.forward).parameters.values())
    except (TypeError, ValueError):
        params = []
    names = []
    for i in range(len(args)):
        p = params[i] if i < len(params) else None
        if p is not None and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            names.append(f"{p.name!s} (positional {i})")
        else:
            names.append(f"args[{i}]")
    return names


def check_devices(spec: str, model, args: tuple, kwargs: dict, size: str | None = None) -> None:
    """Every input tensor on a device the model's weights are on: a cpu tensor given to a cuda model fails
    inside the compiled graph otherwise, naming no argument. `size`: the InputSets entry, named in the error."""
    devices = {t.device for t in (*model.parameters(), *model.buffers())}
    if not devices:
        return
    named = [*zip(_argument_names(model, args), args), *kwargs.items()]
    for name, value in named:
        for path, t in _tensors(value, name):
            if t.device not in devices:
                where = ", ".join(sorted(str(d) for d in devices))
                of = f" of size {size!r}" if size is not None else ""
                raise UserError(f"{spec}: input {path}{of} is on {t.device} but the model is on {where}; "
                                f"create it there (device={where.split(', ')[0]!r}) or .to() it")
