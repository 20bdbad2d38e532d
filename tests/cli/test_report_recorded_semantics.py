"""The recorded H100 Llama-style decoder runs (examples/runs/llama-h100, llama-padded-h100; README there says how
they were made): the attention semantics captured from the model, the FLOPs of its causal / causal+padding
attention (contract B) counted here by hand, the report's TFLOP/s of the model's cuDNN kernel against its time
summed from the raw Proton hatchet, the attention table's rows, and the provenance of every kernel (Triton ones
traced to modules and source lines, library GEMMs joined to the modules whose shapes they have)."""
import csv
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from inductor_prof.cli import app
from recorded import REPO

RUNS = REPO / "examples" / "runs"
LLAMA, PADDED = RUNS / "llama-h100", RUNS / "llama-padded-h100"

# the model (examples/models/llama_decoder.py): Llama-3.2-1B shapes, 8 layers, 2 x 2048 tokens
B, S, HQ, HKV, D, HIDDEN, MLP, LAYERS = 2, 2048, 32, 8, 64, 2048, 8192, 8
PADDED_TOKENS = 100          # the last 100 tokens of sequence 1 are padding in decoder_padded
CUDNN = "cudnn_generated_fort_native_sdpa_sm90_flash_fprop_wgmma_f16_knob_7_64x128x64_4x1x1_cga1x1x1_kernel0_0"
OWN_KERNELS = ("triton_fa2", "gluon_fa3", "cuda_mma_fa2")   # the own FlashAttention kernels of registry.py

# kept query-key pairs counted by hand, summed over the batch:
# causal (top-left, Sq == Sk): query i sees keys 0..i, so sum_{i<S}(i+1) = S(S+1)/2 per sequence
CAUSAL_PAIRS = B * S * (S + 1) // 2                                    # 2 * 2098176 = 4196352
# causal+padding: sequence 0 as above; sequence 1 sees keys j <= i and j < 1948 (keys 1948..2047 padded):
# queries 0..1947 keep i+1 keys (1948*1949/2 = 1898326), queries 1948..2047 keep 1948 each (100*1948 = 194800)
KEPT = S - PADDED_TOKENS
PADDED_PAIRS = S * (S + 1) // 2 + KEPT * (KEPT + 1) // 2 + PADDED_TOKENS * KEPT    # 2098176 + 2093126
CAUSAL_FLOPS = 4 * D * HQ * CAUSAL_PAIRS     # contract B: 4*D*B*Hq*(pairs per sequence) = 34376515584
PADDED_FLOPS = 4 * D * HQ * PADDED_PAIRS     # 34335145984

runner = CliRunner()


