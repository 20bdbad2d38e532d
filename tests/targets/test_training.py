"""Training targets (`--train`): the TrainingStep convention, the step's three phases in order, and each bad
input as one line naming the problem (exit 2 from the CLI), found before anything is compiled."""
import pytest
import torch
from typer.testing import CliRunner

from inductor_prof.cli import app
from inductor_prof.errors import UserError
from inductor_prof.targets import PHASES, TrainingStep, load_custom
from inductor_prof.targets.training import phases_around

from .test_custom import factory_dir, write_factory  # noqa: F401 (fixture)

runner = CliRunner()

TINY = """
import torch
from inductor_prof.targets import TrainingStep

class Layer(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(4, 4)

    def forward(self, x):
        return torch.relu(self.lin(x))

class Net(torch.nn.Module):
    _repeated_blocks = ["Layer"]

    def __init__(self):
        super().__init__()
        torch.manual_seed(0)
        self.layers = torch.nn.ModuleList([Layer() for _ in range(2)])

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x

def inputs():
    return (torch.randn(3, 4),)
"""


def factory(folder, body: str):
    write_factory(folder, TINY + body)


def test_training_step_runs_forward_backward_optimizer_in_order(factory_dir):
    factory(factory_dir, """
def make():
    model = Net()
    return TrainingStep(model, inputs(), lambda out: out.square().mean(),
                        torch.optim.SGD(model.parameters(), lr=0.1))
""")
    target = load_custom("userpkg.models:make", train=True)
    assert target.training is not None and target.info["training"]["optimizer"] == "SGD"
    # 2 layers of Linear(4, 4): 2 * (16 + 4) parameters trained
    assert target.info["training"]["trained_parameters"] == 40
    before = [p.detach().clone() for p in target.model.parameters()]
    seen = []

    from contextlib import contextmanager

    @contextmanager
    def phase(name):
        grads = [p.grad is not None for p in target.model.parameters()]
        seen.append((name, any(grads)))
        yield

    with phases_around(target.training, phase):
        loss = target()
    assert [name for name, _ in seen] == list(PHASES)
    # gradients exist when the optimizer phase starts (backward ran), none before backward
    assert seen == [("forward", False), ("backward", False), ("optimizer", True)]
    assert loss.dim() == 0
    assert all(p.grad is None for p in target.model.parameters())   # zero_grad(set_to_none=True)
    assert any(not torch.equal(b, p) for b, p in zip(before, target.model.parameters()))   # the step updated


def test_default_optimizer_is_adamw_over_trainable_parameters(factory_dir):
    factory(factory_dir, """
def make():
    model = Net()
    model.layers[0].requires_grad_(False)
    return TrainingStep(model, inputs(), lambda out: out.sum())
""")
    target = load_custom("userpkg.models:make", train=True)
    assert target.info["training"]["optimizer"] == "AdamW"
    assert target.info["training"]["trained_parameters"] == 20   # only the second Linear(4, 4)


@pytest.mark.parametrize("body, message", [
    ("""
def make():
    model = Net()
    return TrainingStep(model, inputs(), lambda out: out.square(), torch.optim.SGD(model.parameters(), lr=0.1))
""", "userpkg.models:make: the loss is not a scalar: loss_fn returned a tensor of shape (3, 4); reduce it "
     "(.mean(), .sum())"),
    ("""
def make():
    model = Net()
    other = torch.nn.Linear(4, 4)
    return TrainingStep(model, inputs(), lambda out: out.sum(),
                        torch.optim.AdamW([*model.parameters(), *other.parameters()]))
""", "userpkg.models:make: the optimizer's parameters are not the model's: 2 of its 6 tensors are not "
     "parameters of the Net (build it from model.parameters())"),
    ("""
def make():
    model = Net()
    return TrainingStep(model, inputs(), lambda out: out.detach().sum(), torch.optim.SGD(model.parameters(), lr=1))
""", "userpkg.models:make: the loss does not depend on any parameter that requires grad: backward would "
     "compute nothing (does loss_fn detach the output, or run under no_grad?)"),
    ("""
def make():
    model = Net()
    model.requires_grad_(False)
    return TrainingStep(model, inputs(), lambda out: out.sum(), torch.optim.SGD(model.parameters(), lr=1))
""", "userpkg.models:make: none of the optimizer's 4 parameters requires grad: nothing to train "
     "(requires_grad_(True) on the trainable part)"),
    ("""
def make():
    model = Net()
    # the loss reads the first layer only: the second's parameters would get no gradient
    return TrainingStep(model, inputs(), lambda out: model.layers[0].lin.weight.sum() + 0 * out.detach().sum(),
                        torch.optim.SGD(model.layers[1].parameters(), lr=1))
""", "userpkg.models:make: the loss does not depend on any of the optimizer's 2 parameters: backward would "
     "leave them without gradients"),
    ("""
def make():
    return Net(), inputs()
""", "userpkg.models:make returned an inference step (tuple), which calls no backward; under --train return "
     "inductor_prof.targets.TrainingStep(model, inputs, loss_fn, optimizer)"),
])
def test_bad_training_step_is_one_line(factory_dir, body, message):
    factory(factory_dir, body)
    with pytest.raises(UserError) as e:
        load_custom("userpkg.models:make", train=True)
    assert str(e.value) == message


def test_training_step_without_train_is_refused(factory_dir):
    factory(factory_dir, """
def make():
    model = Net()
    return TrainingStep(model, inputs(), lambda out: out.sum())
""")
    with pytest.raises(UserError, match="returned a TrainingStep: pass --train"):
        load_custom("userpkg.models:make")


def test_cli_non_scalar_loss_is_exit_2_before_compile(factory_dir, monkeypatch):
    import inductor_prof.pipeline as pipeline
    import inductor_prof.pipeline.compile as compile_stage

    factory(factory_dir, """
def make():
    model = Net()
    return TrainingStep(model, inputs(), lambda out: out * 2)
""")
    monkeypatch.setattr(pipeline, "require_cuda", lambda what: None)
    compiled = []
    monkeypatch.setattr(compile_stage, "compile_target", lambda *a: compiled.append(a))
    r = runner.invoke(app, ["profile", "userpkg.models:make", "--train", "--out", str(factory_dir / "run")])
    assert r.exit_code == 2 and not compiled
    assert r.output.strip().splitlines()[-1] == ("error: userpkg.models:make: the loss is not a scalar: loss_fn "
                                                 "returned a tensor of shape (3, 4); reduce it (.mean(), .sum())")


def test_cli_train_refuses_several_sizes_before_gpu_work():
    r = runner.invoke(app, ["profile", "flux", "--train", "--resolutions", "512x512,1024x1024"])
    assert r.exit_code == 2
    assert r.output.strip() == "error: --train profiles one input size; leave out --resolutions"


def test_decoder_training_example_builds_and_steps_on_cpu(monkeypatch):
    pytest.importorskip("transformers")
    import sys

    from recorded import REPO

    monkeypatch.syspath_prepend(str(REPO))
    from examples.models import llama_train
    from inductor_prof.targets.training import build_training

    step = llama_train.training_step(layers=1, batch=2, seq=8, device="cpu", dtype=torch.float32, hidden_size=32,
                                     intermediate_size=64, num_attention_heads=4, num_key_value_heads=2,
                                     head_dim=8, vocab_size=50)
    training = build_training("llama_train", step, (), step.inputs)
    loss = training.step((), step.inputs)
    # random weights: the next-token loss starts near log(vocabulary) = log(50) = 3.9
    assert loss.dim() == 0 and 3.0 < float(loss) < 5.0
    assert "examples.models.llama_train" in sys.modules
