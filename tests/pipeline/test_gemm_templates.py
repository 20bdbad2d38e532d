"""The ceilings stage's Inductor template timing (pipeline/gemm_templates.py, ceilings.with_templates): when it
runs, how its child's output is read, and how its times join the model's GEMM rows. The timing itself runs on a
GPU: tests/gpu/test_gemm_templates.py."""
import pytest

from inductor_prof.pipeline import ceilings, gemm_templates
from inductor_prof.specs import GemmTemplatesSpec


def test_templates_are_timed_when_asked_or_under_max_autotune():
    assert not gemm_templates.wanted("default", False)
    assert gemm_templates.wanted("default", True)
    assert gemm_templates.wanted("max-autotune", False) and gemm_templates.wanted("max-autotune-no-cudagraphs", False)


def test_each_shape_is_a_progress_event_and_the_list_the_result(tmp_path, monkeypatch):
    # the worker's side with time_one stood in for (it compiles on a GPU): what the parent reads comes as events
    from inductor_prof import procs
    from inductor_prof.events import Events

    monkeypatch.setattr(gemm_templates, "time_one", lambda spec: {"op": spec["op"], "template_ms": 0.5})
    events = tmp_path / "events.jsonl"
    got = gemm_templates.work(GemmTemplatesSpec(shapes=[{"op": "aten::mm"}, {"op": "aten::addmm"}]), Events(events))
    assert got == [{"op": "aten::mm", "template_ms": 0.5}, {"op": "aten::addmm", "template_ms": 0.5}]
    seen = procs.read_events(events)[0]
    assert [(e["done"], e["total"], e["what"]) for e in seen] == [(1, 2, "aten::mm"), (2, 2, "aten::addmm")]


def test_a_failed_worker_is_the_stage_error_naming_the_log(tmp_path):
    # a spec the worker cannot time (no shapes is fine; a shape without its op is a KeyError in the work)
    with pytest.raises(RuntimeError, match=r"Inductor GEMM templates: .*\(log: "):
        gemm_templates.in_subprocess([{"dims": []}], tmp_path / "cache", tmp_path / "log")


def test_template_times_join_the_gemm_row_of_the_same_call_only():
    gemms = [{"shape": "4096x4096x4096 bf16", "tflops": 700.0},                       # a square GEMM: no call
             {"op": "aten::addmm", "dims": "[[3072], [4096, 3072]]", "ms": 0.13},
             {"op": "aten::addmm", "dims": "[[64], [4096, 64]]", "ms": 0.01}]
    templates = [{"op": "aten::addmm", "dims": "[[3072], [4096, 3072]]", "template_ms": 0.15,
                  "template_kernel": "triton_tem_fused_addmm_0"},
                 {"op": "aten::mm", "dims": "[[64], [4096, 64]]", "template_error": "no config"}]   # another op
    rows = ceilings.with_templates(gemms, templates)
    assert rows[0] == gemms[0] and rows[2] == gemms[2]
    assert rows[1] == {**gemms[1], "template_ms": 0.15, "template_kernel": "triton_tem_fused_addmm_0"}


def test_best_rates_by_width():
    # the ceilings stage's GEMM rows: bf16 squares and the model's own (rows recorded before flops_key: bf16),
    # an fp8 and an int8 8192^3 (one 8-bit roof: the higher), a failed int8 row without a rate
    gemms = [{"shape": "8192 bf16", "flops_key": "flops16", "tflops": 702.5}, {"shape": "model", "tflops": 731.0},
             {"shape": "8192 fp8", "flops_key": "flops8", "tflops": 1410.2},
             {"shape": "8192 int8", "flops_key": "flops8", "tflops": 905.0},
             {"shape": "8192 int8", "error": "no int8 kernel"}]
    assert ceilings.best_rates(gemms) == {"flops16_tflops": 731.0, "flops8_tflops": 1410.2}
