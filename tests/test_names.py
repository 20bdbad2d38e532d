"""Kernel names in tables: library names keep what tells them apart, shortening keeps them distinct."""

from inductor_prof.names import distinct, short_name
from inductor_prof.report.layout import fit_names, shorten
from recorded import REPO

BIG = REPO / "examples" / "runs" / "flux-h100"


def test_short_name_keeps_the_functor_and_element_type():
    # demangled: void at::native::vectorized_elementwise_kernel<2, at::native::cos_kernel_cuda(
    #   at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#1}::operator()() const::
    #   {lambda(double)#1}, std::array<char*, 2ul> >(int, ...): the function is cos_kernel_cuda, the lambda
    #   takes double; the vector width 2, the array and the namespaces say nothing about which kernel it is
    mangled = ("_ZN2at6native29vectorized_elementwise_kernelILi2EZZZNS0_15cos_kernel_cudaERNS_18TensorIteratorBase"
               "EENKUlvE0_clEvENKUlvE_clEvEUldE_St5arrayIPcLm2EEEEviT0_T1_")
    assert short_name(mangled) == "vectorized_elementwise_kernel<cos,double>"
    # BinaryFunctor<c10::BFloat16 x3, binary_internal::MulFunctor<float>> inside gpu_kernel_impl_nocast<...>
    assert short_name("void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl_nocast<at::native::"
                      "BinaryFunctor<c10::BFloat16, c10::BFloat16, c10::BFloat16, at::native::binary_internal::"
                      "MulFunctor<float> > >(at::TensorIteratorBase&, at::native::BinaryFunctor<c10::BFloat16, "
                      "c10::BFloat16, c10::BFloat16, at::native::binary_internal::MulFunctor<float> > const&)::"
                      "{lambda(int)#1}>(int, int)") == "elementwise_kernel<BinaryFunctor,BFloat16,MulFunctor,float>"
    # a namespace that is not PyTorch's stays: it names the library
    assert short_name("void cublasLt::splitKreduce_kernel<32, 16, int, float, __nv_bfloat16, float, __nv_bfloat16, "
                      "false, float>(cublasLt::cublasSplitKParams<float>, float const*)") == \
        "cublasLt::splitKreduce_kernel<float,__nv_bfloat16>"
    assert short_name("nvjet_sm90_tst_192x192_64x4_2x1_v_bz_coopB_bias_TNN") == \
        "nvjet_sm90_tst_192x192_64x4_2x1_v_bz_coopB_bias_TNN"


def test_distinct_numbers_repeats_in_order():
    assert distinct(["a", "b", "a", "a"]) == ["a", "b", "a #2", "a #3"]
    # a number already taken is skipped
    assert distinct(["a", "a #2", "a"]) == ["a", "a #2", "a #3"]


def test_flux_example_display_names_are_distinct():
    # the issue: 30 of the 57 kernels shared a displayed name (vectorized_elementwise_kernel<…> x16)
    from inductor_prof.analysis import load_run_tables

    df = load_run_tables(BIG).kernels
    assert len(df) == 57
    assert df["display"].is_unique
    # only two pairs differ in nothing but numbers and lambda indices (arange's dispatch lambda #6 vs #7, a cat
    # of 4-byte vs 2-byte elements); the second of each, by time, is numbered
    numbered = sorted(d for d in df["display"] if "#" in d)
    assert numbered == ["CatArrayBatchedCopy_vectorized<OpaqueType> #2",
                        "elementwise_kernel_with_index<arange_cuda_out,long> #2"]


def test_shorten_keeps_the_telling_end():
    inductor = "triton_red_fused_add_mul_native_layer_norm_split_unsqueeze_view_9"
    assert shorten(inductor, 100) == inductor
    s = shorten(inductor, 36)
    assert len(s) == 36 and s.startswith("triton_red_fused_") and s.endswith("_view_9") and "…" in s
    lib = "vectorized_elementwise_kernel<cos,double>"
    assert shorten(lib, 36) == "vectorized_elementwise_…<cos,double>"
    assert shorten("CatArrayBatchedCopy_vectorized<OpaqueType> #2", 36) == "CatArrayBatchedCopy_…<OpaqueType> #2"
    # a long word list is cut inside, its beginning kept
    assert shorten("elementwise_kernel<BinaryFunctor,BFloat16,MulFunctor,float>", 36) == \
        "elementwise_kernel<BinaryFunctor,B…>"


def test_fit_names_numbers_what_shortening_made_equal():
    # two names that differ only in the middle, which shortening to 30 cells cuts out
    a = "triton_poi_fused_" + "a" * 30 + "_cat_view_1"
    b = "triton_poi_fused_" + "a" * 29 + "b_cat_view_1"
    assert shorten(a, 30) == shorten(b, 30)
    out = fit_names([a, "x", b], 30)
    assert out[:2] == [shorten(a, 30), "x"] and out[2].endswith(" #2") and len(out[2]) == 30


# torch._grouped_mm's CUTLASS kernel on an H200 (2026-11-28, examples/runs/moe-*): the profiler cut its
# mangled name at about 1,270 characters, so the C++ runtime cannot demangle it; its first 400 here
CUT_SHORT = ("_ZN7cutlass13device_kernelIN2at4cuda6detail25enable_3x_kernel_for_sm9xINS_4gemm6kernel13GemmUniversalINS5"
             "_17GroupProblemShapeIN4cute5tupleIJiiiEEEEENS5_10collective13CollectiveMmaINS5_39MainloopSm90ArrayTmaGmm"
             "aWarpSpecializedILi4ENSA_IJNS9_1CILi2EEENSG_ILi1EEESI_EEENS5_43KernelPtrArrayTmaWarpSpecializedCooperati"
             "veEEENSA_IJNSG_ILi128EEENSG_ILi256EEENSG_ILi64EEEEEENS_10bfloat16_tEPNSA_IJlSI_NSG_ILi0")


def test_a_mangled_name_cut_short_reads_by_its_pieces():
    # the nested name (7cutlass 13device_kernel), then the template arguments' first CamelCase names; the
    # substitutions (S5_) and literals (Li4E) carry digits that are no lengths
    assert short_name(CUT_SHORT) == "cutlass::device_kernel<GemmUniversal,GroupProblemShape,CollectiveMma>"
    assert short_name("_ZN2at4cuda6detail25prepare_grouped_gemm_dataIN7cutlass10bfloat16_tES4_") == \
        "at::cuda::detail::prepare_grouped_gemm_data"
