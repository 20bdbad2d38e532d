"""The source pass (pipeline/ncu_source.py): which kernels it picks, one ncu process each with the source
sections, its status.json, the manifest record of `inductor-prof ncu RUN --source`. ncu is a fake that writes a
recorded source report where ncu would (tests/fakes.py: no output of it is taken as a measurement)."""
import json
import shutil

import pandas as pd
import pytest

from fakes import fake_exe
from recorded import REPO, RMS_KERNEL, SOURCE_REPORTS, source_counters, source_report
from inductor_prof import rundir
from inductor_prof.drivers.ncu.source import read_reports
from inductor_prof.errors import StepFailed, UserError
from inductor_prof.pipeline import ncu_source
from inductor_prof.settings import Settings

LAYER_NORM = "triton_red_fused_add_cat_mul_native_layer_norm_split_unsqueeze_1"
CUDNN = "cudnn_generated_fort_native_sdpa_sm90_flash_fprop_wgmma_f16_knob_7_64x128x128_4x1x1_cga1x1x1_kernel0_0"

# speaks the replay worker's protocol, keeps its arguments, and writes REPORT where `-o` says
SOURCE_NCU = """
out = args[args.index('-o') + 1]
# kept with the worker spec (a temporary file) replaced by the kernels' spec files it names
open(sys.argv[0] + '.args', 'a').write(json.dumps(args[:-1] + json.load(open(args[-1]))['specs']) + '\\n')
step('load', 0, ok=True)
{behaviour}
step('profile', 0)
shutil.copyfile({report!r}, out + '.ncu-rep')
"""


def source_ncu(folder, behaviour="pass"):
    return fake_exe(folder, SOURCE_NCU.format(behaviour=behaviour, report=str(
        source_report(RMS_KERNEL, folder / "rec.ncu-rep"))))


def calls(exe):
    path = exe + ".args"
    with open(path) as f:
        return [json.loads(line) for line in f] if f else []


@pytest.fixture
def run(tmp_path):
    """examples/runs/flux-h100 (its ncu stage went through: every kernel status ok), without source reports."""
    path = tmp_path / "run"
    shutil.copytree(REPO / "examples" / "runs" / "flux-h100", path)
    shutil.rmtree(path / "ncu" / "source")   # the example ships the source pass's reports: start before it
    return rundir.RunDir(path)


def test_most_headroom_first_then_by_time():
    df = pd.DataFrame({"name": ["a", "b", "c", "d"], "headroom_ms_per_step": [1.0, None, 3.0, 0.5],
                       "total_ns": [1, 99, 1, 1]})
    assert ncu_source.most_headroom(df, 3) == ["c", "a", "d"]
    assert ncu_source.most_headroom(df, 9) == ["c", "a", "d", "b"]   # without a speed of light: last
    assert ncu_source.most_headroom(df, 0) == []


def test_the_stage_picks_the_kernels_with_the_most_headroom(run):
    # the report's headroom: the RMS-norm+RoPE kernel 3.18 ms/step, the layer norm 1.28, cuDNN's attention next;
    # Inductor gave two kernels the layer norm's name (two files): both are replayed
    chosen = ncu_source.automatic(run, Settings())
    assert [(t.name, t.stem) for t in chosen] == [
        (RMS_KERNEL, RMS_KERNEL), (LAYER_NORM, f"{LAYER_NORM}.cd1b7bc4b5a2"), (LAYER_NORM, f"{LAYER_NORM}.14acf58c2c9a"),
        (CUDNN, CUDNN)]
    assert chosen[3].spec["rank"] == 0                                  # a library kernel's costliest call
    assert ncu_source.automatic(run, Settings(ncu_source_kernels=1)) == chosen[:1]
    assert ncu_source.automatic(run, Settings(ncu_source_kernels=0)) == []


