"""The GPU's SM clock, power draw and throttle reasons while work runs, read through NVML (nvidia-ml-py) by a
sampling thread. The H100 runs into its power limit on dense GEMMs, and its clock then depends on the data: the
report needs the clock and power the kernels actually ran at to judge them (analysis/telemetry.py summarises).
"""
from __future__ import annotations

import threading
import time

from ..errors import one_line

PERIOD_S = 0.005   # NVML refreshes clocks about every 1-10 ms; more often only repeats a reading


class Telemetry:
    """`with Telemetry() as t: work()`, then `t.samples` [(seconds, SM MHz, power W, reason bits)], and the
    device's `power_limit_w` and `max_sm_mhz`; `t.error` says why nothing was measured (no NVML, no GPU)."""

    def __init__(self, device: int = 0, period_s: float = PERIOD_S):
        self.device, self.period_s = device, period_s
        self.samples: list[tuple[float, float, float, int]] = []
        self.power_limit_w: float | None = None
        self.max_sm_mhz: float | None = None
        self.error = ""
        self._stop = threading.Event()
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
        except ImportError:
            self.error = "nvidia-ml-py is not installed (pip install nvidia-ml-py)"
            return self
        except Exception as e:  # no driver, no GPU, an NVML error: the profile goes on without it
            self.error = f"NVML: {one_line(e)}"
            return self
        self._nvml = pynvml
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
            self.samples.append((time.perf_counter() - self._t0, float(mhz), float(watts), bits))
            self._stop.wait(self.period_s)

    def __exit__(self, *exc) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        if self._nvml is not None:
            try:
                self._nvml.nvmlShutdown()
            except Exception:  # noqa: BLE001  shutting down cannot change what was read
                pass


def _handle(pynvml, device: int):
    """The NVML handle of CUDA device `device` (by UUID, as CUDA_VISIBLE_DEVICES may renumber devices)."""
    try:
        import torch

        uuid = str(torch.cuda.get_device_properties(device).uuid)
        return pynvml.nvmlDeviceGetHandleByUUID(uuid if uuid.startswith("GPU-") else f"GPU-{uuid}")
    except Exception:  # noqa: BLE001  an older torch without .uuid: NVML's own numbering
        return pynvml.nvmlDeviceGetHandleByIndex(device)
