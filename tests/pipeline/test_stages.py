"""The stage list's order and its switches: a stage runs only when every flag it names is on."""
import json

import pytest

from inductor_prof import pipeline, rundir
from inductor_prof.pipeline import stages


def test_the_attention_configs_compile_and_the_source_pass_runs_while_ncu_measures_then_attention_is_timed():
    names = [s.name for s in stages.STAGES]
    # the source pass waited for before attention times anything on the GPU
    assert names.index("ncu") + 1 == names.index("ncu_source") == names.index("attention") - 1
    row = {s.name: s for s in stages.STAGES}
    # both started just before the metric pass, in their own stage's row; the CUDA build with the run
    assert [(t.key, t.before, t.record) for t in row["ncu_source"].starts] == [("ncu_source_start", "ncu", True)]
    assert [(t.key, t.before, t.record) for t in row["attention"].starts] == [
        ("cuda_build", "build", False), ("attention_precompile", "ncu", True)]
    assert row["ncu_source"].when == ("ncu",) and row["attention"].when == ("attention",)
    assert not any(s.starts for s in stages.STAGES if s.name not in ("ncu_source", "attention"))


class Child:
    def __init__(self, seen, name):
        self.seen, self.name = seen, name

    def end(self):
        self.seen.append(f"end {self.name}")


def _early(seen, name, fail=False):
    def start(ctx):
        seen.append(f"start {name}")
        if fail:
            raise RuntimeError("no child today")
        return {"log": name}, Child(seen, name)
    return start


def no_machine_checks(monkeypatch) -> None:
    """profile() without its GPU, target and environment checks: the stage table's own order is what is tested."""
    monkeypatch.setattr(pipeline, "require_cuda", lambda what: None)
    monkeypatch.setattr(pipeline, "check_target", lambda target, flux: None)
    monkeypatch.setattr(pipeline, "collect", lambda: {})


@pytest.mark.parametrize("ncu, attention, ran", [
    (True, True, ["build", "start pre", "both", "ncu_only", "late ok", "end pre"]),
    (False, True, ["build", "late none"]),   # its start is due before a stage that does not run: none
    (True, False, ["build", "both", "ncu_only"]),
    (False, False, ["build"])])
def test_a_start_runs_before_its_stage_only_when_its_stage_runs_and_its_child_ends_with_the_profile(
        tmp_path, monkeypatch, ncu, attention, ran):
    no_machine_checks(monkeypatch)
    seen = []
    monkeypatch.setattr(stages, "STAGES", (
        stages.Stage("build", lambda ctx: seen.append("build"), required=True),
        stages.Stage("both", lambda ctx: seen.append("both"), when=("ncu",), model=False),
        stages.Stage("ncu_only", lambda ctx: seen.append("ncu_only"), when=("ncu",), model=False),
        stages.Stage("late", lambda ctx: seen.append("late " + ("ok" if "pre" in ctx.started else "none")),
                     when=("attention",), model=False, starts=(stages.Start("pre", "both", _early(seen, "pre")),))))
    opts = pipeline.ProfileOptions(out=str(tmp_path / "run"), ncu=ncu, attention=attention)
    pipeline.profile(opts, log=lambda line: None)
    assert seen == ran
    manifest = rundir.RunDir(tmp_path / "run").manifest_path.read_text()
    assert ('"pre"' in manifest) is (ncu and attention)       # recorded as its own entry, as before


def test_a_start_that_fails_is_recorded_and_the_stage_runs_without_its_child(tmp_path, monkeypatch):
    no_machine_checks(monkeypatch)
    seen = []
    monkeypatch.setattr(stages, "STAGES", (
        stages.Stage("build", lambda ctx: seen.append("build"), required=True),
        stages.Stage("late", lambda ctx: seen.append("late " + ("ok" if "pre" in ctx.started else "none")),
                     starts=(stages.Start("pre", "late", _early(seen, "pre", fail=True)),))))
    result = pipeline.profile(pipeline.ProfileOptions(out=str(tmp_path / "run")), log=lambda line: None)
    assert seen == ["build", "start pre", "late none"]
    assert result.failed == {"pre": "RuntimeError: no child today"}


@pytest.mark.parametrize("ncu, attention, ran", [(True, True, ["both", "ncu_only"]), (False, True, []),
                                                 (True, False, ["ncu_only"]), (False, False, [])])
def test_a_stage_runs_only_when_all_its_flags_are_on(tmp_path, monkeypatch, ncu, attention, ran):
    no_machine_checks(monkeypatch)
    seen = []
    monkeypatch.setattr(stages, "STAGES", (
        stages.Stage("build", lambda ctx: seen.append("build"), required=True),
        stages.Stage("both", lambda ctx: seen.append("both"), when=("attention", "ncu"), model=False),
        stages.Stage("ncu_only", lambda ctx: seen.append("ncu_only"), when=("ncu",), model=False)))
    opts = pipeline.ProfileOptions(out=str(tmp_path / "run"), ncu=ncu, attention=attention)
    pipeline.profile(opts, log=lambda line: None)
    assert seen == ["build"] + ran


def test_ncu_is_found_once_and_the_stages_get_its_path_in_the_settings(tmp_path, monkeypatch):
    from fakes import fake_exe

    no_machine_checks(monkeypatch)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    exe = fake_exe(bin_dir, "sys.exit(0)", name="ncu")
    monkeypatch.setenv("PATH", str(bin_dir))
    seen = []
    monkeypatch.setattr(stages, "STAGES", (
        stages.Stage("build", lambda ctx: seen.append(ctx.opts.settings.ncu), required=True),))
    pipeline.profile(pipeline.ProfileOptions(out=str(tmp_path / "run"), ncu=True), log=lambda line: None)
    assert seen == [exe]     # found on PATH once, by the profile
    manifest = json.loads((tmp_path / "run" / "manifest.json").read_text())
    assert manifest["settings"]["settings"]["ncu"] is None    # the settings as given stay the record
    monkeypatch.setenv("PATH", str(tmp_path / "nowhere"))     # none: the profile goes on (its ncu stage says so)
    monkeypatch.setattr("inductor_prof.drivers.ncu.locate.NCU_SEARCH", ())   # nor an install this machine has
    pipeline.profile(pipeline.ProfileOptions(out=str(tmp_path / "run2"), ncu=True), log=lambda line: None)
    assert seen[-1] is None
