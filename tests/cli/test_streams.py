"""Library output kept off the command's own output, in real processes (real file descriptors): `--json`
prints one JSON document on stdout whatever library code prints meanwhile; `profile`'s library output goes to
its log unless --verbose."""
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

from recorded import REPO, data_path

ROOT = REPO
BIG = ROOT / "examples" / "runs" / "flux-h100"

# What a compiler does while a kernel is tuned: Python prints, C-level writes to fd 1 (printf, buffered), a
# child process (ptxas) writing to the inherited stdout.
NOISY = textwrap.dedent("""
    import ctypes, os, subprocess, sys
    def noise(tag):
        print(f"{tag} python print")
        os.write(1, f"{tag} fd write\\n".encode())
        ctypes.CDLL(None).printf(f"{tag} C printf\\n".encode())
        subprocess.run([sys.executable, "-c", f"print('{tag} child process')"], check=True)
""")


def run_python(code: str, tmp_path: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TMPDIR": str(tmp_path)}
    env.pop("COLUMNS", None)
    env.pop("PYTHONUNBUFFERED", None)   # C stdio buffered as in a shell: a printf must land before the switch back
    return subprocess.run([sys.executable, "-c", NOISY + textwrap.dedent(code)], capture_output=True, text=True,
                          env=env, timeout=120, cwd=tmp_path)


def test_stdout_to_stderr_moves_every_kind_of_write(tmp_path):
    p = run_python("""
        from inductor_prof.cli.streams import stdout_to_stderr
        with stdout_to_stderr():
            noise("lib")
        print("own output")
    """, tmp_path)
    assert p.returncode == 0, p.stderr
    assert p.stdout == "own output\n"
    for what in ("python print", "fd write", "C printf", "child process"):
        assert f"lib {what}" in p.stderr


def test_report_json_is_one_document_when_loading_prints(tmp_path):
    p = run_python(f"""
        import inductor_prof.analysis as analysis
        from inductor_prof.cli import app
        real = analysis.load_run_tables
        def noisy_load(*args, **kwargs):
            noise("loader")
            return real(*args, **kwargs)
        analysis.load_run_tables = noisy_load
        app(["report", {str(data_path("flux_small"))!r}, "--json", "--top", "3"])
    """, tmp_path)
    assert p.returncode == 0, p.stderr
    obj = json.loads(p.stdout)           # the whole of stdout is one JSON document
    assert len(obj["kernels"]) == 3
    assert "loader fd write" in p.stderr and "loader child process" in p.stderr


def test_attention_json_is_one_document_when_a_compiler_prints(tmp_path):
    # the benchmark itself needs a GPU: its results here are the example's recorded rows
    p = run_python(f"""
        import pandas as pd
        import inductor_prof.envinfo as envinfo
        import inductor_prof.pipeline.attention as stage
        from inductor_prof.cli import app
        envinfo.require_cuda = lambda what: None
        def noisy_benchmark(run_dir, shapes, opts, on_backend=None, settings=None):
            noise("ptxas")
            return pd.read_csv({str(BIG / "attention.csv")!r}), {{"ok": 1, "rows": 1}}
        stage.benchmark = noisy_benchmark
        app(["attention", "--shape", "1,24,4608,128", "--json"])
    """, tmp_path)
    assert p.returncode == 0, p.stderr
    rows = json.loads(p.stdout)["attention"]
    assert [r["backend"] for r in rows][:2] == ["triton_fa2", "gluon_fa3"]
    assert "ptxas fd write" in p.stderr and "ptxas C printf" in p.stderr


LIBRARY_OUTPUT = """
    import logging, warnings
    from pathlib import Path
    from inductor_prof.cli.streams import library_output
    handler_log = logging.getLogger("torch_like")      # a logger with its own stderr handler, as torch's
    handler_log.addHandler(logging.StreamHandler(sys.stderr))
    handler_log.propagate = False
    with library_output(VERBOSE) as lib:
        noise("lib")
        os.write(2, b"lib fd2 write\\n")
        warnings.warn("lib warning")
        handler_log.warning("lib torch log")
        logging.getLogger("other").warning("lib root log")
        lib.terminal.write("progress line\\n")
        if FAIL:
            raise SystemExit(3)
        lib.keep_in(Path("run/profile.log"))
    print("own output")
"""
LIBRARY_LINES = ["lib python print", "lib fd write", "lib C printf", "lib child process", "lib fd2 write",
                 "UserWarning: lib warning", "lib torch log", "lib root log"]


def test_library_output_goes_to_the_log(tmp_path):
    p = run_python(LIBRARY_OUTPUT.replace("VERBOSE", "False").replace("FAIL", "False"), tmp_path)
    assert p.returncode == 0, p.stderr
    assert p.stdout == "progress line\nown output\n" and p.stderr == ""
    log = (tmp_path / "run" / "profile.log").read_text()
    for line in LIBRARY_LINES:
        assert line in log
    assert not list(tmp_path.glob("inductor-prof-*.log"))     # the temporary log was moved, not copied


def test_library_output_shown_under_verbose(tmp_path):
    p = run_python(LIBRARY_OUTPUT.replace("VERBOSE", "True").replace("FAIL", "False"), tmp_path)
    assert p.returncode == 0, p.stderr
    both = p.stdout + p.stderr
    for line in LIBRARY_LINES:
        assert line in both
    assert not (tmp_path / "run" / "profile.log").exists()


def test_library_output_of_a_failed_command_is_named(tmp_path):
    p = run_python(LIBRARY_OUTPUT.replace("VERBOSE", "False").replace("FAIL", "True"), tmp_path)
    assert p.returncode == 3
    logs = list(tmp_path.glob("inductor-prof-*.log"))
    assert len(logs) == 1 and "lib torch log" in logs[0].read_text()
    assert p.stderr == f"library output (warnings, compiler messages) is in {logs[0]}\n"
