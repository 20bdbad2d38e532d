"""Small constructed inputs that pin attention/semantics/shapes.py, inductor/output_code.py and pipeline/harvest.py
(issue 9: mutants that survived the fast suite). Every expected value is read off the input by hand."""
import hashlib
import json
from types import SimpleNamespace

import pytest

from inductor_prof.attention.semantics.masks import CAUSAL, NONE, MaskSpec
from inductor_prof.attention.semantics.shapes import SWEEP_SEQ, Shape, from_calls, parse_dtype, parse_shape, sweep
from inductor_prof.inductor.output_code import (KernelRecord, decorator_kwargs, find_output_code, harvest_cache,
                                                parse_output_code)
from inductor_prof.inductor.provenance import ProvenanceRecorder
from inductor_prof.pipeline import harvest

# ---- attention/semantics/shapes.py ------------------------------------------------------------------------------


def test_parse_shape_accepts_x_as_separator_and_keeps_dtype():
    # "2x4x128x64" -> 2,4,128,64: B=2, H=4, S=128 (self-attention: Sq = Sk = 128), D=64; fp16 -> float16
    assert parse_shape("2x4x128x64", "fp16") == Shape(2, 4, 128, 128, 64, "float16")
    # five numbers: Sq=128, Sk=256 kept apart; "half" is float16 too
    assert parse_shape("2,4,128x256,64", "half") == Shape(2, 4, 128, 256, 64, "float16")
    # default dtype bfloat16
    assert parse_shape("1,2,3,4").dtype == "bfloat16"


def test_parse_shape_and_dtype_errors_name_the_input():
    with pytest.raises(ValueError, match=r"bad shape '1,2,3': expected B,H,S,D"):
        parse_shape("1,2,3")                       # three numbers
    with pytest.raises(ValueError, match=r"bad shape '1,0,3,4'"):
        parse_shape("1,0,3,4")                     # H = 0 is not positive
    with pytest.raises(ValueError, match=r"bad dtype 'fp8': use bfloat16 or float16"):
        parse_dtype("fp8")


def test_sweep_keeps_every_base_field():
    base = Shape(2, 6, 300, 300, 96, "float16", Hkv=3, mask=CAUSAL)
    # lengths = SWEEP_SEQ plus the base's 300, sorted; each shape is (B=2, H=6/3, s, s, D=96, float16, causal):
    # kv heads and causality carried
    lengths = sorted(set(SWEEP_SEQ) | {300})
    assert lengths[:2] == [300, 512]
    assert sweep(base) == [Shape(2, 6, s, s, 96, "float16", 3, CAUSAL) for s in lengths]
    # a padding mask is tied to its length: not carried
    padded = Shape(2, 3, 300, 300, 96, "float16", mask=MaskSpec("padding", key_lengths=(200, 300)))
    assert sweep(padded, seqs=(64,)) == [Shape(2, 3, 64, 64, 96, "float16"), Shape(2, 3, 300, 300, 96, "float16")]


def test_from_calls_fields_dtype_and_flags():
    calls = [
        # every field distinct so that a swapped or dropped one shows
        {"B": 2, "H": 3, "Sq": 5, "Sk": 7, "D": 11, "dtype": "torch.float16", "causal": True, "mask": True,
         "op": "aten::_scaled_dot_product_flash_attention"},
        # same shape again with another op: counted twice, the FIRST op kept
        {"B": "2", "H": "3", "Sq": "5", "Sk": "7", "D": "11", "dtype": "torch.float16", "causal": 1, "mask": 1,
         "op": "other_op"},
        # no dtype, no causal/mask, no op: dtype "", flags False, op ""
        {"B": 1, "H": 1, "Sq": 4, "Sk": 4, "D": 8},
        # a dtype outside DTYPES is kept verbatim (torch. prefix included); "bf16" maps to bfloat16
        {"B": 1, "H": 1, "Sq": 4, "Sk": 4, "D": 8, "dtype": "torch.float32", "op": "x"},
        {"B": 1, "H": 1, "Sq": 4, "Sk": 4, "D": 8, "dtype": "bf16", "op": "y"},
    ]
    out = from_calls(calls)
    assert out == [
        (Shape(2, 3, 5, 7, 11, "float16", mask=CAUSAL), 2, "aten::_scaled_dot_product_flash_attention"),
        (Shape(1, 1, 4, 4, 8, ""), 1, ""),
        (Shape(1, 1, 4, 4, 8, "torch.float32"), 1, "x"),
        (Shape(1, 1, 4, 4, 8, "bfloat16"), 1, "y"),
    ]
    # types, not only equality (Shape(2,...) == Shape(2.0,...) would hide a float)
    s = out[0][0]
    assert [type(v) for v in (s.B, s.H, s.Sq, s.Sk, s.D, s.Hkv, s.causal)] == [int] * 6 + [bool]
    assert out[1][0].mask == NONE
    assert out[1][0].dtype == "" and out[1][2] == ""


