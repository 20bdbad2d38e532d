# AOT ID: ['3_inference']
from ctypes import c_void_p, c_long, c_int
import torch
import math
import random
import os
import tempfile
from math import inf, nan
from cmath import nanj
from torch._inductor.hooks import run_intermediate_hooks
from torch._inductor.utils import maybe_profile
from torch._inductor.codegen.memory_planning import _align as align
from torch import device, empty_strided
from torch._inductor.async_compile import AsyncCompile
from torch._inductor.select_algorithm import extern_kernels
import triton
import triton.language as tl
from torch._inductor.runtime.triton_heuristics import start_graph, end_graph
from torch._C import _cuda_getCurrentRawStream as get_raw_stream

aten = torch.ops.aten
inductor_ops = torch.ops.inductor
_quantized = torch.ops._quantized
assert_size_stride = torch._C._dynamo.guards.assert_size_stride
assert_alignment = torch._C._dynamo.guards.assert_alignment
empty_strided_cpu = torch._C._dynamo.guards._empty_strided_cpu
empty_strided_cpu_pinned = torch._C._dynamo.guards._empty_strided_cpu_pinned
empty_strided_cuda = torch._C._dynamo.guards._empty_strided_cuda
empty_strided_xpu = torch._C._dynamo.guards._empty_strided_xpu
empty_strided_mtia = torch._C._dynamo.guards._empty_strided_mtia
reinterpret_tensor = torch._C._dynamo.guards._reinterpret_tensor
alloc_from_pool = torch.ops.inductor._alloc_from_pool
async_compile = AsyncCompile()
empty_strided_p2p = torch._C._distributed_c10d._SymmetricMemory.empty_strided_p2p


# kernel path: /tmp/prov/flux_dyn/rs/crsnhaetoebhitk63ejuko2y5xdgkvrvhnpc3er3hmcmw3sczqdm.py
# Topologically Sorted Source Nodes: [silu], Original ATen: [aten.silu]
# Source node to ATen node mapping:
#   silu => add_3, convert_element_type, convert_element_type_1, div, exp, neg
# Graph fragment:
#   %arg4_1 : Tensor "bf16[1, 3072][3072, 1]cuda:0" = PlaceHolder[target=arg4_1]
#   %convert_element_type : Tensor "f32[1, 3072][3072, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%arg4_1, torch.float32), kwargs = {})
#   %neg : Tensor "f32[1, 3072][3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.neg.default](args = (%convert_element_type,), kwargs = {})
#   %exp : Tensor "f32[1, 3072][3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.exp.default](args = (%neg,), kwargs = {})
#   %add_3 : Tensor "f32[1, 3072][3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%exp, 1), kwargs = {})
#   %div : Tensor "f32[1, 3072][3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%convert_element_type, %add_3), kwargs = {})
#   %convert_element_type_1 : Tensor "bf16[1, 3072][3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%div, torch.bfloat16), kwargs = {})
#   return %convert_element_type_1
triton_poi_fused_silu_0 = async_compile.triton('triton_poi_fused_silu_0', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

from torch._dynamo.testing import rand_strided
from torch._C import _cuda_getCurrentRawStream as get_raw_stream
import torch

@triton_heuristics.pointwise(
    size_hints={'x': 4096}, 
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*bf16', 'out_ptr0': '*bf16', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_silu_0', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 1, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 18432}, 'kernel_num_gb': 1.2288e-05, 'kernel_flop': 0},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_silu_0(in_ptr0, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 3072
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (x0), xmask).to(tl.float32)
    tmp1 = tmp0.to(tl.float32)
    tmp2 = -tmp1
    tmp3 = libdevice.exp(tmp2)
    tmp4 = tl.full([1], 1.0, tl.float32)
    tmp5 = tmp3 + tmp4
    tmp6 = (tmp1 / tmp5)
    tmp7 = tmp6.to(tl.float32)
    tl.store(out_ptr0 + (x0), tmp7, xmask)


def get_args():
    arg_0 = rand_strided((1, 3072), (3072, 1), device='cuda:0', dtype=torch.bfloat16)
    arg_1 = rand_strided((1, 3072), (3072, 1), device='cuda:0', dtype=torch.bfloat16)
    return arg_0, arg_1, 3072,


def call(args):
    with torch.cuda._DeviceGuard(0):
        torch.cuda.set_device(0)
        stream0 = get_raw_stream(0)
        triton_poi_fused_silu_0.run(*args, stream=stream0)


def benchmark_all_configs(args):
    with torch.cuda._DeviceGuard(0):
        torch.cuda.set_device(0)
        return triton_poi_fused_silu_0.benchmark_all_configs(*args)


if __name__ == '__main__':
    from torch._inductor.runtime.benchmarking import benchmarker

    args = get_args()
    ms = benchmarker.benchmark(lambda: call(args), device='cuda', rep=40)
    num_gb = 1.2288e-05
    gb_per_s = num_gb / (ms / 1e3)
    print(f"{ms:.3f}ms    {num_gb:.3f}GB    {gb_per_s:.2f}GB/s")
