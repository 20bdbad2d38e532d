"""`profile`'s attention stage: which backends it runs (the teaching ones only when asked), the settings it
hands its own process (the tuning cache's folder, retune), and what that process says about the cache."""
import io
import shutil
import sys
import time

import pandas as pd
import pytest

from recorded import data_path
from inductor_prof import procs, rundir, runfiles
from inductor_prof.attention import tuning_cache
from inductor_prof.attention.benchmark import registry
from inductor_prof.pipeline import attention
from inductor_prof.settings import Settings, resolve
from inductor_prof.specs import CudaBuildSpec

# every backend but the three teaching ones, in display order, written out
STAGE = ["triton_fa2", "gluon_fa3", "cuda_mma_fa2", "sdpa", "sdpa_flash", "sdpa_efficient", "sdpa_cudnn",
         "flex_compiled", "flash_attn2", "flash_attn3", "xformers", "transformer_engine"]


@pytest.fixture
def run(tmp_path):
    root = tmp_path / "run"
    shutil.copytree(data_path("flux_small"), root)
    return rundir.RunDir(root)


def test_the_stage_leaves_the_teaching_backends_out_unless_asked():
    assert registry.stage_names() == STAGE
    assert set(registry.TEACHING) == {"numba_fa", "torch_blocked", "sdpa_math"}
    assert registry.stage_names(teaching=True) == [b.name for b in registry.backends()]
    assert len(registry.stage_names(teaching=True)) == len(STAGE) + 3


def test_the_settings_reach_the_stage_whole_and_its_events_come_back(run, monkeypatch):
    started = []
    monkeypatch.setattr(procs, "run_worker", lambda spec, log, timeout: (started.append(spec), procs.WorkerOutcome(
        procs.Finished(0, 1.0), log, [
            {"event": "note", "text": "tuning cache /c/attention-tuning.json: 2 from the cache, 1 tuned"},
            {"event": "result", "value": {"summary": {"ok": 3}, "last_line": "saved"}}]))[-1])
    env = {"INDUCTOR_PROF_ATTENTION_TEACHING": "1", "INDUCTOR_PROF_RETUNE": "yes",
           "INDUCTOR_PROF_TUNING_CACHE": "/c", "INDUCTOR_PROF_NCU_TIMEOUT": "77"}
    settings, _ = resolve(env=env, cwd=run.root)
    done = attention.in_subprocess(run, settings)
    assert started[-1].settings == settings and started[-1].run == str(run.root)   # whole, not 4 flags
    assert not started[-1].precompile
    assert done == {"summary": {"ok": 3}, "log": "attention/attention.log", "last_line": "saved",
                    "notes": ["attention: tuning cache /c/attention-tuning.json: 2 from the cache, 1 tuned"]}


def _work(run, monkeypatch, capsys, tmp_path, settings=None, summary=None):
    from inductor_prof.events import Events

    got = []
    monkeypatch.setattr(attention, "require_cuda", lambda command: None)
    monkeypatch.setattr(attention, "machine_peaks", lambda ceilings=None: {})
    monkeypatch.setattr(attention, "_into_run", lambda run_dir, shapes, opts, on_backend, peaks: (
        got.append(opts), (pd.DataFrame(), {"ok": 3, "rows": 4, **(summary or {})}))[-1])
    events = tmp_path / "events.jsonl"
    spec = attention.AttentionSpec(settings=settings or Settings(), run=str(run.root))
    value = attention.work(spec, Events(events))
    assert value["summary"] == {"ok": 3, "rows": 4, **(summary or {})}
    notes = [e["text"] for e in procs.read_events(events)[0] if e["event"] == "note"]
    out = capsys.readouterr().out.splitlines()
    assert [attention.NOTE + n for n in notes] == out[:-1] and value["last_line"] == out[-1]
    return got[0], out


