"""`diff` at 80 columns (a terminal of that width, or COLUMNS=80 through a pipe): every line fits and no number is
cut; the kernel names give up the room. Before, the kernel column kept 24 characters and rich cut the numbers
("24.2…", "-33…"), and a pipe ignored COLUMNS (lines of 99 characters)."""
import io

from rich.console import Console
from typer.testing import CliRunner

from recorded import data_path
from inductor_prof.analysis.diff import compare
from inductor_prof.analysis.diff_inputs import load_side
from inductor_prof.cli import app
from inductor_prof.report import diff_terminal

RUNS = data_path("..", "..", "examples", "runs")
A, B = RUNS / "flux-h100", RUNS / "flux-h100-768x1344"
# the largest change (re-recorded runs): cuDNN attention, one call shape in each run ([1,24,4608,128] x3 in A,
# [1,24,4544,128] x3 in B: paired by op, one size differs), so the call holds all of its kernel's time:
# 255,969,164 ns over 10 steps in A = 25.597 ms per step -> 277,894,610 / 10 = 27.789 in B, +2.193 ms,
# +8.57 %, noise 1.3 (the kernel's per-step spread), share 27.789 / 133.6 (B's plain step) = 20.8 %
TOP_ROW = "25.597  27.789  +2.193   +8.6    1.3   20.8  slower"


def _lines(text: str, width: int) -> list[str]:
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= width
    return lines


def test_eighty_column_console_keeps_every_number():
    console = Console(width=80, record=True, file=io.StringIO())
    diff_terminal.render(compare(load_side(A, "A"), load_side(B, "B")), console)
    lines = _lines(console.export_text(), 80)
    top = next(line for line in lines if line.startswith(" _cudnn_at"))
    assert top.rstrip().endswith(TOP_ROW)
    assert not any("…" in cell for cell in top.split()[1:])     # the name column alone is cut


def test_columns_is_honoured_through_a_pipe():
    r = CliRunner().invoke(app, ["diff", str(A), str(B)], env={"COLUMNS": "80"})
    assert r.exit_code == 0, r.output
    assert any(line.rstrip().endswith(TOP_ROW) for line in _lines(r.stdout, 80))


def test_eighty_columns_names_every_kernel_apart():
    """Cut to 19 cells at 80 columns, the 20 matched kernels shown read as 16 names: three rows
    'nvjet_sm9…_bias_TNT', two 'nvjet_sm9…_bias_TNN', two 'triton_re…squeeze_1' (different kernels whose names
    differ only in the middle) could not be told apart. Names that cutting makes equal are numbered (a row's
    first line: a library call's op and shapes, else the kernel)."""
    console = Console(width=80, record=True, file=io.StringIO())
    diff_terminal.render(compare(load_side(A, "A"), load_side(B, "B")), console)
    lines = _lines(console.export_text(), 80)
    start = next(i for i, line in enumerate(lines) if line.startswith("Matched ("))
    end = next(i for i in range(start + 4, len(lines)) if not lines[i].strip())
    table = lines[start + 4:end]     # after the title, a blank line, the header and its rule; up to a blank line
    names = [line.split("  ")[0].strip() for line in table if not line.startswith("   ")]   # not a note line
    assert len(names) == 20 and len(set(names)) == 20, names
