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

@triton.jit(launch_metadata=KernelMetrics(kind='reduction', ops_per_element=0, ops_per_row=0, in_out_read=()))
def _triton_helper_fn_add0(arg0_0, arg1_0):
    tmp0 = arg0_0 + arg1_0
    return tmp0

@triton_heuristics.reduction(
    size_hints={'x': 2, 'r0_': 2048},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'out_ptr0': '*i64', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_red_fused_add_arange_cat_cumsum_expand_ne_slice_sub_unsqueeze_1', 'mutated_arg_names': [], 'optimize_mem': False, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 0, 'num_store': 1, 'num_reduction': 0, 'backend_hash': 'B01020984EF46027F076428F681AC854C238F082A1ADAFC2BE66262A647F68FA', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 0, 'r0_': 65536}, 'kernel_num_gb': 3.2768e-05, 'kernel_flop': 0}
)
@triton.jit
def triton_red_fused_add_arange_cat_cumsum_expand_ne_slice_sub_unsqueeze_1(out_ptr0, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    xnumel = 2
    r0_numel = 2048
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    tmp32 = tl.full([XBLOCK, 1], -1, tl.int64)
    x0 = xindex
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp0 = 1 + r0_1
        tmp1 = tl.full([1, 1], 0, tl.int64)
        tmp2 = tmp0 >= tmp1
        tmp3 = tl.full([1, 1], 1, tl.int64)
        tmp4 = tmp0 < tmp3
        tmp5 = tl.broadcast_to((-1) + (1 + r0_1), [XBLOCK, R0_BLOCK])
        tmp6 = tl.full(tmp5.shape, 0.0, tmp5.dtype)
        tmp7 = tl.where(tmp4, tmp5, tmp6)
        tmp8 = tmp0 >= tmp3
        tmp9 = tl.full([1, 1], 2049, tl.int64)
        tmp10 = tmp0 < tmp9
        tmp11 = tl.broadcast_to(r0_1, [XBLOCK, R0_BLOCK])
        tmp12 = tl.full(tmp11.shape, 0.0, tmp11.dtype)
        tmp13 = tl.where(tmp8, tmp11, tmp12)
        tmp14 = tl.where(tmp4, tmp7, tmp13)
        tmp15 = r0_1
        tmp16 = tmp15 >= tmp1
        tmp17 = tmp15 < tmp3
        tmp18 = tl.broadcast_to((-1) + (r0_1), [XBLOCK, R0_BLOCK])
        tmp19 = tl.full(tmp18.shape, 0.0, tmp18.dtype)
        tmp20 = tl.where(tmp17, tmp18, tmp19)
        tmp21 = tmp15 >= tmp3
        tmp22 = tmp15 < tmp9
        tmp23 = tl.broadcast_to((-1) + r0_1, [XBLOCK, R0_BLOCK])
        tmp24 = tl.full(tmp23.shape, 0.0, tmp23.dtype)
        tmp25 = tl.where(tmp21, tmp23, tmp24)
        tmp26 = tl.where(tmp17, tmp20, tmp25)
        tmp27 = tmp14 - tmp26
        tmp28 = tmp27 != tmp3
        tmp29 = tmp28.to(tl.int64)
        tmp30 = tmp29.to(tl.int64)
        tmp31 = tl.broadcast_to(tmp30, [XBLOCK, R0_BLOCK])
        tmp33, = tl.associative_scan((tmp31,), 1, _triton_helper_fn_add0)
        tmp34 = triton_helpers.select_one((tmp33), rbase == (RBLOCK - 1), dim=-1, keep_dims=True)
        tmp35 = tmp32 + tmp34
        tmp36 = tmp32 + tmp33
        tmp37 = tl.where(roffset > 0, tmp36, tmp33)
        tmp32 = tl.where(roffset > 0, tmp35, tmp34)
        tl.store(out_ptr0 + (r0_1 + 2048*x0), tmp37, r0_mask & xmask)


def get_args():
    arg_0 = rand_strided((2, 2048), (2048, 1), device='cuda:0', dtype=torch.int64)
    return arg_0, 2, 2048,


def call(args):
    with torch.cuda._DeviceGuard(0):
        torch.cuda.set_device(0)
        stream0 = get_raw_stream(0)
        triton_red_fused_add_arange_cat_cumsum_expand_ne_slice_sub_unsqueeze_1.run(*args, stream=stream0)


def benchmark_all_configs(args):
    with torch.cuda._DeviceGuard(0):
        torch.cuda.set_device(0)
        return triton_red_fused_add_arange_cat_cumsum_expand_ne_slice_sub_unsqueeze_1.benchmark_all_configs(*args)


if __name__ == '__main__':
    from torch._inductor.runtime.benchmarking import benchmarker

    args = get_args()
    ms = benchmarker.benchmark(lambda: call(args), device='cuda', rep=40)
    num_gb = 3.2768e-05
    gb_per_s = num_gb / (ms / 1e3)
    print(f"{ms:.3f}ms    {num_gb:.3f}GB    {gb_per_s:.2f}GB/s")
