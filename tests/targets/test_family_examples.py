"""The shipped models of other families (examples/models: convnet, fp8_mlp, moe), built tiny on the CPU: each
runs, computes what it claims (the fp8 and int8 stacks near their bf16 reference, the MoE layer as the dense
sum of its top-k experts), calls the library ops the report prices, and declares the blocks regional compile
needs."""
import sys

import pytest
import torch

from recorded import REPO

sys.path.insert(0, str(REPO))
from examples.models import convnet, fp8_mlp, moe  # noqa: E402


def _ops_called(model, args) -> set[str]:
    """The ATen ops a forward dispatches (torch's dispatch mode: what torch.profiler records as cpu_op)."""
    from torch.utils._python_dispatch import TorchDispatchMode

    class Ops(TorchDispatchMode):
        seen: set = set()

        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            Ops.seen.add(func.overloadpacket.__name__)
            return func(*args, **(kwargs or {}))

    with torch.no_grad(), Ops():
        model(*args)
    return Ops.seen


def test_convnet_runs_every_convolution_form():
    model, (x,) = convnet.build(batch=2, size=16, channels=(32, 64, 128), device="cpu", dtype=torch.float32)
    assert model(x).shape == x.shape                     # latents in, latents out
    convs = [m for m in model.modules() if isinstance(m, (torch.nn.Conv2d, torch.nn.ConvTranspose2d))]
    assert {m.stride for m in convs} >= {(1, 1), (2, 2)} and any(m.dilation == (2, 2) for m in convs)
    assert any(m.groups == 32 for m in convs) and any(isinstance(m, torch.nn.ConvTranspose2d) for m in convs)


@pytest.mark.parametrize("int8", [False, True])
def test_quantised_mlp_is_near_its_bf16_reference(int8):
    model, (x,) = fp8_mlp.build(int8=int8, tokens=32, hidden=64, inter=128, blocks=2, device="cpu")
    assert model._repeated_blocks == ["Block"]
    ops = _ops_called(model, (x,))
    assert ("_int_mm" if int8 else "_scaled_mm") in ops
    # the same stack with its weights dequantised, in float32: quantisation error only (e4m3 keeps 3 mantissa
    # bits: a few % of the output's scale; int8 7 bits)
    with torch.no_grad():
        ref = x.float()
        for b in model.blocks:
            w = {n: (getattr(b, n).w_q.float() * getattr(b, n).w_scale).t() for n in ("gate", "up", "down")}
            h = b.norm(ref.to(torch.bfloat16)).float()
            ref = ref + (torch.nn.functional.silu(h @ w["gate"].t()) * (h @ w["up"].t())) @ w["down"].t()
        err = (model(x).float() - ref).abs().max() / ref.abs().max()
    assert err < (0.05 if int8 else 0.15), float(err)


def test_moe_layer_is_the_weighted_sum_of_its_top_experts():
    model, (x,) = moe.build(batch=2, seq=8, hidden=32, inter=64, experts=4, top_k=2, layers=1, device="cpu")
    assert model._repeated_blocks == ["MoELayer"] and "_grouped_mm" in _ops_called(model, (x,))
    layer = model.layers[0]
    with torch.no_grad():
        got = model(x).float()
        h = layer.norm(x).reshape(-1, 32)
        probs = torch.softmax(layer.router(h).float(), -1)
        w, e = probs.topk(2, -1)
        w = (w / w.sum(-1, keepdim=True)).to(x.dtype)
        want = x.reshape(-1, 32).float().clone()
        for t in range(h.shape[0]):            # token by token, expert by expert: no grouping, no sorting
            for j in range(2):
                gate, up = (h[t] @ layer.w13[e[t, j]].t()).chunk(2)
                y = (torch.nn.functional.silu(gate) * up) @ layer.w2[e[t, j]].t()
                want[t] += (w[t, j] * y).float()
    assert torch.allclose(got.reshape(-1, 32), want, atol=0.05, rtol=0.05)
