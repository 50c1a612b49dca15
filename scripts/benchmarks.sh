#!/usr/bin/env bash
# Runs the benchmark programs (no timed unit tests: each program measures contenders side by
# side in one run and prints medians and ratios). Usage:
#   bash scripts/benchmarks.sh                 all of them
#   bash scripts/benchmarks.sh NAME...         some of them (the list is ALL below)
#   bash scripts/benchmarks.sh --smoke [NAME...]  each with a tiny size: proves they start (CI runs this)
# The modules are built once (reactor, -am) and each program runs with `java` on its module's test
# class path, so a program of one module never runs in another (exec:java would run in all of them).
set -euo pipefail
cd "$(dirname "$0")/.."
smoke=0
if [ "${1:-}" = "--smoke" ]; then smoke=1; shift; fi
names=("$@")
ALL=(overhead isolation supervisor sandbox sandbox-cli queue summary metrics report server matrix meter claude pg cli-start serve acp)
[ ${#names[@]} -gt 0 ] || names=("${ALL[@]}")
for n in "${names[@]}"; do
  case " ${ALL[*]} " in *" $n "*) ;;
    *) echo "unknown benchmark '$n' (${ALL[*]})" >&2; exit 2 ;;
  esac
done
bash scripts/install-clis.sh
MODULES=harness-core,harness-meter,harness-bench,harness-testkit,harness-postgres,harness-cli,examples/app,harness-acp
echo "[benchmarks] building $MODULES and writing their test class paths" >&2
mvn -B -q -pl "$MODULES" -am test-compile dependency:build-classpath \
  -Dmdep.includeScope=test -Dmdep.outputFile=target/benchmark.classpath ${HARNESS4J_MVN_ARGS:-}
run() { # module main-class args...
  local module=$1 main=$2; shift 2
  echo "== $main $*" >&2
  java ${JVM_OPTS:-} -cp "$module/target/test-classes:$module/target/classes:$(cat "$module/target/benchmark.classpath")" "$main" "$@"
}
tmp="${TMPDIR:-/tmp}"
for n in "${names[@]}"; do
  if [ $smoke = 1 ]; then
    case $n in
      overhead)   run harness-meter dev.harness4j.core.benchmarks.OverheadBenchmark 2 CLONE "$tmp" ;;
      isolation)  run harness-core dev.harness4j.core.benchmarks.IsolationBenchmark 50 1 ;;
      supervisor) run harness-core dev.harness4j.core.benchmarks.SupervisorOverheadBenchmark 3 ;;
      sandbox)    run harness-core dev.harness4j.core.benchmarks.SandboxBenchmark 3 harness-core/target ;;
      queue)      run harness-core dev.harness4j.core.benchmarks.QueueHistoryBenchmark 0,20 5 1 2 1 ;;
      summary)    run harness-bench dev.harness4j.bench.benchmarks.SummaryBenchmark 200 ;;
      metrics)    run harness-bench dev.harness4j.bench.benchmarks.MetricsReportBenchmark 300 30 ;;
      report)     run harness-bench dev.harness4j.bench.benchmarks.ReportChromiumBenchmark 30 1 ;;
      server)     run harness-testkit dev.harness4j.testkit.benchmarks.ScriptedModelServerBenchmark 3 10 ;;
      matrix)     run examples/app dev.harness4j.examples.benchmarks.MatrixOverheadBenchmark 2 1 ;;
      meter)      JVM_OPTS=-Xmx64m run harness-meter dev.harness4j.core.benchmarks.MeterBenchmark 20 1 ;;
      claude)     run examples/app dev.harness4j.examples.benchmarks.ClaudeRunOverheadBenchmark 1 ;;
      pg)         run harness-postgres dev.harness4j.postgres.benchmarks.PgQueueBenchmark 50 1,4 500 ;;
      sandbox-cli) run examples/app dev.harness4j.examples.benchmarks.SandboxCliBenchmark 1 ;;
      # the installed command's start: the distribution (scripts/dist.sh builds it when stale)
      cli-start)  run harness-cli dev.harness4j.cli.benchmarks.CliStartBenchmark 2 "$(bash scripts/dist.sh)" ;;
      serve)      run harness-cli dev.harness4j.cli.benchmarks.ServePageBenchmark 50 1 ;;
      acp)        run harness-acp dev.harness4j.acp.benchmarks.AcpVsNativeBenchmark 1 ;;
    esac
    continue
  fi
  case $n in
    overhead)   run harness-meter dev.harness4j.core.benchmarks.OverheadBenchmark 30 CLONE "$tmp"
                # a run's file system work (checkout, .git, results) costs what the disk charges:
                # measured again in memory where there is a tmpfs, for comparison
                if [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ]; then
                  run harness-meter dev.harness4j.core.benchmarks.OverheadBenchmark 30 CLONE /dev/shm
                fi ;;
    isolation)  run harness-core dev.harness4j.core.benchmarks.IsolationBenchmark 20000 5 ;;
    supervisor) run harness-core dev.harness4j.core.benchmarks.SupervisorOverheadBenchmark 100 ;;
    sandbox)    run harness-core dev.harness4j.core.benchmarks.SandboxBenchmark 100 harness-core/target ;;
    queue)      run harness-core dev.harness4j.core.benchmarks.QueueHistoryBenchmark 0,10000,100000 1000 5 4 3 ;;
    summary)    run harness-bench dev.harness4j.bench.benchmarks.SummaryBenchmark 100000 ;;
    metrics)    run harness-bench dev.harness4j.bench.benchmarks.MetricsReportBenchmark 100000 5000 ;;
    report)     run harness-bench dev.harness4j.bench.benchmarks.ReportChromiumBenchmark 5000 5 ;;
    server)     run harness-testkit dev.harness4j.testkit.benchmarks.ScriptedModelServerBenchmark ;;
    matrix)     run examples/app dev.harness4j.examples.benchmarks.MatrixOverheadBenchmark ;;
    meter)      JVM_OPTS=-Xmx64m run harness-meter dev.harness4j.core.benchmarks.MeterBenchmark 2000 100 ;;
    claude)     run examples/app dev.harness4j.examples.benchmarks.ClaudeRunOverheadBenchmark 10 ;;
    # starts its own PostgreSQL (Debian's postgresql package; scripts/test.sh installs it)
    pg)         run harness-postgres dev.harness4j.postgres.benchmarks.PgQueueBenchmark 1000 1,4,16 100000 ;;
    sandbox-cli) run examples/app dev.harness4j.examples.benchmarks.SandboxCliBenchmark 10 claude-code ;;
    cli-start)  run harness-cli dev.harness4j.cli.benchmarks.CliStartBenchmark 10 "$(bash scripts/dist.sh)" "$(pwd)" ;;
    # the live view's bench page of 5,000 runs in headless Chromium (target: <= 1 s)
    serve)      run harness-cli dev.harness4j.cli.benchmarks.ServePageBenchmark 5000 5 ;;
    # acp:gemini (gemini --acp driven over JSON-RPC) against the native gemini adapter (target: <= 1.10)
    acp)        run harness-acp dev.harness4j.acp.benchmarks.AcpVsNativeBenchmark 10 ;;
  esac
done
