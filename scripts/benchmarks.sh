#!/usr/bin/env bash
# Runs the benchmark programs (no timed unit tests: each program measures contenders side by
# side in one run and prints medians and ratios). Usage:
#   bash scripts/benchmarks.sh            all of them
#   bash scripts/benchmarks.sh NAME...    some: overhead isolation supervisor summary server matrix
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-clis.sh
run() { # module main-class args...
  local module=$1 main=$2; shift 2
  echo "== $main $*" >&2
  mvn -B -q -pl "$module" -am test-compile exec:java -Dexec.classpathScope=test \
    -Dexec.mainClass="$main" -Dexec.args="$*"
}
names=("$@")
[ ${#names[@]} -gt 0 ] || names=(overhead isolation supervisor summary server matrix)
for n in "${names[@]}"; do
  case $n in
    overhead)   run harness-core dev.harness4j.core.benchmarks.OverheadBenchmark 30 CLONE "${TMPDIR:-/tmp}"
                # a run's file system work (checkout, .git, results) costs what the disk charges:
                # measured again in memory where there is a tmpfs, for comparison
                if [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ]; then
                  run harness-core dev.harness4j.core.benchmarks.OverheadBenchmark 30 CLONE /dev/shm
                fi ;;
    isolation)  run harness-core dev.harness4j.core.benchmarks.IsolationBenchmark 20000 5 ;;
    supervisor) run harness-core dev.harness4j.core.benchmarks.SupervisorOverheadBenchmark 100 ;;
    summary)    run harness-core dev.harness4j.bench.benchmarks.SummaryBenchmark ;;
    server)     run harness-testkit dev.harness4j.testkit.bench.ScriptedModelServerBench ;;
    matrix)     run examples/app dev.harness4j.examples.bench.MatrixOverheadBenchmark ;;
    *) echo "unknown benchmark '$n' (overhead isolation supervisor summary server matrix)" >&2; exit 2 ;;
  esac
done
