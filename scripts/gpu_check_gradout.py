"""The gradout branch's GPU check, its Python parts (scripts/gpu_check_gradout.sh runs each in a process of its own).

    python3 scripts/gpu_check_gradout.py rows RUN     # attention.csv's forward+backward rows, and the verdict
    python3 scripts/gpu_check_gradout.py advice RUN   # the report's attention items ("where to look next")
    python3 scripts/gpu_check_gradout.py ab LAYOUT    # one cuDNN forward+backward at FLUX's shape, dout LAYOUT:
                                                      # contiguous, or model (the single blocks' concat slice)

`ab` runs alone in its process: an illegal memory access leaves the process's CUDA context unusable, so the two
layouts are tried in two processes (the caller's), each saying ok with its time or its error.
"""
from __future__ import annotations

import json
import math
import sys
import time

FLUX_LABEL = "(1,24,4608,128)"
# FLUX's single blocks' grad_out as recorded (library_ops.csv of the training run, op layout (B, S, H, D)
# [70778880, 15360, 128, 1]) as the (B, H, S, D) view: tests/attention/semantics/test_grad_layout.py
MODEL_STRIDES = (70778880, 128, 15360, 1)


def rows(run: str) -> None:
    import os

    import pandas as pd

    if not os.path.exists(f"{run}/attention.csv"):
        print(f"VERDICT: none: {run}/attention.csv was not written (the attention step failed, above)")
        return
    att = pd.read_csv(f"{run}/attention.csv", keep_default_na=False)
    train = att[att["pass"] == "forward+backward"] if "pass" in att.columns else att.iloc[0:0]
    for r in train.to_dict("records"):
        ms = float(r["ms"]) if str(r["ms"]) not in ("", "nan") else math.nan
        print(f"fwd+bwd {r['shape']} {r['backend']}: ms {ms:.3f} ok {r['ok']} "
              f"dout {r.get('dout_layout', '(no column)')!s} strides {r.get('dout_strides', '')!s} "
              f"reason {str(r['reason'])[:200]}")
    cudnn = train[train["backend"] == "sdpa_cudnn"]
    if cudnn.empty:
        print("VERDICT: no sdpa_cudnn forward+backward row (the stage did not run it)")
        return
    r = cudnn.iloc[0]
    layout = str(r.get("dout_layout", ""))
    on_model = layout.startswith("(B,S,H,D), row pitch 15360")
    if not on_model:
        print(f"VERDICT: the rows did not run on the model's dout (dout_layout {layout!r}): the check says nothing")
    elif str(r["ok"]) == "True":
        print("VERDICT: cuDNN's forward+backward ran fine on the model's dout layout (row pitch 15360): the layout "
              "was NOT the cause of the model's crash")
    else:
        print(f"VERDICT: cuDNN's forward+backward failed on the model's dout layout: {str(r['reason'])[:300]} -- the "
              "layout IS the cause if `ab contiguous` ran and `ab model` failed below")


def advice(run: str) -> None:
    import subprocess

    proc = subprocess.run([sys.executable, "-m", "inductor_prof", "report", run, "--json"], capture_output=True,
                          text=True, timeout=60)
    if proc.returncode:
        print(f"report --json failed: rc={proc.returncode} {proc.stderr.strip()[-500:]}")
        return
    doc = json.loads(proc.stdout)
    items = ((doc.get("summary") or {}).get("headroom") or {}).get("next") or []
    said = [i for i in items if any(w in json.dumps(i) for w in ("sdpa", "flash", "attention", "cudnn"))]
    for i in said:
        print(f"advice: {i.get('what')} | {i.get('headroom_ms_per_step')} ms/step | do: {i.get('do')} | "
              f"measured against: {i.get('why')}")
    if not said:
        print(f"advice: no attention item among {len(items)}")


def ab(layout: str) -> None:
    import torch
    import torch.nn.functional as F
    from torch.nn.attention import SDPBackend, sdpa_kernel

    from inductor_prof.attention.benchmark.backward import laid_out

    said = f"ab cudnn fwd+bwd dout {layout} strides {MODEL_STRIDES if layout == 'model' else 'contiguous'}"
    try:
        g = torch.Generator(device="cuda").manual_seed(0)
        # q, k, v as the model hands them: (B, S, H, D) tensors seen as (B, H, S, D)
        q, k, v = (torch.randn(1, 4608, 24, 128, generator=g, device="cuda", dtype=torch.bfloat16).transpose(1, 2)
                   .requires_grad_(True) for _ in range(3))
        dout = laid_out(torch.randn(1, 24, 4608, 128, generator=g, device="cuda", dtype=torch.bfloat16),
                        MODEL_STRIDES if layout == "model" else None)
        times = []
        for _ in range(6):   # the first call picks cuDNN's plan: not timed
            t0 = time.perf_counter()
            with sdpa_kernel([SDPBackend.CUDNN_ATTENTION]):
                out = F.scaled_dot_product_attention(q, k, v)
            torch.autograd.grad(out, (q, k, v), dout)
            torch.cuda.synchronize()
            times.append(time.perf_counter() - t0)
        print(f"{said}: ok, {sorted(times[1:])[2] * 1e3:.3f} ms a call (median wall of 5, synchronised)")
    except Exception as e:  # noqa: BLE001  the error is the answer
        first = str(e).strip().splitlines()[0][:300] if str(e).strip() else ""
        print(f"{said}: FAILED {type(e).__name__}: {first}")


if __name__ == "__main__":
    {"rows": rows, "advice": advice, "ab": ab}[sys.argv[1]](sys.argv[2])
