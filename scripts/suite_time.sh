#!/usr/bin/env bash
# The README's test command timed as a new user meets it: a fresh clone of this checkout's HEAD, every compile
# cache empty (Triton, Inductor, inductor-prof's, numba's, mypy's), then pytest's wall time and the CPU-seconds
# of pytest and every process it waited for (its xdist workers, their compiles and subprocesses); then what each
# test file and test cost in CPU-seconds (scripts/pytest_cpu_seconds.py).
#   bash scripts/suite_time.sh                      # the README command
#   bash scripts/suite_time.sh -n 0 --durations=60  # these arguments instead of "-n auto ... --dist worksteal"
# PYTHON names the interpreter (default python3); KEEP=1 keeps the clone and caches (the folder is printed).
set -euo pipefail
repo=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
python=${PYTHON:-python3}
work=$(mktemp -d "${TMPDIR:-/tmp}/suite-time.XXXXXX")
[ "${KEEP:-0}" = 1 ] || trap 'rm -rf "$work"' EXIT
git clone -q "$repo" "$work/clone"
mkdir -p "$work/cache" "$work/plugin"
# the plugin from a folder of its own: scripts/ on PYTHONPATH would put every script's name among the modules
cp "$repo/scripts/pytest_cpu_seconds.py" "$work/plugin/"
args=("$@"); [ ${#args[@]} -gt 0 ] || args=(-n auto --maxprocesses 8 --dist worksteal)
cd "$work/clone"
echo "commit $(git rev-parse --short HEAD), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), pytest ${args[*]}"
rc=0
env TRITON_CACHE_DIR="$work/cache/triton" TORCHINDUCTOR_CACHE_DIR="$work/cache/inductor" \
    XDG_CACHE_HOME="$work/cache/xdg" NUMBA_CACHE_DIR="$work/cache/numba" PYTHONPATH="$work/clone:$work/plugin" \
    /usr/bin/time -f "%e %U %S" -o "$work/time" \
    "$python" -m pytest -q -p no:cacheprovider -p pytest_cpu_seconds "${args[@]}" tests > "$work/pytest.log" 2>&1 || rc=$?
tail -n 70 "$work/pytest.log"
read -r wall user sys < <(tail -n 1 "$work/time")
echo "suite_time: wall ${wall} s, CPU ${user} user + ${sys} sys = $(echo "$user + $sys" | bc) s, pytest exit $rc"
[ "${KEEP:-0}" = 1 ] && echo "kept: $work"
exit $rc
