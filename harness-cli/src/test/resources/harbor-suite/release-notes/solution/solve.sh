#!/bin/bash
{
  echo "# Release 2.0"
  while read -r change; do echo "- $change"; done < CHANGES.txt
} > NOTES.md
