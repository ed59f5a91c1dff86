#!/usr/bin/env bash
# Runs npm scripts at once and fails if any of them fails:
#   bash scripts/run-parallel.sh typecheck lint format:check gen:check
# Each script's output goes to a file of its own and is printed whole, under the script's name, when
# it ends, so two outputs never interleave. `npm run check` (part of `npm test`) runs the static
# checks this way, two at a time, each mostly one process on one core (D020, amendment of
# 2026-12-02): gen:check beside format:check, then typecheck beside lint. gen:check rewrites
# src/isa/registry/generated/*.ts in place (the same text when nothing changed), and tsc and eslint
# read those files, so they never run beside it; prettier ignores them.
set -uo pipefail

if [ $# -eq 0 ]; then
  echo "usage: bash scripts/run-parallel.sh NPM_SCRIPT..." >&2
  exit 3
fi

logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT

declare -A name_of started_at
for name in "$@"; do
  npm run "$name" >"$logs/$name.log" 2>&1 &
  name_of[$!]=$name
  started_at[$name]=$SECONDS
done

failed=()
for _ in "$@"; do
  wait -n -p done_pid
  rc=$?
  name=${name_of[$done_pid]}
  took=$((SECONDS - ${started_at[$name]}))
  if [ "$rc" -eq 0 ]; then
    echo "── $name: passed in ${took} s"
  else
    echo "── $name: FAILED (exit $rc) in ${took} s"
    failed+=("$name")
  fi
  cat "$logs/$name.log"
done

if [ ${#failed[@]} -gt 0 ]; then
  echo "failed: ${failed[*]}" >&2
  exit 1
fi
