"""A training run's attention stage: which runs are training runs (the recorded decoder training run's manifest),
and the probe's bookkeeping over its worker processes: a sticky CUDA error ends a worker after it said the
backend, a crash costs the backend in flight, the others are settled by fresh workers. The workers are fakes
that return what a worker's events would say; the real worker needs a GPU (scripts/gpu_check_attnbwd.sh)."""
import json

from inductor_prof import rundir
from inductor_prof.attention.benchmark.bench import BenchOptions
from inductor_prof.attention.semantics.grad_layout import GradLayout
from inductor_prof.attention.semantics.shapes import parse_shape
from inductor_prof.pipeline import attention_backward
from inductor_prof.pipeline.attention import training
from inductor_prof.procs import Finished, WorkerOutcome
from inductor_prof.settings import Settings
from recorded import REPO

TRAIN_RUN = REPO / "examples" / "runs" / "llama-train-h200"
INFERENCE_RUN = REPO / "examples" / "runs" / "llama-h200"


def test_a_training_runs_stage_also_times_forward_and_backward():
    train = json.loads((TRAIN_RUN / "manifest.json").read_text())
    infer = json.loads((INFERENCE_RUN / "manifest.json").read_text())
    assert attention_backward.is_training(train) and not attention_backward.is_training(infer)
    run = rundir.RunDir(TRAIN_RUN)
    opts = BenchOptions()
    assert training(train, run, opts, Settings()) and opts.backward and opts.probe is not None
    opts = BenchOptions()
    assert not training(infer, run, opts, None) and not opts.backward and opts.probe is None
    opts = BenchOptions(device="cpu")   # no process apart on a CPU: nothing there breaks a CUDA context
    assert training(train, run, opts, None) and opts.probe is None


def test_a_training_runs_stage_takes_the_upstream_gradients_layout_from_its_backward_calls(tmp_path):
    # the recorded decoder run: cuDNN's backward got grad_out [2,32,2048,64] strides [4194304, 64, 2048, 1] in its
    # 4 calls (library_ops.csv; tests/attention/semantics/test_grad_layout.py counts them): dense (B, S, H, D)
    opts = BenchOptions(device="cpu")
    training(json.loads((TRAIN_RUN / "manifest.json").read_text()), rundir.RunDir(TRAIN_RUN), opts, None)
    assert opts.grad_layouts == {"(2,32/8,2048,64),causal": GradLayout((4194304, 64, 2048, 1), 4)}
    # a run folder without library_ops.csv: nothing recorded, every dout contiguous
    assert attention_backward.grad_layouts(rundir.RunDir(tmp_path), [parse_shape("1,2,64,16")]) == {}


def _outcome(said: list[tuple[str, str]], result: bool, rc: int = 0) -> WorkerOutcome:
    events = [{"event": "phase", "name": attention_backward.PROBED, "detail": json.dumps({"backend": n, "error": e})}
              for n, e in said]
    if result:
        events.append({"event": "result", "value": {"probed": len(said)}})
    return WorkerOutcome(Finished(rc, 1.0, stderr="" if rc == 0 else "Segmentation fault"), None, events)


def test_probe_settles_every_backend_over_crashes_and_sticky_errors(tmp_path):
    # worker 0: a ok, b a sticky error (it says b, then stops: the device is unusable) -> result
    # worker 1: c in flight when the process died (no word on c, no result) -> c crashed
    # worker 2: d ok
    outcomes = [_outcome([("a", ""), ("b", "CUDA error: an illegal memory access was encountered")], True),
                _outcome([], False, rc=-11), _outcome([("d", "")], True)]
    specs = []

    def run_worker(spec, log, timeout):
        specs.append((list(spec.backends), log.name))
        return outcomes[len(specs) - 1]
    run = rundir.RunDir(tmp_path)
    said = attention_backward.probe(run, Settings(), parse_shape("1,24,4608,128"), ["a", "b", "c", "d"],
                                    run_worker=run_worker)
    assert specs == [(["a", "b", "c", "d"], "backward_probe_0.log"), (["c", "d"], "backward_probe_1.log"),
                     (["d"], "backward_probe_2.log")]
    assert said["a"] == "" and said["d"] == ""
    assert said["b"] == "CUDA error: an illegal memory access was encountered"
    assert said["c"].startswith("crashed the process running it (") and "backward_probe_1.log" in said["c"]


