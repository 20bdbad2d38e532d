"""The report of the recorded FLUX example at 80, 120 and 200 columns (--width, and COLUMNS when piped): no
line wider than asked, every number shown in full (each cell equals the JSON value formatted here), every row
named apart, and the columns each width keeps."""
import json

import pytest
from rich.cells import cell_len
from typer.testing import CliRunner

from inductor_prof.cli import app
from recorded import REPO

BIG = REPO / "examples" / "runs" / "flux-h100"
runner = CliRunner()


def tables(text: str) -> list[dict]:
    """{"headers": [...], "rows": [[cell, ...], ...], "sub": [(row index, [cell, ...]), ...]} of each table with
    a header row, in order (kernels, ncu, attention). A header or a cell wrapped onto more lines is joined with
    spaces; a row's continuation lines have an empty first cell. A kernel's calls by shape (a first cell
    starting "↳") are its sub-rows, kept apart; their continuation lines (the modules) have only a first cell."""
    out, lines, i = [], text.splitlines(), 0
    while i < len(lines):
        if not lines[i].startswith("┏"):
            i += 1
            continue
        i += 1
        head = []
        while not lines[i].startswith("┡"):
            head.append([c.strip() for c in lines[i].split("┃")[1:-1]])
            i += 1
        headers = [" ".join(w for w in col if w) for col in zip(*head)]
        rows, sub, last = [], [], None
        i += 1
        while not lines[i].startswith("└"):
            cells = [c.strip() for c in lines[i].split("│")[1:-1]]
            modules_line = bool(sub) and last is sub[-1][1] and not any(cells[1:])
            if cells[0].startswith("↳"):
                sub.append((len(rows) - 1, cells))
                last = cells
            elif not rows or (cells[0] and not modules_line):
                rows.append(cells)
                last = cells
            else:
                last[:] = [f"{a} {b}".strip() for a, b in zip(last, cells)]
            i += 1
        out.append({"headers": headers, "rows": rows, "sub": sub})
    return out


def num(v, fmt):
    return "-" if v is None else fmt.format(v)


def mb(v):
    return "-" if v is None else f"{v / 1e6:.1f}"


# each shown number, formatted from the JSON kernel record `k` (the formats the report promises)
KERNEL_CELLS = {
    "calls": lambda k: str(k["calls"]),
    "total ms": lambda k: f"{k['total_ns'] / 1e6:.2f}",
    "avg µs": lambda k: f"{k['avg_us']:.1f}",
    "% GPU": lambda k: f"{k['pct_of_gpu_time']:.1f}",
    "TFLOP/s": lambda k: num(k["tflops"], "{:.0f}" if k["tflops"] >= 10 else "{:.2g}") if k["flops"] > 0 else "-",
    "GB/s": lambda k: f"{k['gbps']:.0f}" if k["bytes"] > 0 else "-",
    "bound": lambda k: k["bound"] or "-",
    "% of peak": lambda k: num(k["pct_of_peak"], "{:.1f}"),
    "kind": lambda k: k["kind"],
}
NCU_CELLS = {
    "ncu µs": lambda k: f"{k['ncu_duration_ns'] / 1e3:.1f}",
    "read ratio": lambda k: num(k["dram_read_ratio"], "{:.2f}"),
    "write ratio": lambda k: num(k["dram_write_ratio"], "{:.2f}"),
    "total ratio": lambda k: num(k["dram_ratio"], "{:.2f}"),
    "SOL mem %": lambda k: f"{k['sol_memory_pct']:.1f}",
    "SOL SM %": lambda k: f"{k['sol_compute_pct']:.1f}",
    "tensor %": lambda k: f"{k['tensor_pipe_pct']:.1f}",
    "occup. %": lambda k: f"{k['occupancy_pct']:.1f}",
    "regs": lambda k: f"{k['registers']:.0f}",
    # MB measured / annotated per launch; library kernels have no annotation
    "read MB": lambda k: f"{k['ncu_dram_read_bytes'] / 1e6:.1f}/{mb(k['read_bytes_per_call'])}",
    "write MB": lambda k: f"{k['ncu_dram_write_bytes'] / 1e6:.1f}/{mb(k['write_bytes_per_call'])}",
}
ATTENTION_CELLS = {
    "ms": lambda a: num(a["ms"], "{:.3f}"),
    # whole from 10 up, two significant digits below (numba's scalar kernel: 1.7, not 2)
    "TFLOP/s": lambda a: num(a["tflops"], "{:.0f}" if (a["tflops"] or 0) >= 10 else "{:.2g}"),
    "% peak": lambda a: num(a["pct_of_peak"], "{:.1f}"),
    "vs model": lambda a: num(a["speedup_vs_model"], "{:.2f}x"),
    "rel err": lambda a: num(a["rel_err"], "{:.1e}"),
    "shape": lambda a: a["shape"],
}
# the columns each width keeps: the most telling first (kernel, time share, time per launch, rates, % of peak).
# The re-recorded run carries provenance, so the module each kernel came from is shown after the 80-column set
# (rank 5.6, before bound): at 120 it takes the room calls and total ms had
KERNEL_COLUMNS = {
    80: ["kernel", "avg µs", "% GPU", "TFLOP/s", "GB/s", "% of peak"],
    120: ["kernel", "module", "avg µs", "% GPU", "TFLOP/s", "GB/s", "bound", "% of peak"],
    200: ["kernel", "module", "kind", "fused ATen ops", "calls", "total ms", "avg µs", "% GPU", "TFLOP/s", "GB/s",
          "bound", "% of peak", "ncu binds"],
}


