"""One dynamic kernel at two input sizes: its launch_metadata follows each launch's real arguments.

The kernel (tests/data/flux_dyn/, recorded on the H100: small FLUX compiled regionally with dynamic=True)
takes its sequence length as symbolic ints: ks0 = text tokens (512), ks1 = image tokens, xnumel =
(ks0 + ks1) * 3072. Its body, read by hand: out = cat(text, image)[x] + in_ptr2[6144 + x % 3072] * out[x]
(in place, in_out_ptr0 is loaded and stored), so per element one fp32 mul and one fp32 add (2 flops, the
comparisons and the index arithmetic on ks0/ks1 are not flops).

Expected by hand at 1024x1024 (4096 image tokens, 4608 in all) and 512x512 (1024 image tokens, 1536 in all):
  flops32 = 2 * tokens * 3072
  bytes   = 2 * tokens * 3072 * 2 (in_out_ptr0 read and written, bf16) + 512 * 3072 * 2 (text, in_ptr0)
          + image * 3072 * 2 (in_ptr1) + 9216 * 2 (in_ptr2: the whole (1, 9216) modulation vector; fewer
          elements than xnumel, so not clamped)
At 1024x1024 that is 84,953,088 bytes: Inductor's own estimate in the file (kernel_num_gb 0.084953088) agrees.
"""
import importlib.util
from pathlib import Path
from types import SimpleNamespace

import pytest
import torch

from recorded import data_path
from inductor_prof.inductor.metrics import KernelMetrics

FILE = data_path("flux_dyn", "c4dseuqlzehs7ydfojgqhnv6gn4dksgjr3rg5jquw2qqtegtx5ey.py")
NAME = "triton_poi_fused_add_cat_mul_split_unsqueeze_view_4"
TEXT, HIDDEN, MOD = 512, 3072, 9216


@pytest.fixture(scope="module")
def kernel(tmp_path_factory):
    """The recorded kernel as a real JITFunction with its KernelMetrics, as instrument.py attaches it."""
    text = FILE.read_text()
    body = text[text.index("@triton.jit\n"):text.index("\ndef get_args():")]
    path = Path(tmp_path_factory.mktemp("jit")) / "dyn_kernel.py"
    path.write_text("import triton\nimport triton.language as tl\n\n" + body)
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    fn = getattr(module, NAME)
    fn.launch_metadata = KernelMetrics.for_source(NAME, fn.src, "POINTWISE")
    return fn


def _args(fn, image_tokens: int) -> dict:
    """The launch arguments Inductor passes at one size (separate CPU buffers: distinct data_ptr each)."""
    tokens = TEXT + image_tokens
    values = [torch.empty(1, tokens, HIDDEN, dtype=torch.bfloat16), torch.empty(1, TEXT, HIDDEN, dtype=torch.bfloat16),
              torch.empty(1, image_tokens, HIDDEN, dtype=torch.bfloat16), torch.empty(1, MOD, dtype=torch.bfloat16),
              TEXT, image_tokens, tokens * HIDDEN, 1024]   # ks0, ks1, xnumel, XBLOCK
    return dict(zip(fn.arg_names, values))


@pytest.mark.parametrize("size, image_tokens, flops, nbytes", [
    # 4608 tokens: 2 * 4608 * 3072; 2*4608*3072*2 + 512*3072*2 + 4096*3072*2 + 9216*2
    ("1024x1024", 4096, 28_311_552, 56_623_104 + 3_145_728 + 25_165_824 + 18_432),
    # 1536 tokens: 2 * 1536 * 3072; 2*1536*3072*2 + 512*3072*2 + 1024*3072*2 + 9216*2
    ("512x512", 1024, 9_437_184, 18_874_368 + 3_145_728 + 6_291_456 + 18_432),
])
def test_dynamic_kernel_metrics_follow_the_size(kernel, size, image_tokens, flops, nbytes):
    assert kernel.arg_names[4:7] == ["ks0", "ks1", "xnumel"]    # the symbolic sizes come as launch arguments
    got = kernel.launch_metadata((1, 1, 1), SimpleNamespace(num_warps=4, num_stages=1), _args(kernel, image_tokens))
    assert got == {"flops32": flops, "bytes": nbytes}


def test_first_size_bytes_match_inductors_estimate(kernel):
    text = FILE.read_text()
    assert "'kernel_num_gb': 0.084953088" in text
    got = kernel.launch_metadata((1, 1, 1), None, _args(kernel, 4096))
    assert got["bytes"] == 84_953_088
