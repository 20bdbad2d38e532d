"""The ceilings stage's Inductor template timing (pipeline/gemm_templates.py, ceilings.with_templates): when it
runs, how its child's output is read, and how its times join the model's GEMM rows. The timing itself runs on a
GPU: tests/gpu/test_gemm_templates.py."""
import json

from inductor_prof.pipeline import ceilings, gemm_templates


def test_templates_are_timed_when_asked_or_under_max_autotune():
    assert not gemm_templates.wanted("default", False)
    assert gemm_templates.wanted("default", True)
    assert gemm_templates.wanted("max-autotune", False) and gemm_templates.wanted("max-autotune-no-cudagraphs", False)


def test_only_marked_lines_of_the_child_are_results():
    out = ("AUTOTUNE addmm(4096x3072, ...)\n  triton_mm_58 0.1437 ms 100.0%\n"
           f'{gemm_templates.RESULT} {json.dumps({"op": "aten::mm", "dims": "[[2, 3], [3, 4]]", "template_ms": 0.5})}\n'
           f'{gemm_templates.RESULT} {json.dumps({"op": "aten::mm", "dims": "[[5, 3], [3, 4]]", "template_error": "x"})}\n')
    got = gemm_templates.results(out)
    assert [g.get("template_ms") for g in got] == [0.5, None] and got[1]["template_error"] == "x"


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
