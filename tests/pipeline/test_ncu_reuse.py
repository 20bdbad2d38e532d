"""A second ncu stage re-measures only what changed (issue 51 item 1): on copies of the recorded full FLUX run
(examples/runs/flux-h100: 33 kernels, its ncu.csv rows as ncu-report read them from its reports), with ncu's
process replaced by one that writes a recorded report and whose reading gives back the recorded rows."""
import csv
import json
import shutil
from pathlib import Path

import pytest

from inductor_prof import rundir
from inductor_prof.drivers.ncu import batch as ncu_batch
from inductor_prof.drivers.ncu import command
from inductor_prof.drivers.ncu.command import NcuResult
from inductor_prof.pipeline import ncu as ncu_stage
from inductor_prof.pipeline import ncu_reuse
from inductor_prof.runfiles import integrity
from inductor_prof.settings import Settings
from recorded import REPO

FLUX = REPO / "examples" / "runs" / "flux-h100"
ROWS = {r["stem"]: r for r in csv.DictReader(open(FLUX / "ncu" / "ncu.csv"))}
STATUS = json.loads((FLUX / "ncu" / "status.json").read_text())
NUMBERS = [c for c in next(iter(ROWS.values())) if c not in ("name", "stem", "status", "reason", "report", "shape",
                                                             "model_us", "model_bytes", "rank")]


def _copy(tmp_path: Path, name: str, run_id: str, **env) -> rundir.RunDir:
    """The recorded run without its ncu results, as run `run_id` (the recorded manifest predates ids)."""
    root = tmp_path / name
    root.mkdir()
    for part in ("kernels", "proton"):
        shutil.copytree(FLUX / part, root / part)
    shutil.copy(FLUX / "library_ops.csv", root)
    manifest = json.loads((FLUX / "manifest.json").read_text())
    manifest["run_id"] = run_id
    manifest["env"].update(env)
    (root / "manifest.json").write_text(json.dumps(manifest))
    return rundir.RunDir(root)


@pytest.fixture
def fake_ncu(monkeypatch):
    """ncu's process: writes the recorded report of the batch's first kernel; reading it gives the recorded rows
    of the batch's kernels, in order. Returns the stems replayed, a list per process."""
    replayed: list[list[str]] = []
    names: dict[str, list[dict]] = {}

    def run_one(cmd, specs, env, timeout, log_path, per_step=False, clock=None):
        stems = [Path(s).stem for s in specs]
        replayed.append(stems)
        out = cmd[cmd.index("-o") + 1] + ".ncu-rep"
        shutil.copy(FLUX / "ncu" / STATUS[stems[0]]["report"], out)
        names[Path(out).name.replace(".partial", "").lstrip(".")] = [
            {"kernel": ROWS[s]["name"], **{c: float(ROWS[s][c]) for c in NUMBERS}} for s in stems]
        return NcuResult("ok", "", 1.0)

    monkeypatch.setattr(command, "run_one", run_one)
    monkeypatch.setattr(ncu_batch, "parse_reports", lambda paths: {str(p): {"results": names[p.name]} for p in paths})
    monkeypatch.setattr(ncu_stage, "find_ncu", lambda explicit: "ncu")
    monkeypatch.setattr(ncu_reuse, "ncu_version", lambda ncu: "2025.3.1.0")
    return replayed


def _settings(tmp_path, **kw) -> Settings:
    return Settings(measure_store=str(tmp_path / "store"), **kw)


def _table(run: rundir.RunDir) -> dict[str, dict]:
    return {r["stem"]: r for r in csv.DictReader(open(run.ncu_csv))}


