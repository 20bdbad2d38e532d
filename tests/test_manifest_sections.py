"""runfiles.sections: the manifest's sections as typed records, read from shipped runs' manifests
(examples/runs/*, recorded on an H100 and an H200). The expected values are copied by hand from those
manifest.json files, so a field read from the wrong key (plain for Proton, the settings' target over the
preset) fails here."""
from recorded import REPO
from inductor_prof import runfiles
from inductor_prof.rundir import open_run
from inductor_prof.runfiles.sections import StepTimes, sections


def _sections(run: str):
    return sections(runfiles.manifest(open_run(REPO / "examples" / "runs" / run)))


def test_a_run_of_several_sizes():
    s = _sections("llama-sizes-h100")
    assert s.profile.steps == 5
    # profile.sizes.seq512 of examples/runs/llama-sizes-h100/manifest.json
    assert s.profile.sizes["seq512"] == StepTimes(plain_step_ms=9.347883999907936, proton_step_ms=10.207373999946867)
    assert list(s.profile.sizes) == ["seq2048", "seq1024", "seq512"]   # the manifest's order: the first is the default
    assert s.profile.plain_step_ms == 31.54122099988399
    assert s.profile.has_telemetry and isinstance(s.profile.gpu_telemetry, dict)
    assert s.target == "examples.models.llama_decoder:decoder_sizes"   # no preset: the target given
    assert s.gpu_name == "NVIDIA H100 80GB HBM3"
    assert s.ceilings is not None and s.stopped_at is None


def test_a_preset_names_the_target():
    s = _sections("flux-h100")
    assert s.target == "flux"
    assert (s.profile.steps, s.profile.plain_step_ms, s.profile.proton_step_ms) == \
        (10, 133.01788650000645, 136.01725300000567)
    assert s.profile.sizes == {}   # one input size


def test_what_a_manifest_lacks_is_none():
    s = sections({})
    assert (s.profile.steps, s.profile.plain_step_ms, s.profile.gpu_telemetry, s.profile.has_telemetry) == \
        (1, None, None, False)
    assert (s.target, s.gpu_name, s.ceilings, s.stages, s.stopped_at) == (None, "", None, {}, None)
    # a recorded null is not a time; a telemetry key present but null still says the run measured it
    s = sections({"profile": {"plain_step_ms": None, "gpu_telemetry": None, "steps": 0}})
    assert (s.profile.plain_step_ms, s.profile.has_telemetry, s.profile.steps) == (None, True, 1)
