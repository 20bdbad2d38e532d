"""Why FLUX's eager training step fails under cuDNN's SDPA while each of its attention calls runs alone (issue 50).

    python3 scripts/probe_cudnn_train.py record CALLS.json        # cuDNN off: each SDPA call's layout, in order
    python3 scripts/probe_cudnn_train.py replay CALLS.json [--contiguous | --qkv-contiguous | --dout-contiguous]
        [--only=I ...]
    python3 scripts/probe_cudnn_train.py step [--contiguous]       # the whole step, cuDNN on

`replay` runs the recorded calls in their order in one process under cuDNN (forward, then each backward with an
upstream gradient of the recorded strides, in the backward's order); `--only=I` keeps those recorded calls alone
(the caller loops for one process each); `--contiguous` makes q, k, v and the gradient contiguous first. Each call
prints one line before and after, so the last line before a crash names the call. Run with
CUDA_LAUNCH_BLOCKING=1.
"""
from __future__ import annotations

import json
import sys

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel
from torch.overrides import TorchFunctionMode


def layout(t: torch.Tensor | None) -> dict | None:
    if t is None:
        return None
    return {"shape": list(t.shape), "stride": list(t.stride()), "dtype": str(t.dtype).replace("torch.", ""),
            "offset": t.storage_offset(), "grad": t.requires_grad}


class Recorder(TorchFunctionMode):
    def __init__(self, contiguous: bool = False, say: bool = False):
        super().__init__()
        self.calls: list[dict] = []
        self.backward_order: list[int] = []
        self.contiguous, self.say = contiguous, say

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        if func is not F.scaled_dot_product_attention:
            return func(*args, **kwargs)
        kwargs = dict(kwargs)
        names = ("query", "key", "value")
        q, k, v = (args[n] if n < len(args) else kwargs.pop(names[n]) for n in range(3))
        if self.contiguous:
            q, k, v = (x.contiguous() for x in (q, k, v))
        i = len(self.calls)
        call = {"i": i, "q": layout(q), "k": layout(k), "v": layout(v), "mask": layout(kwargs.get("attn_mask")),
                "is_causal": bool(kwargs.get("is_causal", False)), "scale": kwargs.get("scale"),
                "gqa": bool(kwargs.get("enable_gqa", False))}
        if self.say:
            print(f"fwd {i} q{call['q']['stride']} k{call['k']['stride']} v{call['v']['stride']}", flush=True)
        out = func(q, k, v, *args[3:], **kwargs)   # diffusers passes them by name
        call["out"] = layout(out)
        self.calls.append(call)
        if out.requires_grad:
            def hook(grad, i=i):
                self.calls[i]["dout"] = layout(grad)
                self.backward_order.append(i)
                if self.say:
                    print(f"bwd {i} dout{list(grad.stride())} out{self.calls[i]['out']['stride']}", flush=True)
                return grad.contiguous() if self.contiguous else grad
            out.register_hook(hook)
        return out


def flux_step(recorder: Recorder) -> None:
    from inductor_prof.targets import FluxOptions, build_flux
    from inductor_prof.targets.flux_train import trained_blocks

    target = build_flux("flux", FluxOptions(double_blocks=2, single_blocks=4))
    for b in trained_blocks(target.model):
        b.requires_grad_(True)
    with recorder:
        out = target()[0]
    loss = out.float().square().mean()
    loss.backward()
    torch.cuda.synchronize()
    print(f"step ok: {len(recorder.calls)} forwards, {len(recorder.backward_order)} backwards, loss {float(loss):.4g}")


def tensor(spec: dict, contiguous: bool) -> torch.Tensor:
    dtype = getattr(torch, spec["dtype"])
    if contiguous:
        return torch.randn(spec["shape"], device="cuda", dtype=dtype) * 0.5
    need = spec["offset"] + 1 + sum((n - 1) * s for n, s in zip(spec["shape"], spec["stride"]))
    base = torch.randn(need, device="cuda", dtype=dtype) * 0.5
    return base.as_strided(spec["shape"], spec["stride"], spec["offset"])


def replay(calls: list[dict], order: list[int], contiguous: bool, qkv_only: bool = False,
           dout_only: bool = False) -> None:
    outs = {}
    with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
        for c in calls:
            q, k, v = (tensor(c[n], contiguous or qkv_only).requires_grad_(c[n]["grad"]) for n in ("q", "k", "v"))
            print(f"fwd {c['i']} q{c['q']['stride']} grad={c['q']['grad']}", flush=True)
            out = F.scaled_dot_product_attention(q, k, v, is_causal=c["is_causal"], scale=c["scale"])
            torch.cuda.synchronize()
            outs[c["i"]] = out
        for i in order:
            c = calls[i]
            print(f"bwd {i} dout{c['dout']['stride']} out{list(outs[i].stride())}", flush=True)
            outs[i].backward(tensor(c["dout"], contiguous or dout_only))
            torch.cuda.synchronize()
    print(f"replay ok: {len(calls)} forwards, {len(order)} backwards")


def main() -> int:
    cmd, rest = sys.argv[1], sys.argv[2:]
    contiguous = "--contiguous" in rest
    if cmd == "record":
        torch.backends.cuda.enable_cudnn_sdp(False)
        rec = Recorder()
        flux_step(rec)
        json.dump({"calls": rec.calls, "backward_order": rec.backward_order}, open(rest[0], "w"))
        kinds = {}
        for c in rec.calls:
            key = (tuple(c["q"]["stride"]), tuple(c["k"]["stride"]), tuple(c["v"]["stride"]), c["q"]["grad"],
                   tuple((c.get("dout") or {}).get("stride", ())))
            kinds[key] = kinds.get(key, 0) + 1
        for key, n in kinds.items():
            print(f"layout x{n}: q{key[0]} k{key[1]} v{key[2]} grad={key[3]} dout{key[4]}")
    elif cmd == "replay":
        rec = json.load(open(rest[0]))
        only = [int(x.split("=")[1]) for x in rest if x.startswith("--only=")]
        calls = [c for c in rec["calls"] if not only or c["i"] in only]
        keep = {c["i"] for c in calls}
        index = {c["i"]: n for n, c in enumerate(calls)}
        order = [index[i] for i in rec["backward_order"] if i in keep]
        for n, c in enumerate(calls):
            c["i"] = n
        replay(calls, order, contiguous, "--qkv-contiguous" in rest, "--dout-contiguous" in rest)
    elif cmd == "step":
        flux_step(Recorder(contiguous=contiguous, say=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
