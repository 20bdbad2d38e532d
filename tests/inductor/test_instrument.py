"""The kernel registry keeps each kernel Inductor built, also when two graphs give different code one name."""
from types import SimpleNamespace

import torch

from inductor_prof.inductor.instrument import KernelRegistry


class Tuner(SimpleNamespace):
    """A CachingAutotuner's attributes the registry reads (a class of its own: it keeps a weak reference)."""


def _tuner(name, src, r0_block):
    fn = SimpleNamespace(src=src, launch_metadata=None, __name__=name)
    config = SimpleNamespace(kwargs={"XBLOCK": 1, "R0_BLOCK": r0_block}, num_warps=16, num_stages=1)
    return Tuner(fn=fn, inductor_meta={"kernel_name": name}, heuristic_type=None, triton_meta={},
                           filename=None, launchers=[SimpleNamespace(config=config)], configs=[config])


SRC_A = "def triton_red_ln_1(in_ptr0, xnumel, r0_numel):\n    tmp0 = tl.load(in_ptr0)\n"
SRC_B = "def triton_red_ln_1(in_ptr0, in_ptr1, xnumel, r0_numel):\n    tmp0 = tl.load(in_ptr1)\n"


def test_each_source_keeps_its_own_launch_config():
    reg = KernelRegistry()
    a, b = _tuner("triton_red_ln_1", SRC_A, 2048), _tuner("triton_red_ln_1", SRC_B, 4096)
    reg.add(a)
    reg.add(b)
    # the harvested module text: decorators and imports around the def
    module_a = "import triton\n@triton_heuristics.reduction(...)\n@triton.jit\n" + SRC_A + "\ndef get_args():\n"
    module_b = "import triton\n@triton.jit\n" + SRC_B
    assert reg.find("triton_red_ln_1", module_a).launch_config()["R0_BLOCK"] == 2048
    assert reg.find("triton_red_ln_1", module_b).launch_config()["R0_BLOCK"] == 4096
    assert reg.find("triton_red_ln_1", "def other(): pass") is None
    assert reg.find("triton_missing", module_a) is None
    # the launch_metadata is installed on each JITFunction, for its own source
    assert a.fn.launch_metadata is not None and b.fn.launch_metadata is not a.fn.launch_metadata


def test_a_foreach_update_counts_what_it_mutates_as_read_and_written():
    # what a compiled AdamW's foreach kernel gives the registry: `src` is the def alone (the decorator is not in
    # it), and torch's cached_autotune pops mutated_arg_names out of inductor_meta onto the tuner. Recorded on the
    # H200 before this: the optimizer phase read 8 B a parameter where AdamW moves 14 (examples/runs/llama-train-h200).
    src = ("def triton_for_fused_1(in_ptr0, in_ptr1, in_ptr2, in_ptr3, out_ptr0, out_ptr1, out_ptr2):\n"
           "    tmp0 = tl.load(in_ptr0 + (x0), None).to(tl.float32)\n")
    fn = SimpleNamespace(src=src, launch_metadata=None, __name__="triton_for_fused_1")
    tuner = Tuner(fn=fn, heuristic_type=None, triton_meta={}, filename=None, launchers=[], configs=[],
                  inductor_meta={"kernel_name": "triton_for_fused_1", "grid_type": "SequentialComboKernelGrid"},
                  mutated_arg_names=["in_ptr0", "in_ptr2", "in_ptr3", "out_ptr0", "out_ptr1", "out_ptr2"])
    KernelRegistry().add(tuner)
    n = 1000
    param, grad, exp_avg, exp_avg_sq = (torch.zeros(n, dtype=torch.bfloat16) for _ in range(4))
    # in place: each out_ptr is its in_ptr's buffer, as Inductor passes a mutated argument
    args = {"in_ptr0": param, "in_ptr1": grad, "in_ptr2": exp_avg, "in_ptr3": exp_avg_sq,
            "out_ptr0": param, "out_ptr1": exp_avg, "out_ptr2": exp_avg_sq}
    # by hand: param, exp_avg, exp_avg_sq read and written (2 x 2 B each), grad read (2 B): 14 B a parameter
    assert fn.launch_metadata(None, None, args)["bytes"] == 14 * n
