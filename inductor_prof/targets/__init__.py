"""Targets: what to profile. Each returns a `Target`: a model, its example inputs, and its repeated blocks."""
from __future__ import annotations

from .base import Target
from .custom import load_custom
from .flux import FLUX_PRESETS, FluxOptions, build_flux

KNOWN = tuple(FLUX_PRESETS)


def check_target_name(name: str) -> None:
    """Cheap validation before any GPU work: a known preset or a module:factory spec."""
    from ..errors import UserError

    if name not in FLUX_PRESETS and ":" not in name:
        raise UserError(f"unknown target {name!r}; known targets: {', '.join(KNOWN)}, or package.module:factory")


def resolve(name: str, flux: FluxOptions | None = None) -> Target:
    """`flux`, `flux-schnell`, or `package.module:factory`."""
    from ..errors import UserError

    if name in FLUX_PRESETS:
        return build_flux(name, flux or FluxOptions())
    if ":" in name:
        return load_custom(name)
    raise UserError(f"unknown target {name!r}; known targets: {', '.join(KNOWN)}, or package.module:factory")


__all__ = ["check_target_name", "Target", "FluxOptions", "resolve", "KNOWN", "build_flux", "load_custom"]