def test_the_stage_process_runs_the_stage_backends_through_the_cache(run, monkeypatch, capsys, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    opts, out = _work(run, monkeypatch, capsys, tmp_path, summary={
        "tuning_cache": "F: 0 from the cache, 3 tuned; the cache was not written (Read-only file system)",
        "tuning_cache_warnings": ["tuning cache F: not JSON: ignored, and rewritten with this run's tuning"],
        "checked_at": {"(1,24,4608,128)": "(1,24,1024,128)"},
        "check_and_tune_s": {"triton_fa2": 31.2, "gluon_fa3": 12.0, "flex_compiled": 8.5, "sdpa": 0.3}})
    assert opts.backends == STAGE
    assert opts.cache.path == tmp_path / "xdg" / "inductor-prof" / tuning_cache.FILE and not opts.cache.retune
    assert out == [
        "attention: tuning cache F: not JSON: ignored, and rewritten with this run's tuning",
        "attention: tuning cache F: 0 from the cache, 3 tuned; the cache was not written (Read-only file system)",
        "attention: (1,24,4608,128) checked against float64 at (1,24,1024,128) (the full length's reference is "
        "costly; timed at full length)",
        "attention: checks and tuning took longest: triton_fa2 31.2 s, gluon_fa3 12 s, flex_compiled 8.5 s",
        "attention: left out: numba_fa, torch_blocked, sdpa_math (teaching backends; the attention_teaching "
        "setting, or `inductor-prof attention RUN`, runs them)",
        f"saved to {run.attention_csv} (3 of 4 ok)"]


def test_teaching_retune_and_a_folder(run, monkeypatch, capsys, tmp_path):
    settings = Settings(attention_teaching=True, retune=True, tuning_cache=str(tmp_path / "c"))
    opts, out = _work(run, monkeypatch, capsys, tmp_path, settings)
    assert opts.backends == [b.name for b in registry.backends()]
    assert opts.cache.path == tmp_path / "c" / tuning_cache.FILE and opts.cache.retune
    assert out == [f"saved to {run.attention_csv} (3 of 4 ok)"]


def _stage_ctx(run, build, precompile=None):
    from types import SimpleNamespace

    lines = []
    started = {k: v for k, v in (("cuda_build", build), ("attention_precompile", precompile)) if v is not None}
    return SimpleNamespace(run=run, opts=SimpleNamespace(settings=Settings(retune=True)), log=lines.append,
                           started=started), lines


def test_the_stage_waits_for_the_cuda_build_started_with_the_run_and_says_how_it_went(run, monkeypatch):
    monkeypatch.setattr(attention, "in_subprocess", lambda run_dir, settings: {"notes": [], "last_line": "saved"})
    # the build's worker acted out: its line, and the result event the worker entry would write
    built = ("import json, sys; from inductor_prof.events import Events; print('ready', flush=True); "
             "Events(json.load(open(sys.argv[1]))['events']).result({'seconds': 1.0})")
    ok = procs.Worker(CudaBuildSpec(), run.attention_build_log, 60, program=[sys.executable, "-c", built])
    ctx, _ = _stage_ctx(run, ok)
    info = attention.run(ctx)
    assert info["cuda_build"].endswith(" s, overlapping the earlier stages") and info["last_line"] == "saved"
    assert run.attention_build_log.read_text() == "ready\n"
    broken = procs.Worker(CudaBuildSpec(), run.attention_build_log, 60,
                          program=[sys.executable, "-c", "import sys; sys.exit('nvcc broke')"])
    ctx, _ = _stage_ctx(run, broken)
    # a failed build is said with its end and its log; the stage still runs (its process builds it again)
    assert attention.run(ctx)["cuda_build"] == (f"failed (exit 1: nvcc broke; {run.attention_build_log}): the "
                                                "stage builds it again")
    ctx, _ = _stage_ctx(run, None)      # no build started (no CUDA toolkit): nothing said
    assert "cuda_build" not in attention.run(ctx)


def test_the_stage_records_what_its_process_returned(run, monkeypatch):
    # the stage's process returns its summary (its result event); the profile alone writes it into the manifest,
    # as the stage's entry, so the caches' outcome is kept
    def child(run_dir, settings):
        return {"summary": {"tuning_cache": "F: 0 from the cache, 3 tuned", "check_and_tune_s": {"gluon_fa3": 31.1}},
                "notes": [], "last_line": "saved"}
    monkeypatch.setattr(attention, "in_subprocess", child)
    ctx, _ = _stage_ctx(run, None)
    assert attention.run(ctx) == {"tuning_cache": "F: 0 from the cache, 3 tuned",
                                  "check_and_tune_s": {"gluon_fa3": 31.1}, "notes": [], "last_line": "saved"}


def test_no_cuda_build_is_started_without_a_gpu(run):
    # this CPU machine: torch sees no CUDA GPU, whatever toolkit is installed
    import torch

    if torch.cuda.is_available():
        pytest.skip("a GPU machine")
    assert attention.start_build(run, Settings()) is None


# the stage's process (precompile, wait_for_go) acted out through the worker protocol: what it compiled, the
# wait for go on its stdin, the stage
GOES_ON = """
import json, sys
from inductor_prof.events import Events
spec = json.load(open(sys.argv[1]))
events = Events(spec["events"])
events.phase("precompiled", "9.9 s, compiled ahead: gluon_fa3 9.9 s")
if sys.stdin.readline().strip() != "go":
    sys.exit("never told")
events.phase("went on after ncu")
events.note("tuning cache F: 3 from the cache")
events.result({"summary": {"ok": 9}, "last_line": "saved to attention.csv (9 of 9 ok)"})
"""


def _acted(run, script=GOES_ON, **kw):
    spec = attention.AttentionSpec(run=str(run.root), precompile=True, wait_for_go=True)
    return procs.Worker(spec, run.attention_log, kw.pop("timeout", 60), stdin=True,
                        program=[sys.executable, "-c", script], **kw)


def test_the_process_started_before_ncu_runs_the_stage_once_told(run, monkeypatch):
    def fresh(run_dir, settings):
        raise AssertionError("no second process when the first went on")
    monkeypatch.setattr(attention, "in_subprocess", fresh)
    ctx, lines = _stage_ctx(run, None, _acted(run))
    info = attention.run(ctx)
    assert info["precompile"] == "9.9 s, compiled ahead: gluon_fa3 9.9 s" and info["ok"] == 9
    assert info["notes"] == ["attention: tuning cache F: 3 from the cache"] and lines[-1] == info["notes"][0]
    assert info["last_line"] == "saved to attention.csv (9 of 9 ok)" and info["log"] == "attention/attention.log"


def test_a_process_that_ended_before_it_went_on_leaves_the_stage_to_a_fresh_one(run, monkeypatch):
    monkeypatch.setattr(attention, "in_subprocess", lambda run_dir, settings: {"notes": [], "last_line": "saved"})
    broken = _acted(run, "import sys; sys.exit('ptxas broke')")
    info = attention.run(_stage_ctx(run, None, broken)[0])
    assert info["precompile"] == (f"failed (exit 1: ptxas broke; {run.attention_precompile_log}): the stage ran "
                                  "in a fresh process")
    assert info["last_line"] == "saved" and "ptxas broke" in run.attention_precompile_log.read_text()
    assert "precompile" not in attention.run(_stage_ctx(run, None)[0])   # no --ncu: nothing started before


class JumpingClock:
    """Reads 0 when the child starts, then 601 s: the child's precompile time is spent at the first look."""
    def __init__(self):
        self.reads = 0

    def __call__(self) -> float:
        self.reads += 1
        return 0.0 if self.reads == 1 else 601.0


def test_a_process_stuck_compiling_is_ended_and_the_stage_runs_fresh(run, monkeypatch):
    monkeypatch.setattr(attention, "in_subprocess", lambda run_dir, settings: {"notes": [], "last_line": "saved"})
    stuck = _acted(run, "import time; time.sleep(120)", timeout=1200, clock=JumpingClock())
    t0 = time.monotonic()
    info = attention.run(_stage_ctx(run, None, stuck)[0])
    assert time.monotonic() - t0 < 30 and stuck.proc.poll() is not None      # ended, not waited for 1200 s
    assert info["precompile"] == (f"failed (no configs compiled after {attention.PRECOMPILE_TIMEOUT_S} s, ended; "
                                  f"{run.attention_precompile_log}): the stage ran in a fresh process")
    assert info["last_line"] == "saved"


def test_a_process_that_fails_after_it_went_on_fails_the_stage(run, monkeypatch):
    monkeypatch.setattr(attention, "in_subprocess", lambda run_dir, settings: {"notes": [], "last_line": "saved"})
    script = GOES_ON.replace('events.result(', 'events.error("kernel crashed"); sys.exit(1); events.result(')
    with pytest.raises(RuntimeError, match=r"attention benchmark: kernel crashed \(log: "):
        attention.run(_stage_ctx(run, None, _acted(run, script))[0])


@pytest.mark.parametrize("stdin, said", [("go\n", True), ("", False)])
def test_the_waiting_process_goes_on_when_told_and_not_when_its_parent_is_gone(monkeypatch, stdin, said):
    # the parent gone closes the pipe: the waiting process reads its end, and does not run the stage
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    assert attention.told_to_go() is said


def test_the_benchmark_phases_add_up_to_its_time():
    # start 10.0, rows saved 30.0, Proton pass done 33.0, harvested and cached 34.0; checks and tuning 12.0 s of
    # the first 20.0: timing 8.0, proton 3.0, harvest 1.0 (with the checks: the 24.0 s from start to end)
    assert attention.phases([10.0, 30.0, 33.0, 34.0], 12.0) == {"checks and tuning": 12.0, "timing": 8.0,
                                                                "proton": 3.0, "harvest and cache": 1.0}


def test_the_precompile_stage_starts_the_stage_module_compiling_only(run):
    # the real child: this module with --precompile and the stage's settings; on this CPU machine it stops at
    # its CUDA check, which the attention stage then says, with the log
    import torch

    if torch.cuda.is_available():
        pytest.skip("a GPU machine")
    ctx, _ = _stage_ctx(run, None)
    info, child = attention.start_precompile(ctx)
    assert info == {"log": "attention/attention.log"}
    spec = child.spec
    assert (spec.run, spec.precompile, spec.wait_for_go, spec.settings) == (str(run.root), True, True,
                                                                           Settings(retune=True))
    done = child.wait()
    assert done.finished.returncode == 2 and "needs a CUDA GPU" in done.error


def test_a_model_without_attention_skips_the_stage(run):
    # the library_ops stage found no attention call: the stage (and its precompile) have nothing to time
    rundir.write_json(run.attention_shapes_json, [])
    logged = []
    ctx = type("Ctx", (), {"run": run, "log": logged.append, "started": {}})()
    assert attention.run(ctx) == {"skipped": attention.NO_CALLS}
    assert attention.start_precompile(ctx) == ({"skipped": attention.NO_CALLS}, None)
    assert logged == [f"attention: {attention.NO_CALLS}"]
    # a missing file is not "no calls": the stage runs and says what is wrong
    run.attention_shapes_json.unlink()
    assert not attention.no_calls(run)


def test_a_skipped_stage_leaves_no_warning_for_its_missing_file(run):
    manifest = {"stages": {"attention": {"status": "ok", "skipped": attention.NO_CALLS}}}
    reader = runfiles.Reader(run, manifest)
    assert reader.attention() is None and reader.warnings == []
    reader = runfiles.Reader(run, {"stages": {"attention": {"status": "ok"}}})
    assert reader.attention() is None and len(reader.warnings) == 1    # an attention.csv that should be there
