import json
import sys

try:
    with open("config.json") as f:
        config = json.load(f)
except (OSError, ValueError) as e:
    print("FAIL: config.json is not readable JSON:", e)
    sys.exit(1)
if config.get("port") == 8080 and config.get("debug") is False:
    print("PASS: port 8080, debug false")
    sys.exit(0)
print("FAIL: expected port 8080 and debug false (a boolean), got", config)
sys.exit(1)
