"""Which kernel a name on the command line means (analysis/pick.py)."""
import pytest

from inductor_prof.analysis.pick import pick_kernel
from inductor_prof.errors import UserError

KERNELS = [("triton_red_fused_add_mul_1", "triton_red_fused_add_mul_1"),
           ("triton_red_fused_add_mul_12", "triton_red_fused_add_mul_12"),
           ("triton_poi_fused_gelu_3", "triton_poi_fused_gelu_3"),
           ("_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_11FillFunctorIfEEEEvT_", "vectorized_elementwise_kernel<fill,float>")]


@pytest.mark.parametrize("query, name", [
    ("triton_red_fused_add_mul_1", "triton_red_fused_add_mul_1"),   # exact, though a prefix of _12 too
    ("triton_poi", "triton_poi_fused_gelu_3"),                       # the one kernel starting so
    ("GELU", "triton_poi_fused_gelu_3"),                             # the one holding it (any case)
    ("vectorized_elementwise_kernel<fill,float>", KERNELS[3][0]),    # a library kernel by its short name
    ("fill", KERNELS[3][0]),
])
def test_picks(query, name):
    assert pick_kernel(query, KERNELS, "RUN") == name


def test_several_matches_are_one_line_naming_them():
    with pytest.raises(UserError) as e:
        pick_kernel("add_mul", KERNELS, "RUN")
    assert str(e.value) == ("'add_mul' matches 2 kernels of RUN: triton_red_fused_add_mul_1, "
                            "triton_red_fused_add_mul_12; give more of the name")


def test_no_match_names_the_closest():
    with pytest.raises(UserError) as e:
        pick_kernel("triton_poi_fused_gelu_4", KERNELS, "RUN")
    assert str(e.value).startswith("no kernel 'triton_poi_fused_gelu_4' in RUN; closest: triton_poi_fused_gelu_3, ")
    assert "\n" not in str(e.value)


def test_no_kernels_at_all():
    with pytest.raises(UserError, match=r"^no kernel 'x' in RUN \(it has no kernels\)$"):
        pick_kernel("x", [], "RUN")


# ---- mutation audit (issue 30): a match on one of the two names, the lists in the error lines ---------------

@pytest.mark.parametrize("query", ["<fill,float>",      # only the short name holds it
                                   "ili4ens0"])          # only the (mangled) name holds it
def test_either_name_is_enough(query):
    assert pick_kernel(query, KERNELS, "RUN") == KERNELS[3][0]


def test_several_matches_list_five_short_names_then_more():
    kernels = [(f"_Z{i}kernel", f"k{i}<float>") for i in range(6)] + [("triton_x", "")]
    with pytest.raises(UserError) as e:
        pick_kernel("kernel", kernels, "RUN")
    # 6 names hold "kernel": the first five said by their short names, then "..."; a kernel of no short name
    # is said by its name
    assert str(e.value) == ("'kernel' matches 6 kernels of RUN: k0<float>, k1<float>, k2<float>, k3<float>, "
                            "k4<float>, ...; give more of the name")
    with pytest.raises(UserError, match="matches 2 kernels of RUN: k0<float>, triton_x;"):
        pick_kernel("x", [("_Z0x", "k0<float>"), ("triton_x", "")], "RUN")


def test_the_closest_are_three_short_names_however_far():
    with pytest.raises(UserError) as e:
        pick_kernel("zzzz", KERNELS, "RUN")
    closest = str(e.value).split("; closest: ")[1].split(", ")
    assert len(closest) == 3 and set(closest) <= {short for _, short in KERNELS}
    with pytest.raises(UserError, match=r"closest: vectorized_elementwise_kernel<fill,float>"):
        pick_kernel("vectorized_elementwise_kernel<fill,double>", KERNELS, "RUN")


def test_kernel_names_of_a_table():
    import pandas as pd
    from inductor_prof.analysis.pick import kernel_names

    table = pd.DataFrame({"name": ["_Z3k", "triton_a"], "display": ["k<float>", "triton_a"], "calls": [1, 2]})
    assert kernel_names(table) == [("_Z3k", "k<float>"), ("triton_a", "triton_a")]
    assert kernel_names(pd.DataFrame()) == []
