"""The FLUX example's HTML report, rendered once for the tests that read it (test_html.py, test_html_width.py)."""
import json

import pytest
from typer.testing import CliRunner

from recorded import REPO
from inductor_prof.cli import app


@pytest.fixture(scope="session")
def flux_html(tmp_path_factory):
    """`report examples/runs/flux-h100 --html FILE --json --top 0` through the CLI: the page's path and the JSON
    report of all kernels."""
    out = tmp_path_factory.mktemp("html") / "flux.html"
    r = CliRunner().invoke(app, ["report", str(REPO / "examples" / "runs" / "flux-h100"), "--html", str(out),
                                 "--json", "--top", "0"])
    assert r.exit_code == 0, r.output
    return out, json.loads(r.stdout)
