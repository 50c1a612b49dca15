# Helpers for test.sh: each criterion is a metric, 1 when it holds, else 0.
criterion() {
  if eval "$1"; then echo 1; else echo 0; fi
}
