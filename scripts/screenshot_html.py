#!/usr/bin/env python3
"""The picture of the HTML report: `report RUN --html` of a run (default the FLUX example), opened in
headless Chromium, the top of the page saved as a palette PNG (small enough to keep in the repository).

    python3 scripts/screenshot_html.py [RUN] [--out docs/report-html.png] [--height 2150]
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from headless import CHROMIUM, open_page  # noqa: E402  (the tests' Chromium driver)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("run", nargs="?", default="examples/runs/flux-h100")   # as docs/usage.md names it
    ap.add_argument("--out", default=str(ROOT / "docs" / "report-html.png"))
    ap.add_argument("--width", type=int, default=1280)
    ap.add_argument("--height", type=int, default=2150)
    args = ap.parse_args()
    if CHROMIUM is None:
        print("chromium not found (apt-get install chromium)", file=sys.stderr)
        return 2
    from PIL import Image

    with tempfile.TemporaryDirectory() as tmp:
        page = Path(tmp) / "report.html"
        subprocess.run([sys.executable, "-m", "inductor_prof", "report", args.run, "--html", str(page)],
                       check=True, timeout=300, cwd=ROOT)
        load = open_page(page, Path(tmp) / "chromium", args.width, args.height)
        if load.console or load.requests:
            print(f"console: {load.console}\nrequests: {load.requests}", file=sys.stderr)
            return 1
        out = Path(args.out)
        out.parent.mkdir(parents=True, exist_ok=True)
        Image.open(load.screenshot).convert("RGB").quantize(colors=256).save(out, optimize=True)
    print(f"{out}: {out.stat().st_size / 1e3:.0f} kB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
