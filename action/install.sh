#!/usr/bin/env bash
# The install step of action.yml. By default the tool is the action's own checkout (the commit the
# `uses:` line pins): its dependencies come from its lockfile (`npm ci`, each package checked against
# the lockfile's sha512), no install script runs, and TypeScript builds it there. With the `package`
# input, a packed tarball is installed instead, only once its sha512 matches the `integrity` input;
# it carries npm-shrinkwrap.json, so its dependencies are the versions it was tested with. Either way
# the bin path goes to the step outputs, and the caller's node_modules are never touched. Inputs
# arrive as environment variables, never pasted into shell code.
set -euo pipefail

root="${AUDIT_ACTION_ROOT:?must name the folder of the action}"
package="${AUDIT_PACKAGE:-}"
integrity="${AUDIT_INTEGRITY:-}"
prefix="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/teams-migration-audit-tool"
mkdir -p "$prefix/bin"
bin="$prefix/bin/teams-migration-audit"
npm_quiet=(--no-audit --no-fund --loglevel=error)

if [ -z "$package" ]; then
  if [ -n "$integrity" ]; then
    echo "teams-migration-audit action: 'integrity' checks the 'package' input, which is empty" >&2
    exit 2
  fi
  (cd "$root" && npm ci --ignore-scripts "${npm_quiet[@]}" >&2 && node node_modules/typescript/bin/tsc -p tsconfig.build.json >&2)
  printf '#!/usr/bin/env bash\nexec node %q "$@"\n' "$root/dist/main.js" > "$bin"
  chmod +x "$bin"
else
  if ! [[ "$integrity" =~ ^sha512-[A-Za-z0-9+/]{86}==$ ]]; then
    # Never a bare registry name, nor a tarball nobody vouched for.
    echo "teams-migration-audit action: a 'package' needs its 'integrity' (sha512-…, as npm prints it for the tarball), or leave 'package' empty to run the action's own commit" >&2
    exit 2
  fi
  tarball="$prefix/teams-migration-audit.tgz"
  if [ -e "$package" ]; then
    cp "$package" "$tarball"
  elif [[ "$package" =~ ^https:// ]]; then
    curl --fail --silent --show-error --location --proto '=https' --output "$tarball" "$package"
  else
    echo "teams-migration-audit action: 'package' is neither a file of the checkout nor an https:// URL: $package" >&2
    exit 2
  fi
  actual="sha512-$(node -e 'process.stdout.write(require("crypto").createHash("sha512").update(require("fs").readFileSync(process.argv[1])).digest("base64"))' "$tarball")"
  if [ "$actual" != "$integrity" ]; then
    echo "teams-migration-audit action: the package's sha512 is $actual, not the 'integrity' input; nothing was installed" >&2
    exit 2
  fi
  npm install --global --prefix "$prefix" --ignore-scripts "${npm_quiet[@]}" "$tarball" >&2
fi
"$bin" --version >&2
echo "bin=$bin" >> "${GITHUB_OUTPUT:-/dev/null}"
