#!/usr/bin/env bash
# Reproducible-build check: builds every module twice from scratch (each module's target/ is
# removed first) and compares the sha256 of every jar, sources and javadoc jars included.
# Exits 1 when a jar differs or one build made a jar the other did not.
#   bash scripts/reproducible-check.sh            # offline (-o): plugins already in ~/.m2
#   MVN_ARGS="" bash scripts/reproducible-check.sh   # let Maven download what it misses
# The jars' entry times come from project.build.outputTimestamp in the parent pom.
set -euo pipefail
cd "$(dirname "$0")/.."
MVN_ARGS=${MVN_ARGS--o}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

wipe() {
  # the target/ beside each pom.xml of the tree, what mvn clean would remove
  find . -name pom.xml -not -path '*/target/*' -not -path './.git/*' -print0 |
    while IFS= read -r -d '' pom; do rm -rf "$(dirname "$pom")/target"; done
}

checksums() {
  find . -path '*/target/*.jar' -not -path '*/target/*/*' -not -path './.git/*' -print0 |
    sort -z | xargs -0 -r sha256sum
}

for build in 1 2; do
  echo "[reproducible] build $build: mvn -B -q $MVN_ARGS package -DskipTests" >&2
  wipe
  # shellcheck disable=SC2086
  mvn -B -q $MVN_ARGS package -DskipTests
  checksums > "$work/build$build.sha256"
done

count=$(wc -l < "$work/build1.sha256")
if [ "$count" -eq 0 ]; then
  echo "[reproducible] no jar was built" >&2
  exit 1
fi
echo "[reproducible] sha256 of the jars of build 1:"
cat "$work/build1.sha256"
if diff -u "$work/build1.sha256" "$work/build2.sha256"; then
  echo "[reproducible] OK: $count jars byte-identical across two builds"
else
  echo "[reproducible] FAILED: the lines above differ between build 1 (-) and build 2 (+)" >&2
  exit 1
fi
