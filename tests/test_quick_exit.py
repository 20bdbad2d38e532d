"""exit_now: plain sys.exit without a compile-worker pool; with one, the process ends at once, its output flushed,
its exit handlers (torch's slow pool shutdown among them) skipped."""
import subprocess
import sys

import pytest

from inductor_prof import quick_exit
from inductor_prof.quick_exit import exit_now

# a process whose torch started a compile-worker pool (the module torch keeps it in, with a pool in its set), an
# exit handler that would print, and buffered output not yet flushed
WITH_POOL = """
import atexit, sys, types
pool = types.ModuleType("torch._inductor.async_compile"); pool._pool_set = {object()}
sys.modules[pool.__name__] = pool
atexit.register(lambda: print("exit handler ran"))
from inductor_prof.quick_exit import exit_now
print("written", end="")
exit_now(CODE)
"""


@pytest.mark.parametrize("code, rc, err", [(3, 3, ""), (None, 0, ""), ("'bad input'", 1, "bad input\n")])
def test_with_a_pool_it_ends_at_once_with_its_output(code, rc, err):
    done = subprocess.run([sys.executable, "-c", WITH_POOL.replace("CODE", str(code))], capture_output=True,
                          text=True, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (rc, "written", err)


def test_without_a_pool_it_is_sys_exit(monkeypatch):
    # in this process a GPU test may have started a pool; its absence is what is tested here
    monkeypatch.setattr(quick_exit, "compile_workers_running", lambda: False)
    with pytest.raises(SystemExit) as e:
        exit_now(4)
    assert e.value.code == 4
    done = subprocess.run([sys.executable, "-c", WITH_POOL.replace("{object()}", "set()").replace("CODE", "5")],
                          capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout) == (5, "writtenexit handler ran\n")
