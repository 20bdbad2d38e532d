"""`report RUN --html FILE` on a damaged copy of the recorded flux_small run: what the terminal report only warns
of (a damaged kernels.json, a kernel file that is not UTF-8) must not stop the page either."""
import pytest
from typer.testing import CliRunner

from inductor_prof.cli import app
from .test_report_damaged_run import KERNELS_LACK, run  # noqa: F401  (run: the fixture, a copy of flux_small)

pytest.importorskip("bokeh")
runner = CliRunner()


def _html(run, tmp_path):
    out = tmp_path / "page.html"
    r = runner.invoke(app, ["report", str(run), "--html", str(out)])
    assert r.exit_code == 0, r.output
    return r, out.read_text()


def test_truncated_kernels_json_warns_and_the_page_is_written(run, tmp_path):
    path = run / "kernels" / "kernels.json"
    path.write_text(path.read_text()[:100])
    r, page = _html(run, tmp_path)
    assert f"warning: {path} is damaged (JSONDecodeError: " in r.stderr and KERNELS_LACK in r.stderr
    # no kernel record, so no source section entry (the 21 records of the intact file each have one)
    assert 'id="src-0"' not in page


def test_kernels_json_of_the_wrong_shape_gives_no_sources(run, tmp_path):
    (run / "kernels" / "kernels.json").write_text('[{"name": "triton_x"}]')   # a record without its 'kind'
    r, page = _html(run, tmp_path)
    assert "record 0 has no 'kind'" in r.stderr
    assert 'id="src-0"' not in page


def test_a_kernel_file_that_is_not_utf8_is_shown_with_replacement_characters(run, tmp_path):
    (run / "kernels" / "triton_poi_fused_gelu_view_12.py").write_bytes(b"\xff\xfe# damaged")
    r, page = _html(run, tmp_path)
    # each undecodable byte becomes U+FFFD, the rest of the file as written
    assert "\ufffd\ufffd# damaged" in page
