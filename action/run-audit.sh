#!/usr/bin/env bash
# The audit step of action.yml. Inputs arrive as environment variables (never pasted into shell
# code), the tool's exit code goes to the step outputs, and the step itself succeeds so the SARIF
# upload and the artifact run before the action's last step fails the job with that code.
set -uo pipefail

root="${AUDIT_ACTION_ROOT:?must name the checkout of the action}"
out="${AUDIT_OUT:-teams-migration-audit}"
args=(analyze --out "$out" --format "html,json,sarif,junit,md" --fail-on "${AUDIT_FAIL_ON:-manual}")
if [ -n "${AUDIT_SNAPSHOT:-}" ]; then args+=(--snapshot "$AUDIT_SNAPSHOT"); fi
if [ -n "${AUDIT_REGION:-}" ]; then args+=(--region "$AUDIT_REGION"); fi
if [ -n "${AUDIT_BASELINE:-}" ]; then args+=(--baseline "$AUDIT_BASELINE"); fi
if [ -n "${AUDIT_TEAMS_MAP:-}" ]; then args+=(--teams-map "$AUDIT_TEAMS_MAP"); fi
# --repo is repeatable: one directory per line of the input.
while IFS= read -r dir; do
  if [ -n "$dir" ]; then args+=(--repo "$dir"); fi
done <<< "${AUDIT_REPOS:-}"

node "$root/dist/main.js" "${args[@]}"
code=$?

outputs="${GITHUB_OUTPUT:-/dev/null}"
{
  echo "exit-code=$code"
  echo "report=$out/index.html"
  if [ -f "$out/report.sarif" ]; then echo "sarif=$out/report.sarif"; fi
} >> "$outputs"
exit 0
