#!/usr/bin/env bash
# Compile the bench scripts (Node 20 cannot run .ts) and run one of them.
#   bench/run.sh gen-corpus --out /tmp/corpus --mb 200 [--seed 1]
#   bench/run.sh append-session --out /tmp/corpus [--grow]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
script="${1:?usage: bench/run.sh <script> [args...]}"
shift
"$root/node_modules/.bin/tsc" -p "$root/bench/tsconfig.bench.json"
exec node "$root/bench/out/js/bench/$script.js" "$@"
