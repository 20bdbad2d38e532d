"""The stage list's order and its switches: a stage runs only when every flag it names is on."""
import pytest

from inductor_prof import pipeline
from inductor_prof.pipeline import stages


def test_the_attention_configs_compile_and_the_source_pass_runs_while_ncu_measures_then_attention_is_timed():
    names = [s.name for s in stages.STAGES]
    # both started before the metric pass; the source pass waited for before attention times anything on the GPU
    assert names.index("attention_precompile") + 2 == names.index("ncu_source_start") + 1 == names.index("ncu") \
        == names.index("ncu_source") - 1 == names.index("attention") - 2
    assert {s.name: s.when for s in stages.STAGES}["ncu_source_start"] == ("ncu",)
    when = {s.name: s.when for s in stages.STAGES}
    assert set(when["attention_precompile"]) == {"attention", "ncu"} and when["attention"] == ("attention",)


@pytest.mark.parametrize("ncu, attention, ran", [(True, True, ["both", "ncu_only"]), (False, True, []),
                                                 (True, False, ["ncu_only"]), (False, False, [])])
def test_a_stage_runs_only_when_all_its_flags_are_on(tmp_path, monkeypatch, ncu, attention, ran):
    monkeypatch.setattr(pipeline, "require_cuda", lambda what: None)
    monkeypatch.setattr(pipeline, "check_target", lambda target, flux: None)
    monkeypatch.setattr(pipeline, "collect", lambda: {})
    seen = []
    monkeypatch.setattr(stages, "STAGES", (
        stages.Stage("build", lambda ctx: seen.append("build"), required=True),
        stages.Stage("both", lambda ctx: seen.append("both"), when=("attention", "ncu"), model=False),
        stages.Stage("ncu_only", lambda ctx: seen.append("ncu_only"), when=("ncu",), model=False)))
    opts = pipeline.ProfileOptions(out=str(tmp_path / "run"), ncu=ncu, attention=attention)
    pipeline.profile(opts, log=lambda line: None)
    assert seen == ["build"] + ran
