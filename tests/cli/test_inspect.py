"""`inductor-prof inspect RUN KERNEL` on the recorded FLUX run with two recorded source reports (recorded.source_run):
the terminal view at 80 columns, --json, a library kernel's SASS regions, a kernel without source counters,
names that match no kernel or several; and `inductor-prof ncu RUN --source KERNEL` (ncu a fake)."""
import json

import pytest

from cli_main import run_main
from fakes import fake_exe
from recorded import NVJET_KERNEL, RMS_KERNEL, source_report, source_run


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    return source_run(tmp_path_factory.mktemp("inspect") / "run")


def test_terminal_view_at_80_columns(run, capsys):
    code, out, err = run_main(["inspect", str(run), "rms_norm__scaled", "--width", "80"], capsys)
    assert code == 0, err
    lines = out.splitlines()
    assert max(len(line) for line in lines) <= 80 and not any(line.endswith(" ") for line in lines)
    assert "".join(lines[:2]) == RMS_KERNEL                        # the name whole, over two lines
    text = "\n".join(lines)
    assert lines[2].startswith("kernel      Inductor reduction, module *.attn, run")
    for fact in ["roofline    memory-bound: 984 GB/s, 3 TFLOP/s, 30.2% of DRAM (measured) 3264",
                 "launch      grid 55296x1x1, block 64x1x1, 48 registers/thread, 512 B",
                 "occupancy   59.5% achieved of 62.5% theoretical (limited by registers: 20",
                 "modules     in single_transformer_blocks.*: attn.norm_q, attn, attn.to_q,",
                 "model       embeddings.py:997  out = (x.float() * cos + x_rotated.float() *",
                 "warps: long_scoreboard 42.6%, not_selected 11.0%, wait 9.7%, short_scoreboard"]:
        assert fact in text
    at = lines.index("  #  line              smp%  inst%     L2 MB  top stalls (of its samples)")
    assert lines[at + 1:at + 5] == [
        "  1  73                15.2    2.9   56.6 ld  long_scoreboard 87%",
        "     | tmp92 = tl.load(in_ptr5 + (r0_1 + 128*x5), r0_mask, eviction_policy='evi…",
        "  2  72                14.1    4.3   56.6 ld  long_scoreboard 76%",
        "     | tmp89 = tl.load(in_ptr4 + (r0_1 + 128*x5), r0_mask, eviction_policy='evi…"]
    assert " 10  standard.py:263    2.6    1.8            short_scoreboard 75%" in lines
    assert "10 of 51 lines (--top; --top 0 shows all)" in lines
    assert "* global accesses not coalesced (up to 50% of their L2 sectors excess): lines" in lines


def test_top_zero_shows_every_line(run, capsys):
    code, out, _ = run_main(["inspect", str(run), RMS_KERNEL, "--top", "0", "--width", "120"], capsys)
    assert code == 0 and sum(1 for line in out.splitlines() if line.startswith("     | ")) == 51   # each line's text
    assert "(--top; --top 0 shows all)" not in out


def test_json(run, capsys):
    code, out, err = run_main(["inspect", str(run), "rms_norm__scaled", "--json"], capsys)
    assert code == 0, err
    view = json.loads(out)
    assert view["name"] == RMS_KERNEL and view["missing"] is None
    assert view["roofline"]["bound"] == "memory" and view["roofline"]["ceiling_unit"] == "GB/s"
    assert round(view["roofline"]["headroom_ms_per_step"], 2) == 3.18
    assert view["ncu"]["registers"] == 48 and view["inductor_config"]["XBLOCK"] == 2
    assert view["provenance"]["frames"][0]["line"] == 997
    (sc,) = view["source_counters"]
    assert sc["by"] == "line" and sc["samples"] == 12_777 and len(sc["rows"]) == 51   # every line, not --top
    top = sc["rows"][0]
    assert (top["line"], top["samples"], top["inst"], top["code"][:14]) == (73, 1943, 2_101_248, "tmp92 = tl.loa")
    assert sc["launch"]["grid_x"] == 55296


def test_library_kernel_by_sass_region(run, capsys):
    code, out, err = run_main(["inspect", str(run), "nvjet_sm90_tst_192x192", "--width", "80", "--top", "2"],
                              capsys)
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == NVJET_KERNEL and max(len(line) for line in lines) <= 80
    assert "SASS regions (basic blocks: the kernel has no line info) ranked by warp samples (52,888" in " ".join(lines)
    assert "replayed    [4608,15360]x[15360,3072] (its costliest call)" in lines
    assert "launch      grid 2x66x1, block 384x1x1, cluster 2x1x1, 168 registers/thread," in lines
    at = next(i for i, line in enumerate(lines) if line.startswith("  #  region"))
    assert lines[at + 1].startswith("  1  +0x09c0..+0x0d20   63.0   53.4            warpgroup_arrive 43%")
    assert lines[at + 2].startswith("     | +0x0c30 HGMMA.64x96x16.F32.BF16 R120, gdesc[UR16], R120, !UP1")


