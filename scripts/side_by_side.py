"""What the side-by-side scripts (try_cuda_graphs.py, proton_cost.py) share: their arguments (a target, rounds
of synchronised steps) and the target's model with its inputs as a step calls them."""
from __future__ import annotations

import argparse
from typing import Any


def arguments(description: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("target", help="package.module:factory returning (model, inputs)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--steps", type=int, default=20, help="synchronised steps a round")
    return parser


def model_and_inputs(target: str) -> tuple[Any, tuple, dict]:
    """(model, positional inputs, keyword inputs) of the factory `target` names."""
    from inductor_prof.targets.custom import find_factory

    model, inputs = find_factory(target)()
    return (model, tuple(inputs), {}) if isinstance(inputs, (tuple, list)) else (model, (), inputs)
