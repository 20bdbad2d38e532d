"""The telemetry rounds of the plain stage agreed over ranks (pipeline/steps.any_rank): a rank that went on alone
would issue a step's collectives no other rank meets."""
import torch
import torch.distributed as dist

from inductor_prof.pipeline import link, steps


def test_one_process_decides_alone():
    assert steps.any_rank(True) is True and steps.any_rank(False) is False


def test_a_rank_goes_on_while_any_other_wants_another_round(monkeypatch):
    # two ranks: this one's window is full (False), the other's is not (1): MAX over the ranks is 1, both go on;
    # when neither wants more, both stop
    others = {"flag": 1}
    calls = []

    def all_reduce(t, op):
        calls.append(op)
        t.copy_(torch.maximum(t, torch.tensor([others["flag"]])))
    monkeypatch.setattr(link, "world_size", lambda: 2)
    monkeypatch.setattr(dist, "all_reduce", all_reduce)
    assert steps.any_rank(False) is True
    others["flag"] = 0
    assert steps.any_rank(False) is False and steps.any_rank(True) is True
    assert calls == [dist.ReduceOp.MAX] * 3   # one collective a call, on every rank alike
