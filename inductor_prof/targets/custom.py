"""`package.module:factory`: the factory returns (model, inputs); inputs are args (tuple/list), kwargs (dict)
or an (args, kwargs) pair, or an `InputSets` of several such by name (inputs.py). A model with
`_repeated_blocks` (diffusers' convention, class names) gets regional compile and per-block scopes."""
from __future__ import annotations

import importlib

from ..errors import UserError
from .base import Target
from .inputs import named_sets


def _split_inputs(inputs) -> tuple[tuple, dict]:
    if isinstance(inputs, dict):
        return (), dict(inputs)
    if (isinstance(inputs, (tuple, list)) and len(inputs) == 2
            and isinstance(inputs[0], (tuple, list)) and isinstance(inputs[1], dict)):
        return tuple(inputs[0]), dict(inputs[1])
    if isinstance(inputs, (tuple, list)):
        return tuple(inputs), {}
    return (inputs,), {}


def repeated_blocks(model) -> list[tuple[str, object]]:
    classes = set(getattr(model, "_repeated_blocks", None) or ())
    return [(name, m) for name, m in model.named_modules() if type(m).__name__ in classes]


def load_custom(spec: str) -> Target:
    module_name, _, attr = spec.partition(":")
    if not module_name or not attr:
        raise UserError(f"custom target {spec!r} must look like package.module:factory")
    try:
        module = importlib.import_module(module_name)
    except ImportError as e:
        raise UserError(f"cannot import {module_name!r} for target {spec!r}: {e}") from e
    factory = getattr(module, attr, None)
    if not callable(factory):
        raise UserError(f"{module_name} has no callable {attr!r}")
    result = factory()
    if not isinstance(result, (tuple, list)) or len(result) != 2:
        raise UserError(f"{spec} must return (model, inputs); got {type(result).__name__}")
    model, inputs = result
    sizes = {name: _split_inputs(v) for name, v in named_sets(inputs, spec).items()}
    args, kwargs = next(iter(sizes.values())) if sizes else _split_inputs(inputs)
    n_params = sum(p.numel() for p in model.parameters())
    return Target(name=spec, model=model, args=args, kwargs=kwargs, blocks=repeated_blocks(model),
                  info={"parameters": n_params, "class": type(model).__name__}, sizes=sizes)