def test_a_later_probe_of_the_shape_keeps_the_earlier_logs(tmp_path):
    # the contiguous variants are probed after the backends (attention/benchmark/backward.py): their worker's log
    # is numbered on, not written over backward_probe_0.log
    run = rundir.RunDir(tmp_path)
    run.attention_dir.mkdir(parents=True)
    run.attention_probe_log(0).write_text("the backends' probe")
    logs = []

    def run_worker(spec, log, timeout):
        logs.append(log.name)
        return _outcome([(n, "") for n in spec.backends], True)
    attention_backward.probe(run, Settings(), parse_shape("1,24,4608,128"), ["sdpa_cudnn (q,k,v contiguous)"],
                             run_worker=run_worker)
    assert logs == ["backward_probe_1.log"] and run.attention_probe_log(0).read_text() == "the backends' probe"


def test_probe_of_a_worker_that_says_nothing_ends(tmp_path):
    calls = []

    def run_worker(spec, log, timeout):
        calls.append(spec.backends)
        return _outcome([], True)   # a result but no word on any backend: the first is charged, no loop forever
    said = attention_backward.probe(rundir.RunDir(tmp_path), Settings(), parse_shape("1,2,64,16"), ["a", "b"],
                                    run_worker=run_worker)
    assert len(calls) == 2 and set(said) == {"a", "b"}


class _Events:
    def __init__(self):
        self.phases = []

    def phase(self, name, detail=""):
        self.phases.append((name, json.loads(detail)))


