"""Checks stats.mean on a few lists, the empty one included."""
import os
import sys

sys.path.insert(0, os.getcwd())
import stats  # noqa: E402

cases = [([1, 2, 3], 2), ([4], 4), ([1.5, 2.5], 2.0), ([], 0)]
failed = 0
for xs, want in cases:
    try:
        got = stats.mean(xs)
    except Exception as e:
        got = repr(e)
    ok = got == want
    failed += not ok
    print(("PASS" if ok else "FAIL") + ": mean(%r) = %r (want %r)" % (xs, got, want))
sys.exit(1 if failed else 0)
