"""Every module here runs on copies of RUN, some of them hard links to its files (runs.linked_run): RUN holds the
same bytes after each module, or the module's last test fails naming it."""
import pytest

from damaged.runs import RUN, digests


@pytest.fixture(scope="module", autouse=True)
def shipped_run_unchanged():
    before = digests(RUN)
    yield
    assert digests(RUN) == before, f"a damage case wrote into {RUN}"
