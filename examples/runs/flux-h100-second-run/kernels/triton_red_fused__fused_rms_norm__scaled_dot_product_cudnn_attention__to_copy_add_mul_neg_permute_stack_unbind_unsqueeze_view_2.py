
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
    triton_meta={'signature': {'in_out_ptr0': '*bf16', 'in_out_ptr1': '*bf16', 'in_ptr0': '*bf16', 'in_ptr1': '*bf16', 'in_ptr2': '*bf16', 'in_ptr3': '*bf16', 'in_ptr4': '*fp32', 'in_ptr5': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]], (8,): [['tt.divisibility', 16]], (9,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_red_fused__fused_rms_norm__scaled_dot_product_cudnn_attention__to_copy_add_mul_neg_permute_stack_unbind_unsqueeze_view_2', 'mutated_arg_names': ['in_out_ptr0', 'in_out_ptr1'], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 16, 'num_store': 2, 'num_reduction': 2, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 0, 'r0_': 174588416}, 'kernel_num_gb': 0.174588416, 'kernel_flop': 0}
)
@triton.jit
def triton_red_fused__fused_rms_norm__scaled_dot_product_cudnn_attention__to_copy_add_mul_neg_permute_stack_unbind_unsqueeze_view_2(in_out_ptr0, in_out_ptr1, in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, in_ptr5, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    xnumel = 110592
    r0_numel = 128
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = tl.full([XBLOCK], True, tl.int1)[:, None]
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
        tmp0 = tl.load(in_ptr0 + (r0_1 + 128*x0), r0_mask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp1 = tmp0.to(tl.float32)
        tmp2 = tmp1 * tmp1
        tmp3 = tl.broadcast_to(tmp2, [XBLOCK, R0_BLOCK])
        tmp5 = _tmp4 + tmp3
        _tmp4 = tl.where(r0_mask, tmp5, _tmp4)
    tmp4 = tl.sum(_tmp4, 1)[:, None]
    _tmp10 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp6 = tl.load(in_ptr1 + (r0_1 + 128*x0), r0_mask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp7 = tmp6.to(tl.float32)
        tmp8 = tmp7 * tmp7
        tmp9 = tl.broadcast_to(tmp8, [XBLOCK, R0_BLOCK])
        tmp11 = _tmp10 + tmp9
        _tmp10 = tl.where(r0_mask, tmp11, _tmp10)
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
        tmp76 = tl.load(in_ptr0 + (r0_1 + 128*x0), r0_mask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp84 = tl.load(in_ptr3 + (r0_1), r0_mask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp89 = tl.load(in_ptr4 + (r0_1 + 128*x5), r0_mask, eviction_policy='evict_last', other=0.0)
        tmp92 = tl.load(in_ptr5 + (r0_1 + 128*x5), r0_mask, eviction_policy='evict_last', other=0.0)
        tmp96 = tl.load(in_ptr1 + (r0_1 + 128*x0), r0_mask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp102 = tl.load(in_ptr2 + (r0_1), r0_mask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp12 = r0_2
        tmp13 = tl.full([1, 1], 0, tl.int64)
        tmp14 = tmp12 >= tmp13
        tmp15 = tl.full([1, 1], 1, tl.int64)
        tmp16 = tmp12 < tmp15
        tmp17 = tl.load(in_ptr1 + (1 + 2*r0_3 + 128*x0), r0_mask & tmp16, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp18 = tmp17.to(tl.float32)
        tmp19 = tl.full([1, 1], 128.0, tl.float32)
        tmp20 = (tmp10 / tmp19)
        tmp21 = tl.full([1, 1], 1e-06, tl.float32)
        tmp22 = tmp20 + tmp21
        tmp23 = libdevice.rsqrt(tmp22)
        tmp24 = tmp18 * tmp23
        tmp25 = tl.load(in_ptr2 + (tl.broadcast_to(1 + 2*r0_3, [XBLOCK, R0_BLOCK])), r0_mask & tmp16, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp26 = tmp25.to(tl.float32)
        tmp27 = tmp24 * tmp26
        tmp28 = tmp27.to(tl.float32)
        tmp29 = -tmp28
        tmp30 = tl.full(tmp29.shape, 0.0, tmp29.dtype)
        tmp31 = tl.where(tmp16, tmp29, tmp30)
        tmp32 = tmp12 >= tmp15
        tmp33 = tl.full([1, 1], 2, tl.int64)
        tmp34 = tmp12 < tmp33
        tmp35 = tl.load(in_ptr1 + (2*r0_3 + 128*x0), r0_mask & tmp32, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp36 = tmp35.to(tl.float32)
        tmp37 = tl.full([1, 1], 128.0, tl.float32)
        tmp38 = (tmp10 / tmp37)
        tmp39 = tl.full([1, 1], 1e-06, tl.float32)
        tmp40 = tmp38 + tmp39
        tmp41 = libdevice.rsqrt(tmp40)
        tmp42 = tmp36 * tmp41
        tmp43 = tl.load(in_ptr2 + (tl.broadcast_to(2*r0_3, [XBLOCK, R0_BLOCK])), r0_mask & tmp32, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp44 = tmp43.to(tl.float32)
        tmp45 = tmp42 * tmp44
        tmp46 = tmp45.to(tl.float32)
        tmp47 = tl.full(tmp46.shape, 0.0, tmp46.dtype)
        tmp48 = tl.where(tmp32, tmp46, tmp47)
        tmp49 = tl.where(tmp16, tmp31, tmp48)
        tmp50 = tl.load(in_ptr0 + (1 + 2*r0_3 + 128*x0), r0_mask & tmp16, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp51 = tmp50.to(tl.float32)
        tmp52 = (tmp4 / tmp19)
        tmp53 = tmp52 + tmp21
        tmp54 = libdevice.rsqrt(tmp53)
        tmp55 = tmp51 * tmp54
        tmp56 = tl.load(in_ptr3 + (tl.broadcast_to(1 + 2*r0_3, [XBLOCK, R0_BLOCK])), r0_mask & tmp16, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp57 = tmp56.to(tl.float32)
        tmp58 = tmp55 * tmp57
        tmp59 = tmp58.to(tl.float32)
        tmp60 = -tmp59
        tmp61 = tl.full(tmp60.shape, 0.0, tmp60.dtype)
        tmp62 = tl.where(tmp16, tmp60, tmp61)
        tmp63 = tl.load(in_ptr0 + (2*r0_3 + 128*x0), r0_mask & tmp32, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp64 = tmp63.to(tl.float32)
        tmp65 = (tmp4 / tmp37)
        tmp66 = tmp65 + tmp39
        tmp67 = libdevice.rsqrt(tmp66)
        tmp68 = tmp64 * tmp67
        tmp69 = tl.load(in_ptr3 + (tl.broadcast_to(2*r0_3, [XBLOCK, R0_BLOCK])), r0_mask & tmp32, eviction_policy='evict_last', other=0.0).to(tl.float32)
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
        tl.store(in_out_ptr0 + (r0_1 + 128*x0), tmp95, r0_mask)
        tl.store(in_out_ptr1 + (r0_1 + 128*x0), tmp111, r0_mask)


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
