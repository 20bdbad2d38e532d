"""The regression gate in CI (docs/ci-gate.md, moved from the README): every field `diff --json` prints is documented
there, and the beginning of summary.md it shows is what `diff --markdown` writes for the two recorded FLUX runs."""
import re

import pytest

from recorded import REPO
from inductor_prof.analysis.diff import compare
from inductor_prof.analysis.diff_inputs import load_side
from inductor_prof.report.diff_export import SCHEMA_VERSION, to_dict
from inductor_prof.report.diff_markdown import render_markdown

RUNS = REPO / "examples" / "runs"


def _section() -> str:
    return (REPO / "docs" / "ci-gate.md").read_text()


@pytest.fixture(scope="module")
def doc() -> dict:
    a, b = load_side(RUNS / "flux-h100", "A"), load_side(RUNS / "flux-h100-768x1344", "B")
    return to_dict(compare(a, b, fail_above=5.0))


def test_every_json_field_is_documented(doc):
    section = _section()
    rows = {"top level": doc, "runs.a": doc["runs"]["a"], "steps": doc["steps"][0], "categories": doc["categories"][0],
            "kernels": doc["kernels"][0], "attention": doc["attention"][0], "gate": doc["gate"],
            "gate.failing": doc["gate"]["failing"][0]}
    undocumented = {where: [k for k in row if f"`{k}`" not in section] for where, row in rows.items()}
    assert undocumented == {where: [] for where in rows}
    assert f"- `schema_version`: {SCHEMA_VERSION}." in section


def test_readme_summary_is_what_the_gate_writes(doc):
    shown = re.search(r"```markdown\n(.*?)```", _section(), re.S).group(1)
    written = render_markdown(doc, top=10)
    assert written.startswith(shown)
