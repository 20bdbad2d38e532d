"""`profile`'s attention stage: which backends it runs (the teaching ones only when asked), the settings it
hands its own process (the tuning cache's folder, retune), and what that process says about the cache."""
import os
import shutil
import subprocess
import sys
import threading
import time

import pandas as pd
import pytest

from recorded import data_path
from inductor_prof import procs, rundir, runfiles
from inductor_prof.attention import tuning_cache
from inductor_prof.attention.benchmark import registry
from inductor_prof.pipeline import attention
from inductor_prof.settings import Settings, resolve

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


def test_the_settings_reach_the_stage_as_its_arguments(run, monkeypatch):
    started = []
    monkeypatch.setattr(procs, "run_logged", lambda cmd, env, log, timeout: (
        started.append(cmd), log.parent.mkdir(parents=True, exist_ok=True),
        log.write_text("attention: tuning cache /c/attention-tuning.json: 2 from the cache, 1 tuned\nsaved\n"),
        procs.Finished(0, 1.0))[-1])
    env = {"INDUCTOR_PROF_ATTENTION_TEACHING": "1", "INDUCTOR_PROF_RETUNE": "yes",
           "INDUCTOR_PROF_TUNING_CACHE": "/c"}
    settings, _ = resolve(env=env, cwd=run.root)
    done = attention.in_subprocess(run, settings)
    assert started[-1][3:] == [str(run.root), "--teaching", "--retune", "--tuning-cache", "/c"]
    assert done["notes"] == ["attention: tuning cache /c/attention-tuning.json: 2 from the cache, 1 tuned"]
    attention.in_subprocess(run, Settings())            # the defaults: no arguments
    assert started[-1] == [sys.executable, "-m", "inductor_prof.pipeline.attention", str(run.root)]


def _main(run, monkeypatch, capsys, *args, summary=None):
    got = []
    monkeypatch.setattr(attention, "require_cuda", lambda command: None)
    monkeypatch.setattr(attention, "benchmark", lambda run_dir, shapes, opts: (
        got.append(opts), (pd.DataFrame(), {"ok": 3, "rows": 4, **(summary or {})}))[-1])
    assert attention.main(["x", str(run.root), *args]) == 0
    return got[0], capsys.readouterr().out.splitlines()


