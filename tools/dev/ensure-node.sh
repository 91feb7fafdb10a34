#!/usr/bin/env bash
# Make Node >= 22.22 and bun >= 1.4.4 available for Reflex's frontend build. A machine that has both keeps its own;
# otherwise both come from the npm registry (ordinary packages with the binary inside) into the ignored .tools/.
set -euo pipefail
node_version=${1:-22.23.3}
bun_version=${2:-1.4.5}
cd "$(dirname "$0")/../.."  # the checkout (this file is tools/dev/)

version_ok() {  # version_ok <have> <need>: true when have >= need
  [ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n1)" = "$2" ]
}

sys_node=$(PATH=${PATH#"$PWD/.tools/node_modules/.bin:"} command -v node || true)
sys_bun=$(PATH=${PATH#"$PWD/.tools/node_modules/.bin:"} command -v bun || true)
if [ -n "$sys_node" ] && [ -n "$sys_bun" ] \
  && version_ok "$("$sys_node" --version | tr -d v)" 22.22.0 && version_ok "$("$sys_bun" --version)" 1.4.4; then
  echo "Using the machine's node $("$sys_node" --version) and bun $("$sys_bun" --version)"
  exit 0
fi
if ! command -v npm >/dev/null; then
  echo "npm is needed to fetch Node 22 and bun (install Node.js >= 18 with npm first)" >&2
  exit 1
fi
echo "Installing node@$node_version and bun@$bun_version into .tools/ from the npm registry"
mkdir -p .tools
npm install --prefix .tools --no-audit --no-fund --loglevel=error "node@$node_version" "bun@$bun_version"
.tools/node_modules/.bin/node --version
.tools/node_modules/.bin/bun --version
