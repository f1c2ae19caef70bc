#!/usr/bin/env bash
# Scores the miner on both development corpora of ../shared/eval (see its README.md) with the shared
# scorer, one line per project.
#   bench/mine-eval.sh            (from anywhere; the project is this script's parent folder)
# Unpacks dev-a and dev-b to /tmp/skillopt-eval/ when they are not there (their transcripts name that
# absolute path), builds the CLI when dist/ is missing or older than a source file, then runs
# `bash ../shared/eval/mining-eval.sh /tmp/skillopt-eval/<corpus>` from the project root for each.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
shared="$root/../shared/eval"
eval_home=/tmp/skillopt-eval
corpora=(dev-a dev-b)

if [ ! -f "$shared/mining-eval.sh" ] || [ ! -f "$shared/score-mining.mjs" ]; then
  echo "mine-eval: $(cd "$root/.." && pwd)/shared/eval (mining-eval.sh, score-mining.mjs) not found: check out shared/ beside the project" >&2
  exit 1
fi

mkdir -p "$eval_home"
for c in "${corpora[@]}"; do
  [ -f "$eval_home/$c/ground-truth.json" ] && continue
  tarball="$shared/corpora/$c.tar.gz"
  [ -f "$tarball" ] || { echo "mine-eval: $tarball not found" >&2; exit 1; }
  # Unpack beside the target and move it into place, so an interrupted unpack never looks complete.
  staging=$(mktemp -d "$eval_home/.unpack-$c.XXXXXX")
  tar -xzf "$tarball" -C "$staging"
  rm -rf "${eval_home:?}/$c"
  mv "$staging/$c" "$eval_home/$c"
  rmdir "$staging"
  echo "unpacked $c to $eval_home/$c" >&2
done

cd "$root"
cli=dist/src/cli/main.js
if [ ! -f "$cli" ] || [ -n "$(find src harvesters proposals -name '*.ts' -newer "$cli" -print -quit)" ]; then
  echo "building the CLI (npm run build)" >&2
  npm run --silent build >&2
fi

for c in "${corpora[@]}"; do
  echo "== $c ($(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?'))"
  bash "$shared/mining-eval.sh" "$eval_home/$c"
done
