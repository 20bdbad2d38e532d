"""Proton sessions without a GPU: a stand-in for triton.profiler that writes `<name>.hatchet` at finalize, as
Proton does, so the kept and the discarded session can be checked for what they leave behind."""
import importlib
import sys
import types
from pathlib import Path

import pytest

sessions = importlib.import_module("inductor_prof.drivers.proton.session")   # the package re-exports session()


@pytest.fixture
def fake_proton(monkeypatch):
    calls = []
    mod = types.ModuleType("triton.profiler")

    def start(name, hook=None):
        calls.append(("start", name, hook, sessions.BlockScopes.enabled))
        mod.current = name

    def finalize():
        Path(f"{mod.current}.hatchet").write_text("{}")
        calls.append(("finalize", mod.current))

    mod.start, mod.finalize = start, finalize
    monkeypatch.setitem(sys.modules, "triton.profiler", mod)
    return calls


def test_kept_session_lands_on_its_path_only_when_completed(tmp_path, fake_proton):
    path = tmp_path / "proton" / "steps.hatchet"
    with sessions.session(path, hook=None):
        assert sessions.BlockScopes.enabled
    assert path.read_text() == "{}" and not sessions.BlockScopes.enabled
    assert sorted(p.name for p in path.parent.iterdir()) == ["steps.hatchet"]   # no partial left beside it
    with pytest.raises(KeyboardInterrupt):
        with sessions.session(tmp_path / "other.hatchet", hook="triton"):
            raise KeyboardInterrupt
    assert not (tmp_path / "other.hatchet").exists() and not list(tmp_path.glob(".other*"))


def test_discarded_session_leaves_nothing(tmp_path, fake_proton, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with sessions.discarded_session(hook=None):
        assert sessions.BlockScopes.enabled
        started = Path(fake_proton[0][1])
    assert not sessions.BlockScopes.enabled
    assert [c[0] for c in fake_proton] == ["start", "finalize"]
    assert not started.parent.exists()          # its temporary folder is gone, hatchet and all
    assert list(tmp_path.iterdir()) == []
