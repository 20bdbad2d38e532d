"""runfiles/, the one reader of a run folder: a run file of each kind that is damaged or cut short, read through
it, is one line naming the file (a warning for an optional file, an error for a required one), never its first
cells shown as data; the stages that read an earlier stage's files get the same checks; and no other module of
the package opens a run file (an AST check, itself tried on planted reads). Each case starts from a copy of the
recorded flux_small run."""
import ast
import json
import shutil
from pathlib import Path

import pytest

from recorded import data_path, without_age_warning
from inductor_prof import runfiles
from inductor_prof.analysis import load_run_tables
from inductor_prof.analysis.diff_inputs import load_side
from inductor_prof.drivers.proton import launches
from inductor_prof.errors import UserError
from inductor_prof.pipeline.ncu import targets
from inductor_prof.rundir import RunDir
from types import SimpleNamespace

PACKAGE = Path(runfiles.__file__).parent.parent   # inductor_prof/
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
    assert without_age_warning(t.warnings) == [f"{run.ncu_csv} line 2 ({name}) is cut short; {NCU_LACK}"]
    assert t.kernels.reindex(columns=["ncu_dram_read_bytes"]).isna().all().all()   # not 0.31 MB or so


def test_ncu_csv_cut_in_its_last_cell_is_a_warning_not_data(run):
    header, row = _ncu_row(run)
    assert not row.endswith(",")
    run.ncu_csv.write_text(f"{header}\n{row[:-1]}")   # every cell there, the last one short of a digit: only
    t = load_run_tables(run.root)                      # the missing line end tells
    assert without_age_warning(t.warnings) == [f"{run.ncu_csv} line 2 ({row.split(',')[0]}) is cut short; {NCU_LACK}"]


def test_ncu_row_without_its_numbers_is_a_warning_not_data(run):
    header, row = _ncu_row(run)
    name, cells = row.split(",")[0], row.split(",")
    write_at = header.split(",").index("dram_write_bytes")
    cells[write_at] = ""                     # a whole line, but a profiled kernel without one of its numbers
    failed = f"triton_other,triton_other,failed,ncu crashed,{',' * (len(cells) - 5)}"  # no numbers: its reason
    run.ncu_csv.write_text(f"{header}\n{','.join(cells)}\n{failed}\n")
    assert without_age_warning(load_run_tables(run.root).warnings) == [f"{run.ncu_csv} line 2 ({name}) is cut short; {NCU_LACK}"]


def test_intact_ncu_row_is_read(run):
    header, row = _ncu_row(run)
    read_bytes = float(row.split(",")[header.split(",").index("dram_read_bytes")])
    t = load_run_tables(run.root)
    assert without_age_warning(t.warnings) == []
    assert t.kernels.set_index("name").loc[row.split(",")[0], "ncu_dram_read_bytes"] == read_bytes


