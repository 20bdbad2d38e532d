"""exit_now: plain sys.exit without a compile-worker pool or a CUDA context; with either, the process ends at once,
its output flushed, its exit handlers (torch's slow pool shutdown among them) skipped."""
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


# a process whose torch made a CUDA context and started no pool
WITH_CUDA = WITH_POOL.replace("pool._pool_set = {object()}", "pool._pool_set = set()").replace(
    "sys.modules[pool.__name__] = pool", "sys.modules[pool.__name__] = pool\n"
    "cuda = types.ModuleType('torch.cuda'); cuda.is_initialized = lambda: INIT; sys.modules['torch.cuda'] = cuda")


@pytest.mark.parametrize("code, rc, err", [(3, 3, ""), (None, 0, ""), ("'bad input'", 1, "bad input\n")])
def test_with_a_pool_it_ends_at_once_with_its_output(code, rc, err):
    done = subprocess.run([sys.executable, "-c", WITH_POOL.replace("CODE", str(code))], capture_output=True,
                          text=True, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (rc, "written", err)


def test_with_cuda_initialised_it_ends_at_once_and_without_it_is_sys_exit():
    at_once = subprocess.run([sys.executable, "-c", WITH_CUDA.replace("INIT", "True").replace("CODE", "6")],
                             capture_output=True, text=True, timeout=60)
    assert (at_once.returncode, at_once.stdout) == (6, "written")
    ordinary = subprocess.run([sys.executable, "-c", WITH_CUDA.replace("INIT", "False").replace("CODE", "7")],
                              capture_output=True, text=True, timeout=60)
    assert (ordinary.returncode, ordinary.stdout) == (7, "writtenexit handler ran\n")


def test_without_a_pool_it_is_sys_exit(monkeypatch):
    # in this process a GPU test may have started a pool or CUDA; their absence is what is tested here
    monkeypatch.setattr(quick_exit, "compile_workers_running", lambda: False)
    monkeypatch.setattr(quick_exit, "cuda_initialised", lambda: False)
    with pytest.raises(SystemExit) as e:
        exit_now(4)
    assert e.value.code == 4
    done = subprocess.run([sys.executable, "-c", WITH_POOL.replace("{object()}", "set()").replace("CODE", "5")],
                          capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout) == (5, "writtenexit handler ran\n")
