#!/usr/bin/env bash
# The miner of this checkout against the miner of REV, on the same sessions in one process.
#   bench/mine-versus.sh REV [--sessions 20000] [--runs 3]
# Builds REV's bench into a temporary worktree (removed at the end) and this checkout's into bench/out.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
rev="${1:?usage: bench/mine-versus.sh REV [--sessions N] [--runs R]}"
shift
old=$(mktemp -d /tmp/mine-versus.XXXXXX)
cleanup() { git -C "$root" worktree remove --force "$old" >/dev/null 2>&1 || rm -rf "$old"; }
trap cleanup EXIT
git -C "$root" worktree add --detach --quiet "$old" "$rev"
ln -s "$root/node_modules" "$old/node_modules"
(cd "$old" && npx tsc -p bench/tsconfig.bench.json)
(cd "$root" && npx tsc -p bench/tsconfig.bench.json)
node "$root/bench/mine-versus.mjs" "$old/bench/out/js" "$root/bench/out/js" "$@"
