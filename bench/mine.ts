/**
 * Mining benchmark: clusters a generated corpus with known recurring task types and planted
 * corrections (bench/mine-corpus.ts), and prints JSON with the adjusted Rand index against the truth,
 * the share of planted corrections recovered as checks on the session's cluster, the checks invented
 * from sessions without a correction, and the time of `mineSessions` (and of the clustering step
 * alone) at N and 2N sessions, each the median of `--runs` runs after a warm-up.
 *   npx tsc -p bench/tsconfig.bench.json
 *   node bench/out/js/bench/mine.js --sessions 20000 [--seed 1] [--runs 3]
 * `--diagnose` lists, per type, how its sessions were split (`--verbose`: with examples of the
 * smaller parts).
 */
import { mineSessions } from '../src/miner/mine.js';
import { userPrompts } from '../src/miner/normalize-intent.js';
import type { Check } from '../src/core/task.js';
import type { MinedNight, MinerSession } from '../src/miner/types.js';
import { generateCorpus, PROJECT } from './mine-corpus.js';
import type { Corpus } from './mine-corpus.js';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : (process.argv[i + 1] ?? fallback);
}

const n = Number(arg('sessions', '20000'));
const seed = Number(arg('seed', '1'));
const runs = Number(arg('runs', '3'));
const verbose = process.argv.includes('--verbose');

