
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties

@triton_heuristics.foreach(
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'in_ptr2': '*fp32', 'in_ptr3': '*fp32', 'in_ptr4': '*fp32', 'in_ptr5': '*fp32', 'in_ptr6': '*fp32', 'in_ptr7': '*fp32', 'in_ptr8': '*fp32', 'in_ptr9': '*fp32', 'in_ptr10': '*fp32', 'in_ptr11': '*fp32', 'in_ptr12': '*fp32', 'in_ptr13': '*fp32', 'in_ptr14': '*fp32', 'in_ptr15': '*fp32', 'in_ptr16': '*fp32', 'in_ptr17': '*fp32', 'in_ptr18': '*fp32', 'in_ptr19': '*fp32', 'in_ptr20': '*fp32', 'in_ptr21': '*fp32', 'in_ptr22': '*fp32', 'in_ptr23': '*fp32', 'in_ptr24': '*fp32', 'in_ptr25': '*fp32', 'in_ptr26': '*fp32', 'in_ptr27': '*fp32', 'in_ptr28': '*fp32', 'in_ptr29': '*fp32', 'in_ptr30': '*fp32', 'in_ptr31': '*fp32', 'in_ptr32': '*fp32', 'in_ptr33': '*fp32', 'in_ptr34': '*fp32', 'in_ptr35': '*fp32', 'in_ptr36': '*fp32', 'in_ptr37': '*fp32', 'in_ptr38': '*fp32', 'in_ptr39': '*fp32', 'in_ptr40': '*fp32', 'in_ptr41': '*fp32', 'in_ptr42': '*fp32', 'in_ptr43': '*fp32', 'in_ptr44': '*fp32', 'in_ptr45': '*fp32', 'in_ptr46': '*fp32', 'in_ptr47': '*fp32', 'in_ptr48': '*fp32', 'in_ptr49': '*fp32', 'in_ptr50': '*fp32', 'in_ptr51': '*fp32', 'in_ptr52': '*fp32', 'in_ptr53': '*fp32', 'in_ptr54': '*fp32', 'in_ptr55': '*fp32', 'in_ptr56': '*fp32', 'in_ptr57': '*fp32', 'in_ptr58': '*fp32', 'in_ptr59': '*fp32', 'in_ptr60': '*fp32', 'in_ptr61': '*fp32', 'in_ptr62': '*fp32', 'in_ptr63': '*fp32', 'in_ptr64': '*fp32', 'in_ptr65': '*fp32', 'in_ptr66': '*fp32', 'in_ptr67': '*fp32', 'in_ptr68': '*fp32', 'in_ptr69': '*fp32', 'in_ptr70': '*fp32', 'in_ptr71': '*fp32', 'in_ptr72': '*fp32', 'in_ptr73': '*fp32', 'in_ptr74': '*fp32', 'in_ptr75': '*fp32', 'in_ptr76': '*fp32', 'in_ptr77': '*fp32', 'in_ptr78': '*fp32', 'in_ptr79': '*fp32', 'in_ptr80': '*fp32', 'in_ptr81': '*fp32', 'in_ptr82': '*fp32', 'out_ptr0': '*fp32', 'out_ptr1': '*fp32', 'out_ptr2': '*fp32', 'out_ptr3': '*fp32', 'out_ptr4': '*fp32', 'out_ptr5': '*fp32', 'out_ptr6': '*fp32', 'out_ptr7': '*fp32', 'out_ptr8': '*fp32', 'out_ptr9': '*fp32', 'out_ptr10': '*fp32', 'out_ptr11': '*fp32', 'out_ptr12': '*fp32', 'out_ptr13': '*fp32', 'out_ptr14': '*fp32', 'out_ptr15': '*fp32', 'out_ptr16': '*fp32', 'out_ptr17': '*fp32', 'out_ptr18': '*fp32', 'out_ptr19': '*fp32', 'out_ptr20': '*fp32', 'out_ptr21': '*fp32', 'out_ptr22': '*fp32', 'out_ptr23': '*fp32', 'out_ptr24': '*fp32', 'out_ptr25': '*fp32', 'out_ptr26': '*fp32', 'out_ptr27': '*fp32', 'out_ptr28': '*fp32', 'out_ptr29': '*fp32', 'out_ptr30': '*fp32', 'out_ptr31': '*fp32', 'out_ptr32': '*fp32', 'out_ptr33': '*fp32', 'out_ptr34': '*fp32', 'out_ptr35': '*fp32', 'out_ptr36': '*fp32', 'out_ptr37': '*fp32', 'out_ptr38': '*fp32', 'out_ptr39': '*fp32', 'out_ptr40': '*fp32', 'out_ptr41': '*fp32', 'out_ptr42': '*fp32', 'out_ptr43': '*fp32', 'out_ptr44': '*fp32', 'out_ptr45': '*fp32', 'out_ptr46': '*fp32', 'out_ptr47': '*fp32', 'out_ptr48': '*fp32', 'out_ptr49': '*fp32', 'out_ptr50': '*fp32', 'out_ptr51': '*fp32', 'out_ptr52': '*fp32', 'out_ptr53': '*fp32', 'out_ptr54': '*fp32', 'out_ptr55': '*fp32', 'out_ptr56': '*fp32', 'out_ptr57': '*fp32', 'out_ptr58': '*fp32', 'out_ptr59': '*fp32', 'out_ptr60': '*fp32', 'out_ptr61': '*fp32', 'out_ptr62': '*fp32', 'out_ptr63': '*fp32', 'out_ptr64': '*fp32', 'out_ptr65': '*fp32', 'out_ptr66': '*fp32', 'out_ptr67': '*fp32', 'out_ptr68': '*fp32', 'out_ptr69': '*fp32', 'out_ptr70': '*fp32', 'out_ptr71': '*fp32', 'out_ptr72': '*fp32', 'out_ptr73': '*fp32', 'out_ptr74': '*fp32', 'out_ptr75': '*fp32', 'out_ptr76': '*fp32', 'out_ptr77': '*fp32', 'out_ptr78': '*fp32', 'out_ptr79': '*fp32', 'out_ptr80': '*fp32', 'out_ptr81': '*fp32', 'out_ptr82': '*fp32'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'enable_fp_fusion': True, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]], (8,): [['tt.divisibility', 16]], (9,): [['tt.divisibility', 16]], (10,): [['tt.divisibility', 16]], (11,): [['tt.divisibility', 16]], (12,): [['tt.divisibility', 16]], (13,): [['tt.divisibility', 16]], (14,): [['tt.divisibility', 16]], (15,): [['tt.divisibility', 16]], (16,): [['tt.divisibility', 16]], (17,): [['tt.divisibility', 16]], (18,): [['tt.divisibility', 16]], (19,): [['tt.divisibility', 16]], (20,): [['tt.divisibility', 16]], (21,): [['tt.divisibility', 16]], (22,): [['tt.divisibility', 16]], (23,): [['tt.divisibility', 16]], (24,): [['tt.divisibility', 16]], (25,): [['tt.divisibility', 16]], (26,): [['tt.divisibility', 16]], (27,): [['tt.divisibility', 16]], (28,): [['tt.divisibility', 16]], (29,): [['tt.divisibility', 16]], (30,): [['tt.divisibility', 16]], (31,): [['tt.divisibility', 16]], (32,): [['tt.divisibility', 16]], (33,): [['tt.divisibility', 16]], (34,): [['tt.divisibility', 16]], (35,): [['tt.divisibility', 16]], (36,): [['tt.divisibility', 16]], (37,): [['tt.divisibility', 16]], (38,): [['tt.divisibility', 16]], (39,): [['tt.divisibility', 16]], (40,): [['tt.divisibility', 16]], (41,): [['tt.divisibility', 16]], (42,): [['tt.divisibility', 16]], (43,): [['tt.divisibility', 16]], (44,): [['tt.divisibility', 16]], (45,): [['tt.divisibility', 16]], (46,): [['tt.divisibility', 16]], (47,): [['tt.divisibility', 16]], (48,): [['tt.divisibility', 16]], (49,): [['tt.divisibility', 16]], (50,): [['tt.divisibility', 16]], (51,): [['tt.divisibility', 16]], (52,): [['tt.divisibility', 16]], (53,): [['tt.divisibility', 16]], (54,): [['tt.divisibility', 16]], (55,): [['tt.divisibility', 16]], (56,): [['tt.divisibility', 16]], (57,): [['tt.divisibility', 16]], (58,): [['tt.divisibility', 16]], (59,): [['tt.divisibility', 16]], (60,): [['tt.divisibility', 16]], (61,): [['tt.divisibility', 16]], (62,): [['tt.divisibility', 16]], (63,): [['tt.divisibility', 16]], (64,): [['tt.divisibility', 16]], (65,): [['tt.divisibility', 16]], (66,): [['tt.divisibility', 16]], (67,): [['tt.divisibility', 16]], (68,): [['tt.divisibility', 16]], (69,): [['tt.divisibility', 16]], (70,): [['tt.divisibility', 16]], (71,): [['tt.divisibility', 16]], (72,): [['tt.divisibility', 16]], (73,): [['tt.divisibility', 16]], (74,): [['tt.divisibility', 16]], (75,): [['tt.divisibility', 16]], (76,): [['tt.divisibility', 16]], (77,): [['tt.divisibility', 16]], (78,): [['tt.divisibility', 16]], (79,): [['tt.divisibility', 16]], (80,): [['tt.divisibility', 16]], (81,): [['tt.divisibility', 16]], (82,): [['tt.divisibility', 16]], (83,): [['tt.divisibility', 16]], (84,): [['tt.divisibility', 16]], (85,): [['tt.divisibility', 16]], (86,): [['tt.divisibility', 16]], (87,): [['tt.divisibility', 16]], (88,): [['tt.divisibility', 16]], (89,): [['tt.divisibility', 16]], (90,): [['tt.divisibility', 16]], (91,): [['tt.divisibility', 16]], (92,): [['tt.divisibility', 16]], (93,): [['tt.divisibility', 16]], (94,): [['tt.divisibility', 16]], (95,): [['tt.divisibility', 16]], (96,): [['tt.divisibility', 16]], (97,): [['tt.divisibility', 16]], (98,): [['tt.divisibility', 16]], (99,): [['tt.divisibility', 16]], (100,): [['tt.divisibility', 16]], (101,): [['tt.divisibility', 16]], (102,): [['tt.divisibility', 16]], (103,): [['tt.divisibility', 16]], (104,): [['tt.divisibility', 16]], (105,): [['tt.divisibility', 16]], (106,): [['tt.divisibility', 16]], (107,): [['tt.divisibility', 16]], (108,): [['tt.divisibility', 16]], (109,): [['tt.divisibility', 16]], (110,): [['tt.divisibility', 16]], (111,): [['tt.divisibility', 16]], (112,): [['tt.divisibility', 16]], (113,): [['tt.divisibility', 16]], (114,): [['tt.divisibility', 16]], (115,): [['tt.divisibility', 16]], (116,): [['tt.divisibility', 16]], (117,): [['tt.divisibility', 16]], (118,): [['tt.divisibility', 16]], (119,): [['tt.divisibility', 16]], (120,): [['tt.divisibility', 16]], (121,): [['tt.divisibility', 16]], (122,): [['tt.divisibility', 16]], (123,): [['tt.divisibility', 16]], (124,): [['tt.divisibility', 16]], (125,): [['tt.divisibility', 16]], (126,): [['tt.divisibility', 16]], (127,): [['tt.divisibility', 16]], (128,): [['tt.divisibility', 16]], (129,): [['tt.divisibility', 16]], (130,): [['tt.divisibility', 16]], (131,): [['tt.divisibility', 16]], (132,): [['tt.divisibility', 16]], (133,): [['tt.divisibility', 16]], (134,): [['tt.divisibility', 16]], (135,): [['tt.divisibility', 16]], (136,): [['tt.divisibility', 16]], (137,): [['tt.divisibility', 16]], (138,): [['tt.divisibility', 16]], (139,): [['tt.divisibility', 16]], (140,): [['tt.divisibility', 16]], (141,): [['tt.divisibility', 16]], (142,): [['tt.divisibility', 16]], (143,): [['tt.divisibility', 16]], (144,): [['tt.divisibility', 16]], (145,): [['tt.divisibility', 16]], (146,): [['tt.divisibility', 16]], (147,): [['tt.divisibility', 16]], (148,): [['tt.divisibility', 16]], (149,): [['tt.divisibility', 16]], (150,): [['tt.divisibility', 16]], (151,): [['tt.divisibility', 16]], (152,): [['tt.divisibility', 16]], (153,): [['tt.divisibility', 16]], (154,): [['tt.divisibility', 16]], (155,): [['tt.divisibility', 16]], (156,): [['tt.divisibility', 16]], (157,): [['tt.divisibility', 16]], (158,): [['tt.divisibility', 16]], (159,): [['tt.divisibility', 16]], (160,): [['tt.divisibility', 16]], (161,): [['tt.divisibility', 16]], (162,): [['tt.divisibility', 16]], (163,): [['tt.divisibility', 16]], (164,): [['tt.divisibility', 16]], (165,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'SequentialComboKernelGrid', 'combo_grid_meta': {'num_kernels': 83, 'min_blocks': 0, 'default_config': {'XBLOCK': 1024}, 'no_x_dim_0': False, 'xnumel_0': 1, 'no_x_dim_1': False, 'xnumel_1': 1, 'no_x_dim_2': False, 'xnumel_2': 1, 'no_x_dim_3': False, 'xnumel_3': 1, 'no_x_dim_4': False, 'xnumel_4': 1, 'no_x_dim_5': False, 'xnumel_5': 1, 'no_x_dim_6': False, 'xnumel_6': 1, 'no_x_dim_7': False, 'xnumel_7': 1, 'no_x_dim_8': False, 'xnumel_8': 1, 'no_x_dim_9': False, 'xnumel_9': 1, 'no_x_dim_10': False, 'xnumel_10': 1, 'no_x_dim_11': False, 'xnumel_11': 1, 'no_x_dim_12': False, 'xnumel_12': 1, 'no_x_dim_13': False, 'xnumel_13': 1, 'no_x_dim_14': False, 'xnumel_14': 1, 'no_x_dim_15': False, 'xnumel_15': 1, 'no_x_dim_16': False, 'xnumel_16': 1, 'no_x_dim_17': False, 'xnumel_17': 1, 'no_x_dim_18': False, 'xnumel_18': 1, 'no_x_dim_19': False, 'xnumel_19': 1, 'no_x_dim_20': False, 'xnumel_20': 1, 'no_x_dim_21': False, 'xnumel_21': 1, 'no_x_dim_22': False, 'xnumel_22': 1, 'no_x_dim_23': False, 'xnumel_23': 1, 'no_x_dim_24': False, 'xnumel_24': 1, 'no_x_dim_25': False, 'xnumel_25': 1, 'no_x_dim_26': False, 'xnumel_26': 1, 'no_x_dim_27': False, 'xnumel_27': 1, 'no_x_dim_28': False, 'xnumel_28': 1, 'no_x_dim_29': False, 'xnumel_29': 1, 'no_x_dim_30': False, 'xnumel_30': 1, 'no_x_dim_31': False, 'xnumel_31': 1, 'no_x_dim_32': False, 'xnumel_32': 1, 'no_x_dim_33': False, 'xnumel_33': 1, 'no_x_dim_34': False, 'xnumel_34': 1, 'no_x_dim_35': False, 'xnumel_35': 1, 'no_x_dim_36': False, 'xnumel_36': 1, 'no_x_dim_37': False, 'xnumel_37': 1, 'no_x_dim_38': False, 'xnumel_38': 1, 'no_x_dim_39': False, 'xnumel_39': 1, 'no_x_dim_40': False, 'xnumel_40': 1, 'no_x_dim_41': False, 'xnumel_41': 1, 'no_x_dim_42': False, 'xnumel_42': 1, 'no_x_dim_43': False, 'xnumel_43': 1, 'no_x_dim_44': False, 'xnumel_44': 1, 'no_x_dim_45': False, 'xnumel_45': 1, 'no_x_dim_46': False, 'xnumel_46': 1, 'no_x_dim_47': False, 'xnumel_47': 1, 'no_x_dim_48': False, 'xnumel_48': 1, 'no_x_dim_49': False, 'xnumel_49': 1, 'no_x_dim_50': False, 'xnumel_50': 1, 'no_x_dim_51': False, 'xnumel_51': 1, 'no_x_dim_52': False, 'xnumel_52': 1, 'no_x_dim_53': False, 'xnumel_53': 1, 'no_x_dim_54': False, 'xnumel_54': 1, 'no_x_dim_55': False, 'xnumel_55': 1, 'no_x_dim_56': False, 'xnumel_56': 1, 'no_x_dim_57': False, 'xnumel_57': 1, 'no_x_dim_58': False, 'xnumel_58': 1, 'no_x_dim_59': False, 'xnumel_59': 1, 'no_x_dim_60': False, 'xnumel_60': 1, 'no_x_dim_61': False, 'xnumel_61': 1, 'no_x_dim_62': False, 'xnumel_62': 1, 'no_x_dim_63': False, 'xnumel_63': 1, 'no_x_dim_64': False, 'xnumel_64': 1, 'no_x_dim_65': False, 'xnumel_65': 1, 'no_x_dim_66': False, 'xnumel_66': 1, 'no_x_dim_67': False, 'xnumel_67': 1, 'no_x_dim_68': False, 'xnumel_68': 1, 'no_x_dim_69': False, 'xnumel_69': 1, 'no_x_dim_70': False, 'xnumel_70': 1, 'no_x_dim_71': False, 'xnumel_71': 1, 'no_x_dim_72': False, 'xnumel_72': 1, 'no_x_dim_73': False, 'xnumel_73': 1, 'no_x_dim_74': False, 'xnumel_74': 1, 'no_x_dim_75': False, 'xnumel_75': 1, 'no_x_dim_76': False, 'xnumel_76': 1, 'no_x_dim_77': False, 'xnumel_77': 1, 'no_x_dim_78': False, 'xnumel_78': 1, 'no_x_dim_79': False, 'xnumel_79': 1, 'no_x_dim_80': False, 'xnumel_80': 1, 'no_x_dim_81': False, 'xnumel_81': 1, 'no_x_dim_82': False, 'xnumel_82': 1}, 'kernel_name': 'triton_for_fused_0', 'mutated_arg_names': ['in_ptr0', 'in_ptr1', 'in_ptr10', 'in_ptr11', 'in_ptr12', 'in_ptr13', 'in_ptr14', 'in_ptr15', 'in_ptr16', 'in_ptr17', 'in_ptr18', 'in_ptr19', 'in_ptr2', 'in_ptr20', 'in_ptr21', 'in_ptr22', 'in_ptr23', 'in_ptr24', 'in_ptr25', 'in_ptr26', 'in_ptr27', 'in_ptr28', 'in_ptr29', 'in_ptr3', 'in_ptr30', 'in_ptr31', 'in_ptr32', 'in_ptr33', 'in_ptr34', 'in_ptr35', 'in_ptr36', 'in_ptr37', 'in_ptr38', 'in_ptr39', 'in_ptr4', 'in_ptr40', 'in_ptr41', 'in_ptr42', 'in_ptr43', 'in_ptr44', 'in_ptr45', 'in_ptr46', 'in_ptr47', 'in_ptr48', 'in_ptr49', 'in_ptr5', 'in_ptr50', 'in_ptr51', 'in_ptr52', 'in_ptr53', 'in_ptr54', 'in_ptr55', 'in_ptr56', 'in_ptr57', 'in_ptr58', 'in_ptr59', 'in_ptr6', 'in_ptr60', 'in_ptr61', 'in_ptr62', 'in_ptr63', 'in_ptr64', 'in_ptr65', 'in_ptr66', 'in_ptr67', 'in_ptr68', 'in_ptr69', 'in_ptr7', 'in_ptr70', 'in_ptr71', 'in_ptr72', 'in_ptr73', 'in_ptr74', 'in_ptr75', 'in_ptr76', 'in_ptr77', 'in_ptr78', 'in_ptr79', 'in_ptr8', 'in_ptr80', 'in_ptr81', 'in_ptr82', 'in_ptr9', 'out_ptr0', 'out_ptr1', 'out_ptr10', 'out_ptr11', 'out_ptr12', 'out_ptr13', 'out_ptr14', 'out_ptr15', 'out_ptr16', 'out_ptr17', 'out_ptr18', 'out_ptr19', 'out_ptr2', 'out_ptr20', 'out_ptr21', 'out_ptr22', 'out_ptr23', 'out_ptr24', 'out_ptr25', 'out_ptr26', 'out_ptr27', 'out_ptr28', 'out_ptr29', 'out_ptr3', 'out_ptr30', 'out_ptr31', 'out_ptr32', 'out_ptr33', 'out_ptr34', 'out_ptr35', 'out_ptr36', 'out_ptr37', 'out_ptr38', 'out_ptr39', 'out_ptr4', 'out_ptr40', 'out_ptr41', 'out_ptr42', 'out_ptr43', 'out_ptr44', 'out_ptr45', 'out_ptr46', 'out_ptr47', 'out_ptr48', 'out_ptr49', 'out_ptr5', 'out_ptr50', 'out_ptr51', 'out_ptr52', 'out_ptr53', 'out_ptr54', 'out_ptr55', 'out_ptr56', 'out_ptr57', 'out_ptr58', 'out_ptr59', 'out_ptr6', 'out_ptr60', 'out_ptr61', 'out_ptr62', 'out_ptr63', 'out_ptr64', 'out_ptr65', 'out_ptr66', 'out_ptr67', 'out_ptr68', 'out_ptr69', 'out_ptr7', 'out_ptr70', 'out_ptr71', 'out_ptr72', 'out_ptr73', 'out_ptr74', 'out_ptr75', 'out_ptr76', 'out_ptr77', 'out_ptr78', 'out_ptr79', 'out_ptr8', 'out_ptr80', 'out_ptr81', 'out_ptr82', 'out_ptr9'], 'backend_hash': 'B01020984EF46027F076428F681AC854C238F082A1ADAFC2BE66262A647F68FA', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False},
)
@triton.jit
def triton_for_fused_0(in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, in_ptr5, in_ptr6, in_ptr7, in_ptr8, in_ptr9, in_ptr10, in_ptr11, in_ptr12, in_ptr13, in_ptr14, in_ptr15, in_ptr16, in_ptr17, in_ptr18, in_ptr19, in_ptr20, in_ptr21, in_ptr22, in_ptr23, in_ptr24, in_ptr25, in_ptr26, in_ptr27, in_ptr28, in_ptr29, in_ptr30, in_ptr31, in_ptr32, in_ptr33, in_ptr34, in_ptr35, in_ptr36, in_ptr37, in_ptr38, in_ptr39, in_ptr40, in_ptr41, in_ptr42, in_ptr43, in_ptr44, in_ptr45, in_ptr46, in_ptr47, in_ptr48, in_ptr49, in_ptr50, in_ptr51, in_ptr52, in_ptr53, in_ptr54, in_ptr55, in_ptr56, in_ptr57, in_ptr58, in_ptr59, in_ptr60, in_ptr61, in_ptr62, in_ptr63, in_ptr64, in_ptr65, in_ptr66, in_ptr67, in_ptr68, in_ptr69, in_ptr70, in_ptr71, in_ptr72, in_ptr73, in_ptr74, in_ptr75, in_ptr76, in_ptr77, in_ptr78, in_ptr79, in_ptr80, in_ptr81, in_ptr82, out_ptr0, out_ptr1, out_ptr2, out_ptr3, out_ptr4, out_ptr5, out_ptr6, out_ptr7, out_ptr8, out_ptr9, out_ptr10, out_ptr11, out_ptr12, out_ptr13, out_ptr14, out_ptr15, out_ptr16, out_ptr17, out_ptr18, out_ptr19, out_ptr20, out_ptr21, out_ptr22, out_ptr23, out_ptr24, out_ptr25, out_ptr26, out_ptr27, out_ptr28, out_ptr29, out_ptr30, out_ptr31, out_ptr32, out_ptr33, out_ptr34, out_ptr35, out_ptr36, out_ptr37, out_ptr38, out_ptr39, out_ptr40, out_ptr41, out_ptr42, out_ptr43, out_ptr44, out_ptr45, out_ptr46, out_ptr47, out_ptr48, out_ptr49, out_ptr50, out_ptr51, out_ptr52, out_ptr53, out_ptr54, out_ptr55, out_ptr56, out_ptr57, out_ptr58, out_ptr59, out_ptr60, out_ptr61, out_ptr62, out_ptr63, out_ptr64, out_ptr65, out_ptr66, out_ptr67, out_ptr68, out_ptr69, out_ptr70, out_ptr71, out_ptr72, out_ptr73, out_ptr74, out_ptr75, out_ptr76, out_ptr77, out_ptr78, out_ptr79, out_ptr80, out_ptr81, out_ptr82):
    pid = tl.program_id(0)
    XBLOCK: tl.constexpr = 1024
    num_xblocks_0 = tl.cdiv(1, XBLOCK)
    num_xblocks_1 = num_xblocks_0 + tl.cdiv(1, XBLOCK)
    num_xblocks_2 = num_xblocks_1 + tl.cdiv(1, XBLOCK)
    num_xblocks_3 = num_xblocks_2 + tl.cdiv(1, XBLOCK)
    num_xblocks_4 = num_xblocks_3 + tl.cdiv(1, XBLOCK)
    num_xblocks_5 = num_xblocks_4 + tl.cdiv(1, XBLOCK)
    num_xblocks_6 = num_xblocks_5 + tl.cdiv(1, XBLOCK)
    num_xblocks_7 = num_xblocks_6 + tl.cdiv(1, XBLOCK)
    num_xblocks_8 = num_xblocks_7 + tl.cdiv(1, XBLOCK)
    num_xblocks_9 = num_xblocks_8 + tl.cdiv(1, XBLOCK)
    num_xblocks_10 = num_xblocks_9 + tl.cdiv(1, XBLOCK)
    num_xblocks_11 = num_xblocks_10 + tl.cdiv(1, XBLOCK)
    num_xblocks_12 = num_xblocks_11 + tl.cdiv(1, XBLOCK)
    num_xblocks_13 = num_xblocks_12 + tl.cdiv(1, XBLOCK)
    num_xblocks_14 = num_xblocks_13 + tl.cdiv(1, XBLOCK)
    num_xblocks_15 = num_xblocks_14 + tl.cdiv(1, XBLOCK)
    num_xblocks_16 = num_xblocks_15 + tl.cdiv(1, XBLOCK)
    num_xblocks_17 = num_xblocks_16 + tl.cdiv(1, XBLOCK)
    num_xblocks_18 = num_xblocks_17 + tl.cdiv(1, XBLOCK)
    num_xblocks_19 = num_xblocks_18 + tl.cdiv(1, XBLOCK)
    num_xblocks_20 = num_xblocks_19 + tl.cdiv(1, XBLOCK)
    num_xblocks_21 = num_xblocks_20 + tl.cdiv(1, XBLOCK)
    num_xblocks_22 = num_xblocks_21 + tl.cdiv(1, XBLOCK)
    num_xblocks_23 = num_xblocks_22 + tl.cdiv(1, XBLOCK)
    num_xblocks_24 = num_xblocks_23 + tl.cdiv(1, XBLOCK)
    num_xblocks_25 = num_xblocks_24 + tl.cdiv(1, XBLOCK)
    num_xblocks_26 = num_xblocks_25 + tl.cdiv(1, XBLOCK)
    num_xblocks_27 = num_xblocks_26 + tl.cdiv(1, XBLOCK)
    num_xblocks_28 = num_xblocks_27 + tl.cdiv(1, XBLOCK)
    num_xblocks_29 = num_xblocks_28 + tl.cdiv(1, XBLOCK)
    num_xblocks_30 = num_xblocks_29 + tl.cdiv(1, XBLOCK)
    num_xblocks_31 = num_xblocks_30 + tl.cdiv(1, XBLOCK)
    num_xblocks_32 = num_xblocks_31 + tl.cdiv(1, XBLOCK)
    num_xblocks_33 = num_xblocks_32 + tl.cdiv(1, XBLOCK)
    num_xblocks_34 = num_xblocks_33 + tl.cdiv(1, XBLOCK)
    num_xblocks_35 = num_xblocks_34 + tl.cdiv(1, XBLOCK)
    num_xblocks_36 = num_xblocks_35 + tl.cdiv(1, XBLOCK)
    num_xblocks_37 = num_xblocks_36 + tl.cdiv(1, XBLOCK)
    num_xblocks_38 = num_xblocks_37 + tl.cdiv(1, XBLOCK)
    num_xblocks_39 = num_xblocks_38 + tl.cdiv(1, XBLOCK)
    num_xblocks_40 = num_xblocks_39 + tl.cdiv(1, XBLOCK)
    num_xblocks_41 = num_xblocks_40 + tl.cdiv(1, XBLOCK)
    num_xblocks_42 = num_xblocks_41 + tl.cdiv(1, XBLOCK)
    num_xblocks_43 = num_xblocks_42 + tl.cdiv(1, XBLOCK)
    num_xblocks_44 = num_xblocks_43 + tl.cdiv(1, XBLOCK)
    num_xblocks_45 = num_xblocks_44 + tl.cdiv(1, XBLOCK)
    num_xblocks_46 = num_xblocks_45 + tl.cdiv(1, XBLOCK)
    num_xblocks_47 = num_xblocks_46 + tl.cdiv(1, XBLOCK)
    num_xblocks_48 = num_xblocks_47 + tl.cdiv(1, XBLOCK)
    num_xblocks_49 = num_xblocks_48 + tl.cdiv(1, XBLOCK)
    num_xblocks_50 = num_xblocks_49 + tl.cdiv(1, XBLOCK)
    num_xblocks_51 = num_xblocks_50 + tl.cdiv(1, XBLOCK)
    num_xblocks_52 = num_xblocks_51 + tl.cdiv(1, XBLOCK)
    num_xblocks_53 = num_xblocks_52 + tl.cdiv(1, XBLOCK)
    num_xblocks_54 = num_xblocks_53 + tl.cdiv(1, XBLOCK)
    num_xblocks_55 = num_xblocks_54 + tl.cdiv(1, XBLOCK)
    num_xblocks_56 = num_xblocks_55 + tl.cdiv(1, XBLOCK)
    num_xblocks_57 = num_xblocks_56 + tl.cdiv(1, XBLOCK)
    num_xblocks_58 = num_xblocks_57 + tl.cdiv(1, XBLOCK)
    num_xblocks_59 = num_xblocks_58 + tl.cdiv(1, XBLOCK)
    num_xblocks_60 = num_xblocks_59 + tl.cdiv(1, XBLOCK)
    num_xblocks_61 = num_xblocks_60 + tl.cdiv(1, XBLOCK)
    num_xblocks_62 = num_xblocks_61 + tl.cdiv(1, XBLOCK)
    num_xblocks_63 = num_xblocks_62 + tl.cdiv(1, XBLOCK)
    num_xblocks_64 = num_xblocks_63 + tl.cdiv(1, XBLOCK)
    num_xblocks_65 = num_xblocks_64 + tl.cdiv(1, XBLOCK)
    num_xblocks_66 = num_xblocks_65 + tl.cdiv(1, XBLOCK)
    num_xblocks_67 = num_xblocks_66 + tl.cdiv(1, XBLOCK)
    num_xblocks_68 = num_xblocks_67 + tl.cdiv(1, XBLOCK)
    num_xblocks_69 = num_xblocks_68 + tl.cdiv(1, XBLOCK)
    num_xblocks_70 = num_xblocks_69 + tl.cdiv(1, XBLOCK)
    num_xblocks_71 = num_xblocks_70 + tl.cdiv(1, XBLOCK)
    num_xblocks_72 = num_xblocks_71 + tl.cdiv(1, XBLOCK)
    num_xblocks_73 = num_xblocks_72 + tl.cdiv(1, XBLOCK)
    num_xblocks_74 = num_xblocks_73 + tl.cdiv(1, XBLOCK)
    num_xblocks_75 = num_xblocks_74 + tl.cdiv(1, XBLOCK)
    num_xblocks_76 = num_xblocks_75 + tl.cdiv(1, XBLOCK)
    num_xblocks_77 = num_xblocks_76 + tl.cdiv(1, XBLOCK)
    num_xblocks_78 = num_xblocks_77 + tl.cdiv(1, XBLOCK)
    num_xblocks_79 = num_xblocks_78 + tl.cdiv(1, XBLOCK)
    num_xblocks_80 = num_xblocks_79 + tl.cdiv(1, XBLOCK)
    num_xblocks_81 = num_xblocks_80 + tl.cdiv(1, XBLOCK)
    num_xblocks_82 = num_xblocks_81 + tl.cdiv(1, XBLOCK)
    if pid < num_xblocks_0:
        pid_offset = pid
        xnumel = 1
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        tmp0 = tl.load(in_ptr0 + (0))
        tmp1 = tl.broadcast_to(tmp0, [XBLOCK])
        tmp2 = tl.where(xmask, tmp1, 0.0)
        tmp3 = tl.full([1], 1.0, tl.float32)
        tmp4 = tmp2 + tmp3
        tl.store(out_ptr0 + (tl.full([XBLOCK], 0, tl.int32).broadcast_to([XBLOCK])), tmp4, xmask)
    elif pid < num_xblocks_1:
        pid_offset = pid - num_xblocks_0
        xnumel = 1
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        tmp5 = tl.load(in_ptr1 + (0))
        tmp6 = tl.broadcast_to(tmp5, [XBLOCK])
        tmp7 = tl.where(xmask, tmp6, 0.0)
        tmp8 = tl.full([1], 1.0, tl.float32)
        tmp9 = tmp7 + tmp8
        tl.store(out_ptr1 + (tl.full([XBLOCK], 0, tl.int32).broadcast_to([XBLOCK])), tmp9, xmask)
    elif pid < num_xblocks_2:
        pid_offset = pid - num_xblocks_1
        xnumel = 1
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        tmp10 = tl.load(in_ptr2 + (0))
        tmp11 = tl.broadcast_to(tmp10, [XBLOCK])
        tmp12 = tl.where(xmask, tmp11, 0.0)
        tmp13 = tl.full([1], 1.0, tl.float32)
        tmp14 = tmp12 + tmp13
        tl.store(out_ptr2 + (tl.full([XBLOCK], 0, tl.int32).broadcast_to([XBLOCK])), tmp14, xmask)
    elif pid < num_xblocks_3:
        pid_offset = pid - num_xblocks_2
        xnumel = 1
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        tmp15 = tl.load(in_ptr3 + (0))
        tmp16 = tl.broadcast_to(tmp15, [XBLOCK])
        tmp17 = tl.where(xmask, tmp16, 0.0)
        tmp18 = tl.full([1], 1.0, tl.float32)
        tmp19 = tmp17 + tmp18
        tl.store(out_ptr3 + (tl.full([XBLOCK], 0, tl.int32).broadcast_to([XBLOCK])), tmp19, xmask)
    elif pid < num_xblocks_4:
        pid_offset = pid - num_xblocks_3
        xnumel = 1
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        tmp20 = tl.load(in_ptr4 + (0))
        tmp21 = tl.broadcast_to(tmp20, [XBLOCK])
        tmp22 = tl.where(xmask, tmp21, 0.0)
        tmp23 = tl.full([1], 1.0, tl.float32)
        tmp24 = tmp22 + tmp23
        tl.store(out_ptr4 + (tl.full([XBLOCK], 0, tl.int32).broadcast_to([XBLOCK])), tmp24, xmask)
    elif pid < num_xblocks_5:
        pid_offset = pid - num_xblocks_4
        xnumel = 1
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        tmp25 = tl.load(in_ptr5 + (0))
        tmp26 = tl.broadcast_to(tmp25, [XBLOCK])
        tmp27 = tl.where(xmask, tmp26, 0.0)
        tmp28 = tl.full([1], 1.0, tl.float32)
        tmp29 = tmp27 + tmp28
        tl.store(out_ptr5 + (tl.full([XBLOCK], 0, tl.int32).broadcast_to([XBLOCK])), tmp29, xmask)
    elif pid < num_xblocks_6:
        pid_offset = pid - num_xblocks_5
        xnumel = 1
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        tmp30 = tl.load(in_ptr6 + (0))
        tmp31 = tl.broadcast_to(tmp30, [XBLOCK])
        tmp32 = tl.where(xmask, tmp31, 0.0)
        tmp33 = tl.full([1], 1.0, tl.float32)
        tmp34 = tmp32 + tmp33
        tl.store(out_ptr6 + (tl.full([XBLOCK], 0, tl.int32).broadcast_to([XBLOCK])), tmp34, xmask)
    elif pid < num_xblocks_7:
        pid_offset = pid - num_xblocks_6
        xnumel = 1
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        tmp35 = tl.load(in_ptr7 + (0))
        tmp36 = tl.broadcast_to(tmp35, [XBLOCK])
        tmp37 = tl.where(xmask, tmp36, 0.0)
        tmp38 = tl.full([1], 1.0, tl.float32)
        tmp39 = tmp37 + tmp38
        tl.store(out_ptr7 + (tl.full([XBLOCK], 0, tl.int32).broadcast_to([XBLOCK])), tmp39, xmask)
    elif pid < num_xblocks_8:
        pid_offset = pid - num_xblocks_7
        xnumel = 1
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        tmp40 = tl.load(in_ptr8 + (0))
        tmp41 = tl.broadcast_to(tmp40, [XBLOCK])
        tmp42 = tl.where(xmask, tmp41, 0.0)
        tmp43 = tl.full([1], 1.0, tl.float32)
        tmp44 = tmp42 + tmp43
        tl.store(out_ptr8 + (tl.full([XBLOCK], 0, tl.int32).broadcast_to([XBLOCK])), tmp44, xmask)
    elif pid < num_xblocks_9:
        pid_offset = pid - num_xblocks_8
        xnumel = 1
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        tmp45 = tl.load(in_ptr9 + (0))
        tmp46 = tl.broadcast_to(tmp45, [XBLOCK])
        tmp47 = tl.where(xmask, tmp46, 0.0)
        tmp48 = tl.full([1], 1.0, tl.float32)
        tmp49 = tmp47 + tmp48
        tl.store(out_ptr9 + (tl.full([XBLOCK], 0, tl.int32).broadcast_to([XBLOCK])), tmp49, xmask)
    elif pid < num_xblocks_10:
        pid_offset = pid - num_xblocks_9
        xnumel = 1
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        tmp50 = tl.load(in_ptr10 + (0))
        tmp51 = tl.broadcast_to(tmp50, [XBLOCK])
        tmp52 = tl.where(xmask, tmp51, 0.0)
        tmp53 = tl.full([1], 1.0, tl.float32)
        tmp54 = tmp52 + tmp53
        tl.store(out_ptr10 + (tl.full([XBLOCK], 0, tl.int32).broadcast_to([XBLOCK])), tmp54, xmask)
    elif pid < num_xblocks_11:
        pid_offset = pid - num_xblocks_10
        xnumel = 1
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        tmp55 = tl.load(in_ptr11 + (0))
        tmp56 = tl.broadcast_to(tmp55, [XBLOCK])
        tmp57 = tl.where(xmask, tmp56, 0.0)
        tmp58 = tl.full([1], 1.0, tl.float32)
        tmp59 = tmp57 + tmp58
        tl.store(out_ptr11 + (tl.full([XBLOCK], 0, tl.int32).broadcast_to([XBLOCK])), tmp59, xmask)
    elif pid < num_xblocks_12:
        pid_offset = pid - num_xblocks_11
        xnumel = 1
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        tmp60 = tl.load(in_ptr12 + (0))
        tmp61 = tl.broadcast_to(tmp60, [XBLOCK])
        tmp62 = tl.where(xmask, tmp61, 0.0)
        tmp63 = tl.full([1], 1.0, tl.float32)
        tmp64 = tmp62 + tmp63
        tl.store(out_ptr12 + (tl.full([XBLOCK], 0, tl.int32).broadcast_to([XBLOCK])), tmp64, xmask)
    elif pid < num_xblocks_13:
        pid_offset = pid - num_xblocks_12
        xnumel = 1
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        tmp65 = tl.load(in_ptr13 + (0))
        tmp66 = tl.broadcast_to(tmp65, [XBLOCK])
        tmp67 = tl.where(xmask, tmp66, 0.0)
        tmp68 = tl.full([1], 1.0, tl.float32)
        tmp69 = tmp67 + tmp68
        tl.store(out_ptr13 + (tl.full([XBLOCK], 0, tl.int32).broadcast_to([XBLOCK])), tmp69, xmask)
    elif pid < num_xblocks_14:
        pid_offset = pid - num_xblocks_13
        xnumel = 1
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        tmp70 = tl.load(in_ptr14 + (0))
        tmp71 = tl.broadcast_to(tmp70, [XBLOCK])
        tmp72 = tl.where(xmask, tmp71, 0.0)
        tmp73 = tl.full([1], 1.0, tl.float32)
        tmp74 = tmp72 + tmp73
        tl.store(out_ptr14 + (tl.full([XBLOCK], 0, tl.int32).broadcast_to([XBLOCK])), tmp74, xmask)
    elif pid < num_xblocks_15:
        pid_offset = pid - num_xblocks_14
        xnumel = 1
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        tmp75 = tl.load(in_ptr15 + (0))
        tmp76 = tl.broadcast_to(tmp75, [XBLOCK])
        tmp77 = tl.where(xmask, tmp76, 0.0)
        tmp78 = tl.full([1], 1.0, tl.float32)
        tmp79 = tmp77 + tmp78
        tl.store(out_ptr15 + (tl.full([XBLOCK], 0, tl.int32).broadcast_to([XBLOCK])), tmp79, xmask)
    elif pid < num_xblocks_16:
        pid_offset = pid - num_xblocks_15
        xnumel = 1
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        tmp80 = tl.load(in_ptr16 + (0))
        tmp81 = tl.broadcast_to(tmp80, [XBLOCK])
        tmp82 = tl.where(xmask, tmp81, 0.0)
        tmp83 = tl.full([1], 1.0, tl.float32)
        tmp84 = tmp82 + tmp83
        tl.store(out_ptr16 + (tl.full([XBLOCK], 0, tl.int32).broadcast_to([XBLOCK])), tmp84, xmask)
    elif pid < num_xblocks_17:
        pid_offset = pid - num_xblocks_16
        xnumel = 1
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        tmp85 = tl.load(in_ptr17 + (0))
        tmp86 = tl.broadcast_to(tmp85, [XBLOCK])
        tmp87 = tl.where(xmask, tmp86, 0.0)
        tmp88 = tl.full([1], 1.0, tl.float32)
        tmp89 = tmp87 + tmp88
        tl.store(out_ptr17 + (tl.full([XBLOCK], 0, tl.int32).broadcast_to([XBLOCK])), tmp89, xmask)
    elif pid < num_xblocks_18:
        pid_offset = pid - num_xblocks_17
        xnumel = 1
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        tmp90 = tl.load(in_ptr18 + (0))
        tmp91 = tl.broadcast_to(tmp90, [XBLOCK])
        tmp92 = tl.where(xmask, tmp91, 0.0)
        tmp93 = tl.full([1], 1.0, tl.float32)
        tmp94 = tmp92 + tmp93
        tl.store(out_ptr18 + (tl.full([XBLOCK], 0, tl.int32).broadcast_to([XBLOCK])), tmp94, xmask)
    elif pid < num_xblocks_19:
        pid_offset = pid - num_xblocks_18
        xnumel = 1
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        tmp95 = tl.load(in_ptr19 + (0))
        tmp96 = tl.broadcast_to(tmp95, [XBLOCK])
        tmp97 = tl.where(xmask, tmp96, 0.0)
        tmp98 = tl.full([1], 1.0, tl.float32)
        tmp99 = tmp97 + tmp98
        tl.store(out_ptr19 + (tl.full([XBLOCK], 0, tl.int32).broadcast_to([XBLOCK])), tmp99, xmask)
    elif pid < num_xblocks_20:
        pid_offset = pid - num_xblocks_19
        xnumel = 1
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        tmp100 = tl.load(in_ptr20 + (0))
        tmp101 = tl.broadcast_to(tmp100, [XBLOCK])
        tmp102 = tl.where(xmask, tmp101, 0.0)
        tmp103 = tl.full([1], 1.0, tl.float32)
        tmp104 = tmp102 + tmp103
        tl.store(out_ptr20 + (tl.full([XBLOCK], 0, tl.int32).broadcast_to([XBLOCK])), tmp104, xmask)
    elif pid < num_xblocks_21:
        pid_offset = pid - num_xblocks_20
        xnumel = 1
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        tmp105 = tl.load(in_ptr21 + (0))
        tmp106 = tl.broadcast_to(tmp105, [XBLOCK])
        tmp107 = tl.where(xmask, tmp106, 0.0)
        tmp108 = tl.full([1], 1.0, tl.float32)
        tmp109 = tmp107 + tmp108
        tl.store(out_ptr21 + (tl.full([XBLOCK], 0, tl.int32).broadcast_to([XBLOCK])), tmp109, xmask)
    elif pid < num_xblocks_22:
        pid_offset = pid - num_xblocks_21
        xnumel = 1
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        tmp110 = tl.load(in_ptr22 + (0))
        tmp111 = tl.broadcast_to(tmp110, [XBLOCK])
        tmp112 = tl.where(xmask, tmp111, 0.0)
        tmp113 = tl.full([1], 1.0, tl.float32)
        tmp114 = tmp112 + tmp113
        tl.store(out_ptr22 + (tl.full([XBLOCK], 0, tl.int32).broadcast_to([XBLOCK])), tmp114, xmask)
    elif pid < num_xblocks_23:
        pid_offset = pid - num_xblocks_22
        xnumel = 1
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        tmp115 = tl.load(in_ptr23 + (0))
        tmp116 = tl.broadcast_to(tmp115, [XBLOCK])
        tmp117 = tl.where(xmask, tmp116, 0.0)
        tmp118 = tl.full([1], 1.0, tl.float32)
        tmp119 = tmp117 + tmp118
        tl.store(out_ptr23 + (tl.full([XBLOCK], 0, tl.int32).broadcast_to([XBLOCK])), tmp119, xmask)
    elif pid < num_xblocks_24:
        pid_offset = pid - num_xblocks_23
        xnumel = 1
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        tmp120 = tl.load(in_ptr24 + (0))
        tmp121 = tl.broadcast_to(tmp120, [XBLOCK])
        tmp122 = tl.where(xmask, tmp121, 0.0)
        tmp123 = tl.full([1], 1.0, tl.float32)
        tmp124 = tmp122 + tmp123
        tl.store(out_ptr24 + (tl.full([XBLOCK], 0, tl.int32).broadcast_to([XBLOCK])), tmp124, xmask)
    elif pid < num_xblocks_25:
        pid_offset = pid - num_xblocks_24
        xnumel = 1
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        tmp125 = tl.load(in_ptr25 + (0))
        tmp126 = tl.broadcast_to(tmp125, [XBLOCK])
        tmp127 = tl.where(xmask, tmp126, 0.0)
        tmp128 = tl.full([1], 1.0, tl.float32)
        tmp129 = tmp127 + tmp128
        tl.store(out_ptr25 + (tl.full([XBLOCK], 0, tl.int32).broadcast_to([XBLOCK])), tmp129, xmask)
    elif pid < num_xblocks_26:
        pid_offset = pid - num_xblocks_25
        xnumel = 1
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        tmp130 = tl.load(in_ptr26 + (0))
        tmp131 = tl.broadcast_to(tmp130, [XBLOCK])
        tmp132 = tl.where(xmask, tmp131, 0.0)
        tmp133 = tl.full([1], 1.0, tl.float32)
        tmp134 = tmp132 + tmp133
        tl.store(out_ptr26 + (tl.full([XBLOCK], 0, tl.int32).broadcast_to([XBLOCK])), tmp134, xmask)
    elif pid < num_xblocks_27:
        pid_offset = pid - num_xblocks_26
        xnumel = 1
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        tmp135 = tl.load(in_ptr27 + (0))
        tmp136 = tl.broadcast_to(tmp135, [XBLOCK])
        tmp137 = tl.where(xmask, tmp136, 0.0)
        tmp138 = tl.full([1], 1.0, tl.float32)
        tmp139 = tmp137 + tmp138
        tl.store(out_ptr27 + (tl.full([XBLOCK], 0, tl.int32).broadcast_to([XBLOCK])), tmp139, xmask)
    elif pid < num_xblocks_28:
        pid_offset = pid - num_xblocks_27
        xnumel = 1
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        tmp140 = tl.load(in_ptr28 + (0))
        tmp141 = tl.broadcast_to(tmp140, [XBLOCK])
        tmp142 = tl.where(xmask, tmp141, 0.0)
        tmp143 = tl.full([1], 1.0, tl.float32)
        tmp144 = tmp142 + tmp143
        tl.store(out_ptr28 + (tl.full([XBLOCK], 0, tl.int32).broadcast_to([XBLOCK])), tmp144, xmask)
    elif pid < num_xblocks_29:
        pid_offset = pid - num_xblocks_28
        xnumel = 1
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        tmp145 = tl.load(in_ptr29 + (0))
        tmp146 = tl.broadcast_to(tmp145, [XBLOCK])
        tmp147 = tl.where(xmask, tmp146, 0.0)
        tmp148 = tl.full([1], 1.0, tl.float32)
        tmp149 = tmp147 + tmp148
        tl.store(out_ptr29 + (tl.full([XBLOCK], 0, tl.int32).broadcast_to([XBLOCK])), tmp149, xmask)
    elif pid < num_xblocks_30:
        pid_offset = pid - num_xblocks_29
        xnumel = 1
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        tmp150 = tl.load(in_ptr30 + (0))
        tmp151 = tl.broadcast_to(tmp150, [XBLOCK])
        tmp152 = tl.where(xmask, tmp151, 0.0)
        tmp153 = tl.full([1], 1.0, tl.float32)
        tmp154 = tmp152 + tmp153
        tl.store(out_ptr30 + (tl.full([XBLOCK], 0, tl.int32).broadcast_to([XBLOCK])), tmp154, xmask)
    elif pid < num_xblocks_31:
        pid_offset = pid - num_xblocks_30
        xnumel = 1
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        tmp155 = tl.load(in_ptr31 + (0))
        tmp156 = tl.broadcast_to(tmp155, [XBLOCK])
        tmp157 = tl.where(xmask, tmp156, 0.0)
        tmp158 = tl.full([1], 1.0, tl.float32)
        tmp159 = tmp157 + tmp158
        tl.store(out_ptr31 + (tl.full([XBLOCK], 0, tl.int32).broadcast_to([XBLOCK])), tmp159, xmask)
    elif pid < num_xblocks_32:
        pid_offset = pid - num_xblocks_31
        xnumel = 1
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        tmp160 = tl.load(in_ptr32 + (0))
        tmp161 = tl.broadcast_to(tmp160, [XBLOCK])
        tmp162 = tl.where(xmask, tmp161, 0.0)
        tmp163 = tl.full([1], 1.0, tl.float32)
        tmp164 = tmp162 + tmp163
        tl.store(out_ptr32 + (tl.full([XBLOCK], 0, tl.int32).broadcast_to([XBLOCK])), tmp164, xmask)
    elif pid < num_xblocks_33:
        pid_offset = pid - num_xblocks_32
        xnumel = 1
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        tmp165 = tl.load(in_ptr33 + (0))
        tmp166 = tl.broadcast_to(tmp165, [XBLOCK])
        tmp167 = tl.where(xmask, tmp166, 0.0)
        tmp168 = tl.full([1], 1.0, tl.float32)
        tmp169 = tmp167 + tmp168
        tl.store(out_ptr33 + (tl.full([XBLOCK], 0, tl.int32).broadcast_to([XBLOCK])), tmp169, xmask)
    elif pid < num_xblocks_34:
        pid_offset = pid - num_xblocks_33
        xnumel = 1
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        tmp170 = tl.load(in_ptr34 + (0))
        tmp171 = tl.broadcast_to(tmp170, [XBLOCK])
        tmp172 = tl.where(xmask, tmp171, 0.0)
        tmp173 = tl.full([1], 1.0, tl.float32)
        tmp174 = tmp172 + tmp173
        tl.store(out_ptr34 + (tl.full([XBLOCK], 0, tl.int32).broadcast_to([XBLOCK])), tmp174, xmask)
    elif pid < num_xblocks_35:
        pid_offset = pid - num_xblocks_34
        xnumel = 1
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        tmp175 = tl.load(in_ptr35 + (0))
        tmp176 = tl.broadcast_to(tmp175, [XBLOCK])
        tmp177 = tl.where(xmask, tmp176, 0.0)
        tmp178 = tl.full([1], 1.0, tl.float32)
        tmp179 = tmp177 + tmp178
        tl.store(out_ptr35 + (tl.full([XBLOCK], 0, tl.int32).broadcast_to([XBLOCK])), tmp179, xmask)
    elif pid < num_xblocks_36:
        pid_offset = pid - num_xblocks_35
        xnumel = 1
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        tmp180 = tl.load(in_ptr36 + (0))
        tmp181 = tl.broadcast_to(tmp180, [XBLOCK])
        tmp182 = tl.where(xmask, tmp181, 0.0)
        tmp183 = tl.full([1], 1.0, tl.float32)
        tmp184 = tmp182 + tmp183
        tl.store(out_ptr36 + (tl.full([XBLOCK], 0, tl.int32).broadcast_to([XBLOCK])), tmp184, xmask)
    elif pid < num_xblocks_37:
        pid_offset = pid - num_xblocks_36
        xnumel = 1
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        tmp185 = tl.load(in_ptr37 + (0))
        tmp186 = tl.broadcast_to(tmp185, [XBLOCK])
        tmp187 = tl.where(xmask, tmp186, 0.0)
        tmp188 = tl.full([1], 1.0, tl.float32)
        tmp189 = tmp187 + tmp188
        tl.store(out_ptr37 + (tl.full([XBLOCK], 0, tl.int32).broadcast_to([XBLOCK])), tmp189, xmask)
    elif pid < num_xblocks_38:
        pid_offset = pid - num_xblocks_37
        xnumel = 1
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        tmp190 = tl.load(in_ptr38 + (0))
        tmp191 = tl.broadcast_to(tmp190, [XBLOCK])
        tmp192 = tl.where(xmask, tmp191, 0.0)
        tmp193 = tl.full([1], 1.0, tl.float32)
        tmp194 = tmp192 + tmp193
        tl.store(out_ptr38 + (tl.full([XBLOCK], 0, tl.int32).broadcast_to([XBLOCK])), tmp194, xmask)
    elif pid < num_xblocks_39:
        pid_offset = pid - num_xblocks_38
        xnumel = 1
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        tmp195 = tl.load(in_ptr39 + (0))
        tmp196 = tl.broadcast_to(tmp195, [XBLOCK])
        tmp197 = tl.where(xmask, tmp196, 0.0)
        tmp198 = tl.full([1], 1.0, tl.float32)
        tmp199 = tmp197 + tmp198
        tl.store(out_ptr39 + (tl.full([XBLOCK], 0, tl.int32).broadcast_to([XBLOCK])), tmp199, xmask)
    elif pid < num_xblocks_40:
        pid_offset = pid - num_xblocks_39
        xnumel = 1
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        tmp200 = tl.load(in_ptr40 + (0))
        tmp201 = tl.broadcast_to(tmp200, [XBLOCK])
        tmp202 = tl.where(xmask, tmp201, 0.0)
        tmp203 = tl.full([1], 1.0, tl.float32)
        tmp204 = tmp202 + tmp203
        tl.store(out_ptr40 + (tl.full([XBLOCK], 0, tl.int32).broadcast_to([XBLOCK])), tmp204, xmask)
    elif pid < num_xblocks_41:
        pid_offset = pid - num_xblocks_40
        xnumel = 1
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        tmp205 = tl.load(in_ptr41 + (0))
        tmp206 = tl.broadcast_to(tmp205, [XBLOCK])
        tmp207 = tl.where(xmask, tmp206, 0.0)
        tmp208 = tl.full([1], 1.0, tl.float32)
        tmp209 = tmp207 + tmp208
        tl.store(out_ptr41 + (tl.full([XBLOCK], 0, tl.int32).broadcast_to([XBLOCK])), tmp209, xmask)
    elif pid < num_xblocks_42:
        pid_offset = pid - num_xblocks_41
        xnumel = 1
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        tmp210 = tl.load(in_ptr42 + (0))
        tmp211 = tl.broadcast_to(tmp210, [XBLOCK])
        tmp212 = tl.where(xmask, tmp211, 0.0)
        tmp213 = tl.full([1], 1.0, tl.float32)
        tmp214 = tmp212 + tmp213
        tl.store(out_ptr42 + (tl.full([XBLOCK], 0, tl.int32).broadcast_to([XBLOCK])), tmp214, xmask)
    elif pid < num_xblocks_43:
        pid_offset = pid - num_xblocks_42
        xnumel = 1
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        tmp215 = tl.load(in_ptr43 + (0))
        tmp216 = tl.broadcast_to(tmp215, [XBLOCK])
        tmp217 = tl.where(xmask, tmp216, 0.0)
        tmp218 = tl.full([1], 1.0, tl.float32)
        tmp219 = tmp217 + tmp218
        tl.store(out_ptr43 + (tl.full([XBLOCK], 0, tl.int32).broadcast_to([XBLOCK])), tmp219, xmask)
    elif pid < num_xblocks_44:
        pid_offset = pid - num_xblocks_43
        xnumel = 1
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        tmp220 = tl.load(in_ptr44 + (0))
        tmp221 = tl.broadcast_to(tmp220, [XBLOCK])
        tmp222 = tl.where(xmask, tmp221, 0.0)
        tmp223 = tl.full([1], 1.0, tl.float32)
        tmp224 = tmp222 + tmp223
        tl.store(out_ptr44 + (tl.full([XBLOCK], 0, tl.int32).broadcast_to([XBLOCK])), tmp224, xmask)
    elif pid < num_xblocks_45:
        pid_offset = pid - num_xblocks_44
        xnumel = 1
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        tmp225 = tl.load(in_ptr45 + (0))
        tmp226 = tl.broadcast_to(tmp225, [XBLOCK])
        tmp227 = tl.where(xmask, tmp226, 0.0)
        tmp228 = tl.full([1], 1.0, tl.float32)
        tmp229 = tmp227 + tmp228
        tl.store(out_ptr45 + (tl.full([XBLOCK], 0, tl.int32).broadcast_to([XBLOCK])), tmp229, xmask)
    elif pid < num_xblocks_46:
        pid_offset = pid - num_xblocks_45
        xnumel = 1
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        tmp230 = tl.load(in_ptr46 + (0))
        tmp231 = tl.broadcast_to(tmp230, [XBLOCK])
        tmp232 = tl.where(xmask, tmp231, 0.0)
        tmp233 = tl.full([1], 1.0, tl.float32)
        tmp234 = tmp232 + tmp233
        tl.store(out_ptr46 + (tl.full([XBLOCK], 0, tl.int32).broadcast_to([XBLOCK])), tmp234, xmask)
    elif pid < num_xblocks_47:
        pid_offset = pid - num_xblocks_46
        xnumel = 1
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        tmp235 = tl.load(in_ptr47 + (0))
        tmp236 = tl.broadcast_to(tmp235, [XBLOCK])
        tmp237 = tl.where(xmask, tmp236, 0.0)
        tmp238 = tl.full([1], 1.0, tl.float32)
        tmp239 = tmp237 + tmp238
        tl.store(out_ptr47 + (tl.full([XBLOCK], 0, tl.int32).broadcast_to([XBLOCK])), tmp239, xmask)
    elif pid < num_xblocks_48:
        pid_offset = pid - num_xblocks_47
        xnumel = 1
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        tmp240 = tl.load(in_ptr48 + (0))
        tmp241 = tl.broadcast_to(tmp240, [XBLOCK])
        tmp242 = tl.where(xmask, tmp241, 0.0)
        tmp243 = tl.full([1], 1.0, tl.float32)
        tmp244 = tmp242 + tmp243
        tl.store(out_ptr48 + (tl.full([XBLOCK], 0, tl.int32).broadcast_to([XBLOCK])), tmp244, xmask)
    elif pid < num_xblocks_49:
        pid_offset = pid - num_xblocks_48
        xnumel = 1
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        tmp245 = tl.load(in_ptr49 + (0))
        tmp246 = tl.broadcast_to(tmp245, [XBLOCK])
        tmp247 = tl.where(xmask, tmp246, 0.0)
        tmp248 = tl.full([1], 1.0, tl.float32)
        tmp249 = tmp247 + tmp248
        tl.store(out_ptr49 + (tl.full([XBLOCK], 0, tl.int32).broadcast_to([XBLOCK])), tmp249, xmask)
    elif pid < num_xblocks_50:
        pid_offset = pid - num_xblocks_49
        xnumel = 1
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        tmp250 = tl.load(in_ptr50 + (0))
        tmp251 = tl.broadcast_to(tmp250, [XBLOCK])
        tmp252 = tl.where(xmask, tmp251, 0.0)
        tmp253 = tl.full([1], 1.0, tl.float32)
        tmp254 = tmp252 + tmp253
        tl.store(out_ptr50 + (tl.full([XBLOCK], 0, tl.int32).broadcast_to([XBLOCK])), tmp254, xmask)
    elif pid < num_xblocks_51:
        pid_offset = pid - num_xblocks_50
        xnumel = 1
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        tmp255 = tl.load(in_ptr51 + (0))
        tmp256 = tl.broadcast_to(tmp255, [XBLOCK])
        tmp257 = tl.where(xmask, tmp256, 0.0)
        tmp258 = tl.full([1], 1.0, tl.float32)
        tmp259 = tmp257 + tmp258
        tl.store(out_ptr51 + (tl.full([XBLOCK], 0, tl.int32).broadcast_to([XBLOCK])), tmp259, xmask)
    elif pid < num_xblocks_52:
        pid_offset = pid - num_xblocks_51
        xnumel = 1
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        tmp260 = tl.load(in_ptr52 + (0))
        tmp261 = tl.broadcast_to(tmp260, [XBLOCK])
        tmp262 = tl.where(xmask, tmp261, 0.0)
        tmp263 = tl.full([1], 1.0, tl.float32)
        tmp264 = tmp262 + tmp263
        tl.store(out_ptr52 + (tl.full([XBLOCK], 0, tl.int32).broadcast_to([XBLOCK])), tmp264, xmask)
    elif pid < num_xblocks_53:
        pid_offset = pid - num_xblocks_52
        xnumel = 1
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        tmp265 = tl.load(in_ptr53 + (0))
        tmp266 = tl.broadcast_to(tmp265, [XBLOCK])
        tmp267 = tl.where(xmask, tmp266, 0.0)
        tmp268 = tl.full([1], 1.0, tl.float32)
        tmp269 = tmp267 + tmp268
        tl.store(out_ptr53 + (tl.full([XBLOCK], 0, tl.int32).broadcast_to([XBLOCK])), tmp269, xmask)
    elif pid < num_xblocks_54:
        pid_offset = pid - num_xblocks_53
        xnumel = 1
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        tmp270 = tl.load(in_ptr54 + (0))
        tmp271 = tl.broadcast_to(tmp270, [XBLOCK])
        tmp272 = tl.where(xmask, tmp271, 0.0)
        tmp273 = tl.full([1], 1.0, tl.float32)
        tmp274 = tmp272 + tmp273
        tl.store(out_ptr54 + (tl.full([XBLOCK], 0, tl.int32).broadcast_to([XBLOCK])), tmp274, xmask)
    elif pid < num_xblocks_55:
        pid_offset = pid - num_xblocks_54
        xnumel = 1
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        tmp275 = tl.load(in_ptr55 + (0))
        tmp276 = tl.broadcast_to(tmp275, [XBLOCK])
        tmp277 = tl.where(xmask, tmp276, 0.0)
        tmp278 = tl.full([1], 1.0, tl.float32)
        tmp279 = tmp277 + tmp278
        tl.store(out_ptr55 + (tl.full([XBLOCK], 0, tl.int32).broadcast_to([XBLOCK])), tmp279, xmask)
    elif pid < num_xblocks_56:
        pid_offset = pid - num_xblocks_55
        xnumel = 1
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        tmp280 = tl.load(in_ptr56 + (0))
        tmp281 = tl.broadcast_to(tmp280, [XBLOCK])
        tmp282 = tl.where(xmask, tmp281, 0.0)
        tmp283 = tl.full([1], 1.0, tl.float32)
        tmp284 = tmp282 + tmp283
        tl.store(out_ptr56 + (tl.full([XBLOCK], 0, tl.int32).broadcast_to([XBLOCK])), tmp284, xmask)
    elif pid < num_xblocks_57:
        pid_offset = pid - num_xblocks_56
        xnumel = 1
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        tmp285 = tl.load(in_ptr57 + (0))
        tmp286 = tl.broadcast_to(tmp285, [XBLOCK])
        tmp287 = tl.where(xmask, tmp286, 0.0)
        tmp288 = tl.full([1], 1.0, tl.float32)
        tmp289 = tmp287 + tmp288
        tl.store(out_ptr57 + (tl.full([XBLOCK], 0, tl.int32).broadcast_to([XBLOCK])), tmp289, xmask)
    elif pid < num_xblocks_58:
        pid_offset = pid - num_xblocks_57
        xnumel = 1
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        tmp290 = tl.load(in_ptr58 + (0))
        tmp291 = tl.broadcast_to(tmp290, [XBLOCK])
        tmp292 = tl.where(xmask, tmp291, 0.0)
        tmp293 = tl.full([1], 1.0, tl.float32)
        tmp294 = tmp292 + tmp293
        tl.store(out_ptr58 + (tl.full([XBLOCK], 0, tl.int32).broadcast_to([XBLOCK])), tmp294, xmask)
    elif pid < num_xblocks_59:
        pid_offset = pid - num_xblocks_58
        xnumel = 1
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        tmp295 = tl.load(in_ptr59 + (0))
        tmp296 = tl.broadcast_to(tmp295, [XBLOCK])
        tmp297 = tl.where(xmask, tmp296, 0.0)
        tmp298 = tl.full([1], 1.0, tl.float32)
        tmp299 = tmp297 + tmp298
        tl.store(out_ptr59 + (tl.full([XBLOCK], 0, tl.int32).broadcast_to([XBLOCK])), tmp299, xmask)
    elif pid < num_xblocks_60:
        pid_offset = pid - num_xblocks_59
        xnumel = 1
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        tmp300 = tl.load(in_ptr60 + (0))
        tmp301 = tl.broadcast_to(tmp300, [XBLOCK])
        tmp302 = tl.where(xmask, tmp301, 0.0)
        tmp303 = tl.full([1], 1.0, tl.float32)
        tmp304 = tmp302 + tmp303
        tl.store(out_ptr60 + (tl.full([XBLOCK], 0, tl.int32).broadcast_to([XBLOCK])), tmp304, xmask)
    elif pid < num_xblocks_61:
        pid_offset = pid - num_xblocks_60
        xnumel = 1
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        tmp305 = tl.load(in_ptr61 + (0))
        tmp306 = tl.broadcast_to(tmp305, [XBLOCK])
        tmp307 = tl.where(xmask, tmp306, 0.0)
        tmp308 = tl.full([1], 1.0, tl.float32)
        tmp309 = tmp307 + tmp308
        tl.store(out_ptr61 + (tl.full([XBLOCK], 0, tl.int32).broadcast_to([XBLOCK])), tmp309, xmask)
    elif pid < num_xblocks_62:
        pid_offset = pid - num_xblocks_61
        xnumel = 1
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        tmp310 = tl.load(in_ptr62 + (0))
        tmp311 = tl.broadcast_to(tmp310, [XBLOCK])
        tmp312 = tl.where(xmask, tmp311, 0.0)
        tmp313 = tl.full([1], 1.0, tl.float32)
        tmp314 = tmp312 + tmp313
        tl.store(out_ptr62 + (tl.full([XBLOCK], 0, tl.int32).broadcast_to([XBLOCK])), tmp314, xmask)
    elif pid < num_xblocks_63:
        pid_offset = pid - num_xblocks_62
        xnumel = 1
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        tmp315 = tl.load(in_ptr63 + (0))
        tmp316 = tl.broadcast_to(tmp315, [XBLOCK])
        tmp317 = tl.where(xmask, tmp316, 0.0)
        tmp318 = tl.full([1], 1.0, tl.float32)
        tmp319 = tmp317 + tmp318
        tl.store(out_ptr63 + (tl.full([XBLOCK], 0, tl.int32).broadcast_to([XBLOCK])), tmp319, xmask)
    elif pid < num_xblocks_64:
        pid_offset = pid - num_xblocks_63
        xnumel = 1
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        tmp320 = tl.load(in_ptr64 + (0))
        tmp321 = tl.broadcast_to(tmp320, [XBLOCK])
        tmp322 = tl.where(xmask, tmp321, 0.0)
        tmp323 = tl.full([1], 1.0, tl.float32)
        tmp324 = tmp322 + tmp323
        tl.store(out_ptr64 + (tl.full([XBLOCK], 0, tl.int32).broadcast_to([XBLOCK])), tmp324, xmask)
    elif pid < num_xblocks_65:
        pid_offset = pid - num_xblocks_64
        xnumel = 1
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        tmp325 = tl.load(in_ptr65 + (0))
        tmp326 = tl.broadcast_to(tmp325, [XBLOCK])
        tmp327 = tl.where(xmask, tmp326, 0.0)
        tmp328 = tl.full([1], 1.0, tl.float32)
        tmp329 = tmp327 + tmp328
        tl.store(out_ptr65 + (tl.full([XBLOCK], 0, tl.int32).broadcast_to([XBLOCK])), tmp329, xmask)
    elif pid < num_xblocks_66:
        pid_offset = pid - num_xblocks_65
        xnumel = 1
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        tmp330 = tl.load(in_ptr66 + (0))
        tmp331 = tl.broadcast_to(tmp330, [XBLOCK])
        tmp332 = tl.where(xmask, tmp331, 0.0)
        tmp333 = tl.full([1], 1.0, tl.float32)
        tmp334 = tmp332 + tmp333
        tl.store(out_ptr66 + (tl.full([XBLOCK], 0, tl.int32).broadcast_to([XBLOCK])), tmp334, xmask)
    elif pid < num_xblocks_67:
        pid_offset = pid - num_xblocks_66
        xnumel = 1
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        tmp335 = tl.load(in_ptr67 + (0))
        tmp336 = tl.broadcast_to(tmp335, [XBLOCK])
        tmp337 = tl.where(xmask, tmp336, 0.0)
        tmp338 = tl.full([1], 1.0, tl.float32)
        tmp339 = tmp337 + tmp338
        tl.store(out_ptr67 + (tl.full([XBLOCK], 0, tl.int32).broadcast_to([XBLOCK])), tmp339, xmask)
    elif pid < num_xblocks_68:
        pid_offset = pid - num_xblocks_67
        xnumel = 1
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        tmp340 = tl.load(in_ptr68 + (0))
        tmp341 = tl.broadcast_to(tmp340, [XBLOCK])
        tmp342 = tl.where(xmask, tmp341, 0.0)
        tmp343 = tl.full([1], 1.0, tl.float32)
        tmp344 = tmp342 + tmp343
        tl.store(out_ptr68 + (tl.full([XBLOCK], 0, tl.int32).broadcast_to([XBLOCK])), tmp344, xmask)
    elif pid < num_xblocks_69:
        pid_offset = pid - num_xblocks_68
        xnumel = 1
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        tmp345 = tl.load(in_ptr69 + (0))
        tmp346 = tl.broadcast_to(tmp345, [XBLOCK])
        tmp347 = tl.where(xmask, tmp346, 0.0)
        tmp348 = tl.full([1], 1.0, tl.float32)
        tmp349 = tmp347 + tmp348
        tl.store(out_ptr69 + (tl.full([XBLOCK], 0, tl.int32).broadcast_to([XBLOCK])), tmp349, xmask)
    elif pid < num_xblocks_70:
        pid_offset = pid - num_xblocks_69
        xnumel = 1
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        tmp350 = tl.load(in_ptr70 + (0))
        tmp351 = tl.broadcast_to(tmp350, [XBLOCK])
        tmp352 = tl.where(xmask, tmp351, 0.0)
        tmp353 = tl.full([1], 1.0, tl.float32)
        tmp354 = tmp352 + tmp353
        tl.store(out_ptr70 + (tl.full([XBLOCK], 0, tl.int32).broadcast_to([XBLOCK])), tmp354, xmask)
    elif pid < num_xblocks_71:
        pid_offset = pid - num_xblocks_70
        xnumel = 1
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        tmp355 = tl.load(in_ptr71 + (0))
        tmp356 = tl.broadcast_to(tmp355, [XBLOCK])
        tmp357 = tl.where(xmask, tmp356, 0.0)
        tmp358 = tl.full([1], 1.0, tl.float32)
        tmp359 = tmp357 + tmp358
        tl.store(out_ptr71 + (tl.full([XBLOCK], 0, tl.int32).broadcast_to([XBLOCK])), tmp359, xmask)
    elif pid < num_xblocks_72:
        pid_offset = pid - num_xblocks_71
        xnumel = 1
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        tmp360 = tl.load(in_ptr72 + (0))
        tmp361 = tl.broadcast_to(tmp360, [XBLOCK])
        tmp362 = tl.where(xmask, tmp361, 0.0)
        tmp363 = tl.full([1], 1.0, tl.float32)
        tmp364 = tmp362 + tmp363
        tl.store(out_ptr72 + (tl.full([XBLOCK], 0, tl.int32).broadcast_to([XBLOCK])), tmp364, xmask)
    elif pid < num_xblocks_73:
        pid_offset = pid - num_xblocks_72
        xnumel = 1
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        tmp365 = tl.load(in_ptr73 + (0))
        tmp366 = tl.broadcast_to(tmp365, [XBLOCK])
        tmp367 = tl.where(xmask, tmp366, 0.0)
        tmp368 = tl.full([1], 1.0, tl.float32)
        tmp369 = tmp367 + tmp368
        tl.store(out_ptr73 + (tl.full([XBLOCK], 0, tl.int32).broadcast_to([XBLOCK])), tmp369, xmask)
    elif pid < num_xblocks_74:
        pid_offset = pid - num_xblocks_73
        xnumel = 1
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        tmp370 = tl.load(in_ptr74 + (0))
        tmp371 = tl.broadcast_to(tmp370, [XBLOCK])
        tmp372 = tl.where(xmask, tmp371, 0.0)
        tmp373 = tl.full([1], 1.0, tl.float32)
        tmp374 = tmp372 + tmp373
        tl.store(out_ptr74 + (tl.full([XBLOCK], 0, tl.int32).broadcast_to([XBLOCK])), tmp374, xmask)
    elif pid < num_xblocks_75:
        pid_offset = pid - num_xblocks_74
        xnumel = 1
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        tmp375 = tl.load(in_ptr75 + (0))
        tmp376 = tl.broadcast_to(tmp375, [XBLOCK])
        tmp377 = tl.where(xmask, tmp376, 0.0)
        tmp378 = tl.full([1], 1.0, tl.float32)
        tmp379 = tmp377 + tmp378
        tl.store(out_ptr75 + (tl.full([XBLOCK], 0, tl.int32).broadcast_to([XBLOCK])), tmp379, xmask)
    elif pid < num_xblocks_76:
        pid_offset = pid - num_xblocks_75
        xnumel = 1
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        tmp380 = tl.load(in_ptr76 + (0))
        tmp381 = tl.broadcast_to(tmp380, [XBLOCK])
        tmp382 = tl.where(xmask, tmp381, 0.0)
        tmp383 = tl.full([1], 1.0, tl.float32)
        tmp384 = tmp382 + tmp383
        tl.store(out_ptr76 + (tl.full([XBLOCK], 0, tl.int32).broadcast_to([XBLOCK])), tmp384, xmask)
    elif pid < num_xblocks_77:
        pid_offset = pid - num_xblocks_76
        xnumel = 1
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        tmp385 = tl.load(in_ptr77 + (0))
        tmp386 = tl.broadcast_to(tmp385, [XBLOCK])
        tmp387 = tl.where(xmask, tmp386, 0.0)
        tmp388 = tl.full([1], 1.0, tl.float32)
        tmp389 = tmp387 + tmp388
        tl.store(out_ptr77 + (tl.full([XBLOCK], 0, tl.int32).broadcast_to([XBLOCK])), tmp389, xmask)
    elif pid < num_xblocks_78:
        pid_offset = pid - num_xblocks_77
        xnumel = 1
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        tmp390 = tl.load(in_ptr78 + (0))
        tmp391 = tl.broadcast_to(tmp390, [XBLOCK])
        tmp392 = tl.where(xmask, tmp391, 0.0)
        tmp393 = tl.full([1], 1.0, tl.float32)
        tmp394 = tmp392 + tmp393
        tl.store(out_ptr78 + (tl.full([XBLOCK], 0, tl.int32).broadcast_to([XBLOCK])), tmp394, xmask)
    elif pid < num_xblocks_79:
        pid_offset = pid - num_xblocks_78
        xnumel = 1
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        tmp395 = tl.load(in_ptr79 + (0))
        tmp396 = tl.broadcast_to(tmp395, [XBLOCK])
        tmp397 = tl.where(xmask, tmp396, 0.0)
        tmp398 = tl.full([1], 1.0, tl.float32)
        tmp399 = tmp397 + tmp398
        tl.store(out_ptr79 + (tl.full([XBLOCK], 0, tl.int32).broadcast_to([XBLOCK])), tmp399, xmask)
    elif pid < num_xblocks_80:
        pid_offset = pid - num_xblocks_79
        xnumel = 1
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        tmp400 = tl.load(in_ptr80 + (0))
        tmp401 = tl.broadcast_to(tmp400, [XBLOCK])
        tmp402 = tl.where(xmask, tmp401, 0.0)
        tmp403 = tl.full([1], 1.0, tl.float32)
        tmp404 = tmp402 + tmp403
        tl.store(out_ptr80 + (tl.full([XBLOCK], 0, tl.int32).broadcast_to([XBLOCK])), tmp404, xmask)
    elif pid < num_xblocks_81:
        pid_offset = pid - num_xblocks_80
        xnumel = 1
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        tmp405 = tl.load(in_ptr81 + (0))
        tmp406 = tl.broadcast_to(tmp405, [XBLOCK])
        tmp407 = tl.where(xmask, tmp406, 0.0)
        tmp408 = tl.full([1], 1.0, tl.float32)
        tmp409 = tmp407 + tmp408
        tl.store(out_ptr81 + (tl.full([XBLOCK], 0, tl.int32).broadcast_to([XBLOCK])), tmp409, xmask)
    elif pid < num_xblocks_82:
        pid_offset = pid - num_xblocks_81
        xnumel = 1
        r0_numel = 1
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        tmp410 = tl.load(in_ptr82 + (0))
        tmp411 = tl.broadcast_to(tmp410, [XBLOCK])
        tmp412 = tl.where(xmask, tmp411, 0.0)
        tmp413 = tl.full([1], 1.0, tl.float32)
        tmp414 = tmp412 + tmp413
        tl.store(out_ptr82 + (tl.full([XBLOCK], 0, tl.int32).broadcast_to([XBLOCK])), tmp414, xmask)
    else:
        pass
