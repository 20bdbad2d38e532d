"""`package.module:factory`: the factory returns (model, inputs); inputs are args (tuple/list), kwargs (dict)
or an (args, kwargs) pair, or an `InputSets` of several such by name (inputs.py). A model with
`_repeated_blocks` (diffusers' convention, class names) gets regional compile and per-block scopes; `--blocks`
names them for one without (blocks.py).

The module is imported as `python -m` would: the current directory first on sys.path, so
`examples.models.llama_decoder:decoder` works from a checkout through the `inductor-prof` script too."""
from __future__ import annotations

import importlib
import inspect
import os
import sys

from ..errors import UserError, one_line
from .base import Target
from .blocks import declared_blocks
from .inputs import named_sets
from .training import PHASES, TrainingStep, build_training, check_kind
from .validate import check_devices, check_result


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
    return declared_blocks(model)


def _import(module_name: str, spec: str):
    """The module, with the current directory on sys.path; a failure names where it was looked for."""
    cwd = os.getcwd()
    if cwd not in sys.path and "" not in sys.path:
        sys.path.insert(0, cwd)
    try:
        return importlib.import_module(module_name)
    except ImportError as e:
        missing = getattr(e, "name", None)
        if missing and (module_name == missing or module_name.startswith(missing + ".")):
            raise UserError(f"cannot import {module_name!r} for target {spec!r}: no module {missing!r} in the "
                            f"current directory ({cwd}) or the installed packages") from e
        raise UserError(f"importing {module_name!r} for target {spec!r} failed: {e}") from e


def find_factory(spec: str):
    """The factory `spec` names, callable with no arguments; else one error line (before a run folder is made)."""
    module_name, _, attr = spec.partition(":")
    if not module_name or not attr:
        raise UserError(f"custom target {spec!r} must look like package.module:factory")
    module = _import(module_name, spec)
    factory = getattr(module, attr, None)
    if not callable(factory):
        raise UserError(f"{module_name} has no callable {attr!r}")
    try:
        inspect.signature(factory).bind()
    except TypeError:
        raise UserError(f"{spec} takes arguments {inspect.signature(factory)}; profile calls it with none "
                        "(give them defaults, or add a factory that passes them)") from None
    except ValueError:   # no signature to read (a builtin): calling it says
        pass
    return factory


def _call(spec: str, factory):
    """What the factory returned; its own failure is one line naming it (the user's code, not ours)."""
    try:
        return factory()
    except UserError:
        raise
    except (Exception, SystemExit) as e:
        raise UserError(f"{spec} raised {one_line(e)}") from e


def load_custom(spec: str, train: bool = False) -> Target:
    """The factory's target; under `train` its TrainingStep, checked (training.py) before any compile."""
    factory = find_factory(spec)
    result = _call(spec, factory)
    check_kind(spec, result, train)
    step = result if isinstance(result, TrainingStep) else None
    model, inputs = check_result(spec, (step.model, step.inputs) if step else result)
    sizes = {name: _split_inputs(v) for name, v in named_sets(inputs, spec).items()}
    args, kwargs = next(iter(sizes.values())) if sizes else _split_inputs(inputs)
    for size, (a, kw) in (sizes.items() or [(None, (args, kwargs))]):
        check_devices(spec, model, a, kw, size)
    n_params = sum(p.numel() for p in model.parameters())
    info = {"parameters": n_params, "class": type(model).__name__}
    training = None
    if step is not None:
        if len(sizes) > 1:
            raise UserError(f"{spec}: a TrainingStep takes the inputs of one size, not an InputSets")
        training = build_training(spec, step, args, kwargs)
        info["training"] = training_info(training)
    return Target(name=spec, model=model, args=args, kwargs=kwargs, blocks=repeated_blocks(model),
                  info=info, sizes=sizes, training=training)


def training_info(training) -> dict:
    """The manifest's target.training: what is trained and by which optimizer."""
    params = [p for g in training.optimizer.param_groups for p in g["params"]]
    return {"optimizer": type(training.optimizer).__name__, "trained_parameters": sum(p.numel() for p in params),
            "trained_tensors": len(params), "phases": list(PHASES)}
