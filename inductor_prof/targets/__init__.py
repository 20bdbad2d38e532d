"""Targets: what to profile. Each returns a `Target`: a model, its example inputs, and its repeated blocks."""
from __future__ import annotations

from .base import Target
from .custom import find_factory, load_custom
from .flux import FLUX_PRESETS, FluxOptions, build_flux, check_size, import_flux_class, parse_resolutions, \
    torch_dtype
from .inputs import InputSets
from .training import PHASES, TrainingStep

KNOWN = tuple(FLUX_PRESETS)


def check_target_name(name: str) -> None:
    """Cheap validation before any GPU work: a known preset or a module:factory spec."""
    from ..errors import UserError

    if name not in FLUX_PRESETS and ":" not in name:
        raise UserError(f"unknown target {name!r}; known targets: {', '.join(KNOWN)}, or package.module:factory")


def refuse_flux_options(name: str, given: dict[str, object]) -> None:
    """FLUX's own options (option name -> value, None: not given) with a module:factory: one line, not ignored."""
    from ..errors import UserError

    if name in FLUX_PRESETS:
        return
    for option, value in given.items():
        if value is not None:
            raise UserError(f"{option} is for the flux targets; a module:factory builds its own model and inputs "
                            "(README: profile your own model)")


def resolution_options(name: str, resolutions: str | None, height: int | None, width: int | None) -> dict:
    """FluxOptions' height, width and resolutions from `--resolutions` (checked, the first size the default)
    or --height/--width (None: not given, 1024), checked for FLUX before any GPU work."""
    from ..errors import UserError

    if resolutions is None:
        size = {"height": 1024 if height is None else height, "width": 1024 if width is None else width}
        if name in FLUX_PRESETS:
            check_size("--height/--width", size["width"], size["height"])
        return size
    if name not in FLUX_PRESETS:
        raise UserError("--resolutions is for the flux targets; a module:factory returns an InputSets of named "
                        "inputs instead (README: profile your own model)")
    if height is not None or width is not None:
        raise UserError("--resolutions gives every size (WIDTHxHEIGHT, the first the default): leave out "
                        "--height/--width")
    sizes = parse_resolutions(resolutions)
    return {"height": sizes[0][1], "width": sizes[0][2], "resolutions": tuple(n for n, _, _ in sizes)}


def check_target(name: str, flux: FluxOptions | None = None) -> None:
    """What can be checked before a run folder is made: FLUX's diffusers and dtype; a module:factory's import and
    signature (the factory itself runs in the build stage)."""
    check_target_name(name)
    if name in FLUX_PRESETS:
        torch_dtype((flux or FluxOptions()).dtype)   # the user's input before the environment's
        import_flux_class()
    else:
        find_factory(name)


def resolve(name: str, flux: FluxOptions | None = None, train: bool = False) -> Target:
    """`flux`, `flux-schnell`, or `package.module:factory`; under `train` its training step."""
    from ..errors import UserError

    if name in FLUX_PRESETS:
        target = build_flux(name, flux or FluxOptions())
        if train:
            from .flux_train import flux_training

            flux_training(target)
        return target
    if ":" in name:
        return load_custom(name, train)
    raise UserError(f"unknown target {name!r}; known targets: {', '.join(KNOWN)}, or package.module:factory")


__all__ = ["PHASES", "TrainingStep", "check_target", "check_target_name", "Target", "FluxOptions", "InputSets", "resolve", "KNOWN", "build_flux", "load_custom",
           "parse_resolutions", "refuse_flux_options", "resolution_options"]
