"""The run's summary says when browser tests were skipped for want of Chromium (skip_summary.py): a real pytest run
in a child process, under pytest-xdist as the README's command runs, with and without a `chromium` on PATH."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).parent
PAGES = """
from headless import needs_chromium

@needs_chromium
def test_page_opens():
    pass

@needs_chromium
def test_page_fits():
    pass

def test_not_a_page():
    pass
"""


def _run(tmp_path: Path, chromium: bool) -> list[str]:
    (tmp_path / "test_pages.py").write_text(PAGES)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    if chromium:
        # never started: the tests above open no page; only its presence on PATH is read (shutil.which)
        (bin_dir / "chromium").write_text("#!/bin/sh\nexit 1\n")
        (bin_dir / "chromium").chmod(0o755)
    env = {**os.environ, "PATH": str(bin_dir), "PYTHONPATH": str(TESTS)}
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-n", "1", "-p", "skip_summary",
                           "-p", "no:cacheprovider", "test_pages.py"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout.splitlines()


def test_the_summary_says_browser_tests_were_skipped_without_chromium(tmp_path):
    pytest.importorskip("xdist")
    lines = _run(tmp_path, chromium=False)
    # the line just above pytest's last one, which alone would say only "2 skipped"
    assert "2 browser tests skipped: chromium not on PATH" in lines[-2], lines[-4:]
    assert "1 passed, 2 skipped" in lines[-1]
    # and among the skips by reason, both counted under the one reason
    assert any(line.split() == ["2", *"browser test skipped: chromium not on PATH (apt-get install chromium)".split()]
               for line in lines), lines


def test_no_such_line_when_chromium_is_there(tmp_path):
    pytest.importorskip("xdist")
    lines = _run(tmp_path, chromium=True)
    assert "3 passed" in lines[-1]
    assert not any("browser test" in line for line in lines), lines


def test_this_suite_registers_the_hook(request):
    # tests/conftest.py imports it: the README's command prints the line, not only a run given -p skip_summary
    import skip_summary

    impls = request.config.hook.pytest_terminal_summary.get_hookimpls()
    assert any(impl.function is skip_summary.pytest_terminal_summary for impl in impls)
