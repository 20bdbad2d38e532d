"""The program ncu profiles: replays each kernel once, then once more inside its own profiler range.

`python -m inductor_prof.ncu_runner SPEC.json [SPEC.json ...]`, where each spec is either
  {"type": "inductor", "file": ".../kernel.py", "name": "triton_..."}  (a harvested, standalone kernel) or
  {"type": "aten", "op": "aten::addmm", "dims": [...], "strides": [...], "types": [...], "scalars": [...]}
ncu runs with --profile-from-start off: the first launch (autotuning, library heuristics) is not profiled.
Several specs in one process share its start-up (Python, torch, CUDA context under ncu: most of the cost).
A spec that fails to load is reported on stderr as `ncu_runner: skipped NAME: reason` and the rest go on.
"""
from __future__ import annotations

import importlib.util
import json
import sys

from inductor_prof.errors import one_line

_DTYPES = {"c10::BFloat16": "bfloat16", "c10::Half": "float16", "float": "float32", "double": "float64",
           "long int": "int64", "int": "int32", "bool": "bool"}
_SDPA_BACKEND = {"aten::_cudnn_attention_forward": "CUDNN_ATTENTION",
                 "aten::_scaled_dot_product_cudnn_attention": "CUDNN_ATTENTION",
                 "aten::_flash_attention_forward": "FLASH_ATTENTION",
                 "aten::_scaled_dot_product_flash_attention": "FLASH_ATTENTION",
                 "aten::_efficient_attention_forward": "EFFICIENT_ATTENTION",
                 "aten::_scaled_dot_product_efficient_attention": "EFFICIENT_ATTENTION"}


_TENSOR_INPUTS = {"addmm": 3, "mm": 2, "bmm": 2, "baddbmm": 3}


def only_chosen_config(tuner, chosen: dict) -> None:
    """Keep the config the model ran with: no autotuning (compiles and benchmark launches) under ncu."""
    configs = getattr(tuner, "configs", None)
    if not configs or not chosen:
        return
    for cfg in configs:
        if (cfg.num_warps == chosen.get("num_warps") and cfg.num_stages == chosen.get("num_stages")
                and all(chosen.get(k) == v for k, v in cfg.kwargs.items())):
            tuner.configs = [cfg]
            return


def inductor_launch(spec: dict):
    mod_spec = importlib.util.spec_from_file_location(spec["name"], spec["file"])
    module = importlib.util.module_from_spec(mod_spec)
    mod_spec.loader.exec_module(module)
    only_chosen_config(getattr(module, spec["name"], None), spec.get("config") or {})
    args = module.get_args()
    return lambda: module.call(args)


def _tensor(dims, strides, type_name):
    import torch

    dtype = getattr(torch, _DTYPES.get(type_name, "float32"))
    t = torch.empty_strided(dims, strides or None, dtype=dtype, device="cuda")
    if t.is_floating_point():
        t.normal_()
    else:
        t.zero_()
    return t


def aten_launch(spec: dict):
    import torch

    dims, strides, types = spec["dims"], spec.get("strides") or [], spec.get("types") or []
    tensors = [_tensor(d, strides[i] if i < len(strides) else None, types[i] if i < len(types) else "float")
               for i, d in enumerate(dims) if isinstance(d, list) and d and all(isinstance(x, int) for x in d)]
    op = spec["op"]
    if op in _SDPA_BACKEND:
        from torch.nn.attention import SDPBackend, sdpa_kernel

        q, k, v = tensors[:3]
        backend = getattr(SDPBackend, _SDPA_BACKEND[op])

        def run():
            with sdpa_kernel([backend]):
                torch.nn.functional.scaled_dot_product_attention(q, k, v)
        return run
    name = op.split("::")[-1]
    fn = getattr(torch.ops.aten, name)
    inputs = tensors[:_TENSOR_INPUTS.get(name, len(tensors))]   # the trace lists `out=` tensors too
    return lambda: fn(*inputs)


def main(argv: list[str]) -> int:
    import torch

    launches = []
    for path in argv[1:]:
        spec = json.loads(open(path).read())
        label = spec.get("name") or spec.get("op")
        try:
            launch = inductor_launch(spec) if spec["type"] == "inductor" else aten_launch(spec)
            launch()                  # compile / autotune / pick the library kernel: not profiled
            torch.cuda.synchronize()
            launches.append(launch)
        except Exception as e:  # one broken kernel must not cost the others their profile
            print(f"ncu_runner: skipped {label}: {one_line(e, None)}", file=sys.stderr)
    for launch in launches:
        torch.cuda.cudart().cudaProfilerStart()
        launch()
        torch.cuda.synchronize()
        torch.cuda.cudart().cudaProfilerStop()
    return 0 if len(launches) == len(argv) - 1 else 3


if __name__ == "__main__":
    sys.exit(main(sys.argv))
