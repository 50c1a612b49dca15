#!/bin/bash
printf '{"port": 8080, "debug": false}\n' > config.json
