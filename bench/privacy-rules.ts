/**
 * What the privacy rules cost a harvest, side by side in one process, rounds interleaved:
 *   A. cold harvest without rules, and with rules that keep nothing out (three exclude globs, an include
 *      glob covering every project, the `.skillopt-sleep-ignore` lookups): the price of the checks;
 *   B. a second harvest with nothing new, with a third of the projects excluded (their transcripts are
 *      remembered as skipped) and without rules: a skipped transcript must cost no more than a stored one.
 *   bench/run.sh gen-corpus --out /tmp/corpus --mb 40
 *   bench/run.sh privacy-rules --corpus /tmp/corpus [--rounds 5]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { systemClock } from '../src/core/clock.js';
import { silentLogger } from '../src/core/logger.js';
import { harvest } from '../src/harvest/harvest.js';
import { harvestRules, type HarvestRules } from '../src/harvest/harvest-rules.js';
import { openStore } from '../src/store/db.js';

function arg(name: string, fallback?: string): string {
  const i = process.argv.indexOf(`--${name}`);
  const v = i === -1 ? fallback : process.argv[i + 1];
  if (v === undefined) throw new Error(`missing --${name}`);
  return v;
}

const home = path.join(arg('corpus'), 'home');
const rounds = Number(arg('rounds', '5'));
const ctx = { userHome: home, platform: process.platform };
const matchNothing = harvestRules(
  { exclude_paths: ['~/client-*', '/srv/private/**', 'secret-*'], include_paths: ['/work/**'] },
  ctx,
);
// The generator's projects are /work/proj-1 … /work/proj-10: exclude three of them.
const excludeThird = harvestRules(
  { exclude_paths: ['/work/proj-1', '/work/proj-2', '/work/proj-3'], include_paths: [] },
  ctx,
);

/** Milliseconds of CPU (user + system) of one harvest into the store at `state`. */
async function cpuMs(
  state: string,
  rules: HarvestRules | undefined,
): Promise<{ ms: number; stored: number }> {
  const db = openStore(path.join(state, 'store.sqlite'));
  const before = process.cpuUsage();
  const summary = await harvest({
    db,
    ctx: { home, env: {} },
    clock: systemClock,
    logger: silentLogger,
    ...(rules ? { rules } : {}),
  });
  const used = process.cpuUsage(before);
  db.close();
  return { ms: (used.user + used.system) / 1000, stored: summary.sessionsStored };
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const fresh = (): string => mkdtempSync(path.join(os.tmpdir(), 'sos-bench-privacy-'));

const cold = { none: [] as number[], rules: [] as number[] };
const again = { none: [] as number[], excluded: [] as number[] };
let stored = { none: 0, rules: 0, excluded: 0 };
for (let r = 0; r < rounds; r++) {
  const order = r % 2 === 0 ? (['none', 'rules'] as const) : (['rules', 'none'] as const);
  for (const which of order) {
    const state = fresh();
    const run = await cpuMs(state, which === 'rules' ? matchNothing : undefined);
    cold[which].push(run.ms);
    stored = { ...stored, [which]: run.stored };
    rmSync(state, { recursive: true, force: true });
  }
  for (const which of r % 2 === 0 ? (['none', 'excluded'] as const) : (['excluded', 'none'] as const)) {
    const state = fresh();
    const rules = which === 'excluded' ? excludeThird : undefined;
    const first = await cpuMs(state, rules);
    if (which === 'excluded') stored = { ...stored, excluded: first.stored };
    again[which].push((await cpuMs(state, rules)).ms);
    rmSync(state, { recursive: true, force: true });
  }
}

const row = (label: string, a: number, b: number): string =>
  `| ${label} | ${a.toFixed(0)} ms | ${b.toFixed(0)} ms | ${(b / a).toFixed(2)} |`;
console.log(`corpus ${home}, ${rounds} rounds interleaved, CPU ms (medians)`);
console.log(
  `sessions stored: no rules ${stored.none}, rules keeping nothing out ${stored.rules}, a third excluded ${stored.excluded}`,
);
console.log('| what | without rules | with rules | ratio |');
console.log('|---|---|---|---|');
console.log(row('cold harvest, rules that keep nothing out', median(cold.none), median(cold.rules)));
console.log(
  row(
    'harvest with nothing new, a third of the projects excluded',
    median(again.none),
    median(again.excluded),
  ),
);
