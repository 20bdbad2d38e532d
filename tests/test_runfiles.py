"""runfiles.py, the one reader of a run folder: a run file of each kind that is damaged or cut short, read through
it, is one line naming the file (a warning for an optional file, an error for a required one), never its first
cells shown as data; the stages that read an earlier stage's files get the same checks; and no other module of
the package opens a run file (an AST check, itself tried on planted reads). Each case starts from a copy of the
recorded flux_small run."""
import ast
import json
import shutil
from pathlib import Path

import pytest

from recorded import data_path
from inductor_prof import runfiles
from inductor_prof.analysis import load_run_tables
from inductor_prof.analysis.diff_inputs import load_side
from inductor_prof.drivers.proton import launches
from inductor_prof.errors import UserError
from inductor_prof.pipeline.ncu import targets
from inductor_prof.rundir import RunDir

PACKAGE = Path(runfiles.__file__).parent
NCU_LACK = "that kernel is shown without Nsight Compute columns"
LIBRARY_LACK = "library kernels (cuBLAS, cuDNN...) are shown without flops and bytes"


@pytest.fixture
def run(tmp_path) -> RunDir:
    shutil.copytree(data_path("flux_small"), tmp_path / "run")
    return RunDir(tmp_path / "run")


def _ncu_row(run: RunDir) -> tuple[str, str]:
    """(header, the one kernel row) of the recorded ncu.csv."""
    header, row = run.ncu_csv.read_text().splitlines()
    return header, row


def test_ncu_csv_cut_mid_row_is_a_warning_not_data(run):
    header, row = _ncu_row(run)
    name = row.split(",")[0]
    cells = row.split(",")
    read_at = header.split(",").index("dram_read_bytes")
    # cut inside dram_read_bytes: its first two digits would read as a number (the "0.6/61.3 MB" of issue 32)
    cut = ",".join(cells[:read_at]) + "," + cells[read_at][:2]
    run.ncu_csv.write_text(f"{header}\n{cut}")
    t = load_run_tables(run.root)
    # the header is line 1, the kernel's row line 2
    assert t.warnings == [f"{run.ncu_csv} line 2 ({name}) is cut short; {NCU_LACK}"]
    assert t.kernels.reindex(columns=["ncu_dram_read_bytes"]).isna().all().all()   # not 0.31 MB or so


def test_ncu_csv_cut_in_its_last_cell_is_a_warning_not_data(run):
    header, row = _ncu_row(run)
    assert not row.endswith(",")
    run.ncu_csv.write_text(f"{header}\n{row[:-1]}")   # every cell there, the last one short of a digit: only
    t = load_run_tables(run.root)                      # the missing line end tells
    assert t.warnings == [f"{run.ncu_csv} line 2 ({row.split(',')[0]}) is cut short; {NCU_LACK}"]


def test_ncu_row_without_its_numbers_is_a_warning_not_data(run):
    header, row = _ncu_row(run)
    name, cells = row.split(",")[0], row.split(",")
    write_at = header.split(",").index("dram_write_bytes")
    cells[write_at] = ""                     # a whole line, but a profiled kernel without one of its numbers
    failed = f"triton_other,triton_other,failed,ncu crashed,{',' * (len(cells) - 5)}"  # no numbers: its reason
    run.ncu_csv.write_text(f"{header}\n{','.join(cells)}\n{failed}\n")
    assert load_run_tables(run.root).warnings == [f"{run.ncu_csv} line 2 ({name}) is cut short; {NCU_LACK}"]


def test_intact_ncu_row_is_read(run):
    header, row = _ncu_row(run)
    read_bytes = float(row.split(",")[header.split(",").index("dram_read_bytes")])
    t = load_run_tables(run.root)
    assert t.warnings == []
    assert t.kernels.set_index("name").loc[row.split(",")[0], "ncu_dram_read_bytes"] == read_bytes


