"""ncu numbers (drivers/ncu/metrics.py): unit normalisation of each metric ncu_report hands back, the derived
totals (flops, DRAM and local bytes), and the recorded FLUX report re-derived from its raw counters through
NVIDIA's reader."""
import pytest

from recorded import data_path
from inductor_prof.drivers.ncu import metrics as ncu_metrics
from inductor_prof.drivers.ncu import report as ncu_reader


TIME = "gpu__time_duration.sum"
DRAM_READ = "dram__bytes_read.sum"
DRAM_WRITE = "dram__bytes_write.sum"


# (unit as ncu spells it, value, the value in ns), factors by hand: 1 us = 1,000 ns, 1 ms = 1,000,000 ns,
# 1 s = 1,000,000,000 ns
@pytest.mark.parametrize("unit, value, ns", [
    ("nsecond", 2.5, 2.5),
    ("usecond", 2.5, 2_500.0),
    ("msecond", 2.5, 2_500_000.0),
    ("second", 2.5, 2_500_000_000.0),
    ("ns", 97600.0, 97600.0),      # what ncu_report itself writes (both recorded reports): already ns
])
def test_time_units_to_ns(unit, value, ns):
    m = ncu_metrics.from_raw({TIME: (value, unit)})
    assert m["duration_ns"] == pytest.approx(ns, rel=1e-12)


# decimal prefixes are powers of 1,000; binary ones powers of 1,024:
# 1 KiB = 1,024 B, 1 MiB = 1,024^2 = 1,048,576 B, 1 GiB = 1,024^3 = 1,073,741,824 B
@pytest.mark.parametrize("unit, value, nbytes", [
    ("byte", 3.0, 3.0),
    ("Kbyte", 3.0, 3_000.0),
    ("Mbyte", 3.0, 3_000_000.0),
    ("Gbyte", 3.0, 3_000_000_000.0),
    ("KiByte", 3.0, 3 * 1_024.0),                    # 3,072
    ("MiByte", 3.0, 3 * 1_048_576.0),                # 3,145,728
    ("GiByte", 3.0, 3 * 1_073_741_824.0),            # 3,221,225,472
])
def test_byte_units_to_bytes(unit, value, nbytes):
    m = ncu_metrics.from_raw({DRAM_READ: (value, unit)})
    assert m["dram_read_bytes"] == pytest.approx(nbytes, rel=1e-12)
    assert m["dram_bytes"] == pytest.approx(nbytes, rel=1e-12)   # derived after conversion


def test_units_are_converted_before_the_totals_are_derived():
    # 1.5 Mbyte read = 1,500,000 B; 250 KiByte written = 256,000 B; total 1,756,000 B
    m = ncu_metrics.from_raw({DRAM_READ: (1.5, "Mbyte"), DRAM_WRITE: (250.0, "KiByte")})
    assert m["dram_bytes"] == pytest.approx(1_756_000.0, rel=1e-12)


def test_percent_counts_and_registers_pass_unchanged():
    m = ncu_metrics.from_raw({
        "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed": (54.65, "%"),
        "launch__registers_per_thread": (16.0, "register/thread"),   # ncu_report's unit for registers
        "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum": (7.0, "inst"),
    })
    assert m["sol_memory_pct"] == 54.65
    assert m["registers"] == 16.0
    assert m["fadd"] == 7.0


@pytest.mark.parametrize("unit", ["furlong", "", None, "KB"])
def test_unknown_unit_on_a_size_or_time_is_an_error_not_a_factor_of_one(unit):
    # a silent factor of 1 for an unknown scale ("us", "KB") would be 1000x off with no sign of it
    with pytest.raises(ValueError, match="unknown unit"):
        ncu_metrics.from_raw({"lts__t_bytes.sum": (11.0, unit)})
    with pytest.raises(ValueError, match="unknown unit"):
        ncu_metrics.from_raw({TIME: (5.0, unit)})


def test_metrics_not_asked_for_are_left_out():
    m = ncu_metrics.from_raw({TIME: (5.0, "ns"), "some__other_metric.sum": (1.0, "byte")})
    assert m == {"duration_ns": 5.0}          # ncu_report's own unit names: "ns", "byte"


def test_every_short_name_reads_its_own_raw_metric():
    # each raw metric gets a distinct value: a short name wired to another raw name is caught
    unit = {short: "ns" if short.endswith("_ns") else "byte" if short.endswith("_bytes") else ""
            for short in ncu_metrics.METRICS}
    raw = {name: (float(i + 1), unit[short]) for i, (short, name) in enumerate(ncu_metrics.METRICS.items())}
    m = ncu_metrics.from_raw(raw)
    for short, name in ncu_metrics.METRICS.items():
        assert m[short] == raw[name][0], short


