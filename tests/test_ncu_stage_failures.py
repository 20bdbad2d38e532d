"""The ncu stage when things go wrong: an interrupted batch keeps the original error and what was done; the
replayed attention op keeps the model's causal flag, mask and scale."""
import json

import pytest
import torch

from inductor_prof import rundir
from inductor_prof.drivers.ncu import command, replay
from inductor_prof.drivers.ncu import batch as ncu_batch
from inductor_prof.pipeline import ncu as ncu_stage
from inductor_prof.drivers.ncu.command import NcuResult
from inductor_prof.settings import Settings


def _targets(n):
    return [ncu_stage.NcuTarget(f"k{i}", f"k{i}", "inductor", {"type": "inductor", "name": f"k{i}"})
            for i in range(n)]


def test_ctrl_c_in_the_second_batch_keeps_the_first_and_the_interrupt(tmp_path, monkeypatch):
    run = rundir.RunDir(tmp_path)
    monkeypatch.setattr(ncu_stage, "targets", lambda run, *a: _targets(2))
    monkeypatch.setattr(ncu_stage, "find_ncu", lambda explicit: "ncu")
    calls = []

    def fake_run_one(cmd, env, timeout, log_path, progress_mark=None):
        calls.append(cmd)
        if len(calls) == 2:
            raise KeyboardInterrupt
        out = cmd[cmd.index("-o") + 1]
        open(out + ".ncu-rep", "wb").write(b"rep")
        return NcuResult("ok", "", 1.0)
    monkeypatch.setattr(command, "run_one", fake_run_one)
    parsed = []
    monkeypatch.setattr(ncu_batch, "parse_reports",
                        lambda paths: parsed.extend(paths) or {str(p): {"results": [{"kernel": "k0"}]} for p in paths})
    with pytest.raises(KeyboardInterrupt):
        ncu_stage.run_ncu(run, Settings(ncu_batch=1), log=lambda m: None)
    status = json.loads(run.ncu_status_json.read_text())
    assert status["k0"]["status"] == "ok" and "k1" not in status      # the finished batch is kept
    assert parsed == [run.ncu_report("k0")]                          # no report parsing after the interrupt
    assert not run.ncu_csv.exists()                                  # no half-made table


def test_failed_chown_is_said(tmp_path):
    sudo = tmp_path / "sudo"
    sudo.write_text("#!/bin/sh\necho 'chown: changing ownership: Operation not permitted' >&2\nexit 1\n")
    sudo.chmod(0o755)
    lines = []
    ncu_stage.give_back([tmp_path / "ncu"], Settings(sudo=True, sudo_path=str(sudo)), log=lines.append)
    assert len(lines) == 1 and "could not give files" in lines[0] and "exit 1" in lines[0]
    assert "Operation not permitted" in lines[0] and str(tmp_path / "ncu") in lines[0]


def _attention_spec(op, causal_at, causal, scale_at, scale, mask_at=None):
    dims = [[1, 2, 8, 16], [1, 2, 8, 16], [1, 2, 8, 16]] + [[]] * 10
    scalars = [""] * 13
    scalars[causal_at], scalars[scale_at] = causal, scale
    if mask_at is not None:
        dims[mask_at] = [1, 1, 8, 8]
    return {"type": "aten", "op": op, "dims": dims, "types": ["float"] * 4, "scalars": scalars}


def test_replayed_attention_keeps_causal_scale_and_mask(monkeypatch):
    seen = {}

    def sdpa(q, k, v, attn_mask=None, is_causal=False, scale=None):
        seen.update(q=tuple(q.shape), mask=None if attn_mask is None else tuple(attn_mask.shape),
                    is_causal=is_causal, scale=scale)
    monkeypatch.setattr(torch.nn.functional, "scaled_dot_product_attention", sdpa)
    # _scaled_dot_product_efficient_attention: attn_bias at 3, is_causal at 6, scale at 7
    spec = _attention_spec("aten::_scaled_dot_product_efficient_attention", 6, "True", 7, "0.25", mask_at=3)
    replay.aten_launch(spec, device="cpu")()
    assert seen == {"q": (1, 2, 8, 16), "mask": (1, 1, 8, 8), "is_causal": True, "scale": 0.25}
    # cuDNN's forward op: is_causal at 10, scale at 12 (absent: the default)
    spec = _attention_spec("aten::_cudnn_attention_forward", 10, "False", 12, "")
    replay.aten_launch(spec, device="cpu")()
    assert seen == {"q": (1, 2, 8, 16), "mask": None, "is_causal": False, "scale": None}


def test_replayed_addmm_leaves_the_out_tensor_out(monkeypatch):
    got = {}
    monkeypatch.setattr(torch.ops.aten, "addmm", lambda *a: got.setdefault("shapes", [tuple(t.shape) for t in a]))
    spec = {"type": "aten", "op": "aten::addmm", "dims": [[8], [4, 6], [6, 8], [], [], [4, 8]],
            "types": ["float"] * 3 + ["Scalar", "Scalar", "float"]}
    replay.aten_launch(spec, device="cpu")()
    assert got["shapes"] == [(8,), (4, 6), (6, 8)]


def test_replayed_attention_keeps_gqa_and_a_mask_that_keeps_every_pair(monkeypatch):
    seen = {}

    def sdpa(q, k, v, attn_mask=None, is_causal=False, scale=None, enable_gqa=False):
        seen.update(k=tuple(k.shape), gqa=enable_gqa, mask_all_kept=bool(attn_mask.all()))
    monkeypatch.setattr(torch.nn.functional, "scaled_dot_product_attention", sdpa)
    # Llama's call: q 32 heads, k/v 8 heads (GQA), a bool mask; a zero-filled mask would mask every key (NaN rows)
    spec = {"type": "aten", "op": "aten::_scaled_dot_product_efficient_attention",
            "dims": [[1, 32, 8, 16], [1, 8, 8, 16], [1, 8, 8, 16], [1, 1, 8, 8]] + [[]] * 4,
            "types": ["float"] * 3 + ["bool"], "scalars": [""] * 8}
    replay.aten_launch(spec, device="cpu")()
    assert seen == {"k": (1, 8, 8, 16), "gqa": True, "mask_all_kept": True}