def test_a_second_run_reuses_every_unchanged_kernel_and_says_from_which_run(tmp_path, fake_ncu):
    first = _copy(tmp_path, "first", "run-a")
    info = ncu_stage.run_ncu(first, _settings(tmp_path), log=lambda m: None)
    assert (info["ok"], info["reused"]) == (33, 0) and len(fake_ncu) == 1
    second = _copy(tmp_path, "second", "run-b")
    lines: list[str] = []
    info = ncu_stage.run_ncu(second, _settings(tmp_path), log=lines.append)
    assert len(fake_ncu) == 1                          # no ncu process for the second run
    assert (info["ok"], info["reused"], info["reused_from"]) == (0, 33, ["run-a"])
    assert "ncu: 33 kernels reused from run run-a (--fresh measures them again)" in lines
    rows = _table(second)
    # every reused row: the recorded numbers, this run's run_id beside the run that measured it
    for stem, row in rows.items():
        assert (row["run_id"], row["origin_run_id"], row["status"]) == ("run-b", "run-a", "ok")
        assert [float(row[c]) for c in NUMBERS] == [float(ROWS[stem][c]) for c in NUMBERS]
        assert row["shape"] == ROWS[stem]["shape"]     # the call is this run's own
    # the run holds the reports its rows came from, byte for byte the first run's
    for stem, entry in json.loads(second.ncu_status_json.read_text()).items():
        copied = second.ncu_report(entry["report"])
        assert copied.name.startswith("reused-")
        assert copied.read_bytes() == first.ncu_report(json.loads(first.ncu_status_json.read_text())[stem]
                                                       ["report"]).read_bytes()
    assert all(r["origin_run_id"] == "" for r in _table(first).values())   # measured rows name no origin


def test_only_the_changed_kernels_are_measured_again(tmp_path, fake_ncu):
    ncu_stage.run_ncu(_copy(tmp_path, "first", "run-a"), _settings(tmp_path), log=lambda m: None)
    second = _copy(tmp_path, "second", "run-b")
    # one block's code changed: its kernel's source; another kernel launched with another config
    edited = second.root / "kernels" / "triton_per_fused__fused_rms_norm_view_3.py"
    edited.write_text(edited.read_text().replace("tmp5, None)", "tmp5, None)  # edited"))
    kernels = json.loads((second.root / "kernels" / "kernels.json").read_text())
    relaunched = next(k for k in kernels if k["name"] == "triton_per_fused__fused_rms_norm_view_4")
    relaunched["launch_config"]["num_warps"] = 4
    (second.root / "kernels" / "kernels.json").write_text(json.dumps(kernels))
    info = ncu_stage.run_ncu(second, _settings(tmp_path), log=lambda m: None)
    assert fake_ncu[1] == ["triton_per_fused__fused_rms_norm_view_3", "triton_per_fused__fused_rms_norm_view_4"]
    assert (info["ok"], info["reused"]) == (2, 31)
    origins = {s: r["origin_run_id"] for s, r in _table(second).items()}
    assert origins["triton_per_fused__fused_rms_norm_view_3"] == origins["triton_per_fused__fused_rms_norm_view_4"] \
        == "" and sum(o == "run-a" for o in origins.values()) == 31


@pytest.mark.parametrize("change", [{"driver": "590.1"}, {"torch": "2.12.0"}, {"gpu": {"name": "NVIDIA H200"}}])
def test_another_driver_version_or_gpu_reuses_nothing(tmp_path, fake_ncu, change):
    ncu_stage.run_ncu(_copy(tmp_path, "first", "run-a"), _settings(tmp_path), log=lambda m: None)
    info = ncu_stage.run_ncu(_copy(tmp_path, "second", "run-b", **change), _settings(tmp_path), log=lambda m: None)
    assert (info["ok"], info["reused"]) == (33, 0)


@pytest.mark.parametrize("setting", [{"clock_control": "base"}, {"ncu_set": "full"}, {"ncu_args": ["--cache-control",
                                                                                                     "none"]}])
def test_other_ncu_settings_reuse_nothing(tmp_path, fake_ncu, setting):
    ncu_stage.run_ncu(_copy(tmp_path, "first", "run-a"), _settings(tmp_path), log=lambda m: None)
    info = ncu_stage.run_ncu(_copy(tmp_path, "second", "run-b"), _settings(tmp_path, **setting), log=lambda m: None)
    assert info["reused"] == 0


def test_fresh_measures_everything_and_stores_it(tmp_path, fake_ncu):
    ncu_stage.run_ncu(_copy(tmp_path, "first", "run-a"), _settings(tmp_path), log=lambda m: None)
    info = ncu_stage.run_ncu(_copy(tmp_path, "second", "run-b"), _settings(tmp_path, fresh=True), log=lambda m: None)
    assert (info["ok"], info["reused"]) == (33, 0)
    info = ncu_stage.run_ncu(_copy(tmp_path, "third", "run-c"), _settings(tmp_path), log=lambda m: None)
    assert info["reused_from"] == ["run-b"]           # the fresh run's results replaced the first's