''', device_str='cuda')


# kernel path: /tmp/prov/flux_dyn/b6/cb6dr4sxgiosygojdwcshybr54yegbv76tspepbc4xxnwr6ykozz.py
# Topologically Sorted Source Nodes: [chunk, hidden_states, layer_norm, getitem_6, add, mul, getitem_7, x], Original ATen: [aten.split, aten.cat, aten.native_layer_norm, aten.unsqueeze, aten.add, aten.mul]
# Source node to ATen node mapping:
#   add => add_14
#   chunk => split
#   getitem_6 => unsqueeze
#   getitem_7 => unsqueeze_1
#   hidden_states => cat
#   layer_norm => add_4, convert_element_type_5, convert_element_type_6, mul_5, rsqrt, sub_1, var_mean
#   mul => mul_13
#   x => add_18
# Graph fragment:
#   %arg1_1 : Tensor "bf16[1, s31, 3072][3072*s31, 3072, 1]cuda:0" = PlaceHolder[target=arg1_1]
#   %arg3_1 : Tensor "bf16[1, s87, 3072][3072*s87, 3072, 1]cuda:0" = PlaceHolder[target=arg3_1]
#   %getitem_4 : Tensor "f32[1, s31 + s87, 1][s31 + s87, 1, s31 + s87]cuda:0" = PlaceHolder[target=getitem_4]
#   %buf3 : Tensor "f32[1, s31 + s87, 1][s31 + s87, 1, s31 + s87]cuda:0" = PlaceHolder[target=buf3]
#   %addmm : Tensor "bf16[1, 9216][9216, 1]cuda:0" = PlaceHolder[target=addmm]
#   %mul_13 : Tensor "bf16[1, s31 + s87, 3072][3072*s31 + 3072*s87, 3072, 1]cuda:0" = PlaceHolder[target=mul_13]
#   %split : [num_users=3] = call_function[target=torch.ops.aten.split.Tensor](args = (%addmm, 3072, 1), kwargs = {})
#   %cat : Tensor "bf16[1, s31 + s87, 3072][3072*s31 + 3072*s87, 3072, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.cat.default](args = ([%arg1_1, %arg3_1], 1), kwargs = {})
#   %convert_element_type_5 : Tensor "f32[1, s31 + s87, 3072][3072*s31 + 3072*s87, 3072, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%cat, torch.float32), kwargs = {})
#   %var_mean : [num_users=2] = call_function[target=torch.ops.aten.var_mean.correction](args = (%convert_element_type_5, [2]), kwargs = {correction: 0, keepdim: True})
#   %sub_1 : Tensor "f32[1, s31 + s87, 3072][3072*s31 + 3072*s87, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%convert_element_type_5, %getitem_4), kwargs = {})
#   %add_4 : Tensor "f32[1, s31 + s87, 1][s31 + s87, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%getitem_3, 1e-06), kwargs = {})
#   %rsqrt : Tensor "f32[1, s31 + s87, 1][s31 + s87, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_4,), kwargs = {})
#   %mul_5 : Tensor "f32[1, s31 + s87, 3072][3072*s31 + 3072*s87, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%sub_1, %rsqrt), kwargs = {})
#   %convert_element_type_6 : Tensor "bf16[1, s31 + s87, 3072][3072*s31 + 3072*s87, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%mul_5, torch.bfloat16), kwargs = {})
#   %unsqueeze : Tensor "bf16[1, 1, 3072][9216, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%getitem_1, 1), kwargs = {})
#   %add_14 : Tensor "bf16[1, 1, 3072][3072, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%unsqueeze, 1), kwargs = {})
#   %mul_13 : Tensor "bf16[1, s31 + s87, 3072][3072*s31 + 3072*s87, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%convert_element_type_6, %add_14), kwargs = {})
#   %unsqueeze_1 : Tensor "bf16[1, 1, 3072][9216, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%getitem, 1), kwargs = {})
#   %add_18 : Tensor "bf16[1, s31 + s87, 3072][3072*s31 + 3072*s87, 3072, 1]cuda:0"[num_users=4] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_13, %unsqueeze_1), kwargs = {})
#   return %getitem_4,%buf3,%mul_13,%add_18
triton_red_fused_add_cat_mul_native_layer_norm_split_unsqueeze_1 = async_compile.triton('triton_red_fused_add_cat_mul_native_layer_norm_split_unsqueeze_1', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

from torch._dynamo.testing import rand_strided
from torch._C import _cuda_getCurrentRawStream as get_raw_stream
import torch

@triton_heuristics.reduction(
    size_hints={'x': 8192, 'r0_': 4096},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*bf16', 'in_ptr0': '*bf16', 'in_ptr1': '*bf16', 'in_ptr2': '*bf16', 'ks0': 'i64', 'ks1': 'i64', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_red_fused_add_cat_mul_native_layer_norm_split_unsqueeze_1', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 6, 'num_store': 1, 'num_reduction': 2, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'add_persistent_rblock': True, 'tiling_scores': {'x': 0, 'r0_': 84946944}, 'kernel_num_gb': 0.084953088, 'kernel_flop': 0}
)
@triton.jit
def triton_red_fused_add_cat_mul_native_layer_norm_split_unsqueeze_1(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, ks0, ks1, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    r0_numel = 3072
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x0 = xindex
    tmp13_mean = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    tmp13_m2 = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    tmp13_weight = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp0 = x0
        tmp1 = tl.full([1, 1], 0, tl.int64)
        tmp2 = tmp0 >= tmp1
        tmp3 = ks0
        tmp4 = tmp0 < tmp3
        tmp5 = tl.load(in_ptr0 + (r0_1 + 3072*(x0)), r0_mask & tmp4 & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp6 = tmp0 >= tmp3
        tmp7 = ks0 + ks1
        tmp8 = tmp0 < tmp7
        tmp9 = tl.load(in_ptr1 + (r0_1 + 3072*(x0 + ((-1)*ks0))), r0_mask & tmp6 & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp10 = tl.where(tmp4, tmp5, tmp9)
        tmp11 = tmp10.to(tl.float32)
        tmp12 = tl.broadcast_to(tmp11, [XBLOCK, R0_BLOCK])
        tmp13_mean_next, tmp13_m2_next, tmp13_weight_next = triton_helpers.welford_reduce(
            tmp12, tmp13_mean, tmp13_m2, tmp13_weight, roffset == 0
        )
        tmp13_mean = tl.where(r0_mask & xmask, tmp13_mean_next, tmp13_mean)
        tmp13_m2 = tl.where(r0_mask & xmask, tmp13_m2_next, tmp13_m2)
        tmp13_weight = tl.where(r0_mask & xmask, tmp13_weight_next, tmp13_weight)
    tmp14, tmp15, tmp16 = triton_helpers.welford(tmp13_mean, tmp13_m2, tmp13_weight, 1)
    tmp13 = tmp14[:, None]
    tmp17 = tmp15[:, None]
    tmp18 = tmp16[:, None]
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp39 = tl.load(in_ptr2 + (3072 + r0_1), r0_mask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp43 = tl.load(in_ptr2 + (r0_1), r0_mask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp19 = x0
        tmp20 = tl.full([1, 1], 0, tl.int64)
        tmp21 = tmp19 >= tmp20
        tmp22 = ks0
        tmp23 = tmp19 < tmp22
        tmp24 = tl.load(in_ptr0 + (r0_1 + 3072*(x0)), r0_mask & tmp23 & xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp25 = tmp19 >= tmp22
        tmp26 = ks0 + ks1
        tmp27 = tmp19 < tmp26
        tmp28 = tl.load(in_ptr1 + (r0_1 + 3072*(x0 + ((-1)*ks0))), r0_mask & tmp25 & xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp29 = tl.where(tmp23, tmp24, tmp28)
        tmp30 = tmp29.to(tl.float32)
        tmp31 = tmp30 - tmp13
        tmp32 = tl.full([1, 1], 3072.0, tl.float32)
        tmp33 = (tmp17 / tmp32)
        tmp34 = tl.full([1, 1], 1e-06, tl.float32)
        tmp35 = tmp33 + tmp34
        tmp36 = libdevice.rsqrt(tmp35)
        tmp37 = tmp31 * tmp36
        tmp38 = tmp37.to(tl.float32)
        tmp40 = tl.full([1, 1], 1.0, tl.float32)
        tmp41 = tmp39 + tmp40
        tmp42 = tmp38 * tmp41
        tmp44 = tmp42 + tmp43
        tl.store(in_out_ptr0 + (r0_1 + 3072*x0), tmp44, r0_mask & xmask)


def get_args():
    arg_0 = rand_strided((1, 4608, 3072), (14155776, 3072, 1), device='cuda:0', dtype=torch.bfloat16)
    arg_1 = rand_strided((1, 512, 3072), (1572864, 3072, 1), device='cuda:0', dtype=torch.bfloat16)
    arg_2 = rand_strided((1, 4096, 3072), (12582912, 3072, 1), device='cuda:0', dtype=torch.bfloat16)
    arg_3 = rand_strided((1, 9216), (9216, 1), device='cuda:0', dtype=torch.bfloat16)
    arg_4 = 512
    arg_5 = 4096
    return arg_0, arg_1, arg_2, arg_3, arg_4, arg_5, 4608, 3072,


def call(args):
    with torch.cuda._DeviceGuard(0):
        torch.cuda.set_device(0)
        stream0 = get_raw_stream(0)
        triton_red_fused_add_cat_mul_native_layer_norm_split_unsqueeze_1.run(*args, stream=stream0)


def benchmark_all_configs(args):
    with torch.cuda._DeviceGuard(0):
        torch.cuda.set_device(0)
        return triton_red_fused_add_cat_mul_native_layer_norm_split_unsqueeze_1.benchmark_all_configs(*args)


if __name__ == '__main__':
    from torch._inductor.runtime.benchmarking import benchmarker

    args = get_args()
    ms = benchmarker.benchmark(lambda: call(args), device='cuda', rep=40)
    num_gb = 0.084953088
    gb_per_s = num_gb / (ms / 1e3)
    print(f"{ms:.3f}ms    {num_gb:.3f}GB    {gb_per_s:.2f}GB/s")
''', device_str='cuda')


