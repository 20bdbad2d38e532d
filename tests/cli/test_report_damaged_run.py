"""`report` on a damaged run folder (issue 12): a damaged required file is one error naming it and what is
wrong (exit 2, no traceback); a missing or damaged optional file is one warning line naming it, and the rest
renders. Each case starts from a copy of the recorded flux_small run."""
import json
import shutil

import pytest
from typer.testing import CliRunner

from recorded import AGE_MARK, data_path, without_age_warning
from inductor_prof.cli import app

runner = CliRunner()
ANNOTATED_LACK = "Inductor kernels are shown without flops and bytes (no TFLOP/s, GB/s, roofline)"
KERNELS_LACK = ("Inductor kernels are shown without fused ATen ops, read/write split and provenance "
                "(their kind from their names)")
NCU_LACK = "the report has no Nsight Compute columns"


@pytest.fixture
def run(tmp_path):
    path = tmp_path / "run"
    shutil.copytree(data_path("flux_small"), path)
    return path


def _report(run, *flags, code=0):
    r = runner.invoke(app, ["report", str(run), "--top", "0", *flags])
    assert r.exit_code == code, r.output
    assert "Traceback" not in r.output
    return r


def _warnings(run) -> list[str]:
    r = _report(run)
    assert "Summary" in r.stdout          # the rest rendered
    return without_age_warning(r.stderr.splitlines())


def test_intact_run_has_no_warnings_but_its_age(run):
    assert _warnings(run) == []
    [age] = _report(run).stderr.splitlines()
    assert AGE_MARK in age


def test_truncated_manifest_is_an_error_naming_it(run):
    text = (run / "manifest.json").read_text()
    # cut just before the comma after the first value: '{\n "tool": "inductor-prof"' -- line 2 is 24
    # characters, so the parser stops at line 2 column 25, character 26 (after "{\n")
    (run / "manifest.json").write_text(text[:text.index(',\n "command"')])
    r = _report(run, code=2)
    assert r.stderr.strip() == (f"error: {run}/manifest.json is damaged (JSONDecodeError: Expecting ',' "
                                "delimiter: line 2 column 25 (char 26)); the report needs it")


def test_manifest_of_the_wrong_shape_is_an_error_naming_it(run):
    manifest = json.loads((run / "manifest.json").read_text())
    manifest["profile"] = "3 steps"       # was: AttributeError deep in the summary
    (run / "manifest.json").write_text(json.dumps(manifest))
    assert _report(run, code=2).stderr.strip() == (
        f"error: {run}/manifest.json is damaged ('profile' should be an object, found a string); the report needs it")
    (run / "manifest.json").write_text("[]")
    assert _report(run, code=2).stderr.strip() == (
        f"error: {run}/manifest.json is damaged (a JSON object expected, found a list); the report needs it")


def test_truncated_steps_hatchet_is_an_error_naming_it(run):
    (run / "proton" / "steps.hatchet").write_text('[{"frame": {"name": "ROOT"}')
    # '[{"frame": {"name": "ROOT"}' is 27 characters: the object is not closed at the end, char 27
    assert _report(run, code=2).stderr.strip() == (
        f"error: {run}/proton/steps.hatchet is damaged (JSONDecodeError: Expecting ',' delimiter: line 1 column 28 "
        "(char 27)); the report needs it")


def test_truncated_kernels_json_is_a_warning_and_the_rest_renders(run):
    path = run / "kernels" / "kernels.json"
    text = path.read_text()
    path.write_text(text[:text.index(',\n  "kind"')])     # '[\n {\n  "name": "triton_per_..._3"' then EOF
    name = json.loads(text)[0]["name"]
    line, col = 3, len(f'  "name": "{name}"') + 1
    char = len("[\n {\n") + col - 1
    assert _warnings(run) == [f"warning: {path} is damaged (JSONDecodeError: Expecting ',' delimiter: line {line} "
                              f"column {col} (char {char})); {KERNELS_LACK}"]


def test_kernels_json_of_the_wrong_shape_is_a_warning(run):
    path = run / "kernels" / "kernels.json"
    records = json.loads(path.read_text())
    path.write_text(json.dumps({"kernels": records}))      # was: TypeError: string indices must be integers
    assert _warnings(run) == [f"warning: {path} is damaged (a list of kernel records expected, found an object); "
                              f"{KERNELS_LACK}"]
    del records[1]["kind"]                                 # was: KeyError: 'kind'
    path.write_text(json.dumps(records))
    assert _warnings(run) == [f"warning: {path} is damaged (record 1 has no 'kind'); {KERNELS_LACK}"]
    records[1]["kind"], records[2]["provenance"] = "pointwise", "layers.0"   # was: AttributeError: 'str' ... 'get'
    path.write_text(json.dumps(records))
    assert _warnings(run) == [f"warning: {path} is damaged (record 2: 'provenance' is a string); {KERNELS_LACK}"]