def test_a_damaged_entry_or_report_is_a_warning_and_measured_again(tmp_path, fake_ncu):
    ncu_stage.run_ncu(_copy(tmp_path, "first", "run-a"), _settings(tmp_path), log=lambda m: None)
    entries = sorted((tmp_path / "store" / "ncu").glob("*.json"))
    entries[0].write_text('{"format": "inductor-prof measurement", "vers')       # cut short
    report = next((tmp_path / "store" / "files").glob("*.ncu-rep"))
    report.write_bytes(report.read_bytes()[:-10])                              # its digest no longer its name
    lines: list[str] = []
    info = ncu_stage.run_ncu(_copy(tmp_path, "second", "run-b"), _settings(tmp_path), log=lines.append)
    assert info["ok"] + info["reused"] == 33 and info["ok"] >= 2
    assert f"measurement store {entries[0]}: unreadable (JSONDecodeError): measured again" in lines
    assert f"measurement store {report}: damaged (its digest is not its name): measured again" in lines


def test_a_reused_row_passes_the_runs_file_checks(tmp_path, fake_ncu):
    ncu_stage.run_ncu(_copy(tmp_path, "first", "run-a"), _settings(tmp_path), log=lambda m: None)
    second = _copy(tmp_path, "second", "run-b")
    manifest = rundir.Manifest.of(second, json.loads(second.manifest_path.read_text()))
    with manifest.stage("ncu") as info:
        info.update(ncu_stage.run_ncu(second, _settings(tmp_path), log=lambda m: None))
        ncu_stage.written.record(manifest, "ncu")
    data = json.loads(second.manifest_path.read_text())
    assert data["stages"]["ncu"]["reused"] == 33
    for path in [second.ncu_csv, second.ncu_status_json, *second.ncu_dir.glob("*.ncu-rep")]:
        assert integrity.changed(second, data, path) is None, path


def test_the_store_is_off_and_a_run_without_a_gpu_in_its_manifest_stores_nothing(tmp_path, fake_ncu):
    info = ncu_stage.run_ncu(_copy(tmp_path, "first", "run-a"), _settings(tmp_path).__class__(measure_store="off"),
                             log=lambda m: None)
    assert "measure_store" not in info and "reused" not in info
    info = ncu_stage.run_ncu(_copy(tmp_path, "second", "run-b", driver=None), _settings(tmp_path), log=lambda m: None)
    assert "measure_store" not in info and not (tmp_path / "store").exists()


def _whole(tmp_path: Path, name: str, run_id: str) -> rundir.RunDir:
    """The whole recorded run (what `report` reads) without its ncu results, as run `run_id`."""
    root = tmp_path / name
    shutil.copytree(FLUX, root, ignore=shutil.ignore_patterns("ncu", "experiments"))
    manifest = json.loads((root / "manifest.json").read_text())
    manifest["run_id"] = run_id
    (root / "manifest.json").write_text(json.dumps(manifest))
    return rundir.RunDir(root)


def test_the_report_says_which_rows_were_reused_and_from_which_run(tmp_path, fake_ncu):
    from typer.testing import CliRunner

    from inductor_prof.cli import app

    ncu_stage.run_ncu(_whole(tmp_path, "first", "run-a"), _settings(tmp_path), log=lambda m: None)
    second = _whole(tmp_path, "second", "run-b")
    edited = second.root / "kernels" / "triton_per_fused__fused_rms_norm_view_3.py"
    edited.write_text(edited.read_text() + "\n# edited\n")
    ncu_stage.run_ncu(second, _settings(tmp_path), log=lambda m: None)
    runner = CliRunner()
    doc = json.loads(runner.invoke(app, ["report", str(second.root), "--json"]).stdout)
    with_ncu = [k for k in doc["kernels"] if k.get("ncu_duration_ns") is not None]
    origins = {k["name"]: k.get("ncu_origin_run_id") for k in with_ncu}
    # the edited kernel was measured in this run; every other row names the run it came from
    assert origins.pop("triton_per_fused__fused_rms_norm_view_3") in (None, "")
    assert set(origins.values()) == {"run-a"}
    r = runner.invoke(app, ["report", str(second.root), "--width", "250"])
    assert r.exit_code == 0, r.output
    line = (f"Nsight Compute: {len(origins)} of {len(with_ncu)} kernels' rows reused from run run-a (same GPU, "
            "driver, versions, ncu settings and kernel; `profile --fresh` measures them again)")
    assert line in r.stdout
    r = runner.invoke(app, ["report", str(second.root), "--csv", str(tmp_path / "k.csv")])
    rows = list(csv.DictReader(open(tmp_path / "k.csv")))
    assert sum(row.get("ncu_origin_run_id") == "run-a" for row in rows if row["shape"] == "all") == len(origins)
    html = tmp_path / "r.html"
    r = runner.invoke(app, ["report", str(second.root), "--html", str(html)])
    assert r.exit_code == 0, r.output
    from markupsafe import escape

    assert str(escape(line)) in html.read_text()
    assert "reused from run" in html.read_text()


