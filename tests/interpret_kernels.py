"""Run under TRITON_INTERPRET=1: each harvested kernel, original and annotated, on the same CPU inputs.

Prints one line per kernel: `name OK` when outputs are bit-identical, `name DIFF` otherwise.
usage: TRITON_INTERPRET=1 python interpret_kernels.py KERNELS_DIR NAME [NAME ...]
"""
import re
import sys
from pathlib import Path

import torch


def jit_function(source: str, name: str):
    """The @triton.jit function of a harvested module, without Inductor's autotuning decorator."""
    source = source.replace("triton_helpers.set_driver_to_gpu()", "").replace(
        "from torch._C import _cuda_getCurrentRawStream as get_raw_stream", "")
    source = re.sub(r"@triton_heuristics\.\w+\(.*?\n\)\n(?=@triton\.jit)", "", source, flags=re.S)
    source = source.split("\ndef get_args():")[0]
    namespace: dict = {}
    exec(compile(source, f"<{name}>", "exec"), namespace)
    return namespace[name]






def triton_cdiv(a, b):
    return (a + b - 1) // b


def main():
    kernels_dir = Path(sys.argv[1])
    for name in sys.argv[2:]:
        outs = []
        for suffix in (".py", ".annotated.py"):
            src = (kernels_dir / f"{name}{suffix}").read_text()
            fn = jit_function(src, name)
            get_args_src = src.split("\ndef get_args():")[1].split("\ndef call(")[0]
            ns = {"torch": torch}
            from torch._dynamo.testing import rand_strided
            ns["rand_strided"] = rand_strided
            exec("def get_args():" + get_args_src.replace("device='cuda:0'", "device='cpu'"), ns)
            torch.manual_seed(0)
            args = list(ns["get_args"]())
            for i, a in enumerate(args):
                if isinstance(a, torch.Tensor) and a.is_floating_point():
                    args[i] = torch.randn(a.shape, dtype=torch.float32).to(a.dtype).as_strided(a.shape, a.stride())
            names = fn.arg_names
            sig = dict(zip(names, args))
            xnumel = sig.get("xnumel", 1)
            ynumel = sig.get("ynumel")
            rnumel = sig.get("r0_numel")
            kw = {}
            if "XBLOCK" in names:
                kw["XBLOCK"] = 64
            if "YBLOCK" in names:
                kw["YBLOCK"] = 16
            if "R0_BLOCK" in names:
                kw["R0_BLOCK"] = 64
            if rnumel is not None and "R0_BLOCK" not in names:
                pass  # persistent reductions take the whole row in one block
            grid = [triton_cdiv(xnumel, kw.get("XBLOCK", 1))]
            if ynumel is not None:
                grid = [triton_cdiv(ynumel, kw["YBLOCK"]), triton_cdiv(xnumel, kw["XBLOCK"])]
                if names.index("ynumel") > names.index("xnumel"):
                    grid.reverse()
            fn[tuple(grid)](*args, **kw)
            outs.append([a.clone() for a in args if isinstance(a, torch.Tensor)])
        same = all(torch.equal(a, b) for a, b in zip(*outs))
        print(name, "OK" if same else "DIFF", flush=True)


if __name__ == "__main__":
    main()