def test_only_kernels_the_metric_pass_profiled(run):
    status = json.loads(run.ncu_status_json.read_text())
    status[RMS_KERNEL]["status"] = "failed"
    run.ncu_status_json.write_text(json.dumps(status))
    assert RMS_KERNEL not in [t.name for t in ncu_source.automatic(run, Settings(ncu_source_kernels=1))]
    # the pass beside the metric pass chooses before it: from the timed steps alone
    assert [t.name for t in ncu_source.automatic(run, Settings(ncu_source_kernels=1), profiled_only=False)] == \
        [RMS_KERNEL]


def test_collect_runs_one_ncu_per_kernel_and_records_its_report(run, tmp_path):
    exe = source_ncu(tmp_path)
    chosen = ncu_source.requested(run, Settings(), ["rms_norm__scaled"])
    info = ncu_source.collect(run, Settings(ncu=exe), chosen, log=print)
    assert info == {"kernels": 1, "skipped": 0, "ok": 1, "failed": 0, "stems": [RMS_KERNEL]}
    (args,) = calls(exe)
    assert args[args.index("-o") + 1] == str(run.ncu_source_dir / f".{RMS_KERNEL}.partial")
    assert [args[i + 1] for i, a in enumerate(args) if a == "--section"] == [
        "SourceCounters", "WarpStateStats", "LaunchStats", "Occupancy"]
    assert args[-1] == str(run.ncu_source_spec(RMS_KERNEL)) and "--import-source" in args
    # its own spec folder: the metric pass may run beside it
    status = json.loads(run.ncu_source_status_json.read_text())
    assert status[RMS_KERNEL] | {"seconds": 0} == {"name": RMS_KERNEL, "status": "ok", "reason": "",
                                                    "origin": "inductor", "seconds": 0,
                                                    "report": f"{RMS_KERNEL}.ncu-rep", "index": 0, "batch": 1}
    report = run.ncu_source_report(RMS_KERNEL)
    assert report.is_file() and not list(run.ncu_source_dir.glob(".*partial*"))
    # beside it, what inspect reads of it: the reader's own dict, keyed to the report (name, result, size)
    assert json.loads(run.ncu_source_counters(RMS_KERNEL).read_text()) == {
        "report": report.name, "index": 0, "report_bytes": report.stat().st_size,
        "counters": read_reports([report])[str(report)]}
    # again: done already, unless asked for by name
    assert ncu_source.collect(run, Settings(ncu=exe), chosen, log=print)["skipped"] == 1
    assert ncu_source.collect(run, Settings(ncu=exe), chosen, log=print, again=True)["ok"] == 1
    assert len(calls(exe)) == 2
    # recorded again under a free name (the earlier report is not overwritten before the new one is checked);
    # the earlier one, named by no entry now, removed; the counters file follows the new one
    again = run.ncu_source_dir / f"{RMS_KERNEL}-2.ncu-rep"
    assert json.loads(run.ncu_source_status_json.read_text())[RMS_KERNEL]["report"] == again.name
    assert again.is_file() and not report.exists()
    assert json.loads(run.ncu_source_counters(RMS_KERNEL).read_text())["report"] == again.name


def test_a_failure_is_recorded_and_an_earlier_report_kept(run, tmp_path):
    chosen = ncu_source.requested(run, Settings(), [RMS_KERNEL])
    lines = []
    broken = fake_exe(tmp_path, "print('==ERROR== boom'); sys.exit(1)", name="broken")
    info = ncu_source.collect(run, Settings(ncu=broken), chosen, log=lines.append)
    assert (info["ok"], info["failed"]) == (0, 1)
    entry = json.loads(run.ncu_source_status_json.read_text())[RMS_KERNEL]
    assert entry["status"] == "failed" and entry["reason"].startswith("exit 1: ")
    assert lines == [f"ncu source pass failed {RMS_KERNEL}: {entry['reason']}"]
    with pytest.raises(StepFailed, match="recorded no kernel: 1 failed"):
        ncu_source.recorded_any(info)
    ncu_source.collect(run, Settings(ncu=source_ncu(tmp_path)), chosen, log=print)
    lines.clear()
    ncu_source.collect(run, Settings(ncu=broken), chosen, log=lines.append, again=True)
    assert lines[0].endswith("; the earlier report is kept")
    assert json.loads(run.ncu_source_status_json.read_text())[RMS_KERNEL]["status"] == "ok"


