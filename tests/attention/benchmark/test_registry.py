"""The attention backends' registry (attention/benchmark/registry.py), pinned where a mutation audit found it
unpinned: which backend is available on which machine and why not, what semantics each takes, whether it gives
an lse, and how a call is passed on. Machines are stood in for by patching torch.cuda (and numba's, the CUDA
toolkit, the import checks): the registry's rules are pure given those facts."""
import numba.cuda
import pytest
import torch
import torch.utils.cpp_extension as cpp_extension
from inductor_prof.attention.benchmark import library, registry


CG = frozenset({"causal", "gqa"})


ALL = frozenset({"causal", "gqa", "mask"})


EXTERNAL_MODULES = {"flash_attn2": "flash_attn", "flash_attn3": "flash_attn_interface", "xformers": "xformers.ops",
                    "transformer_engine": "transformer_engine.pytorch"}


def machine(monkeypatch, gpu=None, cuda_home="/usr/local/cuda", numba_gpu=None, missing=(), env=()):
    """gpu: None (no CUDA GPU) or its compute capability (major, minor). missing: modules whose import fails
    ("no <module>" is their import error); every other module imports."""
    monkeypatch.setattr(torch.cuda, "is_available", lambda: gpu is not None)
    monkeypatch.setattr(torch.cuda, "get_device_capability", lambda *a: gpu)
    monkeypatch.setattr(cpp_extension, "CUDA_HOME", cuda_home)
    monkeypatch.setattr(numba.cuda, "is_available", lambda: bool(gpu if numba_gpu is None else numba_gpu))
    monkeypatch.setattr(library, "import_error", lambda m: f"no {m}" if m in missing else "")
    for var in ("TRITON_INTERPRET", "NUMBA_ENABLE_CUDASIM"):
        monkeypatch.delenv(var, raising=False)
    for var, value in env:
        monkeypatch.setenv(var, value)
    return {b.name: b for b in registry.backends()}


def facts(b):
    return b.origin, b.available, b.reason, b.gives_lse, b.supports


def test_a_machine_without_a_gpu(monkeypatch):
    got = machine(monkeypatch, missing=tuple(EXTERNAL_MODULES.values()))
    no_gpu = "no CUDA GPU"
    # only the float32 torch reference and SDPA's math backend run on a CPU; the externals name their import error
    # first (it is what an install would fix); the own kernels give an lse, the libraries do not
    assert {n: facts(b) for n, b in got.items()} == {
        "triton_fa2": ("own", False, no_gpu, True, CG),
        "gluon_fa3": ("own", False, no_gpu, True, CG),
        "cuda_mma_fa2": ("own", False, no_gpu, True, CG),
        "numba_fa": ("own", False, registry.NUMBA_NO_GPU, True, frozenset()),   # dense only
        "torch_blocked": ("own", True, "", True, ALL),
        "sdpa": ("library", False, no_gpu, False, ALL),
        "sdpa_flash": ("library", False, no_gpu, False, CG),       # FlashAttention's kernel takes no mask
        "sdpa_efficient": ("library", False, no_gpu, False, ALL),
        "sdpa_cudnn": ("library", False, no_gpu, False, ALL),
        "sdpa_math": ("library", True, "", False, ALL),
        "flex_compiled": ("compiler", False, no_gpu, False, ALL),
        "flash_attn2": ("library", False, "no flash_attn", False, CG),
        "flash_attn3": ("library", False, "no flash_attn_interface", False, CG),
        "xformers": ("library", False, "no xformers.ops", False, frozenset({"causal"})),
        "transformer_engine": ("library", False, "no transformer_engine.pytorch", False, CG),
    }
    # in the registry's display order: own kernels, SDPA and its forced backends, the compiler's, the externals
    assert list(got) == ["triton_fa2", "gluon_fa3", "cuda_mma_fa2", "numba_fa", "torch_blocked", "sdpa", "sdpa_flash",
                         "sdpa_efficient", "sdpa_cudnn", "sdpa_math", "flex_compiled", "flash_attn2", "flash_attn3",
                         "xformers", "transformer_engine"]


def test_a_machine_without_a_gpu_but_its_simulators(monkeypatch):
    got = machine(monkeypatch, env=[("TRITON_INTERPRET", "1"), ("NUMBA_ENABLE_CUDASIM", "1")])
    # Triton's interpreter and numba's simulator run the own Triton and numba kernels on a CPU
    assert (got["triton_fa2"].available, got["triton_fa2"].reason) == (True, "")
    assert (got["numba_fa"].available, got["numba_fa"].reason) == (True, "")
    assert (got["gluon_fa3"].available, got["gluon_fa3"].reason) == (False, "no CUDA GPU")   # no interpreter
    # the externals import here, but need a GPU all the same
    assert (got["xformers"].available, got["xformers"].reason) == (False, "no CUDA GPU")


