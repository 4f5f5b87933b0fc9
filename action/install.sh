#!/usr/bin/env bash
# The install step of action.yml: the packed tool goes into a folder of its own under the runner's
# temp directory (no build, no change to the caller's node_modules), and its bin path goes to the
# step outputs. Inputs arrive as environment variables, never pasted into shell code.
set -euo pipefail

package="${AUDIT_PACKAGE:-}"
if [ -z "$package" ]; then
  # Never a bare registry name: anyone could publish one.
  echo "teams-migration-audit action: set the 'package' input to the packed tool (teams-migration-audit-X.Y.Z.tgz, a path or URL)" >&2
  exit 2
elif [ -e "$package" ]; then
  # A tarball or folder in the checkout: absolute, since npm resolves paths from the prefix.
  package="$(cd "$(dirname "$package")" && pwd)/$(basename "$package")"
fi

prefix="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/teams-migration-audit-tool"
mkdir -p "$prefix"
npm install --global --prefix "$prefix" --no-audit --no-fund --loglevel=error "$package" >&2
bin="$prefix/bin/teams-migration-audit"
"$bin" --version >&2
echo "bin=$bin" >> "${GITHUB_OUTPUT:-/dev/null}"
