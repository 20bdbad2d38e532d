"""A recorded kernel and its annotated copy give identical results (TRITON_INTERPRET=1, CPU, a few seconds).

Triton's interpreter never calls launch_metadata (tests/inductor/test_metrics.py checks the numbers);
this checks only that annotating leaves the kernel's results untouched. The kernel is FLUX's
triton_poi_fused_add_mul_split_unsqueeze_view_11 (loads and stores in_out_ptr0, no libdevice call, which the
interpreter cannot run), launched on 2 blocks of 1024 instead of its 1536: its mask is all-True and its
indices are x and 6144/15360 + x % 3072, so the first 2048 elements and an 18432-element in_ptr1 suffice.
"""
import json

import isolated
from recorded import data_path

NAME = "triton_poi_fused_add_mul_split_unsqueeze_view_11"

SCRIPT = r"""
import json, re, sys
from pathlib import Path
import torch
from inductor_prof.inductor.kernel_files import annotate_source
from inductor_prof.inductor.metrics import KernelMetrics

name, path = sys.argv[1], Path(sys.argv[2])
source = path.read_text()


def jit_function(text):
    # the @triton.jit function alone: Inductor's autotuning decorator and GPU-only imports dropped
    text = text.replace("triton_helpers.set_driver_to_gpu()", "").replace(
        "from torch._C import _cuda_getCurrentRawStream as get_raw_stream", "")
    text = re.sub(r"@triton_heuristics\.\w+\(.*?\n\)\n(?=@triton\.jit)", "", text, flags=re.S)
    ns = {}
    exec(compile(text.split("\ndef get_args():")[0], name, "exec"), ns)
    return ns[name]


fn_src = source[source.index(f"def {name}("):source.index("\ndef get_args():")]
annotated = annotate_source(source, KernelMetrics.for_source(name, fn_src, "POINTWISE"))
g = torch.Generator().manual_seed(0)
n = 2048
inputs = [torch.randn(size, generator=g).to(torch.bfloat16) for size in (n, n, 18432, n)]
outs, metas = [], []
for text in (source, annotated):
    fn = jit_function(text)
    in_out, a, b, c = (t.clone() for t in inputs)
    fn[(2,)](in_out, a, b, c, 1572864, XBLOCK=1024)
    outs.append(in_out)
    metas.append(repr(fn.kwargs.get("launch_metadata")))
io, a, b, c = (t.float() for t in inputs)
x0 = torch.arange(n) % 3072
# the kernel body: tmp8 = (in_ptr0 + in_ptr1[6144 + x0] * in_out) + in_ptr1[15360 + x0] * in_ptr2
expected = ((a + b[6144 + x0] * io) + b[15360 + x0] * c).to(torch.bfloat16)
print(json.dumps({"identical": torch.equal(outs[0], outs[1]),
                  "changed": not torch.equal(outs[0], inputs[0]),
                  "close": torch.allclose(outs[0].float(), expected.float(), rtol=1e-2, atol=1e-2),
                  "metadata": metas}))
"""


ARGS = [NAME, data_path("flux_small", "kernels", f"{NAME}.py")]
isolated.prefetch({"TRITON_INTERPRET": "1"}, SCRIPT, args=ARGS)     # run while the tests before this module run


def test_annotated_copy_computes_the_same_in_interpreter():
    out = isolated.run({"TRITON_INTERPRET": "1"}, SCRIPT, args=ARGS)
    assert out.returncode == 0, out.stderr[-3000:]
    res = json.loads(out.stdout.strip().splitlines()[-1])
    assert res["changed"] and res["close"]      # the kernel really ran (not two no-ops compared)
    assert res["identical"]
    # the original has no launch_metadata; the copy carries the one the live compile would attach:
    # 4 ops (tmp3 *, tmp4 +, tmp7 *, tmp8 +), in_out_ptr0 loaded (tmp2 = tl.load(in_out_ptr0 ...))
    assert res["metadata"] == ["None", "KernelMetrics(kind='pointwise', ops_per_element=4, ops_per_row=0, "
                                       "in_out_read=('in_out_ptr0',))"]