def _small_probe_run(tmp_path, monkeypatch) -> None:
    """The training run's first captured call at (1,4/2,64,16) in tmp_path, the probe worker on the CPU."""
    run = rundir.RunDir(tmp_path)
    calls = json.loads((TRAIN_RUN / "attention_shapes.json").read_text())[:1]
    small = {**calls[0], "B": 1, "H": 4, "Hkv": 2, "Sq": 64, "Sk": 64, "D": 16, "mask_pairs": 64 * 65 // 2}
    run.attention_shapes_json.write_text(json.dumps([small]))
    monkeypatch.setattr(attention_backward, "require_cuda", lambda what: None)
    monkeypatch.setattr(attention_backward, "DEVICE", "cpu")


def test_the_probe_worker_says_each_backend_of_the_runs_shape(tmp_path, monkeypatch):
    """The worker's side, on a CPU (no CUDA check, device cpu): the shape found among the run's captured calls by
    its label, a phase event per backend with its error."""
    _small_probe_run(tmp_path, monkeypatch)
    from inductor_prof.specs import AttentionProbeSpec

    events = _Events()
    spec = AttentionProbeSpec(run=str(tmp_path), shape="(1,4/2,64,16),causal", backends=["sdpa_math", "gluon_fa3"])
    assert attention_backward.work(spec, events) == {"probed": 2}
    assert [(n, d["backend"], bool(d["error"])) for n, d in events.phases] == [
        (attention_backward.PROBED, "sdpa_math", False), (attention_backward.PROBED, "gluon_fa3", True)]


def test_the_probe_worker_builds_a_contiguous_variant_from_its_row_name(tmp_path, monkeypatch):
    _small_probe_run(tmp_path, monkeypatch)
    from inductor_prof.specs import AttentionProbeSpec

    events = _Events()
    name = "sdpa_math (q,k,v contiguous)"
    spec = AttentionProbeSpec(run=str(tmp_path), shape="(1,4/2,64,16),causal", backends=[name])
    assert attention_backward.work(spec, events) == {"probed": 1}
    assert [(d["backend"], d["error"]) for _, d in events.phases] == [(name, "")]


def test_the_probe_worker_runs_the_dout_layout_its_run_recorded(tmp_path, monkeypatch, capsys):
    """The worker's probe gets the layout of the run's library_ops.csv (a decoder backward row of
    examples/runs/llama-train-h200 cut to the small shape (1,4/2,64,16): grad_out strides [4096, 16, 64, 1], the
    (B, S, H, D) order of the recorded one) and says it in its log."""
    import pandas as pd

    run = rundir.RunDir(tmp_path)
    calls = json.loads((TRAIN_RUN / "attention_shapes.json").read_text())[:1]
    small = {**calls[0], "B": 1, "H": 4, "Hkv": 2, "Sq": 64, "Sk": 64, "D": 16, "mask_pairs": 64 * 65 // 2}
    run.attention_shapes_json.write_text(json.dumps([small]))
    lib = pd.read_csv(TRAIN_RUN / "library_ops.csv", keep_default_na=False)
    row = lib[lib["op"] == "aten::_cudnn_attention_backward"].iloc[:1].copy()
    dims, strides = json.loads(row["dims"].iloc[0]), json.loads(row["strides"].iloc[0])
    dims[:4] = [[1, 4, 64, 16], [1, 4, 64, 16], [1, 2, 64, 16], [1, 2, 64, 16]]
    strides[:4] = [[4096, 16, 64, 1], [4096, 16, 64, 1], [2048, 16, 32, 1], [2048, 16, 32, 1]]
    row["dims"], row["strides"] = json.dumps(dims), json.dumps(strides)
    row.to_csv(run.library_ops_csv, index=False)
    monkeypatch.setattr(attention_backward, "require_cuda", lambda what: None)
    monkeypatch.setattr(attention_backward, "DEVICE", "cpu")
    got = []
    monkeypatch.setattr(attention_backward, "probe_calls",
                        lambda shape, backends, device, said, layout, qkv: got.append((layout, qkv)))
    from inductor_prof.specs import AttentionProbeSpec

    spec = AttentionProbeSpec(run=str(tmp_path), shape="(1,4/2,64,16),causal", backends=["sdpa_math"])
    attention_backward.work(spec, _Events())
    # q, k, v as the recorded call had them: its attention_shapes.json says "layout": "bshd"
    assert got == [(GradLayout((4096, 16, 64, 1), 1), "bshd")]
    assert "dout: (B,S,H,D); q, k, v: (B,S,H,D)" in capsys.readouterr().out


def test_the_stage_says_which_backends_its_probe_kept_out():
    from inductor_prof.pipeline.attention import note_lines

    lines = note_lines({"backward_probe_failed": {"(1,24,4608,128)": {
        "sdpa_cudnn": "CUDA error: an illegal memory access was encountered"}}})
    assert lines == ["(1,24,4608,128) forward+backward: sdpa_cudnn failed in a process apart, kept out of the "
                     "stage's (CUDA error: an illegal memory access was encountered)"]


def test_a_worker_that_crashed_after_saying_some_charges_the_one_in_flight(tmp_path):
    # it said a, then died on b: b is charged at once (no fresh worker to crash again on it); c gets a fresh one
    outcomes = [_outcome([("a", "")], False, rc=-6), _outcome([("c", "")], True)]
    specs = []

    def run_worker(spec, log, timeout):
        specs.append(list(spec.backends))
        return outcomes[len(specs) - 1]
    said = attention_backward.probe(rundir.RunDir(tmp_path), Settings(), parse_shape("1,2,64,16"), ["a", "b", "c"],
                                    run_worker=run_worker)
    assert specs == [["a", "b", "c"], ["c"]]
    assert said["a"] == "" and said["c"] == "" and said["b"].startswith("crashed the process running it")
