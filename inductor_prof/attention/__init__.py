"""Attention backends (own Triton / CUDA C++ / numba / torch, SDPA, FlexAttention, external libraries) and
their benchmark at a model's attention shapes."""
