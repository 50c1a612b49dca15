#!/bin/bash
# One reward: 1 when hello.txt holds the greeting, else 0.
if [[ "$(cat hello.txt 2>/dev/null)" == "Hello, Harbor!" ]]; then
  echo "PASS: hello.txt greets Harbor"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL: hello.txt holds: $(cat hello.txt 2>/dev/null || echo '(no file)')"
  echo 0 > /logs/verifier/reward.txt
fi
