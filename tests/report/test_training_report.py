"""A training run's report (examples/runs/llama-train-h200, recorded on an H200): the phase of each kernel in the
terminal table, the JSON and the CSV, the phases in the summary, the training items in the terminal and HTML,
each figure as the recorded run gives it (hand checks in the comments)."""
import json

from typer.testing import CliRunner

from inductor_prof.cli import app
from recorded import REPO

RUN = REPO / "examples" / "runs" / "llama-train-h200"
runner = CliRunner()


def test_json_has_phases_per_kernel_and_per_step():
    r = runner.invoke(app, ["report", str(RUN), "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    phases = out["summary"]["phases"]
    assert list(phases) == ["forward", "backward", "optimizer"]
    # manifest profile.phase_memory, as measured: the peak per phase, and what the forward leaves allocated for
    # backward (its end minus its start)
    memory = json.loads((RUN / "manifest.json").read_text())["profile"]["phase_memory"]
    assert {p: phases[p]["peak_memory_bytes"] for p in phases} == {p: memory[p]["peak_bytes"] for p in memory}
    assert phases["forward"]["saved_bytes"] == memory["forward"]["end_bytes"] - memory["forward"]["start_bytes"]
    # the compiled AdamW: 3 foreach launches a step, all in the optimizer phase
    assert phases["optimizer"]["launches_per_step"] == 3
    kernels = {k["name"]: k for k in out["kernels"]}
    assert {kernels[n]["phase"] for n in kernels if n.startswith("triton_for_")} == {"optimizer"}
    assert any(k["phase"] == "backward" and "silu_backward" in k["name"] for k in kernels.values())
    # the decoder's attention backward, priced: 2.5x its forward's flops
    attention = [k for k in out["kernels"] if k["category"] == "attention" and k["flops"] > 0]
    fwd = sum(k["flops"] for k in attention if k["phase"] == "forward")
    bwd = sum(k["flops"] for k in attention if k["phase"] == "backward")
    assert bwd == 2.5 * fwd
    assert [t["phase"] for t in out["summary"]["training"]] == ["backward", "backward", "optimizer",
                                                               "forward+backward"]


def test_terminal_csv_and_html_show_the_phases(tmp_path):
    r = runner.invoke(app, ["report", str(RUN), "--top", "5"], env={"COLUMNS": "200"})
    assert r.exit_code == 0, r.output
    assert "Training step: where to look next by phase" in r.output
    assert "activations kept for backward: 3.18 GiB" in r.output
    assert "training phases" in r.output and "│ phase" in r.output.replace("┃ phase", "│ phase")
    r = runner.invoke(app, ["report", str(RUN), "--csv", str(tmp_path / "k.csv"), "--html", str(tmp_path / "r.html")])
    assert r.exit_code == 0, r.output
    header = (tmp_path / "k.csv").read_text().splitlines()[0].split(",")
    assert "phase" in header
    page = (tmp_path / "r.html").read_text()
    assert "Training step, by phase" in page and "activations kept for backward: 3.18 GiB" in page
