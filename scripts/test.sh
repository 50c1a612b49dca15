#!/usr/bin/env bash
# The test command: does all set-up on a fresh machine, then runs every test.
#   1. installs the pinned harness CLIs into ~/.cache/harness4j/tools (idempotent)
#   2. mvn -B verify
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-clis.sh
exec mvn -B verify "$@"
