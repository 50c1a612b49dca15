#!/usr/bin/env bash
# The bench main job, on a fresh machine, no API key needed (the harness4j command's `bench run` on
# the bundled sample suite, with an embedded scripted model server as its provider):
#   1. installs the pinned harness CLIs into ~/.cache/harness4j/tools (idempotent), and Debian's
#      bubblewrap and perl, which confine each run, when missing (scripts/install-sandbox.sh; without
#      root or password-less sudo it says how, and the runs go unconfined: the plan header says so)
#   2. builds examples/app and what it needs (mvn package; nothing is installed into ~/.m2)
#   3. runs dev.harness4j.examples.BenchMain with the arguments given here
# Without --provider: claude-code x opencode x aider x two scripted models on the embedded
# scripted model server, on a sample repository; prints the summary and the report's path.
#   bash scripts/bench.sh --help          for the arguments (--harness, --model, --provider, ...)
#   bash scripts/bench.sh --serve         also serves the live view while it runs (harness4j serve):
#                                         it prints "watch it live: http://127.0.0.1:PORT/?t=..."
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-clis.sh
bash scripts/install-sandbox.sh bench || true
echo "[bench] building examples/app (mvn package, tests skipped)" >&2
# Maven 3.8 writes colour resets even with -B: its output is shown (without escape codes) only on failure
log=$(mktemp)
if ! mvn -B -q -Dstyle.color=never ${HARNESS4J_MVN_ARGS:-} -DskipTests -Dmaven.javadoc.skip=true \
    -Dmaven.source.skip=true -pl examples/app -am package dependency:build-classpath \
    -Dmdep.outputFile=target/bench.classpath -DincludeScope=runtime >"$log" 2>&1; then
  sed 's/\x1b\[[0-9;]*m//g' "$log" >&2
  rm -f "$log"
  echo "[bench] the build failed (Maven's output above)" >&2
  exit 1
fi
rm -f "$log"
exec java -cp "examples/app/target/classes:$(cat examples/app/target/bench.classpath)" \
  dev.harness4j.examples.BenchMain "$@"