# ---- derive: distinct primes, so a key counted with the wrong weight or swapped changes the sum ------------

COUNTERS = {"fadd": 2, "fmul": 3, "ffma": 5, "hadd": 7, "hmul": 11, "hfma": 13, "dadd": 17, "dmul": 19,
            "dfma": 23}


def test_flops_fma_counts_twice():
    # adds and muls: 2+3+7+11+17+19 = 59; FMAs 5+13+23 = 41, two flops each = 82; total 141
    assert ncu_metrics.derive(COUNTERS)["flops"] == 141


@pytest.mark.parametrize("key, flops", [
    ("fadd", 2), ("fmul", 3), ("hadd", 7), ("hmul", 11), ("dadd", 17), ("dmul", 19),   # one flop each
    ("ffma", 10), ("hfma", 26), ("dfma", 46),                                          # 2 x 5, 2 x 13, 2 x 23
])
def test_flops_each_counter_alone(key, flops):
    assert ncu_metrics.derive({key: COUNTERS[key]})["flops"] == flops


def test_dram_bytes_is_read_plus_write():
    assert ncu_metrics.derive({"dram_read_bytes": 101, "dram_write_bytes": 103})["dram_bytes"] == 204
    assert ncu_metrics.derive({"dram_write_bytes": 103})["dram_bytes"] == 103     # the write side alone
    assert ncu_metrics.derive({"dram_read_bytes": 101})["dram_bytes"] == 101


def test_local_bytes_is_load_plus_store():
    assert ncu_metrics.derive({"local_load_bytes": 107, "local_store_bytes": 109})["local_bytes"] == 216
    assert ncu_metrics.derive({"local_store_bytes": 109})["local_bytes"] == 109


def test_derive_adds_nothing_without_its_counters_and_keeps_inputs():
    m = {"duration_ns": 1.0, "sol_memory_pct": 50.0}
    assert ncu_metrics.derive(m) == m
    out = ncu_metrics.derive({"fadd": 2, "dram_read_bytes": 101})
    assert out["fadd"] == 2 and out["dram_read_bytes"] == 101 and "local_bytes" not in out


# ---- the recorded FLUX report, re-derived from its raw counters via ncu_report itself ----------------------

def test_flux_gelu_report_matches_raw_counters():
    """triton_poi_fused_gelu_view_12 (a tanh-GELU over 4096 x 12288 bf16, H100): the derived values equal
    the raw counters read directly with NVIDIA's ncu_report. (The SASS instruction counts cannot be derived
    from the Triton source: libdevice.tanh is a branchy polynomial and the compiler fuses mul+add into FMAs;
    the recorded fadd 109,973,852 is not a multiple of the 50,331,648 elements.)"""
    import ncu_report

    path = data_path("flux_small", "ncu", "triton_poi_fused_gelu_view_12.ncu-rep")
    ctx = ncu_report.load_report(str(path))
    assert ctx.num_ranges() == 1
    action = ctx.range_by_idx(0).action_by_idx(0)

    def raw(name, unit):
        metric = action.metric_by_name(name)
        assert metric.unit() == unit, name      # base units: no conversion needed in this path
        return metric.as_double()

    def inst(op):
        return raw(f"smsp__sass_thread_inst_executed_op_{op}_pred_on.sum", "inst")

    expected = {
        "duration_ns": raw(TIME, "ns"),
        "dram_bytes": raw(DRAM_READ, "byte") + raw(DRAM_WRITE, "byte"),
        "flops": sum(inst(op) for op in ("fadd", "fmul", "hadd", "hmul", "dadd", "dmul"))
        + 2 * sum(inst(op) for op in ("ffma", "hfma", "dfma")),
        "local_bytes": raw("l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum", "byte")
        + raw("l1tex__t_bytes_pipe_lsu_mem_local_op_st.sum", "byte"),
        "registers": raw("launch__registers_per_thread", "register/thread"),
        "sol_memory_pct": raw("gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed", "%"),
    }
    # the kernel does FP32 work and FMAs: both weights of the flop sum are exercised
    assert inst("fadd") > 0 and inst("ffma") > 0 and inst("hfma") > 0
    del ctx

    m = ncu_reader.parse_report(path)
    assert m["kernel"] == "triton_poi_fused_gelu_view_12"
    for key, value in expected.items():
        assert m[key] == value, key
