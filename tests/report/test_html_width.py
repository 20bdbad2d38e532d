"""The HTML report's kernel and ncu tables and the diff page fit a 1,400 px window (headless Chromium): before,
the kernel table was 1,793 px wide, the ncu table 1,452, the diff page 1,952 (names kept 22em at least, every
diff cell on one line)."""
import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from headless import needs_chromium, open_page
from recorded import data_path
from inductor_prof.cli import app

runner = CliRunner()
RUNS = data_path("..", "..", "examples", "runs")
WINDOW = 1400
# after load, each table's width and its container's, and the page's scroll width, as an attribute of <body>
PROBE = """<script>
window.addEventListener('load', () => setTimeout(() => {
  const out = {page: document.documentElement.scrollWidth, tables: {}};
  document.querySelectorAll('table').forEach((t, i) => {
    out.tables[t.id || 'table' + i] = [t.offsetWidth, t.parentElement.clientWidth]; });
  document.body.setAttribute('data-widths', JSON.stringify(out));
}, 300));
</script>"""


def _widths(page: Path, work: Path) -> dict:
    probed = work / "probed.html"
    work.mkdir(parents=True, exist_ok=True)
    probed.write_text(page.read_text().replace("</body>", PROBE + "</body>"))
    dom = open_page(probed, work, width=WINDOW).dom
    return json.loads(re.search(r'data-widths="([^"]*)"', dom).group(1).replace("&quot;", '"'))


@needs_chromium
def test_report_tables_fit_1400px(tmp_path, request):
    pytest.importorskip("bokeh")
    page, _ = request.getfixturevalue("flux_html")     # `report flux-h100 --html` (conftest.py)
    w = _widths(page, tmp_path / "chromium")
    assert w["page"] <= WINDOW
    for table in ("kernel-table", "ncu-table"):
        width, room = w["tables"][table]
        assert width <= room, (table, width, room)


@needs_chromium
def test_diff_page_fits_1400px(tmp_path):
    page = tmp_path / "d.html"
    r = runner.invoke(app, ["diff", str(RUNS / "flux-h100"), str(RUNS / "flux-h100-768x1344"), "--html", str(page)])
    assert r.exit_code == 0, r.output
    w = _widths(page, tmp_path / "chromium")
    assert w["page"] <= WINDOW
    assert all(width <= room for width, room in w["tables"].values()), w