@pytest.mark.parametrize("cut", ["emptied", "truncated"])
def test_cut_kernel_file_is_a_warning_naming_it(run, cut):
    record = json.loads(run.kernels_json.read_text())[0]
    path = run.kernel_file(record["file"])
    text = path.read_text()
    path.write_text("" if cut == "emptied" else text[: len(text) // 2])   # get_args() is near the end
    what = "empty" if cut == "emptied" else "no get_args() with the kernel's arguments (cut short?)"
    t = load_run_tables(run.root)
    assert t.warnings == [f"{path} is damaged ({what}); kernel {record['name']} is shown without its read/write "
                          "split"]
    assert t.kernels.set_index("name")["read_bytes_per_call"].isna()[record["name"]]


def test_library_ops_cut_mid_row_is_a_warning_naming_it(run):
    text = run.library_ops_csv.read_text()
    lines = text.splitlines()
    run.library_ops_csv.write_text(text[: len(text) - len(lines[-1]) // 2 - 1])   # half of the last row gone
    # every line but the last is whole: the last one is line len(lines) (the header is line 1)
    assert load_run_tables(run.root).warnings == [
        f"{run.library_ops_csv} is damaged (cut short: its last line (line {len(lines)}) has no end); {LIBRARY_LACK}"]


def test_attention_csv_cut_mid_row_is_a_warning_naming_it(run):
    manifest = json.loads(run.manifest_path.read_text())
    manifest["stages"]["attention"] = {"status": "ok"}
    run.manifest_path.write_text(json.dumps(manifest))
    columns = ",".join(runfiles.ATTENTION_COLUMNS)
    run.attention_csv.write_text(f"{columns}\nsdpa_cudnn,library,1x24x4096x128,bfloat16,True,1.5,6")
    assert load_run_tables(run.root).warnings == [
        f"{run.attention_csv} is damaged (cut short: its last line (line 2) has no end); the report has no "
        "attention table"]
    # diff reads it alone when the run has no steps: the same check, said as a missing view
    run.steps_hatchet.unlink()
    side = load_side(run.root, "B")
    assert ("attention", f"run B: {run.attention_csv} is damaged (cut short: its last line (line 2) has no end); "
                         "no attention view") in side.missing
    assert side.attention is None


def test_diff_kernel_fingerprints_go_through_the_checks(run):
    run.kernels_json.write_text(json.dumps({"name": "not a list"}))
    side = load_side(run.root, "A")
    assert side.fingerprints is None
    assert ("kernels", "run A cannot read kernels/kernels.json: Inductor kernels matched by name only") in side.missing


def test_n_steps_is_the_manifests_whole_steps_at_least_one():
    assert runfiles.n_steps({"profile": {"steps": 5}}) == 5
    for manifest in ({}, {"profile": {}}, {"profile": {"steps": 0}}, {"profile": {"steps": None}}):
        assert runfiles.n_steps(manifest) == 1     # a run always timed at least one step


def test_ncu_targets_name_a_damaged_kernels_json(run):
    run.kernels_json.write_text('[{"name": "k"}]')
    with pytest.raises(UserError) as e:
        targets(run, 0)
    assert str(e.value) == f"{run.kernels_json} is damaged (record 0 has no 'kind'); the ncu stage needs it"


def test_ncu_targets_name_a_damaged_library_ops(run):
    run.library_ops_csv.write_text("kernel,op\nk,mm\n")
    with pytest.raises(UserError) as e:
        targets(run, 5)
    assert str(e.value) == (f"{run.library_ops_csv} is damaged (no column 'flops', 'flops_key', 'bytes'); the ncu "
                            "stage needs it")


def test_ncu_targets_rank_library_kernels_from_the_launches_table(run):
    before = targets(run, 5)
    assert any(t.origin == "library" for t in before)
    launches.write(run.steps_hatchet, run.steps_launches)
    size = run.steps_hatchet.stat().st_size
    run.steps_hatchet.write_bytes(b"x" * size)   # not JSON, same size: only the table can give the rows
    assert [(t.name, t.stem) for t in targets(run, 5)] == [(t.name, t.stem) for t in before]


# --- no module but runfiles.py opens a run file ---------------------------------------------------------------

# RunDir's files that a stage writes and a later one, the report or diff reads. Not here: logs (a child's
# output, only its tail quoted in an error), Inductor's cache (harvested from), the raw torch trace (read once
# by library_ops while it is made), ncu's reports and specs (read by ncu and the replay child).
RUN_FILES = {"manifest_path", "kernels_json", "kernel_file", "steps_hatchet", "annotated_hatchet",
             "attention_hatchet", "steps_launches", "annotated_launches", "library_ops_csv",
             "attention_shapes_json", "attention_csv", "attention_tuning_csv", "ncu_csv", "ncu_status_json"}
READS = {"read_text", "read_bytes", "read_csv", "read_json", "open", "load", "load_hatchet", "parse", "device_info"}


def _mentions(node: ast.AST, tainted: set[str]) -> bool:
    return any(isinstance(n, ast.Attribute) and n.attr in RUN_FILES or isinstance(n, ast.Name) and n.id in tainted
               for n in ast.walk(node))


def run_file_reads(source: str) -> list[int]:
    """Lines where `source` reads a run file: a read call whose receiver or arguments name one, directly or
    through a variable assigned from one in the same function."""
    tree = ast.parse(source)
    found = []
    for scope in [tree, *(n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)))]:
        tainted: set[str] = set()
        assigns = [n for n in ast.walk(scope) if isinstance(n, (ast.Assign, ast.AnnAssign)) and n.value is not None]
        for _ in assigns:   # to a fixed point: a variable assigned from a tainted one
            for a in assigns:
                if _mentions(a.value, tainted):
                    targets_ = a.targets if isinstance(a, ast.Assign) else [a.target]
                    tainted |= {n.id for t in targets_ for n in ast.walk(t) if isinstance(n, ast.Name)}
        for call in (n for n in ast.walk(scope) if isinstance(n, ast.Call)):
            func = call.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            receiver = [func.value] if isinstance(func, ast.Attribute) else []
            if name in READS and any(_mentions(x, tainted) for x in [*receiver, *call.args]):
                found.append(call.lineno)
    return sorted(set(found))


@pytest.mark.parametrize("planted", [
    "def f(run):\n    return pd.read_csv(run.library_ops_csv)\n",
    "def f(run):\n    return json.loads(run.kernels_json.read_text())\n",
    "def f(ctx):\n    return proton.parse(ctx.run.steps_hatchet)\n",
    "def f(run, rec):\n    path = run.kernel_file(rec['file'])\n    return io_bytes(path.read_text())\n",
    "def f(run):\n    p = run.ncu_dir / 'x'\n    q = run.ncu_csv\n    with open(q) as fh:\n        return fh.read()\n",
])
def test_the_check_finds_a_planted_read(planted):
    assert run_file_reads(planted)


def test_the_check_passes_what_is_no_read_of_a_run_file():
    assert run_file_reads("def f(run, op):\n    rundir.write_json(run.kernels_json, {})\n"
                          "    return json.loads(op['dims']), run.attention_log.read_text()\n") == []


def test_no_module_but_runfiles_opens_a_run_file():
    offenders = {str(p.relative_to(PACKAGE)): lines for p in sorted(PACKAGE.rglob("*.py"))
                 if p.name != "runfiles.py" or p.parent != PACKAGE
                 for lines in [run_file_reads(p.read_text())] if lines}
    assert offenders == {}
    assert run_file_reads((PACKAGE / "runfiles.py").read_text())    # the reader itself is seen by the check