@pytest.mark.parametrize("cut", ["emptied", "blanked", "truncated"])
def test_cut_kernel_file_is_a_warning_naming_it(run, cut):
    record = json.loads(run.kernels_json.read_text())[0]
    path = run.kernel_file(record["file"])
    text = path.read_text()
    # get_args() is near the end; a file of blank lines is as empty as one of nothing
    path.write_text({"emptied": "", "blanked": "\n  \n\t\n"}.get(cut, text[: len(text) // 2]))
    what = "no get_args() with the kernel's arguments (cut short?)" if cut == "truncated" else "empty"
    t = load_run_tables(run.root)
    assert without_age_warning(t.warnings) == [f"{path} is damaged ({what}); kernel {record['name']} is shown without its read/write "
                          "split"]
    assert t.kernels.set_index("name")["read_bytes_per_call"].isna()[record["name"]]


def test_library_ops_cut_mid_row_is_a_warning_naming_it(run):
    text = run.library_ops_csv.read_text()
    lines = text.splitlines()
    run.library_ops_csv.write_text(text[: len(text) - len(lines[-1]) // 2 - 1])   # half of the last row gone
    # every line but the last is whole: the last one is line len(lines) (the header is line 1)
    assert without_age_warning(load_run_tables(run.root).warnings) == [
        f"{run.library_ops_csv} is damaged (cut short: its last line (line {len(lines)}) has no end); {LIBRARY_LACK}"]


def test_attention_csv_cut_mid_row_is_a_warning_naming_it(run):
    manifest = json.loads(run.manifest_path.read_text())
    manifest["stages"]["attention"] = {"status": "ok"}
    run.manifest_path.write_text(json.dumps(manifest))
    columns = ",".join(runfiles.ATTENTION_COLUMNS)
    run.attention_csv.write_text(f"{columns}\nsdpa_cudnn,library,1x24x4096x128,bfloat16,True,1.5,6")
    assert without_age_warning(load_run_tables(run.root).warnings) == [
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


# --- no module but runfiles/ opens a run file ---------------------------------------------------------------

# RunDir's files that a stage writes and a later one, the report or diff reads. Not here: logs (a child's
# output, only its tail quoted in an error), Inductor's cache (harvested from), the raw torch trace (read once
# by library_ops while it is made), the metric pass's ncu reports and specs (read by ncu and the replay child).
# The source pass's reports and their counters files are here: `inspect` and the HTML report read them.
RUN_FILES = {"manifest_path", "kernels_json", "kernel_file", "steps_hatchet", "annotated_hatchet",
             "attention_hatchet", "steps_launches", "annotated_launches", "library_ops_csv",
             "attention_shapes_json", "attention_csv", "attention_tuning_csv", "ncu_csv", "ncu_status_json",
             "ncu_source_status_json", "ncu_source_report", "ncu_source_counters"}
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
        grown = True
        while grown:   # to a fixed point: a variable assigned from a tainted one
            before = len(tainted)
            for a in assigns:
                if _mentions(a.value, tainted):
                    targets_ = a.targets if isinstance(a, ast.Assign) else [a.target]
                    tainted |= {n.id for t in targets_ for n in ast.walk(t) if isinstance(n, ast.Name)}
            grown = len(tainted) > before
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
    reader = PACKAGE / "runfiles"
    offenders = {str(p.relative_to(PACKAGE)): lines for p in sorted(PACKAGE.rglob("*.py"))
                 if reader not in p.parents
                 for lines in [run_file_reads(p.read_text())] if lines}
    assert offenders == {}
    assert run_file_reads((reader / "__init__.py").read_text())    # the reader itself is seen by the check


# ---- pinned where a mutation audit found it unpinned (each expected value derived by hand)

def _kernel_file(signature: str, tensors: list[str], returned: str) -> str:
    lines = "\n".join(f"    {t}" for t in tensors)
    return f"@triton.jit\ndef k({signature}):\n    pass\n\n\ndef get_args():\n{lines}\n    return {returned}\n"


def test_kernel_records_missing_file_is_empty(tmp_path):
    run = SimpleNamespace(kernels_json=tmp_path / "kernels.json")
    assert runfiles.kernel_records(run) == []
    run.kernels_json.write_text(json.dumps([{"name": "k", "kind": "pointwise"}]))
    assert runfiles.kernel_records(run) == [{"name": "k", "kind": "pointwise"}]


def _damage(fn, path, text):
    path.write_text(text)
    with pytest.raises(runfiles.Damaged) as e:
        fn(path)
    return str(e.value)


MANIFEST_DAMAGE = [("[1]", "a JSON object expected, found a list"),
                   ('"x"', "a JSON object expected, found a string"),
                   ("3", "a JSON object expected, found int"),
                   ('{"env": []}', "'env' should be an object, found a list"),
                   ('{"env": {"gpu": "H100"}}', "'env.gpu' should be an object, found a string"),
                   ('{"profile": {"steps": 2.5}}', "'profile.steps' should be a whole number, found 2.5"),
                   ('{"profile": {"steps": true}}', "'profile.steps' should be a whole number, found True"),
                   ('{"env": null}', "'env' should be an object, found NoneType")]


RECORDS_DAMAGE = [("{}", "a list of kernel records expected, found an object"),
                  ('[{"name": "a", "kind": null}, 3]', "record 1 should be an object, found int"),
                  ('[{"kind": "pointwise"}]', "record 0 has no 'name'"),
                  ('[{"name": "a"}]', "record 0 has no 'kind'"),
                  ('[{"name": 1, "kind": null}]', "record 0: 'name' is int"),
                  ('[{"name": "a", "kind": null, "file": 2}]', "record 0: 'file' is int"),
                  ('[{"name": "a", "kind": null, "aten_ops": "x"}]', "record 0: 'aten_ops' is a string")]


def test_manifest_checks_each_section(tmp_path):
    p = tmp_path / "manifest.json"
    assert [_damage(runfiles.manifest_file, p, text) for text, _ in MANIFEST_DAMAGE] == [m for _, m in MANIFEST_DAMAGE]
    p.write_text('{"env": {"gpu": null}, "profile": {"steps": 3}, "stages": {}}')
    assert runfiles.manifest_file(p) == {"env": {"gpu": None}, "profile": {"steps": 3}, "stages": {}}
    p.write_text('{"profile": {}}')                  # steps missing: 1 is fine
    assert runfiles.manifest_file(p) == {"profile": {}}


def test_kernel_records_checks_each_record(tmp_path):
    p = tmp_path / "kernels.json"
    assert [_damage(runfiles.kernels_by_name, p, text) for text, _ in RECORDS_DAMAGE] == [m for _, m in RECORDS_DAMAGE]
    p.write_text('[{"name": "a", "kind": null, "file": null, "aten_ops": null}, {"name": "b", "kind": "pointwise"}]')
    assert runfiles.kernels_by_name(p) == {"a": {"name": "a", "kind": None, "file": None, "aten_ops": None},
                                           "b": {"name": "b", "kind": "pointwise"}}


def test_csv_reader_checks_columns_and_numbers(tmp_path):
    p = tmp_path / "t.csv"
    read = runfiles.csv_reader(("kernel", "op", "bytes"), ("bytes",), keep_default_na=False)
    assert _damage(read, p, "kernel,x\nk,1\n") == "no column 'op', 'bytes'"
    assert _damage(read, p, "kernel,op,bytes\nk,a,lots\n") == "column 'bytes' is not numeric"
    # keep_default_na=False: an op named NA stays the string "NA"
    p.write_text("kernel,op,bytes\nk,NA,3\n")
    df = read(p)
    assert df["op"].tolist() == ["NA"] and df["bytes"].tolist() == [3]


def test_stage_line_and_reader_warnings(tmp_path):
    # the first sentence ends at ". ", not at a decimal point
    assert runfiles.stage_line("ncu", {"status": "failed", "error": "exit 1.5 (x). More detail"}) == \
        "stage ncu failed: exit 1.5 (x)"
    assert runfiles.stage_line("harvest", {"status": "running"}) == "stage harvest did not finish"
    assert runfiles.stage_line("x", {"status": "failed", "error": "e" * 300}) == "stage x failed: " + "e" * 200
    manifest = {"stages": {"harvest": {"status": "failed", "error": "boom"}, "ncu": {"status": "ok"},
                           "attention": {"status": "interrupted"}}}
    r = runfiles.Reader(SimpleNamespace(), manifest)
    missing = tmp_path / "kernels.json"
    assert r.optional(missing, lambda p: 1, "no kinds", "harvest") is None
    assert r.optional(tmp_path / "n.csv", lambda p: 1, "no ncu", "ncu") is None          # stage ok: no cause
    assert r.optional(tmp_path / "a.csv", lambda p: 1, "no attn", "library_ops") is None  # stage never ran
    assert r.optional(tmp_path / "b.csv", lambda p: 1, "unused", "ncu", expected=False) is None
    (tmp_path / "c.json").write_text("{")
    assert r.optional(tmp_path / "c.json", lambda p: 1 / 0, "no c") is None
    (tmp_path / "d.json").write_text("{}")
    assert r.optional(tmp_path / "d.json", lambda p: 5, "no d") == 5
    r.failed_stages()
    assert r.warnings == [
        f"{missing} is missing (stage harvest failed: boom); no kinds",
        f"{tmp_path / 'n.csv'} is missing; no ncu",
        f"{tmp_path / 'a.csv'} is missing (the profile did not get to stage library_ops); no attn",
        f"{tmp_path / 'c.json'} is damaged (ZeroDivisionError: division by zero); no c",
        "stage attention interrupted",       # harvest was said with its file
    ]


def test_required_file_damage_is_a_user_error(tmp_path):
    p = tmp_path / "manifest.json"
    p.write_text("[]")
    with pytest.raises(UserError, match=r"manifest\.json is damaged \(a JSON object expected, found a list\); "
                                        r"the report needs it"):
        runfiles.required(p, runfiles.manifest_file)


def test_io_split_per_record(tmp_path):
    (tmp_path / "a.py").write_text(_kernel_file(
        "in_ptr0, out_ptr0, xnumel", ["arg_0 = rand_strided((8,), (1,), device='cuda:0', dtype=torch.float32)",
                                      "arg_1 = rand_strided((8,), (1,), device='cuda:0', dtype=torch.float16)"],
        "arg_0, arg_1, 8,"))
    run = SimpleNamespace(kernel_file=lambda f: tmp_path / f)
    reader = runfiles.Reader(run, {})
    harvested = {"a": {"name": "a", "kind": "pointwise", "file": "a.py"},
                 "b": {"name": "b", "kind": None},                      # no file: no split, no warning
                 "c": {"name": "c", "kind": None, "file": None},
                 "d": {"name": "d", "kind": None, "file": "gone.py"}}  # named but missing: a warning
    # a: 8 fp32 read = 32 B, 8 fp16 written = 16 B
    assert reader.io_split(harvested) == {"a": {"read": 32, "write": 16}, "b": None, "c": None, "d": None}
    assert reader.warnings == [f"{tmp_path / 'gone.py'} is missing; kernel d is shown without its read/write split"]


def _ncu_reader(tmp_path, stages, status=None, csv=None):
    run = SimpleNamespace(ncu_csv=tmp_path / "ncu.csv", ncu_status_json=tmp_path / "status.json")
    if status is not None:
        run.ncu_status_json.write_text(json.dumps(status))
    if csv is not None:
        run.ncu_csv.write_text(csv)
    return runfiles.Reader(run, {"stages": stages})


def test_ncu_table_missing_only_warns_where_ncu_was_run(tmp_path):
    # no ncu stage, no status: nothing expected, nothing said
    r = _ncu_reader(tmp_path, {})
    assert r.ncu() is None and r.warnings == []
    # the stage ran: the missing csv is said
    r = _ncu_reader(tmp_path, {"ncu": {"status": "ok"}})
    assert r.ncu() is None
    assert r.warnings == [f"{tmp_path / 'ncu.csv'} is missing; the report has no Nsight Compute columns"]


def test_ncu_table_status_lists_kernels_the_csv_lacks(tmp_path):
    status = {"k1": {"status": "ok"}, "k2": {"status": "ok"}, "k3": {"status": "failed"}, "k4": "ok"}
    r = _ncu_reader(tmp_path, {}, status, "name,stem,duration_ns\ntriton_a,k1,100\n")
    df = r.ncu()
    assert df["stem"].tolist() == ["k1"] and df["duration_ns"].tolist() == [100]
    # ok in status.json: k1, k2 (k3 failed, k4 not an object); the csv has k1 -> 1 lacking
    assert r.warnings == [f"{tmp_path / 'ncu.csv'} lacks 1 kernels that status.json lists as profiled "
                          "(a call of the ncu stage did not finish; run it again)"]
    # a status file but no csv: the csv is expected
    (tmp_path / "ncu.csv").unlink()
    r = _ncu_reader(tmp_path, {}, status)
    assert r.ncu() is None
    assert r.warnings == [f"{tmp_path / 'ncu.csv'} is missing (the profile did not get to stage ncu); "
                          "the report has no Nsight Compute columns"]
    # an empty status and no stage: not expected
    r = _ncu_reader(tmp_path, {}, {})
    assert r.ncu() is None and r.warnings == []


def test_ncu_table_damaged_status_is_said_and_the_csv_still_read(tmp_path):
    r = _ncu_reader(tmp_path, {"ncu": {"status": "ok"}}, [1], "name,duration_ns\ntriton_a,5\n")
    df = r.ncu()
    assert df["name"].tolist() == ["triton_a"]
    assert r.warnings == [f"{tmp_path / 'status.json'} is damaged (a JSON object expected, found a list); "
                          "the ncu table cannot be checked against it"]


# ---- issue 52: the numbers in a file's cells (runfiles/cells.py) ------------------------------------------------

def test_why_a_cell_is_bad():
    from inductor_prof.runfiles.cells import why_bad, why_bad_json

    assert [why_bad(v, True) for v in ("1.5", 2, "", None, float("nan"))] == [None] * 5   # numbers, or empty
    assert [why_bad(v, True) for v in ("abc", "nan", "inf", -1, "-2", True)] == [
        "not a number", "NaN", "infinite", "negative", "negative", "not a number"]
    assert why_bad(-1, False) is None                                      # a signed column (a window)
    assert [why_bad_json(v, True) for v in (None, 3, float("nan"), "3", -0.5)] == [
        None, None, "NaN", "not a number", "negative"]


def test_an_intact_table_comes_back_untouched_and_a_bad_row_is_said(tmp_path):
    import pandas as pd

    from inductor_prof.runfiles import cells

    df = pd.DataFrame({"k": ["a", "b"], "ms": [1.0, 2.0], "n": [1, 2]})
    assert cells.keep_good_rows(df, tmp_path / "t.csv", ("ms", "n"), ("ms", "n")) is df   # no copy, no new dtype
    bad = pd.DataFrame({"k": list("abcde"), "ms": ["1", "x", "-3", "inf", "nan"], "n": [1, 2, 3, 4, 5]})
    kept = cells.keep_good_rows(bad, tmp_path / "t.csv", ("ms", "n"), ("ms", "n"))
    assert kept["k"].tolist() == ["a"] and kept["ms"].tolist() == [1]
    assert cells.left_out(kept) == [f"{tmp_path / 't.csv'} holds values no run writes (line 3: 'ms' is 'x' (not a "
                                    "number); line 4: 'ms' is '-3' (negative); line 5: 'ms' is 'inf' (infinite); and "
                                    "1 more); 4 rows left out"]
    assert cells.left_out(kept) == []   # said once
    with pytest.raises(cells.NoNumbers, match="column 'ms' is not numeric"):
        cells.keep_good_rows(pd.DataFrame({"ms": ["x", "y"]}), tmp_path / "t.csv", ("ms",))


def test_an_unreadable_look_counts_as_there_and_is_said_as_unreadable(tmp_path, monkeypatch):
    from pathlib import Path

    target = tmp_path / "ncu" / "ncu.csv"

    def refuse(self, *a, **k):
        raise PermissionError(13, "Permission denied", str(self))
    monkeypatch.setattr(Path, "stat", refuse)
    assert runfiles.present(target)
    assert runfiles.trouble(target, PermissionError(13, "Permission denied", str(target))) == \
        f"{target} cannot be read (Permission denied)"
    assert runfiles.trouble(target, ValueError("bad")) == f"{target} is damaged (ValueError: bad)"


@pytest.mark.parametrize("cell, nonneg, ok", [
    ("[[2, 3], [], [[4], [5, 6]]]", True, True), ("", True, True), ("[[1, -1]]", False, True),
    ("[[1, -1]]", True, False), ("[[NaN]]", True, False), ("[[Infinity]]", False, False), ("[[1.5]]", True, False),
    ("[[true]]", True, False), ("[1", True, False), ('{"a": 1}', True, False)])
def test_a_sizes_cell_is_whole_numbers_only(cell, nonneg, ok):
    # NaN and Infinity decode (json.loads) to floats, which are no size: rejected as before, when they raised
    from inductor_prof.runfiles.files import _int_lists
    assert _int_lists(cell, nonneg) is ok


def test_a_json_cell_is_decoded_once_and_shared():
    from inductor_prof.runfiles.cells import canonical_cell, json_cell
    text = '[[7, 11], [11, 13]]'
    assert json_cell(text) == [[7, 11], [11, 13]] and json_cell(text) is json_cell(text)
    assert canonical_cell("[[7,11],[11,13]]") == json.dumps([[7, 11], [11, 13]])
    with pytest.raises(ValueError):
        json_cell("[7,")


def test_library_calls_short_leaves_out_a_kernel_listed_another_number_of_times(tmp_path):
    import pandas as pd

    from inductor_prof.runfiles.crosscheck import library_calls_short

    path = tmp_path / "library_ops.csv"
    ops = pd.DataFrame({"kernel": ["a", "b", "a", "b", "c", "b"], "op": ["aten::mm"] * 6})
    # 2 timed steps: a ran 4 times (2 a step, listed twice: as many), b 4 times (2 a step, listed 3 times: one
    # row too many), c not timed (nothing to compare)
    kept, warning = library_calls_short(ops, pd.Series({"a": 4, "b": 4}), 2, path)
    assert kept["kernel"].tolist() == ["a", "a", "c"]
    assert warning == (f"{path} lists other numbers of calls than the timed steps ran per step for 1 kernels (b (3 of "
                       "2)): rows are missing or added; those kernels are shown without flops and bytes")
    same, none = library_calls_short(ops, pd.Series({"a": 4, "b": 6}), 2, path)   # b: 3 a step, listed 3 times
    assert none is None and same is ops
