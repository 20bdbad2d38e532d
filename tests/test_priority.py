"""at_lower_priority: the work runs at the raised nice value, and so do the processes it starts; the caller keeps
its own; the work's result and exception reach the caller."""
import os
import subprocess
import sys
import threading

import pytest

from inductor_prof.priority import at_lower_priority


def own_nice() -> int:
    return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="per-thread nice values are Linux's")
def test_the_work_and_its_children_run_lower_and_the_caller_keeps_its_priority():
    before = own_nice()
    target = min(before + 5, 19)   # above the caller's, wherever the tests run

    def work():
        child = subprocess.run([sys.executable, "-c", "import os; print(os.getpriority(os.PRIO_PROCESS, 0))"],
                               capture_output=True, text=True, timeout=60)
        return own_nice(), int(child.stdout)

    assert at_lower_priority(work, target) == (target, target)
    assert own_nice() == before


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="per-thread nice values are Linux's")
def test_a_priority_already_lower_is_kept():
    before = own_nice()
    assert at_lower_priority(own_nice, before - 1 if before > -20 else before) == before


def test_result_and_exception_reach_the_caller():
    assert at_lower_priority(lambda: 42) == 42
    with pytest.raises(ValueError, match="bad"):
        at_lower_priority(lambda: (_ for _ in ()).throw(ValueError("bad")))