def test_a_kernel_without_source_counters_says_how_to_get_them(run, capsys):
    code, out, err = run_main(["inspect", str(run), "triton_poi_fused_gelu_view_12", "--width", "200"], capsys)
    assert code == 0, err
    assert "roofline    memory-bound: 2804 GB/s" in out and "launch " not in out   # what it has: no launch stats
    said = out.strip().splitlines()
    assert said[-1] == f"  inductor-prof ncu {run} --source triton_poi_fused_gelu_view_12"   # whole, to copy
    assert said[-2] == (f"no source counters for this kernel in {run} (the source pass did not run "
                                     "for it); record them on the GPU machine:")
    code, out, _ = run_main(["inspect", str(run), "triton_poi_fused_gelu_view_12", "--json"], capsys)
    view = json.loads(out)
    assert view["source_counters"] == [] and "--source triton_poi_fused_gelu_view_12" in view["missing"]
    assert view["ncu"]["registers"] > 0          # from the metric pass's table


def test_unknown_kernel_is_one_line_naming_the_closest(run, capsys):
    code, out, err = run_main(["inspect", str(run), "triton_poi_fused_gelu_view_14"], capsys)
    assert code == 2 and out == ""
    assert err.startswith(f"error: no kernel 'triton_poi_fused_gelu_view_14' in {run}; closest: "
                          "triton_poi_fused_gelu_view_12, ") and err.count("\n") == 1


def test_ambiguous_name_is_one_line(run, capsys):
    code, _, err = run_main(["inspect", str(run), "rms_norm"], capsys)
    assert code == 2 and err.startswith("error: 'rms_norm' matches 4 kernels of ") and err.count("\n") == 1


def _json_view(path, capsys) -> tuple[dict, str]:
    """(the --json view of the RMS kernel, the run folder's path in it written RUN; stderr)."""
    code, out, err = run_main(["inspect", str(path), "rms_norm__scaled", "--json"], capsys)
    assert code == 0, err
    view = json.loads(out.replace(json.dumps(str(path))[1:-1], "RUN"))
    return {k: v for k, v in view.items() if k != "warnings"}, err


@pytest.fixture
def as_recorded(run, capsys):
    """The --json view of the RMS kernel as the shipped run gives it (from its counters file: no warning)."""
    view, err = _json_view(run, capsys)
    assert err == ""
    return view


def test_the_counters_file_is_enough(tmp_path, capsys, as_recorded):
    """A run folder without its .ncu-rep files (an artifact kept small) reads the same: the counters file is
    what the report gave."""
    path = source_run(tmp_path / "run")
    (path / "ncu" / "source" / f"{RMS_KERNEL}.ncu-rep").unlink()
    view, err = _json_view(path, capsys)
    assert (view, err) == (as_recorded, "")


def test_a_missing_report_is_a_warning_and_the_rest_shows(tmp_path, capsys):
    path = source_run(tmp_path / "run")
    (path / "ncu" / "source" / f"{RMS_KERNEL}.ncu-rep").unlink()
    (path / "ncu" / "source" / f"{RMS_KERNEL}.counters.json").unlink()
    code, out, err = run_main(["inspect", str(path), "rms_norm__scaled", "--width", "200"], capsys)
    assert code == 0 and "roofline    memory-bound" in out
    assert f"warning: {path}/ncu/source/{RMS_KERNEL}.ncu-rep: {path}/ncu/source/{RMS_KERNEL}.ncu-rep is missing" in err


@pytest.mark.parametrize("damage, why", [
    ("{", "damaged (JSONDecodeError: Expecting property name enclosed in double quotes: line 1 column 2 (char 1))"),
    ('{"report_bytes": 5}', "damaged (no 'counters' object and 'report_bytes' size)"),
    ('{"report_bytes": 5, "counters": {"pcs": [{"offset": 0}]}}',
     "damaged (instruction record 0 lacks its offset, inst, samples or stalls)"),
], ids=["not JSON", "no counters", "cut record"])
def test_a_damaged_counters_file_is_one_warning_and_the_report_is_read(tmp_path, capsys, as_recorded, damage, why):
    pytest.importorskip("ncu_report")   # the fallback reads the .ncu-rep (the ncu extra)
    path = source_run(tmp_path / "run")
    sidecar = path / "ncu" / "source" / f"{RMS_KERNEL}.counters.json"
    sidecar.write_text(damage)
    view, err = _json_view(path, capsys)
    assert view == as_recorded
    assert err == f"warning: {sidecar} is {why}; read {RMS_KERNEL}.ncu-rep instead\n"


