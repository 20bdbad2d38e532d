"""The HTML report carries the terminal report's sections in its order and `report --json`'s numbers: every
cell that names a column of the tables (data-k) holds its value as --json writes it (data-v), for every kernel,
shape, ncu row, advice item, size and rank of the shipped runs; kernel names link to their source views (each
recorded line with its counters) from their rows and from the advice; the roofline's numbers name kernels of
the table."""
import json
import re

import pytest
from typer.testing import CliRunner

from html_page import Page
from recorded import REPO
from inductor_prof.cli import app
from inductor_prof.inductor.module_paths import listed

RUNS = REPO / "examples" / "runs"
runner = CliRunner()


def _report(run, tmp_path, *extra):
    """`report RUN --html PAGE --json --top 0 [extra]`: the parsed page, its text and the JSON report."""
    pytest.importorskip("bokeh")
    out = tmp_path / "page.html"
    r = runner.invoke(app, ["report", str(run), "--html", str(out), "--json", "--top", "0", *extra])
    assert r.exit_code == 0, r.output
    text = out.read_text()
    return Page(text), text, json.loads(r.stdout)


@pytest.fixture(scope="module")
def flux(tmp_path_factory):
    return _report(RUNS / "flux-h100", tmp_path_factory.mktemp("flux"))


def same(shown: str, value) -> bool:
    """A cell's data-v against the JSON's value: numbers exactly (repr of a float), None as ""."""
    if value is None:
        return shown == ""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return shown == str(value)
    return shown != "" and float(shown) == float(value)


def check(page: Page, table_id: str, records: list[dict]) -> int:
    """Each row's data-k cells equal its record's values (rows and records in one order); the cells checked."""
    rows = page.values(table_id)
    assert len(rows) == len(records), table_id
    n = 0
    for row, rec in zip(rows, records):
        for key, shown in row.items():
            value = listed(rec[key] or []) if key == "modules" else rec.get(key)
            assert same(shown, value), (table_id, rec.get("name") or rec.get("size"), key, shown, value)
            n += 1
    return n


def test_every_kernel_number_is_the_json_one(flux):
    page, _, obj = flux
    kernels = obj["kernels"]
    # 57 kernels, 19 numbered columns each (module among them; the new one: headroom to its unit; `ncu binds` is
    # a word of binding_unit, not a --json value)
    assert check(page, "kernel-table", kernels) == 57 * 19
    shapes = 0
    for i, k in enumerate(kernels):                          # a library kernel's calls by shape, each of them
        if k["origin"] == "library":
            shapes += check(page, f"kernel-table-shapes-{i}", k["calls_by_shape"])
    assert shapes > 0
    check(page, "ncu-table", [k for k in kernels if k.get("ncu_duration_ns") is not None])
    check(page, "attention-table", obj["attention"])
    check(page, "next-table", obj["summary"]["headroom"]["next"])


def test_a_cut_name_is_whole_in_the_dom(flux):
    # the longest name (130 characters): shown cut in the middle by CSS, its text whole (copy, find, title)
    page, text, obj = flux
    longest = max((k["display"] for k in obj["kernels"]), key=len)
    assert len(longest) == 127
    cell = page.row("kernel-table", longest)
    assert cell["kernel"] == longest and f'title="{longest}"' in text
    assert f'<span class="h">{longest[:-14]}</span><span class="t">{longest[-14:]}</span>' in text


def test_sections_in_the_terminals_order(flux, tmp_path):
    """terminal.render prints: (ranks), kernels, ncu (and what it did not profile), attention, (sizes), where to
    look next, summary; the page then adds its per-line counters and kernel sources."""
    _, text, _ = flux
    ids = re.findall(r'<h2 id="([^"]+)"', text)
    assert ids == ["kernels", "roofline", "ncu", "attention", "advice", "summary", "inspect", "sources"]
    page, text, obj = _report(RUNS / "flux-small-sizes-h100", tmp_path)
    assert re.findall(r'<h2 id="([^"]+)"', text).index("sizes") == 4
    check(page, "sizes-table", obj["summary"]["sizes"])
    # each kernel at each size: the page's rows in the kernel table's order, then by size
    at = {(k["name"], k["size"]): k for k in obj["kernels_by_size"]}
    order = [k["name"] for k in obj["kernels"]]
    sizes = [s["size"] for s in obj["summary"]["sizes"]]
    check(page, "size-kernel-table", [at[n, s] for n in order for s in sizes if (n, s) in at])