def test_hand_counts():
    # the same counts from the formulas of the brief, written out
    assert CAUSAL_FLOPS == 4 * D * B * HQ * (S * (S + 1) // 2) == 34376515584
    assert PADDED_PAIRS == 4191302 and PADDED_FLOPS == 34335145984
    # brute force over the mask's definition (small enough: 2 x 2048 rows, counted per row)
    assert sum(min(i + 1, S) for i in range(S)) + sum(min(i + 1, KEPT) for i in range(S)) == PADDED_PAIRS


def report_json(run: Path) -> dict:
    r = runner.invoke(app, ["report", str(run), "--json"])
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


@pytest.fixture(scope="module")
def llama_report():
    return report_json(LLAMA)


@pytest.fixture(scope="module")
def padded_report():
    return report_json(PADDED)


def hatchet_leaves(path: Path, name: str) -> tuple[float, int]:
    """(time ns, launches) of every leaf frame called `name` in a raw .hatchet (JSON [tree, device]), walked
    here without the project's parser."""
    tree = json.loads(path.read_text())[0]
    ns, calls, stack = 0.0, 0, [tree]
    while stack:
        node = stack.pop()
        kids = node.get("children") or []
        if node["frame"]["name"] == name and not kids:
            ns += node["metrics"]["time (ns)"]
            calls += node["metrics"]["count"]
        stack.extend(kids)
    return ns, calls


def library_rows(run: Path) -> list[dict]:
    with open(run / "library_ops.csv", newline="") as f:
        return list(csv.DictReader(f))


def attention_rows(run: Path) -> list[dict]:
    with open(run / "attention.csv", newline="") as f:
        return list(csv.DictReader(f))


def kernel(report: dict, name: str) -> dict:
    (row,) = [k for k in report["kernels"] if k["name"] == name]
    return row


# ---- 1. llama-h100: causal GQA ----

def test_llama_attention_calls_causal_gqa():
    calls = json.loads((LLAMA / "attention_shapes.json").read_text())
    assert len(calls) == LAYERS          # one SDPA call per decoder layer
    for c in calls:
        assert (c["B"], c["H"], c["Hkv"], c["Sq"], c["Sk"], c["D"]) == (B, HQ, HKV, S, S, D)
        assert c["causal"] is True and c["mask"] is False and c["mask_kind"] == "causal"
        assert c["enable_gqa"] is True and c["kv_repeated"] is False and c["scale"] == 1 / D ** 0.5
        assert c["captured"] == "trace+eager" and c["kernel"] == CUDNN
        assert c["mask_pairs"] == CAUSAL_PAIRS


def test_llama_cudnn_rows_carry_the_causal_flops():
    rows = [r for r in library_rows(LLAMA) if r["kernel"] == CUDNN]
    assert len(rows) == LAYERS           # library_ops maps one step: one launch per layer
    for r in rows:
        assert r["op"] == "aten::_cudnn_attention_forward" and r["flops_key"] == "flops16"
        assert int(r["flops"]) == CAUSAL_FLOPS
        # q (B,Hq,S,D), k and v (B,Hkv,S,D): the kernel ran GQA, heads not repeated
        assert json.loads(r["dims"])[:3] == [[B, HQ, S, D], [B, HKV, S, D], [B, HKV, S, D]]


def test_llama_report_tflops_of_the_cudnn_kernel(llama_report):
    k = kernel(llama_report, CUDNN)
    steps = llama_report["summary"]["steps"]
    assert steps == 10
    ns, calls = hatchet_leaves(LLAMA / "proton" / "steps.hatchet", CUDNN)
    assert calls == LAYERS * steps == k["calls"]
    assert k["total_ns"] == ns
    # flops: the hand count per call x 8 calls a step x 10 steps; TFLOP/s = that / the hatchet's time
    assert k["flops"] == CAUSAL_FLOPS * LAYERS * steps and k["flops_key"] == "flops16"
    assert k["tflops"] == pytest.approx(CAUSAL_FLOPS * LAYERS * steps / (ns * 1e-9) / 1e12, rel=1e-12)
    assert k["category"] == "attention"


def test_llama_attention_table(llama_report):
    rows = attention_rows(LLAMA)
    assert {r["backend"] for r in rows} >= set(OWN_KERNELS) | {"sdpa_cudnn"}
    for r in rows:
        assert (r["causal"], r["Hkv"], r["H"], r["mask"]) == ("True", str(HKV), str(HQ), "")
        assert int(r["flops"]) == CAUSAL_FLOPS
        assert r["ok"] == "True" or r["reason"], r["backend"]       # ok, or why not
        if r["ok"] == "True":
            assert float(r["tflops"]) == pytest.approx(CAUSAL_FLOPS / (float(r["ms"]) * 1e-3) / 1e12, rel=1e-9)
    own = {r["backend"]: r for r in rows if r["backend"] in OWN_KERNELS}
    assert all(r["ok"] == "True" and r["available"] == "True" for r in own.values())
    # the report's attention records are the CSV's
    by_backend = {a["backend"]: a for a in llama_report["attention"]}
    for name, r in own.items():
        assert by_backend[name]["tflops"] == pytest.approx(float(r["tflops"]))


# ---- 2. llama-padded-h100: causal + padding mask, kv heads repeated ----

def test_padded_attention_calls():
    calls = json.loads((PADDED / "attention_shapes.json").read_text())
    assert len(calls) == LAYERS
    for c in calls:
        assert c["mask_kind"] == "causal_padding" and c["key_lengths"] == [S, KEPT]
        assert c["padding_left"] is False and c["mask"] is True and c["causal"] is False
        # transformers repeated k and v to 32 heads; the capture sees through it to the model's 8
        assert c["kv_repeated"] is True and c["enable_gqa"] is False and (c["H"], c["Hkv"]) == (HQ, HKV)
        assert c["mask_pairs"] == PADDED_PAIRS


def test_padded_cudnn_rows_and_report(padded_report):
    rows = [r for r in library_rows(PADDED) if r["kernel"] == CUDNN]
    assert len(rows) == LAYERS
    for r in rows:
        assert int(r["flops"]) == PADDED_FLOPS
        # the call the kernel ran: k, v repeated to 32 heads, a (B,1,S,S) mask
        assert json.loads(r["dims"])[:4] == [[B, HQ, S, D], [B, HQ, S, D], [B, HQ, S, D], [B, 1, S, S]]
    k = kernel(padded_report, CUDNN)
    steps = padded_report["summary"]["steps"]
    ns, calls = hatchet_leaves(PADDED / "proton" / "steps.hatchet", CUDNN)
    assert (steps, calls, k["calls"], k["total_ns"]) == (5, LAYERS * 5, LAYERS * 5, ns)
    assert k["flops"] == PADDED_FLOPS * LAYERS * steps
    assert k["tflops"] == pytest.approx(PADDED_FLOPS * LAYERS * steps / (ns * 1e-9) / 1e12, rel=1e-12)


def test_padded_attention_table():
    rows = attention_rows(PADDED)
    for r in rows:
        assert (r["mask"], r["key_lengths"], r["kv_repeated"]) == ("causal_padding", f"{S},{KEPT}", "True")
        assert int(r["flops"]) == PADDED_FLOPS
        assert r["ok"] == "True" or r["reason"], r["backend"]
        if r["ok"] == "True":
            assert float(r["tflops"]) == pytest.approx(PADDED_FLOPS / (float(r["ms"]) * 1e-3) / 1e12, rel=1e-9)
    own = [r for r in rows if r["backend"] in OWN_KERNELS]
    assert len(own) == len(OWN_KERNELS)
    for r in own:      # they take causal and GQA, not a mask: listed, not run
        assert r["available"] == "False" and r["ok"] == "False"
        assert r["reason"].startswith("cannot take mask")
    ran = {r["backend"] for r in rows if r["ok"] == "True"}
    assert {"sdpa_cudnn", "flex_compiled"} <= ran      # the others ran with the mask


# ---- 3. provenance ----

def harvested(run: Path) -> list[dict]:
    return json.loads((run / "kernels" / "kernels.json").read_text())


def test_every_triton_kernel_traced_to_a_decoder_layer():
    records = harvested(LLAMA)
    assert len(records) == 6
    for k in records:
        p = k["provenance"]
        assert p["source"] == "traced" and p["block"] == "layers.*", k["name"]
        assert p["modules"] and all(m == "layers.*" or m.startswith("layers.*.") for m in p["modules"])
        files = {f["file"].rsplit("/transformers/", 1)[-1] for f in p["frames"]}
        # the model's own source; besides it only transformers' act_fn (activations.py, the silu kernel) and
        # its SDPA wrapper (integrations/sdpa_attention.py, the kernels feeding the attention call)
        assert "models/llama/modeling_llama.py" in files, (k["name"], files)
        assert files <= {"models/llama/modeling_llama.py", "activations.py", "integrations/sdpa_attention.py"}
        assert any(line.startswith("modeling_llama.py:") for line in p["source_lines"]), k["name"]


def _rms_norm_kernels() -> dict[str, dict]:
    # RMSNorm is x * rsqrt(mean(x^2) + eps): the reductions that fuse pow, mean and rsqrt
    return {k["name"]: k for k in harvested(LLAMA)
            if {"aten.pow", "aten.mean", "aten.rsqrt"} <= set(k["aten_ops"])}


def test_rms_norm_kernels_map_to_the_layer_norms():
    norms = _rms_norm_kernels()
    assert len(norms) == 2
    for k in norms.values():
        code = " ".join(f["code"] for f in k["provenance"]["frames"])
        assert "pow(2).mean(-1" in code and "rsqrt" in code       # LlamaRMSNorm.forward's lines
    # the one that also fuses the residual add of the o_proj output (_unsafe_view + add before the norm) is the
    # norm after attention; the one reading the layer input directly is the input norm
    post = [k for k in norms.values() if "aten._unsafe_view" in k["aten_ops"]]
    (first,) = [k for k in norms.values() if "aten._unsafe_view" not in k["aten_ops"]]
    (post,) = post
    assert first["provenance"]["modules"] == ["layers.*.input_layernorm"]
    assert first["provenance"]["module"] == "layers.*.input_layernorm"
    assert "layers.*.post_attention_layernorm" in post["provenance"]["modules"]
    assert "layers.*.self_attn.o_proj" in post["provenance"]["modules"]
    assert not any("input_layernorm" in m for m in post["provenance"]["modules"])


def test_library_gemms_joined_to_their_modules():
    # (K, N) of each nn.Linear of a LlamaDecoderLayer, from the config by hand (weights are (N, K); the mm is
    # (B*S, K) x (K, N)): q_proj and o_proj 2048->2048 (32 heads x 64), k_proj and v_proj 2048->512 (8 x 64),
    # gate_proj and up_proj 2048->8192, down_proj 8192->2048
    linear = {"self_attn.q_proj": (HIDDEN, HQ * D), "self_attn.k_proj": (HIDDEN, HKV * D),
              "self_attn.v_proj": (HIDDEN, HKV * D), "self_attn.o_proj": (HQ * D, HIDDEN),
              "mlp.gate_proj": (HIDDEN, MLP), "mlp.up_proj": (HIDDEN, MLP), "mlp.down_proj": (MLP, HIDDEN)}
    tokens = B * S
    mms = [r for r in library_rows(LLAMA) if r["op"] == "aten::mm"]
    # 7 linears a layer, 8 layers
    assert len(mms) == 7 * LAYERS
    for r in mms:
        (m, k), (k2, n), out = json.loads(r["dims"])
        assert (m, k2, out) == (tokens, k, [tokens, n])
        want = sorted(f"layers.*.{name}" for name, shape in linear.items() if shape == (k, n))
        assert want and sorted(json.loads(r["modules"])) == want, r["dims"]
        assert int(r["flops"]) == 2 * m * k * n
    gate_up = [r for r in mms if json.loads(r["dims"])[:2] == [[tokens, HIDDEN], [HIDDEN, MLP]]]
    assert len(gate_up) == 2 * LAYERS
    assert all(sorted(json.loads(r["modules"])) == ["layers.*.mlp.gate_proj", "layers.*.mlp.up_proj"]
               for r in gate_up)
