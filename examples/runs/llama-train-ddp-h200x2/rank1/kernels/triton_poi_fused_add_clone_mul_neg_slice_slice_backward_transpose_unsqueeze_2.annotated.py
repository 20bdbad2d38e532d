from inductor_prof.inductor.metrics import KernelMetrics

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
    triton_meta={'signature': {'in_ptr0': '*bf16', 'in_ptr1': '*bf16', 'in_ptr2': '*bf16', 'out_ptr0': '*bf16', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=1, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_add_clone_mul_neg_slice_slice_backward_transpose_unsqueeze_2', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 6, 'num_store': 1, 'num_reduction': 0, 'backend_hash': 'B01020984EF46027F076428F681AC854C238F082A1ADAFC2BE66262A647F68FA', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 84672512}, 'kernel_num_gb': 0.03407872, 'kernel_flop': 0},
    min_elem_per_thread=0
)
@triton.jit(launch_metadata=KernelMetrics(kind='pointwise', ops_per_element=6, ops_per_row=0, in_out_read=()))
def triton_poi_fused_add_clone_mul_neg_slice_slice_backward_transpose_unsqueeze_2(in_ptr0, in_ptr1, in_ptr2, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 8388608
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = tl.full([XBLOCK], True, tl.int1)[:]
    x0 = (xindex % 64)
    x4 = xindex
    x2 = ((xindex // 2048) % 2048)
    tmp19 = tl.load(in_ptr0 + (x4), None).to(tl.float32)
    tmp20 = tl.load(in_ptr2 + (x0 + 64*x2), None, eviction_policy='evict_last').to(tl.float32)
    tmp0 = x0
    tmp1 = tl.full([1], 32, tl.int64)
    tmp2 = tmp0 >= tmp1
    tmp3 = tl.load(in_ptr0 + ((-32) + x4), tmp2, other=0.0).to(tl.float32)
    tmp4 = tl.load(in_ptr1 + ((-32) + x0 + 64*x2), tmp2, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp5 = tmp3 * tmp4
    tmp6 = -tmp5
    tmp7 = tl.full(tmp6.shape, 0.0, tmp6.dtype)
    tmp8 = tl.where(tmp2, tmp6, tmp7)
    tmp9 = tl.full([1], 0.0, tl.float32)
    tmp10 = tl.where(tmp2, tmp8, tmp9)
    tmp11 = tmp0 < tmp1
    tmp12 = tl.load(in_ptr0 + (32 + x4), tmp11, other=0.0).to(tl.float32)
    tmp13 = tl.load(in_ptr1 + (32 + x0 + 64*x2), tmp11, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp14 = tmp12 * tmp13
    tmp15 = tl.full(tmp14.shape, 0.0, tmp14.dtype)
    tmp16 = tl.where(tmp11, tmp14, tmp15)
    tmp17 = tl.where(tmp11, tmp16, tmp9)
    tmp18 = tmp10 + tmp17
    tmp21 = tmp19 * tmp20
    tmp22 = tmp18 + tmp21
    tl.store(out_ptr0 + (x4), tmp22, None)


def get_args():
    arg_0 = rand_strided((2, 32, 2048, 64), (4194304, 64, 2048, 1), device='cuda:1', dtype=torch.bfloat16)
    arg_1 = rand_strided((1, 2048, 64), (131072, 64, 1), device='cuda:1', dtype=torch.bfloat16)
    arg_2 = rand_strided((1, 2048, 64), (131072, 64, 1), device='cuda:1', dtype=torch.bfloat16)
    arg_3 = rand_strided((2, 2048, 32, 64), (4194304, 2048, 64, 1), device='cuda:1', dtype=torch.bfloat16)
    return arg_0, arg_1, arg_2, arg_3, 8388608,


def call(args):
    with torch.cuda._DeviceGuard(1):
        torch.cuda.set_device(1)
        stream1 = get_raw_stream(1)
        triton_poi_fused_add_clone_mul_neg_slice_slice_backward_transpose_unsqueeze_2.run(*args, stream=stream1)


def benchmark_all_configs(args):
    with torch.cuda._DeviceGuard(1):
        torch.cuda.set_device(1)
        return triton_poi_fused_add_clone_mul_neg_slice_slice_backward_transpose_unsqueeze_2.benchmark_all_configs(*args)


if __name__ == '__main__':
    from torch._inductor.runtime.benchmarking import benchmarker

    args = get_args()
    ms = benchmarker.benchmark(lambda: call(args), device='cuda', rep=40)
    num_gb = 0.03407872
    gb_per_s = num_gb / (ms / 1e3)
    print(f"{ms:.3f}ms    {num_gb:.3f}GB    {gb_per_s:.2f}GB/s")