def test_from_calls_flags_default_false_and_most_calls_first():
    calls = [{"B": 1, "H": 2, "Sq": 8, "Sk": 8, "D": 4, "dtype": "fp16", "op": "a"}] + \
            [{"B": 1, "H": 2, "Sq": 16, "Sk": 16, "D": 4, "dtype": "float16", "causal": False, "op": "b"}] * 3
    # the 16-long shape has 3 calls and comes first; causal/mask missing -> False
    assert from_calls(calls) == [(Shape(1, 2, 16, 16, 4, "float16"), 3, "b"),
                                 (Shape(1, 2, 8, 8, 4, "float16"), 1, "a")]


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


# ---- pipeline/harvest.py -----------------------------------------------------------------------------

_JIT = "\n@triton_heuristics.pointwise()\n@triton.jit\ndef {n}(x):\n    pass\n"


def _record(name, source, heuristic="pointwise"):
    return KernelRecord(name=name, kind="pointwise", heuristic=heuristic, aten_ops=[], source_nodes=[],
                        inductor_meta={}, signature={}, source_sha=hashlib.sha256(source.encode()).hexdigest()[:12],
                        wrapper="w.py", source=source)


def test_write_kernels_files_and_rows(tmp_path):
    uniq = _record("mykern", _JIT.format(n="mykern"))
    s1, s2 = _JIT.format(n="triton_poi_s"), _JIT.format(n="triton_poi_s") + "# v2\n"
    shared = [_record("triton_poi_s", s1), _record("triton_poi_s", s2)]
    nojit = _record("triton_poi_n", "def triton_poi_n(x):\n    pass\n")     # no @triton.jit: no annotated copy
    rows = harvest.write_kernels([uniq, *shared, nojit], tmp_path)
    # unique name: plain stem; the shared name: name.sha per source
    assert [r["file"] for r in rows] == ["mykern.py", f"triton_poi_s.{shared[0].source_sha}.py",
                                         f"triton_poi_s.{shared[1].source_sha}.py", "triton_poi_n.py"]
    assert [r["name_shared_by"] for r in rows] == [1, 2, 2, 1]
    assert [r["annotated_file"] for r in rows] == ["mykern.annotated.py", f"triton_poi_s.{shared[0].source_sha}"
                                                   ".annotated.py", f"triton_poi_s.{shared[1].source_sha}"
                                                   ".annotated.py", None]
    assert (tmp_path / "mykern.py").read_text() == uniq.source
    assert not (tmp_path / "triton_poi_n.annotated.py").exists()
    assert len(list(tmp_path.glob("*.py"))) == 7                          # 4 originals + 3 annotated
    ann = (tmp_path / "mykern.annotated.py").read_text()
    # the name has no Inductor prefix: the kind in launch_metadata comes from the heuristic
    assert ann.startswith("from inductor_prof.inductor.metrics import KernelMetrics\n")
    assert "@triton.jit(launch_metadata=KernelMetrics(kind='pointwise'" in ann
    assert "source" not in rows[0] and rows[0]["name"] == "mykern" and rows[0]["wrapper"] == "w.py"


def test_run_writes_only_launched_kernels(tmp_path):
    cache = tmp_path / "cache"
    cache.mkdir()
    ka, kb = _JIT.format(n="triton_poi_a"), _JIT.format(n="triton_poi_b")
    (cache / "w.py").write_text(_output_code(_kernel("triton_poi_b", kb), _kernel("triton_poi_a", ka)))
    # the profiled steps name triton_poi_a (and a library kernel): a Proton tree of two timed leaves
    leaves = [{"frame": {"name": n}, "metrics": {"time (ns)": 5, "count": 1}} for n in ("triton_poi_a", "x")]
    (tmp_path / "s.hatchet").write_text(json.dumps([{"frame": {"name": "ROOT"}, "metrics": {}, "children": leaves},
                                                    {"CUDA": {}}]))
    asked = []

    class Built:
        def launch_config(self):
            return {"XBLOCK": 128}

    class Registry:
        kernels = {"k1": [1, 2], "k2": [3]}                      # 2 + 1 = 3 instrumented
        provenance = ProvenanceRecorder()                        # nothing captured: "not tracked"

        def find(self, name, source):
            asked.append((name, source))
            return Built() if name == "triton_poi_a" else None

    logs = []
    run = SimpleNamespace(inductor_cache=cache, steps_hatchet=tmp_path / "s.hatchet", kernels_dir=tmp_path / "k",
                          kernels_json=tmp_path / "kernels.json", steps_launches=tmp_path / "s.launches.json")
    ctx = SimpleNamespace(log=logs.append, run=run, registry=Registry(), manifest=SimpleNamespace(data={}))
    (tmp_path / "k").mkdir()
    # 2 kernels harvested, only triton_poi_a is in the profiled steps
    assert harvest.run(ctx) == {"harvested": 2, "launched": 1, "instrumented": 3}
    rows = json.loads((tmp_path / "kernels.json").read_text())
    assert [r["name"] for r in rows] == ["triton_poi_a"]
    assert rows[0]["launch_config"] == {"XBLOCK": 128} and rows[0]["launched"] is True
    assert rows[0]["file"] == "triton_poi_a.py" and rows[0]["wrapper"] == "w.py"
    assert sorted(p.name for p in (tmp_path / "k").iterdir()) == ["triton_poi_a.annotated.py", "triton_poi_a.py"]
    assert logs == ["harvesting kernels"]
    assert asked == [("triton_poi_a", ka), ("triton_poi_b", kb)]  # each record by name AND source (sorted by name)
