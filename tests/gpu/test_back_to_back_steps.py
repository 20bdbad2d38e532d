"""The two step times of drivers/proton/session.py on a step whose GPU and host times are set by hand: a
GPU sleep kernel of known length (measured alone with CUDA events) and a host sleep before it."""
import statistics
import time

import pytest
import torch

from inductor_prof.drivers.proton.session import back_to_back_steps, timed_steps


def kernel_ms(cycles: int) -> float:
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    torch.cuda.synchronize()
    start.record()
    torch.cuda._sleep(cycles)
    end.record()
    torch.cuda.synchronize()
    return start.elapsed_time(end)


@pytest.fixture(scope="module")
def sleep_cycles():
    """Cycles of torch.cuda._sleep that take about 4 ms on this GPU, and their measured ms."""
    kernel_ms(1000)   # the first launch loads the kernel
    cycles = int(1_000_000 * 4.0 / kernel_ms(1_000_000))
    return cycles, statistics.median(kernel_ms(cycles) for _ in range(5))


def test_host_time_hides_back_to_back_when_the_cpu_runs_ahead(sleep_cycles):
    cycles, gpu_ms = sleep_cycles

    def step():              # 1 ms on the host, then ~4 ms on the GPU
        time.sleep(0.001)
        torch.cuda._sleep(cycles)

    wall = statistics.median(timed_steps(step, 5))
    b2b = back_to_back_steps(step, 8)
    # synchronised: the host's 1 ms, then the whole kernel
    assert wall >= gpu_ms + 1.0
    # back to back: from step 1 on the kernel of step i runs while the host sleeps for step i+1
    assert statistics.median(b2b[1:]) == pytest.approx(gpu_ms, rel=0.05)


def test_a_launch_bound_step_shows_its_host_time_back_to_back(sleep_cycles):
    cycles, gpu_ms = sleep_cycles

    def step():              # 6 ms on the host, then ~4 ms on the GPU: the GPU waits for the host
        time.sleep(0.006)
        torch.cuda._sleep(cycles)

    b2b = back_to_back_steps(step, 6)
    # each step's start event is reached when the previous kernel ends; its kernel starts ~6 ms after the
    # previous one was queued, ~2 ms after that kernel ended: the step is the host's 6 ms, not the GPU's 4
    assert statistics.median(b2b[1:]) == pytest.approx(6.0, rel=0.15)
