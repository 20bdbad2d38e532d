"""Every config of the own Gluon kernel compiled ahead of time for sm_90 and checked as
tests/attention/kernels/test_gluon_kernel.py checks one of each family in the default run (tests/gluon_sm90.py: no
local memory or stack, shared memory, warp specialisation, the QK^T/PV overlap, the TMA store, no wgmma reading a
stale descriptor): dense and causal at every SM90_CONFIGS entry, each head dim that runs in a wider tile
(WIDER_TILES: 80, 96, 192), and the band path (window, padding, documents) of every candidate config at head dims 64
and 128. The compiles need no GPU, but 60 of them cost about 250 CPU-seconds, so they run here, in the GPU run
(scripts/gpu_tests.sh, 16 cores), with this machine's Triton: the H100 image's 3.6 is the one whose ptxas left a
band descriptor unwritten. The same configs run against float64 in test_gluon_fa.py (dense, causal, split) and
test_own_masks.py / test_own_documents.py (band)."""
import pytest
from gluon_sm90 import (SM90_CONFIGS, WIDER_TILES, band_cases, check_band, check_sm90, check_sm90_kernel, compile_all,
                        compile_sm90, needs_ptxas, sm90_id, spills_here)

BAND_CASES = band_cases()


@pytest.fixture(scope="module")
def compiled():
    """Every kernel of this module compiled at once, a thread a core, the first time one is needed."""
    compile_all([(d, cfg, causal) for d, cfg in SM90_CONFIGS for causal in (False, True)
                 if not spills_here(d, cfg, causal)] + WIDER_TILES
                + [(p.values[0], p.values[3], False, True, p.values[1], p.values[2]) for p in BAND_CASES])


@needs_ptxas
@pytest.mark.parametrize("causal", [False, True], ids=["dense", "causal"])
@pytest.mark.parametrize("head_dim,cfg", SM90_CONFIGS, ids=sm90_id)
def test_compiles_for_sm90(head_dim, cfg, causal, compiled):
    check_sm90(head_dim, cfg, causal)


@needs_ptxas
@pytest.mark.parametrize("head_dim,cfg,causal", WIDER_TILES, ids=sm90_id)
def test_head_dims_in_wider_tiles_compile_for_sm90(head_dim, cfg, causal, compiled):
    assert cfg.block_n == (64 if head_dim == 192 else 128) and cfg.split == (head_dim == 96)
    check_sm90_kernel(compile_sm90(head_dim, cfg, causal), cfg)


@needs_ptxas
@pytest.mark.parametrize("head_dim,ranges,rows,cfg", BAND_CASES)
def test_band_kernels_compile_for_sm90_without_spills(head_dim, ranges, rows, cfg, compiled):
    check_band(head_dim, ranges, rows, cfg)
