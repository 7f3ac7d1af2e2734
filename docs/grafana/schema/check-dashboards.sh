#!/usr/bin/env bash
# Validates Grafana dashboards against the JSON Schema of Grafana's classic dashboard model,
# generated from the TypeScript types @grafana/schema publishes (raw/dashboard/x/types.gen.d.ts,
# interface Dashboard) with ts-json-schema-generator, and checked with ajv-cli.
#
# usage: check-dashboards.sh [dashboard.json ...]   (default: docs/grafana/dashboards/*.json)
#
# The pinned packages (package.json, package-lock.json) are installed with `npm ci` into
# ${RLAB_CACHE_DIR:-${XDG_CACHE_HOME:-~/.cache}/rlab}/grafana-schema/<lock hash>/, never into
# the source tree. Prints the generated schema's path; exits non-zero when a dashboard is invalid.
set -euo pipefail
for tool in node npm; do
  command -v "$tool" >/dev/null || { echo "check-dashboards.sh: $tool not found (install nodejs and npm)" >&2; exit 2; }
done
here="$(cd "$(dirname "$0")" && pwd)"
cache_root="${RLAB_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/rlab}/grafana-schema"
lock_hash="$(cat "$here/package.json" "$here/package-lock.json" | sha256sum | cut -c1-16)"
work="$cache_root/$lock_hash"

if [ ! -x "$work/node_modules/.bin/ajv" ] || [ ! -x "$work/node_modules/.bin/ts-json-schema-generator" ]; then
  mkdir -p "$work"
  cp "$here/package.json" "$here/package-lock.json" "$work/"
  (cd "$work" && npm ci --no-audit --no-fund --loglevel=error --cache "$cache_root/npm-cache")
fi

schema="$work/dashboard.schema.json"
(cd "$work" && node_modules/.bin/ts-json-schema-generator \
    --path node_modules/@grafana/schema/dist/types/raw/dashboard/x/types.gen.d.ts \
    --type Dashboard --no-type-check --out "$schema.tmp" && mv "$schema.tmp" "$schema")
echo "schema: $schema"

if [ "$#" -eq 0 ]; then
  set -- "$here"/../dashboards/*.json
fi
status=0
for dashboard in "$@"; do
  abs="$(cd "$(dirname "$dashboard")" && pwd)/$(basename "$dashboard")"
  (cd "$work" && node_modules/.bin/ajv validate --spec=draft7 --all-errors -s "$schema" -d "$abs") || status=1
done
exit "$status"
