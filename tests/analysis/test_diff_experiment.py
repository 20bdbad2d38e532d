"""`diff` of a run with a `try` experiment applied against the original: the change said, read from the original's
experiments.json. Recorded data: examples/runs/llama-h100 and its experiments (run on an H200 by `inductor-prof
try`, examples/runs/README.md); the run "with the change applied" is a copy of it profiled as the experiment's
`then` command says (its manifest's compile mode reduce-overhead), which is what the diff reads of it."""
import json
import shutil
from pathlib import Path

from cli_main import run_main

from inductor_prof.analysis import diff_experiment

ROOT = Path(__file__).resolve().parents[2]
LLAMA = ROOT / "examples" / "runs" / "llama-h100"


def _applied(dest: Path, mode: str = "reduce-overhead", experiments: bool = False) -> Path:
    shutil.copytree(LLAMA, dest)
    if not experiments:
        shutil.rmtree(dest / "experiments")
    m = json.loads((dest / "manifest.json").read_text())
    m["settings"]["compile"]["mode"] = mode
    (dest / "manifest.json").write_text(json.dumps(m))
    return dest


def test_the_diff_says_which_experiment_the_other_run_applies(tmp_path, capsys):
    b = _applied(tmp_path / "dec-ro")
    code, out, err = run_main(["diff", str(LLAMA), str(b), "--json"], capsys)
    assert code == 0, err
    got = json.loads(out)["applied_experiment"]
    assert (got["run"], got["of"], got["name"]) == ("B", "A", "cuda_graphs")
    assert got["matched_by"] == "the one setting the runs differ in (compile.mode: reduce-overhead)"
    # what try measured on the H200, from the record: 8.652 -> 8.656 ms/step, within noise
    assert "B is A with experiment cuda_graphs applied: CUDA graphs: torch.compile mode='reduce-overhead'" in got["line"]
    assert "try measured cuda_graphs: 8.652 -> 8.656 ms/step (1.000x" in got["line"]
    code, out, _ = run_main(["diff", str(LLAMA), str(b), "--width", "200"], capsys)
    assert code == 0 and "B is A with experiment cuda_graphs applied" in out
    code, out, _ = run_main(["diff", str(b), str(LLAMA), "--json"], capsys)   # either order
    assert json.loads(out)["applied_experiment"]["run"] == "A"


def test_a_mode_no_experiment_of_the_run_tried_is_not_said(tmp_path, capsys):
    b = _applied(tmp_path / "dec-ma", mode="max-autotune")
    code, out, _ = run_main(["diff", str(LLAMA), str(b), "--json"], capsys)
    assert code == 0 and "applied_experiment" not in json.loads(out)


def test_the_folder_an_experiments_then_profiles_into_is_that_experiments_run(tmp_path):
    rec = json.loads((LLAMA / "experiments" / "experiments.json").read_text())
    then = next(e for e in rec["experiments"] if e["name"] == "max_autotune")["then"]
    assert diff_experiment.out_folder(then) == "examples/runs/llama-h100-max_autotune"
    # by folder, even where more than its setting differs (here also the steps)
    got = diff_experiment.applied(
        "examples/runs/llama-h100", {}, rec, "examples/runs/llama-h100-max_autotune", {}, None,
        ["compile.mode: default -> max-autotune-no-cudagraphs", "steps: 10 -> 5"])
    assert got["experiment"]["name"] == "max_autotune" and got["matched_by"] == "the folder its `then` profiles into"
    # not by settings once another setting differs too
    assert diff_experiment.applied("a", {}, rec, "elsewhere", {"settings": {"compile": {"mode": "reduce-overhead"}}},
                                   None, ["compile.mode: default -> reduce-overhead", "steps: 10 -> 5"]) is None
    # versions (env.*) do not count as a change the user made
    assert diff_experiment.applied("a", {}, rec, "elsewhere", {"settings": {"compile": {"mode": "reduce-overhead"}}},
                                   None, ["compile.mode: default -> reduce-overhead", "env.torch: 2.11 -> 2.12"]
                                   )["experiment"]["name"] == "cuda_graphs"


def test_markdown_and_html_say_it_too(tmp_path, capsys):
    b = _applied(tmp_path / "dec-ro")
    page = tmp_path / "d.html"
    code, _, err = run_main(["diff", str(LLAMA), str(b), "--html", str(page)], capsys)
    assert code == 0, err
    assert "B is A with experiment cuda_graphs applied" in page.read_text()
    code, out, err = run_main(["diff", str(LLAMA), str(b), "--markdown", "-"], capsys)
    assert code == 0, err
    assert "**B is A with experiment cuda\\_graphs applied" in out   # Markdown escapes the underscore
