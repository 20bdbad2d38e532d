"""Several input sizes from the command line and from a factory: --resolutions checked before any GPU work,
a factory's InputSets (names, order, default), and the one-size behaviour unchanged."""
import sys
import textwrap

import pytest
import torch
from typer.testing import CliRunner

from inductor_prof.cli import app
from inductor_prof.errors import UserError
from inductor_prof.targets import InputSets, load_custom, parse_resolutions, resolution_options
from inductor_prof.targets.inputs import named_sets

runner = CliRunner()


def test_resolutions_parse_width_by_height():
    # WIDTHxHEIGHT: 768x1344 is 768 wide, 1344 high; names as given, the first the default
    assert parse_resolutions("1024x1024,768x1344, 512x512") == [
        ("1024x1024", 1024, 1024), ("768x1344", 1344, 768), ("512x512", 512, 512)]
    assert resolution_options("flux", "768x1344,512x512", None, None) == {
        "height": 1344, "width": 768, "resolutions": ("768x1344", "512x512")}
    assert resolution_options("flux", None, 512, 256) == {"height": 512, "width": 256}
    assert resolution_options("flux", None, None, None) == {"height": 1024, "width": 1024}   # the default
    assert resolution_options("pkg.mod:make", None, 1000, None) == {"height": 1000, "width": 1024}   # not FLUX's


@pytest.mark.parametrize("argv, named", [
    # --height was ignored beside --resolutions
    (["--resolutions", "512x512", "--height", "768"], "--resolutions gives every size (WIDTHxHEIGHT, the first "
                                                      "the default): leave out --height/--width"),
    # 1000 is not a multiple of 16: said before the CUDA check, not after building the model
    (["--height", "1000"], "--height/--width: FLUX cannot take 1024x1000: width and height must be positive "
                           "multiples of 16 pixels"),
])
def test_height_and_width_checked_before_gpu_work(argv, named):
    r = runner.invoke(app, ["profile", "flux", *argv, "--out", "unused"])
    assert r.exit_code == 2 and r.stderr.strip() == f"error: {named}"


@pytest.mark.parametrize("text, named", [
    ("1024x1024,1000x1024", "FLUX cannot take 1000x1024"),      # 1000 is not a multiple of 16
    ("1024x1000", "FLUX cannot take 1024x1000"),                # nor 1000 high
    ("0x512", "FLUX cannot take 0x512"),
    ("1024x1024,big", "'big' is not WIDTHxHEIGHT"),
    ("512x512,512x512", "512x512 is listed twice"),
    ("1024x1024,", "'' is not WIDTHxHEIGHT"),
])
def test_bad_resolutions_are_one_line_before_gpu_work(text, named):
    with pytest.raises(UserError, match=named):
        parse_resolutions(text)
    r = runner.invoke(app, ["profile", "flux", "--resolutions", text, "--out", "unused"])
    # exit 2 and the size named: the check runs before the CUDA check (this machine has no GPU)
    assert r.exit_code == 2 and named in r.output and "CUDA" not in r.output


def test_resolutions_are_for_flux_only():
    r = runner.invoke(app, ["profile", "pkg.mod:factory", "--resolutions", "512x512", "--out", "unused"])
    assert r.exit_code == 2 and "InputSets" in r.output


@pytest.fixture
def factory_module(tmp_path, monkeypatch):
    (tmp_path / "sizes_factory.py").write_text(textwrap.dedent("""
        import torch
        from inductor_prof.targets import InputSets

        def model():
            return torch.nn.Linear(4, 2)

        def several():
            return model(), InputSets({"seq8": (torch.ones(8, 4),), "seq2": {"input": torch.ones(2, 4)}})

        def one():
            return model(), (torch.ones(3, 4),)

        def empty():
            return model(), InputSets()

        def bad_name():
            return model(), InputSets({"a/b": (torch.ones(1, 4),)})

        def step_like():
            return model(), InputSets({"step_1": (torch.ones(1, 4),), "x": (torch.ones(1, 4),)})

        def one_size_elsewhere():   # meta stands in for cuda: only the second size's input is off the model
            return (torch.nn.Linear(4, 2, device="meta"),
                    InputSets({"seq8": (torch.ones(8, 4, device="meta"),), "seq2": {"input": torch.ones(2, 4)}}))
    """))
    monkeypatch.syspath_prepend(str(tmp_path))
    yield "sizes_factory"
    sys.modules.pop("sizes_factory", None)


def test_factory_input_sets(factory_module):
    t = load_custom(f"{factory_module}:several")
    assert list(t.sizes) == ["seq8", "seq2"]
    assert t.args[0].shape == (8, 4) and t.kwargs == {}          # the first set is the default
    steps = t.each_size()
    assert [name for name, _ in steps] == ["seq8", "seq2"]
    assert [step().shape for _, step in steps] == [torch.Size([8, 2]), torch.Size([2, 2])]


def test_factory_one_input_set_is_as_before(factory_module):
    t = load_custom(f"{factory_module}:one")
    assert t.sizes == {} and [name for name, _ in t.each_size()] == [None]
    assert t().shape == (3, 2)


@pytest.mark.parametrize("factory, message", [
    ("empty", "empty InputSets"), ("bad_name", "'a/b'"), ("step_like", "'step_1'"),
    ("one_size_elsewhere", "input input of size 'seq2' is on cpu but the model is on meta;")])
def test_factory_bad_input_sets(factory_module, factory, message):
    with pytest.raises(UserError, match=message):
        load_custom(f"{factory_module}:{factory}")


def test_input_sets_is_a_mapping_in_order():
    sets = InputSets({"b": 1, "a": 2})
    assert list(sets) == ["b", "a"] and isinstance(sets, dict)


# ---- (mutation audit) targets/inputs.py ----


def test_bad_size_name_message_word_for_word():
    with pytest.raises(UserError) as e:
        named_sets(InputSets({"step_0": ()}), "pkg.mod:make")
    assert str(e.value) == ("pkg.mod:make: input size name 'step_0' must be 1 to 64 letters, digits or _.+=- "
                            "starting with a letter or digit, and not step_... (it names a Proton scope)")
