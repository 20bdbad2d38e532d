"""The attention benchmark: every backend (registry: own kernels, libraries, the compiler) at given shapes and
semantics, checked against float64 and timed side by side (bench)."""