@pytest.fixture(scope="module")
def report_json():
    r = runner.invoke(app, ["report", str(BIG), "--top", "0", "--json"])
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


def render(width: int, how: str) -> str:
    if how == "--width":
        r = runner.invoke(app, ["report", str(BIG), "--top", "0", "--width", str(width)], env={"COLUMNS": None})
    else:       # piped (CliRunner's stdout is no terminal) with COLUMNS
        r = runner.invoke(app, ["report", str(BIG), "--top", "0"], env={"COLUMNS": str(width)})
    assert r.exit_code == 0, r.output
    return r.stdout


@pytest.fixture(scope="module", params=[(w, how) for w in (80, 120, 200) for how in ("--width", "COLUMNS")],
                ids=lambda p: f"{p[0]}-{p[1]}")
def shown(request):
    width, how = request.param
    text = render(width, how)
    return width, text, tables(text)


def test_no_line_wider_than_asked(shown):
    width, text, _ = shown
    widest = max(cell_len(line) for line in text.splitlines())
    assert widest <= width
    assert widest >= width - 2     # the kernel table takes the room it is given


def test_kernel_table_numbers_in_full(shown, report_json):
    width, _, t = shown
    table = t[0]
    assert table["headers"] == KERNEL_COLUMNS[width]
    assert len(table["rows"]) == len(report_json["kernels"]) == 57
    for cells, k in zip(table["rows"], report_json["kernels"]):
        for header, cell in zip(table["headers"], cells):
            if header in KERNEL_CELLS:
                assert cell == KERNEL_CELLS[header](k), (width, k["name"], header)


def test_rows_named_apart_and_alike_in_both_tables(shown, report_json):
    width, _, t = shown
    kernels, ncu = t[0], t[1]
    assert ncu["headers"][:2] == ["kernel", "ncu µs"]
    names = [r[0] for r in kernels["rows"]]
    assert len(set(names)) == len(names) == 57
    by_display = dict(zip(names, report_json["kernels"]))
    for label, k in by_display.items():
        # what is shown is the display name with parts cut out: its pieces appear in it, in order
        rest = k["display"]
        for piece in label.replace("…", "\0").split("\0"):
            if piece.startswith(" #"):      # numbered apart by the shortening: not part of the name
                continue
            assert piece in rest, (label, k["display"])
            rest = rest[rest.index(piece) + len(piece):]
    assert len(ncu["rows"]) == 26
    for cells in ncu["rows"]:
        k = by_display[cells[0]]         # the ncu table names each kernel as the kernel table does
        for header, cell in zip(ncu["headers"], cells):
            if header in NCU_CELLS:
                assert cell == NCU_CELLS[header](k), (width, k["name"], header)


