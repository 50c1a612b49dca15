"""Checks calc.multiply; writes the share of passed checks as the reward."""
import os
import sys

sys.path.insert(0, os.getcwd())
checks = []
try:
    import calc
    checks = [
        ("add(2, 3) == 5", lambda: calc.add(2, 3) == 5),
        ("multiply(3, 4) == 12", lambda: calc.multiply(3, 4) == 12),
        ("multiply(-2, 5) == -10", lambda: calc.multiply(-2, 5) == -10),
        ("multiply(0, 7) == 0", lambda: calc.multiply(0, 7) == 0),
    ]
except Exception as e:  # a syntax error in the agent's calc.py fails every check
    print("FAIL: cannot import calc:", e)
passed = 0
for name, check in checks:
    try:
        ok = check()
    except Exception as e:
        ok = False
        name += " raised " + repr(e)
    print(("PASS: " if ok else "FAIL: ") + name)
    passed += ok
reward = os.environ.get("HARNESS4J_REWARD_FILE")
if reward:
    with open(reward, "w") as f:
        f.write("%.2f\n" % (passed / 4))
sys.exit(0 if passed == 4 else 1)
