"""Input sets: the inputs of one model call, and several named ones for a run over several input sizes.

A factory's inputs are args (tuple/list), kwargs (dict), an (args, kwargs) pair, or one tensor. To profile
several sizes in one run it returns `InputSets({"seq2048": inputs, "seq512": inputs})` in their place: a
mapping name -> inputs (each in any of those forms); the first is the default size. Names are what the
report, its JSON, CSV and HTML, and `diff` show; they become Proton scope names, so no "/" in them."""
from __future__ import annotations

import re

from ..errors import UserError

SIZE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.+=-]{0,63}")   # a Proton scope and a file name part
STEP_SCOPES = ("step_", "annotated_step_")   # the scopes below a size's: a size name must not look like one


class InputSets(dict):
    """name -> inputs of one call, in the order given (the first is the default size)."""


def check_size_name(name, where: str) -> str:
    if not isinstance(name, str) or not SIZE_NAME.fullmatch(name) or name.startswith(STEP_SCOPES):
        raise UserError(f"{where}: input size name {name!r} must be 1 to 64 letters, digits or _.+=- starting "
                        "with a letter or digit, and not step_... (it names a Proton scope)")
    return name


def named_sets(inputs, where: str) -> dict:
    """{size name: inputs of one call} of an InputSets; {} for the inputs of a single call."""
    if not isinstance(inputs, InputSets):
        return {}
    if not inputs:
        raise UserError(f"{where} returned an empty InputSets; give at least one named input set")
    return {check_size_name(name, where): v for name, v in inputs.items()}
