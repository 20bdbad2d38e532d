"""drivers/torch_profiler/trace.py attention_call: one SDPA call from the op's recorded arguments."""
from inductor_prof.drivers.torch_profiler.trace import attention_call


def test_grouped_query_attention_keeps_the_kv_heads_of_the_key():
    # aten::_scaled_dot_product_flash_attention(query, key, value, dropout_p, is_causal, return_debug_mask,
    # scale): q (B 2, Hq 32, Sq 1024, D 128), k and v (2, 8 heads, 2048 keys, 128): GQA, 4 query heads per
    # kv head. Hkv is the key's head count, Sk its length; q's strides (Sq*D*H, D, H*D, 1) are bshd.
    q, kv = [2, 32, 1024, 128], [2, 8, 2048, 128]
    strides = [[32 * 1024 * 128, 128, 32 * 128, 1], [8 * 2048 * 128, 2048 * 128, 128, 1],
               [8 * 2048 * 128, 2048 * 128, 128, 1]]
    call = attention_call("aten::_scaled_dot_product_flash_attention", [q, kv, kv, [], [], [], []], strides,
                          ["", "", "", "0.", "True", "False", "0.125"], "bfloat16", "flash_fwd_kernel")
    assert {k: call[k] for k in ("B", "H", "Hkv", "Sq", "Sk", "D", "causal", "scale", "layout", "mask")} == {
        "B": 2, "H": 32, "Hkv": 8, "Sq": 1024, "Sk": 2048, "D": 128, "causal": True, "scale": 0.125,
        "layout": "bshd", "mask": False}
