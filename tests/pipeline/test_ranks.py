"""`profile --nproc N` (pipeline/ranks.py, pipeline/rank.py): the GPU count check, torchrun's command, its failure
summary parsed, and real torchrun runs of two ranks on the CPU (tests/rank_bodies.py in place of the profile: no GPU
here) that end well (over gloo), with a rank raising, with a rank killed by a signal, and interrupted."""
import json
import os
import signal
import threading
import time
from pathlib import Path

import pytest

from inductor_prof.errors import UserError
from inductor_prof.pipeline import ProfileOptions
from inductor_prof.pipeline import ranks
from inductor_prof.settings import Settings
from recorded import data_path

TESTS = str(Path(__file__).resolve().parent.parent)


def test_more_ranks_than_gpus_is_one_line_naming_the_setting():
    with pytest.raises(UserError) as e:
        ranks.check_nproc(4, 2)
    assert e.value.shown({"nproc": "--nproc"}) == ("--nproc 4 needs 4 GPUs; 2 visible here "
                                                   "(torch.cuda.device_count())")
    with pytest.raises(UserError, match="must be at least 1"):
        ranks.check_nproc(0, 2)
    ranks.check_nproc(2, 2)


def test_refused_before_the_run_folder_is_made(tmp_path):
    opts = ProfileOptions(target="x:y", out=str(tmp_path / "run"), nproc=3)
    with pytest.raises(UserError, match="needs 3 GPUs; 2 visible"):
        ranks.profile_ranks(opts, gpus=lambda: 2, check=lambda *a: None)
    assert not (tmp_path / "run").exists()


def test_torchrun_command_is_an_argument_list():
    cmd = ranks.torchrun_command(2, 29500, "RUN/logs/spec.json", python="py")
    assert cmd == ["py", "-m", "torch.distributed.run", "--nnodes", "1", "--nproc-per-node", "2",
                   "--master-addr", "127.0.0.1", "--master-port", "29500", "-m", "inductor_prof.pipeline.rank",
                   "RUN/logs/spec.json"]


def test_torchrun_failure_summaries_as_recorded():
    exits, root = ranks.torchrun_failures(data_path("torchrun/fail.log").read_text())
    assert exits == {0: -15, 1: 3} and root == 1
    exits, root = ranks.torchrun_failures(data_path("torchrun/segv.log").read_text())
    assert exits == {0: -15, 1: -11} and root == 1
    assert ranks.torchrun_failures("") == ({}, None)


def test_rank_records_and_the_first_failure():
    ok = ranks.rank_record(0, {"exit": 0, "why": "", "ended": 5.0}, None, "tail")
    assert ok["status"] == "ok" and ok["last_lines"] == ""
    ended = ranks.rank_record(0, {"exit": 143, "why": "terminated", "ended": 4.0}, -15, "t0")
    failed = ranks.rank_record(1, {"exit": 1, "why": "RuntimeError: x", "ended": 3.0}, 1, "t1")
    killed = ranks.rank_record(2, None, -11, "t2")
    unknown = ranks.rank_record(3, None, None, "")
    assert [r["status"] for r in (ended, failed, killed, unknown)] == ["ended", "failed", "failed", "unknown"]
    assert killed["why"] == "killed by SIGSEGV with no exit record of its own (killed)"
    # torchrun's root cause wins; without one, the failed rank that ended first
    assert ranks.first_failure([ended, failed, killed], root_cause=2)["rank"] == 2
    assert ranks.first_failure([ended, failed, killed], root_cause=None)["rank"] == 1
    assert ranks.first_failure([ok, unknown], None)["rank"] == 3
    assert ranks.first_failure([ok], None) is None


@pytest.fixture
def launch(tmp_path, monkeypatch):
    monkeypatch.setenv("PYTHONPATH", TESTS)   # the ranks import tests/rank_bodies.py

    def go(what):
        opts = ProfileOptions(target=what, out=str(tmp_path / what), nproc=2, ncu=True,
                              settings=Settings(ranks_timeout=120))
        return ranks.profile_ranks(opts, log=lambda line: None, gpus=lambda: 2, body="rank_bodies:ends",
                                   check=lambda *a: None)
    return go


def test_a_rank_that_raises_ends_the_other_and_the_folder_names_it(launch):
    result = launch("fail")
    top = json.loads((result.run.root / "ranks.json").read_text())
    assert top["status"] == "failed" and top["failed_rank"] == 1 == result.failed_rank
    assert top["why"] == result.why == "rank 1: RuntimeError: rank one broke"
    r0, r1 = top["ranks"]
    assert (r0["status"], r0["exit"]) == ("ended", 143)
    assert (r1["status"], r1["exit"]) == ("failed", 1)
    assert r1["last_lines"].endswith("RuntimeError: rank one broke | rank 1: RuntimeError: rank one broke")
    assert "rank one is about to break" in (result.run.root / r1["log"]).read_text()


def test_a_rank_killed_by_a_signal_is_named_from_torchruns_summary(launch):
    result = launch("segv")
    top = json.loads((result.run.root / "ranks.json").read_text())
    assert top["failed_rank"] == 1
    assert top["ranks"][1]["exit"] == -11
    assert top["why"] == "rank 1: killed by SIGSEGV with no exit record of its own (killed)"


