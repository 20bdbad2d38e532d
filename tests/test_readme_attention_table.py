"""The attention table (docs/attention.md, moved from the README) against the rows of
examples/sweeps/attention-h100.csv it is made from: each backend's TFLOP/s to the unit and each own kernel's speed
over cuDNN (cuDNN's time over the kernel's, from the times, not from the recorded speed-up column) to two decimals."""
import csv
from recorded import REPO

ROOT = REPO
COLUMNS = ("gluon_fa3", "triton_fa2", "sdpa_cudnn", "sdpa_flash")  # the table's TFLOP/s columns, in order
DTYPES = {"bf16": "bfloat16", "fp16": "float16"}


def _table() -> list[list[str]]:
    head = "| shape (B,H,S,D) | dtype | gluon_fa3 | triton_fa2 | sdpa_cudnn | sdpa_flash |"
    lines = (ROOT / "docs" / "attention.md").read_text().splitlines()
    start = next(i for i, ln in enumerate(lines) if ln.startswith(head)) + 2  # past the header and the rule
    rows = []
    for ln in lines[start:]:
        if not ln.startswith("| ("):
            break
        rows.append([c.strip() for c in ln.strip("|").split("|")])
    return rows


def _sweep() -> dict[tuple[str, str, str], dict[str, str]]:
    with open(ROOT / "examples" / "sweeps" / "attention-h100.csv", newline="") as f:
        return {(r["shape"], r["dtype"], r["backend"]): r for r in csv.DictReader(f)}


def test_every_readme_row_matches_the_sweep():
    rows, sweep = _table(), _sweep()
    assert len(rows) == len({(r["shape"], r["dtype"]) for r in sweep.values()})  # every shape, once
    for shape, dtype, *cells in rows:
        got = {b: sweep.get((shape, DTYPES[dtype], b)) for b in COLUMNS}
        for b, cell in zip(COLUMNS, cells):
            want = f"{float(got[b]['tflops']):.0f}" if got[b] else "-"
            assert cell == want, (shape, dtype, b)
        cudnn_ms = float(got["sdpa_cudnn"]["ms"])
        for b, cell in zip(("gluon_fa3", "triton_fa2"), cells[4:6]):
            want = f"{cudnn_ms / float(got[b]['ms']):.2f}" if got[b] else "-"
            assert cell == want, (shape, dtype, b)


def test_two_cta_rows_are_marked():
    # the head-dim-64 shapes where the tuner picked two CTAs per SM (512 and 1,024 tokens dense, 2,048 and 4,096
    # causal in the 2026-11-22 re-run; in fp16, 1,024 dense and 2,048 causal) say so in the tiles column
    marked, sweep = {(r[0], r[1]) for r in _table() if r[8] == "64 rows, 2 CTAs/SM"}, _sweep()
    assert marked == {("(2,32/8,512,64)", "bf16"), ("(2,32/8,1024,64)", "bf16"),
                      ("(2,32/8,2048,64),causal", "bf16"), ("(2,32/8,4096,64),causal", "bf16"),
                      ("(2,32/8,1024,64)", "fp16"), ("(2,32/8,2048,64),causal", "fp16")}
    for shape, dtype in marked:
        assert sweep[(shape, DTYPES[dtype], "gluon_fa3")]["config"].endswith("/2cta")
