"""CLI: report on the recorded run, exit codes and exact error text."""
import json
import shutil
from pathlib import Path

import pytest

from typer.testing import CliRunner

from recorded import data_path
from inductor_prof.cli import app

runner = CliRunner()


def test_report_table_and_summary():
    r = runner.invoke(app, ["report", str(data_path("flux_small")), "--top", "5"])
    assert r.exit_code == 0, r.output
    assert "Summary" in r.output and "GEMM" in r.output and "nvjet_sm90" in r.output


def test_report_json_has_required_fields(tmp_path):
    csv = tmp_path / "k.csv"
    r = runner.invoke(app, ["report", str(data_path("flux_small")), "--json", "--top", "0", "--csv", str(csv)])
    assert r.exit_code == 0, r.output
    obj = json.loads(r.stdout)
    need = {"name", "kind", "origin", "calls", "total_ns", "flops", "bytes", "tflops", "gbps"}
    assert need <= set(obj["kernels"][0])
    inductor = [k for k in obj["kernels"] if k["origin"] == "inductor"]
    assert len(inductor) == 18 and all(k["annotated"] for k in inductor)
    gemm = [k for k in obj["kernels"] if k["kind"] == "gemm"]
    assert gemm and all(k["tflops"] > 100 for k in gemm if k["total_ns"] > 1e6)
    gelu = next(k for k in obj["kernels"] if k["name"] == "triton_poi_fused_gelu_view_12")
    assert gelu["ncu_status"] == "ok" and gelu["ncu_dram_bytes"] > 0 and 0.5 < gelu["dram_ratio"] < 1.5
    assert obj["summary"]["by_category"]["GEMM"]["pct"] > 50
    assert csv.read_text().startswith("name,")


def test_report_sort_by_name():
    r = runner.invoke(app, ["report", str(data_path("flux_small")), "--json", "--sort", "name", "--top", "3"])
    names = [k["name"] for k in json.loads(r.stdout)["kernels"]]
    assert names == sorted(names)


def test_report_on_non_run_folder(tmp_path):
    r = runner.invoke(app, ["report", str(tmp_path)])
    assert r.exit_code == 2
    assert r.output.strip() == f"error: {tmp_path} is not an inductor-prof run folder (no manifest.json)"


def test_report_missing_folder(tmp_path):
    r = runner.invoke(app, ["report", str(tmp_path / "nope")])
    assert r.exit_code == 2 and "does not exist" in r.output


def test_report_bad_sort():
    r = runner.invoke(app, ["report", str(data_path("flux_small")), "--sort", "speed"])
    assert r.exit_code == 2
    assert "unknown --sort 'speed'" in r.output


def test_profile_unknown_target_lists_known():
    r = runner.invoke(app, ["profile", "resnet"])
    assert r.exit_code == 2
    assert r.output.strip() == ("error: unknown target 'resnet'; known targets: flux, flux-schnell, "
                                "or package.module:factory")


def test_profile_without_cuda_says_report_runs_anywhere(tmp_path):
    import torch

    if torch.cuda.is_available():
        pytest.skip("a GPU is visible: profile would run")
    # a module factory, not flux: FLUX's own check imports diffusers (9-23 s of this test), and it has its tests
    r = runner.invoke(app, ["profile", "examples.models.llama_decoder:decoder", "--out", str(tmp_path / "x")])
    assert r.exit_code == 2
    assert "profile needs a CUDA GPU" in r.output and "report RUN` runs anywhere" in r.output
    assert not (tmp_path / "x").exists()


def test_attention_shape_without_cuda_runs_the_cpu_backends(tmp_path):
    import torch

    if torch.cuda.is_available():
        pytest.skip("a GPU is visible: the benchmark runs there")
    r = runner.invoke(app, ["attention", "--shape", "1,2,64,64,causal", "--backends", "sdpa_math,torch_blocked",
                            "--json"])
    assert r.exit_code == 0, r.output
    assert "no CUDA GPU: the backends that run on the CPU are checked and timed there" in r.stderr
    rows = json.loads(r.stdout)["attention"]
    # both run on the CPU, causal, and agree with the float64 reference
    assert [(x["backend"], x["causal"], x["ok"]) for x in rows] == [("sdpa_math", True, True),
                                                                    ("torch_blocked", True, True)]
    # a run folder's attention.csv holds GPU timings: there a missing GPU stays an error
    run = tmp_path / "run"
    shutil.copytree(data_path("flux_small"), run)
    r = runner.invoke(app, ["attention", str(run)])
    assert r.exit_code == 2 and "attention needs a CUDA GPU" in r.output


def test_existing_run_folder_refused_without_force(tmp_path):
    from inductor_prof import rundir
    from inductor_prof.errors import UserError

    run = tmp_path / "run"
    shutil.copytree(data_path("flux_small"), run)
    try:
        rundir.create(run)
        raise AssertionError("expected refusal")
    except UserError as e:
        assert str(e) == f"run folder {run} already exists; pass --force to replace it"
    assert (run / "manifest.json").exists()
    other = tmp_path / "other"
    other.mkdir()
    (other / "precious.txt").write_text("x")
    try:
        rundir.create(other, force=True)
        raise AssertionError("expected refusal")
    except UserError as e:
        assert "is not a run folder; refusing to delete it" in str(e)
    assert (other / "precious.txt").exists()


