#!/usr/bin/env bash
# What a mock night asks for, REV's trainer beside this checkout's, on the same sessions.
#   bench/night-cost.sh REV [--eval /tmp/skillopt-eval/dev-b] [--gen /tmp/night-cost-gen]
# Builds REV into a temporary worktree (removed at the end) and this checkout with `npm run build`;
# `--gen DIR` is written by bench/gen-corpus.ts when it is not there yet.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
rev="${1:?usage: bench/night-cost.sh REV [--eval DIR] [--gen DIR]}"
shift
old=$(mktemp -d /tmp/night-cost-old.XXXXXX)
cleanup() { git -C "$root" worktree remove --force "$old" >/dev/null 2>&1 || rm -rf "$old"; }
trap cleanup EXIT
git -C "$root" worktree add --detach --quiet "$old" "$rev"
ln -s "$root/node_modules" "$old/node_modules"
(cd "$old" && node scripts/build.mjs)
(cd "$root" && node scripts/build.mjs && npx tsc -p bench/tsconfig.bench.json)
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
  if [[ "${args[$i]}" == --gen && ! -d "${args[$((i + 1))]}/home" ]]; then
    node "$root/bench/out/js/bench/gen-corpus.js" --out "${args[$((i + 1))]}" --sessions 600 --projects 2 >/dev/null
  fi
done
node "$root/bench/night-cost.mjs" "$old" "$root" "$@"
