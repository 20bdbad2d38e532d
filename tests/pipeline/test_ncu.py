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
import shutil
from inductor_prof.pipeline.ncu import targets
from inductor_prof.rundir import open_run
from recorded import REPO


def _targets(n):
    return [ncu_stage.NcuTarget(f"k{i}", f"k{i}", "inductor", {"type": "inductor", "name": f"k{i}"})
            for i in range(n)]


def test_ctrl_c_in_the_second_batch_keeps_the_first_and_the_interrupt(tmp_path, monkeypatch):
    run = rundir.RunDir(tmp_path)
    monkeypatch.setattr(ncu_stage, "targets", lambda run, *a: _targets(2))
    monkeypatch.setattr(ncu_stage, "find_ncu", lambda explicit: "ncu")
    calls = []

    def fake_run_one(cmd, specs, env, timeout, log_path, per_step=False, clock=None):
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
    command.give_back([tmp_path / "ncu"], Settings(sudo=True, sudo_path=str(sudo)), log=lines.append)
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


def test_replayed_addmm_leaves_the_out_tensor_out():
    spec = {"type": "aten", "op": "aten::addmm", "dims": [[8], [4, 6], [6, 8], [], [], [4, 8]],
            "types": ["float"] * 3 + ["Scalar", "Scalar", "float"]}
    fn, args = replay.recorded_args(spec, device="cpu")
    # self, mat1, mat2; beta, alpha and the out= tensor are kwarg-only: left out (beta and alpha at their defaults)
    assert [tuple(a.shape) for a in args] == [(8,), (4, 6), (6, 8)]
    assert replay.aten_launch(spec, device="cpu")().shape == (4, 8)


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


# The calls ncu replays, on the recorded FLUX run: a library kernel's costliest call, not the first one seen.

def test_flux_replays_the_calls_that_take_the_time(tmp_path):
    run = tmp_path / "run"
    shutil.copytree(REPO / "examples" / "runs" / "flux-h100", run, ignore=shutil.ignore_patterns("ncu"))
    lib = [t for t in targets(open_run(run), 8, 1.0) if t.origin == "library"]
    gemm = [t for t in lib if t.name == "nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_bias_TNT"]
    # library_ops.csv (re-recorded 2026-11-24, 646 launches, 104.63 ms traced): its calls were [4096,64]x[64,3072]
    # once (first in the trace, 10.9 us), and three shapes of 7.1-7.6 ms per step each: [4096,3072]x[3072,3072]
    # 76 calls 7,599,610 ns (7.26%; 7,599,610 / 76 = 99.995 us a call), [4096,3072]x[3072,12288] 19 calls
    # 7,431,287 ns (7.10%), [4096,12288]x[12288,3072] 19 calls 7,091,411 ns (6.78%): all three above 1%,
    # costliest first; the 0.01% K = 64 call is left out
    assert [t.spec["shape"] for t in gemm] == ["[4096,3072]x[3072,3072]", "[4096,3072]x[3072,12288]",
                                               "[4096,12288]x[12288,3072]"]
    assert gemm[0].spec["calls"] == 76 and gemm[0].spec["model_us"] == pytest.approx(7_599_610 / 76 / 1e3)
    assert [t.spec["calls"] for t in gemm] == [76, 19, 19] and [t.spec["rank"] for t in gemm] == [0, 1, 2]
    assert len({t.stem for t in lib}) == len(lib)              # one report file each
    # a share of 50%: each kernel's costliest call alone
    assert len(targets(open_run(run), 8, 50.0)) - len(targets(open_run(run), 0)) == 8


