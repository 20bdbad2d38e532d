"""The compiled code of a CUDA-graphs compile run without its graphs: cudagraph trees run a function eagerly on
its warm-up path before recording it, and `config.triton.force_cudagraphs_warmup` sends every call there (the same
compiled module, kernels and library calls; no recompile, the run's graphs kept for later replays)."""
from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

FLAG = "force_cudagraphs_warmup"


@contextmanager
def graphs_off() -> Iterator[None]:
    """Inside, every call of a cudagraph-tree function runs on its eager warm-up path."""
    import torch._inductor.config as inductor_config

    if not hasattr(inductor_config.triton, FLAG):
        raise RuntimeError(f"this torch has no torch._inductor.config.triton.{FLAG}: its compiled code cannot be "
                           "run without its CUDA graphs")
    with inductor_config.patch({f"triton.{FLAG}": True}):
        yield
