"""docs/where-numbers-come-from.md against the tree: every file a row names exists under inductor_prof/, and every
function or constant a row names is defined in one of that row's files (or, written module.name, in that
module), so the table a new contributor opens stays true when code moves."""
import re

from recorded import REPO

PACKAGE = REPO / "inductor_prof"
TICKED = re.compile(r"`([^`]+)`")
NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def _rows() -> list[str]:
    lines = (REPO / "docs" / "where-numbers-come-from.md").read_text().splitlines()
    return [ln for ln in lines if ln.startswith("| ") and not ln.startswith("| number |")
            and not ln.startswith("| stage |") and "---" not in ln]


def _defines(path, name: str) -> bool:
    return re.search(rf"^\s*(?:def|class) {name}\b|^{name}\s*[:=]", path.read_text(), re.M) is not None


def test_every_file_and_name_in_the_table_exists():
    rows = _rows()
    assert len(rows) > 30
    for row in rows:
        ticks = TICKED.findall(row)
        files = [PACKAGE / t for t in ticks if t.endswith(".py")]
        assert files, row
        for f in files:
            assert f.is_file(), f"{row}: no {f}"
        for t in ticks:
            if t.endswith(".py") or " " in t or t.startswith(("-", "module:")):
                continue
            if "." in t:      # module.name: a module of the package defining it
                module, name = t.rsplit(".", 1)
                path = module.replace('.', '/')     # a module, or a package's __init__.py
                where = list(PACKAGE.rglob(f"{path}.py")) + list(PACKAGE.rglob(f"{path}/__init__.py"))
                assert where and any(_defines(w, name) for w in where), f"{row}: {t}"
            elif NAME.match(t):
                assert any(_defines(f, t) for f in files), f"{row}: {t} in none of {[f.name for f in files]}"


def test_every_stage_has_its_row():
    from inductor_prof.pipeline.stages import STAGES

    # the stage table: rows whose file is a pipeline/ module; a stage's name is a word of its first column
    named = {w for r in _rows() if r.split("|")[2].strip().startswith("`pipeline/")
             for w in re.findall(r"[a-z_]+", r.split("|")[1])}
    assert {s.name for s in STAGES} <= named
