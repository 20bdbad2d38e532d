"""ProfileOptions: what `profile` is asked to do (the CLI's options, the Python API's argument), in a module of its
own so the stage table can name its type without importing the pipeline's entry."""
from __future__ import annotations

from dataclasses import dataclass, field

from ..settings import Settings
from ..targets import FluxOptions
from .compile import CompileOptions


@dataclass
class ProfileOptions:
    target: str = "flux"
    out: str = "runs/flux"
    steps: int = 5
    warmup: int = 2
    force: bool = False
    ceilings: bool = True
    ncu: bool = False
    attention: bool = True
    train: bool = False           # profile the target's training step: forward, backward, optimizer
    nproc: int | None = None      # ranks under torchrun, one GPU each (ranks.py); None: this process, one GPU
    settings: Settings = field(default_factory=Settings)
    flux: FluxOptions = field(default_factory=FluxOptions)
    compile: CompileOptions = field(default_factory=CompileOptions)