def test_a_stale_counters_file_is_one_warning_and_the_report_is_read(tmp_path, capsys, as_recorded):
    """The report recorded again (another size) after its counters file: the file is not taken for it."""
    pytest.importorskip("ncu_report")
    path = source_run(tmp_path / "run")
    sidecar = path / "ncu" / "source" / f"{RMS_KERNEL}.counters.json"
    data = json.loads(sidecar.read_text())
    size, data["report_bytes"] = data["report_bytes"], data["report_bytes"] + 1
    sidecar.write_text(json.dumps(data))
    view, err = _json_view(path, capsys)
    assert view == as_recorded
    assert err == (f"warning: {sidecar} is stale (written from a {size + 1}-byte report, {RMS_KERNEL}.ncu-rep has "
                   f"{size}); read {RMS_KERNEL}.ncu-rep instead\n")


def test_a_damaged_counters_file_without_the_reader_is_one_line(tmp_path, capsys, monkeypatch):
    from inductor_prof import runfiles

    monkeypatch.setattr(runfiles, "reader_found", lambda: False)   # as in the light install
    path = source_run(tmp_path / "run")
    sidecar = path / "ncu" / "source" / f"{RMS_KERNEL}.counters.json"
    sidecar.write_text("[]")
    code, out, err = run_main(["inspect", str(path), "rms_norm__scaled", "--width", "200"], capsys)
    report = path / "ncu" / "source" / f"{RMS_KERNEL}.ncu-rep"
    assert code == 0 and "roofline    memory-bound" in out
    assert err == (f"warning: {report}: {sidecar} is damaged (a JSON object expected, found a list), and reading "
                   f"{report.name} instead needs NVIDIA's ncu-report: pip install 'inductor-prof[ncu]'\n")


def test_damaged_source_status_is_one_line(tmp_path, capsys):
    path = source_run(tmp_path / "run")
    (path / "ncu" / "source" / "status.json").write_text("[1]")
    code, _, err = run_main(["inspect", str(path), "rms_norm__scaled"], capsys)
    assert code == 2 and err.startswith(f"error: {path}/ncu/source/status.json is damaged (a JSON object expected")


def test_ncu_source_option_runs_the_source_pass_only(tmp_path, capsys):
    path = source_run(tmp_path / "run")
    report = source_report(RMS_KERNEL, tmp_path / "rec.ncu-rep")
    exe = fake_exe(tmp_path, "out = args[args.index('-o') + 1]\n"
                             "open(sys.argv[0] + '.calls', 'a').write(' '.join(args) + '\\n')\n"
                             "step('load', 0, ok=True)\n"
                             "step('profile', 0)\n"
                             f"shutil.copyfile({str(report)!r}, out + '.ncu-rep')\n")
    code, out, err = run_main(["ncu", str(path), "--source", "rms_norm__scaled", "--ncu-path", exe], capsys)
    assert code == 0, err
    assert out.strip() == (f"ncu source counters, this call: 1 kernels recorded, 0 failed; reports in "
                           f"{path}/ncu/source (`inductor-prof inspect RUN KERNEL` reads them)")
    (call,) = open(exe + ".calls").read().splitlines()
    assert "--section SourceCounters" in call and f"regex:^{RMS_KERNEL}$" in call   # no metric pass
    manifest = json.loads((path / "manifest.json").read_text())
    assert manifest["stages"]["ncu_source"]["status"] == "ok"


def test_ncu_source_option_with_an_unknown_kernel(run, capsys):
    code, _, err = run_main(["ncu", str(run), "--source", "nope_kernel_x", "--ncu-path", "/bin/true"], capsys)
    assert code == 2 and err.startswith(f"error: no kernel 'nope_kernel_x' in {run}; closest: ")


def test_the_readme_example_is_what_inspect_prints(tmp_path, monkeypatch, capsys):
    from recorded import REPO

    monkeypatch.chdir(tmp_path)
    source_run(tmp_path / "runs" / "flux")
    code, out, err = run_main(["inspect", "runs/flux", "rms_norm__scaled", "--width", "80"], capsys)
    assert code == 0, err
    readme = (REPO / "docs" / "usage.md").read_text()
    start = readme.index("```\n", readme.index("`inductor-prof inspect runs/flux rms_norm__scaled --width 80`")) + 4
    assert readme[start:readme.index("```", start)] == out
