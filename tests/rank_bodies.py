"""Rank programs for `profile --nproc` tests on a CPU: each is the `body` a rank of pipeline/rank.py runs (named in
the spec in place of the profile), under a real torchrun, the run that ends well over a gloo process group; what it
does is chosen by the spec's target (`ok`, `fail`, `segv`, `hang`)."""
import json
import os
import signal
import time

from inductor_prof.pipeline.rank import rank_options


def ends(spec, rank, local_rank, root):
    """The body of the runs that end badly (`fail`, `segv`, `hang`): how each rank ends and what the folder says of
    it is what those tests check, not a collective, so no process group and no torch: a rank starts in about 0.6
    CPU-seconds instead of 2.5 (a launch of two, 4 CPU-seconds less). The run that ends well joins a gloo group
    (tensor_parallel_fsdp_then_training)."""
    _rank_ends(spec, rank, root, {})


def _gloo_body(spec, rank, root):
    import torch
    import torch.distributed as dist

    x = torch.ones(4)
    dist.all_reduce(x)   # a real collective: both ranks are up and joined
    _rank_ends(spec, rank, root, {"sum": x.tolist()})


def _rank_ends(spec, rank, root, seen: dict):
    """The rank's options written (with `seen`), then the end its target asks for."""
    opts = rank_options(spec["options"], rank, root)
    os.makedirs(opts.out)
    with open(os.path.join(opts.out, "options.json"), "w") as f:
        json.dump({"out": opts.out, "ncu": opts.ncu, "nproc": opts.nproc,
                   "nvls": os.environ.get("NCCL_NVLS_ENABLE"), **seen}, f)
    target = spec["options"]["target"]
    if rank == 1 and target == "fail":
        print("rank one is about to break", flush=True)
        raise RuntimeError("rank one broke")
    if rank == 1 and target == "segv":
        os.kill(os.getpid(), signal.SIGSEGV)
    if target != "ok":
        with open(os.path.join(root, f"ready{rank}"), "w") as f:   # the test interrupts once both are here
            f.write(str(os.getpid()))
        time.sleep(120)   # until torchrun ends this rank (SIGTERM), another having failed or an interrupt


def _tiny_decoder() -> dict:
    """llama_decoder.build's arguments for a 2-layer decoder small enough for CPU ranks."""
    import torch

    return dict(layers=2, batch=2, seq=16, device="cpu", dtype=torch.float32, hidden_size=64, intermediate_size=128,
                num_attention_heads=4, num_key_value_heads=2, head_dim=16, vocab_size=100)

def _tensor_parallel(root, rank):
    """examples/models/llama_tp.py on the CPU over gloo, tiny: its output against the whole model's, and the
    split layer traced whole by torch.compile (aot_eager: no C++ compile) with fullgraph."""
    import torch

    from examples.models.llama_tp import build_tp
    from examples.models.llama_decoder import build

    tiny = _tiny_decoder()
    model, kwargs = build_tp(**tiny)
    torch.manual_seed(0)
    whole, _ = build(**tiny)
    got, want = model(**kwargs).last_hidden_state, whole(**kwargs).last_hidden_state
    layer = torch.compile(model.layers[0].forward, backend="aot_eager", fullgraph=True)
    hidden = model.embed_tokens(kwargs["input_ids"])
    pos = torch.arange(hidden.shape[1]).unsqueeze(0)
    emb = model.rotary_emb(hidden, pos)
    compiled = layer(hidden, position_embeddings=emb, attention_mask=None)
    eager = model.layers[0](hidden, position_embeddings=emb, attention_mask=None)
    first = compiled[0] if isinstance(compiled, tuple) else compiled
    ref = eager[0] if isinstance(eager, tuple) else eager
    with open(os.path.join(root, f"tp{rank}.json"), "w") as f:
        json.dump({"max_err": float((got - want).abs().max()), "heads": model.layers[0].self_attn.q_proj.weight
                   .to_local().shape[0] // 16, "compiled_err": float((first - ref).abs().max())}, f)


def _fsdp(root, rank):
    """examples/models/llama_fsdp.py on the CPU over gloo, tiny: each rank stores half of each weight, its token
    ids its own, and its output the whole (unsharded) model's on the same ids."""
    import torch
    import torch.distributed as dist
    from torch.distributed.tensor import DTensor

    from examples.models.llama_decoder import build
    from examples.models.llama_fsdp import build_fsdp

    tiny = _tiny_decoder()
    model, kwargs = build_fsdp(**tiny)
    torch.manual_seed(0)
    whole, _ = build(**tiny)
    with torch.no_grad():
        got, want = model(**kwargs).last_hidden_state, whole(**kwargs).last_hidden_state
    q = model.layers[0].self_attn.q_proj.weight
    ids = [None, None]
    dist.all_gather_object(ids, kwargs["input_ids"].tolist())
    with open(os.path.join(root, f"fsdp{rank}.json"), "w") as f:
        json.dump({"max_err": float((got - want).abs().max()), "dtensor": isinstance(q, DTensor),
                   "local_rows": q.to_local().shape[0], "rows": q.shape[0], "own_ids": ids[0] != ids[1]}, f)


def tensor_parallel_fsdp_then_training(spec, rank, local_rank, root):
    """A collective and the rank's options written (the target `ok`), then _tensor_parallel, _fsdp and
    `--train --nproc`'s data-parallel step (rank_train_bodies.training), in the same two ranks: one torchrun launch
    (two Python processes importing torch and transformers, 6 CPU-seconds before any work) checks a run that ends
    well, both examples and training over ranks, over one gloo group (a second init_process_group after the first
    group's destroy hangs under torchrun: its store's keys are taken)."""
    import torch.distributed as dist

    from rank_train_bodies import training

    dist.init_process_group("gloo")
    try:
        _gloo_body(spec, rank, root)
        _tensor_parallel(root, rank)
        _fsdp(root, rank)
        training(root, rank)
    finally:
        dist.destroy_process_group()
