"""The GPU's SM clock, power draw and throttle reasons while work runs, read through NVML (nvidia-ml-py) by a
sampling thread. The H100 runs into its power limit on dense GEMMs, and its clock then depends on the data: the
report needs the clock and power the kernels actually ran at to judge them (analysis/telemetry.py summarises).
"""
from __future__ import annotations

import threading
import time
from typing import Any, Callable

from ..errors import one_line

PERIOD_S = 0.005   # NVML refreshes clocks about every 1-10 ms; more often only repeats a reading


class Telemetry:
    """`with Telemetry() as t: work()`, then `t.samples` [(seconds, SM MHz, power W, reason bits)], `t.energy_w`
    (the window's average power from the energy counter, None without one), and the device's `power_limit_w`
    and `max_sm_mhz`; `t.error` says why nothing was measured (no NVML, no GPU)."""

    def __init__(self, device: int = 0, period_s: float = PERIOD_S):
        self.device, self.period_s = device, period_s
        self.samples: list[tuple[float, float, float, int]] = []
        self.power_limit_w: float | None = None
        self.max_sm_mhz: float | None = None
        self.energy_w: float | None = None   # the window's average power, from the energy counter
        self.energy: list[tuple[float, int]] = []   # (seconds, mJ) read beside each sample
        self.error = ""
        self._stop = threading.Event()
        self._energy: Callable[[], Any] | None = None
        self._thread: threading.Thread | None = None
        self._nvml = None

    def __enter__(self) -> "Telemetry":
        try:
            import pynvml

            pynvml.nvmlInit()
            handle = _handle(pynvml, self.device)
            self.power_limit_w = pynvml.nvmlDeviceGetEnforcedPowerLimit(handle) / 1e3
            self.max_sm_mhz = float(pynvml.nvmlDeviceGetMaxClockInfo(handle, pynvml.NVML_CLOCK_SM))
            reasons = getattr(pynvml, "nvmlDeviceGetCurrentClocksEventReasons", None) or \
                pynvml.nvmlDeviceGetCurrentClocksThrottleReasons
            self._read = lambda: (pynvml.nvmlDeviceGetClockInfo(handle, pynvml.NVML_CLOCK_SM),
                                  pynvml.nvmlDeviceGetPowerUsage(handle) / 1e3, int(reasons(handle)))
            self._read()
            self._energy = lambda: pynvml.nvmlDeviceGetTotalEnergyConsumption(handle)   # mJ since the driver loaded
        except ImportError:
            self.error = "nvidia-ml-py is not installed (pip install nvidia-ml-py)"
            return self
        except Exception as e:  # no driver, no GPU, an NVML error: the profile goes on without it
            self.error = f"NVML: {one_line(e)}"
            return self
        self._nvml = pynvml
        try:
            self._energy()
        except Exception:  # noqa: BLE001  no energy counter (before Volta): the sampled readings only
            self._energy = None
        self._t0 = time.perf_counter()
        self._thread = threading.Thread(target=self._loop, name="inductor-prof-nvml", daemon=True)
        self._thread.start()
        return self

    def _loop(self) -> None:
        while not self._stop.is_set():
            try:
                mhz, watts, bits = self._read()
            except Exception as e:  # a reading that fails ends the sampling, said once
                self.error = f"NVML: {one_line(e)}"
                return
            now = time.perf_counter() - self._t0
            self.samples.append((now, float(mhz), float(watts), bits))
            if self._energy is not None:
                try:
                    self.energy.append((now, int(self._energy())))
                except Exception:  # noqa: BLE001  the readings stand alone
                    self._energy = None
            self._stop.wait(self.period_s)

    def __exit__(self, *exc) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self.energy_w = energy_watts(self.energy)
        if self._nvml is not None:
            try:
                self._nvml.nvmlShutdown()
            except Exception:  # noqa: BLE001  shutting down cannot change what was read
                pass


def energy_watts(readings: list[tuple[float, int]]) -> float | None:
    """The average power over a window from NVML's energy counter (seconds, mJ) read through it: the power
    reading is a trailing average (about 1 s) that says nothing of a 100 ms window. The counter itself moves in
    steps: the energy between its first and last step in the window over the time between them (a difference
    from the window's edges would count a step's energy over a fraction of its time: 1,010 W on a 700 W GPU
    over 50 ms on an H200). None where it stepped fewer than twice."""
    steps = [i for i in range(1, len(readings)) if readings[i][1] != readings[i - 1][1]]
    if len(steps) < 2:
        return None
    (t0, e0), (t1, e1) = readings[steps[0]], readings[steps[-1]]
    return (e1 - e0) / 1e3 / (t1 - t0) if t1 > t0 else None


def _handle(pynvml, device: int):
    """The NVML handle of CUDA device `device` (by UUID, as CUDA_VISIBLE_DEVICES may renumber devices)."""
    try:
        import torch

        uuid = str(torch.cuda.get_device_properties(device).uuid)
        return pynvml.nvmlDeviceGetHandleByUUID(uuid if uuid.startswith("GPU-") else f"GPU-{uuid}")
    except Exception:  # noqa: BLE001  an older torch without .uuid: NVML's own numbering
        return pynvml.nvmlDeviceGetHandleByIndex(device)
