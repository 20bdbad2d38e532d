"""scripts/pytest_cpu_seconds.py, the plugin behind scripts/suite_time.sh's per-test numbers: a test is charged
the CPU time of its own process and of the children it waited for, not the wall time it waited (a child pytest
run with the plugin, under pytest-xdist as the README's command runs)."""
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPTS = Path(__file__).resolve().parents[1] / "scripts"
TESTS = '''
import subprocess, sys, time

def test_child_burns():
    # about 0.6 CPU-seconds, all of it in a child process
    subprocess.run([sys.executable, "-c", "import time\\nt = time.process_time()\\nwhile time.process_time() - t < 0.6: pass"], check=True)

def test_sleeps():
    time.sleep(1.0)   # a second of wall time, next to no CPU
'''


def test_a_test_is_charged_its_childrens_cpu_not_its_wall_time(tmp_path):
    pytest.importorskip("xdist")
    (tmp_path / "test_costs.py").write_text(TESTS)
    env = {**os.environ, "PYTHONPATH": str(SCRIPTS)}
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-n", "1", "-p", "pytest_cpu_seconds",
                           "-p", "no:cacheprovider", "test_costs.py"], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    charged = {m[2]: float(m[1]) for m in re.finditer(r"^\s*([\d.]+)\s+test_costs\.py::(\w+)$", proc.stdout, re.M)}
    # the child's 0.6 s plus its Python start-up (0.02-0.1 s), printed to 0.1 s
    assert 0.6 <= charged["test_child_burns"] <= 1.5, proc.stdout
    assert charged["test_sleeps"] <= 0.1, proc.stdout
    total = float(re.search(r"CPU-seconds of the tests: ([\d.]+) in 2 tests", proc.stdout)[1])
    assert total == pytest.approx(charged["test_child_burns"] + charged["test_sleeps"], abs=0.15)
