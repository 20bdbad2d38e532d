"""The shipped decoder example (examples/models/llama_decoder.py), built tiny on the CPU: the published
shapes it carries, the attention calls transformers makes (causal + GQA; padded: bool mask, heads repeated),
its blocks under fullgraph, and the `module:factory` import from the repository root."""
import sys

import pytest
import torch

pytest.importorskip("transformers")

from recorded import REPO  # noqa: E402

ROOT = REPO
sys.path.insert(0, str(ROOT))
from examples.models import llama_decoder  # noqa: E402

TINY = dict(layers=2, batch=2, seq=16, device="cpu", dtype=torch.float32, hidden_size=64, intermediate_size=128,
            num_attention_heads=4, num_key_value_heads=2, head_dim=16, vocab_size=100)


class SdpaCalls(torch.overrides.TorchFunctionMode):
    """What each F.scaled_dot_product_attention call got."""

    def __init__(self):
        super().__init__()
        self.calls = []

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        if getattr(func, "__name__", "") == "scaled_dot_product_attention":
            mask = kwargs.get("attn_mask")
            self.calls.append({"q": tuple(args[0].shape), "k": tuple(args[1].shape), "causal": kwargs.get("is_causal"),
                               "gqa": kwargs.get("enable_gqa", False), "scale": kwargs.get("scale"),
                               "mask": None if mask is None else (tuple(mask.shape), mask.dtype)})
        return func(*args, **kwargs)


def sdpa_calls(model, kwargs):
    spy = SdpaCalls()
    with torch.no_grad(), spy:
        model(**kwargs)
    return spy.calls


def test_published_llama_3_2_1b_shapes():
    assert llama_decoder.LLAMA_3_2_1B == dict(
        hidden_size=2048, intermediate_size=8192, num_attention_heads=32, num_key_value_heads=8, head_dim=64,
        vocab_size=128256, rope_theta=500000.0, rms_norm_eps=1e-5, max_position_embeddings=131072)
    assert (llama_decoder.LAYERS, llama_decoder.BATCH, llama_decoder.SEQ) == (8, 2, 2048)


def test_causal_gqa_calls_and_config():
    model, kwargs = llama_decoder.build(**TINY)
    assert model._repeated_blocks == ["LlamaDecoderLayer"] and len(model.layers) == 2
    assert model.config.rms_norm_eps == 1e-5 and model.config.use_cache is False
    # RoPE frequency i is theta^(-2i/head_dim): i=1 with theta 500000, head_dim 16
    assert model.rotary_emb.inv_freq[1].item() == pytest.approx(500000.0 ** (-2 / 16), rel=1e-6)
    assert set(kwargs) == {"input_ids"} and kwargs["input_ids"].shape == (2, 16)
    # 4 query heads share 2 key-value heads; scale 1/sqrt(16)
    call = {"q": (2, 4, 16, 16), "k": (2, 2, 16, 16), "causal": True, "gqa": True, "scale": 0.25, "mask": None}
    assert sdpa_calls(model, kwargs) == [call, call]


def test_padded_variant_passes_a_bool_mask_and_repeats_heads():
    model, kwargs = llama_decoder.build(padded=3, **TINY)
    mask = kwargs["attention_mask"]
    assert mask[0].tolist() == [1] * 16 and mask[1].tolist() == [1] * 13 + [0] * 3
    call = {"q": (2, 4, 16, 16), "k": (2, 4, 16, 16), "causal": False, "gqa": False, "scale": 0.25,
            "mask": ((2, 1, 16, 16), torch.bool)}
    assert sdpa_calls(model, kwargs) == [call, call]


def test_decoder_layer_compiles_as_one_graph():
    # regional compile uses fullgraph=True: a graph break in LlamaDecoderLayer would fail the run
    model, kwargs = llama_decoder.build(**TINY)
    with torch.no_grad():
        want = model(**kwargs).last_hidden_state
        torch._dynamo.reset()
        for layer in model.layers:
            layer.compile(fullgraph=True, backend="eager")
        got = model(**kwargs).last_hidden_state
    torch._dynamo.reset()
    assert torch.equal(got, want)


def test_cli_spec_resolves_from_the_repository_root(monkeypatch):
    from inductor_prof.targets import blocks, load_custom

    monkeypatch.chdir(ROOT)
    monkeypatch.setattr(llama_decoder, "decoder", lambda: llama_decoder.build(**TINY))
    t = load_custom("examples.models.llama_decoder:decoder")
    assert [name for name, _ in t.blocks] == ["layers.0", "layers.1"]
    assert t.info["class"] == "LlamaModel" and blocks.stacked_classes(t.model) == {"LlamaDecoderLayer": 2}
    # embedding 100x64 + per layer (q 64x64, k and v 64x32, o 64x64, MLP 3 x 64x128, two norms of 64) + norm
    per_layer = 64 * 64 * 2 + 64 * 32 * 2 + 3 * 64 * 128 + 2 * 64
    assert t.info["parameters"] == 100 * 64 + 2 * per_layer + 64


def test_decoder_sizes_gives_named_prefixes_of_one_prompt(monkeypatch):
    from inductor_prof.targets import load_custom

    build = llama_decoder.build
    monkeypatch.chdir(ROOT)
    monkeypatch.setattr(llama_decoder, "SIZES", (16, 8, 4))
    monkeypatch.setattr(llama_decoder, "build", lambda seq: build(**{**TINY, "seq": seq}))
    t = load_custom("examples.models.llama_decoder:decoder_sizes")
    assert list(t.sizes) == ["seq16", "seq8", "seq4"]           # the order given: the first is the default
    ids = {name: kwargs["input_ids"] for name, (_, kwargs) in t.sizes.items()}
    assert [tuple(v.shape) for v in ids.values()] == [(2, 16), (2, 8), (2, 4)]
    assert torch.equal(ids["seq8"], ids["seq16"][:, :8]) and torch.equal(ids["seq4"], ids["seq16"][:, :4])
    assert torch.equal(t.kwargs["input_ids"], ids["seq16"])
