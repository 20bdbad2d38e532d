"""A `module:factory` target: its import (current directory first, as `python -m`), what it must return,
input devices, `--blocks`, and a block that breaks fullgraph under regional compile. Each bad input is one
line naming what is wrong and exit 2 from the CLI."""
import sys
import textwrap

import pytest
import torch
from typer.testing import CliRunner

from inductor_prof.cli import app
from inductor_prof.cli.core import FLAGS
from inductor_prof.errors import UserError
from inductor_prof.pipeline.compile import CompileOptions, compile_target, graph_breaks_explained
from inductor_prof.targets import blocks, load_custom

runner = CliRunner()


class Layer(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(4, 4)

    def forward(self, x):
        return self.lin(x)


class Stack(torch.nn.Module):
    """Three Layers in a ModuleList and a Linear head: the Linears repeat too, but only Layer is stacked."""

    def __init__(self):
        super().__init__()
        self.layers = torch.nn.ModuleList([Layer() for _ in range(3)])
        self.head = torch.nn.Linear(4, 2)

    def forward(self, x, scale=None):
        for layer in self.layers:
            x = layer(x)
        return self.head(x)


@pytest.fixture
def factory_dir(tmp_path, monkeypatch):
    """A folder holding a package `userpkg`, made the current directory, and sys.path restored after."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    for name in [m for m in sys.modules if m == "userpkg" or m.startswith("userpkg.")]:
        monkeypatch.delitem(sys.modules, name)
    (tmp_path / "userpkg").mkdir()
    (tmp_path / "userpkg" / "__init__.py").write_text("")
    yield tmp_path
    for name in [m for m in sys.modules if m == "userpkg" or m.startswith("userpkg.")]:
        del sys.modules[name]


def write_factory(folder, body: str, module="models"):
    (folder / "userpkg" / f"{module}.py").write_text(textwrap.dedent(body))




def test_factory_found_in_the_current_directory_not_on_sys_path(factory_dir):
    write_factory(factory_dir, """
        import torch
        def make():
            return torch.nn.Linear(4, 2), (torch.ones(3, 4),)
    """)
    assert str(factory_dir) not in sys.path
    t = load_custom("userpkg.models:make")
    assert t.args[0].shape == (3, 4) and t.kwargs == {} and t.info["parameters"] == 4 * 2 + 2
    assert sys.path[0] == str(factory_dir)


def test_missing_module_names_where_it_looked(factory_dir):
    with pytest.raises(UserError) as e:
        load_custom("userpkg.nope:make")
    assert str(e.value) == (f"cannot import 'userpkg.nope' for target 'userpkg.nope:make': no module "
                            f"'userpkg.nope' in the current directory ({factory_dir}) or the installed packages")


def test_import_error_inside_the_module_is_not_called_missing(factory_dir):
    write_factory(factory_dir, "import not_installed_pkg_xyz\n")
    with pytest.raises(UserError) as e:
        load_custom("userpkg.models:make")
    assert str(e.value) == ("importing 'userpkg.models' for target 'userpkg.models:make' failed: "
                            "No module named 'not_installed_pkg_xyz'")


@pytest.mark.parametrize("returns, message", [
    ("torch.nn.Linear(4, 2)", "userpkg.models:make must return (model, inputs); got Linear"),
    ("(torch.nn.Linear(4, 2), (torch.ones(1, 4),), {})",
     "userpkg.models:make must return (model, inputs); got a tuple of 3 items"),
    ("(torch.ones(1, 4), torch.nn.Linear(4, 2))",
     "userpkg.models:make returned a Tensor as its model; expected a torch.nn.Module (return (model, inputs))"),
    ("(torch.nn.Linear(4, 2), None)", "userpkg.models:make returned None as its inputs; return a tuple of args, "
     "a dict of kwargs, or an (args, kwargs) pair"),
])
def test_factory_returning_something_else(factory_dir, returns, message):
    write_factory(factory_dir, f"import torch\ndef make():\n    return {returns}\n")
    with pytest.raises(UserError) as e:
        load_custom("userpkg.models:make")
    assert str(e.value) == message


def test_input_on_another_device_is_named(factory_dir):
    # meta stands in for cuda: the check compares devices, whichever they are
    write_factory(factory_dir, """
        import torch
        def positional():
            return torch.nn.Linear(4, 2, device="meta"), (torch.ones(1, 4),)
        def nested():
            m = torch.nn.Linear(4, 2, device="meta")
            return m, ((), {"extra": [torch.ones(1, device="meta"), torch.ones(1)]})
    """)
    with pytest.raises(UserError) as e:
        load_custom("userpkg.models:positional")
    assert str(e.value) == ("userpkg.models:positional: input input (positional 0) is on cpu but the model is on "
                            "meta; create it there (device='meta') or .to() it")
    with pytest.raises(UserError) as e:
        load_custom("userpkg.models:nested")
    assert str(e.value).startswith("userpkg.models:nested: input extra[1] is on cpu but the model is on meta;")


def test_cli_bad_factory_is_one_line_and_exit_2(factory_dir, monkeypatch):
    import inductor_prof.pipeline as pipeline

    write_factory(factory_dir, "def make():\n    return 3\n")
    # past the CUDA check (none here): the factory is what fails, before any GPU work
    monkeypatch.setattr(pipeline, "require_cuda", lambda what: None)
    r = runner.invoke(app, ["profile", "userpkg.models:make", "--out", str(factory_dir / "run")])
    assert r.exit_code == 2
    assert r.output.strip().splitlines()[-1] == "error: userpkg.models:make must return (model, inputs); got int"


@pytest.mark.parametrize("body, message", [
    ("def make():\n    raise RuntimeError('no [bold]weights[/bold]')\n",
     "userpkg.models:make raised RuntimeError: no [bold]weights[/bold]"),
    ("import sys\ndef make():\n    sys.exit(3)\n", "userpkg.models:make raised SystemExit: 3"),
    ("def make(layers, seq=2):\n    pass\n", "userpkg.models:make takes arguments (layers, seq=2); profile calls "
     "it with none (give them defaults, or add a factory that passes them)"),
])
def test_factory_that_fails_or_needs_arguments_is_named(factory_dir, body, message):
    write_factory(factory_dir, body)
    with pytest.raises(UserError) as e:
        load_custom("userpkg.models:make")
    assert str(e.value) == message


def test_factory_with_defaults_only_is_called(factory_dir):
    write_factory(factory_dir, "import torch\ndef make(n=3):\n    return torch.nn.Linear(4, 2), (torch.ones(n, 4),)\n")
    assert load_custom("userpkg.models:make").args[0].shape == (3, 4)


@pytest.mark.parametrize("spec", ["userpkg.nope:make", "userpkg.models:absent", "userpkg.models:needs"])
def test_bad_target_leaves_no_run_folder_and_keeps_the_old_one(factory_dir, monkeypatch, spec):
    import shutil

    import inductor_prof.pipeline as pipeline
    from recorded import data_path

    write_factory(factory_dir, "def needs(n):\n    pass\n")
    monkeypatch.setattr(pipeline, "require_cuda", lambda what: None)   # past the CUDA check (none here)
    r = runner.invoke(app, ["profile", spec, "--out", str(factory_dir / "new")])
    assert r.exit_code == 2 and r.output.strip().startswith("error: ") and len(r.output.strip().splitlines()) == 1
    assert not (factory_dir / "new").exists()   # a later run with the same --out needs no --force
    old = factory_dir / "old"
    shutil.copytree(data_path("flux_small"), old)
    r = runner.invoke(app, ["profile", spec, "--out", str(old), "--force"])
    assert r.exit_code == 2 and (old / "proton" / "steps.hatchet").is_file()   # --force replaced nothing


def test_stacked_classes_and_named_blocks():
    m = Stack()
    assert blocks.stacked_classes(m) == {"Layer": 3}
    assert [name for name, _ in blocks.named_blocks(m, ["Layer"])] == ["layers.0", "layers.1", "layers.2"]
    with pytest.raises(UserError) as e:
        blocks.named_blocks(m, ["Layer", "DecoderLayer"])
    assert str(e.value) == ("--blocks DecoderLayer: no submodule of Stack has that class; classes it stacks: "
                            "Layer (3)")


def test_no_repeated_blocks_suggests_blocks_and_whole_model():
    from inductor_prof.targets.base import Target

    t = Target(name="userpkg.models:make", model=Stack(), args=(torch.ones(1, 4),))
    with pytest.raises(UserError) as e:
        compile_target(t, CompileOptions())
    # the library names the settings; the CLI shows its flags for them
    assert str(e.value) == ("userpkg.models:make declares no repeated blocks (_repeated_blocks) for regional "
                            "compile; pass blocks CLASS (layer classes it stacks: Layer (3)) or regional=False")
    assert e.value.shown(FLAGS) == ("userpkg.models:make declares no repeated blocks (_repeated_blocks) for "
                                    "regional compile; pass --blocks CLASS (layer classes it stacks: Layer (3)) or "
                                    "--whole-model")


def test_blocks_option_picks_the_regional_blocks():
    from inductor_prof.targets.base import Target

    t = Target(name="x", model=Stack(), args=(torch.ones(1, 4),))
    assert compile_target(t, CompileOptions(blocks=("Layer",))) == "regional"
    assert [name for name, _ in t.blocks] == ["layers.0", "layers.1", "layers.2"]


def test_blocks_with_whole_model_refused_before_gpu_work():
    r = runner.invoke(app, ["profile", "x.y:z", "--whole-model", "--blocks", "Layer"])
    assert r.exit_code == 2
    assert r.output.strip() == "error: --blocks names the blocks of regional compile; it cannot go with --whole-model"


class Printing(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(4, 4)

    def forward(self, x):
        print("inside the block")   # dynamo cannot put print in a graph: a graph break
        return self.lin(x)


def test_graph_break_under_regional_compile_is_one_line():
    from inductor_prof.targets.base import Target

    model = torch.nn.Sequential(Printing(), Printing())
    t = Target(name="x", model=model, args=(torch.ones(1, 4),), blocks=[("0", model[0]), ("1", model[1])])
    assert compile_target(t, CompileOptions()) == "regional"
    line = Printing.forward.__code__.co_firstlineno + 1
    with pytest.raises(UserError) as e, graph_breaks_explained(t, "regional"):
        t()
    assert str(e.value) == (f"a block (Printing) does not compile as one graph (regional compile uses "
                            f"fullgraph=True): Failed to trace builtin operator at {__file__}:{line} in forward; "
                            f"use regional=False (graph breaks allowed) or remove the break")
    assert e.value.shown(FLAGS).endswith("; use --whole-model (graph breaks allowed) or remove the break")


def test_graph_break_under_whole_model_is_left_alone():
    import torch._dynamo.exc

    with pytest.raises(torch._dynamo.exc.Unsupported), graph_breaks_explained(None, "whole-model"):
        raise torch._dynamo.exc.Unsupported("x")
