"""Which experiments answer which advice items (the items as report --json writes them)."""
from inductor_prof.analysis import experiment_plan as plan

HOST = {"what": "launch overhead and idle", "category": "host", "headroom_ms_per_step": 2.0}
RED = {"what": "triton_red_fused_x_1", "category": "Inductor reduction", "headroom_ms_per_step": 1.0}
GEMM = {"what": "nvjet_sm90_tst", "category": "GEMM", "headroom_ms_per_step": 0.5}
OTHER = {"what": "indexFuncLargeIndex", "category": "other", "headroom_ms_per_step": 3.0}


def test_the_advice_picks_its_experiments_in_the_order_of_the_items():
    got = plan.plan([OTHER, RED, HOST, GEMM], "default")
    assert [e.name for e in got] == ["coordinate_descent", "max_autotune", "cuda_graphs", "gemm_templates"]
    byname = {e.name: e for e in got}
    assert byname["cuda_graphs"].answers == ("launch overhead and idle",)
    assert byname["max_autotune"].answers == ("triton_red_fused_x_1", "nvjet_sm90_tst")
    assert byname["cuda_graphs"].mode == "reduce-overhead" and byname["cuda_graphs"].profile_flag == \
        "--mode reduce-overhead"


def test_only_the_top_items_count():
    assert [e.name for e in plan.plan([OTHER, HOST, GEMM], "default", top=2)] == ["cuda_graphs"]


def test_no_graphs_experiment_for_a_run_already_in_graphs():
    assert "cuda_graphs" not in [e.name for e in plan.plan([HOST], "reduce-overhead", asked=["cuda_graphs"])]
    # max-autotune-no-cudagraphs gets its graphs through max-autotune
    assert plan.plan([HOST], "max-autotune-no-cudagraphs")[0].mode == "max-autotune"


def test_an_asked_experiment_runs_though_no_item_calls_for_it():
    got = plan.plan([OTHER], "default", asked=["coordinate_descent"])
    assert [(e.name, e.answers) for e in got] == [("coordinate_descent", ())]
    assert got[0].options == {"coordinate_descent_tuning": True}


def test_the_applied_run_is_the_runs_own_command_with_the_option_changed():
    cmd = ["/x/inductor_prof/__main__.py", "profile", "flux", "--out", "/tmp/flux", "--force", "--steps", "10",
           "--mode=default", "--ncu"]
    assert plan.applied_command(cmd, "--mode reduce-overhead", "/tmp/flux-cuda_graphs") == [
        "inductor-prof", "profile", "flux", "--steps", "10", "--ncu", "--mode", "reduce-overhead", "--out",
        "/tmp/flux-cuda_graphs"]
    assert plan.applied_command(cmd, "", "x") is None   # an Inductor config line has no profile option


def test_an_attention_item_naming_a_backend_is_tried_with_that_backend():
    att = {"what": "cudnn_generated_fort_native_sdpa", "category": "attention", "headroom_ms_per_step": 1.1,
           "do": "use gluon_fa3 for (1,24,4608,128)"}
    other = {"what": "attention (2,8,512,64)", "category": "attention", "headroom_ms_per_step": 0.1,
             "do": "use triton_fa2 instead of sdpa_flash"}
    (e,) = plan.plan([att, other], "default", asked=["attention_backend"])
    assert (e.attention, e.answers) == ("gluon_fa3", ("cudnn_generated_fort_native_sdpa",))
    # an item saying nothing faster was measured names no backend: nothing to try
    assert plan.plan([{**att, "do": "nothing faster was measured for its calls"}], "default") == []


def test_an_asked_attention_experiment_takes_a_backend_named_below_the_top_items():
    att = {"what": "cudnn_sdpa", "category": "attention", "headroom_ms_per_step": 0.03,
           "do": "use gluon_fa3 for (2,32/8,2048,64),causal"}
    assert plan.plan([HOST, RED, att], "default", top=1) == [plan.plan([HOST], "default")[0]]   # not asked: not tried
    (e,) = plan.plan([HOST, RED, att], "default", asked=["attention_backend"], top=1)
    assert (e.attention, e.answers) == ("gluon_fa3", ("cudnn_sdpa",))
    assert plan.not_planned(["attention_backend"], [e], "default") == {}
    missing = plan.not_planned(["attention_backend", "cuda_graphs"], [], "reduce-overhead")
    assert "no advice item names a faster attention backend" in missing["attention_backend"]
    assert "already compiles with CUDA graphs" in missing["cuda_graphs"]


def test_the_decoders_advice_picks_the_attention_backend_it_names():
    """examples/runs/llama-h200 (the decoder, H200): its report's advice names gluon_fa3 for its attention shape
    (item 2); gemm_templates answers no item there (no GEMM has headroom in its advice) and runs only when asked."""
    from pathlib import Path

    from inductor_prof.analysis import load_run_tables

    root = Path(__file__).resolve().parents[2]
    advice = load_run_tables(root / "examples" / "runs" / "llama-h200").summary["headroom"]["next"]
    names = {e.name: e for e in plan.plan(advice, "default")}
    assert names["attention_backend"].attention == "gluon_fa3" and "gemm_templates" not in names
    asked = plan.plan(advice, "default", asked=["attention_backend", "gemm_templates"])
    assert [(e.name, e.attention) for e in asked] == [("attention_backend", "gluon_fa3"), ("gemm_templates", None)]
    assert asked[1].options == {"max_autotune_gemm": True} and asked[1].answers == ()
