#!/usr/bin/env bash
# The test command: does all set-up on a fresh machine, then runs every test.
#   1. installs the pinned harness CLIs into ~/.cache/harness4j/tools (idempotent)
#   2. installs Debian's chromium and chromium-driver (the HTML report is rendered, and the live view of
#      `harness4j serve` driven through WebDriver, by tests), when missing
#   3. installs Debian's bubblewrap (the sandbox) and perl (its meter relay; Essential on Debian), when missing
#      (scripts/install-sandbox.sh)
#   4. installs Debian's postgresql (harness-postgres's tests start their own server), when missing
#   5. mvn -B verify
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-clis.sh
if ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1; then
  echo "[test] installing chromium and chromium-driver (headless rendering of the bench report and the live view)" >&2
  if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update -qq && $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >&2
fi
bash scripts/install-sandbox.sh test
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 && [ -z "${HARNESS4J_PG_BIN:-}" ]; then
  echo "[test] installing postgresql (harness-postgres's tests start a server of their own on loopback)" >&2
  if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update -qq && $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >&2
fi
exec mvn -B verify "$@"
