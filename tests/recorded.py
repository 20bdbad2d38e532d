"""Recorded fixtures (real outputs; tests/data/README.md says how each was made)."""
from pathlib import Path

DATA = Path(__file__).parent / "data"
REPO = Path(__file__).parent.parent


def data_path(*parts: str) -> Path:
    """A recorded fixture; fails loudly when it is missing."""
    path = DATA.joinpath(*parts)
    if not path.exists():
        raise FileNotFoundError(f"test data missing: {path}")
    return path