def test_ctrl_c_ends_torchrun_and_every_rank_and_the_folder_says_so(launch, tmp_path, ctrl_c_raises):
    root = tmp_path / "hang"

    def interrupt_when_ready():
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not all((root / f"ready{i}").exists() for i in (0, 1)):
            time.sleep(0.1)
        os.kill(os.getpid(), signal.SIGINT)

    threading.Thread(target=interrupt_when_ready, daemon=True).start()
    with pytest.raises(KeyboardInterrupt):
        launch("hang")
    top = json.loads((root / "ranks.json").read_text())
    assert top["status"] == "interrupted" and top["torchrun_exit"] is None
    assert [(r["status"], r["exit"]) for r in top["ranks"]] == [("ended", 143), ("ended", 143)]
    for i in (0, 1):   # no rank left running
        pid = int((root / f"ready{i}").read_text())
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


@pytest.mark.long
def test_two_ranks_over_gloo_each_write_their_folder_and_the_tp_and_fsdp_examples_match_the_whole_model(
        tmp_path, monkeypatch):
    # one torchrun launch of 2 CPU ranks (rank_bodies.tensor_parallel_fsdp_then_training) ends well and runs both
    # examples and `--train --nproc`'s step in turn: a launch is 6 CPU-seconds of start-up (torchrun and two ranks
    # importing torch)
    # a run that ends well: each rank's folder, its options (ncu on rank 0 only), a real all_reduce (1 + 1 = 2)
    # examples/models/llama_tp.py: each rank holds half the query heads, its output is the whole model's, and a
    # split layer compiles as one graph (the GPU run: examples/runs/llama-tp-h200x2)
    # examples/models/llama_fsdp.py: q_proj's 64 rows stored 32 a rank, each rank its own token ids, its output
    # the unsharded model's on them (the GPU run: examples/runs/llama-fsdp-h200x2)
    from recorded import REPO

    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([TESTS, str(REPO)]))
    out = tmp_path / "ok"
    opts = ProfileOptions(target="ok", out=str(out), nproc=2, ncu=True, settings=Settings(ranks_timeout=300))
    result = ranks.profile_ranks(opts, log=lambda line: None, gpus=lambda: 2,
                                 body="rank_bodies:tensor_parallel_fsdp_then_training", check=lambda *a: None)
    assert result.why == "", (out / "logs" / "rank0.log").read_text()[-3000:]
    top = json.loads((out / "ranks.json").read_text())
    assert top["status"] == "ok" and top["failed_rank"] is None
    assert [(r["rank"], r["status"], r["exit"]) for r in top["ranks"]] == [(0, "ok", 0), (1, "ok", 0)]
    seen = [json.loads((out / f"rank{i}" / "options.json").read_text()) for i in (0, 1)]
    assert [s["out"] for s in seen] == [str(out / "rank0"), str(out / "rank1")]
    assert [s["ncu"] for s in seen] == [True, False]   # ncu on rank 0 only (ncu_all_ranks off)
    assert all(s["sum"] == [2.0] * 4 and s["nvls"] == "0" and s["nproc"] is None for s in seen)
    for i in (0, 1):
        seen = json.loads((out / f"tp{i}.json").read_text())
        assert seen["heads"] == 2 and seen["max_err"] < 1e-4 and seen["compiled_err"] < 1e-5
    for i in (0, 1):
        seen = json.loads((out / f"fsdp{i}.json").read_text())
        assert seen["dtensor"] and (seen["rows"], seen["local_rows"]) == (64, 32)
        assert seen["own_ids"] and seen["max_err"] < 1e-4
    _trained_alike_over_ranks(out)


def _trained_alike_over_ranks(out):
    """`profile --train --nproc N`: the tiny decoder's training step as the profile's build stage leaves it
    (rank_train_bodies.training): DDP wrapped by the tool, gradients all-reduced inside the backward phase, both ranks
    updated alike, and a model the factory already spread (DDP, FSDP2, tensor parallel) left as it is."""
    seen = [json.loads((out / f"train{i}.json").read_text()) for i in (0, 1)]
    for s in seen:
        assert s["record"]["wrapper"] == "DistributedDataParallel" and s["record"]["world_size"] == 2
        assert s["record"]["wrapped_by"] == "inductor-prof" and s["record"]["bucket_bytes"] == 25 * 2**20
        assert s["record"]["optimize_ddp"] == "True"   # torch's default: Dynamo splits graphs at the buckets
        # the gradients' all-reduce runs from autograd's hooks, inside the backward phase's range: the phase the
        # report says NCCL kernels were launched in; the forward broadcasts rank 0's buffers (DDP's default)
        assert s["collectives"] == [["allreduce", "backward"], ["broadcast", "forward"]]
        # each rank its own batch (the losses differ), one update on both: the gradients were averaged
        assert s["losses_differ"] and s["params_equal"] and s["moved"] > 0
        # a model already spread over the ranks is left as it is: the DDP just made, FSDP2's fully_shard
        assert s["again"] == {"world_size": 2, "wrapper": "DistributedDataParallel", "wrapped_by": "factory"}
        assert s["fsdp"] == "fully_shard (FSDP2)"
        assert s["tp"] == "DTensor parameters (tensor parallel or FSDP2)"   # examples/models/llama_tp.py
        # its 2 blocks compiled inside DDP's forward: the step runs, the ranks stay alike
        assert s["blocks"] == 2 and s["compiled_equal"] and s["compiled_moved"]
