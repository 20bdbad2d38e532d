"""CUDA graph replays' library kernels priced from the warm-up path, on the GPU, in one process: a two-layer MLP
(bf16, no bias: two extern mm calls and Inductor's relu between) compiled with mode="reduce-overhead", one step under
torch.profiler as the library_ops stage records it (the GEMMs launched by cudaGraphLaunch, unpriced), one step on
cudagraph trees' warm-up path (inductor/graph_warmup.py), the two paired (drivers/torch_profiler/replays.py); and the
graphs still replay after it. Written without device time; scripts/gpu_check_graph2.sh runs it."""
import torch

from inductor_prof.drivers import torch_profiler
from inductor_prof.drivers.torch_profiler.replays import price_replays
from inductor_prof.inductor.graph_warmup import graphs_off

M, D, H = 2048, 1024, 4096


def _traced(step, path, graphs=None):
    if graphs is None:
        torch_profiler.record(step, path)
    else:
        with graphs():
            torch_profiler.record(step, path)
    return torch_profiler.parse_trace_launches(path)


def test_replayed_gemms_take_the_ops_of_the_warm_up_path(tmp_path):
    torch._dynamo.reset()
    model = torch.nn.Sequential(torch.nn.Linear(D, H, bias=False), torch.nn.ReLU(),
                                torch.nn.Linear(H, D, bias=False)).cuda().to(torch.bfloat16)
    compiled = torch.compile(model, mode="reduce-overhead")
    x = torch.randn(M, D, device="cuda", dtype=torch.bfloat16)

    def step():
        torch.compiler.cudagraph_mark_step_begin()
        return compiled(x)

    with torch.no_grad():
        for _ in range(3):   # the compile and warm-up, the recording, a replay
            step()
        torch.cuda.synchronize()
        g, _, gl = _traced(step, tmp_path / "replayed.json")
        w, wa, wl = _traced(step, tmp_path / "eager.json", graphs_off)
        again, _, al = _traced(step, tmp_path / "again.json")
    assert gl["graph"].sum() >= 2, g[["kernel", "op"]]        # both GEMMs replayed (a split-K one: more kernels)
    assert not wl["graph"].any() and wl["compiled"].sum() == gl["graph"].sum()
    priced = price_replays(g, gl, w, wl, wa)
    assert priced.unmatched == {} and priced.priced == priced.replayed
    # 2 * M * D * H for each layer: x @ W1^T (M x D by D x H), then (M x H) @ W2^T (H x D)
    assert priced.table.loc[gl["graph"], "flops"].sum() == 2 * (2 * M * D * H)
    assert set(priced.table.loc[gl["graph"] & (priced.table["flops"] > 0), "op"]) == {"aten::mm"}
    assert al["graph"].sum() == gl["graph"].sum()             # the graphs kept: the next step replays them
