/* eslint-disable no-console */
/* global process, console, performance */
// storedText of two builds in one process, paired rounds in alternating order: the median ratio of
// this build's time to the other's, per corpus, with no user pattern (outside and inside an empty
// redaction scope, as the CLI runs) and with one and three `redact_patterns`.
// Run: node bench/redact-vs-main.mjs <other build's dist> [rounds]   (build both first: npm run build)
// e.g. git archive main | tar -x -C /tmp/main && ln -s "$PWD/node_modules" /tmp/main && (cd /tmp/main && node scripts/build.mjs)
//      node bench/redact-vs-main.mjs /tmp/main/dist
import path from 'node:path';

const here = path.resolve(import.meta.dirname, '../dist/src/core');
const other = process.argv[2];
if (!other) throw new Error('usage: node bench/redact-vs-main.mjs <other dist> [rounds]');
const rounds = Number(process.argv[3] ?? 15);
const base = await import(path.resolve(other, 'src/core/safe-text.js'));
const mine = await import(path.join(here, 'safe-text.js'));
const user = await import(path.join(here, 'redact-user.js'));
const { buildCorpus } = await import(path.join(here, 'redact.bench.js'));

const bytes = 5_000_000;
const corpora = {
  clean: buildCorpus({ bytes }),
  typical: buildCorpus({ bytes, secretEvery: 25, seed: 3 }),
  dense: buildCorpus({ bytes, secretEvery: 2, seed: 7 }),
  short: Array.from({ length: 200_000 }, (_, i) => `ls -la src/file-${i}.ts && git status`),
};
const time = (turns, f) => {
  const t0 = performance.now();
  for (const s of turns) f(s);
  return performance.now() - t0;
};
const one = [{ name: 'acme-id', regex: 'ACME-[0-9]{6}' }];
const three = [...one, 'CASE-[0-9]{4}-[A-Z]{2}', { name: 'host', regex: 'db-prod-[0-9]+\\.internal' }];
const variants = {
  no_scope: (t) => time(t, mine.storedText),
  empty_scope: (t) => user.withRedactionScope(() => time(t, mine.storedText)),
  one_pattern: (t) => user.withRedactPatterns(one, () => time(t, mine.storedText)),
  three_patterns: (t) => user.withRedactPatterns(three, () => time(t, mine.storedText)),
};
const median = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
for (const turns of Object.values(corpora)) {
  time(turns, base.storedText); // warm both up
  time(turns, mine.storedText);
}
const ratios = {};
for (let r = 0; r < rounds; r++)
  for (const [c, turns] of Object.entries(corpora))
    for (const [v, f] of Object.entries(variants)) {
      const first = r % 2 === 0 ? f(turns) : time(turns, base.storedText);
      const second = r % 2 === 0 ? time(turns, base.storedText) : f(turns);
      const [b, m] = r % 2 === 0 ? [first, second] : [second, first];
      ((ratios[c] ??= {})[v] ??= []).push(b / m);
    }
for (const [c, vs] of Object.entries(ratios))
  console.log(
    c.padEnd(8),
    Object.entries(vs)
      .map(([v, rs]) => `${v} ${median(rs).toFixed(3)}`)
      .join('  '),
  );
