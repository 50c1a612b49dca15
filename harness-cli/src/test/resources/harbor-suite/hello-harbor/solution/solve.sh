#!/bin/bash
printf 'Hello, Harbor!\n' > hello.txt
