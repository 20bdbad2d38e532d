"""Profiler settings (ncu path, sudo, metric set...). Precedence: CLI flag > environment variable >
`[tool.inductor-prof]` in ./pyproject.toml or ./inductor-prof.toml > built-in default."""
from __future__ import annotations

import glob
import os
import shlex
import shutil
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

try:
    import tomllib
except ModuleNotFoundError:  # Python < 3.11
    import tomli as tomllib

from .errors import UserError

ENV_PREFIX = "INDUCTOR_PROF_"
NCU_SEARCH = ("/usr/local/cuda*/bin/ncu", "/opt/nvidia/nsight-compute/*/ncu", "/usr/local/NVIDIA-Nsight-Compute*/ncu")


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
    ncu_batch: int = 12                   # kernels per ncu process (start-up is most of the cost); 1: one each

    # environment variable names: INDUCTOR_PROF_NCU, INDUCTOR_PROF_SUDO, INDUCTOR_PROF_SUDO_PATH, ...
    @staticmethod
    def env_name(key: str) -> str:
        return ENV_PREFIX + key.upper()


def _coerce(key: str, value: Any) -> Any:
    kind = {f.name: f.type for f in fields(Settings)}[key]
    if isinstance(value, str):
        if kind == "bool":
            low = value.strip().lower()
            if low in ("1", "true", "yes", "on"):
                return True
            if low in ("0", "false", "no", "off", ""):
                return False
            raise UserError(f"{Settings.env_name(key)}={value!r} is not a boolean (use 1/0, true/false)")
        if kind == "list[str]":
            return shlex.split(value)
        if kind == "float":
            return float(value)
        if kind == "int":
            return int(value)
    return value


def file_settings(cwd: Path) -> dict[str, Any]:
    """[tool.inductor-prof] from pyproject.toml, or the top level of inductor-prof.toml."""
    for name, table in (("inductor-prof.toml", None), ("pyproject.toml", ("tool", "inductor-prof"))):
        path = cwd / name
        if not path.is_file():
            continue
        try:
            data = tomllib.loads(path.read_text())
        except tomllib.TOMLDecodeError as e:
            raise UserError(f"{path}: invalid TOML: {e}") from e
        for key in table or ():
            data = data.get(key, {})
        if data:
            known = {f.name for f in fields(Settings)}
            unknown = set(k.replace("-", "_") for k in data) - known
            if unknown:
                raise UserError(f"{path}: unknown inductor-prof settings: {', '.join(sorted(unknown))}")
            return {k.replace("-", "_"): v for k, v in data.items()}
    return {}


def resolve(cli: dict[str, Any] | None = None, env: dict[str, str] | None = None, cwd: Path | None = None,
            ) -> tuple[Settings, dict[str, str]]:
    """(settings, where each came from). CLI values that are None do not count as given."""
    env = os.environ if env is None else env
    values: dict[str, Any] = {}
    origin: dict[str, str] = {}
    for key, value in file_settings(cwd or Path.cwd()).items():
        values[key], origin[key] = _coerce(key, value), "file"
    for f in fields(Settings):
        name = Settings.env_name(f.name)
        if name in env:
            values[f.name], origin[f.name] = _coerce(f.name, env[name]), f"env {name}"
    for key, value in (cli or {}).items():
        if value is not None:
            values[key], origin[key] = _coerce(key, value), "cli"
    return Settings(**values), origin


def find_ncu(explicit: str | None) -> str:
    """The ncu executable: the one configured, else on PATH, else the usual install places."""
    if explicit:
        path = shutil.which(explicit) or (explicit if os.access(explicit, os.X_OK) else None)
        if not path:
            raise UserError(f"ncu not found at {explicit!r} (from --ncu-path / INDUCTOR_PROF_NCU / settings file)")
        return path
    found = shutil.which("ncu")
    if found:
        return found
    for pattern in NCU_SEARCH:
        hits = sorted(glob.glob(pattern), reverse=True)
        if hits:
            return hits[0]
    raise UserError("ncu not found on PATH nor in /usr/local/cuda*/bin or /opt/nvidia/nsight-compute/*; "
                    "pass --ncu-path or set INDUCTOR_PROF_NCU")
