"""Attention: the own kernels (kernels/), the benchmark of every backend at a model's shapes (benchmark/), and
what the model's attention calls meant (semantics/); timing.py times and tunes on the GPU for the first two."""
