"""A reader that leaves early (`report --json | head -c 10`) ends a command with exit 141 and nothing after it
(cli/pipes.py, issue 52)."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from inductor_prof.cli.pipes import reader_gone
from recorded import REPO

RUNS = REPO / "examples" / "runs"


def _env(**extra) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("INDUCTOR_PROF_")}
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO), env.get("PYTHONPATH", "")) if p)
    return {**env, **extra}


@pytest.mark.parametrize("args", [
    ["report", str(RUNS / "llama-h100"), "--json"],
    ["trace", str(RUNS / "llama-h100"), "--out", "-"],
    ["diff", str(RUNS / "flux-h100"), str(RUNS / "flux-h100-768x1344"), "--json"],
])
def test_reader_leaving_after_ten_bytes_is_exit_141(args):
    # each writes more than a pipe holds (64 KiB): the write is cut short when the reader closes its end
    proc = subprocess.Popen([sys.executable, "-m", "inductor_prof", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=_env())
    assert len(proc.stdout.read(10)) == 10
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 141, err
    assert "Traceback" not in err and "BrokenPipe" not in err


def test_reader_gone_asks_the_pipe(tmp_path):
    r, w = os.pipe()
    with os.fdopen(w, "w") as out:
        assert not reader_gone(out)
        os.close(r)
        assert reader_gone(out)
        with open(tmp_path / "f", "w") as f:   # a file, and a stream with no descriptor, never
            assert not reader_gone(f)
        import io
        assert not reader_gone(io.StringIO())
        try:
            out.close()
        except BrokenPipeError:
            pass
