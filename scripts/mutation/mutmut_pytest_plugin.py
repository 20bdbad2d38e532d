"""pytest plugin for mutmut runs only (load with `-p mutmut_pytest_plugin`). Two fixes, both active only
during mutmut's stats run (MUTANT_UNDER_TEST == "stats"), which decides which tests run against each mutant.

1. Fixture scopes. mutmut 3 records which tests call a mutated function by the calls made between one test's
   teardown and the next, then runs only those tests for each mutant. A module/session-scoped fixture calls
   the code once, during the FIRST test that uses it, so every later test that checks the fixture's value is
   never run against the mutant, and mutants those tests would kill are reported as survivors (measured:
   roofline.add_derived `100 * total_ns` -> `101 * total_ns` "survived" although
   tests/analysis/test_kernels.py::test_pct_of_gpu_time fails on it). In the stats run every test-defined fixture
   is lowered to function scope, so each test is credited with what its fixtures call. The per-mutant runs
   keep the declared scopes (each is a fresh pytest session: a module fixture is computed once, with the
   mutant active) and stay fast.

2. Child processes. A test that starts `python -m inductor_prof ...` with PYTHONPATH=<repo> imports the
   trampolined package in the child and inherits MUTANT_UNDER_TEST=stats; the first trampolined call there
   (settings.py calls one at import) makes mutmut read its config from the child's cwd, which has none:
   "FileNotFoundError: Could not figure out where the code to mutate is", the stats run fails and mutmut
   stops. Calls in a child are never recorded anyway, so during the stats run children get the variable
   removed. In per-mutant runs children keep it and run the mutant (so such tests can kill mutants).

Uses pytest internals (Item._fixtureinfo.name2fixturedefs, FixtureDef._scope; checked with pytest 9.2): a
pytest upgrade that breaks them gives an INTERNALERROR in the stats run, not silently wrong numbers."""
import os
import subprocess

import pytest


def _stats_run() -> bool:
    return os.environ.get("MUTANT_UNDER_TEST") == "stats"


_popen_init = subprocess.Popen.__init__


def _popen_init_without_stats(self, *args, **kwargs):
    if _stats_run() and len(args) <= 10:   # env is the 11th positional parameter; nobody passes it so
        env = dict(os.environ if kwargs.get("env") is None else kwargs["env"])
        if env.get("MUTANT_UNDER_TEST") == "stats":
            del env["MUTANT_UNDER_TEST"]
        kwargs["env"] = env
    _popen_init(self, *args, **kwargs)


subprocess.Popen.__init__ = _popen_init_without_stats


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(session, config, items):
    if not _stats_run():
        return
    from _pytest.scope import Scope
    fixturedefs = {id(fd): fd for item in items
                   for defs in getattr(getattr(item, "_fixtureinfo", None), "name2fixturedefs", {}).values()
                   for fd in defs}
    for fd in fixturedefs.values():
        module = getattr(fd.func, "__module__", "") or ""
        if fd._scope is not Scope.Function and not module.startswith(("_pytest", "pytest")):
            fd._scope = Scope.Function
