# the reference solution: what a correct agent writes
printf '{"port": 8080, "debug": false}\n' > config.json
