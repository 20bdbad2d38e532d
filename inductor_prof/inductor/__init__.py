"""Knowledge of Inductor's output (kernel kinds, op counts, flops/bytes formulas, output-code parsing, kernel
files) and the two hooks into it while a model compiles (`instrument`, `cache`)."""
