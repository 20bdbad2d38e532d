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

@triton_heuristics.persistent_reduction(
    size_hints={'x': 131072, 'r0_': 128},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*fp32', 'in_out_ptr1': '*fp32', 'in_ptr0': '*bf16', 'in_ptr1': '*bf16', 'in_ptr2': '*bf16', 'in_ptr3': '*fp32', 'in_ptr4': '*fp32', 'in_ptr5': '*bf16', 'out_ptr1': '*bf16', 'out_ptr3': '*bf16', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]], (8,): [['tt.divisibility', 16]], (9,): [['tt.divisibility', 16]], (10,): [['tt.divisibility', 16]], (11,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused__fused_rms_norm__to_copy_add_mul_neg_stack_unbind_unsqueeze_view_2', 'mutated_arg_names': ['in_out_ptr0', 'in_out_ptr1'], 'optimize_mem': False, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 14, 'num_store': 4, 'num_reduction': 2, 'backend_hash': 'B01020984EF46027F076428F681AC854C238F082A1ADAFC2BE66262A647F68FA', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 1769472, 'r0_': 344458752}, 'kernel_num_gb': 0.119734784, 'kernel_flop': 0}
)
@triton.jit(launch_metadata=KernelMetrics(kind='persistent_reduction', ops_per_element=22, ops_per_row=4, in_out_read=(), ops_per_lane=2))
def triton_per_fused__fused_rms_norm__to_copy_add_mul_neg_stack_unbind_unsqueeze_view_2(in_out_ptr0, in_out_ptr1, in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, in_ptr5, out_ptr1, out_ptr3, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 110592
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
    x3 = xindex // 24
    tmp0 = tl.load(in_ptr0 + (r0_1 + 128*x0), None).to(tl.float32)
    tmp11 = tl.load(in_ptr1 + (r0_1 + 128*x0), None).to(tl.float32)
    tmp21 = tl.load(in_ptr2 + (r0_1), None, eviction_policy='evict_last').to(tl.float32)
    tmp26 = tl.load(in_ptr3 + (r0_1 + 128*x3), None, eviction_policy='evict_last')
    tmp57 = tl.load(in_ptr4 + (r0_1 + 128*x3), None, eviction_policy='evict_last')
    tmp62 = tl.load(in_ptr5 + (r0_1), None, eviction_policy='evict_last').to(tl.float32)
    tmp1 = tmp0.to(tl.float32)
    tmp2 = tmp1 * tmp1
    tmp3 = tl.broadcast_to(tmp2, [XBLOCK, R0_BLOCK])
    tmp5 = tl.sum(tmp3, 1)[:, None].to(tl.float32)
    tmp6 = tl.full([1, 1], 128.0, tl.float32)
    tmp7 = (tmp5 / tmp6)
    tmp8 = tl.full([1, 1], 1e-06, tl.float32)
    tmp9 = tmp7 + tmp8
    tmp10 = libdevice.rsqrt(tmp9)
    tmp12 = tmp11.to(tl.float32)
    tmp13 = tmp12 * tmp12
    tmp14 = tl.broadcast_to(tmp13, [XBLOCK, R0_BLOCK])
    tmp16 = tl.sum(tmp14, 1)[:, None].to(tl.float32)
    tmp17 = (tmp16 / tmp6)
    tmp18 = tmp17 + tmp8
    tmp19 = libdevice.rsqrt(tmp18)
    tmp20 = tmp1 * tmp10
    tmp22 = tmp21.to(tl.float32)
    tmp23 = tmp20 * tmp22
    tmp24 = tmp23.to(tl.float32)
    tmp25 = tmp24.to(tl.float32)
    tmp27 = tmp25 * tmp26
    tmp28 = (r0_1 % 2)
    tmp29 = tl.full([1, 1], 0, tl.int64)
    tmp30 = tmp28 >= tmp29
    tmp31 = tl.full([1, 1], 1, tl.int64)
    tmp32 = tmp28 < tmp31
    tmp33 = tl.load(in_ptr0 + (1 + 2*(r0_1 // 2) + 128*x0), tmp32, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp34 = tmp33.to(tl.float32)
    tmp35 = tmp34 * tmp10
    tmp36 = tl.load(in_ptr2 + (tl.broadcast_to(1 + 2*(r0_1 // 2), [XBLOCK, R0_BLOCK])), tmp32, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp37 = tmp36.to(tl.float32)
    tmp38 = tmp35 * tmp37
    tmp39 = tmp38.to(tl.float32)
    tmp40 = -tmp39
    tmp41 = tl.full(tmp40.shape, 0.0, tmp40.dtype)
    tmp42 = tl.where(tmp32, tmp40, tmp41)
    tmp43 = tmp28 >= tmp31
    tmp44 = tl.full([1, 1], 2, tl.int64)
    tmp45 = tmp28 < tmp44
    tmp46 = tl.load(in_ptr0 + (2*(r0_1 // 2) + 128*x0), tmp43, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp47 = tmp46.to(tl.float32)
    tmp48 = tmp47 * tmp10
    tmp49 = tl.load(in_ptr2 + (tl.broadcast_to(2*(r0_1 // 2), [XBLOCK, R0_BLOCK])), tmp43, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp50 = tmp49.to(tl.float32)
    tmp51 = tmp48 * tmp50
    tmp52 = tmp51.to(tl.float32)
    tmp53 = tl.full(tmp52.shape, 0.0, tmp52.dtype)
    tmp54 = tl.where(tmp43, tmp52, tmp53)
    tmp55 = tl.where(tmp32, tmp42, tmp54)
    tmp56 = tmp55.to(tl.float32)
    tmp58 = tmp56 * tmp57
    tmp59 = tmp27 + tmp58
    tmp60 = tmp59.to(tl.float32)
    tmp61 = tmp12 * tmp19
    tmp63 = tmp62.to(tl.float32)
    tmp64 = tmp61 * tmp63
    tmp65 = tmp64.to(tl.float32)
    tmp66 = tmp65.to(tl.float32)
    tmp67 = tmp66 * tmp26
    tmp68 = tl.load(in_ptr1 + (1 + 2*(r0_1 // 2) + 128*x0), tmp32, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp69 = tmp68.to(tl.float32)
    tmp70 = tmp69 * tmp19
    tmp71 = tl.load(in_ptr5 + (tl.broadcast_to(1 + 2*(r0_1 // 2), [XBLOCK, R0_BLOCK])), tmp32, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp72 = tmp71.to(tl.float32)
    tmp73 = tmp70 * tmp72
    tmp74 = tmp73.to(tl.float32)
    tmp75 = -tmp74
    tmp76 = tl.full(tmp75.shape, 0.0, tmp75.dtype)
    tmp77 = tl.where(tmp32, tmp75, tmp76)
    tmp78 = tl.load(in_ptr1 + (2*(r0_1 // 2) + 128*x0), tmp43, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp79 = tmp78.to(tl.float32)
    tmp80 = tmp79 * tmp19
    tmp81 = tl.load(in_ptr5 + (tl.broadcast_to(2*(r0_1 // 2), [XBLOCK, R0_BLOCK])), tmp43, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp82 = tmp81.to(tl.float32)
    tmp83 = tmp80 * tmp82
    tmp84 = tmp83.to(tl.float32)
    tmp85 = tl.full(tmp84.shape, 0.0, tmp84.dtype)
    tmp86 = tl.where(tmp43, tmp84, tmp85)
    tmp87 = tl.where(tmp32, tmp77, tmp86)
    tmp88 = tmp87.to(tl.float32)
    tmp89 = tmp88 * tmp57
    tmp90 = tmp67 + tmp89
    tmp91 = tmp90.to(tl.float32)
    tl.debug_barrier()
    tl.store(in_out_ptr0 + (x0), tmp10, None)
    tl.debug_barrier()
    tl.store(in_out_ptr1 + (x0), tmp19, None)
    tl.store(out_ptr1 + (r0_1 + 128*x0), tmp60, None)
    tl.store(out_ptr3 + (r0_1 + 128*x0), tmp91, None)


def get_args():
    arg_0 = rand_strided((1, 4608, 24, 1), (110592, 24, 1, 1), device='cuda:0', dtype=torch.float32)
    arg_1 = rand_strided((1, 4608, 24, 1), (110592, 24, 1, 1), device='cuda:0', dtype=torch.float32)
    arg_2 = rand_strided((4608, 3072), (3072, 1), device='cuda:0', dtype=torch.bfloat16)
    arg_3 = rand_strided((4608, 3072), (3072, 1), device='cuda:0', dtype=torch.bfloat16)
    arg_4 = rand_strided((128,), (1,), device='cuda:0', dtype=torch.bfloat16)
    arg_5 = rand_strided((4608, 128), (128, 1), device='cuda:0', dtype=torch.float32)
    arg_6 = rand_strided((4608, 128), (128, 1), device='cuda:0', dtype=torch.float32)
    arg_7 = rand_strided((128,), (1,), device='cuda:0', dtype=torch.bfloat16)
    arg_8 = rand_strided((1, 4608, 24, 128), (14155776, 3072, 128, 1), device='cuda:0', dtype=torch.bfloat16)
    arg_9 = rand_strided((1, 4608, 24, 128), (14155776, 3072, 128, 1), device='cuda:0', dtype=torch.bfloat16)
    return arg_0, arg_1, arg_2, arg_3, arg_4, arg_5, arg_6, arg_7, arg_8, arg_9, 110592, 128,


def call(args):
    with torch.cuda._DeviceGuard(0):
        torch.cuda.set_device(0)
        stream0 = get_raw_stream(0)
        triton_per_fused__fused_rms_norm__to_copy_add_mul_neg_stack_unbind_unsqueeze_view_2.run(*args, stream=stream0)


def benchmark_all_configs(args):
    with torch.cuda._DeviceGuard(0):
        torch.cuda.set_device(0)
        return triton_per_fused__fused_rms_norm__to_copy_add_mul_neg_stack_unbind_unsqueeze_view_2.benchmark_all_configs(*args)


if __name__ == '__main__':
    from torch._inductor.runtime.benchmarking import benchmarker

    args = get_args()
    ms = benchmarker.benchmark(lambda: call(args), device='cuda', rep=40)
    num_gb = 0.119734784
    gb_per_s = num_gb / (ms / 1e3)
    print(f"{ms:.3f}ms    {num_gb:.3f}GB    {gb_per_s:.2f}GB/s")
