# A copy of the script that recorded tests/data/flux_dyn and tests/data/provenance (see tests/data/README.md and
# tests/data/provenance/README.md); it needs a GPU and OUT set: OUT=/tmp/out python scripts/record_fixtures/record_prov.py
"""Raw Inductor provenance on the H100 (torch 2.11): FLUX small regional dynamic at two resolutions and a
2-layer Llama whole-model, each into its own Inductor cache; wraps set_kernel_post_grad_provenance_tracing to
keep each kernel's post-grad origin nodes with their meta (stack_trace, nn_module_stack)."""
import json, os, sys, tarfile, time, traceback
from pathlib import Path
import torch
OUT = Path(os.environ["OUT"])
WORK = Path("/tmp/prov"); WORK.mkdir(exist_ok=True)
import torch._inductor.debug as idebug
import torch._inductor.codegen.triton as ctriton
import torch._inductor.config as ic

records = []
orig = idebug.set_kernel_post_grad_provenance_tracing
def wrapped(node_schedule, kernel_name, is_extern=False):
    h = orig(node_schedule, kernel_name, is_extern)
    try:
        nodes = []
        if is_extern:
            origins = [node_schedule.origin_node] if getattr(node_schedule, "origin_node", None) else list(node_schedule.origins)
        else:
            origins = []
            for sn in node_schedule:
                n = getattr(sn, "node", None)
                if n is not None:
                    origins += list(n.origins)
        for o in origins:
            m = o.meta
            nodes.append({"name": o.name, "target": str(o.target), "stack_trace": m.get("stack_trace"),
                          "nn_module_stack": {k: [str(x) for x in v] for k, v in (m.get("nn_module_stack") or {}).items()},
                          "source_fn_stack": [[str(x) for x in s] for s in (m.get("source_fn_stack") or [])],
                          "original_aten": str(m.get("original_aten"))})
        records.append({"kernel": kernel_name, "handle": h, "extern": is_extern, "nodes": nodes})
    except Exception as e:
        records.append({"kernel": kernel_name, "error": repr(e)})
    return h
idebug.set_kernel_post_grad_provenance_tracing = wrapped
ctriton.set_kernel_post_grad_provenance_tracing = wrapped
try:
    import torch._inductor.codegen.cpp as ccpp; ccpp.set_kernel_post_grad_provenance_tracing = wrapped
except Exception: pass

def fresh_cache(name):
    d = WORK / name; d.mkdir(exist_ok=True)
    os.environ["TORCHINDUCTOR_CACHE_DIR"] = str(d); os.environ["TRITON_CACHE_DIR"] = str(d / "triton")
    return d

with ic.patch({"trace.provenance_tracking_level": 1, "benchmark_kernel": True}):
    try:
        from inductor_prof.targets.flux import FluxOptions, build_flux, flux_inputs, flux_config
        fresh_cache("flux_dyn")
        torch._dynamo.reset()
        opts = FluxOptions(double_blocks=1, single_blocks=1)
        t = build_flux("flux", opts)
        for _, b in t.blocks: b.compile(fullgraph=True, dynamic=True)
        cfg = flux_config("flux", opts)
        for (h, w) in ((1024, 1024), (512, 512)):
            kw = flux_inputs(FluxOptions(height=h, width=w), cfg, torch.bfloat16, "cuda")
            with torch.no_grad():
                t.model(**kw); torch.cuda.synchronize()
        (WORK / "flux_dyn" / "provenance_records.json").write_text(json.dumps(records, indent=1))
        print("flux records", len(records), flush=True)
        del t
    except Exception: traceback.print_exc()
    records.clear()
    try:
        from transformers import LlamaConfig, LlamaModel
        fresh_cache("llama2")
        torch._dynamo.reset()
        cfg = LlamaConfig(hidden_size=2048, intermediate_size=8192, num_hidden_layers=2, num_attention_heads=32,
                          num_key_value_heads=8, head_dim=64, vocab_size=128256, attn_implementation="sdpa")
        torch.set_default_dtype(torch.bfloat16)
        with torch.device("cuda"):
            m = LlamaModel(cfg).eval().requires_grad_(False)
        torch.set_default_dtype(torch.float32)
        ids = torch.randint(0, 128256, (2, 512), device="cuda")
        mc = torch.compile(m, fullgraph=True)
        with torch.no_grad():
            mc(input_ids=ids); torch.cuda.synchronize()
        (WORK / "llama2" / "provenance_records.json").write_text(json.dumps(records, indent=1))
        print("llama records", len(records), flush=True)
    except Exception: traceback.print_exc()

for name in ("flux_dyn", "llama2"):
    with tarfile.open(OUT / f"{name}.tar.gz", "w:gz") as tf:
        d = WORK / name
        for p in d.rglob("*"):
            if p.is_file() and (p.suffix == ".py" or p.name == "provenance_records.json") and "triton" not in p.relative_to(d).parts[:1]:
                tf.add(p, arcname=str(p.relative_to(WORK)))
print("done")
