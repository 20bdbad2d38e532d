from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable


@dataclass
class Target:
    name: str
    model: Any                      # torch.nn.Module
    args: tuple = ()
    kwargs: dict = field(default_factory=dict)
    # (scope name, module) per repeated block, in call order: regional compile and Proton scopes use them.
    blocks: list[tuple[str, Any]] = field(default_factory=list)
    info: dict[str, Any] = field(default_factory=dict)
    # several named input sizes, name -> (args, kwargs), the first the default (args/kwargs are its inputs);
    # empty for a run of one size
    sizes: dict[str, tuple[tuple, dict]] = field(default_factory=dict)
    # a training target (`--train`): each step is forward, backward and optimizer (training.py); None: inference
    training: Any = None

    def __call__(self):
        if self.training is not None:
            return self.training.step(self.args, self.kwargs)
        return self.model(*self.args, **self.kwargs)

    def forward(self):
        """The model's call alone (a training target's forward, without its loss, backward and optimizer)."""
        return self.model(*self.args, **self.kwargs)

    def each_size(self) -> list[tuple[str | None, Callable[[], Any]]]:
        """(size name, one step at that size) per input size; [(None, self)] for a run of one size."""
        if len(self.sizes) < 2:
            return [(None, self)]
        return [(name, _call(self.model, args, kwargs, self.training)) for name, (args, kwargs) in self.sizes.items()]


def _call(model, args: tuple, kwargs: dict, training=None) -> Callable[[], Any]:
    if training is not None:
        return lambda: training.step(args, kwargs)
    return lambda: model(*args, **kwargs)
