"""The diff gate on a damaged copy of a run against the recorded one: it never fails a made-up regression (exit
1). It judges (exit 0) when the damage changed no number, else it refuses (exit 2) naming the file."""
from __future__ import annotations

import pytest

from cli_main import run_main
from damaged.runs import RUN, copy_run, cut_line_end, cell, linked_run, negative, rewrite
from damaged.test_damaged_files import FILES

DAMAGES = (cut_line_end, cell(b"abc"), negative)


def test_an_intact_copy_passes_the_gate(tmp_path, capsys):
    code, out, err = run_main(["diff", str(RUN), str(copy_run(tmp_path / "run")), "--fail-above", "5"], capsys)
    assert code == 0, err


@pytest.mark.parametrize("damage", DAMAGES, ids=[d.__name__ for d in DAMAGES])
@pytest.mark.parametrize("rel", FILES)
def test_gate_on_a_damaged_copy(tmp_path, capsys, rel, damage):
    run = linked_run(tmp_path / "run")
    path = run / rel
    rewrite(path, damage(path.read_bytes()))
    code, out, err = run_main(["diff", str(RUN), str(run), "--fail-above", "5"], capsys)
    assert code in (0, 2) and "Traceback" not in err, err
    if code == 2:
        assert err.startswith("error: ") and rel in err.splitlines()[-1], err
