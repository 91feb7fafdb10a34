#!/usr/bin/env bash
# Make axe-core (the accessibility checker the end-to-end tests inject into pages) available in .tools/ from the npm
# registry. A copy already there, or one named by AXE_CORE_JS, is kept.
set -euo pipefail
version=${1:-4}
cd "$(dirname "$0")/../.."  # the checkout (this file is tools/dev/)

if [ -n "${AXE_CORE_JS:-}" ] && [ -f "$AXE_CORE_JS" ]; then
  echo "Using axe-core at $AXE_CORE_JS"
  exit 0
fi
if [ -f .tools/node_modules/axe-core/axe.min.js ]; then
  echo "axe-core $(sed -n 's/.*"version": *"\([^"]*\)".*/\1/p' .tools/node_modules/axe-core/package.json | head -n1) in .tools/"
  exit 0
fi
if ! command -v npm >/dev/null; then
  echo "npm is needed to fetch axe-core (install Node.js with npm first)" >&2
  exit 1
fi
echo "Installing axe-core@$version into .tools/ from the npm registry"
mkdir -p .tools
npm install --prefix .tools --no-audit --no-fund --loglevel=error "axe-core@$version"
test -f .tools/node_modules/axe-core/axe.min.js
