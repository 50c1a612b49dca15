# the reference solution: multiply() beside the untouched add()
cat >> calc.py <<'PY'


def multiply(a, b):
    return a * b
PY
