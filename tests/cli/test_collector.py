"""The cycle collector is off while a paused command runs and on again after it, however it ends."""
import gc

import pytest

from inductor_prof.cli import collector


def test_paused_while_running_and_restored():
    seen = []
    ok = collector.paused(lambda: seen.append(gc.isenabled()) or "done")

    def fail():
        seen.append(gc.isenabled())
        raise RuntimeError("boom")
    assert gc.isenabled()
    assert ok() == "done" and gc.isenabled()
    with pytest.raises(RuntimeError):
        collector.paused(fail)()
    assert gc.isenabled() and seen == [False, False]
    gc.disable()
    try:   # a caller that had it off keeps it off
        ok()
        assert not gc.isenabled()
    finally:
        gc.enable()
