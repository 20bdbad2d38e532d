"""The FLUX report's page in headless Chromium at 1,400 and 1,920 px: no table row taller than its limit (a name,
an ATen op list or a kind broken over lines made rows of 300-570 px: kernel-table's tallest was 573 px at 1,400
before), no table wider than its box, no page wider than the window, every cut name whole in the DOM; and a
planted fault (names allowed to wrap) is caught. Screenshots are left in the test's tmp folder."""
import shutil

import pytest

from headless import needs_chromium
from page_layout import measure, too_tall

pytestmark = needs_chromium

# a row of the kernel table (and every table of kernels and source lines) is one line of text (25 px), so the
# table reads down; the others hold prose (advice, a backend's config, ncu's replayed call) wrapped to a few
LIMITS = {"kernel-table": 30, "roofline-table": 30, "src-": 30, "size-kernel-table": 30, "ncu-table": 90}
PROSE = 100
# the fault the check exists for: names wrapping anywhere, as the page's CSS let them before
WRAPPING_NAMES = "<style>td.name { max-width: 8em; white-space: normal !important; overflow-wrap: anywhere; } " \
                 ".cut .h { display: inline !important; }</style>"


@pytest.fixture(scope="module")
def page(flux_html):
    pytest.importorskip("bokeh")
    return flux_html[0]


@pytest.mark.parametrize("width", [1400, 1920])
def test_rows_stay_one_line_and_tables_fit(page, tmp_path, width):
    layout, shot = measure(page, tmp_path / "chromium", width, open_all=True, height=6000)
    shutil.copy(shot, tmp_path / f"flux-{width}px.png")
    assert len(layout["tables"]) >= 12          # kernels, roofline, ncu, attention, advice, per-line, sources
    assert too_tall(layout, LIMITS, PROSE) == {}
    assert layout["tables"]["kernel-table"]["row"] <= 30 and layout["tables"]["kernel-table"]["rows"] == 57
    assert layout["tables"]["kernel-table"]["header"] == layout["tables"]["ncu-table"]["header"] == "sticky"
    assert layout["page"] <= width
    wide = {t: (m["width"], m["room"]) for t, m in layout["tables"].items()
            if m["width"] > m["room"] and not t.startswith("src-")}   # a source's long lines scroll in its box
    assert wide == {}
    assert layout["cuts"] == []                 # a name cut by CSS reads whole (innerText: what a copy takes)


def test_the_check_catches_wrapping_names(page, tmp_path):
    layout, _ = measure(page, tmp_path / "chromium", 1400, extra_head=WRAPPING_NAMES)
    tall = too_tall(layout, LIMITS, PROSE)
    assert "kernel-table" in tall, tall         # 61 px rows: each name over two or more lines


# Run in the page after its own scripts: the kernel table's ms/step column before and after its box in the
# column chooser is ticked, and a folded ATen op list before and after its summary is clicked.
CHOOSER_PROBE = """<script>
var table = document.getElementById("kernel-table");
var col = Array.prototype.findIndex.call(table.tHead.rows[0].cells, function (th) {
  return th.textContent === "ms/step"; });
var cell = table.tBodies[0].rows[0].cells[col];
var probe = {before: getComputedStyle(cell).display};
var box = document.querySelector('details.columns[data-table="kernel-table"] input[data-col="' + col + '"]');
box.checked = true;
box.dispatchEvent(new Event("change"));
probe.after = getComputedStyle(cell).display;
var fold = table.querySelector(":scope > tbody > tr:not(.sub) details.fold");
var rest = fold.querySelector("div");
probe.folded = rest.checkVisibility();
fold.querySelector("summary").click();
probe.unfolded = rest.checkVisibility();
var pre = document.createElement("pre");
pre.id = "probe";
pre.textContent = JSON.stringify(probe);
document.body.appendChild(pre);
</script>
"""


def test_column_chooser_and_folded_lists_open(page, tmp_path):
    import html
    import json
    import re

    from headless import open_page

    probed = tmp_path / "probed.html"
    probed.write_text(page.read_text().replace("</body>", CHOOSER_PROBE + "</body>"))
    load = open_page(probed, tmp_path / "chromium")
    assert load.console == []
    probe = json.loads(html.unescape(re.search(r'<pre id="probe">(.*?)</pre>', load.dom).group(1)))
    assert (probe["before"], probe["after"]) == ("none", "table-cell")   # hidden until chosen
    assert (probe["folded"], probe["unfolded"]) == (False, True)


def test_a_multi_rank_decoder_run_reads_too(tmp_path):
    """The TP decoder run on two H200s: its advice names waits and the launch gap in words (prose, never cut:
    a space at a cut was lost from the text read), and attention backends that could not run give exceptions'
    messages of 300 characters (folded after their first words; a row of 123 px before)."""
    from typer.testing import CliRunner

    from recorded import REPO
    from inductor_prof.cli import app

    pytest.importorskip("bokeh")
    page = tmp_path / "tp.html"
    r = CliRunner().invoke(app, ["report", str(REPO / "examples" / "runs" / "llama-tp-h200x2"), "--html", str(page)])
    assert r.exit_code == 0, r.output
    layout, shot = measure(page, tmp_path / "chromium", 1400, open_all=True)
    shutil.copy(shot, tmp_path / "llama-tp-1400px.png")
    assert {"ranks-table", "kernel-table", "next-table", "attention-table"} <= set(layout["tables"])
    assert too_tall(layout, LIMITS, PROSE) == {} and layout["cuts"] == [] and layout["page"] <= 1400
