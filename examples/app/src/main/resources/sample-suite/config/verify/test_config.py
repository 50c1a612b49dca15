"""Checks config.json: port is the number 8080, debug the boolean false."""
import json
import sys

try:
    with open("config.json") as f:
        config = json.load(f)
except Exception as e:
    print("FAIL: config.json is not readable JSON:", e)
    sys.exit(1)
problems = []
if not (isinstance(config.get("port"), int) and config["port"] == 8080):
    problems.append("port must be the number 8080, is %r" % (config.get("port"),))
if config.get("debug") is not False:
    problems.append("debug must be the boolean false, is %r" % (config.get("debug"),))
for p in problems:
    print("FAIL:", p)
if not problems:
    print("PASS: port 8080, debug false")
sys.exit(1 if problems else 0)