# kernel path: /tmp/prov/flux_dyn/pm/cpm67yixs4zbf3ujimyvri3wlqomdjtgrqcimqm2yiuhhqc7p4mr.py
# Topologically Sorted Source Nodes: [query, query_1, query_2, reshape, unbind, key, key_1, key_2, reshape_1, unbind_1, float_1, cos, mul_1, neg, stack, x_rotated, float_2, sin, mul_2, add_2, out, query_3, float_3, cos_2, mul_3, neg_1, stack_1, x_rotated_1, float_4, sin_2, mul_4, add_3, out_1, key_3, value, value_1, value_2, out_2], Original ATen: [aten.view, aten._fused_rms_norm, aten.unbind, aten._to_copy, aten.unsqueeze, aten.mul, aten.neg, aten.stack, aten.add, aten.permute, aten._scaled_dot_product_cudnn_attention]
# Source node to ATen node mapping:
#   add_2 => add_155
#   add_3 => add_226
#   cos => unsqueeze_2, unsqueeze_3
#   cos_2 => unsqueeze_8, unsqueeze_9
#   float_1 => convert_element_type_25
#   float_2 => convert_element_type_26
#   float_3 => convert_element_type_28
#   float_4 => convert_element_type_29
#   key => view_5
#   key_1 => view_9
#   key_2 => add_84, convert_element_type_23, convert_element_type_24, mean_1, mul_84, mul_85, pow_2, rsqrt_2
#   key_3 => permute_6
#   mul_1 => mul_145
#   mul_2 => mul_152
#   mul_3 => mul_210
#   mul_4 => mul_217
#   neg => neg_1
#   neg_1 => neg_2
#   out => convert_element_type_27
#   out_1 => convert_element_type_30
#   out_2 => _scaled_dot_product_cudnn_attention
#   query => view_3
#   query_1 => view_8
#   query_2 => add_75, convert_element_type_21, convert_element_type_22, mean, mul_70, mul_71, pow_1, rsqrt_1
#   query_3 => permute_5
#   reshape => view_11
#   reshape_1 => view_13
#   sin => unsqueeze_4, unsqueeze_5
#   sin_2 => unsqueeze_10, unsqueeze_11
#   stack => cat_1, unsqueeze_6, unsqueeze_7
#   stack_1 => cat_2, unsqueeze_12, unsqueeze_13
#   unbind => unbind
#   unbind_1 => unbind_1
#   value => view_7
#   value_1 => view_10
#   value_2 => permute_7
#   x_rotated => view_12
#   x_rotated_1 => view_14
# Graph fragment:
#   %addmm_2 : Tensor "bf16[s31 + s87, 3072][3072, 1]cuda:0" = PlaceHolder[target=addmm_2]
#   %addmm_3 : Tensor "bf16[s31 + s87, 3072][3072, 1]cuda:0" = PlaceHolder[target=addmm_3]
#   %buf10 : Tensor "f32[1, s31 + s87, 24, 1][24*s31 + 24*s87, 24, 1, 24*s31 + 24*s87]cuda:0" = PlaceHolder[target=buf10]
#   %arg16_1 : Tensor "bf16[128][1]cuda:0" = PlaceHolder[target=arg16_1]
#   %buf8 : Tensor "f32[1, s31 + s87, 24, 1][24*s31 + 24*s87, 24, 1, 24*s31 + 24*s87]cuda:0" = PlaceHolder[target=buf8]
#   %arg15_1 : Tensor "bf16[128][1]cuda:0" = PlaceHolder[target=arg15_1]
#   %arg17_1 : Tensor "f32[s31 + s87, 128][128, 1]cuda:0" = PlaceHolder[target=arg17_1]
#   %cat_1 : Tensor "bf16[1, s31 + s87, 24, 64, 2][3072*s31 + 3072*s87, 3072, 128, 2, 1]cuda:0" = PlaceHolder[target=cat_1]
#   %arg18_1 : Tensor "f32[s31 + s87, 128][128, 1]cuda:0" = PlaceHolder[target=arg18_1]
#   %cat_2 : Tensor "bf16[1, s31 + s87, 24, 64, 2][3072*s31 + 3072*s87, 3072, 128, 2, 1]cuda:0" = PlaceHolder[target=cat_2]
#   %view_3 : Tensor "bf16[1, s31 + s87, 3072][3072*s31 + 3072*s87, 3072, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm_2, [1, %sym_size_int_2, 3072]), kwargs = {})
#   %view_8 : Tensor "bf16[1, s31 + s87, 24, 128][3072*s31 + 3072*s87, 3072, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%view_3, [1, %sym_size_int_6, 24, 128]), kwargs = {})
#   %convert_element_type_21 : Tensor "f32[1, s31 + s87, 24, 128][3072*s31 + 3072*s87, 3072, 128, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%view_8, torch.float32), kwargs = {})
#   %pow_1 : Tensor "f32[1, s31 + s87, 24, 128][3072*s31 + 3072*s87, 3072, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.pow.Tensor_Scalar](args = (%convert_element_type_21, 2), kwargs = {})
#   %mean : Tensor "f32[1, s31 + s87, 24, 1][24*s31 + 24*s87, 24, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mean.dim](args = (%pow_1, [3], True), kwargs = {})
#   %add_75 : Tensor "f32[1, s31 + s87, 24, 1][24*s31 + 24*s87, 24, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Scalar](args = (%mean, 1e-06), kwargs = {})
#   %rsqrt_1 : Tensor "f32[1, s31 + s87, 24, 1][24*s31 + 24*s87, 24, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_75,), kwargs = {})
#   %mul_70 : Tensor "f32[1, s31 + s87, 24, 128][3072*s31 + 3072*s87, 3072, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%convert_element_type_21, %rsqrt_1), kwargs = {})
#   %mul_71 : Tensor "f32[1, s31 + s87, 24, 128][3072*s31 + 3072*s87, 3072, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_70, %arg15_1), kwargs = {})
#   %convert_element_type_22 : Tensor "bf16[1, s31 + s87, 24, 128][3072*s31 + 3072*s87, 3072, 128, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%mul_71, torch.bfloat16), kwargs = {})
#   %view_11 : Tensor "bf16[1, s31 + s87, 24, 64, 2][3072*s31 + 3072*s87, 3072, 128, 2, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%convert_element_type_22, [1, %sym_sum, 24, -1, 2]), kwargs = {})
#   %unbind : [num_users=2] = call_function[target=torch.ops.aten.unbind.int](args = (%view_11, -1), kwargs = {})
#   %view_5 : Tensor "bf16[1, s31 + s87, 3072][3072*s31 + 3072*s87, 3072, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm_3, [1, %sym_size_int_2, 3072]), kwargs = {})
#   %view_9 : Tensor "bf16[1, s31 + s87, 24, 128][3072*s31 + 3072*s87, 3072, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%view_5, [1, %sym_size_int_8, 24, 128]), kwargs = {})
#   %convert_element_type_23 : Tensor "f32[1, s31 + s87, 24, 128][3072*s31 + 3072*s87, 3072, 128, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%view_9, torch.float32), kwargs = {})
#   %pow_2 : Tensor "f32[1, s31 + s87, 24, 128][3072*s31 + 3072*s87, 3072, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.pow.Tensor_Scalar](args = (%convert_element_type_23, 2), kwargs = {})
#   %mean_1 : Tensor "f32[1, s31 + s87, 24, 1][24*s31 + 24*s87, 24, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mean.dim](args = (%pow_2, [3], True), kwargs = {})
#   %add_84 : Tensor "f32[1, s31 + s87, 24, 1][24*s31 + 24*s87, 24, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Scalar](args = (%mean_1, 1e-06), kwargs = {})
#   %rsqrt_2 : Tensor "f32[1, s31 + s87, 24, 1][24*s31 + 24*s87, 24, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_84,), kwargs = {})
#   %mul_84 : Tensor "f32[1, s31 + s87, 24, 128][3072*s31 + 3072*s87, 3072, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%convert_element_type_23, %rsqrt_2), kwargs = {})
#   %mul_85 : Tensor "f32[1, s31 + s87, 24, 128][3072*s31 + 3072*s87, 3072, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_84, %arg16_1), kwargs = {})
#   %convert_element_type_24 : Tensor "bf16[1, s31 + s87, 24, 128][3072*s31 + 3072*s87, 3072, 128, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%mul_85, torch.bfloat16), kwargs = {})
#   %view_13 : Tensor "bf16[1, s31 + s87, 24, 64, 2][3072*s31 + 3072*s87, 3072, 128, 2, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%convert_element_type_24, [1, %sym_sum, 24, -1, 2]), kwargs = {})
#   %unbind_1 : [num_users=2] = call_function[target=torch.ops.aten.unbind.int](args = (%view_13, -1), kwargs = {})
#   %convert_element_type_25 : Tensor "f32[1, s31 + s87, 24, 128][3072*s31 + 3072*s87, 3072, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%convert_element_type_22, torch.float32), kwargs = {})
#   %unsqueeze_2 : Tensor "f32[1, s31 + s87, 128][128*s31 + 128*s87, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%arg17_1, 0), kwargs = {})
#   %unsqueeze_3 : Tensor "f32[1, s31 + s87, 1, 128][128*s31 + 128*s87, 128, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_2, 2), kwargs = {})
#   %mul_145 : Tensor "f32[1, s31 + s87, 24, 128][3072*s31 + 3072*s87, 3072, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%convert_element_type_25, %unsqueeze_3), kwargs = {})
#   %neg_1 : Tensor "bf16[1, s31 + s87, 24, 64][1536*s31 + 1536*s87, 1536, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.neg.default](args = (%getitem_6,), kwargs = {})
#   %unsqueeze_6 : Tensor "bf16[1, s31 + s87, 24, 64, 1][1536*s31 + 1536*s87, 1536, 64, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%neg_1, 4), kwargs = {})
#   %unsqueeze_7 : Tensor "bf16[1, s31 + s87, 24, 64, 1][3072*s31 + 3072*s87, 3072, 128, 2, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%getitem_5, 4), kwargs = {})
#   %cat_1 : Tensor "bf16[1, s31 + s87, 24, 64, 2][3072*s31 + 3072*s87, 3072, 128, 2, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.cat.default](args = ([%unsqueeze_6, %unsqueeze_7], -1), kwargs = {})
#   %view_12 : Tensor "bf16[1, s31 + s87, 24, 128][3072*s31 + 3072*s87, 3072, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%cat_1, [1, %sym_size_int_6, 24, 128]), kwargs = {})
#   %convert_element_type_26 : Tensor "f32[1, s31 + s87, 24, 128][3072*s31 + 3072*s87, 3072, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%view_12, torch.float32), kwargs = {})
#   %unsqueeze_4 : Tensor "f32[1, s31 + s87, 128][128*s31 + 128*s87, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%arg18_1, 0), kwargs = {})
#   %unsqueeze_5 : Tensor "f32[1, s31 + s87, 1, 128][128*s31 + 128*s87, 128, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_4, 2), kwargs = {})
#   %mul_152 : Tensor "f32[1, s31 + s87, 24, 128][3072*s31 + 3072*s87, 3072, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%convert_element_type_26, %unsqueeze_5), kwargs = {})
#   %add_155 : Tensor "f32[1, s31 + s87, 24, 128][3072*s31 + 3072*s87, 3072, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_145, %mul_152), kwargs = {})
#   %convert_element_type_27 : Tensor "bf16[1, s31 + s87, 24, 128][3072*s31 + 3072*s87, 3072, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_155, torch.bfloat16), kwargs = {})
#   %permute_5 : Tensor "bf16[1, 24, s31 + s87, 128][3072*s31 + 3072*s87, 128, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%convert_element_type_27, [0, 2, 1, 3]), kwargs = {})
#   %convert_element_type_28 : Tensor "f32[1, s31 + s87, 24, 128][3072*s31 + 3072*s87, 3072, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%convert_element_type_24, torch.float32), kwargs = {})
#   %unsqueeze_8 : Tensor "f32[1, s31 + s87, 128][128*s31 + 128*s87, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%arg17_1, 0), kwargs = {})
#   %unsqueeze_9 : Tensor "f32[1, s31 + s87, 1, 128][128*s31 + 128*s87, 128, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_8, 2), kwargs = {})
#   %mul_210 : Tensor "f32[1, s31 + s87, 24, 128][3072*s31 + 3072*s87, 3072, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%convert_element_type_28, %unsqueeze_9), kwargs = {})
#   %neg_2 : Tensor "bf16[1, s31 + s87, 24, 64][1536*s31 + 1536*s87, 1536, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.neg.default](args = (%getitem_8,), kwargs = {})
#   %unsqueeze_12 : Tensor "bf16[1, s31 + s87, 24, 64, 1][1536*s31 + 1536*s87, 1536, 64, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%neg_2, 4), kwargs = {})
#   %unsqueeze_13 : Tensor "bf16[1, s31 + s87, 24, 64, 1][3072*s31 + 3072*s87, 3072, 128, 2, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%getitem_7, 4), kwargs = {})
#   %cat_2 : Tensor "bf16[1, s31 + s87, 24, 64, 2][3072*s31 + 3072*s87, 3072, 128, 2, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.cat.default](args = ([%unsqueeze_12, %unsqueeze_13], -1), kwargs = {})
#   %view_14 : Tensor "bf16[1, s31 + s87, 24, 128][3072*s31 + 3072*s87, 3072, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%cat_2, [1, %sym_size_int_8, 24, 128]), kwargs = {})
#   %convert_element_type_29 : Tensor "f32[1, s31 + s87, 24, 128][3072*s31 + 3072*s87, 3072, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%view_14, torch.float32), kwargs = {})
#   %unsqueeze_10 : Tensor "f32[1, s31 + s87, 128][128*s31 + 128*s87, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%arg18_1, 0), kwargs = {})
#   %unsqueeze_11 : Tensor "f32[1, s31 + s87, 1, 128][128*s31 + 128*s87, 128, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_10, 2), kwargs = {})
#   %mul_217 : Tensor "f32[1, s31 + s87, 24, 128][3072*s31 + 3072*s87, 3072, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%convert_element_type_29, %unsqueeze_11), kwargs = {})
#   %add_226 : Tensor "f32[1, s31 + s87, 24, 128][3072*s31 + 3072*s87, 3072, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_210, %mul_217), kwargs = {})
#   %convert_element_type_30 : Tensor "bf16[1, s31 + s87, 24, 128][3072*s31 + 3072*s87, 3072, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_226, torch.bfloat16), kwargs = {})
#   %permute_6 : Tensor "bf16[1, 24, s31 + s87, 128][3072*s31 + 3072*s87, 128, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%convert_element_type_30, [0, 2, 1, 3]), kwargs = {})
#   %view_7 : Tensor "bf16[1, s31 + s87, 3072][3072*s31 + 3072*s87, 3072, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm_4, [1, %sym_size_int_2, 3072]), kwargs = {})
#   %view_10 : Tensor "bf16[1, s31 + s87, 24, 128][3072*s31 + 3072*s87, 3072, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%view_7, [1, %sym_size_int_10, 24, 128]), kwargs = {})
#   %permute_7 : Tensor "bf16[1, 24, s31 + s87, 128][3072*s31 + 3072*s87, 128, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%view_10, [0, 2, 1, 3]), kwargs = {})
#   %_scaled_dot_product_cudnn_attention : [num_users=1] = call_function[target=torch.ops.aten._scaled_dot_product_cudnn_attention.default](args = (%permute_5, %permute_6, %permute_7, None, False), kwargs = {})
#   return %buf8,%buf10,%cat_2,%cat_1,%buf14,%buf15
triton_red_fused__fused_rms_norm__scaled_dot_product_cudnn_attention__to_copy_add_mul_neg_permute_stack_unbind_unsqueeze_view_2 = async_compile.triton('triton_red_fused__fused_rms_norm__scaled_dot_product_cudnn_attention__to_copy_add_mul_neg_permute_stack_unbind_unsqueeze_view_2', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

from torch._dynamo.testing import rand_strided
from torch._C import _cuda_getCurrentRawStream as get_raw_stream
import torch

@triton_heuristics.reduction(
    size_hints={'x': 131072, 'r0_': 128},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*bf16', 'in_out_ptr1': '*bf16', 'in_ptr0': '*bf16', 'in_ptr1': '*bf16', 'in_ptr2': '*bf16', 'in_ptr3': '*bf16', 'in_ptr4': '*fp32', 'in_ptr5': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]], (9,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_red_fused__fused_rms_norm__scaled_dot_product_cudnn_attention__to_copy_add_mul_neg_permute_stack_unbind_unsqueeze_view_2', 'mutated_arg_names': ['in_out_ptr0', 'in_out_ptr1'], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 16, 'num_store': 2, 'num_reduction': 2, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 0, 'r0_': 174588416}, 'kernel_num_gb': 0.174588416, 'kernel_flop': 0}
)
@triton.jit
def triton_red_fused__fused_rms_norm__scaled_dot_product_cudnn_attention__to_copy_add_mul_neg_permute_stack_unbind_unsqueeze_view_2(in_out_ptr0, in_out_ptr1, in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, in_ptr5, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    r0_numel = 128
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x0 = xindex
    _tmp4 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp0 = tl.load(in_ptr0 + (r0_1 + 128*x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp1 = tmp0.to(tl.float32)
        tmp2 = tmp1 * tmp1
        tmp3 = tl.broadcast_to(tmp2, [XBLOCK, R0_BLOCK])
        tmp5 = _tmp4 + tmp3
        _tmp4 = tl.where(r0_mask & xmask, tmp5, _tmp4)
    tmp4 = tl.sum(_tmp4, 1)[:, None]
    _tmp10 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp6 = tl.load(in_ptr1 + (r0_1 + 128*x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp7 = tmp6.to(tl.float32)
        tmp8 = tmp7 * tmp7
        tmp9 = tl.broadcast_to(tmp8, [XBLOCK, R0_BLOCK])
        tmp11 = _tmp10 + tmp9
        _tmp10 = tl.where(r0_mask & xmask, tmp11, _tmp10)
    tmp10 = tl.sum(_tmp10, 1)[:, None]
    x5 = xindex // 24
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_2 = (r0_index % 2)
        r0_3 = r0_index // 2
        r0_1 = r0_index
        tmp76 = tl.load(in_ptr0 + (r0_1 + 128*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp84 = tl.load(in_ptr3 + (r0_1), r0_mask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp89 = tl.load(in_ptr4 + (r0_1 + 128*x5), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp92 = tl.load(in_ptr5 + (r0_1 + 128*x5), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp96 = tl.load(in_ptr1 + (r0_1 + 128*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp102 = tl.load(in_ptr2 + (r0_1), r0_mask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp12 = r0_2
        tmp13 = tl.full([1, 1], 0, tl.int64)
        tmp14 = tmp12 >= tmp13
        tmp15 = tl.full([1, 1], 1, tl.int64)
        tmp16 = tmp12 < tmp15
        tmp17 = tl.load(in_ptr1 + (1 + 2*r0_3 + 128*x0), r0_mask & tmp16 & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp18 = tmp17.to(tl.float32)
        tmp19 = tl.full([1, 1], 128.0, tl.float32)
        tmp20 = (tmp10 / tmp19)
        tmp21 = tl.full([1, 1], 1e-06, tl.float32)
        tmp22 = tmp20 + tmp21
        tmp23 = libdevice.rsqrt(tmp22)
        tmp24 = tmp18 * tmp23
        tmp25 = tl.load(in_ptr2 + (tl.broadcast_to(1 + 2*r0_3, [XBLOCK, R0_BLOCK])), r0_mask & tmp16 & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp26 = tmp25.to(tl.float32)
        tmp27 = tmp24 * tmp26
        tmp28 = tmp27.to(tl.float32)
        tmp29 = -tmp28
        tmp30 = tl.full(tmp29.shape, 0.0, tmp29.dtype)
        tmp31 = tl.where(tmp16, tmp29, tmp30)
        tmp32 = tmp12 >= tmp15
        tmp33 = tl.full([1, 1], 2, tl.int64)
        tmp34 = tmp12 < tmp33
        tmp35 = tl.load(in_ptr1 + (2*r0_3 + 128*x0), r0_mask & tmp32 & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp36 = tmp35.to(tl.float32)
        tmp37 = tl.full([1, 1], 128.0, tl.float32)
        tmp38 = (tmp10 / tmp37)
        tmp39 = tl.full([1, 1], 1e-06, tl.float32)
        tmp40 = tmp38 + tmp39
        tmp41 = libdevice.rsqrt(tmp40)
        tmp42 = tmp36 * tmp41
        tmp43 = tl.load(in_ptr2 + (tl.broadcast_to(2*r0_3, [XBLOCK, R0_BLOCK])), r0_mask & tmp32 & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp44 = tmp43.to(tl.float32)
        tmp45 = tmp42 * tmp44
        tmp46 = tmp45.to(tl.float32)
        tmp47 = tl.full(tmp46.shape, 0.0, tmp46.dtype)
        tmp48 = tl.where(tmp32, tmp46, tmp47)
        tmp49 = tl.where(tmp16, tmp31, tmp48)
        tmp50 = tl.load(in_ptr0 + (1 + 2*r0_3 + 128*x0), r0_mask & tmp16 & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp51 = tmp50.to(tl.float32)
        tmp52 = (tmp4 / tmp19)
        tmp53 = tmp52 + tmp21
        tmp54 = libdevice.rsqrt(tmp53)
        tmp55 = tmp51 * tmp54
        tmp56 = tl.load(in_ptr3 + (tl.broadcast_to(1 + 2*r0_3, [XBLOCK, R0_BLOCK])), r0_mask & tmp16 & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp57 = tmp56.to(tl.float32)
        tmp58 = tmp55 * tmp57
        tmp59 = tmp58.to(tl.float32)
        tmp60 = -tmp59
        tmp61 = tl.full(tmp60.shape, 0.0, tmp60.dtype)
        tmp62 = tl.where(tmp16, tmp60, tmp61)
        tmp63 = tl.load(in_ptr0 + (2*r0_3 + 128*x0), r0_mask & tmp32 & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp64 = tmp63.to(tl.float32)
        tmp65 = (tmp4 / tmp37)
        tmp66 = tmp65 + tmp39
        tmp67 = libdevice.rsqrt(tmp66)
        tmp68 = tmp64 * tmp67
        tmp69 = tl.load(in_ptr3 + (tl.broadcast_to(2*r0_3, [XBLOCK, R0_BLOCK])), r0_mask & tmp32 & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp70 = tmp69.to(tl.float32)
        tmp71 = tmp68 * tmp70
        tmp72 = tmp71.to(tl.float32)
        tmp73 = tl.full(tmp72.shape, 0.0, tmp72.dtype)
        tmp74 = tl.where(tmp32, tmp72, tmp73)
        tmp75 = tl.where(tmp16, tmp62, tmp74)
        tmp77 = tmp76.to(tl.float32)
        tmp78 = tl.full([1, 1], 128.0, tl.float32)
        tmp79 = (tmp4 / tmp78)
        tmp80 = tl.full([1, 1], 1e-06, tl.float32)
        tmp81 = tmp79 + tmp80
        tmp82 = libdevice.rsqrt(tmp81)
        tmp83 = tmp77 * tmp82
        tmp85 = tmp84.to(tl.float32)
        tmp86 = tmp83 * tmp85
        tmp87 = tmp86.to(tl.float32)
        tmp88 = tmp87.to(tl.float32)
        tmp90 = tmp88 * tmp89
        tmp91 = tmp75.to(tl.float32)
        tmp93 = tmp91 * tmp92
        tmp94 = tmp90 + tmp93
        tmp95 = tmp94.to(tl.float32)
        tmp97 = tmp96.to(tl.float32)
        tmp98 = (tmp10 / tmp78)
        tmp99 = tmp98 + tmp80
        tmp100 = libdevice.rsqrt(tmp99)
        tmp101 = tmp97 * tmp100
        tmp103 = tmp102.to(tl.float32)
        tmp104 = tmp101 * tmp103
        tmp105 = tmp104.to(tl.float32)
        tmp106 = tmp105.to(tl.float32)
        tmp107 = tmp106 * tmp89
        tmp108 = tmp49.to(tl.float32)
        tmp109 = tmp108 * tmp92
        tmp110 = tmp107 + tmp109
        tmp111 = tmp110.to(tl.float32)
        tl.store(in_out_ptr0 + (r0_1 + 128*x0), tmp95, r0_mask & xmask)
        tl.store(in_out_ptr1 + (r0_1 + 128*x0), tmp111, r0_mask & xmask)


def get_args():
    arg_0 = rand_strided((1, 24, 4608, 128), (14155776, 128, 3072, 1), device='cuda:0', dtype=torch.bfloat16)
    arg_1 = rand_strided((1, 24, 4608, 128), (14155776, 128, 3072, 1), device='cuda:0', dtype=torch.bfloat16)
    arg_2 = rand_strided((4608, 3072), (3072, 1), device='cuda:0', dtype=torch.bfloat16)
    arg_3 = rand_strided((4608, 3072), (3072, 1), device='cuda:0', dtype=torch.bfloat16)
    arg_4 = rand_strided((128,), (1,), device='cuda:0', dtype=torch.bfloat16)
    arg_5 = rand_strided((128,), (1,), device='cuda:0', dtype=torch.bfloat16)
    arg_6 = rand_strided((4608, 128), (128, 1), device='cuda:0', dtype=torch.float32)
    arg_7 = rand_strided((4608, 128), (128, 1), device='cuda:0', dtype=torch.float32)
    return arg_0, arg_1, arg_2, arg_3, arg_4, arg_5, arg_6, arg_7, 110592, 128,


def call(args):
    with torch.cuda._DeviceGuard(0):
        torch.cuda.set_device(0)
        stream0 = get_raw_stream(0)
        triton_red_fused__fused_rms_norm__scaled_dot_product_cudnn_attention__to_copy_add_mul_neg_permute_stack_unbind_unsqueeze_view_2.run(*args, stream=stream0)


def benchmark_all_configs(args):
    with torch.cuda._DeviceGuard(0):
        torch.cuda.set_device(0)
        return triton_red_fused__fused_rms_norm__scaled_dot_product_cudnn_attention__to_copy_add_mul_neg_permute_stack_unbind_unsqueeze_view_2.benchmark_all_configs(*args)


if __name__ == '__main__':
    from torch._inductor.runtime.benchmarking import benchmarker

    args = get_args()
    ms = benchmarker.benchmark(lambda: call(args), device='cuda', rep=40)
    num_gb = 0.174588416
    gb_per_s = num_gb / (ms / 1e3)
    print(f"{ms:.3f}ms    {num_gb:.3f}GB    {gb_per_s:.2f}GB/s")
''', device_str='cuda')


# kernel path: /tmp/prov/flux_dyn/xv/cxvr7fbtifgcun3jmvj6djux3h3rcxacril32bwhw6eab67o7xeo.py
# Topologically Sorted Source Nodes: [out_3, hidden_states_1, linear_1, mlp_hidden_states, hidden_states_3], Original ATen: [aten.permute, aten.view, aten.gelu, aten.cat]
# Source node to ATen node mapping:
#   hidden_states_1 => view_15
#   hidden_states_3 => cat_3
#   linear_1 => view_1
#   mlp_hidden_states => add_31, add_32, convert_element_type_10, convert_element_type_11, mul_30, mul_31, mul_32, mul_33, mul_34, mul_35, tanh
#   out_3 => permute_8
# Graph fragment:
#   %getitem_9 : Tensor "bf16[1, 24, s31 + s87, 128][3072*s31 + 3072*s87, 128, 3072, 1]cuda:0" = PlaceHolder[target=getitem_9]
#   %addmm_1 : Tensor "bf16[s31 + s87, 12288][12288, 1]cuda:0" = PlaceHolder[target=addmm_1]
#   %permute_8 : Tensor "bf16[1, s31 + s87, 24, 128][3072*s31 + 3072*s87, 3072, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%getitem_9, [0, 2, 1, 3]), kwargs = {})
#   %view_15 : Tensor "bf16[1, s31 + s87, 3072][3072*s31 + 3072*s87, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%permute_8, [1, %sym_size_int_6, 3072]), kwargs = {})
#   %view_1 : Tensor "bf16[1, s31 + s87, 12288][12288*s31 + 12288*s87, 12288, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm_1, [1, %sym_size_int_2, 12288]), kwargs = {})
#   %convert_element_type_10 : Tensor "f32[1, s31 + s87, 12288][12288*s31 + 12288*s87, 12288, 1]cuda:0"[num_users=4] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%view_1, torch.float32), kwargs = {})
#   %mul_34 : Tensor "f32[1, s31 + s87, 12288][12288*s31 + 12288*s87, 12288, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%convert_element_type_10, 0.5), kwargs = {})
#   %mul_30 : Tensor "f32[1, s31 + s87, 12288][12288*s31 + 12288*s87, 12288, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%convert_element_type_10, %convert_element_type_10), kwargs = {})
#   %mul_31 : Tensor "f32[1, s31 + s87, 12288][12288*s31 + 12288*s87, 12288, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_30, %convert_element_type_10), kwargs = {})
#   %mul_32 : Tensor "f32[1, s31 + s87, 12288][12288*s31 + 12288*s87, 12288, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_31, 0.044715), kwargs = {})
#   %add_31 : Tensor "f32[1, s31 + s87, 12288][12288*s31 + 12288*s87, 12288, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%convert_element_type_10, %mul_32), kwargs = {})
#   %mul_33 : Tensor "f32[1, s31 + s87, 12288][12288*s31 + 12288*s87, 12288, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%add_31, 0.7978845608028654), kwargs = {})
#   %tanh : Tensor "f32[1, s31 + s87, 12288][12288*s31 + 12288*s87, 12288, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.tanh.default](args = (%mul_33,), kwargs = {})
#   %add_32 : Tensor "f32[1, s31 + s87, 12288][12288*s31 + 12288*s87, 12288, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%tanh, 1), kwargs = {})
#   %mul_35 : Tensor "f32[1, s31 + s87, 12288][12288*s31 + 12288*s87, 12288, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_34, %add_32), kwargs = {})
#   %convert_element_type_11 : Tensor "bf16[1, s31 + s87, 12288][12288*s31 + 12288*s87, 12288, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%mul_35, torch.bfloat16), kwargs = {})
#   %cat_3 : Tensor "bf16[1, s31 + s87, 15360][15360*s31 + 15360*s87, 15360, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.cat.default](args = ([%view_15, %convert_element_type_11], 2), kwargs = {})
#   return %cat_3
triton_poi_fused_cat_gelu_permute_view_3 = async_compile.triton('triton_poi_fused_cat_gelu_permute_view_3', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

from torch._dynamo.testing import rand_strided
from torch._C import _cuda_getCurrentRawStream as get_raw_stream
import torch

@triton_heuristics.pointwise(
    size_hints={'x': 134217728}, 
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*bf16', 'in_ptr1': '*bf16', 'out_ptr0': '*bf16', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_cat_gelu_permute_view_3', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 2, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 424673280}, 'kernel_num_gb': 0.28311552, 'kernel_flop': 0},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_cat_gelu_permute_view_3(in_ptr0, in_ptr1, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = (xindex % 15360)
    x1 = xindex // 15360
    x2 = xindex
    tmp0 = x0
    tmp1 = tl.full([1], 0, tl.int64)
    tmp2 = tmp0 >= tmp1
    tmp3 = tl.full([1], 3072, tl.int64)
    tmp4 = tmp0 < tmp3
    tmp5 = tl.load(in_ptr0 + (3072*x1 + (x0)), tmp4 & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp6 = tmp0 >= tmp3
    tmp7 = tl.full([1], 15360, tl.int64)
    tmp8 = tmp0 < tmp7
    tmp9 = tl.load(in_ptr1 + (12288*x1 + ((-3072) + x0)), tmp6 & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp10 = tmp9.to(tl.float32)
    tmp11 = tl.full([1], 0.5, tl.float32)
    tmp12 = tmp10 * tmp11
    tmp13 = tmp10 * tmp10
    tmp14 = tmp13 * tmp10
    tmp15 = tl.full([1], 0.044715, tl.float32)
    tmp16 = tmp14 * tmp15
    tmp17 = tmp10 + tmp16
    tmp18 = tl.full([1], 0.7978845608028654, tl.float32)
    tmp19 = tmp17 * tmp18
    tmp20 = libdevice.tanh(tmp19)
    tmp21 = tl.full([1], 1.0, tl.float32)
    tmp22 = tmp20 + tmp21
    tmp23 = tmp12 * tmp22
    tmp24 = tmp23.to(tl.float32)
    tmp25 = tl.full(tmp24.shape, 0.0, tmp24.dtype)
    tmp26 = tl.where(tmp6, tmp24, tmp25)
    tmp27 = tl.where(tmp4, tmp5, tmp26)
    tl.store(out_ptr0 + (x2), tmp27, xmask)


def get_args():
    arg_0 = rand_strided((1, 24, 4608, 128), (14155776, 128, 3072, 1), device='cuda:0', dtype=torch.bfloat16)
    arg_1 = rand_strided((4608, 12288), (12288, 1), device='cuda:0', dtype=torch.bfloat16)
    arg_2 = rand_strided((1, 4608, 15360), (70778880, 15360, 1), device='cuda:0', dtype=torch.bfloat16)
    return arg_0, arg_1, arg_2, 70778880,


def call(args):
    with torch.cuda._DeviceGuard(0):
        torch.cuda.set_device(0)
        stream0 = get_raw_stream(0)
        triton_poi_fused_cat_gelu_permute_view_3.run(*args, stream=stream0)


def benchmark_all_configs(args):
    with torch.cuda._DeviceGuard(0):
        torch.cuda.set_device(0)
        return triton_poi_fused_cat_gelu_permute_view_3.benchmark_all_configs(*args)


if __name__ == '__main__':
    from torch._inductor.runtime.benchmarking import benchmarker

    args = get_args()
    ms = benchmarker.benchmark(lambda: call(args), device='cuda', rep=40)
    num_gb = 0.28311552
    gb_per_s = num_gb / (ms / 1e3)
    print(f"{ms:.3f}ms    {num_gb:.3f}GB    {gb_per_s:.2f}GB/s")
''', device_str='cuda')


# kernel path: /tmp/prov/flux_dyn/4d/c4dseuqlzehs7ydfojgqhnv6gn4dksgjr3rg5jquw2qqtegtx5ey.py
# Topologically Sorted Source Nodes: [chunk, hidden_states, gate, linear_5, hidden_states_4, hidden_states_5], Original ATen: [aten.split, aten.cat, aten.unsqueeze, aten.view, aten.mul, aten.add]
# Source node to ATen node mapping:
#   chunk => split
#   gate => unsqueeze_14
#   hidden_states => cat
#   hidden_states_4 => mul_265
#   hidden_states_5 => add_273
#   linear_5 => view_17
# Graph fragment:
#   %arg1_1 : Tensor "bf16[1, s31, 3072][3072*s31, 3072, 1]cuda:0" = PlaceHolder[target=arg1_1]
#   %arg3_1 : Tensor "bf16[1, s87, 3072][3072*s87, 3072, 1]cuda:0" = PlaceHolder[target=arg3_1]
#   %addmm : Tensor "bf16[1, 9216][9216, 1]cuda:0" = PlaceHolder[target=addmm]
#   %addmm_5 : Tensor "bf16[s31 + s87, 3072][3072, 1]cuda:0" = PlaceHolder[target=addmm_5]
#   %split : [num_users=3] = call_function[target=torch.ops.aten.split.Tensor](args = (%addmm, 3072, 1), kwargs = {})
#   %cat : Tensor "bf16[1, s31 + s87, 3072][3072*s31 + 3072*s87, 3072, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.cat.default](args = ([%arg1_1, %arg3_1], 1), kwargs = {})
#   %unsqueeze_14 : Tensor "bf16[1, 1, 3072][9216, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%getitem_2, 1), kwargs = {})
#   %view_17 : Tensor "bf16[1, s31 + s87, 3072][3072*s31 + 3072*s87, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm_5, [1, %sym_size_int_6, 3072]), kwargs = {})
#   %mul_265 : Tensor "bf16[1, s31 + s87, 3072][3072*s31 + 3072*s87, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%unsqueeze_14, %view_17), kwargs = {})
#   %add_273 : Tensor "bf16[1, s31 + s87, 3072][3072*s31 + 3072*s87, 3072, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%cat, %mul_265), kwargs = {})
#   return %add_273
triton_poi_fused_add_cat_mul_split_unsqueeze_view_4 = async_compile.triton('triton_poi_fused_add_cat_mul_split_unsqueeze_view_4', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

from torch._dynamo.testing import rand_strided
from torch._C import _cuda_getCurrentRawStream as get_raw_stream
import torch

@triton_heuristics.pointwise(
    size_hints={'x': 16777216}, 
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*bf16', 'in_ptr0': '*bf16', 'in_ptr1': '*bf16', 'in_ptr2': '*bf16', 'ks0': 'i64', 'ks1': 'i64', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_add_cat_mul_split_unsqueeze_view_4', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 4, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 110106624}, 'kernel_num_gb': 0.084953088, 'kernel_flop': 0},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_add_cat_mul_split_unsqueeze_view_4(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, ks0, ks1, xnumel, XBLOCK : tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x1 = xindex // 3072
    x0 = (xindex % 3072)
    x2 = xindex
    tmp11 = tl.load(in_ptr2 + (6144 + x0), xmask, eviction_policy='evict_last').to(tl.float32)
    tmp12 = tl.load(in_out_ptr0 + (x2), xmask).to(tl.float32)
    tmp0 = x1
    tmp1 = tl.full([1], 0, tl.int64)
    tmp2 = tmp0 >= tmp1
    tmp3 = ks0
    tmp4 = tmp0 < tmp3
    tmp5 = tl.load(in_ptr0 + (x0 + 3072*(x1)), tmp4 & xmask, other=0.0).to(tl.float32)
    tmp6 = tmp0 >= tmp3
    tmp7 = ks0 + ks1
    tmp8 = tmp0 < tmp7
    tmp9 = tl.load(in_ptr1 + (x0 + 3072*(x1 + ((-1)*ks0))), tmp6 & xmask, other=0.0).to(tl.float32)
    tmp10 = tl.where(tmp4, tmp5, tmp9)
    tmp13 = tmp11 * tmp12
    tmp14 = tmp10 + tmp13
    tl.store(in_out_ptr0 + (x2), tmp14, xmask)


def get_args():
    arg_0 = rand_strided((1, 4608, 3072), (14155776, 3072, 1), device='cuda:0', dtype=torch.bfloat16)
    arg_1 = rand_strided((1, 512, 3072), (1572864, 3072, 1), device='cuda:0', dtype=torch.bfloat16)
    arg_2 = rand_strided((1, 4096, 3072), (12582912, 3072, 1), device='cuda:0', dtype=torch.bfloat16)
    arg_3 = rand_strided((1, 9216), (9216, 1), device='cuda:0', dtype=torch.bfloat16)
    arg_4 = 512
    arg_5 = 4096
    return arg_0, arg_1, arg_2, arg_3, arg_4, arg_5, 14155776,


def call(args):
    with torch.cuda._DeviceGuard(0):
        torch.cuda.set_device(0)
        stream0 = get_raw_stream(0)
        triton_poi_fused_add_cat_mul_split_unsqueeze_view_4.run(*args, stream=stream0)


def benchmark_all_configs(args):
    with torch.cuda._DeviceGuard(0):
        torch.cuda.set_device(0)
        return triton_poi_fused_add_cat_mul_split_unsqueeze_view_4.benchmark_all_configs(*args)


if __name__ == '__main__':
    from torch._inductor.runtime.benchmarking import benchmarker

    args = get_args()
    ms = benchmarker.benchmark(lambda: call(args), device='cuda', rep=40)
    num_gb = 0.084953088
    gb_per_s = num_gb / (ms / 1e3)
    print(f"{ms:.3f}ms    {num_gb:.3f}GB    {gb_per_s:.2f}GB/s")
''', device_str='cuda')


async_compile.wait(globals())
del async_compile

class Runner:
    def __init__(self, partitions):
        self.partitions = partitions

    def recursively_apply_fns(self, fns):
        new_callables = []
        for fn, c in zip(fns, self.partitions):
            new_callables.append(fn(c))
        self.partitions = new_callables

    def call(self, args):
        arg0_1, arg1_1, arg2_1, arg3_1, arg4_1, arg5_1, arg6_1, arg7_1, arg8_1, arg9_1, arg10_1, arg11_1, arg12_1, arg13_1, arg14_1, arg15_1, arg16_1, arg17_1, arg18_1, arg19_1, arg20_1 = args
        args.clear()
        s31 = arg0_1
        s87 = arg2_1
        assert_size_stride(arg1_1, (1, s31, 3072), (3072*s31, 3072, 1))
        assert_size_stride(arg3_1, (1, s87, 3072), (3072*s87, 3072, 1))
        assert_size_stride(arg4_1, (1, 3072), (3072, 1))
        assert_size_stride(arg5_1, (9216, 3072), (3072, 1))
        assert_size_stride(arg6_1, (9216, ), (1, ))
        assert_size_stride(arg7_1, (12288, 3072), (3072, 1))
        assert_size_stride(arg8_1, (12288, ), (1, ))
        assert_size_stride(arg9_1, (3072, 3072), (3072, 1))
        assert_size_stride(arg10_1, (3072, ), (1, ))
        assert_size_stride(arg11_1, (3072, 3072), (3072, 1))
        assert_size_stride(arg12_1, (3072, ), (1, ))
        assert_size_stride(arg13_1, (3072, 3072), (3072, 1))
        assert_size_stride(arg14_1, (3072, ), (1, ))
        assert_size_stride(arg15_1, (128, ), (1, ))
        assert_size_stride(arg16_1, (128, ), (1, ))
        assert_size_stride(arg17_1, (s31 + s87, 128), (128, 1))
        assert_size_stride(arg18_1, (s31 + s87, 128), (128, 1))
        assert_size_stride(arg19_1, (3072, 15360), (15360, 1))
        assert_size_stride(arg20_1, (3072, ), (1, ))
        with torch.cuda._DeviceGuard(0):
            torch.cuda.set_device(0)
            buf0 = empty_strided_cuda((1, 3072), (3072, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [silu], Original ATen: [aten.silu]
            # [Provenance debug handles] triton_poi_fused_silu_0:1
            stream0 = get_raw_stream(0)
            triton_poi_fused_silu_0.run(arg4_1, buf0, 3072, stream=stream0)
            del arg4_1
            buf1 = empty_strided_cuda((1, 9216), (9216, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [silu, emb], Original ATen: [aten.silu, aten.t, aten.addmm]
            # [Provenance debug handles] extern_kernels.addmm:2
            extern_kernels.addmm(arg6_1, buf0, reinterpret_tensor(arg5_1, (3072, 9216), (1, 3072), 0), alpha=1, beta=1, out=buf1)
            del arg5_1
            del arg6_1
            del buf0
            buf5 = empty_strided_cuda((1, s31 + s87, 3072), (3072*s31 + 3072*s87, 3072, 1), torch.bfloat16)
            buf6 = buf5; del buf5  # reuse
            # Topologically Sorted Source Nodes: [chunk, hidden_states, layer_norm, getitem_6, add, mul, getitem_7, x], Original ATen: [aten.split, aten.cat, aten.native_layer_norm, aten.unsqueeze, aten.add, aten.mul]
            # [Provenance debug handles] triton_red_fused_add_cat_mul_native_layer_norm_split_unsqueeze_1:3
            triton_red_fused_add_cat_mul_native_layer_norm_split_unsqueeze_1_xnumel = s31 + s87
            stream0 = get_raw_stream(0)
            triton_red_fused_add_cat_mul_native_layer_norm_split_unsqueeze_1.run(buf6, arg1_1, arg3_1, buf1, s31, s87, triton_red_fused_add_cat_mul_native_layer_norm_split_unsqueeze_1_xnumel, 3072, stream=stream0)
            buf7 = empty_strided_cuda((s31 + s87, 3072), (3072, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [chunk, getitem_7, x, query], Original ATen: [aten.split, aten.unsqueeze, aten.add, aten.view, aten.t, aten.addmm]
            # [Provenance debug handles] extern_kernels.addmm:4
            extern_kernels.addmm(arg10_1, reinterpret_tensor(buf6, (s31 + s87, 3072), (3072, 1), 0), reinterpret_tensor(arg9_1, (3072, 3072), (1, 3072), 0), alpha=1, beta=1, out=buf7)
            del arg10_1
            del arg9_1
            buf9 = empty_strided_cuda((s31 + s87, 3072), (3072, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [key], Original ATen: [aten.view, aten.t, aten.addmm]
            # [Provenance debug handles] extern_kernels.addmm:5
            extern_kernels.addmm(arg12_1, reinterpret_tensor(buf6, (s31 + s87, 3072), (3072, 1), 0), reinterpret_tensor(arg11_1, (3072, 3072), (1, 3072), 0), alpha=1, beta=1, out=buf9)
            del arg11_1
            del arg12_1
            buf12 = empty_strided_cuda((1, s31 + s87, 24, 64, 2), (3072*s31 + 3072*s87, 3072, 128, 2, 1), torch.bfloat16)
            buf11 = empty_strided_cuda((1, s31 + s87, 24, 64, 2), (3072*s31 + 3072*s87, 3072, 128, 2, 1), torch.bfloat16)
            buf14 = reinterpret_tensor(buf11, (1, 24, s31 + s87, 128), (3072*s31 + 3072*s87, 128, 3072, 1), 0); del buf11  # reuse
            buf15 = reinterpret_tensor(buf12, (1, 24, s31 + s87, 128), (3072*s31 + 3072*s87, 128, 3072, 1), 0); del buf12  # reuse
            # Topologically Sorted Source Nodes: [query, query_1, query_2, reshape, unbind, key, key_1, key_2, reshape_1, unbind_1, float_1, cos, mul_1, neg, stack, x_rotated, float_2, sin, mul_2, add_2, out, query_3, float_3, cos_2, mul_3, neg_1, stack_1, x_rotated_1, float_4, sin_2, mul_4, add_3, out_1, key_3, value, value_1, value_2, out_2], Original ATen: [aten.view, aten._fused_rms_norm, aten.unbind, aten._to_copy, aten.unsqueeze, aten.mul, aten.neg, aten.stack, aten.add, aten.permute, aten._scaled_dot_product_cudnn_attention]
            # [Provenance debug handles] triton_red_fused__fused_rms_norm__scaled_dot_product_cudnn_attention__to_copy_add_mul_neg_permute_stack_unbind_unsqueeze_view_2:6
            triton_red_fused__fused_rms_norm__scaled_dot_product_cudnn_attention__to_copy_add_mul_neg_permute_stack_unbind_unsqueeze_view_2_xnumel = 24*s31 + 24*s87
            stream0 = get_raw_stream(0)
            triton_red_fused__fused_rms_norm__scaled_dot_product_cudnn_attention__to_copy_add_mul_neg_permute_stack_unbind_unsqueeze_view_2.run(buf14, buf15, buf7, buf9, arg16_1, arg15_1, arg17_1, arg18_1, triton_red_fused__fused_rms_norm__scaled_dot_product_cudnn_attention__to_copy_add_mul_neg_permute_stack_unbind_unsqueeze_view_2_xnumel, 128, stream=stream0)
            del arg15_1
            del arg16_1
            del arg17_1
            del arg18_1
            del buf7
            buf13 = buf9; del buf9  # reuse
            # Topologically Sorted Source Nodes: [value], Original ATen: [aten.view, aten.t, aten.addmm]
            # [Provenance debug handles] extern_kernels.addmm:7
            extern_kernels.addmm(arg14_1, reinterpret_tensor(buf6, (s31 + s87, 3072), (3072, 1), 0), reinterpret_tensor(arg13_1, (3072, 3072), (1, 3072), 0), alpha=1, beta=1, out=buf13)
            del arg13_1
            del arg14_1
            # Topologically Sorted Source Nodes: [query, query_1, query_2, key, key_1, key_2, float_1, cos, mul_1, x_rotated, float_2, sin, mul_2, add_2, out, query_3, float_3, cos_2, mul_3, x_rotated_1, float_4, sin_2, mul_4, add_3, out_1, key_3, value, value_1, value_2, out_2], Original ATen: [aten.view, aten._fused_rms_norm, aten._to_copy, aten.unsqueeze, aten.mul, aten.add, aten.permute, aten._scaled_dot_product_cudnn_attention]
            # [Provenance debug handles] torch.ops.aten._scaled_dot_product_cudnn_attention.default:8
            buf16 = torch.ops.aten._scaled_dot_product_cudnn_attention.default(buf14, buf15, reinterpret_tensor(buf13, (1, 24, s31 + s87, 128), (3072*s31 + 3072*s87, 128, 3072, 1), 0), None, False)
            del buf13
            del buf14
            del buf15
            buf17 = buf16[0]
            assert_size_stride(buf17, (1, 24, s31 + s87, 128), (3072*s31 + 3072*s87, 128, 3072, 1), 'torch.ops.aten._scaled_dot_product_cudnn_attention.default')
            assert_alignment(buf17, 16, 'torch.ops.aten._scaled_dot_product_cudnn_attention.default')
            del buf16
            buf21 = empty_strided_cuda((s31 + s87, 12288), (12288, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [linear_1], Original ATen: [aten.view, aten.t, aten.addmm]
            # [Provenance debug handles] extern_kernels.addmm:9
            extern_kernels.addmm(arg8_1, reinterpret_tensor(buf6, (s31 + s87, 3072), (3072, 1), 0), reinterpret_tensor(arg7_1, (3072, 12288), (1, 3072), 0), alpha=1, beta=1, out=buf21)
            del arg7_1
            del arg8_1
            del buf6
            buf22 = empty_strided_cuda((1, s31 + s87, 15360), (15360*s31 + 15360*s87, 15360, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [out_3, hidden_states_1, linear_1, mlp_hidden_states, hidden_states_3], Original ATen: [aten.permute, aten.view, aten.gelu, aten.cat]
            # [Provenance debug handles] triton_poi_fused_cat_gelu_permute_view_3:10
            triton_poi_fused_cat_gelu_permute_view_3_xnumel = 15360*s31 + 15360*s87
            stream0 = get_raw_stream(0)
            triton_poi_fused_cat_gelu_permute_view_3.run(buf17, buf21, buf22, triton_poi_fused_cat_gelu_permute_view_3_xnumel, stream=stream0)
            del buf21
            buf23 = reinterpret_tensor(buf17, (s31 + s87, 3072), (3072, 1), 0); del buf17  # reuse
            # Topologically Sorted Source Nodes: [out_3, hidden_states_1, linear_1, mlp_hidden_states, hidden_states_3, linear_5], Original ATen: [aten.permute, aten.view, aten.gelu, aten.cat, aten.t, aten.addmm]
            # [Provenance debug handles] extern_kernels.addmm:11
            extern_kernels.addmm(arg20_1, reinterpret_tensor(buf22, (s31 + s87, 15360), (15360, 1), 0), reinterpret_tensor(arg19_1, (15360, 3072), (1, 15360), 0), alpha=1, beta=1, out=buf23)
            del arg19_1
            del arg20_1
            del buf22
            buf24 = reinterpret_tensor(buf23, (1, s31 + s87, 3072), (3072*s31 + 3072*s87, 3072, 1), 0); del buf23  # reuse
            # Topologically Sorted Source Nodes: [chunk, hidden_states, gate, linear_5, hidden_states_4, hidden_states_5], Original ATen: [aten.split, aten.cat, aten.unsqueeze, aten.view, aten.mul, aten.add]
            # [Provenance debug handles] triton_poi_fused_add_cat_mul_split_unsqueeze_view_4:12
            triton_poi_fused_add_cat_mul_split_unsqueeze_view_4_xnumel = 3072*s31 + 3072*s87
            stream0 = get_raw_stream(0)
            triton_poi_fused_add_cat_mul_split_unsqueeze_view_4.run(buf24, arg1_1, arg3_1, buf1, s31, s87, triton_poi_fused_add_cat_mul_split_unsqueeze_view_4_xnumel, stream=stream0)
            del arg1_1
            del arg3_1
            del buf1
        return (reinterpret_tensor(buf24, (1, s31, 3072), (3072*s31 + 3072*s87, 3072, 1), 0), reinterpret_tensor(buf24, (1, s87, 3072), (3072*s31 + 3072*s87, 3072, 1), 3072*s31), )

runner = Runner(partitions=[])
call = runner.call
recursively_apply_fns = runner.recursively_apply_fns


def get_args():
    from torch._dynamo.testing import rand_strided
    arg0_1 = 512
    arg1_1 = rand_strided((1, 512, 3072), (1572864, 3072, 1), device='cuda:0', dtype=torch.bfloat16)
    arg2_1 = 4096
    arg3_1 = rand_strided((1, 4096, 3072), (12582912, 3072, 1), device='cuda:0', dtype=torch.bfloat16)
    arg4_1 = rand_strided((1, 3072), (3072, 1), device='cuda:0', dtype=torch.bfloat16)
    arg5_1 = rand_strided((9216, 3072), (3072, 1), device='cuda:0', dtype=torch.bfloat16)
    arg6_1 = rand_strided((9216, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg7_1 = rand_strided((12288, 3072), (3072, 1), device='cuda:0', dtype=torch.bfloat16)
    arg8_1 = rand_strided((12288, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg9_1 = rand_strided((3072, 3072), (3072, 1), device='cuda:0', dtype=torch.bfloat16)
    arg10_1 = rand_strided((3072, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg11_1 = rand_strided((3072, 3072), (3072, 1), device='cuda:0', dtype=torch.bfloat16)
    arg12_1 = rand_strided((3072, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg13_1 = rand_strided((3072, 3072), (3072, 1), device='cuda:0', dtype=torch.bfloat16)
    arg14_1 = rand_strided((3072, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg15_1 = rand_strided((128, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg16_1 = rand_strided((128, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg17_1 = rand_strided((4608, 128), (128, 1), device='cuda:0', dtype=torch.float32)
    arg18_1 = rand_strided((4608, 128), (128, 1), device='cuda:0', dtype=torch.float32)
    arg19_1 = rand_strided((3072, 15360), (15360, 1), device='cuda:0', dtype=torch.bfloat16)
    arg20_1 = rand_strided((3072, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    return [arg0_1, arg1_1, arg2_1, arg3_1, arg4_1, arg5_1, arg6_1, arg7_1, arg8_1, arg9_1, arg10_1, arg11_1, arg12_1, arg13_1, arg14_1, arg15_1, arg16_1, arg17_1, arg18_1, arg19_1, arg20_1]


def benchmark_compiled_module(args, times=10, repeat=10):
    from torch._inductor.utils import print_performance
    fn = lambda: call(list(args))
    return print_performance(fn, times=times, repeat=repeat)


if __name__ == "__main__":
    from torch._inductor.wrapper_benchmark import compiled_module_main
    args = get_args()
    compiled_module_main('None', lambda times, repeat: benchmark_compiled_module(args, times=times, repeat=repeat))
