# the reference solution: mean() divides by the count, and an empty list gives 0
cat > stats.py <<'PY'
def mean(xs):
    return sum(xs) / len(xs) if xs else 0
PY