def test_run_folder_that_cannot_be_made_is_one_line(tmp_path):
    from inductor_prof import rundir
    from inductor_prof.errors import UserError

    file = tmp_path / "afile"
    file.write_text("x")
    for out, message in [(file, f"run folder {file} is a file; give --out a folder to create"),
                         (file / "run", f"cannot create run folder {file / 'run'}: Not a directory")]:
        try:
            rundir.create(out)
            raise AssertionError("expected refusal")
        except UserError as e:
            assert str(e) == message
    assert file.read_text() == "x"


def test_flux_target_without_diffusers_names_the_extra(monkeypatch):
    import builtins

    from inductor_prof.errors import UserError
    from inductor_prof.targets import flux

    real_import = builtins.__import__

    def fake_import(name, *a, **k):
        if name == "diffusers":
            raise ImportError("No module named 'diffusers'")
        return real_import(name, *a, **k)

    monkeypatch.setattr(builtins, "__import__", fake_import)
    try:
        flux.import_flux_class()
        raise AssertionError("expected UserError")
    except UserError as e:
        assert str(e) == "the flux target needs diffusers: pip install 'inductor-prof[flux]'"


def test_attention_negative_timing_budget_is_refused():
    r = runner.invoke(app, ["attention", "--shape", "1,2,64,64", "--rep-ms", "-1"])
    assert r.exit_code == 2 and "--rep-ms" in r.output and "Traceback" not in r.output


@pytest.mark.parametrize("option, value", [("--steps", "0"), ("--warmup", "-1"), ("--text-len", "0"),
                                           ("--batch", "0"), ("--double-blocks", "-1"), ("--single-blocks", "-2")])
def test_profile_counts_out_of_range_are_refused_before_gpu_work(option, value):
    # a batch of 0 or -5 text tokens built the whole model on the GPU, then failed inside diffusers (exit 1, a
    # run folder left); -1 blocks was taken as none
    r = runner.invoke(app, ["profile", "flux", option, value])
    least = 1 if option in ("--steps", "--text-len", "--batch") else 0
    assert r.exit_code == 2 and r.output == f"error: {option} must be at least {least}, not {value}\n"


@pytest.mark.parametrize("option, value", [("--batch", "2"), ("--text-len", "64"), ("--dtype", "float16"),
                                           ("--height", "512"), ("--width", "512"), ("--double-blocks", "2"),
                                           ("--single-blocks", "4"), ("--checkpoint", "/models/flux")])
def test_flux_options_with_a_module_factory_are_refused_not_ignored(option, value):
    # they were silently ignored: the factory builds its own model and inputs (before any GPU work or import)
    r = runner.invoke(app, ["profile", "nosuch.module:make", option, value])
    assert r.exit_code == 2
    assert r.output == (f"error: {option} is for the flux targets; a module:factory builds its own model and inputs "
                        "(README: profile your own model)\n")


def test_flux_options_not_given_take_the_flux_defaults(monkeypatch):
    # --batch/--text-len/--dtype default to None so a module:factory can tell them apart from given ones; the
    # FLUX run still gets 1, 512 and bfloat16 (FluxOptions' defaults)
    from inductor_prof import pipeline

    seen = {}

    def stop(opts, **_):
        seen["flux"] = opts.flux
        raise KeyboardInterrupt

    monkeypatch.setattr(pipeline, "profile", stop)
    runner.invoke(app, ["profile", "flux", "--out", "/nonexistent-dir/x"])
    assert (seen["flux"].batch, seen["flux"].text_len, seen["flux"].dtype) == (1, 512, "bfloat16")
    runner.invoke(app, ["profile", "flux", "--batch", "2", "--dtype", "float16", "--out", "/nonexistent-dir/x"])
    assert (seen["flux"].batch, seen["flux"].text_len, seen["flux"].dtype) == (2, 512, "float16")


@pytest.mark.parametrize("out", [".", "", "..", "sub/.."])
def test_force_never_replaces_the_folder_the_command_runs_in(tmp_path, monkeypatch, out):
    # `--out ""` is Path("") == "."; from inside an earlier run folder, --force deleted the current folder
    from inductor_prof import rundir
    from inductor_prof.errors import UserError

    run = tmp_path / "run"
    shutil.copytree(data_path("flux_small"), run)
    (run / "sub").mkdir()
    monkeypatch.chdir(run / "sub" if out == ".." else run)
    with pytest.raises(UserError) as e:
        rundir.create(out, force=True)
    assert str(e.value) == (f"refusing to replace run folder {Path(out)}: the current folder is inside it; "
                            "run from elsewhere or name another --out")
    assert (run / "manifest.json").exists()
    monkeypatch.chdir(tmp_path)   # from outside it, --force replaces it as before
    assert rundir.create("run", force=True).root == Path("run") and not (run / "manifest.json").exists()


def test_run_folder_is_made_with_its_missing_parents(tmp_path):
    from inductor_prof import rundir

    run = rundir.create(tmp_path / "runs" / "2026" / "flux")
    assert run.root.is_dir() and list(run.root.iterdir()) == []


def test_report_a_file_is_not_a_folder(tmp_path):
    f = tmp_path / "a-file"
    f.write_text("x")
    r = runner.invoke(app, ["report", str(f)])
    assert r.exit_code == 2 and r.output.strip() == f"error: {f} is not a folder"
