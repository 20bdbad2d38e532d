"""The qkvlayout branch's GPU check, its Python parts (scripts/gpu_check_qkvlayout.sh runs each in a process of its
own).

    python3 scripts/gpu_check_qkvlayout.py rows RUN     # attention.csv's rows (both passes) and the verdict
    python3 scripts/gpu_check_qkvlayout.py advice RUN   # the report's top 5 items ("where to look next")
"""
from __future__ import annotations

import json
import math
import os
import subprocess
import sys

FLUX_LABEL = "(1,24,4608,128)"
VARIANT = "sdpa_cudnn ("   # the start of cuDNN's contiguous variant's name: "sdpa_cudnn (q,k,v contiguous)"


def _ms(value) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):
        return math.nan


def rows(run: str) -> None:
    import pandas as pd

    if not os.path.exists(f"{run}/attention.csv"):
        print(f"VERDICT: none: {run}/attention.csv was not written (the attention step failed, above)")
        return
    att = pd.read_csv(f"{run}/attention.csv", keep_default_na=False)
    for r in att.to_dict("records"):
        print(f"row {r.get('pass', 'forward')} {r['shape']} {r['backend']}: ms {_ms(r['ms']):.3f} ok {r['ok']} "
              f"qkv_layout {r.get('qkv_layout', '(no column)')!s} qkv_strides {r.get('qkv_strides', '')!s} "
              f"dout_layout {r.get('dout_layout', '')!s} reason {' '.join(str(r['reason']).split())[:220]}")
    train = att[att["pass"] == "forward+backward"] if "pass" in att.columns else att.iloc[0:0]
    base = train[train["backend"] == "sdpa_cudnn"]
    variant = train[train["backend"].astype(str).str.startswith(VARIANT)]
    if base.empty:
        print("VERDICT: no sdpa_cudnn forward+backward row (the stage did not run it)")
        return
    b = base.iloc[0]
    if not str(b.get("qkv_layout", "")).startswith("(B,S,H,D)"):
        print(f"VERDICT: the rows did not run q, k, v in the model's layout (qkv_layout {b.get('qkv_layout')!r})")
    elif str(b["ok"]) == "True":
        print("VERDICT: cuDNN's forward+backward RAN on the model's (B,S,H,D) q, k, v here (no variant row): the "
              "lead's failure did not reproduce in the benchmark")
    elif variant.empty:
        print(f"VERDICT: cuDNN failed on the model's layout ({str(b['reason'])[:200]}) but NO contiguous variant row")
    else:
        v = variant.iloc[0]
        print(f"VERDICT: cuDNN failed on the model's layout ({str(b['reason'])[:200]}); its variant {v['backend']!r}: "
              f"ok {v['ok']} ms {_ms(v['ms']):.3f} speed-up vs model {_ms(v['speedup_vs_model']):.2f}x "
              f"reason {str(v['reason'])[:200]}")


def advice(run: str) -> None:
    proc = subprocess.run([sys.executable, "-m", "inductor_prof", "report", run, "--json"], capture_output=True,
                          text=True, timeout=90)
    if proc.returncode:
        print(f"report --json failed: rc={proc.returncode} {proc.stderr.strip()[-500:]}")
        return
    doc = json.loads(proc.stdout)
    items = ((doc.get("summary") or {}).get("headroom") or {}).get("next") or []
    for n, i in enumerate(items[:5], 1):
        print(f"advice {n}: {i.get('what')} | {_ms(i.get('headroom_ms_per_step')):.3f} ms/step | do: {i.get('do')} | "
              f"measured against: {i.get('why')}")
    bad = [i for i in items if "use sdpa_cudnn" in str(i.get("do")) and "contiguous" not in str(i.get("do"))]
    print("VERDICT advice: " + ("it still says 'use sdpa_cudnn' without the copies: WRONG" if bad else
                                "no item recommends a row that failed"))


if __name__ == "__main__":
    {"rows": rows, "advice": advice}[sys.argv[1]](sys.argv[2])
