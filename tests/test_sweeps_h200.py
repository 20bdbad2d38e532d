"""The H200 attention sweeps' figures examples/sweeps/README.md quotes, read again from the CSVs it names (recorded
on the device on 2026-11-28): each TFLOP/s to the tenth and each ratio to the thousandth, so a quote that drifts
from its file, or a file replaced without its quotes, fails here."""
import csv

import pytest

from recorded import REPO

SWEEPS = REPO / "examples" / "sweeps"
README = " ".join((SWEEPS / "README.md").read_text().split())


def _rows(name: str) -> list[dict]:
    with open(SWEEPS / name, newline="") as f:
        return list(csv.DictReader(f))


def test_the_causal_lengths_before_are_quoted_from_their_file():
    rows = {(r["shape"], r["backend"]): float(r["tflops"]) for r in _rows("causal-lengths-h200-before.csv")}
    for s, quoted in ((1024, "1.299x"), (2048, "1.237x"), (4096, "1.135x"), (8192, "1.058x"), (16384, "1.047x"),
                      (32768, "0.975x")):
        shape = f"(1,32,{s},128),causal"
        ratio = rows[(shape, "gluon_fa3")] / rows[(shape, "sdpa_cudnn")]
        assert f"{ratio:.3f}x" == quoted and quoted in README
    assert "592.1 against 607.1" in README
    assert round(rows[("(1,32,32768,128),causal", "gluon_fa3")], 1) == 592.1


def test_the_tile_orders_at_32k_and_16k_are_quoted_from_their_file():
    rows = {(r["S"], r["variant"]): r for r in _rows("causal-orders-h200.csv")}
    def tf(s, v):
        return float(rows[(s, v)]["tflops"])
    cudnn = tf("32768", "sdpa_cudnn")
    tuned = next(v for (s, v) in rows if s == "32768" and v.startswith("gluon_fa3 tuned"))
    assert "c12" in tuned and f"{tf('32768', tuned):.1f} against cuDNN's {cudnn:.1f} ({tf('32768', tuned) / cudnn:.3f}x)" \
        in README
    for chunk, quoted in (("1", "552.3 (0.925x)"), ("12", "575.3 (0.964x)")):
        v = tf("32768", f"gluon_fa3 q_chunk={chunk} (forced)")
        assert f"{v:.1f} ({v / cudnn:.3f}x)" == quoted and quoted in README
    # at 16k: the tuned pick against q_chunk 12 forced, each over cuDNN's 577.8
    c16 = tf("16384", "sdpa_cudnn")
    tuned16 = next(v for (s, v) in rows if s == "16384" and v.startswith("gluon_fa3 tuned"))
    assert "/c" not in tuned16 and f"{tf('16384', tuned16):.1f} ({tf('16384', tuned16) / c16:.3f}x)" in README
    assert f"{tf('16384', 'gluon_fa3 q_chunk=12 (forced)'):.1f} (1.070x)" in README
    assert all(r["ok"] == "True" and r["same_bits"] in ("True", "") for r in rows.values())


@pytest.mark.parametrize("d, dense, causal", [(64, "0.967x", "1.012x"), (80, "0.999x", "1.144x"),
                                              (96, "1.009x", "1.125x"), (128, "1.021x", "1.060x"),
                                              (192, "0.822x", "0.797x"), (256, "0.993x", "0.983x")])
def test_the_head_dims_are_quoted_from_their_file(d, dense, causal):
    rows = {(r["shape"], r["dtype"], r["backend"]): float(r["tflops"]) for r in _rows("attention-h200.csv")}
    for shape, quoted in ((f"(4,16,2048,{d})", dense), (f"(4,16,2048,{d}),causal", causal)):
        ratio = rows[(shape, "bfloat16", "gluon_fa3")] / rows[(shape, "bfloat16", "sdpa_cudnn")]
        assert f"{ratio:.3f}x" == quoted
    assert f"D={d}" in README and f"{dense} and {causal}" in README
