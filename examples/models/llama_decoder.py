"""A Llama-style causal decoder with grouped-query attention, as a `module:factory` target:

    inductor-prof profile examples.models.llama_decoder:decoder --out runs/llama          # regional
    inductor-prof profile examples.models.llama_decoder:decoder --whole-model --out runs/llama-whole
    inductor-prof profile examples.models.llama_decoder:decoder_padded --out runs/llama-pad

transformers' LlamaModel with the published Llama-3.2-1B shapes (hidden 2048, 32 query / 8 key-value heads
of 64, MLP 8192, vocabulary 128256, rope_theta 500000, RMSNorm eps 1e-5) but 8 layers, not 16; random
weights, bf16, SDPA attention, 2 sequences of 2048 token ids. Llama 3.2's "llama3" RoPE frequency scaling
is left out: it changes the values of the rotary table, not a kernel. No KV cache (use_cache=False): one
forward over whole prompts, as in prefill or training.

`decoder` runs SDPA with is_causal=True and the 8 key-value heads (enable_gqa); `decoder_padded` gives an
attention_mask with the last 100 tokens of the second sequence padded, so transformers passes a bool mask
and repeats the key-value heads to 32 before the call.

LlamaModel declares no `_repeated_blocks`; the factory sets it, so regional compile works without
`--blocks LlamaDecoderLayer`.
"""
from __future__ import annotations

LLAMA_3_2_1B = dict(hidden_size=2048, intermediate_size=8192, num_attention_heads=32, num_key_value_heads=8,
                    head_dim=64, vocab_size=128256, rope_theta=500000.0, rms_norm_eps=1e-5,
                    max_position_embeddings=131072)
LAYERS = 8          # of Llama-3.2-1B's 16: the kernels of a layer repeat, the compile is half as long
BATCH, SEQ = 2, 2048
PADDED_TOKENS = 100  # padding at the end of the second sequence in `decoder_padded`


def build(layers: int = LAYERS, batch: int = BATCH, seq: int = SEQ, padded: int = 0, device: str = "cuda",
          dtype=None, **shape):
    """(LlamaModel, kwargs): built on `device` in `dtype` (bf16) directly, without a float32 copy on the CPU.
    `shape` overrides LLAMA_3_2_1B's entries (the tests build a tiny one)."""
    import torch
    from transformers import LlamaConfig, LlamaModel

    dtype = dtype or torch.bfloat16
    cfg = LlamaConfig(**{**LLAMA_3_2_1B, **shape}, num_hidden_layers=layers, use_cache=False,
                      attn_implementation="sdpa")
    default = torch.get_default_dtype()
    torch.set_default_dtype(dtype)
    try:
        with torch.device(device):
            model = LlamaModel(cfg).eval().requires_grad_(False)
    finally:
        torch.set_default_dtype(default)
    model._repeated_blocks = ["LlamaDecoderLayer"]   # regional compile and a Proton scope per layer
    gen = torch.Generator(device="cpu").manual_seed(0)
    ids = torch.randint(0, cfg.vocab_size, (batch, seq), generator=gen).to(device)
    kwargs = {"input_ids": ids}
    if padded:
        mask = torch.ones(batch, seq, dtype=torch.long)
        mask[-1, seq - padded:] = 0
        kwargs["attention_mask"] = mask.to(device)
    return model, kwargs


def decoder():
    """8 layers of Llama-3.2-1B, causal, 2 x 2048 tokens."""
    return build()


def decoder_padded():
    """The same with padding: a bool attention mask, key-value heads repeated before SDPA."""
    return build(padded=PADDED_TOKENS)


SIZES = (2048, 1024, 512)   # tokens per sequence in `decoder_sizes`


def decoder_sizes():
    """The same decoder at several sequence lengths in one run (profile with --dynamic: one graph for all):
    an InputSets of the prompts' first 2048, 1024 and 512 tokens, named seq2048, seq1024, seq512."""
    from inductor_prof.targets import InputSets

    model, kwargs = build(seq=max(SIZES))
    ids = kwargs["input_ids"]
    return model, InputSets({f"seq{n}": {"input_ids": ids[:, :n].contiguous()} for n in SIZES})
