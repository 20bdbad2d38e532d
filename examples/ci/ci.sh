#!/usr/bin/env bash
# The CI recipe as one plain script, the steps of inductor-prof-gate.yml in order, for a machine with a GPU
# (or any CI system): profile this checkout, then gate it against a baseline run of the main branch.
#
#   examples/ci/ci.sh BASELINE_RUN OUT_DIR TARGET [PROFILE OPTIONS...]
#
# BASELINE_RUN is a run folder profiled from the main branch on the same GPU model (`examples/ci/profile.sh`
# on a checkout of main, kept where the next run finds it: the workflow keeps it as an artifact). OUT_DIR gets
# run/ (this checkout's run folder) and gate.sh's diff.json, diff.html, summary.md. Exit status: gate.sh's.
set -euo pipefail

if [ "$#" -lt 3 ]; then
    echo "usage: $0 BASELINE_RUN OUT_DIR TARGET [PROFILE OPTIONS...]" >&2
    exit 2
fi
baseline=$1
out=$2
shift 2
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# GPU: the pull request's run (the workflow's `profile` job)
bash "$here/profile.sh" "$out/run" "$@"
# CPU: diff against the baseline, the gate, the pages to publish (the workflow's `gate` job)
bash "$here/gate.sh" "$baseline" "$out/run" "$out"
