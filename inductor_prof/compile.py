"""torch.compile into the run's own Inductor cache, regional (repeated blocks) or whole-model."""
from __future__ import annotations

import os
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from .errors import UserError
from .targets.base import Target

MODES = ("default", "max-autotune", "max-autotune-no-cudagraphs")


@dataclass
class CompileOptions:
    mode: str = "default"
    regional: bool = True      # compile each repeated block (fast compile, same kernels) vs the whole model
    fullgraph: bool = True

    def validate(self) -> None:
        if self.mode not in MODES:
            raise UserError(f"unknown compile mode {self.mode!r}; use one of {', '.join(MODES)}")


@contextmanager
def isolated_cache(cache_dir: Path) -> Iterator[None]:
    """Inductor and Triton caches inside the run folder for the duration (fresh cache: every kernel built)."""
    keys = ("TORCHINDUCTOR_CACHE_DIR", "TRITON_CACHE_DIR")
    saved = {k: os.environ.get(k) for k in keys}
    cache_dir.mkdir(parents=True, exist_ok=True)
    os.environ["TORCHINDUCTOR_CACHE_DIR"] = str(cache_dir.resolve())
    os.environ["TRITON_CACHE_DIR"] = str((cache_dir / "triton").resolve())
    try:
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def compile_target(target: Target, opts: CompileOptions) -> str:
    """Compiles in place (lazily: the first call builds the kernels); returns how it was compiled."""
    import torch

    opts.validate()
    kwargs = {"fullgraph": opts.fullgraph, "dynamic": False}
    if opts.mode != "default":
        kwargs["mode"] = opts.mode
    torch._dynamo.reset()
    if opts.regional and target.blocks:
        for _, block in target.blocks:
            block.compile(**kwargs)
        return "regional"
    if opts.regional and not target.blocks:
        raise UserError(f"{target.name} declares no repeated blocks for regional compile; use --whole-model")
    kwargs["fullgraph"] = False  # a whole model may have graph breaks outside the blocks
    target.model.compile(**kwargs)
    return "whole-model"