def test_a_library_rows_ncu_is_its_costliest_call_and_its_time_is_checked_against_that_call():
    import pandas as pd

    from inductor_prof.analysis.ncu_compare import merge_ncu

    df = pd.DataFrame([{"name": "nvjet_a", "origin": "library", "category": "GEMM", "calls": 100, "bytes": 100e6,
                        "flops": 1e12}])
    ncu = pd.DataFrame([
        # listed first but rank 1: the kernel's second call (K = 64), 12.4 us in ncu
        {"name": "nvjet_a", "duration_ns": 12.4e3, "dram_bytes": 1e6, "shape": "[4096,64]x[64,3072]",
         "model_us": 11.2, "model_bytes": 2e6, "rank": 1},
        # its costliest call: profiled at 204.7 us a call, replayed in 119.2 us (0.58x: flagged, beyond 25%)
        {"name": "nvjet_a", "duration_ns": 119.2e3, "dram_bytes": 60e6, "shape": "[4096,3072]x[3072,3072]",
         "model_us": 204.7, "model_bytes": 50e6, "rank": 0},
    ])
    row = merge_ncu(df, ncu).iloc[0]
    assert row["ncu_shape"] == "[4096,3072]x[3072,3072]"
    assert row["dram_ratio"] == pytest.approx(60e6 / 50e6)     # the call's own 50 MB, not 100 MB / 100 calls
    assert bool(row["ncu_time_off"])
    ncu.loc[1, "duration_ns"] = 160e3                           # 160 / 204.7 = 0.78: within 25%
    assert not bool(merge_ncu(df, ncu).iloc[0]["ncu_time_off"])


# A training run under --ncu (examples/runs/llama-train-h200, recorded on the H200 without ncu; copied, ncu's
# targets computed from its files): the kernels of every phase, and the attention backward's library call.

TRAIN_RUN = REPO / "examples" / "runs" / "llama-train-h200"
BPROP = "cudnn_generated_fort_native_sdpa_sm90_flash_bprop_wgmma_f16_knob_26_64x64x64_1x4x1_cga1x1x1_kernel0_0"


@pytest.fixture(scope="module")
def train_targets(tmp_path_factory):
    run = tmp_path_factory.mktemp("train") / "run"
    shutil.copytree(TRAIN_RUN, run)
    return targets(open_run(run), 8, 1.0)


def test_training_runs_ncu_targets_cover_every_phase(train_targets):
    from inductor_prof.analysis.load import load_run_tables

    df = load_run_tables(TRAIN_RUN).kernels
    inductor = df[df["origin"] == "inductor"]
    phases = dict(zip(inductor["name"], inductor["phase"]))
    aimed = {t.name for t in train_targets if t.origin == "inductor"}
    # every Inductor kernel the timed steps ran is a target, whatever its phase: the compiled AdamW's foreach
    # kernels (optimizer) and the backward graph's kernels too
    assert set(phases) <= aimed
    assert {phases[n] for n in aimed if n in phases} >= {"forward", "backward", "optimizer"}


def test_training_runs_attention_backward_call_is_replayed_at_its_recorded_shape(train_targets):
    bprop = [t for t in train_targets if t.name == BPROP]
    # the bprop kernel: 1.03 ms a step over 4 calls of _cudnn_attention_backward, among the 8 library kernels with
    # the most time; its call priced by cost._attention_backward as library_ops.csv holds it: 10 * 64 * 32 *
    # 4,196,352 kept pairs = 85,941,288,960 flops, bytes 2 * (4 * 2 * 32 * 2048 * 64 + 4 * 2 * 8 * 2048 * 64) +
    # 4 * 2 * 32 * 2048 = 83,886,080 + 524,288 = 84,410,368
    assert len(bprop) == 1
    spec = bprop[0].spec
    assert spec["op"] == "aten::_cudnn_attention_backward" and spec["calls"] == 4
    assert spec["dims"][:4] == [[2, 32, 2048, 64], [2, 32, 2048, 64], [2, 8, 2048, 64], [2, 8, 2048, 64]]
    assert spec["model_bytes"] == 84_410_368
    from inductor_prof.cost import aten_op

    cost = aten_op(spec["op"], spec["dims"], spec["types"], spec["scalars"])
    assert (cost["flops"], cost["bytes"]) == (85_941_288_960, 84_410_368)


