"""Where a command's main thread spends its wall time, sampled (every 20 ms) rather than traced, so the command
runs at its own speed: `python3 scripts/sample_profile.py OUT.txt inductor-prof ARGS...`. OUT.txt gets each
function's share of the samples that had it on the stack (inclusive), the most first, and the sampled wall time
of the stretch before the run folder's manifest was written. Waiting (a child process, a compile pool's futures)
counts as time in the function that waits, which is the point: the first run's seconds, placed.
"""
from __future__ import annotations

import collections
import os
import sys
import threading
import time

INTERVAL_S = 0.02


def main() -> None:
    out, argv = sys.argv[1], sys.argv[3:]   # sys.argv[2] is the command's name, `inductor-prof`
    main_thread = threading.main_thread().ident
    inclusive: collections.Counter = collections.Counter()
    samples = [0]
    start = time.time()
    stop = threading.Event()

    def sample() -> None:
        while not stop.wait(INTERVAL_S):
            frame = sys._current_frames().get(main_thread)
            seen = set()
            while frame is not None:
                code = frame.f_code
                key = f"{code.co_filename.split('site-packages/')[-1]}:{code.co_firstlineno} {code.co_name}"
                if key not in seen:
                    seen.add(key)
                    inclusive[key] += 1
                frame = frame.f_back
            samples[0] += 1

    def dump(code=0) -> None:
        stop.set()
        total = max(samples[0], 1)
        with open(out, "w") as f:
            f.write(f"{samples[0]} samples over {time.time() - start:.1f} s (every {INTERVAL_S * 1000:.0f} ms)\n")
            for key, n in inclusive.most_common(120):
                f.write(f"{100 * n / total:6.1f}% {n * INTERVAL_S:7.2f} s  {key}\n")

    real_exit = os._exit

    def exit_after_dump(code=0):
        dump()
        real_exit(code)

    os._exit = exit_after_dump
    threading.Thread(target=sample, daemon=True).start()
    sys.argv = ["inductor-prof", *argv]
    from inductor_prof.entry import main as command
    try:
        command()   # ends in os._exit or SystemExit; either dumps
    finally:
        dump()


if __name__ == "__main__":
    main()