interface Quality {
  sessions: number;
  kept: number;
  clusters: number;
  truth_types: number;
  ari: number;
  planted_corrections: number;
  correction_recall: number;
  invented_checks: number;
  unexpected_checks_on_corrected: number;
  provenance_ok: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

function timeMine(sessions: readonly MinerSession[]): { ms: number; mined: MinedNight } {
  const times: number[] = [];
  let mined: MinedNight | undefined;
  for (let r = 0; r < runs; r++) {
    const t = performance.now();
    mined = mineSessions(sessions, { project: PROJECT, maxTasks: Number.MAX_SAFE_INTEGER });
    times.push(performance.now() - t);
  }
  if (mined === undefined) throw new Error('--runs must be at least 1');
  return { ms: median(times), mined };
}

const pairs = (k: number): number => (k * (k - 1)) / 2;

/** Adjusted Rand index (Hubert & Arabie) from the contingency table of two labelings. */
export function adjustedRandIndex(a: readonly string[], b: readonly string[]): number {
  const table = new Map<string, number>();
  const rows = new Map<string, number>();
  const cols = new Map<string, number>();
  a.forEach((labelA, i) => {
    const labelB = b[i] ?? '';
    const cell = `${labelA}\u0000${labelB}`;
    table.set(cell, (table.get(cell) ?? 0) + 1);
    rows.set(labelA, (rows.get(labelA) ?? 0) + 1);
    cols.set(labelB, (cols.get(labelB) ?? 0) + 1);
  });
  const sum = (m: Map<string, number>): number => [...m.values()].reduce((acc, k) => acc + pairs(k), 0);
  const index = sum(table);
  const rowPairs = sum(rows);
  const colPairs = sum(cols);
  const expected = (rowPairs * colPairs) / pairs(a.length);
  const max = (rowPairs + colPairs) / 2;
  return max === expected ? 1 : (index - expected) / (max - expected);
}

const checkKey = (c: Check): string => `${c.op}\u0000${String(c.arg ?? '')}`;

function quality(corpus: Corpus, mined: MinedNight): Quality {
  const clusterOf = new Map<string, string>();
  for (const cluster of mined.clusters) for (const key of cluster.members) clusterOf.set(key, cluster.id);
  const keys = corpus.sessions.map((s) => s.key).filter((key) => clusterOf.has(key));
  const ari = adjustedRandIndex(
    keys.map((key) => clusterOf.get(key) ?? ''),
    keys.map((key) => corpus.truth.get(key) ?? ''),
  );

  const prompts = new Map(corpus.sessions.map((s) => [s.key, userPrompts(s.turns).map((p) => p.text)]));
  const sourcesOf = new Map<string, Set<string>>();
  let invented = 0;
  let unexpected = 0;
  let provenanceOk = 0;
  let sources = 0;
  for (const cluster of mined.clusters) {
    for (const source of cluster.checkSources) {
      sources += 1;
      if (
        source.sentence !== '' &&
        (prompts.get(source.sessionKey) ?? []).some((p) => p.includes(source.sentence))
      ) {
        provenanceOk += 1;
      }
      const planted = corpus.planted.get(source.sessionKey);
      if (planted === undefined) {
        invented += 1;
        continue;
      }
      const key = checkKey(source.check);
      if (!planted.some((p) => p.expected.some((c) => checkKey(c) === key))) unexpected += 1;
      const set = sourcesOf.get(source.sessionKey) ?? new Set<string>();
      set.add(`${cluster.id}\u0000${key}`);
      sourcesOf.set(source.sessionKey, set);
    }
  }
  let plantedCount = 0;
  let recovered = 0;
  for (const [key, planted] of corpus.planted) {
    const cluster = clusterOf.get(key);
    if (cluster === undefined) continue;
    const found = sourcesOf.get(key) ?? new Set<string>();
    for (const correction of planted) {
      plantedCount += 1;
      if (correction.expected.every((c) => found.has(`${cluster}\u0000${checkKey(c)}`))) recovered += 1;
    }
  }
  return {
    sessions: corpus.sessions.length,
    kept: keys.length,
    clusters: mined.clusters.length,
    truth_types: new Set(keys.map((key) => corpus.truth.get(key))).size,
    ari: round(ari),
    planted_corrections: plantedCount,
    correction_recall: round(recovered / Math.max(1, plantedCount)),
    invented_checks: invented,
    unexpected_checks_on_corrected: unexpected,
    provenance_ok: round(provenanceOk / Math.max(1, sources)),
  };
}

function round(x: number): number {
  return Math.round(x * 10_000) / 10_000;
}

/** Per truth type: how many clusters hold it and the share of the biggest; clusters that mix types. */
function diagnose(corpus: Corpus, mined: MinedNight): void {
  const byType = new Map<string, Map<string, number>>();
  const intents = new Map(corpus.sessions.map((s) => [s.key, userPrompts(s.turns)[0]?.text ?? '']));
  for (const cluster of mined.clusters) {
    const types = new Map<string, number>();
    for (const key of cluster.members) {
      const type = corpus.truth.get(key) ?? '?';
      const label = type.startsWith('one-off') ? 'one-off' : type;
      types.set(label, (types.get(label) ?? 0) + 1);
      const counts = byType.get(label) ?? new Map<string, number>();
      counts.set(cluster.id, (counts.get(cluster.id) ?? 0) + 1);
      byType.set(label, counts);
    }
    const real = [...types.entries()].filter(([t]) => t !== 'one-off');
    if (
      real.length > 1 ||
      (real.length === 1 && (types.get('one-off') ?? 0) > 0 && cluster.occurrences > 1)
    ) {
      console.log(
        'MIXED',
        cluster.occurrences,
        JSON.stringify([...types.entries()]),
        JSON.stringify(cluster.normalizedIntent),
      );
    }
  }
  for (const [type, counts] of [...byType.entries()].sort()) {
    if (type === 'one-off') continue;
    const sizes = [...counts.values()].sort((a, b) => b - a);
    const total = sizes.reduce((a, b) => a + b, 0);
    const split = mined.clusters.filter((c) => counts.has(c.id) && c.occurrences > 1).length;
    console.log(
      `${type.padEnd(22)} total=${total} clusters=${counts.size} multi=${split} top=${round((sizes[0] ?? 0) / total)} sizes=${sizes.slice(0, 6).join(',')}`,
    );
    if (verbose && counts.size > 1) {
      const small = mined.clusters
        .filter((c) => counts.has(c.id))
        .sort((a, b) => b.occurrences - a.occurrences)
        .slice(1, 4);
      for (const c of small)
        console.log(
          '   ',
          c.occurrences,
          JSON.stringify(c.normalizedIntent),
          JSON.stringify(intents.get(c.members[0] ?? '')),
        );
    }
  }
}

// Warm-up so the first timed run does not pay for the JIT.
mineSessions(generateCorpus({ sessions: 2000, seed: seed + 1000 }).sessions, {
  project: PROJECT,
  maxTasks: 10,
});

const small = generateCorpus({ sessions: n, seed });
const atN = timeMine(small.sessions);
const qualityN = quality(small, atN.mined);
if (process.argv.includes('--diagnose')) diagnose(small, atN.mined);

const large = generateCorpus({ sessions: 2 * n, seed });
const at2N = timeMine(large.sessions);
const quality2N = quality(large, at2N.mined);

console.log(
  JSON.stringify(
    {
      seed,
      runs,
      [`n_${n}`]: { ...qualityN, mine_ms: Math.round(atN.ms) },
      [`n_${2 * n}`]: { ...quality2N, mine_ms: Math.round(at2N.ms) },
      time_ratio_2x: round(at2N.ms / atN.ms),
      goals: {
        ari: '>= 0.9',
        correction_recall: '>= 0.9',
        invented_checks: '0',
        mine_ms_at_20000: '<= 5000',
        time_ratio_2x: '<= 2.3',
      },
    },
    null,
    2,
  ),
);
