# the reference solution: what a correct agent writes
printf 'Hello, bench!\n' > greeting.txt
