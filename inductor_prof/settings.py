"""ncu settings (path, sudo, metric set, timeouts...), each from the first place that gives it: the command-line
flag, the environment variable (INDUCTOR_PROF_<FIELD>), the settings file, the default below. The settings
file is the top level of ./inductor-prof.toml if it holds any, else [tool.inductor-prof] in ./pyproject.toml."""
from __future__ import annotations

import os
import shlex
from dataclasses import dataclass, field, fields
from pathlib import Path
from collections.abc import Mapping
from typing import Any

try:
    import tomllib
except ModuleNotFoundError:  # Python < 3.11
    import tomli as tomllib  # type: ignore[no-redef]

from .errors import UserError

ENV_PREFIX = "INDUCTOR_PROF_"
FILES = ("inductor-prof.toml", "pyproject.toml")   # in this order; the first with settings is the one read


@dataclass
class Settings:
    ncu: str | None = None                # ncu executable; None: found on PATH or in the usual places
    sudo: bool = False                    # run ncu through `sudo -n` (cloud GPUs: ERR_NVGPUCTRPERM otherwise)
    sudo_path: str = "sudo"
    ncu_args: list[str] = field(default_factory=list)   # extra ncu arguments
    ncu_set: str | None = None            # None: inductor-prof's metric list; else an ncu --set (e.g. full)
    clock_control: str = "none"           # ncu --clock-control: none measures the clocks the model runs at
    ncu_timeout: float = 300.0            # seconds per kernel
    ncu_library_kernels: int = 8          # library kernels (cuBLAS, cuDNN...) to profile, by time
    # a library kernel's calls (op + shapes) ncu replays besides its costliest: those holding this % of the step.
    # 1.0 covers FLUX.1-dev's 9 library calls of 1.0-23% each (three shapes each of its two big GEMM kernels)
    ncu_library_min_share: float = 1.0
    # kernels per ncu process; 1: one each. Start-up (Python, torch, CUDA under ncu, loading kernels) is 8-15 s of a
    # process on the H100, a kernel's profile well under 1 s, so one process for the whole stage where it fits:
    # FLUX.1-dev's 29 Inductor kernels and ~16 library replays take one. What a larger batch risks: a crash
    # re-profiles the batch's finished kernels (ncu writes its report at the end) and an interruption loses
    # them; a hang or crash still costs only its kernel in flight (drivers/ncu/batch.py)
    ncu_batch: int = 64
    # the source pass: per-line counters (`inspect`) for this many kernels, those with the most headroom first
    ncu_source_kernels: int = 3
    # `profile --ncu` runs the source pass in a process beside the metric pass (ncu serialises their kernels; about
    # 10 s less on FLUX.1-dev); false: after it, the metric pass alone on the GPU (a few small kernels' durations
    # moved 3-8% side by side, docs/measurements.md "How long the main job takes")
    ncu_source_beside: bool = True
    # the attention stage and command: where the own kernels' tuned tile configs are kept (None:
    # $XDG_CACHE_HOME/inductor-prof, else ~/.cache/inductor-prof), tuning again over them, the teaching backends
    tuning_cache: str | None = None
    # `profile`'s compiled artifacts (Inductor's FX graph cache, Triton cubins, autotuning) reused by the next run
    # of the same target, options and versions (None: $XDG_CACHE_HOME/inductor-prof/compile; `off`: none)
    compile_cache: str | None = None
    retune: bool = False
    # measurements reused across runs (measure_store.py): ncu results and ceilings of the same GPU, driver,
    # versions, ncu settings and kernel (None: $XDG_CACHE_HOME/inductor-prof/measurements; `off`: none)
    measure_store: str | None = None
    fresh: bool = False                   # measure everything again (the store is still written)
    attention_teaching: bool = False      # `profile`'s attention stage also runs numba_fa, torch_blocked, sdpa_math
    # the ceilings stage also times Inductor's Triton matmul template (max-autotune) at the model's top GEMM shapes
    # (on by itself when the model compiles with max-autotune); 5-16 s of autotuning a shape on an H100
    gemm_templates: bool = False
    # `profile --nproc N`: ncu on every rank (default: rank 0 only; the ranks run one program, so one rank's kernels
    # stand for the others', and N ncu passes would each take the whole stage's time)
    ncu_all_ranks: bool = False
    # seconds the whole multi-rank profile (torchrun and its ranks) may take before all of it is ended
    ranks_timeout: float = 21600.0

    def as_root(self, *cmd: str) -> list[str]:
        """`cmd` through sudo as every root command of the package runs: `sudo -n`, never a prompt (the one place
        the prefix is built; its callers run it only with the sudo setting on)."""
        return [self.sudo_path, "-n", *cmd]

    # environment variable names: INDUCTOR_PROF_NCU, INDUCTOR_PROF_SUDO, INDUCTOR_PROF_SUDO_PATH, ...
    @staticmethod
    def env_name(key: str) -> str:
        return ENV_PREFIX + key.upper()


def _coerce(key: str, value: Any, where: str) -> Any:
    """A setting's value as its field's type; `where` (an env variable, a file) names it in the error."""
    kind = str({f.name: f.type for f in fields(Settings)}[key])   # a string: the module's annotations are postponed
    if not isinstance(value, str):
        return _typed(key, value, kind, where)
    if kind == "bool":
        low = value.strip().lower()
        if low in ("1", "true", "yes", "on"):
            return True
        if low in ("0", "false", "no", "off", ""):
            return False
        raise UserError(f"{where}: {key}={value!r} is not a boolean (use 1/0, true/false)")
    if kind == "list[str]":
        try:
            return shlex.split(value)
        except ValueError as e:   # an unclosed quote
            raise UserError(f"{where}: {key}={value!r}: {e}") from None
    try:
        return {"float": float, "int": int}.get(kind, str)(value)
    except ValueError:
        raise UserError(f"{where}: {key}={value!r} is not a{'n integer' if kind == 'int' else ' number'}") from None


