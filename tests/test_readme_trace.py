"""The trace section (docs/usage.md, moved from the README) against the trace `inductor-prof trace` writes of
examples/runs/flux-h100: the counts and the selected GEMM's numbers it quotes under the Perfetto screenshots
(scripts/screenshot_trace.py made them; Perfetto itself is not run here), and the pictures it shows are in docs/
and small."""
import json
from pathlib import Path
from collections import Counter

import pytest

from recorded import REPO
from inductor_prof.cli import main

FLUX = REPO / "examples" / "runs" / "flux-h100"
PICTURES = ("docs/trace-perfetto.png", "docs/trace-perfetto-args.png")


@pytest.fixture(scope="module")
def section() -> str:
    text = (REPO / "docs" / "usage.md").read_text()
    start = text.index("## A trace of the step")
    return " ".join(text[start:text.index("\n## ", start + 1)].split())


@pytest.fixture(scope="module")
def events(tmp_path_factory):
    out = tmp_path_factory.mktemp("trace") / "flux.trace.json"
    with pytest.raises(SystemExit) as e:   # the installed command's function, as tests/cli_main.py runs it
        main(["trace", str(FLUX), "--out", str(out)])
    assert e.value.code == 0
    return json.loads(out.read_text())["traceEvents"]


def test_counts_quoted(events, section):
    slices = [e for e in events if e["ph"] == "X"]
    flows = sum(e["ph"] == "s" for e in events)
    assert f"all {len(slices):,} slices" in section and f"{flows:,} flows" in section
    assert (len(slices), flows) == (5219, 1521)   # what Perfetto's trace processor counted on 2026-11-24
    block = next(e for e in slices if e["name"] == "double_3" and e["cat"] == "scope")
    inside = Counter(e["cat"] for e in slices if e["pid"] == block["pid"] and e["cat"] != "scope"
                     and block["ts"] <= e["ts"] < block["ts"] + block["dur"])
    memsets = inside.pop("gpu_memset")
    assert f"its {sum(inside.values())} kernels and {memsets} memsets" in section


def test_selected_gemm_quoted(events, section):
    gemm = next(e for e in events if e["ph"] == "X" and e["args"].get("scope") == "step_0/double_3"
                and e["args"].get("module") == "*.ff_context.net.0.proj")
    assert gemm["cat"] == "GEMM"
    assert f"{gemm['args']['TFLOP/s']:.0f} TFLOP/s, {gemm['args']['% of ceiling']:.1f}% of the" in section


@pytest.mark.parametrize("picture", PICTURES)
def test_pictures_shown_and_small(picture, section):
    assert f"]({Path(picture).relative_to('docs')})" in section   # the link beside docs/usage.md
    assert (REPO / picture).stat().st_size < 400_000
