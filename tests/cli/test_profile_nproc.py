"""`profile --nproc N` at the command line: more ranks than GPUs is one line naming the flag, exit 2, before any
folder is made (the torchrun runs themselves: tests/pipeline/test_ranks.py)."""
from cli_main import run_main


def test_nproc_above_the_gpus_present_is_refused_before_anything_starts(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr("torch.cuda.device_count", lambda: 2)
    out = tmp_path / "run"
    code, stdout, err = run_main(["profile", "examples.models.llama_decoder:decoder", "--nproc", "4",
                                  "--out", str(out)], capsys)
    assert (code, stdout) == (2, "")
    assert err == "error: --nproc 4 needs 4 GPUs; 2 visible here (torch.cuda.device_count())\n"
    assert not out.exists()


def test_train_over_more_ranks_than_gpus_is_refused_before_anything_starts(tmp_path, capsys, monkeypatch):
    # --train --nproc N goes the way of --nproc N (pipeline/ranks.py's check), before any folder or torchrun
    monkeypatch.setattr("torch.cuda.device_count", lambda: 2)
    out = tmp_path / "run"
    code, stdout, err = run_main(["profile", "examples.models.llama_train:decoder_train", "--train", "--nproc", "3",
                                  "--out", str(out)], capsys)
    assert (code, stdout) == (2, "")
    assert err == "error: --nproc 3 needs 3 GPUs; 2 visible here (torch.cuda.device_count())\n"
    assert not out.exists()
