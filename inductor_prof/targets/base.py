from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Target:
    name: str
    model: Any                      # torch.nn.Module
    args: tuple = ()
    kwargs: dict = field(default_factory=dict)
    # (scope name, module) per repeated block, in call order: regional compile and Proton scopes use them.
    blocks: list[tuple[str, Any]] = field(default_factory=list)
    info: dict[str, Any] = field(default_factory=dict)

    def __call__(self):
        return self.model(*self.args, **self.kwargs)
