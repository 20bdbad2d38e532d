#!/usr/bin/env bash
# Post gate.sh's summary.md as the pull request's comment, or update the comment it posted before (found by
# the marker summary.md starts with), so a pull request holds one inductor-prof comment, the latest.
#
#   examples/ci/comment.sh PR_NUMBER SUMMARY_MD
#
# Needs the GitHub CLI `gh` with GH_TOKEN allowed to write pull requests, and GITHUB_REPOSITORY (owner/name;
# GitHub Actions sets it). A pull request from a fork gets a read-only token: then post nothing (the workflow
# skips this step) and read the job summary.
set -euo pipefail

if [ "$#" -ne 2 ]; then
    echo "usage: $0 PR_NUMBER SUMMARY_MD" >&2
    exit 2
fi
pr=$1
summary=$2
repo=${GITHUB_REPOSITORY:?GITHUB_REPOSITORY (owner/name) is not set}
marker='<!-- inductor-prof diff -->'
if [ "$(head -n 1 "$summary")" != "$marker" ]; then
    echo "$summary does not start with $marker: not a summary gate.sh wrote" >&2
    exit 2
fi

mine=".[] | select(.user.login == \"github-actions[bot]\" and (.body | startswith(\"$marker\"))) | .id"
id=$(gh api --paginate "repos/$repo/issues/$pr/comments" --jq "$mine" | tail -n 1)
if [ -n "$id" ]; then
    gh api --method PATCH "repos/$repo/issues/comments/$id" -F "body=@$summary" > /dev/null
    echo "updated comment $id on pull request $pr"
else
    gh pr comment "$pr" --repo "$repo" --body-file "$summary"
fi
