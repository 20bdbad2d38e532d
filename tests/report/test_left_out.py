"""The report says what it left out: the --top cut (terminal line, --json counts) and the kernels ncu did not
profile, with their reason, in the terminal (was only --json's ncu_status)."""
import csv
import json
import shutil

from typer.testing import CliRunner

from recorded import data_path
from inductor_prof.cli import app

runner = CliRunner()

# flux_small: 57 kernels, 18 of them Inductor (triton_*) and 39 library; ncu.csv has one row
# (triton_poi_fused_gelu_view_12, ok)
KERNELS, INDUCTOR, LIBRARY = 57, 18, 39


def test_json_counts_the_kernels_shown_and_in_the_run():
    r = runner.invoke(app, ["report", str(data_path("flux_small")), "--json", "--top", "5"])
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert (doc["kernels_total"], doc["kernels_shown"], len(doc["kernels"])) == (KERNELS, 5, 5)
    doc = json.loads(runner.invoke(app, ["report", str(data_path("flux_small")), "--json", "--top", "0"]).stdout)
    assert (doc["kernels_total"], doc["kernels_shown"]) == (KERNELS, KERNELS)


def test_terminal_says_when_top_cuts():
    r = runner.invoke(app, ["report", str(data_path("flux_small")), "--top", "5", "--width", "200"])
    assert r.exit_code == 0, r.output
    assert "5 of 57 kernels (--top" in r.stdout
    r = runner.invoke(app, ["report", str(data_path("flux_small")), "--top", "0", "--width", "200"])
    assert " of 57 kernels" not in r.stdout        # nothing cut, nothing said


def _with_ncu_failures(tmp_path):
    run = tmp_path / "run"
    shutil.copytree(data_path("flux_small"), run)
    table = run / "ncu" / "ncu.csv"
    rows = list(csv.DictReader(table.open()))
    blank = {k: "" for k in rows[0]}
    rows.append({**blank, "name": "triton_poi_fused_silu_0", "stem": "triton_poi_fused_silu_0", "status": "failed",
                 "reason": "ERR_NVGPUCTRPERM: no permission for the counters"})
    rows.append({**blank, "name": "triton_poi_fused_gelu_view_10", "stem": "triton_poi_fused_gelu_view_10",
                 "status": "not_tried", "reason": "not tried: 3 failures in a row"})
    with table.open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    status = json.loads((run / "ncu" / "status.json").read_text())
    for r in rows[1:]:
        status[r["stem"]] = {"name": r["name"], "status": r["status"], "reason": r["reason"], "origin": "inductor"}
    (run / "ncu" / "status.json").write_text(json.dumps(status))
    return run


def test_kernels_ncu_did_not_profile_are_listed_with_their_reason(tmp_path):
    run = _with_ncu_failures(tmp_path)
    r = runner.invoke(app, ["report", str(run), "--top", "0", "--width", "200"])
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    assert any("Not profiled by Nsight Compute (2 of 57 kernels shown)" in line for line in lines)
    silu = next(line for line in lines if "triton_poi_fused_silu_0" in line and "ERR_NVGPUCTRPERM" in line)
    assert "failed" in silu
    assert any("triton_poi_fused_gelu_view_10" in line and "not tried" in line and "3 failures in a row" in line
               for line in lines)
    # no ncu row: every library kernel, and the Inductor kernels besides the three with a row
    no_row = next(line for line in lines if line.startswith("No Nsight Compute row"))
    assert f"{LIBRARY} library kernels not replayed" in no_row
    assert f"{INDUCTOR - 3} Inductor kernels with no file" in no_row


def test_a_run_without_ncu_says_nothing_of_it(tmp_path):
    run = tmp_path / "run"
    shutil.copytree(data_path("flux_small"), run)
    shutil.rmtree(run / "ncu")
    r = runner.invoke(app, ["report", str(run), "--top", "0", "--width", "200"])
    assert "Nsight Compute" not in r.stdout