def test_the_shipped_counters_files_are_what_the_reader_reads(tmp_path):
    """Each counters file shipped (scripts/write_source_counters.py: examples/runs/flux-h100's, the test
    fixtures') is the reader's (drivers/ncu/source.py) dict of its report, number for number, and its size."""
    pytest.importorskip("ncu_report")   # the ncu extra: the reader of the .ncu-rep files
    folder = REPO / "examples" / "runs" / "flux-h100" / "ncu" / "source"
    pairs = [(p, p.with_name(p.name.removesuffix(".ncu-rep") + ".counters.json")) for p in folder.glob("*.ncu-rep")]
    pairs += [(source_report(k, tmp_path / f"{k}.ncu-rep"), source_counters(k, tmp_path / f"{k}.counters.json"))
              for k in SOURCE_REPORTS]
    assert len(pairs) == 7   # flux-h100's 5 source reports, the 2 fixtures
    read = read_reports([report for report, _ in pairs])
    for i, (report, sidecar) in enumerate(pairs):
        counters = json.loads(sidecar.read_text())
        # the run's name their report and result (one kernel each: 0); the fixtures, unpacked under another
        # name, do not (read as result 0 of the report beside them, as files written before batch reports)
        key = {"report": report.name, "index": 0} if i < 5 else {}
        assert counters == {**key, "report_bytes": report.stat().st_size, "counters": read[str(report)]}, report.name
        assert counters["counters"]["pcs"], report.name


def test_a_report_without_source_counters_fails(run, tmp_path):
    # the metric pass's report of a kernel (13 metrics, no per-instruction counters)
    plain = tmp_path / "plain"
    plain.mkdir()
    shutil.copyfile(REPO / "tests" / "data" / "triton_poi_fused_add_gelu_mul_0.ncu-rep", plain / "rec.ncu-rep")
    exe = fake_exe(plain, SOURCE_NCU.format(behaviour="pass", report=str(plain / "rec.ncu-rep")))
    chosen = ncu_source.requested(run, Settings(), [RMS_KERNEL])
    ncu_source.collect(run, Settings(ncu=exe), chosen, log=lambda m: None)
    entry = json.loads(run.ncu_source_status_json.read_text())[RMS_KERNEL]
    # that report holds another kernel (triton_poi_fused_add_gelu_mul_0): no result for this one
    assert (entry["status"], entry["report"], entry["index"]) == ("failed", "", None)
    assert entry["reason"] == "no result for this kernel in the report (not launched?)"
    # a report of no use is not kept, and no counters file written
    assert not list(run.ncu_source_dir.glob("*.ncu-rep")) and not run.ncu_source_counters(RMS_KERNEL).exists()
    # after a good one: the earlier report and its counters file stay as they were
    ncu_source.collect(run, Settings(ncu=source_ncu(tmp_path)), chosen, log=print)
    kept = [p.read_bytes() for p in (run.ncu_source_report(RMS_KERNEL), run.ncu_source_counters(RMS_KERNEL))]
    lines = []
    ncu_source.collect(run, Settings(ncu=exe), chosen, log=lines.append, again=True)
    assert lines == [f"ncu source pass failed {RMS_KERNEL}: {entry['reason']}; the earlier report is kept"]
    assert [p.read_bytes() for p in (run.ncu_source_report(RMS_KERNEL), run.ncu_source_counters(RMS_KERNEL))] == kept
    assert json.loads(run.ncu_source_status_json.read_text())[RMS_KERNEL]["status"] == "ok"
    assert [p.name for p in run.ncu_source_dir.glob("*.ncu-rep")] == [f"{RMS_KERNEL}.ncu-rep"]
    # the report of the right kernel without the source sections
    shutil.copyfile(plain / "rec.ncu-rep", run.ncu_source_dir / "plain.ncu-rep")
    assert ncu_source.check_report(run, "triton_poi_fused_add_gelu_mul_0", {"report": "plain.ncu-rep", "index": 0}) \
        == "the report has no per-instruction counters (SourceCounters section missing?)"


