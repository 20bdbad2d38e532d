"""tests/sass_defs.py on SASS written by hand after Triton 3.6's sm_90a build of the Gluon kernel's serial band
path (offsets and registers as nvdisasm printed them, the code between left out but for the
writes of the descriptors' registers)."""
import sass_defs

# The miscompile: UR12:UR13 (Q's descriptor, k-steps 1..7) are written only after the branch that skips the first
# loop (0x0f80 -> .L_x_5); the second loop's wgmma at 0x4540 reads them on that path. Its first wgmma reads UR20..23,
# written on every path (0x4350, 0x43c0, 0x4420, 0x4450).
MISCOMPILED = """
        /*0000*/                   S2UR UR6, SR_CTAID.X ;
        /*0f60*/                   USHF.R.U32.HI UR6, URZ, 0x4, UR53 ;
        /*0f80*/              @!P0 BRA `(.L_x_5) ;
        /*1090*/                   UIADD3 UR12, UP0, UR6, 0x2, URZ ;
        /*10d0*/                   UIADD3.X UR13, UR9, 0x40000040, URZ, UP0, !UPT ;
.L_x_8:
        /*1700*/                   UMOV UR14, URZ ;
        /*1710*/                   UMOV UR15, 0x40000040 ;
        /*17b0*/                   HGMMA.64x128x16.F32.BF16 R24, gdesc[UR12], R24 ;
        /*41d0*/              @!P0 BRA `(.L_x_8) ;
.L_x_5:
        /*4230*/               @P0 BRA `(.L_x_9) ;
        /*4240*/                   UIADD3 UR24, UP0, UR12, 0x2, URZ ;
.L_x_12:
        /*4350*/                   UMOV UR20, UR6 ;
        /*43c0*/                   UMOV UR21, 0x40000040 ;
        /*4420*/                   USGXT.U32 UR22, UR14, 0xe ;
        /*4450*/                   UMOV UR23, 0x40000040 ;
        /*4460*/                   UMOV UR14, URZ ;
        /*4480*/                   HGMMA.64x128x16.F32.BF16 R24, gdesc[UR20], RZ, !UPT ;
        /*44b0*/                   UIADD3.X UR15, UR14, 0x40000040, URZ, UP0, !UPT ;
        /*4540*/                   HGMMA.64x128x16.F32.BF16 R24, gdesc[UR12], R24 ;
        /*5f70*/              @!P0 BRA `(.L_x_12) ;
.L_x_9:
        /*5f80*/                   EXIT ;
"""


def test_a_descriptor_written_only_on_the_path_that_runs_the_first_loop_is_found():
    # 0x17b0 is inside the first loop (after 0x1090 on every path into it); 0x4540 misses UR12 and UR13 along
    # 0x0f80 -> .L_x_5 -> .L_x_12; UR14 and UR15 are written before it in its own block
    assert sass_defs.undefined_descriptor_reads(MISCOMPILED) == [
        (0x4540, "HGMMA.64x128x16.F32.BF16 R24, gdesc[UR12], R24", {12, 13})]


def test_the_same_code_with_the_descriptor_written_before_the_branch_is_clean():
    # the two descriptor writes moved before the branch that skips the first loop
    fixed = """
        /*0f60*/                   USHF.R.U32.HI UR6, URZ, 0x4, UR53 ;
        /*0f70*/                   UIADD3 UR12, UP0, UR6, 0x2, URZ ;
        /*0f74*/                   UIADD3.X UR13, UR9, 0x40000040, URZ, UP0, !UPT ;
        /*0f80*/              @!P0 BRA `(.L_x_5) ;
""" + MISCOMPILED.split("/*0f80*/              @!P0 BRA `(.L_x_5) ;\n", 1)[1]
    assert sass_defs.undefined_descriptor_reads(fixed) == []


def test_what_an_instruction_writes_and_a_wgmma_reads():
    assert sass_defs.writes("UIADD3 UR12, UP0, UR6, 0x2, URZ") == {12}
    assert sass_defs.writes("UIADD3.64 UR26, UR14, 0x2, URZ") == {26, 27}
    assert sass_defs.writes("ULDC.64 UR6, c[0x0][0x568]") == {6, 7}
    assert sass_defs.writes("@!UP1 UIADD3 UR6, UR6, -UR15, URZ") == {6}   # predicated: counted as written
    assert sass_defs.writes("SYNCS.PHASECHK.TRANS64.TRYWAIT P0, [UR15+0x30100], R154") == set()
    assert sass_defs.writes("UISETP.GE.AND UP1, UPT, UR7, UR9, UPT") == set()
    # A in shared memory: A's descriptor UR12:13 and B's UR14:15; A in registers (R24..): only B's
    assert sass_defs.hgmma_reads("HGMMA.64x128x16.F32.BF16 R24, gdesc[UR12], R24") == {12, 13, 14, 15}
    assert sass_defs.hgmma_reads("HGMMA.64x128x16.F32.BF16 R88, R24, gdesc[UR12].tnspB, R88, gsb0") == {14, 15}
    assert sass_defs.hgmma_reads("UIADD3 UR24, UP0, UR12, 0x2, URZ") == set()
