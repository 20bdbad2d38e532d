from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"


def data_path(*parts: str) -> Path:
    """A recorded fixture; fails loudly when it is missing (tests/data/README.md says how each was made)."""
    path = DATA.joinpath(*parts)
    if not path.exists():
        raise FileNotFoundError(f"test data missing: {path}")
    return path


@pytest.fixture
def small_run() -> Path:
    return data_path("flux_small")
