#!/usr/bin/env bash
# The main job: runs a matrix (default: the repository's matrix.yaml) with rlab.
# Expects scripts/setup.sh to have run. Extra arguments go to `rlab run`.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/start-libvirtd.sh
exec build/host/orchestrator/rlab run "${@:-matrix.yaml}"
