"""The provenance capture for real: torch.compile of a tiny model on CPU, regional (each block compiled), with
instrumented_inductor on. Inductor writes C++ kernels here but calls the same provenance function."""
from __future__ import annotations

import inspect

import pytest

torch = pytest.importorskip("torch")

from inductor_prof.inductor.cache import isolated_cache  # noqa: E402
from inductor_prof.inductor.instrument import KernelRegistry, instrumented_inductor  # noqa: E402
from inductor_prof.inductor.kernel_provenance import (extern_calls, graph_block, graph_groups, library_modules,  # noqa: E402
                                                      match_wrappers, summarize)
from inductor_prof.inductor.provenance import block_classes  # noqa: E402


class Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(16, 16)
        self.act = torch.nn.GELU()

    def forward(self, x):
        return self.act(self.lin(x)) * 2


class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = torch.nn.ModuleList([Block(), Block()])

    def forward(self, x):
        for b in self.blocks:
            x = b(x)
        return x


def _line_of(fn, text: str) -> int:
    lines, first = inspect.getsourcelines(fn)
    return first + next(i for i, line in enumerate(lines) if text in line)


@pytest.fixture(scope="module")
def captured(tmp_path_factory):
    import torch._inductor.config as inductor_config
    from torch._inductor import debug

    cache = tmp_path_factory.mktemp("inductor")
    registry = KernelRegistry()
    model = Model()
    torch._dynamo.reset()
    before = debug.set_kernel_post_grad_provenance_tracing
    # vec_isa_ok: Inductor takes the vector ISA the CPU reports rather than proving each by a compile and a load
    # in a child (six g++ builds, about 10 s in an empty cache); the kernels and their provenance are the same
    with inductor_config.patch({"cpp.vec_isa_ok": True}), isolated_cache(cache), instrumented_inductor(registry), \
            torch.no_grad():
        assert inductor_config.trace.provenance_tracking_level == 1
        registry.provenance.blocks = block_classes(model, [(f"b{i}", b) for i, b in enumerate(model.blocks)])
        for b in model.blocks:
            b.compile(fullgraph=True)
        model(torch.randn(4, 16))
    # restored on exit
    assert debug.set_kernel_post_grad_provenance_tracing is before
    assert inductor_config.trace.provenance_tracking_level == 0
    torch._dynamo.reset()
    wrappers = {str(p): p.read_text() for p in cache.rglob("*.py") if "def call(" in p.read_text()}
    return registry.provenance, wrappers


def test_blocks_classes_give_the_path_pattern(captured):
    recorder, _ = captured
    (block,) = recorder.blocks
    assert block["pattern"] == "blocks.*"
    assert block["modules"]["lin"] == str(torch.nn.Linear)


def test_each_kernel_traced_to_its_module_and_this_files_lines(captured):
    recorder, wrappers = captured
    groups = graph_groups(recorder.records)
    assert groups and all(r["graph"] is not None for r in recorder.records)
    matched = match_wrappers(groups, wrappers)
    graph = next(g for g in matched.values() if g)     # the output code that the captured handles name
    block = graph_block(graph, recorder.blocks)
    assert block == "blocks.*"
    (fused,) = [r for r in graph if not r["extern"]]   # gelu and * 2 in one C++ kernel
    prov = summarize([fused], block, {})
    assert prov["module"] == "blocks.*.act"
    assert set(prov["modules"]) == {"blocks.*.act", "blocks.*"}     # gelu in act; `* 2` in Block.forward
    line = _line_of(Block.forward, "return self.act(self.lin(x)) * 2")
    assert prov["source_lines"] == [f"{__file__}:{line}"]   # no short names given: the full path
    assert "aten.mul.Tensor" in {n["target"] for n in prov["nodes"]}   # gelu itself is decomposed post-grad


def test_extern_gemm_joins_the_profiled_addmm(captured):
    recorder, _ = captured
    calls = extern_calls(recorder.records, recorder.blocks)
    addmm = [c for c in calls if c["op"] == "aten::addmm"]
    assert addmm and addmm[0]["module"] == "blocks.*.lin"
    assert addmm[0]["shapes"] == [[16], [4, 16], [16, 16]]          # bias, x, weight.T
    # as torch.profiler lists aten::addmm's inputs: bias, input, mat2, beta, alpha
    assert library_modules("aten::addmm", [[16], [4, 16], [16, 16], [], []], calls) == ["blocks.*.lin"]