def test_attention_numbers_in_full(shown, report_json):
    width, _, t = shown
    table = t[2]
    assert {"backend", "ms", "TFLOP/s", "vs model", "ok"} <= set(table["headers"])
    rows = report_json["attention"]
    assert [r[0] for r in table["rows"]] == [a["backend"] for a in rows]
    for cells, a in zip(table["rows"], rows):
        for header, cell in zip(table["headers"], cells):
            if header in ATTENTION_CELLS:
                assert cell == ATTENTION_CELLS[header](a), (width, a["backend"], header)
            if header == "ok":
                assert cell == ("n/a" if not a["available"] else "yes" if a["ok"] else "NO")


@pytest.fixture(scope="module")
def wide():
    return render(200, "--width")


def test_summary_wraps_words_never_cuts_them(shown, wide):
    # every word of the summary at 200 columns is a word of it at this width too (wrapping moves, never cuts)
    def words(text):
        lines = text[text.index("Summary"):].splitlines()
        return sorted(w for ln in lines for cell in ln.split("│")[1:-1] for w in cell.split())
    assert words(shown[1]) == words(wide)


def test_piped_without_columns_is_full_width():
    r = runner.invoke(app, ["report", str(BIG), "--top", "3"], env={"COLUMNS": None})
    assert r.exit_code == 0, r.output
    assert tables(r.stdout)[0]["headers"] == KERNEL_COLUMNS[200]


def test_width_below_40_refused():
    r = runner.invoke(app, ["report", str(BIG), "--width", "30"])
    assert r.exit_code == 2 and "--width" in r.output


def test_names_keep_their_room_before_minor_columns():
    # top 10: short kind values would fit beside 37-cell names, but names get 48 cells before kind is added
    r = runner.invoke(app, ["report", str(BIG), "--top", "10", "--width", "120"])
    assert r.exit_code == 0, r.output
    kernels = tables(r.stdout)[0]
    assert kernels["headers"] == KERNEL_COLUMNS[120]
    assert max(len(row[0]) for row in kernels["rows"]) >= 48


def test_where_to_look_next_says_its_advice_in_full(shown, report_json):
    """The headroom table's words (a row's "what" that is not a kernel: the launch/idle gap; what to "do"; what
    it is "measured against") are advice: they wrap, never cut. At 80 columns they were once cut like kernel
    names, in the middle: "launch overhead and…GPU busy)"."""
    _, _, found = shown
    kernels = {k["display"] for k in report_json["kernels"]}
    rows = report_json["summary"]["headroom"]["next"]
    advice = [r["what"] for r in rows if r["what"] not in kernels]
    # the recorded run's such rows: the cuDNN attention in the model vs alone (2.68 ms/step, in_model.py) and the
    # 4.40 ms/step launch gap; gluon_fa3 beating the model's sdpa_cudnn is no separate row: it is folded into the
    # cuDNN attention kernel's row (its "do" names gluon_fa3)
    assert sorted(advice) == sorted(["launch overhead and idle", next(k for k in kernels if k.startswith(
        "cudnn_generated_fort_native_sdpa")) + " in the model vs alone"])
    table = next(t for t in found if "what" in t["headers"])
    # a column that does not fit is left out whole (said in the caption), never squeezed: at 80 columns
    # "measured against" (its longest word unbroken) goes before category; what and do are always there
    order = ["headroom ms/step", "roofline ms/step", "what", "do", "measured against", "category"]
    assert table["headers"] == [h for h in order if h in table["headers"]]
    assert {"what", "do"} <= set(table["headers"])
    col = {h: [row[i] for row in table["rows"]] for i, h in enumerate(table["headers"])}
    # words wrap whole; an in-model item (a kernel's name first) is cut like a kernel's name
    assert all(a in col["what"] for a in advice if not a.endswith(" in the model vs alone")), col["what"]
    # each shown row's "do" and "measured against" are the JSON's words in full (joined across wrapped lines)
    for i, r in enumerate(rows[:len(table["rows"])]):
        assert col["do"][i] == r["do"], (i, col["do"][i])
        if "measured against" in col:
            assert col["measured against"][i] == r["why"], (i, col["measured against"][i])
    attention = next(r for r in rows if r["category"] == "attention")
    assert "gluon_fa3" in attention["do"] and attention["do"] in col["do"]


