#!/usr/bin/env bash
# Installs the harness4j command from this checkout, once; afterwards `harness4j ...` starts at once
# (no build, no Maven):
#   1. installs the pinned harness CLIs into ~/.cache/harness4j/tools (scripts/install-clis.sh, idempotent)
#   2. installs Debian's bubblewrap and perl, which confine each run, when missing
#      (scripts/install-sandbox.sh: as root, or with sudo; otherwise it says what to run)
#   3. builds the distribution (scripts/dist.sh: harness-cli/target/harness4j-<version>/, only when
#      its sources changed since the last build)
#   4. copies it to $PREFIX/share/harness4j (replacing an earlier install) and links
#      $PREFIX/bin/harness4j to its launcher
#   PREFIX   where to install (default: ~/.local, so the command is ~/.local/bin/harness4j)
#   bash scripts/install.sh && harness4j harnesses check
set -euo pipefail
cd "$(dirname "$0")/.."
prefix="${PREFIX:-$HOME/.local}"
bash scripts/install-clis.sh
if ! bash scripts/install-sandbox.sh install; then
  echo "[install] until bubblewrap and perl are installed, the agents' runs are not confined" \
    "(each bench's plan header says so)" >&2
fi
dist=$(HARNESS4J_CLIS_READY=1 bash scripts/dist.sh)
home="$prefix/share/harness4j"
mkdir -p "$prefix/bin" "$prefix/share"
staged=$(mktemp -d "$prefix/share/.harness4j.XXXXXX")
trap 'rm -rf "$staged" "$home.old"' EXIT
cp -R "$dist/." "$staged/"
chmod 755 "$staged"
rm -rf "$home.old"
if [ -e "$home" ]; then mv "$home" "$home.old"; fi
mv "$staged" "$home"
ln -sfn "$home/bin/harness4j" "$prefix/bin/harness4j"
echo "[install] $("$prefix/bin/harness4j" --version) installed: $prefix/bin/harness4j -> $home/bin/harness4j" >&2
case ":$PATH:" in
  *":$prefix/bin:"*) ;;
  *) echo "[install] $prefix/bin is not on PATH; add it, e.g.: echo 'export PATH=\"$prefix/bin:\$PATH\"' >> ~/.bashrc" >&2 ;;
esac
