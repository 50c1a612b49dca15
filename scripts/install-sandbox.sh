#!/usr/bin/env bash
# Installs what confines each harness run, when missing: Debian's bubblewrap (the sandbox, bwrap)
# and perl (its relay to the meter; perl-base is Essential on Debian). Idempotent: with both in
# place it says nothing. Used by scripts/test.sh, scripts/bench.sh and scripts/install.sh.
#   bash scripts/install-sandbox.sh [LOG-PREFIX]
# As root it runs apt-get; otherwise through sudo when sudo needs no password, or may ask for one
# (a terminal); otherwise, or without apt-get, it says what to run and exits 1.
set -euo pipefail
tag="${1:-install-sandbox}"
if command -v bwrap >/dev/null 2>&1 && command -v perl >/dev/null 2>&1; then
  exit 0
fi
packages="bubblewrap perl-base"
if ! command -v apt-get >/dev/null 2>&1; then
  echo "[$tag] bubblewrap and perl are needed to confine the agents' runs; there is no apt-get here:" \
    "install the packages bubblewrap and perl with this system's package manager" >&2
  exit 1
fi
if [ "$(id -u)" -eq 0 ]; then
  SUDO=""
elif command -v sudo >/dev/null 2>&1 && { sudo -n true 2>/dev/null || [ -t 0 ]; }; then
  SUDO="sudo"
else
  echo "[$tag] bubblewrap and perl are needed to confine the agents' runs, and installing them needs root:" \
    "run  sudo apt-get install -y $packages  (then run this again)" >&2
  exit 1
fi
echo "[$tag] installing bubblewrap and perl (each run's sandbox and its relay to the meter)" >&2
$SUDO apt-get update -qq && $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $packages >&2
