#!/usr/bin/env bash
# Builds the harness4j command's distribution, harness-cli/target/harness4j-<version>/ (bin/harness4j
# and lib/), when its sources changed since the last build, and prints that directory's path.
# Used by scripts/harness4j (the command from a checkout) and scripts/install.sh.
#   1. the stamp: the path, size and mtime of every file the distribution is built from (the poms,
#      each module's src/main, harness-cli's assembly and launcher, scripts/install-clis.sh)
#   2. when it differs from the last build's (or the distribution is gone): installs the pinned
#      CLIs (scripts/install-clis.sh, idempotent), then mvn package with tests skipped (nothing is
#      installed into ~/.m2); Maven's output is shown only when the build fails
#   HARNESS4J_MVN_ARGS   extra Maven arguments, e.g. -o
#   HARNESS4J_CLIS_READY set (by scripts/install.sh, which installs them first): no CLI install here
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
version=$(sed -n 's:.*<version>\(.*\)</version>.*:\1:p' pom.xml | head -1)
dist="$root/harness-cli/target/harness4j-$version"
stamp="harness-cli/target/harness4j-dist.stamp"
sources() {
  find pom.xml ./*/pom.xml harness-*/src/main harness-cli/src/assembly harness-cli/src/dist \
      scripts/install-clis.sh -type f -print0 2>/dev/null | sort -z | xargs -0 stat -c '%n %s %.9Y' | sha1sum
}
mkdir -p harness-cli/target
exec 9>harness-cli/target/harness4j-dist.lock
flock 9 # one build at a time; a second caller waits and then finds it fresh
want="$(sources | cut -d' ' -f1) $dist"
if [ -x "$dist/bin/harness4j" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
  echo "$dist"
  exit 0
fi
if [ -z "${HARNESS4J_CLIS_READY:-}" ]; then bash scripts/install-clis.sh >&2; fi
echo "[harness4j] building the distribution $dist (mvn package, tests skipped)" >&2
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# -B -Dstyle.color=never: no colour; Maven 3.8 still writes colour resets, so the log is kept from
# the terminal and shown (without escape codes) only when the build fails
if ! mvn -B -q -Dstyle.color=never ${HARNESS4J_MVN_ARGS:-} -DskipTests -Dmaven.javadoc.skip=true \
    -Dmaven.source.skip=true -pl harness-cli -am package >"$log" 2>&1; then
  sed 's/\x1b\[[0-9;]*m//g' "$log" >&2
  echo "[harness4j] the build failed (Maven's output above)" >&2
  exit 1
fi
if [ ! -x "$dist/bin/harness4j" ]; then
  echo "[harness4j] the build did not make $dist/bin/harness4j" >&2
  exit 1
fi
echo "$want" > "$stamp"
echo "$dist"