@pytest.mark.parametrize("var", ["TRITON_INTERPRET", "NUMBA_ENABLE_CUDASIM"])
def test_a_simulator_is_on_only_at_1(monkeypatch, var):
    got = machine(monkeypatch, env=[(var, "0")])
    assert not got["triton_fa2"].available and not got["numba_fa"].available


def test_an_sm80_gpu(monkeypatch):
    got = machine(monkeypatch, gpu=(8, 0))
    # TMA tensor descriptors need sm_90+, Gluon's Hopper ops sm_90 exactly; mma.sync and the libraries run on sm_80
    assert (got["triton_fa2"].available, got["triton_fa2"].reason) == (False, "needs sm_90+ (TMA tensor descriptors)")
    assert (got["gluon_fa3"].available, got["gluon_fa3"].reason) == (False,
                                                                     "needs sm_90 (wgmma and TMA through Gluon's "
                                                                     "Hopper ops)")
    for name in ("cuda_mma_fa2", "numba_fa", "sdpa", "sdpa_flash", "sdpa_cudnn", "flex_compiled", "flash_attn3"):
        assert (got[name].available, got[name].reason) == (True, ""), name


@pytest.mark.parametrize("cc, triton_ok, gluon_ok", [((9, 0), True, True), ((9, 9), True, True),
                                                     ((10, 0), True, False), ((8, 9), False, False)])
def test_the_own_triton_kernels_by_compute_capability(monkeypatch, cc, triton_ok, gluon_ok):
    # only the major version counts: sm_89 (8, 9) is no Hopper, sm_100 has TMA but not Hopper's wgmma
    got = machine(monkeypatch, gpu=cc)
    assert (got["triton_fa2"].available, got["gluon_fa3"].available) == (triton_ok, gluon_ok)


def test_a_gpu_without_a_cuda_toolkit_or_gluon(monkeypatch):
    got = machine(monkeypatch, gpu=(9, 0), cuda_home=None, numba_gpu=False,
                  missing=("triton.experimental.gluon.language.nvidia.hopper",))
    assert (got["cuda_mma_fa2"].available, got["cuda_mma_fa2"].reason) == (
        False, "no CUDA toolkit (nvcc) to build the extension")
    assert (got["gluon_fa3"].available, got["gluon_fa3"].reason) == (
        False, "no triton.experimental.gluon.language.nvidia.hopper")
    assert (got["numba_fa"].available, got["numba_fa"].reason) == (False, registry.NUMBA_NO_GPU)


def test_numba_not_importable(monkeypatch):
    got = machine(monkeypatch, gpu=(9, 0), missing=("numba.cuda",))
    assert facts(got["numba_fa"]) == ("own", False, "no numba.cuda", False, frozenset())
    assert got["numba_fa"].fn is None


def test_descriptions_say_what_each_is(monkeypatch):
    got = machine(monkeypatch)
    # the forced SDPA ones name the SDPBackend; an external one the module it imports
    assert got["sdpa_cudnn"].description == "SDPA forced to CUDNN_ATTENTION"
    assert got["sdpa_math"].description == "SDPA forced to MATH"
    assert {n: got[n].description for n in EXTERNAL_MODULES} == EXTERNAL_MODULES
    for b in got.values():
        assert isinstance(b.description, str) and len(b.description) >= 8, b.name   # flash_attn: the shortest


def test_unknown_names_raise_and_named_ones_come_in_the_order_asked():
    assert [b.name for b in registry.backends(["sdpa_math", "torch_blocked"])] == ["sdpa_math", "torch_blocked"]
    with pytest.raises(ValueError, match="unknown backend.s. nope, nada; known: triton_fa2, gluon_fa3"):
        registry.backends(["nope", "sdpa_math", "nada"])


def recorder():
    calls = []

    def fn(*args, **kwargs):
        calls.append((args, kwargs))
        return "out", "lse"
    return fn, calls


