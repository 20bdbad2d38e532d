
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
    size_hints={'x': 4096, 'r0_': 2048},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*bf16', 'in_ptr0': '*bf16', 'in_ptr1': '*bf16', 'in_ptr2': '*bf16', 'in_ptr3': '*bf16', 'in_ptr4': '*bf16', 'in_ptr5': '*fp32', 'ws_ptr': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'RSPLIT_SIZE': 'constexpr', 'NUM_STAGES': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=1, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]], (8,): [['tt.divisibility', 16]], (9,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'MixOrderReductionGrid', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused__to_copy_add_div_expand_mul_pow_sum_view_3', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 7, 'num_store': 0, 'num_reduction': 1, 'backend_hash': 'B01020984EF46027F076428F681AC854C238F082A1ADAFC2BE66262A647F68FA', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'RSPLIT_SIZE': 16, 'kernel_num_gb': 0.100683776, 'kernel_flop': 0}
)
@triton.jit
def triton_per_fused__to_copy_add_div_expand_mul_pow_sum_view_3(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, in_ptr5, ws_ptr, xnumel, r0_numel, XBLOCK : tl.constexpr, RSPLIT_SIZE : tl.constexpr, NUM_STAGES : tl.constexpr):
    xnumel = 4096
    r0_numel = 2048
    R0_BLOCK: tl.constexpr = 2048
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * RSPLIT_SIZE
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = tl.full([XBLOCK], True, tl.int1)[:, None]
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = tl.full([R0_BLOCK], True, tl.int1)[None, :]
    roffset = r0_offset
    rindex = r0_index
    r0_1 = r0_index
    accum0 = tl.full([R0_BLOCK], 0, tl.float32)[None, :]
    split_size = min(RSPLIT_SIZE, xnumel - xoffset)
    for _ in tl.range(0, split_size, XBLOCK, num_stages=NUM_STAGES):
        x0 = xindex
        xindex += XBLOCK
        tmp0 = tl.load(in_ptr0 + (r0_1 + 2048*x0), None).to(tl.float32)
        tmp1 = tl.load(in_ptr1 + (r0_1 + 2048*x0), None).to(tl.float32)
        tmp3 = tl.load(in_ptr2 + (r0_1 + 2048*x0), None).to(tl.float32)
        tmp5 = tl.load(in_ptr3 + (r0_1), None, eviction_policy='evict_last').to(tl.float32)
        tmp8 = tl.load(in_ptr4 + (r0_1 + 2048*x0), None).to(tl.float32)
        tmp14 = tl.load(in_out_ptr0 + (r0_1 + 2048*x0), None).to(tl.float32)
        tmp15 = tl.load(in_ptr5 + (x0), None, eviction_policy='evict_last')
        tmp2 = tmp0 + tmp1
        tmp4 = tmp2 + tmp3
        tmp6 = tmp4 * tmp5
        tmp7 = tmp6.to(tl.float32)
        tmp9 = tmp8.to(tl.float32)
        tmp10 = tmp7 * tmp9
        tmp11 = tl.broadcast_to(tmp10, [XBLOCK, R0_BLOCK])
        tmp13 = tl.sum(tmp11, 1)[:, None].to(tl.float32)
        tmp16 = tmp7 * tmp15
        tmp17 = tl.full([1, 1], -0.5, tl.float32)
        tmp18 = tmp13 * tmp17
        tmp19 = tmp15 * tmp15
        tmp20 = tmp19 * tmp15
        tmp21 = tmp18 * tmp20
        tmp22 = tl.full([1, 1], 0.00048828125, tl.float32)
        tmp23 = tmp21 * tmp22
        tmp24 = tl.full([1, 1], 2.0, tl.float32)
        tmp25 = tmp9 * tmp24
        tmp26 = tmp23 * tmp25
        tmp27 = tmp16 + tmp26
        tmp28 = tmp27.to(tl.float32)
        tmp29 = tmp14 + tmp28
        tmp30 = tmp9 * tmp15
        tmp31 = tmp30.to(tl.float32)
        tmp32 = tmp4 * tmp31
        tl.store(in_out_ptr0 + (r0_1 + 2048*x0), tmp29, None)
        tmp33 = tl.sum(tmp32, 0)
        tmp34 = accum0 + tmp33
        accum0 = tmp34
    tl.store(ws_ptr + (tl.program_id(0) + 0 * tl.num_programs(0)) * r0_numel + r0_index, accum0, r0_mask)


def get_args():
    arg_0 = rand_strided((2, 2048, 2048), (4194304, 2048, 1), device='cuda:1', dtype=torch.bfloat16)
    arg_1 = rand_strided((4096, 2048), (2048, 1), device='cuda:1', dtype=torch.bfloat16)
    arg_2 = rand_strided((4096, 2048), (2048, 1), device='cuda:1', dtype=torch.bfloat16)
    arg_3 = rand_strided((4096, 2048), (2048, 1), device='cuda:1', dtype=torch.bfloat16)
    arg_4 = rand_strided((2048,), (1,), device='cuda:1', dtype=torch.bfloat16)
    arg_5 = rand_strided((2, 2048, 2048), (4194304, 2048, 1), device='cuda:1', dtype=torch.bfloat16)
    arg_6 = rand_strided((2, 2048, 1), (2048, 1, 1), device='cuda:1', dtype=torch.float32)
    arg_7 = torch.zeros(524288, device='cuda:1', dtype=torch.float32)
    return arg_0, arg_1, arg_2, arg_3, arg_4, arg_5, arg_6, arg_7, 4096, 2048,


def call(args):
    with torch.cuda._DeviceGuard(1):
        torch.cuda.set_device(1)
        stream1 = get_raw_stream(1)
        triton_per_fused__to_copy_add_div_expand_mul_pow_sum_view_3.run(*args, stream=stream1)


def benchmark_all_configs(args):
    with torch.cuda._DeviceGuard(1):
        torch.cuda.set_device(1)
        return triton_per_fused__to_copy_add_div_expand_mul_pow_sum_view_3.benchmark_all_configs(*args)


if __name__ == '__main__':
    from torch._inductor.runtime.benchmarking import benchmarker

    args = get_args()
    ms = benchmarker.benchmark(lambda: call(args), device='cuda', rep=40)
    num_gb = 0.100683776
    gb_per_s = num_gb / (ms / 1e3)
    print(f"{ms:.3f}ms    {num_gb:.3f}GB    {gb_per_s:.2f}GB/s")