def test_requested_names_what_it_cannot_replay(run):
    with pytest.raises(UserError, match=r"^no kernel 'no_such_kernel' in .*; closest: "):
        ncu_source.requested(run, Settings(), ["no_such_kernel"])
    with pytest.raises(UserError) as e:   # a library kernel outside the ones the metric pass replays
        ncu_source.requested(run, Settings(), ["vectorized_elementwise_kernel<sin,float>"])
    assert "ncu replays no call of this kernel" in str(e.value)
    assert e.value.shown({"ncu_library_kernels": "--library-kernels"}).endswith(
        "the --library-kernels library kernels with the most time)")
    # a replay's own file stem picks one of two kernels sharing a name
    stem = f"{LAYER_NORM}.14acf58c2c9a"
    assert [t.stem for t in ncu_source.requested(run, Settings(), [stem])] == [stem]
    assert len(ncu_source.requested(run, Settings(), [LAYER_NORM])) == 2


def test_on_existing_run_records_the_stage(run, tmp_path):
    exe = source_ncu(tmp_path)
    info = ncu_source.on_existing_run(run, Settings(ncu=exe), [RMS_KERNEL], log=print)
    stage = json.loads(run.manifest_path.read_text())["stages"]["ncu_source"]
    assert stage["status"] == "ok" and stage["ok"] == info["ok"] == 1


def test_on_existing_run_without_a_metric_pass_does_nothing(tmp_path):
    path = tmp_path / "run"
    path.mkdir()
    (path / "manifest.json").write_text("{}")
    assert ncu_source.on_existing_run(rundir.RunDir(path), Settings(ncu="/no/ncu"), [], log=print) is None
    assert json.loads((path / "manifest.json").read_text()) == {}


def _names_source_reports(paths):
    """read_all for the fake ncu's reports (tests/fakes.py REPLAYING: a JSON list of the kernel names it
    replayed): each kernel one instruction executed, so the check passes. No counter here was measured."""
    return {str(p): {"kernels": [{"kernel": n, "pcs": [{"offset": 0, "inst": 1.0, "samples": 0}]}
                                 for n in json.loads(open(p).read())]} for p in paths}


def _named(targets):
    """The fake ncu reports the kernel names its specs carry: a library call's spec gets its kernel's."""
    for t in targets:
        t.spec.setdefault("name", t.name)
    return targets


@pytest.fixture
def names_reader(monkeypatch):
    from inductor_prof import runfiles
    from inductor_prof.drivers.ncu import source

    monkeypatch.setattr(source, "read_all", _names_source_reports)
    monkeypatch.setattr(runfiles, "read_source_reports", _names_source_reports)


