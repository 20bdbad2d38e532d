"""The own attention kernels: Triton `tl` (triton_fa), Gluon (gluon_fa), CUDA C++ (cuda_fa), numba (numba_fa),
and the float64 / blocked-torch references every backend is checked against (reference)."""