# ---- a library kernel's calls by shape ---------------------------------------------------------------------

def test_calls_by_shape_under_their_kernel_where_the_width_fits(shown, report_json):
    """From 100 columns, each library kernel of 1% of GPU time or more that ran calls of two or more shapes
    has a sub-row per shape (all of them here: 3 or 4 each), the longest first, its numbers the JSON's
    calls_by_shape written as the kernel rows write theirs; at 80 a line says where they are."""
    width, text, found = shown
    kernels = found[0]
    if width < 100:
        assert kernels["sub"] == []
        assert "calls by shape of 3 library kernels: --width 100 or more, --json, --csv, --html" in text
        return
    assert "↳ a library kernel's calls by shape, timed in the torch.profiler step (library_ops.csv)" in text
    by_kernel: dict[int, list] = {}
    for i, cells in kernels["sub"]:
        by_kernel.setdefault(i, []).append(dict(zip(kernels["headers"], cells)))
    assert [report_json["kernels"][i]["name"] for i in by_kernel] == [
        "nvjet_sm90_tst_192x192_64x4_2x1_v_bz_coopB_bias_TNN", "nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_bias_TNT",
        "nvjet_sm90_tst_96x128_64x7_2x1_v_bz_bias_TNN"]
    for i, subs in by_kernel.items():
        shapes = report_json["kernels"][i]["calls_by_shape"]
        assert len(subs) == len(shapes)
        for cells, s in zip(subs, shapes):
            modules = f" {s['module']}" if s["module"] != "-" else ""
            assert cells["kernel"] == f"↳ {s['shape']} {s['calls_per_step']}/step{modules}"
            assert cells["avg µs"] == f"{s['avg_us']:.1f}" and cells["% GPU"] == f"{s['pct_of_gpu_time']:.1f}"
            assert cells["TFLOP/s"] == f"{s['tflops']:.0f}" and cells["GB/s"] == f"{s['gbps']:.0f}"
            assert cells["% of peak"] == f"{s['pct_of_peak']:.1f}" and cells["bound"] == s["bound"]
    # by hand: library_ops.csv's 76 addmm calls of [4096,3072]x[3072,3072] on the 256x128 kernel take 7,599,610
    # ns in the traced step: 100.0 us a call, 7.59961 of the step's 128.621 ms of GPU kernel time (summary) = 5.9%
    first = by_kernel[2][0]
    assert first["kernel"] == "↳ [4096,3072]x[3072,3072] 76/step *.attn.to_q, to_k, to_v, to_out.0"
    assert (first["avg µs"], first["% GPU"]) == ("100.0", "5.9")


def test_shapes_beyond_the_first_three_in_one_line():
    # llama-sizes-h100: the 256x128 kernel ran 7 mm shapes over its 3 sizes; 4 of them are said in one line
    r = runner.invoke(app, ["report", str(REPO / "examples" / "runs" / "llama-sizes-h100"), "--top", "1",
                            "--width", "120"])
    assert r.exit_code == 0, r.output
    sub = [dict(zip(t["headers"], cells)) for t in tables(r.stdout)[:1] for _, cells in t["sub"]]
    assert len(sub) == 4 and sub[-1]["kernel"] == "↳ 4 more shapes, 2.53 ms/step" and sub[-1]["avg µs"] == ""
    j = json.loads(runner.invoke(app, ["report", str(REPO / "examples" / "runs" / "llama-sizes-h100"), "--top", "1",
                                       "--json"]).stdout)["kernels"][0]["calls_by_shape"]
    assert sub[-1]["% GPU"] == f"{sum(s['pct_of_gpu_time'] for s in j[3:]):.1f}"
    assert f"{sum(s['step_ms'] for s in j[3:]):.2f}" == "2.53"
