"""The one builder of a child's environment: the caller's whole (or only the names listed, for sudo), this
package first on PYTHONPATH, the child's own variables last."""
import os

from inductor_prof.childenv import PACKAGE_ROOT, child_env


def test_the_whole_environment_with_the_package_first_on_pythonpath():
    source = {"PATH": "/bin", "PYTHONPATH": "/mine", "SECRET": "s"}
    assert child_env(source=source) == {"PATH": "/bin", "SECRET": "s",
                                        "PYTHONPATH": os.pathsep.join([PACKAGE_ROOT, "/mine"])}
    assert child_env(source={})["PYTHONPATH"] == PACKAGE_ROOT   # no empty entry (it would mean the cwd)


def test_only_the_listed_names_and_the_extras_win():
    source = {"PATH": "/bin", "HOME": "/h", "SECRET": "s"}
    env = child_env({"HOME": "/other", "NEW": "1"}, keep=("PATH", "HOME", "ABSENT"), source=source)
    assert env == {"PATH": "/bin", "HOME": "/other", "NEW": "1", "PYTHONPATH": PACKAGE_ROOT}
    assert child_env({"PYTHONPATH": "/given"}, source=source)["PYTHONPATH"] == "/given"


def test_the_default_source_is_this_process(monkeypatch):
    monkeypatch.setenv("INDUCTOR_PROF_TEST_VAR", "here")
    assert child_env()["INDUCTOR_PROF_TEST_VAR"] == "here"
    assert "INDUCTOR_PROF_TEST_VAR" not in child_env(keep=("PATH",))
