#!/usr/bin/env bash
# The CPU half of the CI recipe (examples/ci/README.md): gate a pull request's run against the baseline run of
# the main branch, and write what the CI job publishes. Needs only `pip install inductor-prof` (no GPU).
#
#   examples/ci/gate.sh BASELINE_RUN PR_RUN OUT_DIR
#
# OUT_DIR/diff.json    `diff --json`: the whole comparison; "gate" holds the verdict (schema: docs/ci-gate.md)
# OUT_DIR/diff.html    `diff --html`: one self-contained page
# OUT_DIR/summary.md   `diff --markdown`: the verdict, the step, the kernels that moved (a pull-request comment);
#                      when diff refused to gate, that one error line instead
# OUT_DIR/diff.log     what diff wrote on stderr (warnings; the error line)
#
# Exit status, diff's own: 0 passed, 1 a regression (or diff failed), 2 refused: bad input, nothing judged (a
# folder that is not a run; runs of different GPUs, targets or inductor-prof versions without ALLOW_DIFFERENT=1;
# a table the gate needs missing).
#
# Environment: FAIL_ABOVE (% beyond noise, default 5), MIN_SHARE (% of the step a kernel must hold to be gated,
# default 1), TOP (kernels listed in summary.md, default 10), ALLOW_DIFFERENT (1: gate runs of different GPUs,
# targets or versions anyway, with a warning), INDUCTOR_PROF (the command, default `inductor-prof`).
set -euo pipefail

if [ "$#" -ne 3 ]; then
    echo "usage: $0 BASELINE_RUN PR_RUN OUT_DIR" >&2
    exit 2
fi
baseline=$1
pr=$2
out=$3
read -r -a inductor_prof <<< "${INDUCTOR_PROF:-inductor-prof}"
args=(--fail-above "${FAIL_ABOVE:-5}" --min-share "${MIN_SHARE:-1}" --top "${TOP:-10}")
if [ "${ALLOW_DIFFERENT:-0}" = 1 ]; then
    args+=(--allow-different)
fi

mkdir -p "$out"
rm -f "$out/diff.json" "$out/diff.html" "$out/summary.md" "$out/diff.log"
status=0
"${inductor_prof[@]}" diff "$baseline" "$pr" "${args[@]}" --json --html "$out/diff.html" \
    --markdown "$out/summary.md" > "$out/diff.json" 2> "$out/diff.log" || status=$?
cat "$out/diff.log" >&2

if [ "$status" -le 1 ] && [ -s "$out/summary.md" ]; then
    cat "$out/summary.md"
    exit "$status"
fi

# refused (or crashed): no document; the summary says why in diff's own line
rm -f "$out/diff.json"
reason=$(grep -m 1 '^error: ' "$out/diff.log" || tail -n 1 "$out/diff.log" || true)
{
    echo '<!-- inductor-prof diff -->'
    echo '## inductor-prof diff: ⛔ gate refused'
    echo
    echo "**Gate refused** (exit $status): nothing was judged."
    echo
    echo '~~~~'
    echo "${reason:-inductor-prof diff exited $status without a word}"
    echo '~~~~'
    echo
    echo "A (baseline): \`$baseline\`  "
    echo "B: \`$pr\`"
} > "$out/summary.md"
cat "$out/summary.md"
exit "$status"
