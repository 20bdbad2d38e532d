# AOT ID: ['0_inference']
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


# kernel path: /tmp/small/inductor_cache/pm/cpmaifnkmpyaxi4ybsh6ooujnbazyfgygtjqd3lawy5w4k4nkz52.py
# Topologically Sorted Source Nodes: [silu, silu_1], Original ATen: [aten.silu]
# Source node to ATen node mapping:
#   silu => add, convert_element_type, convert_element_type_1, div, exp, neg
#   silu_1 => add_4, convert_element_type_7, convert_element_type_8, div_1, exp_1, neg_1
# Graph fragment:
#   %arg0_1 : Tensor "bf16[1, 3072][3072, 1]cuda:0" = PlaceHolder[target=arg0_1]
#   %convert_element_type : Tensor "f32[1, 3072][3072, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%arg0_1, torch.float32), kwargs = {})
#   %neg : Tensor "f32[1, 3072][3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.neg.default](args = (%convert_element_type,), kwargs = {})
#   %exp : Tensor "f32[1, 3072][3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.exp.default](args = (%neg,), kwargs = {})
#   %add : Tensor "f32[1, 3072][3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%exp, 1), kwargs = {})
#   %div : Tensor "f32[1, 3072][3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%convert_element_type, %add), kwargs = {})
#   %convert_element_type_1 : Tensor "bf16[1, 3072][3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%div, torch.bfloat16), kwargs = {})
#   %convert_element_type_7 : Tensor "f32[1, 3072][3072, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%arg0_1, torch.float32), kwargs = {})
#   %neg_1 : Tensor "f32[1, 3072][3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.neg.default](args = (%convert_element_type_7,), kwargs = {})
#   %exp_1 : Tensor "f32[1, 3072][3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.exp.default](args = (%neg_1,), kwargs = {})
#   %add_4 : Tensor "f32[1, 3072][3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%exp_1, 1), kwargs = {})
#   %div_1 : Tensor "f32[1, 3072][3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%convert_element_type_7, %add_4), kwargs = {})
#   %convert_element_type_8 : Tensor "bf16[1, 3072][3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%div_1, torch.bfloat16), kwargs = {})
#   return %convert_element_type_1,%convert_element_type_8
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
    triton_meta={'signature': {'in_ptr0': '*bf16', 'out_ptr0': '*bf16', 'out_ptr1': '*bf16', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_silu_0', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 1, 'num_store': 2, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 30720}, 'kernel_num_gb': 1.8432e-05, 'kernel_flop': 0},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_silu_0(in_ptr0, out_ptr0, out_ptr1, xnumel, XBLOCK : tl.constexpr):
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
    tl.store(out_ptr1 + (x0), tmp7, xmask)


def get_args():
    arg_0 = rand_strided((1, 3072), (3072, 1), device='cuda:0', dtype=torch.bfloat16)
    arg_1 = rand_strided((1, 3072), (3072, 1), device='cuda:0', dtype=torch.bfloat16)
    arg_2 = rand_strided((1, 3072), (3072, 1), device='cuda:0', dtype=torch.bfloat16)
    return arg_0, arg_1, arg_2, 3072,


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
    num_gb = 1.8432e-05
    gb_per_s = num_gb / (ms / 1e3)
    print(f"{ms:.3f}ms    {num_gb:.3f}GB    {gb_per_s:.2f}GB/s")
''', device_str='cuda')


# kernel path: /tmp/small/inductor_cache/fu/cfuurccunm2a7malkwxai2gsto67izzuqnjv4zfedkl6sstpkl4y.py
# Topologically Sorted Source Nodes: [chunk, layer_norm, getitem_6, add, mul, getitem_7, x], Original ATen: [aten.split, aten.native_layer_norm, aten.unsqueeze, aten.add, aten.mul]
# Source node to ATen node mapping:
#   add => add_2
#   chunk => split
#   getitem_6 => unsqueeze
#   getitem_7 => unsqueeze_1
#   layer_norm => add_1, convert_element_type_5, convert_element_type_6, mul, rsqrt, sub, var_mean
#   mul => mul_1
#   x => add_3
# Graph fragment:
#   %arg3_1 : Tensor "bf16[1, 4096, 3072][12582912, 3072, 1]cuda:0" = PlaceHolder[target=arg3_1]
#   %getitem_7 : Tensor "f32[1, 4096, 1][4096, 1, 4096]cuda:0" = PlaceHolder[target=getitem_7]
#   %buf3 : Tensor "f32[1, 4096, 1][4096, 1, 4096]cuda:0" = PlaceHolder[target=buf3]
#   %addmm : Tensor "bf16[1, 18432][18432, 1]cuda:0" = PlaceHolder[target=addmm]
#   %split : [num_users=6] = call_function[target=torch.ops.aten.split.Tensor](args = (%addmm, 3072, 1), kwargs = {})
#   %convert_element_type_5 : Tensor "f32[1, 4096, 3072][12582912, 3072, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%arg3_1, torch.float32), kwargs = {})
#   %var_mean : [num_users=2] = call_function[target=torch.ops.aten.var_mean.correction](args = (%convert_element_type_5, [2]), kwargs = {correction: 0, keepdim: True})
#   %sub : Tensor "f32[1, 4096, 3072][12582912, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%convert_element_type_5, %getitem_7), kwargs = {})
#   %add_1 : Tensor "f32[1, 4096, 1][4096, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%getitem_6, 1e-06), kwargs = {})
#   %rsqrt : Tensor "f32[1, 4096, 1][4096, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_1,), kwargs = {})
#   %mul : Tensor "f32[1, 4096, 3072][12582912, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%sub, %rsqrt), kwargs = {})
#   %convert_element_type_6 : Tensor "bf16[1, 4096, 3072][12582912, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%mul, torch.bfloat16), kwargs = {})
#   %unsqueeze : Tensor "bf16[1, 1, 3072][18432, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%getitem_1, 1), kwargs = {})
#   %add_2 : Tensor "bf16[1, 1, 3072][3072, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%unsqueeze, 1), kwargs = {})
#   %mul_1 : Tensor "bf16[1, 4096, 3072][12582912, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%convert_element_type_6, %add_2), kwargs = {})
#   %unsqueeze_1 : Tensor "bf16[1, 1, 3072][18432, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%getitem, 1), kwargs = {})
#   %add_3 : Tensor "bf16[1, 4096, 3072][12582912, 3072, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_1, %unsqueeze_1), kwargs = {})
#   return %getitem_7,%buf3,%add_3
triton_red_fused_add_mul_native_layer_norm_split_unsqueeze_1 = async_compile.triton('triton_red_fused_add_mul_native_layer_norm_split_unsqueeze_1', '''
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
    size_hints={'x': 4096, 'r0_': 4096},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*bf16', 'in_ptr1': '*bf16', 'out_ptr2': '*bf16', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_red_fused_add_mul_native_layer_norm_split_unsqueeze_1', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 4, 'num_store': 1, 'num_reduction': 2, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'add_persistent_rblock': True, 'tiling_scores': {'x': 0, 'r0_': 75509760}, 'kernel_num_gb': 0.050368512, 'kernel_flop': 0}
)
@triton.jit
def triton_red_fused_add_mul_native_layer_norm_split_unsqueeze_1(in_ptr0, in_ptr1, out_ptr2, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    xnumel = 4096
    r0_numel = 3072
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = tl.full([XBLOCK], True, tl.int1)[:, None]
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x0 = xindex
    tmp3_mean = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    tmp3_m2 = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    tmp3_weight = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp0 = tl.load(in_ptr0 + (r0_1 + 3072*x0), r0_mask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp1 = tmp0.to(tl.float32)
        tmp2 = tl.broadcast_to(tmp1, [XBLOCK, R0_BLOCK])
        tmp3_mean_next, tmp3_m2_next, tmp3_weight_next = triton_helpers.welford_reduce(
            tmp2, tmp3_mean, tmp3_m2, tmp3_weight, roffset == 0
        )
        tmp3_mean = tl.where(r0_mask, tmp3_mean_next, tmp3_mean)
        tmp3_m2 = tl.where(r0_mask, tmp3_m2_next, tmp3_m2)
        tmp3_weight = tl.where(r0_mask, tmp3_weight_next, tmp3_weight)
    tmp4, tmp5, tmp6 = triton_helpers.welford(tmp3_mean, tmp3_m2, tmp3_weight, 1)
    tmp3 = tmp4[:, None]
    tmp7 = tmp5[:, None]
    tmp8 = tmp6[:, None]
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp9 = tl.load(in_ptr0 + (r0_1 + 3072*x0), r0_mask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp19 = tl.load(in_ptr1 + (3072 + r0_1), r0_mask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp23 = tl.load(in_ptr1 + (r0_1), r0_mask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp10 = tmp9.to(tl.float32)
        tmp11 = tmp10 - tmp3
        tmp12 = tl.full([1, 1], 3072.0, tl.float32)
        tmp13 = (tmp7 / tmp12)
        tmp14 = tl.full([1, 1], 1e-06, tl.float32)
        tmp15 = tmp13 + tmp14
        tmp16 = libdevice.rsqrt(tmp15)
        tmp17 = tmp11 * tmp16
        tmp18 = tmp17.to(tl.float32)
        tmp20 = tl.full([1, 1], 1.0, tl.float32)
        tmp21 = tmp19 + tmp20
        tmp22 = tmp18 * tmp21
        tmp24 = tmp22 + tmp23
        tl.store(out_ptr2 + (r0_1 + 3072*x0), tmp24, r0_mask)


def get_args():
    arg_0 = rand_strided((1, 4096, 3072), (12582912, 3072, 1), device='cuda:0', dtype=torch.bfloat16)
    arg_1 = rand_strided((1, 18432), (18432, 1), device='cuda:0', dtype=torch.bfloat16)
    arg_2 = rand_strided((1, 4096, 3072), (12582912, 3072, 1), device='cuda:0', dtype=torch.bfloat16)
    return arg_0, arg_1, arg_2, 4096, 3072,


def call(args):
    with torch.cuda._DeviceGuard(0):
        torch.cuda.set_device(0)
        stream0 = get_raw_stream(0)
        triton_red_fused_add_mul_native_layer_norm_split_unsqueeze_1.run(*args, stream=stream0)


def benchmark_all_configs(args):
    with torch.cuda._DeviceGuard(0):
        torch.cuda.set_device(0)
        return triton_red_fused_add_mul_native_layer_norm_split_unsqueeze_1.benchmark_all_configs(*args)


if __name__ == '__main__':
    from torch._inductor.runtime.benchmarking import benchmarker

    args = get_args()
    ms = benchmarker.benchmark(lambda: call(args), device='cuda', rep=40)
    num_gb = 0.050368512
    gb_per_s = num_gb / (ms / 1e3)
    print(f"{ms:.3f}ms    {num_gb:.3f}GB    {gb_per_s:.2f}GB/s")
''', device_str='cuda')


# kernel path: /tmp/small/inductor_cache/w4/cw4tshtjgtrgybj2i2l6bnsk6elnxpu6kac2s5uymfpndfh7ovml.py
# Topologically Sorted Source Nodes: [chunk_1, layer_norm_1, getitem_14, add_2, mul_1, getitem_15, x_1], Original ATen: [aten.split, aten.native_layer_norm, aten.unsqueeze, aten.add, aten.mul]
# Source node to ATen node mapping:
#   add_2 => add_6
#   chunk_1 => split_1
#   getitem_14 => unsqueeze_2
#   getitem_15 => unsqueeze_3
#   layer_norm_1 => add_5, convert_element_type_12, convert_element_type_13, mul_2, rsqrt_1, sub_1, var_mean_1
#   mul_1 => mul_3
#   x_1 => add_7
# Graph fragment:
#   %arg6_1 : Tensor "bf16[1, 512, 3072][1572864, 3072, 1]cuda:0" = PlaceHolder[target=arg6_1]
#   %getitem_15 : Tensor "f32[1, 512, 1][512, 1, 512]cuda:0" = PlaceHolder[target=getitem_15]
#   %buf8 : Tensor "f32[1, 512, 1][512, 1, 512]cuda:0" = PlaceHolder[target=buf8]
#   %addmm_1 : Tensor "bf16[1, 18432][18432, 1]cuda:0" = PlaceHolder[target=addmm_1]
#   %split_1 : [num_users=6] = call_function[target=torch.ops.aten.split.Tensor](args = (%addmm_1, 3072, 1), kwargs = {})
#   %convert_element_type_12 : Tensor "f32[1, 512, 3072][1572864, 3072, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%arg6_1, torch.float32), kwargs = {})
#   %var_mean_1 : [num_users=2] = call_function[target=torch.ops.aten.var_mean.correction](args = (%convert_element_type_12, [2]), kwargs = {correction: 0, keepdim: True})
#   %sub_1 : Tensor "f32[1, 512, 3072][1572864, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%convert_element_type_12, %getitem_15), kwargs = {})
#   %add_5 : Tensor "f32[1, 512, 1][512, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%getitem_14, 1e-06), kwargs = {})
#   %rsqrt_1 : Tensor "f32[1, 512, 1][512, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_5,), kwargs = {})
#   %mul_2 : Tensor "f32[1, 512, 3072][1572864, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%sub_1, %rsqrt_1), kwargs = {})
#   %convert_element_type_13 : Tensor "bf16[1, 512, 3072][1572864, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%mul_2, torch.bfloat16), kwargs = {})
#   %unsqueeze_2 : Tensor "bf16[1, 1, 3072][18432, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%getitem_9, 1), kwargs = {})
#   %add_6 : Tensor "bf16[1, 1, 3072][3072, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%unsqueeze_2, 1), kwargs = {})
#   %mul_3 : Tensor "bf16[1, 512, 3072][1572864, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%convert_element_type_13, %add_6), kwargs = {})
#   %unsqueeze_3 : Tensor "bf16[1, 1, 3072][18432, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%getitem_8, 1), kwargs = {})
#   %add_7 : Tensor "bf16[1, 512, 3072][1572864, 3072, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_3, %unsqueeze_3), kwargs = {})
#   return %getitem_15,%buf8,%add_7
triton_red_fused_add_mul_native_layer_norm_split_unsqueeze_2 = async_compile.triton('triton_red_fused_add_mul_native_layer_norm_split_unsqueeze_2', '''
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
    size_hints={'x': 512, 'r0_': 4096},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*bf16', 'in_ptr1': '*bf16', 'out_ptr2': '*bf16', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_red_fused_add_mul_native_layer_norm_split_unsqueeze_2', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 4, 'num_store': 1, 'num_reduction': 2, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'add_persistent_rblock': True, 'tiling_scores': {'x': 0, 'r0_': 9449472}, 'kernel_num_gb': 0.00632832, 'kernel_flop': 0}
)
@triton.jit
def triton_red_fused_add_mul_native_layer_norm_split_unsqueeze_2(in_ptr0, in_ptr1, out_ptr2, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    xnumel = 512
    r0_numel = 3072
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x0 = xindex
    tmp3_mean = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    tmp3_m2 = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    tmp3_weight = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp0 = tl.load(in_ptr0 + (r0_1 + 3072*x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp1 = tmp0.to(tl.float32)
        tmp2 = tl.broadcast_to(tmp1, [XBLOCK, R0_BLOCK])
        tmp3_mean_next, tmp3_m2_next, tmp3_weight_next = triton_helpers.welford_reduce(
            tmp2, tmp3_mean, tmp3_m2, tmp3_weight, roffset == 0
        )
        tmp3_mean = tl.where(r0_mask & xmask, tmp3_mean_next, tmp3_mean)
        tmp3_m2 = tl.where(r0_mask & xmask, tmp3_m2_next, tmp3_m2)
        tmp3_weight = tl.where(r0_mask & xmask, tmp3_weight_next, tmp3_weight)
    tmp4, tmp5, tmp6 = triton_helpers.welford(tmp3_mean, tmp3_m2, tmp3_weight, 1)
    tmp3 = tmp4[:, None]
    tmp7 = tmp5[:, None]
    tmp8 = tmp6[:, None]
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp9 = tl.load(in_ptr0 + (r0_1 + 3072*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp19 = tl.load(in_ptr1 + (3072 + r0_1), r0_mask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp23 = tl.load(in_ptr1 + (r0_1), r0_mask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp10 = tmp9.to(tl.float32)
        tmp11 = tmp10 - tmp3
        tmp12 = tl.full([1, 1], 3072.0, tl.float32)
        tmp13 = (tmp7 / tmp12)
        tmp14 = tl.full([1, 1], 1e-06, tl.float32)
        tmp15 = tmp13 + tmp14
        tmp16 = libdevice.rsqrt(tmp15)
        tmp17 = tmp11 * tmp16
        tmp18 = tmp17.to(tl.float32)
        tmp20 = tl.full([1, 1], 1.0, tl.float32)
        tmp21 = tmp19 + tmp20
        tmp22 = tmp18 * tmp21
        tmp24 = tmp22 + tmp23
        tl.store(out_ptr2 + (r0_1 + 3072*x0), tmp24, r0_mask & xmask)


def get_args():
    arg_0 = rand_strided((1, 512, 3072), (1572864, 3072, 1), device='cuda:0', dtype=torch.bfloat16)
    arg_1 = rand_strided((1, 18432), (18432, 1), device='cuda:0', dtype=torch.bfloat16)
    arg_2 = rand_strided((1, 512, 3072), (1572864, 3072, 1), device='cuda:0', dtype=torch.bfloat16)
    return arg_0, arg_1, arg_2, 512, 3072,


def call(args):
    with torch.cuda._DeviceGuard(0):
        torch.cuda.set_device(0)
        stream0 = get_raw_stream(0)
        triton_red_fused_add_mul_native_layer_norm_split_unsqueeze_2.run(*args, stream=stream0)


def benchmark_all_configs(args):
    with torch.cuda._DeviceGuard(0):
        torch.cuda.set_device(0)
        return triton_red_fused_add_mul_native_layer_norm_split_unsqueeze_2.benchmark_all_configs(*args)


if __name__ == '__main__':
    from torch._inductor.runtime.benchmarking import benchmarker

    args = get_args()
    ms = benchmarker.benchmark(lambda: call(args), device='cuda', rep=40)
    num_gb = 0.00632832
    gb_per_s = num_gb / (ms / 1e3)
    print(f"{ms:.3f}ms    {num_gb:.3f}GB    {gb_per_s:.2f}GB/s")
''', device_str='cuda')


# kernel path: /tmp/small/inductor_cache/z7/cz7aqjkr6y74swcoy6yxbctzii7vvyni2ctlu54x34lefipiyjlr.py
# Topologically Sorted Source Nodes: [encoder_query, encoder_query_1, encoder_query_2], Original ATen: [aten.view, aten._fused_rms_norm]
# Source node to ATen node mapping:
#   encoder_query => view_7
#   encoder_query_1 => view_15
#   encoder_query_2 => convert_element_type_36, mean_2, pow_3
# Graph fragment:
#   %addmm_5 : Tensor "bf16[512, 3072][3072, 1]cuda:0" = PlaceHolder[target=addmm_5]
#   %view_7 : Tensor "bf16[1, 512, 3072][1572864, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm_5, [1, 512, 3072]), kwargs = {})
#   %view_15 : Tensor "bf16[1, 512, 24, 128][1572864, 3072, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%view_7, [1, 512, 24, 128]), kwargs = {})
#   %convert_element_type_36 : Tensor "f32[1, 512, 24, 128][1572864, 3072, 128, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%view_15, torch.float32), kwargs = {})
#   %pow_3 : Tensor "f32[1, 512, 24, 128][1572864, 3072, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.pow.Tensor_Scalar](args = (%convert_element_type_36, 2), kwargs = {})
#   %mean_2 : Tensor "f32[1, 512, 24, 1][12288, 24, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mean.dim](args = (%pow_3, [3], True), kwargs = {})
#   return %buf12
triton_per_fused__fused_rms_norm_view_3 = async_compile.triton('triton_per_fused__fused_rms_norm_view_3', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

from torch._dynamo.testing import rand_strided
from torch._C import _cuda_getCurrentRawStream as get_raw_stream
import torch

@triton_heuristics.persistent_reduction(
    size_hints={'x': 16384, 'r0_': 128},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*bf16', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused__fused_rms_norm_view_3', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 1, 'num_store': 1, 'num_reduction': 1, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 98304, 'r0_': 3145728}, 'kernel_num_gb': 0.00319488, 'kernel_flop': 0}
)
@triton.jit
def triton_per_fused__fused_rms_norm_view_3(in_ptr0, out_ptr0, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 12288
    r0_numel = 128
    R0_BLOCK: tl.constexpr = 128
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = tl.full([XBLOCK], True, tl.int1)[:, None]
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = tl.full([R0_BLOCK], True, tl.int1)[None, :]
    roffset = r0_offset
    rindex = r0_index
    r0_1 = r0_index
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (r0_1 + 128*x0), None).to(tl.float32)
    tmp1 = tmp0.to(tl.float32)
    tmp2 = tmp1 * tmp1
    tmp3 = tl.broadcast_to(tmp2, [XBLOCK, R0_BLOCK])
    tmp5 = tl.sum(tmp3, 1)[:, None].to(tl.float32)
    tl.store(out_ptr0 + (x0), tmp5, None)


def get_args():
    arg_0 = rand_strided((512, 3072), (3072, 1), device='cuda:0', dtype=torch.bfloat16)
    arg_1 = rand_strided((1, 512, 24, 1), (12288, 24, 1, 12288), device='cuda:0', dtype=torch.float32)
    return arg_0, arg_1, 12288, 128,


def call(args):
    with torch.cuda._DeviceGuard(0):
        torch.cuda.set_device(0)
        stream0 = get_raw_stream(0)
        triton_per_fused__fused_rms_norm_view_3.run(*args, stream=stream0)


def benchmark_all_configs(args):
    with torch.cuda._DeviceGuard(0):
        torch.cuda.set_device(0)
        return triton_per_fused__fused_rms_norm_view_3.benchmark_all_configs(*args)


if __name__ == '__main__':
    from torch._inductor.runtime.benchmarking import benchmarker

    args = get_args()
    ms = benchmarker.benchmark(lambda: call(args), device='cuda', rep=40)
    num_gb = 0.00319488
    gb_per_s = num_gb / (ms / 1e3)
    print(f"{ms:.3f}ms    {num_gb:.3f}GB    {gb_per_s:.2f}GB/s")
''', device_str='cuda')


# kernel path: /tmp/small/inductor_cache/ky/ckyooujccj3ewnhqh7fznvtjin5pvrsqavljpx76yyhiru2fyq4z.py
# Topologically Sorted Source Nodes: [query, query_1, query_2], Original ATen: [aten.view, aten._fused_rms_norm]
# Source node to ATen node mapping:
#   query => view_1
#   query_1 => view_12
#   query_2 => convert_element_type_32, mean, pow_1
# Graph fragment:
#   %addmm_2 : Tensor "bf16[4096, 3072][3072, 1]cuda:0" = PlaceHolder[target=addmm_2]
#   %view_1 : Tensor "bf16[1, 4096, 3072][12582912, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm_2, [1, 4096, 3072]), kwargs = {})
#   %view_12 : Tensor "bf16[1, 4096, 24, 128][12582912, 3072, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%view_1, [1, 4096, 24, 128]), kwargs = {})
#   %convert_element_type_32 : Tensor "f32[1, 4096, 24, 128][12582912, 3072, 128, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%view_12, torch.float32), kwargs = {})
#   %pow_1 : Tensor "f32[1, 4096, 24, 128][12582912, 3072, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.pow.Tensor_Scalar](args = (%convert_element_type_32, 2), kwargs = {})
#   %mean : Tensor "f32[1, 4096, 24, 1][98304, 24, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mean.dim](args = (%pow_1, [3], True), kwargs = {})
#   return %buf15
triton_per_fused__fused_rms_norm_view_4 = async_compile.triton('triton_per_fused__fused_rms_norm_view_4', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

from torch._dynamo.testing import rand_strided
from torch._C import _cuda_getCurrentRawStream as get_raw_stream
import torch

@triton_heuristics.persistent_reduction(
    size_hints={'x': 131072, 'r0_': 128},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*bf16', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused__fused_rms_norm_view_4', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 1, 'num_store': 1, 'num_reduction': 1, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 786432, 'r0_': 25165824}, 'kernel_num_gb': 0.02555904, 'kernel_flop': 0}
)
@triton.jit
def triton_per_fused__fused_rms_norm_view_4(in_ptr0, out_ptr0, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 98304
    r0_numel = 128
    R0_BLOCK: tl.constexpr = 128
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = tl.full([XBLOCK], True, tl.int1)[:, None]
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = tl.full([R0_BLOCK], True, tl.int1)[None, :]
    roffset = r0_offset
    rindex = r0_index
    r0_1 = r0_index
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (r0_1 + 128*x0), None).to(tl.float32)
    tmp1 = tmp0.to(tl.float32)
    tmp2 = tmp1 * tmp1
    tmp3 = tl.broadcast_to(tmp2, [XBLOCK, R0_BLOCK])
    tmp5 = tl.sum(tmp3, 1)[:, None].to(tl.float32)
    tl.store(out_ptr0 + (x0), tmp5, None)


def get_args():
    arg_0 = rand_strided((4096, 3072), (3072, 1), device='cuda:0', dtype=torch.bfloat16)
    arg_1 = rand_strided((1, 4096, 24, 1), (98304, 24, 1, 98304), device='cuda:0', dtype=torch.float32)
    return arg_0, arg_1, 98304, 128,


def call(args):
    with torch.cuda._DeviceGuard(0):
        torch.cuda.set_device(0)
        stream0 = get_raw_stream(0)
        triton_per_fused__fused_rms_norm_view_4.run(*args, stream=stream0)


def benchmark_all_configs(args):
    with torch.cuda._DeviceGuard(0):
        torch.cuda.set_device(0)
        return triton_per_fused__fused_rms_norm_view_4.benchmark_all_configs(*args)


if __name__ == '__main__':
    from torch._inductor.runtime.benchmarking import benchmarker

    args = get_args()
    ms = benchmarker.benchmark(lambda: call(args), device='cuda', rep=40)
    num_gb = 0.02555904
    gb_per_s = num_gb / (ms / 1e3)
    print(f"{ms:.3f}ms    {num_gb:.3f}GB    {gb_per_s:.2f}GB/s")
''', device_str='cuda')


# kernel path: /tmp/small/inductor_cache/q3/cq3zqjqgvk3nhxvi5uefwzeo77gwlgjhm72u6fgbw6ndgp264try.py
# Topologically Sorted Source Nodes: [encoder_query, encoder_query_1, encoder_query_2, query, query_1, query_2, query_3], Original ATen: [aten.view, aten._fused_rms_norm, aten.cat]
# Source node to ATen node mapping:
#   encoder_query => view_7
#   encoder_query_1 => view_15
#   encoder_query_2 => add_10, convert_element_type_36, convert_element_type_37, mean_2, mul_8, mul_9, pow_3, rsqrt_4
#   query => view_1
#   query_1 => view_12
#   query_2 => add_8, convert_element_type_32, convert_element_type_33, mean, mul_4, mul_5, pow_1, rsqrt_2
#   query_3 => cat
# Graph fragment:
#   %addmm_5 : Tensor "bf16[512, 3072][3072, 1]cuda:0" = PlaceHolder[target=addmm_5]
#   %buf12 : Tensor "f32[1, 512, 24, 1][12288, 24, 1, 12288]cuda:0" = PlaceHolder[target=buf12]
#   %arg21_1 : Tensor "bf16[128][1]cuda:0" = PlaceHolder[target=arg21_1]
#   %addmm_2 : Tensor "bf16[4096, 3072][3072, 1]cuda:0" = PlaceHolder[target=addmm_2]
#   %buf15 : Tensor "f32[1, 4096, 24, 1][98304, 24, 1, 98304]cuda:0" = PlaceHolder[target=buf15]
#   %arg19_1 : Tensor "bf16[128][1]cuda:0" = PlaceHolder[target=arg19_1]
#   %view_7 : Tensor "bf16[1, 512, 3072][1572864, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm_5, [1, 512, 3072]), kwargs = {})
#   %view_15 : Tensor "bf16[1, 512, 24, 128][1572864, 3072, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%view_7, [1, 512, 24, 128]), kwargs = {})
#   %convert_element_type_36 : Tensor "f32[1, 512, 24, 128][1572864, 3072, 128, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%view_15, torch.float32), kwargs = {})
#   %pow_3 : Tensor "f32[1, 512, 24, 128][1572864, 3072, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.pow.Tensor_Scalar](args = (%convert_element_type_36, 2), kwargs = {})
#   %mean_2 : Tensor "f32[1, 512, 24, 1][12288, 24, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mean.dim](args = (%pow_3, [3], True), kwargs = {})
#   %add_10 : Tensor "f32[1, 512, 24, 1][12288, 24, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Scalar](args = (%mean_2, 1e-06), kwargs = {})
#   %rsqrt_4 : Tensor "f32[1, 512, 24, 1][12288, 24, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_10,), kwargs = {})
#   %mul_8 : Tensor "f32[1, 512, 24, 128][1572864, 3072, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%convert_element_type_36, %rsqrt_4), kwargs = {})
#   %mul_9 : Tensor "f32[1, 512, 24, 128][1572864, 3072, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_8, %arg21_1), kwargs = {})
#   %convert_element_type_37 : Tensor "bf16[1, 512, 24, 128][1572864, 3072, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%mul_9, torch.bfloat16), kwargs = {})
#   %view_1 : Tensor "bf16[1, 4096, 3072][12582912, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm_2, [1, 4096, 3072]), kwargs = {})
#   %view_12 : Tensor "bf16[1, 4096, 24, 128][12582912, 3072, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%view_1, [1, 4096, 24, 128]), kwargs = {})
#   %convert_element_type_32 : Tensor "f32[1, 4096, 24, 128][12582912, 3072, 128, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%view_12, torch.float32), kwargs = {})
#   %pow_1 : Tensor "f32[1, 4096, 24, 128][12582912, 3072, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.pow.Tensor_Scalar](args = (%convert_element_type_32, 2), kwargs = {})
#   %mean : Tensor "f32[1, 4096, 24, 1][98304, 24, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mean.dim](args = (%pow_1, [3], True), kwargs = {})
#   %add_8 : Tensor "f32[1, 4096, 24, 1][98304, 24, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Scalar](args = (%mean, 1e-06), kwargs = {})
#   %rsqrt_2 : Tensor "f32[1, 4096, 24, 1][98304, 24, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_8,), kwargs = {})
#   %mul_4 : Tensor "f32[1, 4096, 24, 128][12582912, 3072, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%convert_element_type_32, %rsqrt_2), kwargs = {})
#   %mul_5 : Tensor "f32[1, 4096, 24, 128][12582912, 3072, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_4, %arg19_1), kwargs = {})
#   %convert_element_type_33 : Tensor "bf16[1, 4096, 24, 128][12582912, 3072, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%mul_5, torch.bfloat16), kwargs = {})
#   %cat : Tensor "bf16[1, 4608, 24, 128][14155776, 3072, 128, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.cat.default](args = ([%convert_element_type_37, %convert_element_type_33], 1), kwargs = {})
#   return %cat
triton_poi_fused__fused_rms_norm_cat_view_5 = async_compile.triton('triton_poi_fused__fused_rms_norm_cat_view_5', '''
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
    size_hints={'y': 131072, 'x': 128}, tile_hint=TileHint.DEFAULT,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*bf16', 'in_ptr1': '*fp32', 'in_ptr2': '*bf16', 'in_ptr3': '*bf16', 'in_ptr4': '*fp32', 'in_ptr5': '*bf16', 'out_ptr0': '*bf16', 'ynumel': 'i32', 'xnumel': 'i32', 'YBLOCK': 'constexpr', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]], (8,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid2DWithYZOverflow', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused__fused_rms_norm_cat_view_5', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 6, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'y': 442368, 'x': 84935168}, 'kernel_num_gb': 0.057065984, 'kernel_flop': 0},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused__fused_rms_norm_cat_view_5(in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, in_ptr5, out_ptr0, ynumel, xnumel, YBLOCK : tl.constexpr, XBLOCK : tl.constexpr):
    ynumel = 110592
    xnumel = 128
    yoffset = (tl.program_id(1) + tl.program_id(2) * tl.num_programs(1)) * YBLOCK
    yindex = yoffset + tl.arange(0, YBLOCK)[:, None]
    ymask = yindex < ynumel
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[None, :]
    xmask = xindex < xnumel
    y1 = yindex // 24
    x2 = xindex
    y0 = (yindex % 24)
    y3 = yindex
    tmp0 = y1
    tmp1 = tl.full([1, 1], 0, tl.int64)
    tmp2 = tmp0 >= tmp1
    tmp3 = tl.full([1, 1], 512, tl.int64)
    tmp4 = tmp0 < tmp3
    tmp5 = tl.load(in_ptr0 + (x2 + 128*y0 + 3072*(y1)), tmp4 & xmask & ymask, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp6 = tmp5.to(tl.float32)
    tmp7 = tl.load(in_ptr1 + (tl.broadcast_to(y0 + 24*(y1), [YBLOCK, XBLOCK])), tmp4 & xmask & ymask, eviction_policy='evict_last', other=0.0)
    tmp8 = tl.full([1, 1], 128.0, tl.float32)
    tmp9 = (tmp7 / tmp8)
    tmp10 = tl.full([1, 1], 1e-06, tl.float32)
    tmp11 = tmp9 + tmp10
    tmp12 = libdevice.rsqrt(tmp11)
    tmp13 = tmp6 * tmp12
    tmp14 = tl.load(in_ptr2 + (tl.broadcast_to(x2, [YBLOCK, XBLOCK])), tmp4 & xmask & ymask, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp15 = tmp14.to(tl.float32)
    tmp16 = tmp13 * tmp15
    tmp17 = tmp16.to(tl.float32)
    tmp18 = tl.full(tmp17.shape, 0.0, tmp17.dtype)
    tmp19 = tl.where(tmp4, tmp17, tmp18)
    tmp20 = tmp0 >= tmp3
    tmp21 = tl.full([1, 1], 4608, tl.int64)
    tmp22 = tmp0 < tmp21
    tmp23 = tl.load(in_ptr3 + (x2 + 128*y0 + 3072*((-512) + y1)), tmp20 & xmask & ymask, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp24 = tmp23.to(tl.float32)
    tmp25 = tl.load(in_ptr4 + (tl.broadcast_to(y0 + 24*((-512) + y1), [YBLOCK, XBLOCK])), tmp20 & xmask & ymask, eviction_policy='evict_last', other=0.0)
    tmp26 = tl.full([1, 1], 128.0, tl.float32)
    tmp27 = (tmp25 / tmp26)
    tmp28 = tl.full([1, 1], 1e-06, tl.float32)
    tmp29 = tmp27 + tmp28
    tmp30 = libdevice.rsqrt(tmp29)
    tmp31 = tmp24 * tmp30
    tmp32 = tl.load(in_ptr5 + (tl.broadcast_to(x2, [YBLOCK, XBLOCK])), tmp20 & xmask & ymask, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp33 = tmp32.to(tl.float32)
    tmp34 = tmp31 * tmp33
    tmp35 = tmp34.to(tl.float32)
    tmp36 = tl.full(tmp35.shape, 0.0, tmp35.dtype)
    tmp37 = tl.where(tmp20, tmp35, tmp36)
    tmp38 = tl.where(tmp4, tmp19, tmp37)
    tl.store(out_ptr0 + (x2 + 128*y3), tmp38, xmask & ymask)


def get_args():
    arg_0 = rand_strided((512, 3072), (3072, 1), device='cuda:0', dtype=torch.bfloat16)
    arg_1 = rand_strided((1, 512, 24, 1), (12288, 24, 1, 12288), device='cuda:0', dtype=torch.float32)
    arg_2 = rand_strided((128,), (1,), device='cuda:0', dtype=torch.bfloat16)
    arg_3 = rand_strided((4096, 3072), (3072, 1), device='cuda:0', dtype=torch.bfloat16)
    arg_4 = rand_strided((1, 4096, 24, 1), (98304, 24, 1, 98304), device='cuda:0', dtype=torch.float32)
    arg_5 = rand_strided((128,), (1,), device='cuda:0', dtype=torch.bfloat16)
    arg_6 = rand_strided((1, 4608, 24, 128), (14155776, 3072, 128, 1), device='cuda:0', dtype=torch.bfloat16)
    return arg_0, arg_1, arg_2, arg_3, arg_4, arg_5, arg_6, 110592, 128,


def call(args):
    with torch.cuda._DeviceGuard(0):
        torch.cuda.set_device(0)
        stream0 = get_raw_stream(0)
        triton_poi_fused__fused_rms_norm_cat_view_5.run(*args, stream=stream0)


def benchmark_all_configs(args):
    with torch.cuda._DeviceGuard(0):
        torch.cuda.set_device(0)
        return triton_poi_fused__fused_rms_norm_cat_view_5.benchmark_all_configs(*args)


if __name__ == '__main__':
    from torch._inductor.runtime.benchmarking import benchmarker

    args = get_args()
    ms = benchmarker.benchmark(lambda: call(args), device='cuda', rep=40)
    num_gb = 0.057065984
    gb_per_s = num_gb / (ms / 1e3)
    print(f"{ms:.3f}ms    {num_gb:.3f}GB    {gb_per_s:.2f}GB/s")
''', device_str='cuda')


# kernel path: /tmp/small/inductor_cache/jx/cjxzb4gommg64bamjqan5ng2vwiad57zloxmumrvtdsegn3siyph.py
# Topologically Sorted Source Nodes: [reshape, unbind, reshape_1, unbind_1, float_1, cos, mul_2, neg, stack, x_rotated, float_2, sin, mul_3, add_4, out, query_4, float_3, cos_2, mul_4, neg_1, stack_1, x_rotated_1, float_4, sin_2, mul_5, add_5, out_1, key_4, encoder_value, encoder_value_1, value, value_1, value_2, value_3, out_2], Original ATen: [aten.view, aten.unbind, aten._to_copy, aten.unsqueeze, aten.mul, aten.neg, aten.stack, aten.add, aten.permute, aten.cat, aten._scaled_dot_product_cudnn_attention]
# Source node to ATen node mapping:
#   add_4 => add_12
#   add_5 => add_13
#   cos => unsqueeze_4, unsqueeze_5
#   cos_2 => unsqueeze_10, unsqueeze_11
#   encoder_value => view_11
#   encoder_value_1 => view_17
#   float_1 => convert_element_type_40
#   float_2 => convert_element_type_41
#   float_3 => convert_element_type_43
#   float_4 => convert_element_type_44
#   key_4 => permute_9
#   mul_2 => mul_12
#   mul_3 => mul_13
#   mul_4 => mul_14
#   mul_5 => mul_15
#   neg => neg_2
#   neg_1 => neg_3
#   out => convert_element_type_42
#   out_1 => convert_element_type_45
#   out_2 => _scaled_dot_product_cudnn_attention
#   query_4 => permute_8
#   reshape => view_18
#   reshape_1 => view_20
#   sin => unsqueeze_6, unsqueeze_7
#   sin_2 => unsqueeze_12, unsqueeze_13
#   stack => cat_3, unsqueeze_8, unsqueeze_9
#   stack_1 => cat_4, unsqueeze_14, unsqueeze_15
#   unbind => unbind
#   unbind_1 => unbind_1
#   value => view_5
#   value_1 => view_14
#   value_2 => cat_2
#   value_3 => permute_10
#   x_rotated => view_19
#   x_rotated_1 => view_21
# Graph fragment:
#   %cat : Tensor "bf16[1, 4608, 24, 128][14155776, 3072, 128, 1]cuda:0" = PlaceHolder[target=cat]
#   %arg23_1 : Tensor "f32[4608, 128][128, 1]cuda:0" = PlaceHolder[target=arg23_1]
#   %arg24_1 : Tensor "f32[4608, 128][128, 1]cuda:0" = PlaceHolder[target=arg24_1]
#   %cat_1 : Tensor "bf16[1, 4608, 24, 128][14155776, 3072, 128, 1]cuda:0" = PlaceHolder[target=cat_1]
#   %view_18 : Tensor "bf16[1, 4608, 24, 64, 2][14155776, 3072, 128, 2, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%cat, [1, 4608, 24, -1, 2]), kwargs = {})
#   %unbind : [num_users=2] = call_function[target=torch.ops.aten.unbind.int](args = (%view_18, -1), kwargs = {})
#   %view_20 : Tensor "bf16[1, 4608, 24, 64, 2][14155776, 3072, 128, 2, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%cat_1, [1, 4608, 24, -1, 2]), kwargs = {})
#   %unbind_1 : [num_users=2] = call_function[target=torch.ops.aten.unbind.int](args = (%view_20, -1), kwargs = {})
#   %convert_element_type_40 : Tensor "f32[1, 4608, 24, 128][14155776, 3072, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%cat, torch.float32), kwargs = {})
#   %unsqueeze_4 : Tensor "f32[1, 4608, 128][589824, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%arg23_1, 0), kwargs = {})
#   %unsqueeze_5 : Tensor "f32[1, 4608, 1, 128][589824, 128, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_4, 2), kwargs = {})
#   %mul_12 : Tensor "f32[1, 4608, 24, 128][14155776, 3072, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%convert_element_type_40, %unsqueeze_5), kwargs = {})
#   %neg_2 : Tensor "bf16[1, 4608, 24, 64][7077888, 1536, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.neg.default](args = (%getitem_17,), kwargs = {})
#   %unsqueeze_8 : Tensor "bf16[1, 4608, 24, 64, 1][7077888, 1536, 64, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%neg_2, 4), kwargs = {})
#   %unsqueeze_9 : Tensor "bf16[1, 4608, 24, 64, 1][14155776, 3072, 128, 2, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%getitem_16, 4), kwargs = {})
#   %cat_3 : Tensor "bf16[1, 4608, 24, 64, 2][14155776, 3072, 128, 2, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.cat.default](args = ([%unsqueeze_8, %unsqueeze_9], -1), kwargs = {})
#   %view_19 : Tensor "bf16[1, 4608, 24, 128][14155776, 3072, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%cat_3, [1, 4608, 24, 128]), kwargs = {})
#   %convert_element_type_41 : Tensor "f32[1, 4608, 24, 128][14155776, 3072, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%view_19, torch.float32), kwargs = {})
#   %unsqueeze_6 : Tensor "f32[1, 4608, 128][589824, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%arg24_1, 0), kwargs = {})
#   %unsqueeze_7 : Tensor "f32[1, 4608, 1, 128][589824, 128, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_6, 2), kwargs = {})
#   %mul_13 : Tensor "f32[1, 4608, 24, 128][14155776, 3072, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%convert_element_type_41, %unsqueeze_7), kwargs = {})
#   %add_12 : Tensor "f32[1, 4608, 24, 128][14155776, 3072, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_12, %mul_13), kwargs = {})
#   %convert_element_type_42 : Tensor "bf16[1, 4608, 24, 128][14155776, 3072, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_12, torch.bfloat16), kwargs = {})
#   %permute_8 : Tensor "bf16[1, 24, 4608, 128][14155776, 128, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%convert_element_type_42, [0, 2, 1, 3]), kwargs = {})
#   %convert_element_type_43 : Tensor "f32[1, 4608, 24, 128][14155776, 3072, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%cat_1, torch.float32), kwargs = {})
#   %unsqueeze_10 : Tensor "f32[1, 4608, 128][589824, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%arg23_1, 0), kwargs = {})
#   %unsqueeze_11 : Tensor "f32[1, 4608, 1, 128][589824, 128, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_10, 2), kwargs = {})
#   %mul_14 : Tensor "f32[1, 4608, 24, 128][14155776, 3072, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%convert_element_type_43, %unsqueeze_11), kwargs = {})
#   %neg_3 : Tensor "bf16[1, 4608, 24, 64][7077888, 1536, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.neg.default](args = (%getitem_19,), kwargs = {})
#   %unsqueeze_14 : Tensor "bf16[1, 4608, 24, 64, 1][7077888, 1536, 64, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%neg_3, 4), kwargs = {})
#   %unsqueeze_15 : Tensor "bf16[1, 4608, 24, 64, 1][14155776, 3072, 128, 2, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%getitem_18, 4), kwargs = {})
#   %cat_4 : Tensor "bf16[1, 4608, 24, 64, 2][14155776, 3072, 128, 2, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.cat.default](args = ([%unsqueeze_14, %unsqueeze_15], -1), kwargs = {})
#   %view_21 : Tensor "bf16[1, 4608, 24, 128][14155776, 3072, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%cat_4, [1, 4608, 24, 128]), kwargs = {})
#   %convert_element_type_44 : Tensor "f32[1, 4608, 24, 128][14155776, 3072, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%view_21, torch.float32), kwargs = {})
#   %unsqueeze_12 : Tensor "f32[1, 4608, 128][589824, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%arg24_1, 0), kwargs = {})
#   %unsqueeze_13 : Tensor "f32[1, 4608, 1, 128][589824, 128, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_12, 2), kwargs = {})
#   %mul_15 : Tensor "f32[1, 4608, 24, 128][14155776, 3072, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%convert_element_type_44, %unsqueeze_13), kwargs = {})
#   %add_13 : Tensor "f32[1, 4608, 24, 128][14155776, 3072, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_14, %mul_15), kwargs = {})
#   %convert_element_type_45 : Tensor "bf16[1, 4608, 24, 128][14155776, 3072, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_13, torch.bfloat16), kwargs = {})
#   %permute_9 : Tensor "bf16[1, 24, 4608, 128][14155776, 128, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%convert_element_type_45, [0, 2, 1, 3]), kwargs = {})
#   %view_11 : Tensor "bf16[1, 512, 3072][1572864, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm_7, [1, 512, 3072]), kwargs = {})
#   %view_17 : Tensor "bf16[1, 512, 24, 128][1572864, 3072, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%view_11, [1, 512, 24, 128]), kwargs = {})
#   %view_5 : Tensor "bf16[1, 4096, 3072][12582912, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm_4, [1, 4096, 3072]), kwargs = {})
#   %view_14 : Tensor "bf16[1, 4096, 24, 128][12582912, 3072, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%view_5, [1, 4096, 24, 128]), kwargs = {})
#   %cat_2 : Tensor "bf16[1, 4608, 24, 128][14155776, 3072, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.cat.default](args = ([%view_17, %view_14], 1), kwargs = {})
#   %permute_10 : Tensor "bf16[1, 24, 4608, 128][14155776, 128, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%cat_2, [0, 2, 1, 3]), kwargs = {})
#   %_scaled_dot_product_cudnn_attention : [num_users=1] = call_function[target=torch.ops.aten._scaled_dot_product_cudnn_attention.default](args = (%permute_8, %permute_9, %permute_10, None, False), kwargs = {})
#   return %buf24,%buf25
triton_poi_fused__scaled_dot_product_cudnn_attention__to_copy_add_cat_mul_neg_permute_stack_unbind_unsqueeze_view_6 = async_compile.triton('triton_poi_fused__scaled_dot_product_cudnn_attention__to_copy_add_cat_mul_neg_permute_stack_unbind_unsqueeze_view_6', '''
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
    triton_meta={'signature': {'in_ptr0': '*bf16', 'in_ptr1': '*fp32', 'in_ptr2': '*fp32', 'in_ptr3': '*bf16', 'out_ptr0': '*bf16', 'out_ptr1': '*bf16', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused__scaled_dot_product_cudnn_attention__to_copy_add_cat_mul_neg_permute_stack_unbind_unsqueeze_view_6', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 8, 'num_store': 2, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 287834112}, 'kernel_num_gb': 0.1179648, 'kernel_flop': 0},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused__scaled_dot_product_cudnn_attention__to_copy_add_cat_mul_neg_permute_stack_unbind_unsqueeze_view_6(in_ptr0, in_ptr1, in_ptr2, in_ptr3, out_ptr0, out_ptr1, xnumel, XBLOCK : tl.constexpr):
    xnumel = 14155776
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = tl.full([XBLOCK], True, tl.int1)[:]
    x3 = xindex
    x0 = (xindex % 128)
    x2 = xindex // 3072
    x4 = xindex // 128
    tmp0 = tl.load(in_ptr0 + (x3), None).to(tl.float32)
    tmp2 = tl.load(in_ptr1 + (x0 + 128*x2), None, eviction_policy='evict_last')
    tmp19 = tl.load(in_ptr2 + (x0 + 128*x2), None, eviction_policy='evict_last')
    tmp23 = tl.load(in_ptr3 + (x3), None).to(tl.float32)
    tmp1 = tmp0.to(tl.float32)
    tmp3 = tmp1 * tmp2
    tmp4 = (x3 % 2)
    tmp5 = tl.full([1], 0, tl.int64)
    tmp6 = tmp4 >= tmp5
    tmp7 = tl.full([1], 1, tl.int64)
    tmp8 = tmp4 < tmp7
    tmp9 = tl.load(in_ptr0 + (1 + 2*(x0 // 2) + 128*x4), tmp8, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp10 = -tmp9
    tmp11 = tl.full(tmp10.shape, 0.0, tmp10.dtype)
    tmp12 = tl.where(tmp8, tmp10, tmp11)
    tmp13 = tmp4 >= tmp7
    tmp14 = tl.full([1], 2, tl.int64)
    tmp15 = tmp4 < tmp14
    tmp16 = tl.load(in_ptr0 + (2*(x0 // 2) + 128*x4), tmp13, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp17 = tl.where(tmp8, tmp12, tmp16)
    tmp18 = tmp17.to(tl.float32)
    tmp20 = tmp18 * tmp19
    tmp21 = tmp3 + tmp20
    tmp22 = tmp21.to(tl.float32)
    tmp24 = tmp23.to(tl.float32)
    tmp25 = tmp24 * tmp2
    tmp26 = tl.load(in_ptr3 + (1 + 2*(x0 // 2) + 128*x4), tmp8, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp27 = -tmp26
    tmp28 = tl.full(tmp27.shape, 0.0, tmp27.dtype)
    tmp29 = tl.where(tmp8, tmp27, tmp28)
    tmp30 = tl.load(in_ptr3 + (2*(x0 // 2) + 128*x4), tmp13, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp31 = tl.where(tmp8, tmp29, tmp30)
    tmp32 = tmp31.to(tl.float32)
    tmp33 = tmp32 * tmp19
    tmp34 = tmp25 + tmp33
    tmp35 = tmp34.to(tl.float32)
    tl.store(out_ptr0 + (x3), tmp22, None)
    tl.store(out_ptr1 + (x3), tmp35, None)


def get_args():
    arg_0 = rand_strided((1, 4608, 24, 128), (14155776, 3072, 128, 1), device='cuda:0', dtype=torch.bfloat16)
    arg_1 = rand_strided((4608, 128), (128, 1), device='cuda:0', dtype=torch.float32)
    arg_2 = rand_strided((4608, 128), (128, 1), device='cuda:0', dtype=torch.float32)
    arg_3 = rand_strided((1, 4608, 24, 128), (14155776, 3072, 128, 1), device='cuda:0', dtype=torch.bfloat16)
    arg_4 = rand_strided((1, 24, 4608, 128), (14155776, 128, 3072, 1), device='cuda:0', dtype=torch.bfloat16)
    arg_5 = rand_strided((1, 24, 4608, 128), (14155776, 128, 3072, 1), device='cuda:0', dtype=torch.bfloat16)
    return arg_0, arg_1, arg_2, arg_3, arg_4, arg_5, 14155776,


def call(args):
    with torch.cuda._DeviceGuard(0):
        torch.cuda.set_device(0)
        stream0 = get_raw_stream(0)
        triton_poi_fused__scaled_dot_product_cudnn_attention__to_copy_add_cat_mul_neg_permute_stack_unbind_unsqueeze_view_6.run(*args, stream=stream0)


def benchmark_all_configs(args):
    with torch.cuda._DeviceGuard(0):
        torch.cuda.set_device(0)
        return triton_poi_fused__scaled_dot_product_cudnn_attention__to_copy_add_cat_mul_neg_permute_stack_unbind_unsqueeze_view_6.benchmark_all_configs(*args)


if __name__ == '__main__':
    from torch._inductor.runtime.benchmarking import benchmarker

    args = get_args()
    ms = benchmarker.benchmark(lambda: call(args), device='cuda', rep=40)
    num_gb = 0.1179648
    gb_per_s = num_gb / (ms / 1e3)
    print(f"{ms:.3f}ms    {num_gb:.3f}GB    {gb_per_s:.2f}GB/s")
''', device_str='cuda')


# kernel path: /tmp/small/inductor_cache/23/c23ts3k5pgjch24zk4rqqpq4lmowtk6qfxrllktiuxopqpyp3wk5.py
# Topologically Sorted Source Nodes: [reshape, unbind, reshape_1, unbind_1, float_1, cos, mul_2, neg, stack, x_rotated, float_2, sin, mul_3, add_4, out, query_4, float_3, cos_2, mul_4, neg_1, stack_1, x_rotated_1, float_4, sin_2, mul_5, add_5, out_1, key_4, encoder_value, encoder_value_1, value, value_1, value_2, value_3, out_2], Original ATen: [aten.view, aten.unbind, aten._to_copy, aten.unsqueeze, aten.mul, aten.neg, aten.stack, aten.add, aten.permute, aten.cat, aten._scaled_dot_product_cudnn_attention]
# Source node to ATen node mapping:
#   add_4 => add_12
#   add_5 => add_13
#   cos => unsqueeze_4, unsqueeze_5
#   cos_2 => unsqueeze_10, unsqueeze_11
#   encoder_value => view_11
#   encoder_value_1 => view_17
#   float_1 => convert_element_type_40
#   float_2 => convert_element_type_41
#   float_3 => convert_element_type_43
#   float_4 => convert_element_type_44
#   key_4 => permute_9
#   mul_2 => mul_12
#   mul_3 => mul_13
#   mul_4 => mul_14
#   mul_5 => mul_15
#   neg => neg_2
#   neg_1 => neg_3
#   out => convert_element_type_42
#   out_1 => convert_element_type_45
#   out_2 => _scaled_dot_product_cudnn_attention
#   query_4 => permute_8
#   reshape => view_18
#   reshape_1 => view_20
#   sin => unsqueeze_6, unsqueeze_7
#   sin_2 => unsqueeze_12, unsqueeze_13
#   stack => cat_3, unsqueeze_8, unsqueeze_9
#   stack_1 => cat_4, unsqueeze_14, unsqueeze_15
#   unbind => unbind
#   unbind_1 => unbind_1
#   value => view_5
#   value_1 => view_14
#   value_2 => cat_2
#   value_3 => permute_10
#   x_rotated => view_19
#   x_rotated_1 => view_21
# Graph fragment:
#   %addmm_7 : Tensor "bf16[512, 3072][3072, 1]cuda:0" = PlaceHolder[target=addmm_7]
#   %addmm_4 : Tensor "bf16[4096, 3072][3072, 1]cuda:0" = PlaceHolder[target=addmm_4]
#   %view_18 : Tensor "bf16[1, 4608, 24, 64, 2][14155776, 3072, 128, 2, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%cat, [1, 4608, 24, -1, 2]), kwargs = {})
#   %unbind : [num_users=2] = call_function[target=torch.ops.aten.unbind.int](args = (%view_18, -1), kwargs = {})
#   %view_20 : Tensor "bf16[1, 4608, 24, 64, 2][14155776, 3072, 128, 2, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%cat_1, [1, 4608, 24, -1, 2]), kwargs = {})
#   %unbind_1 : [num_users=2] = call_function[target=torch.ops.aten.unbind.int](args = (%view_20, -1), kwargs = {})
#   %convert_element_type_40 : Tensor "f32[1, 4608, 24, 128][14155776, 3072, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%cat, torch.float32), kwargs = {})
#   %unsqueeze_4 : Tensor "f32[1, 4608, 128][589824, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%arg23_1, 0), kwargs = {})
#   %unsqueeze_5 : Tensor "f32[1, 4608, 1, 128][589824, 128, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_4, 2), kwargs = {})
#   %mul_12 : Tensor "f32[1, 4608, 24, 128][14155776, 3072, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%convert_element_type_40, %unsqueeze_5), kwargs = {})
#   %neg_2 : Tensor "bf16[1, 4608, 24, 64][7077888, 1536, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.neg.default](args = (%getitem_17,), kwargs = {})
#   %unsqueeze_8 : Tensor "bf16[1, 4608, 24, 64, 1][7077888, 1536, 64, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%neg_2, 4), kwargs = {})
#   %unsqueeze_9 : Tensor "bf16[1, 4608, 24, 64, 1][14155776, 3072, 128, 2, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%getitem_16, 4), kwargs = {})
#   %cat_3 : Tensor "bf16[1, 4608, 24, 64, 2][14155776, 3072, 128, 2, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.cat.default](args = ([%unsqueeze_8, %unsqueeze_9], -1), kwargs = {})
#   %view_19 : Tensor "bf16[1, 4608, 24, 128][14155776, 3072, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%cat_3, [1, 4608, 24, 128]), kwargs = {})
#   %convert_element_type_41 : Tensor "f32[1, 4608, 24, 128][14155776, 3072, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%view_19, torch.float32), kwargs = {})
#   %unsqueeze_6 : Tensor "f32[1, 4608, 128][589824, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%arg24_1, 0), kwargs = {})
#   %unsqueeze_7 : Tensor "f32[1, 4608, 1, 128][589824, 128, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_6, 2), kwargs = {})
#   %mul_13 : Tensor "f32[1, 4608, 24, 128][14155776, 3072, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%convert_element_type_41, %unsqueeze_7), kwargs = {})
#   %add_12 : Tensor "f32[1, 4608, 24, 128][14155776, 3072, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_12, %mul_13), kwargs = {})
#   %convert_element_type_42 : Tensor "bf16[1, 4608, 24, 128][14155776, 3072, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_12, torch.bfloat16), kwargs = {})
#   %permute_8 : Tensor "bf16[1, 24, 4608, 128][14155776, 128, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%convert_element_type_42, [0, 2, 1, 3]), kwargs = {})
#   %convert_element_type_43 : Tensor "f32[1, 4608, 24, 128][14155776, 3072, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%cat_1, torch.float32), kwargs = {})
#   %unsqueeze_10 : Tensor "f32[1, 4608, 128][589824, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%arg23_1, 0), kwargs = {})
#   %unsqueeze_11 : Tensor "f32[1, 4608, 1, 128][589824, 128, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_10, 2), kwargs = {})
#   %mul_14 : Tensor "f32[1, 4608, 24, 128][14155776, 3072, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%convert_element_type_43, %unsqueeze_11), kwargs = {})
#   %neg_3 : Tensor "bf16[1, 4608, 24, 64][7077888, 1536, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.neg.default](args = (%getitem_19,), kwargs = {})
#   %unsqueeze_14 : Tensor "bf16[1, 4608, 24, 64, 1][7077888, 1536, 64, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%neg_3, 4), kwargs = {})
#   %unsqueeze_15 : Tensor "bf16[1, 4608, 24, 64, 1][14155776, 3072, 128, 2, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%getitem_18, 4), kwargs = {})
#   %cat_4 : Tensor "bf16[1, 4608, 24, 64, 2][14155776, 3072, 128, 2, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.cat.default](args = ([%unsqueeze_14, %unsqueeze_15], -1), kwargs = {})
#   %view_21 : Tensor "bf16[1, 4608, 24, 128][14155776, 3072, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%cat_4, [1, 4608, 24, 128]), kwargs = {})
#   %convert_element_type_44 : Tensor "f32[1, 4608, 24, 128][14155776, 3072, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%view_21, torch.float32), kwargs = {})
#   %unsqueeze_12 : Tensor "f32[1, 4608, 128][589824, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%arg24_1, 0), kwargs = {})
#   %unsqueeze_13 : Tensor "f32[1, 4608, 1, 128][589824, 128, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_12, 2), kwargs = {})
#   %mul_15 : Tensor "f32[1, 4608, 24, 128][14155776, 3072, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%convert_element_type_44, %unsqueeze_13), kwargs = {})
#   %add_13 : Tensor "f32[1, 4608, 24, 128][14155776, 3072, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_14, %mul_15), kwargs = {})
#   %convert_element_type_45 : Tensor "bf16[1, 4608, 24, 128][14155776, 3072, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_13, torch.bfloat16), kwargs = {})
#   %permute_9 : Tensor "bf16[1, 24, 4608, 128][14155776, 128, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%convert_element_type_45, [0, 2, 1, 3]), kwargs = {})
#   %view_11 : Tensor "bf16[1, 512, 3072][1572864, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm_7, [1, 512, 3072]), kwargs = {})
#   %view_17 : Tensor "bf16[1, 512, 24, 128][1572864, 3072, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%view_11, [1, 512, 24, 128]), kwargs = {})
#   %view_5 : Tensor "bf16[1, 4096, 3072][12582912, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm_4, [1, 4096, 3072]), kwargs = {})
#   %view_14 : Tensor "bf16[1, 4096, 24, 128][12582912, 3072, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%view_5, [1, 4096, 24, 128]), kwargs = {})
#   %cat_2 : Tensor "bf16[1, 4608, 24, 128][14155776, 3072, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.cat.default](args = ([%view_17, %view_14], 1), kwargs = {})
#   %permute_10 : Tensor "bf16[1, 24, 4608, 128][14155776, 128, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%cat_2, [0, 2, 1, 3]), kwargs = {})
#   %_scaled_dot_product_cudnn_attention : [num_users=1] = call_function[target=torch.ops.aten._scaled_dot_product_cudnn_attention.default](args = (%permute_8, %permute_9, %permute_10, None, False), kwargs = {})
#   return %buf26
triton_poi_fused__scaled_dot_product_cudnn_attention__to_copy_add_cat_mul_neg_permute_stack_unbind_unsqueeze_view_7 = async_compile.triton('triton_poi_fused__scaled_dot_product_cudnn_attention__to_copy_add_cat_mul_neg_permute_stack_unbind_unsqueeze_view_7', '''
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
    triton_meta={'signature': {'in_ptr0': '*bf16', 'in_ptr1': '*bf16', 'out_ptr0': '*bf16', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused__scaled_dot_product_cudnn_attention__to_copy_add_cat_mul_neg_permute_stack_unbind_unsqueeze_view_7', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 2, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 84934656}, 'kernel_num_gb': 0.056623104, 'kernel_flop': 0},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused__scaled_dot_product_cudnn_attention__to_copy_add_cat_mul_neg_permute_stack_unbind_unsqueeze_view_7(in_ptr0, in_ptr1, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 14155776
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = tl.full([XBLOCK], True, tl.int1)[:]
    x1 = xindex // 3072
    x0 = (xindex % 3072)
    x2 = xindex
    tmp0 = x1
    tmp1 = tl.full([1], 0, tl.int64)
    tmp2 = tmp0 >= tmp1
    tmp3 = tl.full([1], 512, tl.int64)
    tmp4 = tmp0 < tmp3
    tmp5 = tl.load(in_ptr0 + (x0 + 3072*(x1)), tmp4, other=0.0).to(tl.float32)
    tmp6 = tmp0 >= tmp3
    tmp7 = tl.full([1], 4608, tl.int64)
    tmp8 = tmp0 < tmp7
    tmp9 = tl.load(in_ptr1 + (x0 + 3072*((-512) + x1)), tmp6, other=0.0).to(tl.float32)
    tmp10 = tl.where(tmp4, tmp5, tmp9)
    tl.store(out_ptr0 + (x2), tmp10, None)


def get_args():
    arg_0 = rand_strided((512, 3072), (3072, 1), device='cuda:0', dtype=torch.bfloat16)
    arg_1 = rand_strided((4096, 3072), (3072, 1), device='cuda:0', dtype=torch.bfloat16)
    arg_2 = rand_strided((1, 24, 4608, 128), (14155776, 128, 3072, 1), device='cuda:0', dtype=torch.bfloat16)
    return arg_0, arg_1, arg_2, 14155776,


def call(args):
    with torch.cuda._DeviceGuard(0):
        torch.cuda.set_device(0)
        stream0 = get_raw_stream(0)
        triton_poi_fused__scaled_dot_product_cudnn_attention__to_copy_add_cat_mul_neg_permute_stack_unbind_unsqueeze_view_7.run(*args, stream=stream0)


def benchmark_all_configs(args):
    with torch.cuda._DeviceGuard(0):
        torch.cuda.set_device(0)
        return triton_poi_fused__scaled_dot_product_cudnn_attention__to_copy_add_cat_mul_neg_permute_stack_unbind_unsqueeze_view_7.benchmark_all_configs(*args)


if __name__ == '__main__':
    from torch._inductor.runtime.benchmarking import benchmarker

    args = get_args()
    ms = benchmarker.benchmark(lambda: call(args), device='cuda', rep=40)
    num_gb = 0.056623104
    gb_per_s = num_gb / (ms / 1e3)
    print(f"{ms:.3f}ms    {num_gb:.3f}GB    {gb_per_s:.2f}GB/s")
''', device_str='cuda')


# kernel path: /tmp/small/inductor_cache/s7/cs7qznb5ffxzi4lrv5ed4hn4gzvquf6z5xaibza7xfvv6hacxwys.py
# Topologically Sorted Source Nodes: [chunk, unsqueeze, hidden_states_3, attn_output, hidden_states_5, norm_hidden_states, getitem_26, add_7, mul_7, getitem_27, norm_hidden_states_1], Original ATen: [aten.split, aten.unsqueeze, aten.view, aten.mul, aten.add, aten.native_layer_norm]
# Source node to ATen node mapping:
#   add_7 => add_16
#   attn_output => mul_16
#   chunk => split
#   getitem_26 => unsqueeze_17
#   getitem_27 => unsqueeze_18
#   hidden_states_3 => view_24
#   hidden_states_5 => add_14
#   mul_7 => mul_18
#   norm_hidden_states => add_15, convert_element_type_52, convert_element_type_53, mul_17, rsqrt_6, sub_2, var_mean_2
#   norm_hidden_states_1 => add_17
#   unsqueeze => unsqueeze_16
# Graph fragment:
#   %arg3_1 : Tensor "bf16[1, 4096, 3072][12582912, 3072, 1]cuda:0" = PlaceHolder[target=arg3_1]
#   %addmm : Tensor "bf16[1, 18432][18432, 1]cuda:0" = PlaceHolder[target=addmm]
#   %addmm_8 : Tensor "bf16[4096, 3072][3072, 1]cuda:0" = PlaceHolder[target=addmm_8]
#   %getitem_32 : Tensor "f32[1, 4096, 1][4096, 1, 4096]cuda:0" = PlaceHolder[target=getitem_32]
#   %buf34 : Tensor "f32[1, 4096, 1][4096, 1, 4096]cuda:0" = PlaceHolder[target=buf34]
#   %split : [num_users=6] = call_function[target=torch.ops.aten.split.Tensor](args = (%addmm, 3072, 1), kwargs = {})
#   %unsqueeze_16 : Tensor "bf16[1, 1, 3072][18432, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%getitem_2, 1), kwargs = {})
#   %view_24 : Tensor "bf16[1, 4096, 3072][12582912, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm_8, [1, 4096, 3072]), kwargs = {})
#   %mul_16 : Tensor "bf16[1, 4096, 3072][12582912, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%unsqueeze_16, %view_24), kwargs = {})
#   %add_14 : Tensor "bf16[1, 4096, 3072][12582912, 3072, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%arg3_1, %mul_16), kwargs = {})
#   %convert_element_type_52 : Tensor "f32[1, 4096, 3072][12582912, 3072, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_14, torch.float32), kwargs = {})
#   %var_mean_2 : [num_users=2] = call_function[target=torch.ops.aten.var_mean.correction](args = (%convert_element_type_52, [2]), kwargs = {correction: 0, keepdim: True})
#   %sub_2 : Tensor "f32[1, 4096, 3072][12582912, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%convert_element_type_52, %getitem_32), kwargs = {})
#   %add_15 : Tensor "f32[1, 4096, 1][4096, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%getitem_31, 1e-06), kwargs = {})
#   %rsqrt_6 : Tensor "f32[1, 4096, 1][4096, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_15,), kwargs = {})
#   %mul_17 : Tensor "f32[1, 4096, 3072][12582912, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%sub_2, %rsqrt_6), kwargs = {})
#   %convert_element_type_53 : Tensor "bf16[1, 4096, 3072][12582912, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%mul_17, torch.bfloat16), kwargs = {})
#   %unsqueeze_17 : Tensor "bf16[1, 1, 3072][18432, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%getitem_4, 1), kwargs = {})
#   %add_16 : Tensor "bf16[1, 1, 3072][3072, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%unsqueeze_17, 1), kwargs = {})
#   %mul_18 : Tensor "bf16[1, 4096, 3072][12582912, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%convert_element_type_53, %add_16), kwargs = {})
#   %unsqueeze_18 : Tensor "bf16[1, 1, 3072][18432, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%getitem_3, 1), kwargs = {})
#   %add_17 : Tensor "bf16[1, 4096, 3072][12582912, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_18, %unsqueeze_18), kwargs = {})
#   return %getitem_32,%buf34,%add_17
triton_red_fused_add_mul_native_layer_norm_split_unsqueeze_view_8 = async_compile.triton('triton_red_fused_add_mul_native_layer_norm_split_unsqueeze_view_8', '''
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
    size_hints={'x': 4096, 'r0_': 4096},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*bf16', 'in_ptr1': '*bf16', 'in_ptr2': '*bf16', 'out_ptr2': '*bf16', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_red_fused_add_mul_native_layer_norm_split_unsqueeze_view_8', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 8, 'num_store': 1, 'num_reduction': 2, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'add_persistent_rblock': True, 'tiling_scores': {'x': 0, 'r0_': 100681728}, 'kernel_num_gb': 0.075534336, 'kernel_flop': 0}
)
@triton.jit
def triton_red_fused_add_mul_native_layer_norm_split_unsqueeze_view_8(in_ptr0, in_ptr1, in_ptr2, out_ptr2, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    xnumel = 4096
    r0_numel = 3072
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = tl.full([XBLOCK], True, tl.int1)[:, None]
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x0 = xindex
    tmp7_mean = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    tmp7_m2 = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    tmp7_weight = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp0 = tl.load(in_ptr0 + (r0_1 + 3072*x0), r0_mask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp1 = tl.load(in_ptr1 + (6144 + r0_1), r0_mask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp2 = tl.load(in_ptr2 + (r0_1 + 3072*x0), r0_mask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp3 = tmp1 * tmp2
        tmp4 = tmp0 + tmp3
        tmp5 = tmp4.to(tl.float32)
        tmp6 = tl.broadcast_to(tmp5, [XBLOCK, R0_BLOCK])
        tmp7_mean_next, tmp7_m2_next, tmp7_weight_next = triton_helpers.welford_reduce(
            tmp6, tmp7_mean, tmp7_m2, tmp7_weight, roffset == 0
        )
        tmp7_mean = tl.where(r0_mask, tmp7_mean_next, tmp7_mean)
        tmp7_m2 = tl.where(r0_mask, tmp7_m2_next, tmp7_m2)
        tmp7_weight = tl.where(r0_mask, tmp7_weight_next, tmp7_weight)
    tmp8, tmp9, tmp10 = triton_helpers.welford(tmp7_mean, tmp7_m2, tmp7_weight, 1)
    tmp7 = tmp8[:, None]
    tmp11 = tmp9[:, None]
    tmp12 = tmp10[:, None]
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp13 = tl.load(in_ptr0 + (r0_1 + 3072*x0), r0_mask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp14 = tl.load(in_ptr1 + (6144 + r0_1), r0_mask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp15 = tl.load(in_ptr2 + (r0_1 + 3072*x0), r0_mask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp27 = tl.load(in_ptr1 + (12288 + r0_1), r0_mask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp31 = tl.load(in_ptr1 + (9216 + r0_1), r0_mask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp16 = tmp14 * tmp15
        tmp17 = tmp13 + tmp16
        tmp18 = tmp17.to(tl.float32)
        tmp19 = tmp18 - tmp7
        tmp20 = tl.full([1, 1], 3072.0, tl.float32)
        tmp21 = (tmp11 / tmp20)
        tmp22 = tl.full([1, 1], 1e-06, tl.float32)
        tmp23 = tmp21 + tmp22
        tmp24 = libdevice.rsqrt(tmp23)
        tmp25 = tmp19 * tmp24
        tmp26 = tmp25.to(tl.float32)
        tmp28 = tl.full([1, 1], 1.0, tl.float32)
        tmp29 = tmp27 + tmp28
        tmp30 = tmp26 * tmp29
        tmp32 = tmp30 + tmp31
        tl.store(out_ptr2 + (r0_1 + 3072*x0), tmp32, r0_mask)


def get_args():
    arg_0 = rand_strided((1, 4096, 3072), (12582912, 3072, 1), device='cuda:0', dtype=torch.bfloat16)
    arg_1 = rand_strided((1, 18432), (18432, 1), device='cuda:0', dtype=torch.bfloat16)
    arg_2 = rand_strided((4096, 3072), (3072, 1), device='cuda:0', dtype=torch.bfloat16)
    arg_3 = rand_strided((1, 4096, 3072), (12582912, 3072, 1), device='cuda:0', dtype=torch.bfloat16)
    return arg_0, arg_1, arg_2, arg_3, 4096, 3072,


def call(args):
    with torch.cuda._DeviceGuard(0):
        torch.cuda.set_device(0)
        stream0 = get_raw_stream(0)
        triton_red_fused_add_mul_native_layer_norm_split_unsqueeze_view_8.run(*args, stream=stream0)


def benchmark_all_configs(args):
    with torch.cuda._DeviceGuard(0):
        torch.cuda.set_device(0)
        return triton_red_fused_add_mul_native_layer_norm_split_unsqueeze_view_8.benchmark_all_configs(*args)


if __name__ == '__main__':
    from torch._inductor.runtime.benchmarking import benchmarker

    args = get_args()
    ms = benchmarker.benchmark(lambda: call(args), device='cuda', rep=40)
    num_gb = 0.075534336
    gb_per_s = num_gb / (ms / 1e3)
    print(f"{ms:.3f}ms    {num_gb:.3f}GB    {gb_per_s:.2f}GB/s")
''', device_str='cuda')


# kernel path: /tmp/small/inductor_cache/kk/ckkrlixbncl6al3awo2vvw5ngytkfiuzucldmkbx6nqewsbwlltc.py
# Topologically Sorted Source Nodes: [chunk_1, unsqueeze_2, encoder_hidden_states_1, context_attn_output, encoder_hidden_states_2, norm_encoder_hidden_states, getitem_28, add_11, mul_10, getitem_29, norm_encoder_hidden_states_1], Original ATen: [aten.split, aten.unsqueeze, aten.view, aten.mul, aten.add, aten.native_layer_norm]
# Source node to ATen node mapping:
#   add_11 => add_23
#   chunk_1 => split_1
#   context_attn_output => mul_26
#   encoder_hidden_states_1 => view_26
#   encoder_hidden_states_2 => add_21
#   getitem_28 => unsqueeze_21
#   getitem_29 => unsqueeze_22
#   mul_10 => mul_28
#   norm_encoder_hidden_states => add_22, convert_element_type_62, convert_element_type_63, mul_27, rsqrt_7, sub_3, var_mean_3
#   norm_encoder_hidden_states_1 => add_24
#   unsqueeze_2 => unsqueeze_20
# Graph fragment:
#   %arg6_1 : Tensor "bf16[1, 512, 3072][1572864, 3072, 1]cuda:0" = PlaceHolder[target=arg6_1]
#   %addmm_1 : Tensor "bf16[1, 18432][18432, 1]cuda:0" = PlaceHolder[target=addmm_1]
#   %addmm_9 : Tensor "bf16[512, 3072][3072, 1]cuda:0" = PlaceHolder[target=addmm_9]
#   %getitem_34 : Tensor "f32[1, 512, 1][512, 1, 512]cuda:0" = PlaceHolder[target=getitem_34]
#   %buf38 : Tensor "f32[1, 512, 1][512, 1, 512]cuda:0" = PlaceHolder[target=buf38]
#   %split_1 : [num_users=6] = call_function[target=torch.ops.aten.split.Tensor](args = (%addmm_1, 3072, 1), kwargs = {})
#   %unsqueeze_20 : Tensor "bf16[1, 1, 3072][18432, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%getitem_10, 1), kwargs = {})
#   %view_26 : Tensor "bf16[1, 512, 3072][1572864, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm_9, [1, 512, 3072]), kwargs = {})
#   %mul_26 : Tensor "bf16[1, 512, 3072][1572864, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%unsqueeze_20, %view_26), kwargs = {})
#   %add_21 : Tensor "bf16[1, 512, 3072][1572864, 3072, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%arg6_1, %mul_26), kwargs = {})
#   %convert_element_type_62 : Tensor "f32[1, 512, 3072][1572864, 3072, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_21, torch.float32), kwargs = {})
#   %var_mean_3 : [num_users=2] = call_function[target=torch.ops.aten.var_mean.correction](args = (%convert_element_type_62, [2]), kwargs = {correction: 0, keepdim: True})
#   %sub_3 : Tensor "f32[1, 512, 3072][1572864, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%convert_element_type_62, %getitem_34), kwargs = {})
#   %add_22 : Tensor "f32[1, 512, 1][512, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%getitem_33, 1e-06), kwargs = {})
#   %rsqrt_7 : Tensor "f32[1, 512, 1][512, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_22,), kwargs = {})
#   %mul_27 : Tensor "f32[1, 512, 3072][1572864, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%sub_3, %rsqrt_7), kwargs = {})
#   %convert_element_type_63 : Tensor "bf16[1, 512, 3072][1572864, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%mul_27, torch.bfloat16), kwargs = {})
#   %unsqueeze_21 : Tensor "bf16[1, 1, 3072][18432, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%getitem_12, 1), kwargs = {})
#   %add_23 : Tensor "bf16[1, 1, 3072][3072, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%unsqueeze_21, 1), kwargs = {})
#   %mul_28 : Tensor "bf16[1, 512, 3072][1572864, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%convert_element_type_63, %add_23), kwargs = {})
#   %unsqueeze_22 : Tensor "bf16[1, 1, 3072][18432, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%getitem_11, 1), kwargs = {})
#   %add_24 : Tensor "bf16[1, 512, 3072][1572864, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_28, %unsqueeze_22), kwargs = {})
#   return %getitem_34,%buf38,%add_24
triton_red_fused_add_mul_native_layer_norm_split_unsqueeze_view_9 = async_compile.triton('triton_red_fused_add_mul_native_layer_norm_split_unsqueeze_view_9', '''
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
    size_hints={'x': 512, 'r0_': 4096},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*bf16', 'in_ptr1': '*bf16', 'in_ptr2': '*bf16', 'out_ptr2': '*bf16', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_red_fused_add_mul_native_layer_norm_split_unsqueeze_view_9', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 8, 'num_store': 1, 'num_reduction': 2, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'add_persistent_rblock': True, 'tiling_scores': {'x': 0, 'r0_': 12601344}, 'kernel_num_gb': 0.009474048, 'kernel_flop': 0}
)
@triton.jit
def triton_red_fused_add_mul_native_layer_norm_split_unsqueeze_view_9(in_ptr0, in_ptr1, in_ptr2, out_ptr2, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    xnumel = 512
    r0_numel = 3072
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x0 = xindex
    tmp7_mean = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    tmp7_m2 = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    tmp7_weight = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp0 = tl.load(in_ptr0 + (r0_1 + 3072*x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp1 = tl.load(in_ptr1 + (6144 + r0_1), r0_mask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp2 = tl.load(in_ptr2 + (r0_1 + 3072*x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp3 = tmp1 * tmp2
        tmp4 = tmp0 + tmp3
        tmp5 = tmp4.to(tl.float32)
        tmp6 = tl.broadcast_to(tmp5, [XBLOCK, R0_BLOCK])
        tmp7_mean_next, tmp7_m2_next, tmp7_weight_next = triton_helpers.welford_reduce(
            tmp6, tmp7_mean, tmp7_m2, tmp7_weight, roffset == 0
        )
        tmp7_mean = tl.where(r0_mask & xmask, tmp7_mean_next, tmp7_mean)
        tmp7_m2 = tl.where(r0_mask & xmask, tmp7_m2_next, tmp7_m2)
        tmp7_weight = tl.where(r0_mask & xmask, tmp7_weight_next, tmp7_weight)
    tmp8, tmp9, tmp10 = triton_helpers.welford(tmp7_mean, tmp7_m2, tmp7_weight, 1)
    tmp7 = tmp8[:, None]
    tmp11 = tmp9[:, None]
    tmp12 = tmp10[:, None]
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp13 = tl.load(in_ptr0 + (r0_1 + 3072*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp14 = tl.load(in_ptr1 + (6144 + r0_1), r0_mask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp15 = tl.load(in_ptr2 + (r0_1 + 3072*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp27 = tl.load(in_ptr1 + (12288 + r0_1), r0_mask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp31 = tl.load(in_ptr1 + (9216 + r0_1), r0_mask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp16 = tmp14 * tmp15
        tmp17 = tmp13 + tmp16
        tmp18 = tmp17.to(tl.float32)
        tmp19 = tmp18 - tmp7
        tmp20 = tl.full([1, 1], 3072.0, tl.float32)
        tmp21 = (tmp11 / tmp20)
        tmp22 = tl.full([1, 1], 1e-06, tl.float32)
        tmp23 = tmp21 + tmp22
        tmp24 = libdevice.rsqrt(tmp23)
        tmp25 = tmp19 * tmp24
        tmp26 = tmp25.to(tl.float32)
        tmp28 = tl.full([1, 1], 1.0, tl.float32)
        tmp29 = tmp27 + tmp28
        tmp30 = tmp26 * tmp29
        tmp32 = tmp30 + tmp31
        tl.store(out_ptr2 + (r0_1 + 3072*x0), tmp32, r0_mask & xmask)


def get_args():
    arg_0 = rand_strided((1, 512, 3072), (1572864, 3072, 1), device='cuda:0', dtype=torch.bfloat16)
    arg_1 = rand_strided((1, 18432), (18432, 1), device='cuda:0', dtype=torch.bfloat16)
    arg_2 = rand_strided((512, 3072), (3072, 1), device='cuda:0', dtype=torch.bfloat16)
    arg_3 = rand_strided((1, 512, 3072), (1572864, 3072, 1), device='cuda:0', dtype=torch.bfloat16)
    return arg_0, arg_1, arg_2, arg_3, 512, 3072,


def call(args):
    with torch.cuda._DeviceGuard(0):
        torch.cuda.set_device(0)
        stream0 = get_raw_stream(0)
        triton_red_fused_add_mul_native_layer_norm_split_unsqueeze_view_9.run(*args, stream=stream0)


def benchmark_all_configs(args):
    with torch.cuda._DeviceGuard(0):
        torch.cuda.set_device(0)
        return triton_red_fused_add_mul_native_layer_norm_split_unsqueeze_view_9.benchmark_all_configs(*args)


if __name__ == '__main__':
    from torch._inductor.runtime.benchmarking import benchmarker

    args = get_args()
    ms = benchmarker.benchmark(lambda: call(args), device='cuda', rep=40)
    num_gb = 0.009474048
    gb_per_s = num_gb / (ms / 1e3)
    print(f"{ms:.3f}ms    {num_gb:.3f}GB    {gb_per_s:.2f}GB/s")
''', device_str='cuda')


# kernel path: /tmp/small/inductor_cache/ir/cirl2ms22rt5ohdlaejsll7tq2ashsqtmvgt72pmcx2xli6uurq7.py
# Topologically Sorted Source Nodes: [hidden_states_11, hidden_states_12], Original ATen: [aten.view, aten.gelu]
# Source node to ATen node mapping:
#   hidden_states_11 => view_32
#   hidden_states_12 => add_25, add_26, convert_element_type_67, convert_element_type_68, mul_29, mul_30, mul_31, mul_32, mul_33, mul_34, tanh_1
# Graph fragment:
#   %addmm_12 : Tensor "bf16[512, 12288][12288, 1]cuda:0" = PlaceHolder[target=addmm_12]
#   %view_32 : Tensor "bf16[1, 512, 12288][6291456, 12288, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm_12, [1, 512, 12288]), kwargs = {})
#   %convert_element_type_67 : Tensor "f32[1, 512, 12288][6291456, 12288, 1]cuda:0"[num_users=4] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%view_32, torch.float32), kwargs = {})
#   %mul_33 : Tensor "f32[1, 512, 12288][6291456, 12288, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%convert_element_type_67, 0.5), kwargs = {})
#   %mul_29 : Tensor "f32[1, 512, 12288][6291456, 12288, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%convert_element_type_67, %convert_element_type_67), kwargs = {})
#   %mul_30 : Tensor "f32[1, 512, 12288][6291456, 12288, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_29, %convert_element_type_67), kwargs = {})
#   %mul_31 : Tensor "f32[1, 512, 12288][6291456, 12288, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_30, 0.044715), kwargs = {})
#   %add_25 : Tensor "f32[1, 512, 12288][6291456, 12288, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%convert_element_type_67, %mul_31), kwargs = {})
#   %mul_32 : Tensor "f32[1, 512, 12288][6291456, 12288, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%add_25, 0.7978845608028654), kwargs = {})
#   %tanh_1 : Tensor "f32[1, 512, 12288][6291456, 12288, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.tanh.default](args = (%mul_32,), kwargs = {})
#   %add_26 : Tensor "f32[1, 512, 12288][6291456, 12288, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%tanh_1, 1), kwargs = {})
#   %mul_34 : Tensor "f32[1, 512, 12288][6291456, 12288, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_33, %add_26), kwargs = {})
#   %convert_element_type_68 : Tensor "bf16[1, 512, 12288][6291456, 12288, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%mul_34, torch.bfloat16), kwargs = {})
#   return %convert_element_type_68
triton_poi_fused_gelu_view_10 = async_compile.triton('triton_poi_fused_gelu_view_10', '''
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
    size_hints={'x': 8388608}, 
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*bf16', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_gelu_view_10', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 1, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 37748736}, 'kernel_num_gb': 0.025165824, 'kernel_flop': 0},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_gelu_view_10(in_out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 6291456
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = tl.full([XBLOCK], True, tl.int1)[:]
    x0 = xindex
    tmp0 = tl.load(in_out_ptr0 + (x0), None).to(tl.float32)
    tmp1 = tmp0.to(tl.float32)
    tmp2 = tl.full([1], 0.5, tl.float32)
    tmp3 = tmp1 * tmp2
    tmp4 = tmp1 * tmp1
    tmp5 = tmp4 * tmp1
    tmp6 = tl.full([1], 0.044715, tl.float32)
    tmp7 = tmp5 * tmp6
    tmp8 = tmp1 + tmp7
    tmp9 = tl.full([1], 0.7978845608028654, tl.float32)
    tmp10 = tmp8 * tmp9
    tmp11 = libdevice.tanh(tmp10)
    tmp12 = tl.full([1], 1.0, tl.float32)
    tmp13 = tmp11 + tmp12
    tmp14 = tmp3 * tmp13
    tmp15 = tmp14.to(tl.float32)
    tl.store(in_out_ptr0 + (x0), tmp15, None)


def get_args():
    arg_0 = rand_strided((1, 512, 12288), (6291456, 12288, 1), device='cuda:0', dtype=torch.bfloat16)
    return arg_0, 6291456,


def call(args):
    with torch.cuda._DeviceGuard(0):
        torch.cuda.set_device(0)
        stream0 = get_raw_stream(0)
        triton_poi_fused_gelu_view_10.run(*args, stream=stream0)


def benchmark_all_configs(args):
    with torch.cuda._DeviceGuard(0):
        torch.cuda.set_device(0)
        return triton_poi_fused_gelu_view_10.benchmark_all_configs(*args)


if __name__ == '__main__':
    from torch._inductor.runtime.benchmarking import benchmarker

    args = get_args()
    ms = benchmarker.benchmark(lambda: call(args), device='cuda', rep=40)
    num_gb = 0.025165824
    gb_per_s = num_gb / (ms / 1e3)
    print(f"{ms:.3f}ms    {num_gb:.3f}GB    {gb_per_s:.2f}GB/s")
''', device_str='cuda')


# kernel path: /tmp/small/inductor_cache/jk/cjkhanj6rjtcm2c672qqfnpaxbbx7v5rflljvn2ix33m225u5sk6.py
# Topologically Sorted Source Nodes: [chunk_1, unsqueeze_2, encoder_hidden_states_1, context_attn_output, encoder_hidden_states_2, unsqueeze_3, hidden_states_14, mul_11, encoder_hidden_states_3], Original ATen: [aten.split, aten.unsqueeze, aten.view, aten.mul, aten.add]
# Source node to ATen node mapping:
#   chunk_1 => split_1
#   context_attn_output => mul_26
#   encoder_hidden_states_1 => view_26
#   encoder_hidden_states_2 => add_21
#   encoder_hidden_states_3 => add_27
#   hidden_states_14 => view_34
#   mul_11 => mul_35
#   unsqueeze_2 => unsqueeze_20
#   unsqueeze_3 => unsqueeze_23
# Graph fragment:
#   %arg6_1 : Tensor "bf16[1, 512, 3072][1572864, 3072, 1]cuda:0" = PlaceHolder[target=arg6_1]
#   %addmm_1 : Tensor "bf16[1, 18432][18432, 1]cuda:0" = PlaceHolder[target=addmm_1]
#   %addmm_9 : Tensor "bf16[512, 3072][3072, 1]cuda:0" = PlaceHolder[target=addmm_9]
#   %addmm_13 : Tensor "bf16[512, 3072][3072, 1]cuda:0" = PlaceHolder[target=addmm_13]
#   %split_1 : [num_users=6] = call_function[target=torch.ops.aten.split.Tensor](args = (%addmm_1, 3072, 1), kwargs = {})
#   %unsqueeze_20 : Tensor "bf16[1, 1, 3072][18432, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%getitem_10, 1), kwargs = {})
#   %view_26 : Tensor "bf16[1, 512, 3072][1572864, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm_9, [1, 512, 3072]), kwargs = {})
#   %mul_26 : Tensor "bf16[1, 512, 3072][1572864, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%unsqueeze_20, %view_26), kwargs = {})
#   %add_21 : Tensor "bf16[1, 512, 3072][1572864, 3072, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%arg6_1, %mul_26), kwargs = {})
#   %unsqueeze_23 : Tensor "bf16[1, 1, 3072][18432, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%getitem_13, 1), kwargs = {})
#   %view_34 : Tensor "bf16[1, 512, 3072][1572864, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm_13, [1, 512, 3072]), kwargs = {})
#   %mul_35 : Tensor "bf16[1, 512, 3072][1572864, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%unsqueeze_23, %view_34), kwargs = {})
#   %add_27 : Tensor "bf16[1, 512, 3072][1572864, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%add_21, %mul_35), kwargs = {})
#   return %add_27
triton_poi_fused_add_mul_split_unsqueeze_view_11 = async_compile.triton('triton_poi_fused_add_mul_split_unsqueeze_view_11', '''
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
    size_hints={'x': 2097152}, 
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*bf16', 'in_ptr0': '*bf16', 'in_ptr1': '*bf16', 'in_ptr2': '*bf16', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_add_mul_split_unsqueeze_view_11', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 5, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 15740928}, 'kernel_num_gb': 0.012619776, 'kernel_flop': 0},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_add_mul_split_unsqueeze_view_11(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, xnumel, XBLOCK : tl.constexpr):
    xnumel = 1572864
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = tl.full([XBLOCK], True, tl.int1)[:]
    x2 = xindex
    x0 = (xindex % 3072)
    tmp0 = tl.load(in_ptr0 + (x2), None).to(tl.float32)
    tmp1 = tl.load(in_ptr1 + (6144 + x0), None, eviction_policy='evict_last').to(tl.float32)
    tmp2 = tl.load(in_out_ptr0 + (x2), None).to(tl.float32)
    tmp5 = tl.load(in_ptr1 + (15360 + x0), None, eviction_policy='evict_last').to(tl.float32)
    tmp6 = tl.load(in_ptr2 + (x2), None).to(tl.float32)
    tmp3 = tmp1 * tmp2
    tmp4 = tmp0 + tmp3
    tmp7 = tmp5 * tmp6
    tmp8 = tmp4 + tmp7
    tl.store(in_out_ptr0 + (x2), tmp8, None)


def get_args():
    arg_0 = rand_strided((1, 512, 3072), (1572864, 3072, 1), device='cuda:0', dtype=torch.bfloat16)
    arg_1 = rand_strided((1, 512, 3072), (1572864, 3072, 1), device='cuda:0', dtype=torch.bfloat16)
    arg_2 = rand_strided((1, 18432), (18432, 1), device='cuda:0', dtype=torch.bfloat16)
    arg_3 = rand_strided((512, 3072), (3072, 1), device='cuda:0', dtype=torch.bfloat16)
    return arg_0, arg_1, arg_2, arg_3, 1572864,


def call(args):
    with torch.cuda._DeviceGuard(0):
        torch.cuda.set_device(0)
        stream0 = get_raw_stream(0)
        triton_poi_fused_add_mul_split_unsqueeze_view_11.run(*args, stream=stream0)


def benchmark_all_configs(args):
    with torch.cuda._DeviceGuard(0):
        torch.cuda.set_device(0)
        return triton_poi_fused_add_mul_split_unsqueeze_view_11.benchmark_all_configs(*args)


if __name__ == '__main__':
    from torch._inductor.runtime.benchmarking import benchmarker

    args = get_args()
    ms = benchmarker.benchmark(lambda: call(args), device='cuda', rep=40)
    num_gb = 0.012619776
    gb_per_s = num_gb / (ms / 1e3)
    print(f"{ms:.3f}ms    {num_gb:.3f}GB    {gb_per_s:.2f}GB/s")
''', device_str='cuda')


# kernel path: /tmp/small/inductor_cache/gh/cghaqtlmogjkhpplhnhmpkupf4s326vepgq24qwd34powdgsnsll.py
# Topologically Sorted Source Nodes: [hidden_states_6, hidden_states_7], Original ATen: [aten.view, aten.gelu]
# Source node to ATen node mapping:
#   hidden_states_6 => view_28
#   hidden_states_7 => add_18, add_19, convert_element_type_57, convert_element_type_58, mul_19, mul_20, mul_21, mul_22, mul_23, mul_24, tanh
# Graph fragment:
#   %addmm_10 : Tensor "bf16[4096, 12288][12288, 1]cuda:0" = PlaceHolder[target=addmm_10]
#   %view_28 : Tensor "bf16[1, 4096, 12288][50331648, 12288, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm_10, [1, 4096, 12288]), kwargs = {})
#   %convert_element_type_57 : Tensor "f32[1, 4096, 12288][50331648, 12288, 1]cuda:0"[num_users=4] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%view_28, torch.float32), kwargs = {})
#   %mul_23 : Tensor "f32[1, 4096, 12288][50331648, 12288, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%convert_element_type_57, 0.5), kwargs = {})
#   %mul_19 : Tensor "f32[1, 4096, 12288][50331648, 12288, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%convert_element_type_57, %convert_element_type_57), kwargs = {})
#   %mul_20 : Tensor "f32[1, 4096, 12288][50331648, 12288, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_19, %convert_element_type_57), kwargs = {})
#   %mul_21 : Tensor "f32[1, 4096, 12288][50331648, 12288, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_20, 0.044715), kwargs = {})
#   %add_18 : Tensor "f32[1, 4096, 12288][50331648, 12288, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%convert_element_type_57, %mul_21), kwargs = {})
#   %mul_22 : Tensor "f32[1, 4096, 12288][50331648, 12288, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%add_18, 0.7978845608028654), kwargs = {})
#   %tanh : Tensor "f32[1, 4096, 12288][50331648, 12288, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.tanh.default](args = (%mul_22,), kwargs = {})
#   %add_19 : Tensor "f32[1, 4096, 12288][50331648, 12288, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%tanh, 1), kwargs = {})
#   %mul_24 : Tensor "f32[1, 4096, 12288][50331648, 12288, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_23, %add_19), kwargs = {})
#   %convert_element_type_58 : Tensor "bf16[1, 4096, 12288][50331648, 12288, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%mul_24, torch.bfloat16), kwargs = {})
#   return %convert_element_type_58
triton_poi_fused_gelu_view_12 = async_compile.triton('triton_poi_fused_gelu_view_12', '''
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
    size_hints={'x': 67108864}, 
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*bf16', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_gelu_view_12', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 1, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 301989888}, 'kernel_num_gb': 0.201326592, 'kernel_flop': 0},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_gelu_view_12(in_out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 50331648
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = tl.full([XBLOCK], True, tl.int1)[:]
    x0 = xindex
    tmp0 = tl.load(in_out_ptr0 + (x0), None).to(tl.float32)
    tmp1 = tmp0.to(tl.float32)
    tmp2 = tl.full([1], 0.5, tl.float32)
    tmp3 = tmp1 * tmp2
    tmp4 = tmp1 * tmp1
    tmp5 = tmp4 * tmp1
    tmp6 = tl.full([1], 0.044715, tl.float32)
    tmp7 = tmp5 * tmp6
    tmp8 = tmp1 + tmp7
    tmp9 = tl.full([1], 0.7978845608028654, tl.float32)
    tmp10 = tmp8 * tmp9
    tmp11 = libdevice.tanh(tmp10)
    tmp12 = tl.full([1], 1.0, tl.float32)
    tmp13 = tmp11 + tmp12
    tmp14 = tmp3 * tmp13
    tmp15 = tmp14.to(tl.float32)
    tl.store(in_out_ptr0 + (x0), tmp15, None)


def get_args():
    arg_0 = rand_strided((1, 4096, 12288), (50331648, 12288, 1), device='cuda:0', dtype=torch.bfloat16)
    return arg_0, 50331648,


def call(args):
    with torch.cuda._DeviceGuard(0):
        torch.cuda.set_device(0)
        stream0 = get_raw_stream(0)
        triton_poi_fused_gelu_view_12.run(*args, stream=stream0)


def benchmark_all_configs(args):
    with torch.cuda._DeviceGuard(0):
        torch.cuda.set_device(0)
        return triton_poi_fused_gelu_view_12.benchmark_all_configs(*args)


if __name__ == '__main__':
    from torch._inductor.runtime.benchmarking import benchmarker

    args = get_args()
    ms = benchmarker.benchmark(lambda: call(args), device='cuda', rep=40)
    num_gb = 0.201326592
    gb_per_s = num_gb / (ms / 1e3)
    print(f"{ms:.3f}ms    {num_gb:.3f}GB    {gb_per_s:.2f}GB/s")
''', device_str='cuda')


# kernel path: /tmp/small/inductor_cache/t7/ct7rb46xccztnlvqdsc32vmmvqbhegnca3f2d57yndcxdkqirvzp.py
# Topologically Sorted Source Nodes: [chunk, unsqueeze, hidden_states_3, attn_output, hidden_states_5, unsqueeze_1, hidden_states_9, ff_output, hidden_states_10], Original ATen: [aten.split, aten.unsqueeze, aten.view, aten.mul, aten.add]
# Source node to ATen node mapping:
#   attn_output => mul_16
#   chunk => split
#   ff_output => mul_25
#   hidden_states_10 => add_20
#   hidden_states_3 => view_24
#   hidden_states_5 => add_14
#   hidden_states_9 => view_30
#   unsqueeze => unsqueeze_16
#   unsqueeze_1 => unsqueeze_19
# Graph fragment:
#   %arg3_1 : Tensor "bf16[1, 4096, 3072][12582912, 3072, 1]cuda:0" = PlaceHolder[target=arg3_1]
#   %addmm : Tensor "bf16[1, 18432][18432, 1]cuda:0" = PlaceHolder[target=addmm]
#   %addmm_8 : Tensor "bf16[4096, 3072][3072, 1]cuda:0" = PlaceHolder[target=addmm_8]
#   %addmm_11 : Tensor "bf16[4096, 3072][3072, 1]cuda:0" = PlaceHolder[target=addmm_11]
#   %split : [num_users=6] = call_function[target=torch.ops.aten.split.Tensor](args = (%addmm, 3072, 1), kwargs = {})
#   %unsqueeze_16 : Tensor "bf16[1, 1, 3072][18432, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%getitem_2, 1), kwargs = {})
#   %view_24 : Tensor "bf16[1, 4096, 3072][12582912, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm_8, [1, 4096, 3072]), kwargs = {})
#   %mul_16 : Tensor "bf16[1, 4096, 3072][12582912, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%unsqueeze_16, %view_24), kwargs = {})
#   %add_14 : Tensor "bf16[1, 4096, 3072][12582912, 3072, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%arg3_1, %mul_16), kwargs = {})
#   %unsqueeze_19 : Tensor "bf16[1, 1, 3072][18432, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%getitem_5, 1), kwargs = {})
#   %view_30 : Tensor "bf16[1, 4096, 3072][12582912, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm_11, [1, 4096, 3072]), kwargs = {})
#   %mul_25 : Tensor "bf16[1, 4096, 3072][12582912, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%unsqueeze_19, %view_30), kwargs = {})
#   %add_20 : Tensor "bf16[1, 4096, 3072][12582912, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%add_14, %mul_25), kwargs = {})
#   return %add_20
triton_poi_fused_add_mul_split_unsqueeze_view_13 = async_compile.triton('triton_poi_fused_add_mul_split_unsqueeze_view_13', '''
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
    triton_meta={'signature': {'in_out_ptr0': '*bf16', 'in_ptr0': '*bf16', 'in_ptr1': '*bf16', 'in_ptr2': '*bf16', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_add_mul_split_unsqueeze_view_13', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 5, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 125841408}, 'kernel_num_gb': 0.10070016, 'kernel_flop': 0},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_add_mul_split_unsqueeze_view_13(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, xnumel, XBLOCK : tl.constexpr):
    xnumel = 12582912
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = tl.full([XBLOCK], True, tl.int1)[:]
    x2 = xindex
    x0 = (xindex % 3072)
    tmp0 = tl.load(in_ptr0 + (x2), None).to(tl.float32)
    tmp1 = tl.load(in_ptr1 + (6144 + x0), None, eviction_policy='evict_last').to(tl.float32)
    tmp2 = tl.load(in_out_ptr0 + (x2), None).to(tl.float32)
    tmp5 = tl.load(in_ptr1 + (15360 + x0), None, eviction_policy='evict_last').to(tl.float32)
    tmp6 = tl.load(in_ptr2 + (x2), None).to(tl.float32)
    tmp3 = tmp1 * tmp2
    tmp4 = tmp0 + tmp3
    tmp7 = tmp5 * tmp6
    tmp8 = tmp4 + tmp7
    tl.store(in_out_ptr0 + (x2), tmp8, None)


def get_args():
    arg_0 = rand_strided((1, 4096, 3072), (12582912, 3072, 1), device='cuda:0', dtype=torch.bfloat16)
    arg_1 = rand_strided((1, 4096, 3072), (12582912, 3072, 1), device='cuda:0', dtype=torch.bfloat16)
    arg_2 = rand_strided((1, 18432), (18432, 1), device='cuda:0', dtype=torch.bfloat16)
    arg_3 = rand_strided((4096, 3072), (3072, 1), device='cuda:0', dtype=torch.bfloat16)
    return arg_0, arg_1, arg_2, arg_3, 12582912,


def call(args):
    with torch.cuda._DeviceGuard(0):
        torch.cuda.set_device(0)
        stream0 = get_raw_stream(0)
        triton_poi_fused_add_mul_split_unsqueeze_view_13.run(*args, stream=stream0)


def benchmark_all_configs(args):
    with torch.cuda._DeviceGuard(0):
        torch.cuda.set_device(0)
        return triton_poi_fused_add_mul_split_unsqueeze_view_13.benchmark_all_configs(*args)


if __name__ == '__main__':
    from torch._inductor.runtime.benchmarking import benchmarker

    args = get_args()
    ms = benchmarker.benchmark(lambda: call(args), device='cuda', rep=40)
    num_gb = 0.10070016
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
        arg0_1, arg1_1, arg2_1, arg3_1, arg4_1, arg5_1, arg6_1, arg7_1, arg8_1, arg9_1, arg10_1, arg11_1, arg12_1, arg13_1, arg14_1, arg15_1, arg16_1, arg17_1, arg18_1, arg19_1, arg20_1, arg21_1, arg22_1, arg23_1, arg24_1, arg25_1, arg26_1, arg27_1, arg28_1, arg29_1, arg30_1, arg31_1, arg32_1, arg33_1, arg34_1, arg35_1, arg36_1 = args
        args.clear()
        assert_size_stride(arg0_1, (1, 3072), (3072, 1))
        assert_size_stride(arg1_1, (18432, 3072), (3072, 1))
        assert_size_stride(arg2_1, (18432, ), (1, ))
        assert_size_stride(arg3_1, (1, 4096, 3072), (12582912, 3072, 1))
        assert_size_stride(arg4_1, (18432, 3072), (3072, 1))
        assert_size_stride(arg5_1, (18432, ), (1, ))
        assert_size_stride(arg6_1, (1, 512, 3072), (1572864, 3072, 1))
        assert_size_stride(arg7_1, (3072, 3072), (3072, 1))
        assert_size_stride(arg8_1, (3072, ), (1, ))
        assert_size_stride(arg9_1, (3072, 3072), (3072, 1))
        assert_size_stride(arg10_1, (3072, ), (1, ))
        assert_size_stride(arg11_1, (3072, 3072), (3072, 1))
        assert_size_stride(arg12_1, (3072, ), (1, ))
        assert_size_stride(arg13_1, (3072, 3072), (3072, 1))
        assert_size_stride(arg14_1, (3072, ), (1, ))
        assert_size_stride(arg15_1, (3072, 3072), (3072, 1))
        assert_size_stride(arg16_1, (3072, ), (1, ))
        assert_size_stride(arg17_1, (3072, 3072), (3072, 1))
        assert_size_stride(arg18_1, (3072, ), (1, ))
        assert_size_stride(arg19_1, (128, ), (1, ))
        assert_size_stride(arg20_1, (128, ), (1, ))
        assert_size_stride(arg21_1, (128, ), (1, ))
        assert_size_stride(arg22_1, (128, ), (1, ))
        assert_size_stride(arg23_1, (4608, 128), (128, 1))
        assert_size_stride(arg24_1, (4608, 128), (128, 1))
        assert_size_stride(arg25_1, (3072, 3072), (3072, 1))
        assert_size_stride(arg26_1, (3072, ), (1, ))
        assert_size_stride(arg27_1, (3072, 3072), (3072, 1))
        assert_size_stride(arg28_1, (3072, ), (1, ))
        assert_size_stride(arg29_1, (12288, 3072), (3072, 1))
        assert_size_stride(arg30_1, (12288, ), (1, ))
        assert_size_stride(arg31_1, (3072, 12288), (12288, 1))
        assert_size_stride(arg32_1, (3072, ), (1, ))
        assert_size_stride(arg33_1, (12288, 3072), (3072, 1))
        assert_size_stride(arg34_1, (12288, ), (1, ))
        assert_size_stride(arg35_1, (3072, 12288), (12288, 1))
        assert_size_stride(arg36_1, (3072, ), (1, ))
        with torch.cuda._DeviceGuard(0):
            torch.cuda.set_device(0)
            buf0 = empty_strided_cuda((1, 3072), (3072, 1), torch.bfloat16)
            buf5 = empty_strided_cuda((1, 3072), (3072, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [silu, silu_1], Original ATen: [aten.silu]
            stream0 = get_raw_stream(0)
            triton_poi_fused_silu_0.run(arg0_1, buf0, buf5, 3072, stream=stream0)
            del arg0_1
            buf1 = empty_strided_cuda((1, 18432), (18432, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [silu, emb], Original ATen: [aten.silu, aten.t, aten.addmm]
            extern_kernels.addmm(arg2_1, buf0, reinterpret_tensor(arg1_1, (3072, 18432), (1, 3072), 0), alpha=1, beta=1, out=buf1)
            del arg1_1
            del arg2_1
            del buf0
            buf13 = empty_strided_cuda((1, 4096, 3072), (12582912, 3072, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [chunk, layer_norm, getitem_6, add, mul, getitem_7, x], Original ATen: [aten.split, aten.native_layer_norm, aten.unsqueeze, aten.add, aten.mul]
            stream0 = get_raw_stream(0)
            triton_red_fused_add_mul_native_layer_norm_split_unsqueeze_1.run(arg3_1, buf1, buf13, 4096, 3072, stream=stream0)
            buf6 = empty_strided_cuda((1, 18432), (18432, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [silu_1, emb_1], Original ATen: [aten.silu, aten.t, aten.addmm]
            extern_kernels.addmm(arg5_1, buf5, reinterpret_tensor(arg4_1, (3072, 18432), (1, 3072), 0), alpha=1, beta=1, out=buf6)
            del arg4_1
            del arg5_1
            del buf5
            buf10 = empty_strided_cuda((1, 512, 3072), (1572864, 3072, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [chunk_1, layer_norm_1, getitem_14, add_2, mul_1, getitem_15, x_1], Original ATen: [aten.split, aten.native_layer_norm, aten.unsqueeze, aten.add, aten.mul]
            stream0 = get_raw_stream(0)
            triton_red_fused_add_mul_native_layer_norm_split_unsqueeze_2.run(arg6_1, buf6, buf10, 512, 3072, stream=stream0)
            buf11 = empty_strided_cuda((512, 3072), (3072, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [encoder_query], Original ATen: [aten.view, aten.t, aten.addmm]
            extern_kernels.addmm(arg14_1, reinterpret_tensor(buf10, (512, 3072), (3072, 1), 0), reinterpret_tensor(arg13_1, (3072, 3072), (1, 3072), 0), alpha=1, beta=1, out=buf11)
            del arg13_1
            del arg14_1
            buf12 = empty_strided_cuda((1, 512, 24, 1), (12288, 24, 1, 12288), torch.float32)
            # Topologically Sorted Source Nodes: [encoder_query, encoder_query_1, encoder_query_2], Original ATen: [aten.view, aten._fused_rms_norm]
            stream0 = get_raw_stream(0)
            triton_per_fused__fused_rms_norm_view_3.run(buf11, buf12, 12288, 128, stream=stream0)
            buf14 = empty_strided_cuda((4096, 3072), (3072, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [query], Original ATen: [aten.view, aten.t, aten.addmm]
            extern_kernels.addmm(arg8_1, reinterpret_tensor(buf13, (4096, 3072), (3072, 1), 0), reinterpret_tensor(arg7_1, (3072, 3072), (1, 3072), 0), alpha=1, beta=1, out=buf14)
            del arg7_1
            del arg8_1
            buf15 = empty_strided_cuda((1, 4096, 24, 1), (98304, 24, 1, 98304), torch.float32)
            # Topologically Sorted Source Nodes: [query, query_1, query_2], Original ATen: [aten.view, aten._fused_rms_norm]
            stream0 = get_raw_stream(0)
            triton_per_fused__fused_rms_norm_view_4.run(buf14, buf15, 98304, 128, stream=stream0)
            buf16 = empty_strided_cuda((1, 4608, 24, 128), (14155776, 3072, 128, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [encoder_query, encoder_query_1, encoder_query_2, query, query_1, query_2, query_3], Original ATen: [aten.view, aten._fused_rms_norm, aten.cat]
            stream0 = get_raw_stream(0)
            triton_poi_fused__fused_rms_norm_cat_view_5.run(buf11, buf12, arg21_1, buf14, buf15, arg19_1, buf16, 110592, 128, stream=stream0)
            del arg19_1
            del arg21_1
            buf17 = buf11; del buf11  # reuse
            # Topologically Sorted Source Nodes: [encoder_key], Original ATen: [aten.view, aten.t, aten.addmm]
            extern_kernels.addmm(arg16_1, reinterpret_tensor(buf10, (512, 3072), (3072, 1), 0), reinterpret_tensor(arg15_1, (3072, 3072), (1, 3072), 0), alpha=1, beta=1, out=buf17)
            del arg15_1
            del arg16_1
            buf18 = buf12; del buf12  # reuse
            # Topologically Sorted Source Nodes: [encoder_key, encoder_key_1, encoder_key_2], Original ATen: [aten.view, aten._fused_rms_norm]
            stream0 = get_raw_stream(0)
            triton_per_fused__fused_rms_norm_view_3.run(buf17, buf18, 12288, 128, stream=stream0)
            buf19 = buf14; del buf14  # reuse
            # Topologically Sorted Source Nodes: [key], Original ATen: [aten.view, aten.t, aten.addmm]
            extern_kernels.addmm(arg10_1, reinterpret_tensor(buf13, (4096, 3072), (3072, 1), 0), reinterpret_tensor(arg9_1, (3072, 3072), (1, 3072), 0), alpha=1, beta=1, out=buf19)
            del arg10_1
            del arg9_1
            buf20 = buf15; del buf15  # reuse
            # Topologically Sorted Source Nodes: [key, key_1, key_2], Original ATen: [aten.view, aten._fused_rms_norm]
            stream0 = get_raw_stream(0)
            triton_per_fused__fused_rms_norm_view_4.run(buf19, buf20, 98304, 128, stream=stream0)
            buf21 = empty_strided_cuda((1, 4608, 24, 128), (14155776, 3072, 128, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [encoder_key, encoder_key_1, encoder_key_2, key, key_1, key_2, key_3], Original ATen: [aten.view, aten._fused_rms_norm, aten.cat]
            stream0 = get_raw_stream(0)
            triton_poi_fused__fused_rms_norm_cat_view_5.run(buf17, buf18, arg22_1, buf19, buf20, arg20_1, buf21, 110592, 128, stream=stream0)
            del arg20_1
            del arg22_1
            del buf18
            del buf20
            buf22 = buf17; del buf17  # reuse
            # Topologically Sorted Source Nodes: [encoder_value], Original ATen: [aten.view, aten.t, aten.addmm]
            extern_kernels.addmm(arg18_1, reinterpret_tensor(buf10, (512, 3072), (3072, 1), 0), reinterpret_tensor(arg17_1, (3072, 3072), (1, 3072), 0), alpha=1, beta=1, out=buf22)
            del arg17_1
            del arg18_1
            buf23 = buf19; del buf19  # reuse
            # Topologically Sorted Source Nodes: [value], Original ATen: [aten.view, aten.t, aten.addmm]
            extern_kernels.addmm(arg12_1, reinterpret_tensor(buf13, (4096, 3072), (3072, 1), 0), reinterpret_tensor(arg11_1, (3072, 3072), (1, 3072), 0), alpha=1, beta=1, out=buf23)
            del arg11_1
            del arg12_1
            buf24 = empty_strided_cuda((1, 24, 4608, 128), (14155776, 128, 3072, 1), torch.bfloat16)
            buf25 = empty_strided_cuda((1, 24, 4608, 128), (14155776, 128, 3072, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [reshape, unbind, reshape_1, unbind_1, float_1, cos, mul_2, neg, stack, x_rotated, float_2, sin, mul_3, add_4, out, query_4, float_3, cos_2, mul_4, neg_1, stack_1, x_rotated_1, float_4, sin_2, mul_5, add_5, out_1, key_4, encoder_value, encoder_value_1, value, value_1, value_2, value_3, out_2], Original ATen: [aten.view, aten.unbind, aten._to_copy, aten.unsqueeze, aten.mul, aten.neg, aten.stack, aten.add, aten.permute, aten.cat, aten._scaled_dot_product_cudnn_attention]
            stream0 = get_raw_stream(0)
            triton_poi_fused__scaled_dot_product_cudnn_attention__to_copy_add_cat_mul_neg_permute_stack_unbind_unsqueeze_view_6.run(buf16, arg23_1, arg24_1, buf21, buf24, buf25, 14155776, stream=stream0)
            del arg23_1
            del arg24_1
            del buf16
            buf26 = reinterpret_tensor(buf21, (1, 24, 4608, 128), (14155776, 128, 3072, 1), 0); del buf21  # reuse
            # Topologically Sorted Source Nodes: [reshape, unbind, reshape_1, unbind_1, float_1, cos, mul_2, neg, stack, x_rotated, float_2, sin, mul_3, add_4, out, query_4, float_3, cos_2, mul_4, neg_1, stack_1, x_rotated_1, float_4, sin_2, mul_5, add_5, out_1, key_4, encoder_value, encoder_value_1, value, value_1, value_2, value_3, out_2], Original ATen: [aten.view, aten.unbind, aten._to_copy, aten.unsqueeze, aten.mul, aten.neg, aten.stack, aten.add, aten.permute, aten.cat, aten._scaled_dot_product_cudnn_attention]
            stream0 = get_raw_stream(0)
            triton_poi_fused__scaled_dot_product_cudnn_attention__to_copy_add_cat_mul_neg_permute_stack_unbind_unsqueeze_view_7.run(buf22, buf23, buf26, 14155776, stream=stream0)
            # Topologically Sorted Source Nodes: [reshape, unbind, reshape_1, unbind_1, float_1, cos, mul_2, neg, stack, x_rotated, float_2, sin, mul_3, add_4, out, query_4, float_3, cos_2, mul_4, neg_1, stack_1, x_rotated_1, float_4, sin_2, mul_5, add_5, out_1, key_4, encoder_value, encoder_value_1, value, value_1, value_2, value_3, out_2], Original ATen: [aten.view, aten.unbind, aten._to_copy, aten.unsqueeze, aten.mul, aten.neg, aten.stack, aten.add, aten.permute, aten.cat, aten._scaled_dot_product_cudnn_attention]
            buf27 = torch.ops.aten._scaled_dot_product_cudnn_attention.default(buf24, buf25, buf26, None, False)
            del buf24
            del buf25
            del buf26
            buf28 = buf27[0]
            assert_size_stride(buf28, (1, 24, 4608, 128), (14155776, 128, 3072, 1), 'torch.ops.aten._scaled_dot_product_cudnn_attention.default')
            assert_alignment(buf28, 16, 'torch.ops.aten._scaled_dot_product_cudnn_attention.default')
            del buf27
            buf32 = buf23; del buf23  # reuse
            # Topologically Sorted Source Nodes: [out_3, hidden_states, split_with_sizes, hidden_states_3], Original ATen: [aten.permute, aten.view, aten.split_with_sizes, aten.t, aten.addmm]
            extern_kernels.addmm(arg26_1, reinterpret_tensor(buf28, (4096, 3072), (3072, 1), 1572864), reinterpret_tensor(arg25_1, (3072, 3072), (1, 3072), 0), alpha=1, beta=1, out=buf32)
            del arg25_1
            del arg26_1
            buf45 = buf13; del buf13  # reuse
            # Topologically Sorted Source Nodes: [chunk, unsqueeze, hidden_states_3, attn_output, hidden_states_5, norm_hidden_states, getitem_26, add_7, mul_7, getitem_27, norm_hidden_states_1], Original ATen: [aten.split, aten.unsqueeze, aten.view, aten.mul, aten.add, aten.native_layer_norm]
            stream0 = get_raw_stream(0)
            triton_red_fused_add_mul_native_layer_norm_split_unsqueeze_view_8.run(arg3_1, buf1, buf32, buf45, 4096, 3072, stream=stream0)
            buf36 = buf22; del buf22  # reuse
            # Topologically Sorted Source Nodes: [out_3, hidden_states, split_with_sizes, encoder_hidden_states_1], Original ATen: [aten.permute, aten.view, aten.split_with_sizes, aten.t, aten.addmm]
            extern_kernels.addmm(arg28_1, reinterpret_tensor(buf28, (512, 3072), (3072, 1), 0), reinterpret_tensor(arg27_1, (3072, 3072), (1, 3072), 0), alpha=1, beta=1, out=buf36)
            del arg27_1
            del arg28_1
            del buf28
            buf40 = buf10; del buf10  # reuse
            # Topologically Sorted Source Nodes: [chunk_1, unsqueeze_2, encoder_hidden_states_1, context_attn_output, encoder_hidden_states_2, norm_encoder_hidden_states, getitem_28, add_11, mul_10, getitem_29, norm_encoder_hidden_states_1], Original ATen: [aten.split, aten.unsqueeze, aten.view, aten.mul, aten.add, aten.native_layer_norm]
            stream0 = get_raw_stream(0)
            triton_red_fused_add_mul_native_layer_norm_split_unsqueeze_view_9.run(arg6_1, buf6, buf36, buf40, 512, 3072, stream=stream0)
            buf41 = empty_strided_cuda((512, 12288), (12288, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [chunk_1, unsqueeze_2, encoder_hidden_states_1, context_attn_output, encoder_hidden_states_2, norm_encoder_hidden_states, getitem_28, add_11, mul_10, getitem_29, norm_encoder_hidden_states_1, hidden_states_11], Original ATen: [aten.split, aten.unsqueeze, aten.view, aten.mul, aten.add, aten.native_layer_norm, aten.t, aten.addmm]
            extern_kernels.addmm(arg34_1, reinterpret_tensor(buf40, (512, 3072), (3072, 1), 0), reinterpret_tensor(arg33_1, (3072, 12288), (1, 3072), 0), alpha=1, beta=1, out=buf41)
            del arg33_1
            del arg34_1
            buf42 = reinterpret_tensor(buf41, (1, 512, 12288), (6291456, 12288, 1), 0); del buf41  # reuse
            # Topologically Sorted Source Nodes: [hidden_states_11, hidden_states_12], Original ATen: [aten.view, aten.gelu]
            stream0 = get_raw_stream(0)
            triton_poi_fused_gelu_view_10.run(buf42, 6291456, stream=stream0)
            buf43 = reinterpret_tensor(buf40, (512, 3072), (3072, 1), 0); del buf40  # reuse
            # Topologically Sorted Source Nodes: [hidden_states_11, hidden_states_12, hidden_states_14], Original ATen: [aten.view, aten.gelu, aten.t, aten.addmm]
            extern_kernels.addmm(arg36_1, reinterpret_tensor(buf42, (512, 12288), (12288, 1), 0), reinterpret_tensor(arg35_1, (12288, 3072), (1, 12288), 0), alpha=1, beta=1, out=buf43)
            del arg35_1
            del arg36_1
            del buf42
            buf44 = reinterpret_tensor(buf36, (1, 512, 3072), (1572864, 3072, 1), 0); del buf36  # reuse
            # Topologically Sorted Source Nodes: [chunk_1, unsqueeze_2, encoder_hidden_states_1, context_attn_output, encoder_hidden_states_2, unsqueeze_3, hidden_states_14, mul_11, encoder_hidden_states_3], Original ATen: [aten.split, aten.unsqueeze, aten.view, aten.mul, aten.add]
            stream0 = get_raw_stream(0)
            triton_poi_fused_add_mul_split_unsqueeze_view_11.run(buf44, arg6_1, buf6, buf43, 1572864, stream=stream0)
            del arg6_1
            del buf43
            del buf6
            buf46 = empty_strided_cuda((4096, 12288), (12288, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [chunk, unsqueeze, hidden_states_3, attn_output, hidden_states_5, norm_hidden_states, getitem_26, add_7, mul_7, getitem_27, norm_hidden_states_1, hidden_states_6], Original ATen: [aten.split, aten.unsqueeze, aten.view, aten.mul, aten.add, aten.native_layer_norm, aten.t, aten.addmm]
            extern_kernels.addmm(arg30_1, reinterpret_tensor(buf45, (4096, 3072), (3072, 1), 0), reinterpret_tensor(arg29_1, (3072, 12288), (1, 3072), 0), alpha=1, beta=1, out=buf46)
            del arg29_1
            del arg30_1
            del buf45
            buf47 = reinterpret_tensor(buf46, (1, 4096, 12288), (50331648, 12288, 1), 0); del buf46  # reuse
            # Topologically Sorted Source Nodes: [hidden_states_6, hidden_states_7], Original ATen: [aten.view, aten.gelu]
            stream0 = get_raw_stream(0)
            triton_poi_fused_gelu_view_12.run(buf47, 50331648, stream=stream0)
            buf48 = empty_strided_cuda((4096, 3072), (3072, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [hidden_states_6, hidden_states_7, hidden_states_9], Original ATen: [aten.view, aten.gelu, aten.t, aten.addmm]
            extern_kernels.addmm(arg32_1, reinterpret_tensor(buf47, (4096, 12288), (12288, 1), 0), reinterpret_tensor(arg31_1, (12288, 3072), (1, 12288), 0), alpha=1, beta=1, out=buf48)
            del arg31_1
            del arg32_1
            del buf47
            buf49 = reinterpret_tensor(buf32, (1, 4096, 3072), (12582912, 3072, 1), 0); del buf32  # reuse
            # Topologically Sorted Source Nodes: [chunk, unsqueeze, hidden_states_3, attn_output, hidden_states_5, unsqueeze_1, hidden_states_9, ff_output, hidden_states_10], Original ATen: [aten.split, aten.unsqueeze, aten.view, aten.mul, aten.add]
            stream0 = get_raw_stream(0)
            triton_poi_fused_add_mul_split_unsqueeze_view_13.run(buf49, arg3_1, buf1, buf48, 12582912, stream=stream0)
            del arg3_1
            del buf1
            del buf48
        return (buf44, buf49, )

runner = Runner(partitions=[])
call = runner.call
recursively_apply_fns = runner.recursively_apply_fns


def get_args():
    from torch._dynamo.testing import rand_strided
    arg0_1 = rand_strided((1, 3072), (3072, 1), device='cuda:0', dtype=torch.bfloat16)
    arg1_1 = rand_strided((18432, 3072), (3072, 1), device='cuda:0', dtype=torch.bfloat16)
    arg2_1 = rand_strided((18432, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg3_1 = rand_strided((1, 4096, 3072), (12582912, 3072, 1), device='cuda:0', dtype=torch.bfloat16)
    arg4_1 = rand_strided((18432, 3072), (3072, 1), device='cuda:0', dtype=torch.bfloat16)
    arg5_1 = rand_strided((18432, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg6_1 = rand_strided((1, 512, 3072), (1572864, 3072, 1), device='cuda:0', dtype=torch.bfloat16)
    arg7_1 = rand_strided((3072, 3072), (3072, 1), device='cuda:0', dtype=torch.bfloat16)
    arg8_1 = rand_strided((3072, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg9_1 = rand_strided((3072, 3072), (3072, 1), device='cuda:0', dtype=torch.bfloat16)
    arg10_1 = rand_strided((3072, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg11_1 = rand_strided((3072, 3072), (3072, 1), device='cuda:0', dtype=torch.bfloat16)
    arg12_1 = rand_strided((3072, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg13_1 = rand_strided((3072, 3072), (3072, 1), device='cuda:0', dtype=torch.bfloat16)
    arg14_1 = rand_strided((3072, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg15_1 = rand_strided((3072, 3072), (3072, 1), device='cuda:0', dtype=torch.bfloat16)
    arg16_1 = rand_strided((3072, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg17_1 = rand_strided((3072, 3072), (3072, 1), device='cuda:0', dtype=torch.bfloat16)
    arg18_1 = rand_strided((3072, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg19_1 = rand_strided((128, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg20_1 = rand_strided((128, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg21_1 = rand_strided((128, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg22_1 = rand_strided((128, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg23_1 = rand_strided((4608, 128), (128, 1), device='cuda:0', dtype=torch.float32)
    arg24_1 = rand_strided((4608, 128), (128, 1), device='cuda:0', dtype=torch.float32)
    arg25_1 = rand_strided((3072, 3072), (3072, 1), device='cuda:0', dtype=torch.bfloat16)
    arg26_1 = rand_strided((3072, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg27_1 = rand_strided((3072, 3072), (3072, 1), device='cuda:0', dtype=torch.bfloat16)
    arg28_1 = rand_strided((3072, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg29_1 = rand_strided((12288, 3072), (3072, 1), device='cuda:0', dtype=torch.bfloat16)
    arg30_1 = rand_strided((12288, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg31_1 = rand_strided((3072, 12288), (12288, 1), device='cuda:0', dtype=torch.bfloat16)
    arg32_1 = rand_strided((3072, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg33_1 = rand_strided((12288, 3072), (3072, 1), device='cuda:0', dtype=torch.bfloat16)
    arg34_1 = rand_strided((12288, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg35_1 = rand_strided((3072, 12288), (12288, 1), device='cuda:0', dtype=torch.bfloat16)
    arg36_1 = rand_strided((3072, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    return [arg0_1, arg1_1, arg2_1, arg3_1, arg4_1, arg5_1, arg6_1, arg7_1, arg8_1, arg9_1, arg10_1, arg11_1, arg12_1, arg13_1, arg14_1, arg15_1, arg16_1, arg17_1, arg18_1, arg19_1, arg20_1, arg21_1, arg22_1, arg23_1, arg24_1, arg25_1, arg26_1, arg27_1, arg28_1, arg29_1, arg30_1, arg31_1, arg32_1, arg33_1, arg34_1, arg35_1, arg36_1]


def benchmark_compiled_module(args, times=10, repeat=10):
    from torch._inductor.utils import print_performance
    fn = lambda: call(list(args))
    return print_performance(fn, times=times, repeat=repeat)


if __name__ == "__main__":
    from torch._inductor.wrapper_benchmark import compiled_module_main
    args = get_args()
    compiled_module_main('None', lambda times, repeat: benchmark_compiled_module(args, times=times, repeat=repeat))