def test_a_run_of_ranks_shows_its_ranks_first(tmp_path):
    from ranked_runs import make

    run = make(tmp_path / "run")
    page, text, obj = _report(run, tmp_path, "--rank", "1")
    assert re.findall(r'<h2 id="([^"]+)"', text)[:2] == ["ranks", "kernels"]
    check(page, "ranks-table", obj["ranks"]["ranks"])
    check(page, "collectives-table", obj["ranks"]["collectives"])
    # the spread line as the terminal writes it: rank 1 slowest at 9.150 ms (ranked_runs.make)
    assert "rank 1 slowest at 9.150 ms, rank 0 fastest at 8.713 ms" in text


def _link(text: str, name: str) -> str:
    """Where the first link around kernel name `name` (a cut name's span) leads."""
    at = text.index(f'class="src-link"><span class="cut" data-full="{name}">')
    return text[text.rindex('href="#', 0, at) + 7:].split('"')[0]


def test_source_view_from_the_row_and_the_advice(flux):
    page, text, obj = flux
    rms = "triton_red_fused__fused_rms_norm__scaled_dot_product_cudnn_attention__to_copy_add_mul_neg_permute" \
          "_stack_unbind_unsqueeze_view_2"
    # the kernel table's row and the advice item naming it lead to one source view
    table_link = _link(text, rms)
    advice = text[text.index('id="next-table"'):]
    assert _link(advice, rms) == table_link
    view = text[text.index(f'<details id="{table_link}">'):]
    view = view[:view.index("</details>\n")]
    assert "per-line counters" in view and "transformer_flux.py:102" in view and "FX nodes</b> (60)" in view
    # line 73, its hottest (`inspect` ranks it first): 15.6% of the samples, 2.9% of the instructions, 56.6 MB
    # of L2 traffic, its warps mostly waiting on the load (long_scoreboard)
    heat = page.tables[f"{table_link}-heat-0"]
    line = dict(zip(heat["headers"], next(r for r in heat["rows"] if r[0] == "73")))
    assert (line["% samples"], line["% inst"], line["L2 MB"]) == ("15.6", "2.9", "56.6")
    assert line["top stalls"].startswith("long_scoreboard 89%, mio_throttle 3%")
    assert line["source"].startswith("tmp92 = tl.load(in_ptr5")
    assert sum(1 for r in heat["rows"] if r[1] or r[2]) == 51   # every row `inspect --top 0` lists
    ranked = view.split("its per-line counters ranked")[0].rsplit('href="#', 1)[1].split('"')[0]
    assert page.tables[f"{ranked}-rows-0"]["rows"][0][1:3] == ["73", "15.6"]   # first in its ranked section


def test_roofline_numbers_name_rows_of_the_kernel_table(flux):
    page, text, obj = flux
    legend = page.tables["roofline-table"]
    by_time = sorted([k for k in obj["kernels"] if k["flops"] > 0 and k["bytes"] > 0 and k["tflops"]],
                     key=lambda k: -k["step_ms"])[:15]
    assert [r[0] for r in legend["rows"]] == [str(i) for i in range(1, 16)]
    check(page, "roofline-table", by_time)
    kernel_ids = dict(zip([r[0] for r in page.tables["kernel-table"]["rows"]], page.tables["kernel-table"]["ids"]))
    for row, k in zip(legend["rows"], by_time):              # each number's link: its kernel's row
        at = text.index(f'<td class="num" id="roofline-{row[0]}">')
        assert text[at:].split('href="#')[1].split('"')[0] == kernel_ids[k["display"]]
