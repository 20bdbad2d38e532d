"""The README is a front door (issue 47): at most 250 lines, the two set-up commands CI reads kept verbatim, and
every relative link in it, in docs/ and in the FLUX walkthrough resolves to a file or folder of the checkout."""
import re
from pathlib import Path

import pytest

from recorded import REPO

MAX_LINES = 250
MAIN_JOB = ("if command -v nvidia-smi >/dev/null; then bash scripts/install.sh flux,html && inductor-prof profile flux "
            "--ncu --out runs/flux && inductor-prof report runs/flux; else bash scripts/install.sh && inductor-prof "
            "report examples/runs/flux-h100; fi")
TESTS = "bash scripts/install.sh dev && python -m pytest -q -n auto --maxprocesses 8 --dist worksteal tests"
LINK = re.compile(r"\]\(([^)\s]+)\)")
DOCS = sorted((REPO / "docs").glob("*.md")) + [REPO / "examples" / "runs" / "flux-h100.md"]


def relative_links(text: str) -> list[str]:
    """Every markdown link target that is not a web address or an anchor in the same page, without its anchor."""
    targets = (m.group(1) for m in LINK.finditer(text))
    return [t.split("#")[0] for t in targets if not re.match(r"[a-z]+:", t) and not t.startswith("#")]


def broken(page: Path) -> list[str]:
    return [t for t in relative_links(page.read_text()) if not (page.parent / t).exists()]


def test_readme_is_at_most_250_lines():
    assert len((REPO / "README.md").read_text().splitlines()) <= MAX_LINES


def test_readme_keeps_the_two_set_up_commands_verbatim():
    blocks = re.findall(r"```bash\n(.*?)\n```", (REPO / "README.md").read_text(), re.S)
    assert blocks[:2] == [MAIN_JOB, TESTS]


def test_readme_links_into_docs_resolve():
    links = relative_links((REPO / "README.md").read_text())
    assert [t for t in links if t.startswith("docs/")], "the README names where the docs are"
    assert broken(REPO / "README.md") == []


@pytest.mark.parametrize("page", DOCS, ids=lambda p: str(p.relative_to(REPO)))
def test_doc_links_resolve(page):
    assert broken(page) == []


def test_a_broken_link_is_found(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "there.md").write_text("x")
    page = tmp_path / "README.md"
    page.write_text("[a](docs/there.md) [b](docs/gone.md#part) [c](https://example.com) [d](#set-up)\n")
    assert broken(page) == ["docs/gone.md"]