def test_the_stage_process_runs_the_stage_backends_through_the_cache(run, monkeypatch, capsys, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    opts, out = _main(run, monkeypatch, capsys, summary={
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
    opts, out = _main(run, monkeypatch, capsys, "--teaching", "--retune", "--tuning-cache", str(tmp_path / "c"))
    assert opts.backends == [b.name for b in registry.backends()]
    assert opts.cache.path == tmp_path / "c" / tuning_cache.FILE and opts.cache.retune
    assert out == [f"saved to {run.attention_csv} (3 of 4 ok)"]


def _stage_ctx(run, build, precompile=None):
    from types import SimpleNamespace

    lines, ends = [], []
    return SimpleNamespace(run=run, opts=SimpleNamespace(settings=Settings(retune=True)), log=lines.append,
                           attention_build=build, attention_precompile=precompile, on_exit=ends.append), lines


def test_the_stage_waits_for_the_cuda_build_started_with_the_run_and_says_how_it_went(run, monkeypatch):
    monkeypatch.setattr(attention, "in_subprocess", lambda run_dir, settings: {"notes": [], "last_line": "saved"})
    ok = procs.Background([sys.executable, "-c", "print('ready')"], {}, run.attention_build_log, 60)
    ctx, _ = _stage_ctx(run, ok)
    info = attention.run(ctx)
    assert info["cuda_build"].endswith(" s, overlapping the earlier stages") and info["last_line"] == "saved"
    assert run.attention_build_log.read_text() == "ready\n"
    broken = procs.Background([sys.executable, "-c", "import sys; sys.exit('nvcc broke')"], {},
                              run.attention_build_log, 60)
    ctx, _ = _stage_ctx(run, broken)
    # a failed build is said with its end and its log; the stage still runs (its process builds it again)
    assert attention.run(ctx)["cuda_build"] == (f"failed (exit 1: nvcc broke; {run.attention_build_log}): the "
                                                "stage builds it again")
    ctx, _ = _stage_ctx(run, None)      # no build started (no CUDA toolkit): nothing said
    assert "cuda_build" not in attention.run(ctx)


def test_the_stage_keeps_what_its_process_recorded(run, monkeypatch):
    # the stage's process writes its summary into the manifest's entry for the stage; the profile's own entry,
    # written when the stage returns, keeps it (before: replaced, so the caches' outcome was lost)
    def child(run_dir, settings):
        m = rundir.Manifest.of(run_dir, runfiles.manifest(run_dir, "test"))
        with m.stage("attention") as info:
            info.update(tuning_cache="F: 0 from the cache, 3 tuned", check_and_tune_s={"gluon_fa3": 31.1})
        return {"notes": [], "last_line": "saved"}
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


# what the stage's process (main --precompile --go FILE) writes, acted out: what it compiled, the wait, the stage
GOES_ON = """
import pathlib, sys, time
print("precompiled: 9.9 s, compiled ahead: gluon_fa3 9.9 s", flush=True)
while not pathlib.Path(sys.argv[1]).exists():
    time.sleep(0.02)
print("went on after ncu")
print("attention: tuning cache F: 3 from the cache")
print("saved to attention.csv (9 of 9 ok)")
"""


def test_the_process_started_before_ncu_runs_the_stage_once_told(run, monkeypatch):
    def fresh(run_dir, settings):
        raise AssertionError("no second process when the first went on")
    monkeypatch.setattr(attention, "in_subprocess", fresh)
    child = procs.Background([sys.executable, "-c", GOES_ON, str(run.attention_go)], {}, run.attention_log, 60)
    ctx, lines = _stage_ctx(run, None, child)
    info = attention.run(ctx)
    assert run.attention_go.exists()
    assert info["precompile"] == "9.9 s, compiled ahead: gluon_fa3 9.9 s"
    assert info["notes"] == ["attention: tuning cache F: 3 from the cache"] and lines[-1] == info["notes"][0]
    assert info["last_line"] == "saved to attention.csv (9 of 9 ok)" and info["log"] == "attention/attention.log"


def test_a_process_that_ended_before_it_went_on_leaves_the_stage_to_a_fresh_one(run, monkeypatch):
    monkeypatch.setattr(attention, "in_subprocess", lambda run_dir, settings: {"notes": [], "last_line": "saved"})
    broken = procs.Background([sys.executable, "-c", "import sys; sys.exit('ptxas broke')"], {}, run.attention_log,
                              60)
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
    stuck = procs.Background([sys.executable, "-c", "import time; time.sleep(120)"], {}, run.attention_log, 1200,
                             clock=JumpingClock())
    t0 = time.monotonic()
    info = attention.run(_stage_ctx(run, None, stuck)[0])
    assert time.monotonic() - t0 < 30 and stuck.proc.poll() is not None      # ended, not waited for 1200 s
    assert info["precompile"] == (f"failed (no configs compiled after {attention.PRECOMPILE_TIMEOUT_S} s, ended; "
                                  f"{run.attention_precompile_log}): the stage ran in a fresh process")
    assert info["last_line"] == "saved"


def test_went_on_is_read_behind_a_line_another_writer_left_open(run, monkeypatch):
    monkeypatch.setattr(attention, "in_subprocess", lambda run_dir, settings: {"notes": [], "last_line": "again"})
    script = GOES_ON.replace('print("went on after ncu")',
                             'print("a worker warns ", end=""); print("went on after ncu")')
    child = procs.Background([sys.executable, "-c", script, str(run.attention_go)], {}, run.attention_log, 60)
    info = attention.run(_stage_ctx(run, None, child)[0])
    assert info["last_line"] == "saved to attention.csv (9 of 9 ok)"   # not run a second time


def test_a_process_that_fails_after_it_went_on_fails_the_stage(run, monkeypatch):
    monkeypatch.setattr(attention, "in_subprocess", lambda run_dir, settings: {"notes": [], "last_line": "saved"})
    script = GOES_ON.replace('print("saved to', 'sys.exit("kernel crashed"); print("saved to')
    child = procs.Background([sys.executable, "-c", script, str(run.attention_go)], {}, run.attention_log, 60)
    with pytest.raises(RuntimeError, match=r"attention benchmark exit 1: .*kernel crashed"):
        attention.run(_stage_ctx(run, None, child)[0])


def test_the_waiting_process_goes_on_when_told_and_ends_when_its_parent_is_gone(tmp_path):
    go = tmp_path / "go"
    threading.Timer(0.2, go.touch).start()
    assert attention.wait_for(go, os.getppid(), poll_s=0.01)
    # a waiting grandchild whose parent (the profile) ends without a word returns False, and so exits; its
    # parent is read first, as main does, so the parent cannot be gone before it is known
    waiter = (f"import os; parent = os.getppid(); from inductor_prof.pipeline.attention import wait_for; "
              f"print('waiting', flush=True); "
              f"ok = wait_for(__import__('pathlib').Path({str(tmp_path / 'never')!r}), parent, 0.01); "
              f"open({str(tmp_path / 'said')!r}, 'w').write(str(ok))")
    parent = (f"import subprocess, sys; p = subprocess.Popen([sys.executable, '-c', {waiter!r}], "
              f"stdout=subprocess.PIPE, text=True); p.stdout.readline()")
    subprocess.run([sys.executable, "-c", parent], timeout=120, check=True)
    deadline = time.monotonic() + 30
    while not (tmp_path / "said").exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert (tmp_path / "said").read_text() == "False"


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
    ends = []
    ctx.on_exit = ends.append
    assert attention.start_precompile(ctx) == {"log": "attention/attention.log"}
    assert ends == [ctx.attention_precompile.end]      # ended with the run if never waited for
    assert ctx.attention_precompile.proc.args[-5:] == [str(run.root), "--precompile", "--go", str(run.attention_go),
                                                       "--retune"]
    done = ctx.attention_precompile.wait()
    assert done.returncode == 2 and "needs a CUDA GPU" in run.attention_log.read_text()


def test_a_model_without_attention_skips_the_stage(run):
    # the library_ops stage found no attention call: the stage (and its precompile) have nothing to time
    rundir.write_json(run.attention_shapes_json, [])
    logged = []
    ctx = type("Ctx", (), {"run": run, "log": logged.append, "attention_build": None})()
    assert attention.run(ctx) == {"skipped": attention.NO_CALLS}
    assert attention.start_precompile(ctx) == {"skipped": attention.NO_CALLS}
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
