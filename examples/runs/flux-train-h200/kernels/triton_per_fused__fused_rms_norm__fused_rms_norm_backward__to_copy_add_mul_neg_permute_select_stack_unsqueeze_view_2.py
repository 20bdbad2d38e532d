
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
    triton_meta={'signature': {'in_out_ptr0': '*bf16', 'in_out_ptr1': '*bf16', 'in_ptr0': '*bf16', 'in_ptr1': '*fp32', 'in_ptr2': '*fp32', 'in_ptr3': '*bf16', 'in_ptr4': '*bf16', 'in_ptr5': '*bf16', 'in_ptr6': '*fp32', 'in_ptr7': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]], (8,): [['tt.divisibility', 16]], (9,): [['tt.divisibility', 16]], (10,): [['tt.divisibility', 16]], (11,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused__fused_rms_norm__fused_rms_norm_backward__to_copy_add_mul_neg_permute_select_stack_unsqueeze_view_2', 'mutated_arg_names': ['in_out_ptr0', 'in_out_ptr1'], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 15, 'num_store': 2, 'num_reduction': 2, 'backend_hash': 'B01020984EF46027F076428F681AC854C238F082A1ADAFC2BE66262A647F68FA', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 884736, 'r0_': 346817024}, 'kernel_num_gb': 0.175473152, 'kernel_flop': 0}
)
@triton.jit
def triton_per_fused__fused_rms_norm__fused_rms_norm_backward__to_copy_add_mul_neg_permute_select_stack_unsqueeze_view_2(in_out_ptr0, in_out_ptr1, in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, in_ptr5, in_ptr6, in_ptr7, xnumel, r0_numel, XBLOCK : tl.constexpr):
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
    r0_2 = r0_index
    x3 = xindex
    x1 = xindex // 24
    tmp0 = tl.load(in_ptr0 + (r0_2 + 128*x3), None).to(tl.float32)
    tmp2 = tl.load(in_ptr1 + (r0_2 + 128*x1), None, eviction_policy='evict_last')
    tmp31 = tl.load(in_ptr3 + (r0_2), None, eviction_policy='evict_last').to(tl.float32)
    tmp34 = tl.load(in_ptr4 + (r0_2 + 128*x3), None).to(tl.float32)
    tmp54 = tl.load(in_ptr5 + (r0_2), None, eviction_policy='evict_last').to(tl.float32)
    tmp57 = tl.load(in_out_ptr0 + (r0_2 + 128*x3), None).to(tl.float32)
    tmp59 = tl.load(in_ptr6 + (x3), None, eviction_policy='evict_last')
    tmp71 = tl.load(in_out_ptr1 + (r0_2 + 128*x3), None).to(tl.float32)
    tmp73 = tl.load(in_ptr7 + (x3), None, eviction_policy='evict_last')
    tmp1 = tmp0.to(tl.float32)
    tmp3 = tmp1 * tmp2
    tmp4 = tmp3.to(tl.float32)
    tmp5 = (r0_2 % 2)
    tmp6 = tl.full([1, 1], 0, tl.int64)
    tmp7 = tmp5 >= tmp6
    tmp8 = tl.full([1, 1], 1, tl.int64)
    tmp9 = tmp5 < tmp8
    tmp10 = tl.load(in_ptr0 + (1 + 2*(r0_2 // 2) + 128*x3), tmp9, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp11 = tmp10.to(tl.float32)
    tmp12 = tl.load(in_ptr2 + (1 + 2*(r0_2 // 2) + 128*x1), tmp9, eviction_policy='evict_last', other=0.0)
    tmp13 = tmp11 * tmp12
    tmp14 = tmp13.to(tl.float32)
    tmp15 = tl.full(tmp14.shape, 0.0, tmp14.dtype)
    tmp16 = tl.where(tmp9, tmp14, tmp15)
    tmp17 = tmp5 >= tmp8
    tmp18 = tl.full([1, 1], 2, tl.int64)
    tmp19 = tmp5 < tmp18
    tmp20 = tl.load(in_ptr0 + (2*(r0_2 // 2) + 128*x3), tmp17, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp21 = tmp20.to(tl.float32)
    tmp22 = tl.load(in_ptr2 + (2*(r0_2 // 2) + 128*x1), tmp17, eviction_policy='evict_last', other=0.0)
    tmp23 = tmp21 * tmp22
    tmp24 = tmp23.to(tl.float32)
    tmp25 = -tmp24
    tmp26 = tl.full(tmp25.shape, 0.0, tmp25.dtype)
    tmp27 = tl.where(tmp17, tmp25, tmp26)
    tmp28 = tl.where(tmp9, tmp16, tmp27)
    tmp29 = tmp4 + tmp28
    tmp30 = tmp29.to(tl.float32)
    tmp32 = tmp31.to(tl.float32)
    tmp33 = tmp30 * tmp32
    tmp35 = tmp34.to(tl.float32)
    tmp36 = tmp35 * tmp2
    tmp37 = tmp36.to(tl.float32)
    tmp38 = tl.load(in_ptr4 + (1 + 2*(r0_2 // 2) + 128*x3), tmp9, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp39 = tmp38.to(tl.float32)
    tmp40 = tmp39 * tmp12
    tmp41 = tmp40.to(tl.float32)
    tmp42 = tl.full(tmp41.shape, 0.0, tmp41.dtype)
    tmp43 = tl.where(tmp9, tmp41, tmp42)
    tmp44 = tl.load(in_ptr4 + (2*(r0_2 // 2) + 128*x3), tmp17, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp45 = tmp44.to(tl.float32)
    tmp46 = tmp45 * tmp22
    tmp47 = tmp46.to(tl.float32)
    tmp48 = -tmp47
    tmp49 = tl.full(tmp48.shape, 0.0, tmp48.dtype)
    tmp50 = tl.where(tmp17, tmp48, tmp49)
    tmp51 = tl.where(tmp9, tmp43, tmp50)
    tmp52 = tmp37 + tmp51
    tmp53 = tmp52.to(tl.float32)
    tmp55 = tmp54.to(tl.float32)
    tmp56 = tmp53 * tmp55
    tmp58 = tmp57.to(tl.float32)
    tmp60 = tmp58 * tmp59
    tmp61 = tmp60 * tmp33
    tmp62 = tl.broadcast_to(tmp61, [XBLOCK, R0_BLOCK])
    tmp64 = tl.sum(tmp62, 1)[:, None].to(tl.float32)
    tmp65 = tl.full([1, 1], 0.0078125, tl.float32)
    tmp66 = tmp60 * tmp65
    tmp67 = tmp66 * tmp64
    tmp68 = tmp33 - tmp67
    tmp69 = tmp68 * tmp59
    tmp70 = tmp69.to(tl.float32)
    tmp72 = tmp71.to(tl.float32)
    tmp74 = tmp72 * tmp73
    tmp75 = tmp74 * tmp56
    tmp76 = tl.broadcast_to(tmp75, [XBLOCK, R0_BLOCK])
    tmp78 = tl.sum(tmp76, 1)[:, None].to(tl.float32)
    tmp79 = tmp74 * tmp65
    tmp80 = tmp79 * tmp78
    tmp81 = tmp56 - tmp80
    tmp82 = tmp81 * tmp73
    tmp83 = tmp82.to(tl.float32)
    tl.store(in_out_ptr0 + (r0_2 + 128*x3), tmp70, None)
    tl.store(in_out_ptr1 + (r0_2 + 128*x3), tmp83, None)


def get_args():
    arg_0 = rand_strided((1, 4608, 24, 128), (14155776, 3072, 128, 1), device='cuda:0', dtype=torch.bfloat16)
    arg_1 = rand_strided((1, 4608, 24, 128), (14155776, 3072, 128, 1), device='cuda:0', dtype=torch.bfloat16)
    arg_2 = rand_strided((1, 24, 4608, 128), (14155776, 128, 3072, 1), device='cuda:0', dtype=torch.bfloat16)
    arg_3 = rand_strided((4608, 128), (128, 1), device='cuda:0', dtype=torch.float32)
    arg_4 = rand_strided((4608, 128), (128, 1), device='cuda:0', dtype=torch.float32)
    arg_5 = rand_strided((128,), (1,), device='cuda:0', dtype=torch.bfloat16)
    arg_6 = rand_strided((1, 24, 4608, 128), (14155776, 128, 3072, 1), device='cuda:0', dtype=torch.bfloat16)
    arg_7 = rand_strided((128,), (1,), device='cuda:0', dtype=torch.bfloat16)
    arg_8 = rand_strided((1, 4608, 24, 1), (110592, 24, 1, 1), device='cuda:0', dtype=torch.float32)
    arg_9 = rand_strided((1, 4608, 24, 1), (110592, 24, 1, 1), device='cuda:0', dtype=torch.float32)
    return arg_0, arg_1, arg_2, arg_3, arg_4, arg_5, arg_6, arg_7, arg_8, arg_9, 110592, 128,


def call(args):
    with torch.cuda._DeviceGuard(0):
        torch.cuda.set_device(0)
        stream0 = get_raw_stream(0)
        triton_per_fused__fused_rms_norm__fused_rms_norm_backward__to_copy_add_mul_neg_permute_select_stack_unsqueeze_view_2.run(*args, stream=stream0)


def benchmark_all_configs(args):
    with torch.cuda._DeviceGuard(0):
        torch.cuda.set_device(0)
        return triton_per_fused__fused_rms_norm__fused_rms_norm_backward__to_copy_add_mul_neg_permute_select_stack_unsqueeze_view_2.benchmark_all_configs(*args)


if __name__ == '__main__':
    from torch._inductor.runtime.benchmarking import benchmarker

    args = get_args()
    ms = benchmarker.benchmark(lambda: call(args), device='cuda', rep=40)
    num_gb = 0.175473152
    gb_per_s = num_gb / (ms / 1e3)
    print(f"{ms:.3f}ms    {num_gb:.3f}GB    {gb_per_s:.2f}GB/s")