def test_one_process_for_every_chosen_kernel_and_each_reads_its_own_result(run, tmp_path, names_reader,
                                                                           monkeypatch):
    from fakes import calls as process_calls, replaying_ncu
    from inductor_prof import runfiles

    exe = replaying_ncu(tmp_path)
    chosen = _named(ncu_source.automatic(run, Settings()))  # 3 Inductor replays and cuDNN's attention
    info = ncu_source.collect(run, Settings(ncu=exe), chosen, log=print)
    assert (info["ok"], info["failed"]) == (4, 0)
    assert process_calls(exe) == [[t.name for t in chosen]]            # before: 4 processes
    status = json.loads(run.ncu_source_status_json.read_text())
    (report,) = {status[t.stem]["report"] for t in chosen}
    assert report.startswith("batch-") and [status[t.stem]["index"] for t in chosen] == [0, 1, 2, 3]
    # what inspect and the HTML page read: each kernel its own result of the shared report
    stems = [t.stem for t in chosen]
    counters = runfiles.source_counters(run, stems)
    assert [counters[s]["kernel"] for s in stems] == [t.name for t in chosen]
    # one counters file per kernel, keyed to the shared report (name, size) and its result there
    size = (run.ncu_source_dir / report).stat().st_size
    assert [json.loads(run.ncu_source_counters(s).read_text()) for s in stems] == [
        {"report": report, "index": i, "report_bytes": size, "counters": counters[s]} for i, s in enumerate(stems)]
    # which is all inspect needs: the same without the report (and no reader asked for)
    (run.ncu_source_dir / report).unlink()
    monkeypatch.setattr(runfiles, "read_source_reports", lambda paths: pytest.fail(f"read {paths}") if paths else {})
    assert runfiles.source_counters(run, stems) == counters
    # a file keyed to another result of the report is stale: one warning, the report read instead (gone here)
    data = json.loads(run.ncu_source_counters(stems[0]).read_text())
    run.ncu_source_counters(stems[0]).write_text(json.dumps({**data, "index": 1}))
    warnings = []
    got = runfiles.source_counters(run, stems, warnings=warnings)
    assert got[stems[0]] == {"error": f"{run.ncu_source_counters(stems[0])} is stale (written from result 1 of "
                                      f"{report}, the source pass recorded result 0 of {report}), and "
                                      f"{run.ncu_source_dir / report} is missing"}
    assert {s: got[s] for s in stems[1:]} == {s: counters[s] for s in stems[1:]}


def test_a_crash_in_the_shared_process_costs_its_kernel_in_flight(run, tmp_path, names_reader):
    from fakes import calls as process_calls, replaying_ncu

    exe = replaying_ncu(tmp_path, f"if n == {CUDNN!r}:\n    os.kill(os.getpid(), signal.SIGSEGV)")
    lines = []
    chosen = _named(ncu_source.automatic(run, Settings()))
    info = ncu_source.collect(run, Settings(ncu=exe), chosen, log=lines.append)
    # the first process dies at cuDNN's kernel (the last): it is blamed, the three others go again together
    assert process_calls(exe) == [[t.name for t in chosen], [t.name for t in chosen[:3]]]
    assert (info["ok"], info["failed"]) == (3, 1)
    status = json.loads(run.ncu_source_status_json.read_text())
    assert status[CUDNN]["status"] == "failed" and status[CUDNN]["reason"].startswith("killed by SIGSEGV")
    assert (status[CUDNN]["report"], status[CUDNN]["index"]) == ("", None)
    assert lines == [f"ncu source pass failed {CUDNN}: {status[CUDNN]['reason']}"]
    assert [status[t.stem]["index"] for t in chosen[:3]] == [0, 1, 2]


def test_the_second_runs_counters_files_are_the_shared_reports_results_at_their_index(tmp_path):
    """FLUX's second run on the H100 (tests/data/ncu_source_shared, see tests/data/README.md) recorded its 4 source
    kernels in one ncu process: one report, each kernel's result at the index status.json gives; each counters
    file is the reader's result there, and its kernel is the one status.json names (a wrong index would pair a
    kernel with another's lines)."""
    pytest.importorskip("ncu_report")
    import gzip

    from inductor_prof.drivers.ncu.source import kernel_at, read_all

    packed = REPO / "tests" / "data" / "ncu_source_shared"
    for f in packed.glob("*.gz"):   # unpacked as the run wrote them
        (tmp_path / f.name.removesuffix(".gz")).write_bytes(gzip.decompress(f.read_bytes()))
    folder = tmp_path
    status = json.loads((packed / "status.json").read_text())
    reports = {e["report"] for e in status.values()}
    assert len(status) == 4 and len(reports) == 1          # 4 kernels, one shared report
    report = folder / reports.pop()
    read = read_all([report])[str(report)]
    assert sorted(e["index"] for e in status.values()) == [0, 1, 2, 3]
    for stem, entry in status.items():
        counters = json.loads((folder / f"{stem}.counters.json").read_text())
        assert counters == {"report": report.name, "index": entry["index"], "report_bytes": report.stat().st_size,
                            "counters": kernel_at(read, entry["index"])}, stem
        assert counters["counters"]["kernel"] == entry["name"], stem