def test_the_source_pass_reuses_its_counters_too(tmp_path, monkeypatch):
    """The source pass (ncu_source.collect) over the 4 kernels with the most headroom: a second run of the same
    kernels reads their counters from the first run's reports, copied in, with no ncu process."""
    from fakes import calls, replaying_ncu
    from inductor_prof import runfiles
    from inductor_prof.drivers.ncu import source
    from inductor_prof.pipeline import ncu_source

    def read_all(paths):   # the fake's report: the names it replayed; one instruction each (none measured)
        return {str(p): {"kernels": [{"kernel": n, "pcs": [{"offset": 0, "inst": 1.0, "samples": 0}]}
                                     for n in json.loads(open(p).read())]} for p in paths}
    monkeypatch.setattr(source, "read_all", read_all)
    monkeypatch.setattr(runfiles, "read_source_reports", read_all)
    monkeypatch.setattr(ncu_reuse, "ncu_version", lambda ncu: "2025.3.1.0")
    exe = replaying_ncu(tmp_path)
    counters = {}
    for name, run_id in (("first", "run-a"), ("second", "run-b")):
        root = tmp_path / name
        shutil.copytree(FLUX, root, ignore=shutil.ignore_patterns("source", "experiments"))
        manifest = json.loads((root / "manifest.json").read_text())
        (root / "manifest.json").write_text(json.dumps({**manifest, "run_id": run_id}))
        run = rundir.RunDir(root)
        chosen = ncu_source.automatic(run, Settings())
        for t in chosen:
            t.spec.setdefault("name", t.name)   # the fake reports the names its specs carry
        info = ncu_source.collect(run, _settings(tmp_path, ncu=exe), chosen, log=lambda m: None)
        stems = [t.stem for t in chosen]
        counters[name] = runfiles.source_counters(run, stems)
    assert len(calls(exe)) == 1                                   # the second run started no ncu
    assert (info["ok"], info["reused"], info["reused_from"]) == (0, 4, ["run-a"])
    assert counters["second"] == counters["first"] and len(counters["first"]) == 4
    status = json.loads(run.ncu_source_status_json.read_text())
    assert {e["origin_run_id"] for e in status.values()} == {"run-a"}
    assert all((run.ncu_source_dir / e["report"]).is_file() and e["report"].startswith("reused-")
               for e in status.values())
    # the counters files are this run's (its id), keyed to the copied report
    assert {json.loads(run.ncu_source_counters(s).read_text())["run_id"] for s in stems} == {"run-b"}


@pytest.mark.parametrize("flag, env, fresh", [(["--fresh"], {}, True), ([], {}, False),
                                              ([], {"INDUCTOR_PROF_FRESH": "1"}, True)])
def test_fresh_from_the_command_line_or_the_environment(tmp_path, monkeypatch, flag, env, fresh):
    from typer.testing import CliRunner

    from inductor_prof.cli import app
    from inductor_prof.pipeline import ncu_source

    for k, v in env.items():
        monkeypatch.setenv(k, v)
    seen = []
    monkeypatch.setattr(ncu_stage, "on_existing_run", lambda run, settings, **kw: seen.append(settings) or {
        "kernels": 0, "ok": 0, "skipped": 0, "failed": 0, "not_tried": 0, "stopped": ""})
    monkeypatch.setattr(ncu_source, "on_existing_run", lambda *a, **kw: None)
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "manifest.json").write_text("{}")
    r = CliRunner().invoke(app, ["ncu", str(tmp_path / "run"), *flag])
    assert [s.fresh for s in seen] == [fresh], r.output
