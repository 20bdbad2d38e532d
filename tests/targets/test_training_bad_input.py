"""Issue 50's bad input, each through the CLI: one line naming the problem, exit 2, nothing compiled (the checks run
in the build stage, before compile); and the TrainingStep checks test_training.py leaves out, each as its one line."""
import pytest
from typer.testing import CliRunner

from inductor_prof.cli import app
from inductor_prof.errors import UserError
from inductor_prof.targets import load_custom

from .test_custom import factory_dir, write_factory  # noqa: F401 (fixture)
from .test_training import factory

runner = CliRunner()


@pytest.fixture()
def no_compile(monkeypatch):
    """A profile that gets past the GPU check on this CPU machine, and records whether anything compiled."""
    import inductor_prof.pipeline as pipeline
    import inductor_prof.pipeline.compile as compile_stage

    monkeypatch.setattr(pipeline, "require_cuda", lambda what: None)
    compiled: list = []
    monkeypatch.setattr(compile_stage, "compile_target", lambda *a: compiled.append(a))
    return compiled


@pytest.mark.parametrize("body, train, line", [
    # a step that does not call backward under --train: the inference convention
    ("""
def make():
    return Net(), inputs()
""", True, "error: userpkg.models:make returned an inference step (tuple), which calls no backward; under --train "
           "return inductor_prof.targets.TrainingStep(model, inputs, loss_fn, optimizer)"),
    # an optimizer whose parameters are not the model's
    ("""
def make():
    model = Net()
    return TrainingStep(model, inputs(), lambda out: out.sum(), torch.optim.AdamW(torch.nn.Linear(2, 2).parameters()))
""", True, "error: userpkg.models:make: the optimizer's parameters are not the model's: 2 of its 2 tensors are not "
           "parameters of the Net (build it from model.parameters())"),
    # a training step without --train
    ("""
def make():
    model = Net()
    return TrainingStep(model, inputs(), lambda out: out.sum())
""", False, "error: userpkg.models:make returned a TrainingStep: pass --train to profile its training step"),
])
def test_cli_bad_training_input_is_one_line_exit_2_before_compile(factory_dir, no_compile, body, train, line):
    factory(factory_dir, body)
    r = runner.invoke(app, ["profile", "userpkg.models:make", *(["--train"] if train else []),
                            "--out", str(factory_dir / "run")])
    assert r.exit_code == 2, r.output
    assert r.output.strip().splitlines()[-1] == line
    assert not no_compile


def test_cli_train_on_one_rank_is_refused_before_gpu_work():
    # --train --nproc N runs data parallel ranks (targets/data_parallel.py): one rank has nothing to spread
    r = runner.invoke(app, ["profile", "flux", "--train", "--nproc", "1"])
    assert r.exit_code == 2
    assert r.output.strip() == ("error: --train --nproc 1: a training step over ranks needs 2 or more (data "
                                "parallel); leave out --nproc to train on one GPU")


@pytest.mark.parametrize("body, message", [
    ("""
def make():
    model = Net()
    return TrainingStep(model, inputs(), lambda out: 1.0)
""", "userpkg.models:make: loss_fn returned a float, not a tensor; return a scalar loss"),
    ("""
def make():
    model = Net()
    return TrainingStep(model, inputs(), lambda out: (out.sum() > 0).long())
""", "userpkg.models:make: the loss is a torch.int64 tensor; backward needs a floating one"),
    ("""
def make():
    model = Net()
    return TrainingStep(model, inputs(), lambda out: out.sum(), optimizer="adam")
""", "userpkg.models:make: optimizer is a str, not a torch.optim.Optimizer"),
    ("""
def make():
    return TrainingStep(Net(), inputs(), loss_fn="mse")
""", "userpkg.models:make: loss_fn is a str, not a callable of the model's output"),
    ("""
def make():
    model = Net()
    model.requires_grad_(False)
    return TrainingStep(model, inputs(), lambda out: out.sum())
""", "userpkg.models:make: no parameter of the Net requires grad: nothing to train (requires_grad_(True) on the "
     "trainable part)"),
    ("""
def loss_of(out):
    return out.logits.sum()   # a model output without the field the loss reads

def make():
    return TrainingStep(Net(), inputs(), loss_of)
""", "userpkg.models:make: the eager forward and loss failed: AttributeError: 'Tensor' object has no attribute "
     "'logits'"),
])
def test_other_bad_training_steps_are_one_line(factory_dir, body, message):
    factory(factory_dir, body)
    with pytest.raises(UserError) as e:
        load_custom("userpkg.models:make", train=True)
    assert str(e.value) == message