def test_a_call_passes_config_causal_and_mask_only_when_set():
    fn, calls = recorder()
    b = registry.Backend("x", "own", fn, True)
    mask = object()
    assert b(1, 2, 3, 0.5) == ("out", "lse")
    b(1, 2, 3, 0.5, "cfg")
    b(1, 2, 3, 0.5, causal=True)
    b(1, 2, 3, 0.5, mask=mask)
    b(1, 2, 3, 0.5, causal=False, mask=None)
    assert calls == [((1, 2, 3, 0.5), {}), ((1, 2, 3, 0.5, "cfg"), {}), ((1, 2, 3, 0.5), {"causal": True}),
                     ((1, 2, 3, 0.5), {"mask": mask}), ((1, 2, 3, 0.5), {})]


@pytest.mark.parametrize("name, module", [("triton_fa2", "triton_fa"), ("gluon_fa3", "gluon_fa"),
                                          ("cuda_mma_fa2", "cuda_fa")])
def test_an_own_kernel_gets_q_k_v_scale_config_and_causal_only_when_set(monkeypatch, name, module):
    import importlib

    fn, calls = recorder()
    monkeypatch.setattr(importlib.import_module(f"inductor_prof.attention.kernels.{module}"), "forward", fn)
    (b,) = registry.backends([name])
    b(1, 2, 3, 0.5)
    b(1, 2, 3, 0.5, "cfg", causal=True)
    b(1, 2, 3, 0.5, causal=False)
    # the kernel's forward(q, k, v, scale, config, causal=...): config None when not given
    assert calls == [((1, 2, 3, 0.5, None), {}), ((1, 2, 3, 0.5, "cfg"), {"causal": True}),
                     ((1, 2, 3, 0.5, None), {})]
    if name == "cuda_mma_fa2":
        with pytest.raises(ValueError, match="^the own kernels take no explicit mask$"):
            b(1, 2, 3, 0.5, mask=object())
        assert len(calls) == 3
        return
    # the Triton and Gluon kernels take a window as a band (registry.own_mask_args; tests/attention/kernels/
    # test_own_masks.py has the other kinds)
    import torch

    from inductor_prof.attention.kernels.mask_schedule import Band
    from inductor_prof.attention.semantics import masks

    q, k = torch.zeros(1, 2, 6, 64), torch.zeros(1, 2, 6, 64)
    b(q, k, 3, 0.5, mask=masks.build(masks.MaskSpec("window", window=2), 1, 6, 6))
    assert calls[3][1] == {"band": Band(1, 0)}


def test_the_numba_and_torch_blocked_backends_pass_their_arguments_on(monkeypatch):
    from inductor_prof.attention.kernels import numba_fa, reference

    fn, calls = recorder()
    monkeypatch.setattr(numba_fa, "forward", fn)
    monkeypatch.setattr(reference, "blocked_attention", fn)
    got = {b.name: b for b in registry.backends(["numba_fa", "torch_blocked"])}
    got["numba_fa"](1, 2, 3, 0.5)
    mask = object()
    got["torch_blocked"](1, 2, 3, 0.5)
    got["torch_blocked"](1, 2, 3, 0.5, causal=True, mask=mask)
    assert calls == [((1, 2, 3, 0.5), {}), ((1, 2, 3, 0.5), {"causal": False, "mask": None}),
                     ((1, 2, 3, 0.5), {"causal": True, "mask": mask})]


def test_without_torch_nothing_needs_a_gpu(monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "torch", None)      # `import torch` raises ImportError
    got = {b.name: b for b in registry.backends()}
    # every backend that needs a CUDA GPU says torch's import error instead (listing them raises nothing)
    for name in ("triton_fa2", "gluon_fa3", "cuda_mma_fa2", "sdpa", "sdpa_flash", "sdpa_efficient", "sdpa_cudnn",
                 "flex_compiled"):
        assert got[name].available is False and got[name].reason.startswith("torch: "), name
    assert got["torch_blocked"].available and got["sdpa_math"].available


def test_each_library_backend_calls_its_own_adapter(monkeypatch):
    got = machine(monkeypatch)
    assert got["flex_compiled"].fn is library.flex
    assert {n: got[n].fn for n in EXTERNAL_MODULES} == {"flash_attn2": library.flash_attn2,
                                                        "flash_attn3": library.flash_attn3,
                                                        "xformers": library.xformers,
                                                        "transformer_engine": library.transformer_engine}
    q = torch.zeros(1, 1, 4, 8)
    # PyTorch's own choice runs on a CPU; SDPA forced to the memory-efficient kernel has none there
    assert got["sdpa"].fn(q, q, q, 1.0)[0].shape == (1, 1, 4, 8)
    with pytest.raises(RuntimeError):
        got["sdpa_efficient"].fn(q, q, q, 1.0)
