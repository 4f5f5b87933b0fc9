#!/usr/bin/env bash
# The audit step of action.yml. Inputs arrive as environment variables (never pasted into shell
# code), the tool's exit code goes to the step outputs, and the step itself succeeds so the SARIF
# upload and the artifact run before the action's last step fails the job with that code.
set -uo pipefail

bin="${AUDIT_BIN:?must name the installed teams-migration-audit}"
root="${AUDIT_ACTION_ROOT:?must name the folder of the action}"
temp="${RUNNER_TEMP:-${TMPDIR:-/tmp}}"
outputs="${GITHUB_OUTPUT:-/dev/null}"
# Only what this run writes is uploaded: by default a fresh folder outside the checkout, in the
# runner's temp; a folder named in 'out' that holds anything else is refused in one line.
if [ -n "${AUDIT_OUT:-}" ]; then out="$AUDIT_OUT"; else out="$(mktemp -d "$temp/teams-migration-audit-out.XXXXXX")"; fi
state="$(mktemp "$temp/teams-migration-audit-state.XXXXXX")"
if ! node "$root/action/out-folder.mjs" check "$out" "$state"; then
  echo "exit-code=2" >> "$outputs"
  exit 0
fi
args=(analyze --out "$out" --format "${AUDIT_FORMAT:-html,json,sarif,junit,md}" --fail-on "${AUDIT_FAIL_ON:-manual}")
if [ -n "${AUDIT_SNAPSHOT:-}" ]; then args+=(--snapshot "$AUDIT_SNAPSHOT"); fi
if [ -n "${AUDIT_REGION:-}" ]; then args+=(--region "$AUDIT_REGION"); fi
if [ -n "${AUDIT_API_URL:-}" ]; then args+=(--api-url "$AUDIT_API_URL"); fi
if [ -n "${AUDIT_FAIL_ON_VERDICT:-}" ]; then args+=(--fail-on-verdict "$AUDIT_FAIL_ON_VERDICT"); fi
if [ -n "${AUDIT_BASELINE:-}" ]; then args+=(--baseline "$AUDIT_BASELINE"); fi
if [ -n "${AUDIT_TEAMS_MAP:-}" ]; then args+=(--teams-map "$AUDIT_TEAMS_MAP"); fi
if [ -n "${AUDIT_SINCE:-}" ]; then args+=(--since "$AUDIT_SINCE"); fi
# --repo and --ignore are repeatable: one value per line of the input.
while IFS= read -r dir; do
  if [ -n "$dir" ]; then args+=(--repo "$dir"); fi
done <<< "${AUDIT_REPOS:-}"
while IFS= read -r pattern; do
  if [ -n "$pattern" ]; then args+=(--ignore "$pattern"); fi
done <<< "${AUDIT_IGNORE:-}"

# Matrix jobs run the same step: the job and its index keep artifact names apart.
name="${AUDIT_ARTIFACT_NAME:-}"
if [ -z "$name" ]; then
  name="teams-migration-audit-${GITHUB_JOB:-audit}"
  if [ -n "${AUDIT_JOB_INDEX:-}" ]; then name="$name-$AUDIT_JOB_INDEX"; fi
fi

# The step summary names the artifact that holds the reports.
TMA_ARTIFACT_NAME="$name" "$bin" "${args[@]}"
code=$?

# The artifact is a copy of the regular files this run wrote, in a fresh folder: no link (an uploader
# follows links), nothing that was in the folder before the run.
upload="$(mktemp -d "$temp/teams-migration-audit-upload.XXXXXX")"
if ! written="$(node "$root/action/out-folder.mjs" collect "$out" "$state" "$upload")"; then
  echo "teams-migration-audit action: could not gather the reports to upload" >&2
  written=""
fi
{
  echo "exit-code=$code"
  echo "out=$out"
  if [ -f "$out/index.html" ]; then echo "report=$out/index.html"; fi
  if [ -f "$out/report.sarif" ]; then echo "sarif=$out/report.sarif"; fi
  if [ -n "$written" ]; then
    echo "upload=$upload"
    echo "artifact-name=$name"
  fi
} >> "$outputs"
exit 0
