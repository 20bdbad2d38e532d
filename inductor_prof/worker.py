"""The one entry point of the package's worker processes: `python -m inductor_prof.worker SPEC.json`.

The spec (specs.py) says the kind of work and carries the settings whole; the work is the function HANDLERS
names for that kind, called with the spec and the events channel (events.py). What it returns is the `result`
event; a UserError is an `error` event and exit 2; any other exception an `error` event (its one line), the
traceback on stderr (the log), and exit 1; Ctrl-C and SIGTERM end it with 130 and 143 and no event. procs.py
starts it and reads the events (`Worker`, `run_worker`)."""
from __future__ import annotations

import importlib
import sys
import traceback
from typing import Any, Callable, Mapping

from . import specs
from .errors import EXIT_FAILED, EXIT_INTERRUPTED, EXIT_TERMINATED, EXIT_USER, UserError, one_line
from .events import Events
from .signals import Terminated, sigterm_as_interrupt

# kind -> "module:function" doing it; imported only in the worker that does it (the layers stay apart)
HANDLERS = {
    "attention": "inductor_prof.pipeline.attention:work",
    "attention_probe": "inductor_prof.pipeline.attention_backward:work",
    "ncu_source_beside": "inductor_prof.pipeline.ncu_source_beside:work",
    "gemm_templates": "inductor_prof.pipeline.gemm_templates:work",
    "ncu_report": "inductor_prof.drivers.ncu.report_process:work",
    "doctor_probe": "inductor_prof.doctor.gpu:work",
    "ncu_replay": "inductor_prof.drivers.ncu.replay:work",
    "cuda_build": "inductor_prof.attention.kernels.cuda_fa:build",
}
Handler = Callable[[Any, Events], Any]


def handler(name: str) -> Handler:
    module, function = name.split(":")
    return getattr(importlib.import_module(module), function)


def serve(argv: list[str], kinds: dict[str, type[specs.Spec]] = specs.KINDS,
          handlers: Mapping[str, str | Handler] = HANDLERS) -> tuple[int, specs.Spec | None]:
    """(exit status, the spec read): the spec's work done, its outcome as events."""
    if len(argv) != 2:
        print("usage: python -m inductor_prof.worker SPEC.json", file=sys.stderr)
        return EXIT_USER, None
    try:
        spec = specs.read(argv[1], kinds)
    except UserError as e:   # no events file known yet: the log says it, and the parent reads the exit
        print(f"error: {e}", file=sys.stderr)
        return EXIT_USER, None
    events = Events(spec.events)
    work = handlers[spec.KIND]
    with sigterm_as_interrupt():
        try:
            value = (handler(work) if isinstance(work, str) else work)(spec, events)
        except UserError as e:
            print(f"error: {e}", file=sys.stderr)
            events.error(str(e))
            return EXIT_USER, spec
        except Terminated:
            return EXIT_TERMINATED, spec
        except KeyboardInterrupt:
            return EXIT_INTERRUPTED, spec
        except Exception as e:  # noqa: BLE001  the traceback for the log, the line for the stage
            traceback.print_exc()
            events.error(one_line(e, 500))
            return EXIT_FAILED, spec
    sys.stdout.flush()
    events.result(value)
    return 0, spec


def main(argv: list[str]) -> int:
    code, spec = serve(argv)
    if spec is not None and spec.QUICK_EXIT:
        from .quick_exit import exit_now

        exit_now(code)
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv))
