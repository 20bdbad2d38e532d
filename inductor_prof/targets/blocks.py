"""Which submodules of a model are its repeated blocks: what regional compile compiles one by one and what
gets a Proton scope each. Named by class, as diffusers' `_repeated_blocks` does; `--blocks` names them for a
model that declares none (transformers' LlamaModel, most hand-written models)."""
from __future__ import annotations

from collections import Counter

from ..errors import UserError


def blocks_of_classes(model, classes) -> list[tuple[str, object]]:
    """(module path, module) of every submodule whose class name is in `classes`, in definition order."""
    wanted = set(classes or ())
    return [(name, m) for name, m in model.named_modules() if name and type(m).__name__ in wanted]


def declared_blocks(model) -> list[tuple[str, object]]:
    """The blocks the model declares in `_repeated_blocks` (class names), if any."""
    return blocks_of_classes(model, getattr(model, "_repeated_blocks", None))


def stacked_classes(model) -> Counter:
    """Class name -> count of the modules held in a ModuleList or Sequential at least twice: the layer
    stacks a user would name in --blocks (Linear repeats too, but is no block)."""
    import torch

    counts: Counter = Counter()
    for m in model.modules():
        if isinstance(m, (torch.nn.ModuleList, torch.nn.Sequential)):
            counts.update(type(child).__name__ for child in m.children())
    return Counter({name: n for name, n in counts.items() if n >= 2})


def candidates_text(model) -> str:
    """'LlamaDecoderLayer (8)' for the error messages; 'none found' when the model stacks no layers."""
    found = stacked_classes(model).most_common()
    return ", ".join(f"{name} ({n})" for name, n in found) if found else "none found"


def named_blocks(model, classes: list[str]) -> list[tuple[str, object]]:
    """The blocks of `--blocks CLASS[,CLASS]`; a class that matches no submodule is an error naming the
    classes the model does stack."""
    missing = [c for c in classes if not blocks_of_classes(model, [c])]
    if missing:
        raise UserError(f"--blocks {', '.join(missing)}: no submodule of {type(model).__name__} has that class; "
                        f"classes it stacks: {candidates_text(model)}")
    return blocks_of_classes(model, classes)
