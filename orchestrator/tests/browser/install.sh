#!/usr/bin/env bash
# Installs what the browser tests drive Debian's chromium with (puppeteer-core, pinned by
# package-lock.json beside this script) with `npm ci` into
# ${RLAB_CACHE_DIR:-${XDG_CACHE_HOME:-~/.cache}/rlab}/browser/<lock hash>/, never into the
# source tree, and prints that folder. A second run with the same lock file installs nothing.
set -euo pipefail
for tool in node npm; do
  command -v "$tool" >/dev/null || { echo "install.sh: $tool not found (install nodejs and npm)" >&2; exit 2; }
done
here="$(cd "$(dirname "$0")" && pwd)"
cache_root="${RLAB_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/rlab}/browser"
work="$cache_root/$(cat "$here/package.json" "$here/package-lock.json" | sha256sum | cut -c1-16)"
if [ ! -d "$work/node_modules/puppeteer-core" ]; then
  mkdir -p "$work"
  cp "$here/package.json" "$here/package-lock.json" "$work/"
  (cd "$work" && npm ci --no-audit --no-fund --loglevel=error --cache "$cache_root/npm-cache") >&2
fi
cp "$here/flame_click.mjs" "$work/"  # an ES module finds its imports in node_modules beside it
echo "$work"
