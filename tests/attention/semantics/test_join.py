"""attention/semantics/join.py: the captured calls joined with the trace's calls, on small constructed records
(every expected value read off the input by hand)."""
from inductor_prof.attention.semantics.join import join


# ---- join.py ----------------------------------------------------------------------------------------------

def _call(dtype=None, **kw):
    c = {"B": 1, "H": 2, "Sq": 4, "Sk": 4, "D": 8, "causal": False, **kw}
    if dtype is not None:
        c["dtype"] = dtype
    return c


def test_join_keys_on_dtype():
    # same shape in bf16 then fp16 in the trace; the eager capture saw fp16 (Hkv 1) first, then bf16 (Hkv 2):
    # each trace call takes the eager call of its own dtype
    trace = [_call("torch.bfloat16"), _call("torch.float16")]
    eager = [_call("torch.float16", op="sdpa", Hkv=1), _call("torch.bfloat16", op="sdpa", Hkv=2)]
    out = join(trace, eager)
    assert [(c["dtype"], c["Hkv"], c["captured"]) for c in out] == [
        ("torch.bfloat16", 2, "trace+eager"), ("torch.float16", 1, "trace+eager")]


def test_join_missing_dtype_matches_empty_dtype():
    # no dtype recorded and an empty dtype both mean "unknown": the same key
    out = join([_call("")], [_call(op="sdpa", Hkv=1)])
    assert [(c["captured"], c.get("Hkv")) for c in out] == [("trace+eager", 1)]


def test_join_goes_on_after_an_unmatched_trace_call():
    # the first trace call (D=16) has no eager partner; the second still gets its own
    trace = [_call("torch.float16", D=16), _call("torch.float16")]
    out = join(trace, [_call("torch.float16", op="sdpa", Hkv=1)])
    assert [(c["D"], c["captured"], c.get("Hkv")) for c in out] == [(16, "trace", None), (8, "trace+eager", 1)]
