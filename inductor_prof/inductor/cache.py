"""An Inductor (and Triton) cache of the run's own: every kernel is built fresh and stays with the run."""
from __future__ import annotations

import os
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

CACHE_ENV = ("TORCHINDUCTOR_CACHE_DIR", "TRITON_CACHE_DIR")


def cache_env(cache_dir: Path) -> dict[str, str]:
    """The variables that point Inductor and Triton at `cache_dir` (for this process or a child)."""
    root = Path(cache_dir).resolve()
    return {"TORCHINDUCTOR_CACHE_DIR": str(root), "TRITON_CACHE_DIR": str(root / "triton")}


def inductors_ptxas() -> None:
    """TRITON_PTXAS_PATH set now as Inductor sets it at its first kernel compile (torch's own ptxas; a value
    already set is kept), before anything computes a Triton cache key. Inductor's codegen computes Triton's
    backend hash first, and Triton keeps the ptxas version it read then (an lru_cache): a cold compile's keys
    named Triton's bundled ptxas (12.8) for binaries torch's (13.0) built, and ncu's replay, keying them by the
    ptxas that builds them, found none (FLUX.1-dev: 21 kernels compiled again under ncu, ~4 s). A torch without
    this function or its own ptxas: nothing changes."""
    try:
        from torch._inductor.runtime.compile_tasks import _set_triton_ptxas_path
    except ImportError:
        return
    _set_triton_ptxas_path()


@contextmanager
def isolated_cache(cache_dir: Path) -> Iterator[None]:
    """Inductor and Triton caches inside `cache_dir` for the duration; the previous values restored after.
    Triton's ptxas is Inductor's from the start (inductors_ptxas)."""
    saved = {k: os.environ.get(k) for k in CACHE_ENV}
    Path(cache_dir).mkdir(parents=True, exist_ok=True)
    os.environ.update(cache_env(cache_dir))
    inductors_ptxas()
    try:
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
