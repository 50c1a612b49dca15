#!/bin/bash
# Three named metrics in reward.json: a title, a bullet per change, the version named.
source /tests/grade.sh
title=$(criterion 'head -n 1 NOTES.md 2>/dev/null | grep -q "^# "')
changes=$(grep -c . CHANGES.txt)
bullets=$(criterion '[ "$(grep -c "^- " NOTES.md 2>/dev/null)" -ge "$changes" ]')
version=$(criterion 'head -n 1 NOTES.md 2>/dev/null | grep -q "2\.0"')
echo "title=$title bullets=$bullets version=$version"
printf '{"title": %s, "bullets": %s, "version": %s}\n' "$title" "$bullets" "$version" > /logs/verifier/reward.json
