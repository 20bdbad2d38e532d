"""inductor/output_code.py: the kernels' decorator arguments, the output code parsed, the cache searched, on small
constructed inputs (every expected value read off the input by hand)."""
import hashlib
from inductor_prof.inductor.output_code import decorator_kwargs, find_output_code, harvest_cache, parse_output_code


# ---- inductor/output_code.py -------------------------------------------------------------------------

_SRC = '''
@other.pointwise(a=1)
@triton_heuristics.pointwise(size_hints={'x': 8, **extra}, triton_meta={'signature': {'in_ptr0': '*fp32'},
    'dev': torch.DeviceProperties(cc=90), 'mk': make()(n=1), 'neg': -3, 'negf': -2.5, 'negname': -foo,
    'sum': 1 + 2}, inductor_meta={'kernel_num_gb': 0.5})
@triton.jit
def mykern(in_ptr0, xnumel, XBLOCK: tl.constexpr):
    pass
'''


def test_decorator_kwargs_literals():
    heuristic, kw = decorator_kwargs(_SRC)
    # @other.pointwise comes first but is not triton_heuristics: skipped
    assert heuristic == "pointwise"
    assert set(kw) == {"size_hints", "triton_meta", "inductor_meta"}
    assert kw["size_hints"] == {"x": 8, "**": "extra"}                    # **extra -> key "**", its name
    tm = kw["triton_meta"]
    assert tm["dev"] == {"__call__": "DeviceProperties", "cc": 90}           # attribute call: its attr
    assert tm["mk"] == {"__call__": "?", "n": 1}                             # call of a call: no name
    assert (tm["neg"], tm["negf"], tm["negname"]) == (-3, -2.5, "foo")       # -name stays the name
    assert tm["sum"] == "1 + 2"                                              # other nodes: their text


def test_decorator_kwargs_without_heuristic():
    # only a bare @triton.jit (an Attribute, not a Call) and a plain-name call
    src = "@triton.jit\n@deco(a=1)\ndef k(x):\n    pass\n"
    assert decorator_kwargs(src) == (None, {})


def _output_code(*kernels):
    return "\n".join(kernels) + "\ndef call(args):\n    pass\n"


def _kernel(name, body, comments=""):
    return f"{comments}{name} = async_compile.triton('{name}', '''{body}''', device_str='cuda')\n"


def test_parse_output_code_fields():
    comments = "# Topologically Sorted Source Nodes: [a, b], Original ATen: [aten.add, aten.mul]\n"
    text = _output_code(_kernel("mykern", _SRC, comments))
    (rec,) = parse_output_code(text, "w/x.py")
    # name without an Inductor prefix: the kind comes from the heuristic (pointwise), not "other"
    assert (rec.name, rec.kind, rec.heuristic) == ("mykern", "pointwise", "pointwise")
    assert rec.aten_ops == ["aten.add", "aten.mul"] and rec.source_nodes == ["a", "b"]
    assert rec.inductor_meta == {"kernel_num_gb": 0.5}
    assert rec.signature == {"in_ptr0": "*fp32"}
    assert rec.source == _SRC and rec.wrapper == "w/x.py"
    # sha256 of the source text, first 12 hex digits
    assert rec.source_sha == hashlib.sha256(_SRC.encode()).hexdigest()[:12] and len(rec.source_sha) == 12
    # body is `pass`: no ops
    assert (rec.ops_per_element, rec.ops_per_row, rec.ops_per_lane) == (0, 0, 0)
    assert parse_output_code(text)[0].wrapper == ""                          # default wrapper name


def test_parse_output_code_missing_metadata():
    # no comments, no inductor_meta, triton_meta without signature; a second kernel whose triton_meta is a list
    a = "\n@triton_heuristics.reduction(triton_meta={'x': 1})\n@triton.jit\ndef triton_red_a(x):\n    pass\n"
    b = "\n@triton_heuristics.pointwise(triton_meta=[1])\n@triton.jit\ndef triton_poi_b(x):\n    pass\n"
    ra, rb = parse_output_code(_output_code(_kernel("triton_red_a", a), _kernel("triton_poi_b", b)))
    assert (ra.aten_ops, ra.source_nodes, ra.inductor_meta, ra.signature) == ([], [], {}, {})
    assert ra.kind == "reduction" and rb.kind == "pointwise"
    assert rb.signature == {}


def test_find_output_code_and_harvest_cache(tmp_path):
    body = "\n@triton_heuristics.pointwise()\n@triton.jit\ndef triton_poi_k(x):\n    pass\n"
    (tmp_path / "a.py").mkdir()                                  # rglob yields it; reading it fails: skipped
    (tmp_path / "sub").mkdir()
    # a non-UTF-8 byte in a comment: read with errors="replace", not an exception
    (tmp_path / "sub" / "w.py").write_bytes(b"# \xff\n" + _output_code(_kernel("triton_poi_k", body)).encode())
    (tmp_path / "c.py").write_text("def call(args):\n    pass\n")                  # no kernel: not output code
    (tmp_path / "d.py").write_text(_kernel("triton_poi_k", body))                  # no call(): not a wrapper
    assert find_output_code(tmp_path) == [tmp_path / "sub" / "w.py"]
    (rec,) = harvest_cache(tmp_path)
    assert rec.name == "triton_poi_k" and rec.wrapper == "sub/w.py"             # relative to the cache
