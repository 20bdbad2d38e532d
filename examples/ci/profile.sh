#!/usr/bin/env bash
# The GPU half of the CI recipe (examples/ci/README.md): profile the model of this checkout into a run folder,
# which the CI job then uploads (without RUN_DIR/inductor_cache: `diff` does not read it).
#
#   examples/ci/profile.sh RUN_DIR TARGET [PROFILE OPTIONS...]
#
# TARGET is `flux` (or flux-schnell) or your model's `package.module:factory`, imported from the current
# directory (README: "Profile your own model"); the options go to `inductor-prof profile` as they are, e.g.
# `--double-blocks 2 --single-blocks 4 --steps 10`. Needs a CUDA GPU and `pip install 'inductor-prof[gpu]'`.
# A baseline and a pull request must be profiled on the same GPU model with the same inductor-prof version:
# the gate refuses to compare others (exit 2).
#
# Environment: INDUCTOR_PROF (the command, default `inductor-prof`).
set -euo pipefail

if [ "$#" -lt 2 ]; then
    echo "usage: $0 RUN_DIR TARGET [PROFILE OPTIONS...]" >&2
    exit 2
fi
run=$1
target=$2
shift 2
read -r -a inductor_prof <<< "${INDUCTOR_PROF:-inductor-prof}"
"${inductor_prof[@]}" profile "$target" --out "$run" --force "$@"
"${inductor_prof[@]}" report "$run" --top 15