def _typed(key: str, value: Any, kind: str, where: str) -> Any:
    """A value that came typed (a settings file's TOML, the command line) as its field's type: a TOML value of
    another type (`ncu = 5`, `ncu_batch = 1.5`, `ncu_args = 5`) is refused here, naming the file, not
    met later as a TypeError or taken as it is. Strings never come here (_coerce parses them)."""
    is_bool = isinstance(value, bool)
    if kind == "bool" and (is_bool or value in (0, 1)):
        return bool(value)
    if kind == "int" and isinstance(value, int) and not is_bool:
        return value
    if kind == "float" and isinstance(value, (int, float)) and not is_bool:
        return float(value)
    if kind == "list[str]" and isinstance(value, list) and all(isinstance(v, str) for v in value):
        return value
    wanted = {"bool": "a boolean (use true/false)", "int": "an integer", "float": "a number",
              "list[str]": "a list of strings"}.get(kind, "a string")
    raise UserError(f"{where}: {key}={value!r} is not {wanted}")


# the smallest values that work: a bad one fails when the settings are read, not at a long profile's ncu stage
ABOVE = {"ncu_timeout": 0, "ranks_timeout": 0}
AT_LEAST_FLOAT = {"ncu_library_min_share": 0.0}
AT_LEAST = {"ncu_library_kernels": 0, "ncu_batch": 1, "ncu_source_kernels": 0}


def _checked(key: str, value: Any, where: str) -> Any:
    value = _coerce(key, value, where)
    if key in ABOVE and not value > ABOVE[key]:
        raise UserError(f"{where}: {key}={value!r} must be more than {ABOVE[key]}")
    if key in AT_LEAST_FLOAT and not value >= AT_LEAST_FLOAT[key]:
        raise UserError(f"{where}: {key}={value!r} must be at least {AT_LEAST_FLOAT[key]:g}")
    if key in AT_LEAST and not value >= AT_LEAST[key]:
        raise UserError(f"{where}: {key}={value!r} must be at least {AT_LEAST[key]}")
    return value


def file_settings(cwd: Path) -> tuple[Path | None, dict[str, Any]]:
    """(the file, its settings): the top level of inductor-prof.toml if it holds settings, else
    [tool.inductor-prof] of pyproject.toml; (None, {}) when neither has any."""
    for name, table in zip(FILES, (None, ("tool", "inductor-prof"))):
        path = cwd / name
        if not path.is_file():
            continue
        try:
            data = tomllib.loads(path.read_text())
        except tomllib.TOMLDecodeError as e:
            raise UserError(f"{path}: invalid TOML: {e}") from e
        if table and table[1].replace("-", "_") in data.get(table[0], {}) and table[1] not in data[table[0]]:
            # the table named as the package is spelt: its settings were ignored without a word
            raise UserError(f"{path}: [{table[0]}.{table[1].replace('-', '_')}] is not read; name the table "
                            f"[{'.'.join(table)}]")
        for key in table or ():
            data = data.get(key, {})
        if data:
            known = {f.name for f in fields(Settings)}
            unknown = set(k.replace("-", "_") for k in data) - known
            if unknown:
                raise UserError(f"{path}: unknown inductor-prof settings: {', '.join(sorted(unknown))}")
            return path, {k.replace("-", "_"): v for k, v in data.items()}
    return None, {}


def resolve(cli: dict[str, Any] | None = None, env: Mapping[str, str] | None = None, cwd: Path | None = None,
            ) -> tuple[Settings, dict[str, str]]:
    """(settings, where each came from). CLI values that are None do not count as given."""
    env = os.environ if env is None else env
    values: dict[str, Any] = {}
    origin: dict[str, str] = {}
    path, from_file = file_settings(cwd or Path.cwd())
    for key, value in from_file.items():
        values[key], origin[key] = _checked(key, value, str(path)), "file"
    for f in fields(Settings):
        name = Settings.env_name(f.name)
        if name in env:
            values[f.name], origin[f.name] = _checked(f.name, env[name], name), f"env {name}"
    for key, value in (cli or {}).items():
        if value is not None:
            values[key], origin[key] = _checked(key, value, "command line"), "cli"
    return Settings(**values), origin


SETTINGS_HELP = ("ncu settings come from the command-line flag, else the environment ("
                 + ", ".join(Settings.env_name(f.name) for f in fields(Settings))
                 + "), else the top level of ./inductor-prof.toml, else [tool.inductor-prof] in ./pyproject.toml, "
                 "else the default.")


def user_cache_dir(env: Mapping[str, str] | None = None) -> Path:
    """The user cache root the attention tuning cache and the compile cache live under: $XDG_CACHE_HOME/inductor-prof,
    else ~/.cache/inductor-prof (XDG: a relative XDG_CACHE_HOME is ignored)."""
    env = os.environ if env is None else env
    xdg = env.get("XDG_CACHE_HOME", "")
    base = Path(xdg) if xdg and os.path.isabs(xdg) else Path(env.get("HOME") or Path.home()) / ".cache"
    return base / "inductor-prof"
