
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
    size_hints={'y': 32768, 'x': 64}, tile_hint=TileHint.DEFAULT,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*bf16', 'in_ptr1': '*bf16', 'in_ptr2': '*fp32', 'out_ptr0': '*bf16', 'ynumel': 'i32', 'xnumel': 'i32', 'YBLOCK': 'constexpr', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid2D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused__to_copy_add_bmm_cat_clone_cos_mul_neg_slice_slice_backward_squeeze_sum_transpose_unsqueeze_view_5', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 7, 'num_store': 1, 'num_reduction': 0, 'backend_hash': 'B01020984EF46027F076428F681AC854C238F082A1ADAFC2BE66262A647F68FA', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'y': 262144, 'x': 33554432}, 'kernel_num_gb': 0.025427968, 'kernel_flop': 0},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused__to_copy_add_bmm_cat_clone_cos_mul_neg_slice_slice_backward_squeeze_sum_transpose_unsqueeze_view_5(in_ptr0, in_ptr1, in_ptr2, out_ptr0, ynumel, xnumel, YBLOCK : tl.constexpr, XBLOCK : tl.constexpr):
    ynumel = 32768
    xnumel = 64
    yoffset = tl.program_id(1) * YBLOCK
    yindex = yoffset + tl.arange(0, YBLOCK)[:, None]
    ymask = tl.full([YBLOCK], True, tl.int1)[:, None]
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[None, :]
    xmask = xindex < xnumel
    x3 = xindex
    y4 = yindex
    y0 = (yindex % 2048)
    y5 = yindex // 2048
    y1 = ((yindex // 2048) % 8)
    y2 = yindex // 16384
    tmp13 = tl.load(in_ptr1 + (x3 + 64*y0 + 524288*y5), xmask, eviction_policy='evict_last').to(tl.float32)
    tmp14 = tl.load(in_ptr1 + (131072 + x3 + 64*y0 + 524288*y5), xmask, eviction_policy='evict_last').to(tl.float32)
    tmp16 = tl.load(in_ptr1 + (262144 + x3 + 64*y0 + 524288*y5), xmask, eviction_policy='evict_last').to(tl.float32)
    tmp18 = tl.load(in_ptr1 + (393216 + x3 + 64*y0 + 524288*y5), xmask, eviction_policy='evict_last').to(tl.float32)
    tmp20 = tl.load(in_ptr2 + (y0 + 2048*((x3 % 32))), xmask, eviction_policy='evict_last')
    tmp0 = x3
    tmp1 = tl.full([1, 1], 32, tl.int64)
    tmp2 = tmp0 >= tmp1
    tmp3 = tl.load(in_ptr0 + ((-32) + x3 + 64*y4), tmp2 & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp4 = -tmp3
    tmp5 = tl.full(tmp4.shape, 0.0, tmp4.dtype)
    tmp6 = tl.where(tmp2, tmp4, tmp5)
    tmp7 = tl.full([1, 1], 0.0, tl.float32)
    tmp8 = tl.where(tmp2, tmp6, tmp7)
    tmp9 = tmp0 < tmp1
    tmp10 = tl.load(in_ptr0 + (32 + x3 + 64*y4), tmp9 & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp11 = tl.where(tmp9, tmp10, tmp7)
    tmp12 = tmp8 + tmp11
    tmp15 = tmp13 + tmp14
    tmp17 = tmp15 + tmp16
    tmp19 = tmp17 + tmp18
    tmp21 = tl_math.cos(tmp20)
    tmp22 = tl.full([1, 1], 1.0, tl.float32)
    tmp23 = tmp21 * tmp22
    tmp24 = tmp23.to(tl.float32)
    tmp25 = tmp19 * tmp24
    tmp26 = tmp12 + tmp25
    tl.store(out_ptr0 + (x3 + 64*y1 + 512*y0 + 1048576*y2), tmp26, xmask)


def get_args():
    arg_0 = rand_strided((2, 8, 2048, 64), (1048576, 131072, 64, 1), device='cuda:0', dtype=torch.bfloat16)
    arg_1 = rand_strided((2, 32, 2048, 64), (4194304, 131072, 64, 1), device='cuda:0', dtype=torch.bfloat16)
    arg_2 = rand_strided((32, 2048), (2048, 1), device='cuda:0', dtype=torch.float32)
    arg_3 = rand_strided((2, 2048, 8, 64), (1048576, 512, 64, 1), device='cuda:0', dtype=torch.bfloat16)
    return arg_0, arg_1, arg_2, arg_3, 32768, 64,


def call(args):
    with torch.cuda._DeviceGuard(0):
        torch.cuda.set_device(0)
        stream0 = get_raw_stream(0)
        triton_poi_fused__to_copy_add_bmm_cat_clone_cos_mul_neg_slice_slice_backward_squeeze_sum_transpose_unsqueeze_view_5.run(*args, stream=stream0)


def benchmark_all_configs(args):
    with torch.cuda._DeviceGuard(0):
        torch.cuda.set_device(0)
        return triton_poi_fused__to_copy_add_bmm_cat_clone_cos_mul_neg_slice_slice_backward_squeeze_sum_transpose_unsqueeze_view_5.benchmark_all_configs(*args)


if __name__ == '__main__':
    from torch._inductor.runtime.benchmarking import benchmarker

    args = get_args()
    ms = benchmarker.benchmark(lambda: call(args), device='cuda', rep=40)
    num_gb = 0.025427968
    gb_per_s = num_gb / (ms / 1e3)
    print(f"{ms:.3f}ms    {num_gb:.3f}GB    {gb_per_s:.2f}GB/s")
