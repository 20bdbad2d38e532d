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


@contextmanager
def isolated_cache(cache_dir: Path) -> Iterator[None]:
    """Inductor and Triton caches inside `cache_dir` for the duration; the previous values restored after."""
    saved = {k: os.environ.get(k) for k in CACHE_ENV}
    Path(cache_dir).mkdir(parents=True, exist_ok=True)
    os.environ.update(cache_env(cache_dir))
    try:
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