def test_empty_kernels_json_is_said(run):
    path = run / "kernels" / "kernels.json"
    path.write_text("[]")
    # 18 Inductor kernels ran in the steps (test_cli: 18 rows of origin inductor on this run)
    assert _warnings(run) == [f"warning: {path} lists no kernels, yet the steps ran 18 Inductor kernels; "
                              f"{KERNELS_LACK}"]


def test_missing_annotated_step_is_said_and_the_rest_renders(run):
    (run / "proton" / "annotated_step.hatchet").unlink()
    assert _warnings(run) == [f"warning: {run}/proton/annotated_step.hatchet is missing; {ANNOTATED_LACK}"]
    obj = json.loads(_report(run, "--json").stdout)
    assert without_age_warning(obj["warnings"]) == [f"{run}/proton/annotated_step.hatchet is missing; {ANNOTATED_LACK}"]
    inductor = [k for k in obj["kernels"] if k["origin"] == "inductor"]
    assert len(inductor) == 18 and not any(k["annotated"] for k in inductor)


def test_one_byte_ncu_csv_is_a_warning(run):
    (run / "ncu" / "ncu.csv").write_text("\n")        # what an interrupted ncu call once left
    assert _warnings(run) == [f"warning: {run}/ncu/ncu.csv is damaged (EmptyDataError: No columns to parse from "
                              f"file); {NCU_LACK}"]


def test_ncu_csv_behind_status_json_is_said(run):
    status = json.loads((run / "ncu" / "status.json").read_text())
    status["triton_poi_fused_silu_0"] = {"status": "ok", "report": "x.ncu-rep"}   # profiled by an unfinished call
    (run / "ncu" / "status.json").write_text(json.dumps(status))
    assert _warnings(run) == [f"warning: {run}/ncu/ncu.csv lacks 1 kernels that status.json lists as profiled (a "
                              "call of the ncu stage did not finish; run it again)"]


def test_library_ops_without_a_column_and_a_missing_kernel_file(run):
    ops = run / "library_ops.csv"
    lines = ops.read_text().splitlines()
    ops.write_text("\n".join([lines[0].replace("flops_key", "key"), *lines[1:]]) + "\n")
    kernel = json.loads((run / "kernels" / "kernels.json").read_text())[0]
    (run / "kernels" / kernel["file"]).unlink()
    assert _warnings(run) == [
        f"warning: {run}/kernels/{kernel['file']} is missing; kernel {kernel['name']} is shown without its "
        "read/write split",
        f"warning: {ops} is damaged (no column 'flops_key'); library kernels (cuBLAS, cuDNN...) are shown without "
        "flops and bytes"]


def test_failed_and_unfinished_stages_are_said(run):
    manifest = json.loads((run / "manifest.json").read_text())
    manifest["stages"]["ceilings"] = {"status": "failed", "error": "RuntimeError: CUDA out of memory. Tried 2 GiB"}
    manifest["stages"]["attention"] = {"status": "running"}       # the process died in it
    (run / "manifest.json").write_text(json.dumps(manifest))
    assert _warnings(run) == [
        f"warning: {run}/attention.csv is missing (stage attention did not finish); the report has no attention "
        "table",
        "warning: stage ceilings failed: RuntimeError: CUDA out of memory"]


def test_run_without_steps_names_the_stage_that_stopped_it(run):
    (run / "proton" / "steps.hatchet").unlink()
    expected = f"error: {run} has no Proton steps (proton/steps.hatchet); the profile did not get that far"
    assert _report(run, code=2).stderr.strip() == expected      # every recorded stage ok: nothing more to say
    manifest = json.loads((run / "manifest.json").read_text())
    # the first stage not ok, its error cut at the first sentence (as the warnings cut it)
    manifest["stages"]["build"] = {"status": "failed", "error": "TypeError: make() missing 1 argument. More"}
    manifest["stages"]["proton_steps"] = {"status": "running"}   # later in the run: not the one named
    (run / "manifest.json").write_text(json.dumps(manifest))
    assert _report(run, code=2).stderr.strip() == expected + " (stage build failed: TypeError: make() missing 1 argument)"


def test_csv_refuses_to_overwrite_a_run_file(run):
    before = (run / "ncu" / "ncu.csv").read_bytes()
    r = _report(run, "--csv", str(run / "ncu" / "ncu.csv"), code=2)
    assert r.stderr.strip() == (f"error: --csv {run}/ncu/ncu.csv is inside the run folder {run.resolve()}; write it "
                                "elsewhere (a run folder holds only what inductor-prof wrote)")
    assert (run / "ncu" / "ncu.csv").read_bytes() == before


