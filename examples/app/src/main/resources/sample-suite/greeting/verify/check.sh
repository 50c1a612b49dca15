# passes when greeting.txt holds exactly "Hello, bench!"
test -f greeting.txt || { echo "FAIL: greeting.txt is missing"; exit 1; }
test "$(cat greeting.txt)" = "Hello, bench!" || { echo "FAIL: greeting.txt holds: $(cat greeting.txt)"; exit 1; }
echo "PASS: greeting.txt says Hello, bench!"
