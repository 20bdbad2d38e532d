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


# flux_small was recorded before inductor-prof measured the SM clock, power and its GEMM calls' replays: every
# report of it carries that one warning (analysis/older_runs.py; pinned in tests/analysis/test_older_runs.py)
AGE_MARK = "was recorded before inductor-prof measured"


def without_age_warning(lines: list[str]) -> list[str]:
    """Warnings other than the one every report of flux_small carries for its age."""
    return [ln for ln in lines if AGE_MARK not in ln]
