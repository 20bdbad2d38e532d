"""The library ops of other model families, run on the GPU under torch.profiler and parsed as the library_ops
stage parses them: each kernel's op priced by the cost model at the flops counted by hand (fp8 and int8 GEMMs,
a grouped GEMM, convolutions forward and transposed), and the ceilings stage's 8-bit rates."""
import pytest
import torch

from inductor_prof.drivers import torch_profiler
from inductor_prof.pipeline import ceilings


def _traced(fn, tmp_path):
    """parse_trace's rows of one call of fn, the op's main kernel (the one that carries its cost) per op."""
    fn()
    torch.cuda.synchronize()
    trace = tmp_path / "trace.json"
    torch_profiler.record(fn, trace)
    rows, _ = torch_profiler.parse_trace(trace)
    priced = rows[rows["flops"] > 0]
    return {op: r for op, r in zip(priced["op"], priced.to_dict("records"))}, rows


def test_fp8_int8_grouped_and_conv_kernels_are_priced(tmp_path):
    m, k, n = 256, 512, 384
    x8 = torch.randn(m, k, device="cuda").to(torch.float8_e4m3fn)
    w8 = torch.randn(n, k, device="cuda").to(torch.float8_e4m3fn).t()
    one = torch.ones((), device="cuda")
    xi = torch.randint(-8, 8, (m, k), device="cuda", dtype=torch.int8)
    wi = torch.randint(-8, 8, (k, n), device="cuda", dtype=torch.int8)
    tokens = torch.randn(512, 256, device="cuda", dtype=torch.bfloat16)
    experts = torch.randn(4, 128, 256, device="cuda", dtype=torch.bfloat16)
    offs = torch.tensor([64, 192, 320, 512], device="cuda", dtype=torch.int32)
    img = torch.randn(2, 32, 20, 20, device="cuda", dtype=torch.bfloat16)
    conv_w = torch.randn(64, 8, 3, 3, device="cuda", dtype=torch.bfloat16)
    up_w = torch.randn(32, 16, 4, 4, device="cuda", dtype=torch.bfloat16)

    def step():
        torch._scaled_mm(x8, w8, scale_a=one, scale_b=one, out_dtype=torch.bfloat16)
        torch._int_mm(xi, wi)
        torch._grouped_mm(tokens, experts.transpose(-2, -1), offs=offs)
        torch.nn.functional.conv2d(img, conv_w, stride=2, padding=1, groups=4)
        torch.nn.functional.conv_transpose2d(img, up_w, stride=2, padding=1)

    by_op, rows = _traced(step, tmp_path)
    assert by_op["aten::_scaled_mm"]["flops"] == 2 * m * k * n
    assert by_op["aten::_scaled_mm"]["flops_key"] == "flops8"
    assert by_op["aten::_int_mm"]["flops"] == 2 * m * k * n and by_op["aten::_int_mm"]["flops_key"] == "flops8"
    # every token through one expert: 2 * 512 * 256 * 128
    assert by_op["aten::_grouped_mm"]["flops"] == 2 * 512 * 256 * 128
    convs = {r["flops"] for op, r in by_op.items() if "conv" in op}
    # stride 2, padding 1: 20 -> 10 a side; 4 groups: 8 input channels an output: 2 * (2*64*10*10) * 8 * 9
    # transposed, stride 2: each of the 2*32*20*20 inputs to 16 channels x 16 taps: 2 * 2*32*400 * 16 * 16
    assert convs == {2 * (2 * 64 * 10 * 10) * 8 * 9, 2 * (2 * 32 * 400) * 16 * 16}
    assert not rows["unpriced"].astype(bool).any(), rows[rows["unpriced"] != ""][["kernel", "unpriced"]]


def test_the_8_bit_ceilings_run():
    rates = ceilings.eight_bit_rates(2048)
    assert [r["shape"] for r in rates] == ["2048x2048x2048 fp8", "2048x2048x2048 int8"]
    for r in rates:
        assert "error" in r or (r["flops_key"] == "flops8" and r["tflops"] > 10), r
    assert "tflops" in rates[0], rates[0]      # Hopper has fp8