def test_damaged_ncu_status_is_named_by_the_ncu_command(run, tmp_path):
    from fakes import fake_exe

    (run / "ncu" / "status.json").write_text('{"k": ')
    exe = fake_exe(tmp_path, "sys.exit(0)")
    r = runner.invoke(app, ["ncu", str(run), "--ncu-path", exe])
    assert r.exit_code == 2
    assert r.stderr.strip() == (f"error: {run}/ncu/status.json is unreadable (JSONDecodeError: Expecting value: "
                                "line 1 column 7 (char 6)); delete it to profile every kernel again")


def test_damaged_attention_shapes_is_named_and_report_ignores_it(run):
    from inductor_prof import rundir
    from inductor_prof.errors import UserError
    from inductor_prof.pipeline.attention import run_shapes

    (run / "attention_shapes.json").write_text('[{"B": 2')
    _report(run)                    # report does not read it: the run renders as before
    with pytest.raises(UserError) as e:   # `attention RUN` does: one line naming it
        run_shapes(rundir.open_run(run))
    assert str(e.value).startswith(f"{run}/attention_shapes.json is damaged (JSONDecodeError: ")
    (run / "attention_shapes.json").write_text('[{"B": 2}]')   # JSON, but not a captured call
    with pytest.raises(UserError, match=r"attention_shapes.json is damaged \(KeyError: 'H'\)"):
        run_shapes(rundir.open_run(run))


@pytest.mark.parametrize("content, error", [(b"PK\x03\x04cut", "BadZipFile"), (b"", "EOFError")])
def test_damaged_mask_file_is_each_backends_reason(tmp_path, content, error):
    from inductor_prof.attention.benchmark import registry
    from inductor_prof.attention.benchmark.bench import BenchOptions, BenchResult, bench_shape
    from inductor_prof.attention.semantics.masks import MaskSpec
    from inductor_prof.attention.semantics.shapes import Shape

    mask = tmp_path / "m.npz"
    mask.write_bytes(content)
    shape = Shape(1, 2, 8, 8, 16, "bfloat16", mask=MaskSpec("arbitrary", pairs=10, file=str(mask)))
    rows = bench_shape(shape, 1, "", registry.backends(["sdpa_math", "torch_blocked"]),
                       BenchOptions(device="cpu", tune=False), BenchResult())
    assert [(r["backend"], r["ok"]) for r in rows] == [("sdpa_math", False), ("torch_blocked", False)]
    assert {r["reason"].split(" (")[0] for r in rows} == {f"ValueError: mask file {mask} cannot be read"}
    assert all(f"({error}" in r["reason"] for r in rows)


def test_library_ops_modules_not_a_list_is_a_warning(tmp_path):
    # the recorded decoder run: its library_ops.csv has the `modules` column (flux_small predates it)
    run = tmp_path / "llama"
    shutil.copytree(data_path("..", "..", "examples", "runs", "llama-h100"), run)
    ops = run / "library_ops.csv"
    lines = ops.read_text().splitlines()
    assert lines[0].endswith(",modules") and lines[1].endswith(",[]")
    ops.write_text("\n".join([lines[0], lines[1][:-len("[]")] + "not json [", *lines[2:]]) + "\n")
    assert _warnings(run) == [       # was: JSONDecodeError, exit 1, naming no file
        f"warning: {ops} is damaged (line 2: 'modules' is not a JSON list of module paths); library kernels "
        "(cuBLAS, cuDNN...) are shown without flops and bytes"]


@pytest.mark.parametrize("path", ["library_ops.csv", "ncu/ncu.csv"])
def test_header_only_csv_is_an_empty_table_not_damage(run, path):
    # a header and no rows (nothing listed) reads every column as text; it is not "column 'flops' is not numeric"
    f = run / path
    f.write_text(f.read_text().splitlines()[0] + "\n")
    warnings = _warnings(run)
    assert not any("damaged" in w for w in warnings), warnings


@pytest.mark.parametrize("content", ['[{"frame": {"name": "ROOT"}, "metrics": {}, "children": []}, {}]', "{}"])
def test_steps_hatchet_without_kernels_is_an_error_naming_it(run, content):
    """A steps hatchet that parses but holds no timed kernel (a Proton session that recorded nothing, or JSON
    that is no hatchet) was `error: AttributeError: Can only use .str accessor with string values`, exit 1,
    naming no file; `diff` the same."""
    (run / "proton" / "steps.hatchet").write_text(content)
    expected = (f"error: {run}/proton/steps.hatchet holds no kernel launches (Proton recorded none); the report "
                "needs them")
    assert _report(run, code=2).stderr.strip() == expected
    r = runner.invoke(app, ["diff", str(run), str(data_path("flux_small"))])
    assert r.exit_code == 2 and r.stderr.strip() == expected
