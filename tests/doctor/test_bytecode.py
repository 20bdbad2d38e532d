"""doctor's Python bytecode row: where torch's .pyc is neither there nor written, each process of `profile`
compiles torch again (seen on the H100 device image: PYTHONDONTWRITEBYTECODE=1 and no __pycache__)."""
import py_compile
import sys

import pytest

from inductor_prof.doctor import bytecode
from inductor_prof.doctor.check import OK, SKIP, WARN


@pytest.mark.parametrize("dont_write, cached, status", [
    (True, False, WARN),     # the device image: nothing shipped, nothing written
    (False, False, OK),      # written at the first import
    (True, True, OK),        # shipped .pyc are read even when none is written
    (False, True, OK),
    (True, None, SKIP),      # the light install: no torch
])
def test_the_row_warns_only_when_bytecode_is_neither_there_nor_written(dont_write, cached, status):
    row = bytecode.judge(dont_write, cached)
    assert row.status == status
    assert (row.remedy == bytecode.REMEDY) == (status == WARN)


def test_torch_bytecode_looks_where_python_reads_it(tmp_path, monkeypatch):
    pkg = tmp_path / "fake_pkg_for_bytecode"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("X = 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(sys, "pycache_prefix", None)
    assert bytecode.torch_bytecode("fake_pkg_for_bytecode") is False
    py_compile.compile(str(pkg / "__init__.py"))           # the .pyc a pip install writes beside the source
    assert bytecode.torch_bytecode("fake_pkg_for_bytecode") is True
    assert "fake_pkg_for_bytecode" not in sys.modules        # looked at, not imported
    assert bytecode.torch_bytecode("no_such_module_here") is None
