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
