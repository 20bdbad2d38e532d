"""Open a local HTML file in headless Chromium (Debian's package) and tell what happened: the console messages,
every request the page made (from Chromium's NetLog), the DOM after the scripts ran, and a screenshot."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from skip_summary import NO_CHROMIUM

CHROMIUM = shutil.which("chromium")
# every test that opens a page in Chromium; the run's summary counts them when skipped (skip_summary.py)
needs_chromium = pytest.mark.skipif(CHROMIUM is None, reason=NO_CHROMIUM)
# Bokeh says which log level it set when it loads; every other console message is a finding.
BOKEH_LOG_LEVEL = "setting log level to: 'warn'"


@dataclass
class PageLoad:
    console: list[str]      # console messages other than Bokeh's log-level line
    requests: list[str]     # URLs the page asked for (its own file excluded)
    dom: str                # the DOM serialised after the scripts ran
    screenshot: Path


def _run(page: Path, work: Path, extra: list[str]) -> subprocess.CompletedProcess:
    argv = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--hide-scrollbars",
            # no update checks or sign-in pings: the NetLog then holds the page's requests and Chromium's few
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            f"--user-data-dir={work / 'profile'}", "--virtual-time-budget=8000", *extra, page.resolve().as_uri()]
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(work)}
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=180, env=env)
    if proc.returncode != 0:
        raise RuntimeError(f"chromium exited {proc.returncode}: {proc.stderr[-2000:]}")
    return proc


def page_requests(netlog: Path) -> list[str]:
    """URLs requested on behalf of a file:// page: a request's network isolation key names the site of the
    frame that made it, and a local page's is file:// (Chromium's own traffic has another key)."""
    events = json.loads(netlog.read_text())["events"]
    return sorted({e["params"]["url"] for e in events
                   if "url" in e.get("params", {})
                   and str(e["params"].get("network_isolation_key", "")).startswith("file://")
                   and not e["params"]["url"].startswith("file://")})


def open_page(page: Path, work: Path, width: int = 1400, height: int = 3200) -> PageLoad:
    work.mkdir(parents=True, exist_ok=True)
    shot, netlog = work / "page.png", work / "netlog.json"
    proc = _run(page, work, ["--enable-logging=stderr", "--v=0", f"--log-net-log={netlog}", "--dump-dom",
                             f"--window-size={width},{height}", f"--screenshot={shot}"])
    console = [line for line in proc.stderr.splitlines() if ":CONSOLE" in line and BOKEH_LOG_LEVEL not in line]
    return PageLoad(console=console, requests=page_requests(netlog), dom=proc.stdout, screenshot=shot)


def pixels_of(png: Path, hex_colour: str) -> int:
    """How many pixels of the screenshot are exactly this colour (#rrggbb)."""
    from PIL import Image

    rgb = tuple(int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))
    img = Image.open(png).convert("RGB")
    return dict((c, n) for n, c in img.getcolors(maxcolors=img.width * img.height)).get(rgb, 0)
