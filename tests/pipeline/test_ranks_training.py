"""`profile --train --nproc N` on a CPU: two real ranks under torchrun and gloo run the tiny decoder's training step as
the profile's build stage leaves it (tests/rank_train_bodies.py): DDP wrapped by the tool, gradients all-reduced
inside the backward phase, both ranks updated alike, and a model the factory already spread (DDP, FSDP2, tensor parallel) left as it is."""
import json
import os
from pathlib import Path

import pytest

from inductor_prof.pipeline import ProfileOptions
from inductor_prof.pipeline import ranks
from inductor_prof.settings import Settings

TESTS = str(Path(__file__).resolve().parent.parent)


@pytest.mark.long
def test_two_ranks_train_data_parallel_with_the_gradient_all_reduce_in_backward(tmp_path, monkeypatch):
    pytest.importorskip("transformers")
    from recorded import REPO

    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([TESTS, str(REPO)]))
    out = tmp_path / "train"
    opts = ProfileOptions(target="ok", out=str(out), nproc=2, train=True, settings=Settings(ranks_timeout=300))
    result = ranks.profile_ranks(opts, log=lambda line: None, gpus=lambda: 2,
                                 body="rank_train_bodies:ddp_training", check=lambda *a: None)
    assert result.why == "", (out / "logs" / "rank0.log").read_text()[-3000:]
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