def test_replayed_attention_backward_runs_autograd_of_the_forward_it_belongs_to(monkeypatch, train_targets):
    """The replay runs the forward once (outside ncu's range) on SDPA forced to cuDNN, with the recorded causal
    flag and GQA, and the launch is autograd's backward of it for a grad_out of the recorded shape."""
    seen = {}

    def sdpa(q, k, v, attn_mask=None, is_causal=False, scale=None, enable_gqa=False):
        seen.update(q=tuple(q.shape), k=tuple(k.shape), causal=is_causal, gqa=enable_gqa,
                    backends=torch._C._get_cudnn_sdp_enabled(), flash=torch._C._get_flash_sdp_enabled())
        return q * 2.0 + 0.0 * (k.sum() + v.sum())   # dq = 2 dout: the gradient of this forward
    monkeypatch.setattr(torch.nn.functional, "scaled_dot_product_attention", sdpa)
    spec = next(t for t in train_targets if t.name == BPROP).spec
    small = {**spec, "dims": [[2, 4, 16, 8], [2, 4, 16, 8], [2, 1, 16, 8], [2, 1, 16, 8]] + spec["dims"][4:],
             "strides": []}
    launch = replay.aten_launch(small, device="cpu")
    assert seen == {"q": (2, 4, 16, 8), "k": (2, 1, 16, 8), "causal": True, "gqa": True, "backends": True,
                    "flash": False}
    dq, dk, dv = launch()
    assert dq.shape == (2, 4, 16, 8) and dk.shape == (2, 1, 16, 8) and dv.shape == (2, 1, 16, 8)
    dq_again, _, _ = launch()          # the graph is kept: every launch runs the backward again
    assert torch.equal(dq, dq_again)


def test_replayed_bshd_backward_takes_its_dims_as_bhsd_views(monkeypatch):
    seen = {}

    def sdpa(q, k, v, attn_mask=None, is_causal=False, scale=None, enable_gqa=False):
        seen.update(q=tuple(q.shape), causal=is_causal)
        return q + 0.0 * (k.sum() + v.sum())
    monkeypatch.setattr(torch.nn.functional, "scaled_dot_product_attention", sdpa)
    # _flash_attention_backward(grad_out, query, key, value, ...): (B, S, H, D); is_causal at 11
    scalars = [""] * 14
    scalars[11] = "False"
    spec = {"type": "aten", "op": "aten::_flash_attention_backward",
            "dims": [[1, 16, 4, 8]] * 4 + [[]] * 10, "types": ["float"] * 4, "scalars": scalars}
    dq, _, _ = replay.aten_launch(spec, device="cpu")()
    assert seen == {"q": (1, 4, 16, 8), "causal": False}
    assert dq.shape == (1, 4, 16, 8)


def test_a_foreach_kernel_says_why_it_cannot_be_replayed(train_targets):
    """The compiled AdamW's foreach kernels are targets (a status row each) but their files have no get_args():
    the replay's load fails with that reason, for this kernel only (the batch's others are profiled)."""
    foreach = next(t for t in train_targets if t.name.startswith("triton_for_fused_"))
    with pytest.raises(RuntimeError, match=r"no get_args\(\) \(Inductor writes none for a foreach kernel"):
        replay.inductor_launch(replay.replay_call(foreach.spec))


def test_replayed_training_forward_computes_its_logsumexp_as_recorded(monkeypatch):
    """A training step's attention forward ran with compute_log_sumexp True (llama-train-h200's
    _cudnn_attention_forward, scalar 8), an inference one False (llama-h200's): the replay's q, k, v require grad
    exactly when the recorded call kept its lse, so SDPA asks the same kernel for the same outputs."""
    import csv

    seen = []

    def sdpa(q, k, v, attn_mask=None, is_causal=False, scale=None, enable_gqa=False):
        seen.append(q.requires_grad)
    monkeypatch.setattr(torch.nn.functional, "scaled_dot_product_attention", sdpa)
    for run in ("llama-train-h200", "llama-h200"):
        with open(REPO / "examples" / "runs" / run / "library_ops.csv", newline="") as f:
            row = next(r for r in csv.DictReader(f) if r["op"] == "aten::_cudnn_attention_forward")
        spec = {"type": "aten", "op": row["op"], "dims": [[1, 2, 8, 16], [1, 2, 8, 16], [1, 2, 8, 16]] + [[]] * 10,
                "types": ["float"] * 3, "scalars": json.loads(row["scalars"])}
        replay.aten_launch(spec, device="cpu")()
    assert seen == [True, False]
