"""Hatchet's kernel name column is categorical (drivers/proton/hatchet.text_column): a category may hold no row
(a kernel of the whole profile missing from the rows kept, e.g. a size's). pandas 2 groups a categorical key with
observed=False by default, giving such a category a row of 0 calls (105 kernels_by_size rows of
llama-sizes-h100 where pandas 3 gives 100). Each group-by over such a column passes observed=True: no row for a
category no row holds, on pandas 2 and 3."""
import pandas as pd

from inductor_prof.analysis.diff_inputs import per_step_ns
from inductor_prof.analysis.kernels import by_name
from inductor_prof.peaks import FLOP_KEYS


def rows():
    # two rows of kernel "a" (1 and 2 calls, 100 and 300 ns), one of "b" (4 calls, 50 ns); "unused": a category
    # of the column no row holds
    names = pd.Categorical(["a", "a", "b"], categories=["a", "b", "unused"])
    return pd.DataFrame({"name": names, "path": ["step_0/f", "step_1/f", "step_0/f"], "calls": [1, 2, 4],
                         "time_ns": [100.0, 300.0, 50.0], "bytes": [0.0, 0.0, 0.0],
                         **{k: [0.0, 0.0, 0.0] for k in FLOP_KEYS}})


def test_by_name_has_no_row_for_an_unused_category():
    out = by_name(rows())
    # a: 1 + 2 calls, 100 + 300 ns; b: 4 calls, 50 ns; nothing for "unused" (observed=False gave it 0 calls)
    assert list(out.index) == ["a", "b"]
    assert out["calls"].tolist() == [3, 4] and out["time_ns"].tolist() == [400.0, 50.0]


def test_time_per_step_has_no_row_for_an_unused_category():
    out = per_step_ns(rows())
    # a: 100 ns in step_0, 300 in step_1; b: 50 in step_0, 0 in step_1; no "unused" row of zeros
    assert [str(n) for n in out.index] == ["a", "b"]
    assert out.loc["a"].tolist() == [100.0, 300.0] and out.loc["b"].tolist() == [50.0, 0.0]


def test_pandas_would_give_the_unused_category_a_row_without_observed():
    # what the tests above guard against, said explicitly so it holds on pandas 3 as well as 2
    assert "unused" in rows().groupby("name", observed=False)["calls"].sum().index


def test_every_group_by_of_the_package_says_observed():
    # pandas 3 defaults to observed=True, so the tests above pass there without it: this one fails on pandas 3 too
    # when a group-by (or pivot_table) of inductor_prof leaves it out. Exempt: a key that cannot be categorical
    # (phases.py groups a Series on a list index of phase names)
    import ast
    from pathlib import Path

    import inductor_prof

    exempt = {("phases.py", "level")}
    missing = []
    for path in Path(inductor_prof.__file__).parent.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and node.func.attr in ("groupby", "pivot_table"):
                words = {k.arg for k in node.keywords}
                if "observed" not in words and not any((path.name, w) in exempt for w in words):
                    missing.append(f"{path.name}:{node.lineno}")
    assert not missing
