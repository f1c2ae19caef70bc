/**
 * Mining benchmark: mines a generated corpus with known recurring task types, tool actions and
 * planted corrections (bench/mine-corpus.ts, bench/mine-work.ts) and prints JSON with
 *
 * - quality: the adjusted Rand index of the clusters against the true task types; correction recall
 *   (a planted correction counts when the miner's report for that session and sentence gave checks
 *   meeting everything the correction means); rule recall (per task type and convention corrected
 *   in two or more sessions: the type's main cluster holds the checks); invented checks (cluster
 *   checks that no planted correction of a member explains), checks given by sessions without a
 *   planted correction, and unexpected checks on corrected sessions;
 * - speed: the time of `mineSessions` at N and 2N sessions (median of `--runs` after a warm-up, wall
 *   and CPU time), the same for two bare passes over the same sessions measured in the same process
 *   (a JSON round trip of the sessions; lower-casing and splitting every user prompt), the miner's
 *   time as a multiple of each, and the 2N/N ratios (near-linear ≈ 2);
 * - the machine: Node version, CPUs, load averages before and after, peak RSS.
 *
 *   npx tsc -p bench/tsconfig.bench.json
 *   node bench/out/js/bench/mine.js --sessions 20000 [--seed 1] [--runs 3] [--no-2x]
 * `--diagnose` lists, per type, how its sessions were split and the recall per correction kind
 * (`--verbose`: with examples of the smaller parts and of missed corrections).
 */
import os from 'node:os';
import { mineSessions } from '../src/miner/mine.js';
import { userPrompts } from '../src/miner/normalize-intent.js';
import type { Check } from '../src/core/task.js';
import type { Cluster, MinedNight, MinerSession } from '../src/miner/types.js';
import { generateCorpus, PROJECT } from './mine-corpus.js';
import type { Corpus, PlantedCorrection } from './mine-corpus.js';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : (process.argv[i + 1] ?? fallback);
}

const n = Number(arg('sessions', '20000'));
const seed = Number(arg('seed', '1'));
const runs = Number(arg('runs', '3'));
const verbose = process.argv.includes('--verbose');
const diagnosing = process.argv.includes('--diagnose');
const twice = !process.argv.includes('--no-2x');
if (!(runs >= 1)) throw new Error('--runs must be at least 1');

interface Quality {
  sessions: number;
  kept: number;
  clusters: number;
  truth_types: number;
  ari: number;
  planted_corrections: number;
  correction_recall: number;
  rules_planted: number;
  rule_recall: number;
  invented_checks: number;
  checks_from_uncorrected_sessions: number;
  unexpected_checks_on_corrected: number;
}

interface Timed {
  /** Median wall time and the CPU time (user + system) of that run, in ms. */
  wall_ms: number;
  cpu_ms: number;
  all_wall_ms: number[];
}

/** Runs `fn` `runs` times; the median run's wall time and that run's CPU time. */
function timed<T>(fn: () => T): { timing: Timed; result: T } {
  const samples: Array<{ wall: number; cpu: number }> = [];
  let result: T | undefined;
  for (let r = 0; r < runs; r++) {
    const cpu = process.cpuUsage();
    const t = performance.now();
    result = fn();
    const wall = performance.now() - t;
    const used = process.cpuUsage(cpu);
    samples.push({ wall, cpu: (used.user + used.system) / 1000 });
  }
  const sorted = [...samples].sort((a, b) => a.wall - b.wall);
  const mid = sorted[Math.floor(sorted.length / 2)] ?? { wall: Number.NaN, cpu: Number.NaN };
  return {
    timing: {
      wall_ms: round1(mid.wall),
      cpu_ms: round1(mid.cpu),
      all_wall_ms: samples.map((s) => round1(s.wall)),
    },
    result: result as T,
  };
}

/** A bare pass over everything the miner reads: the sessions through JSON and back. */
function jsonRoundTrip(sessions: readonly MinerSession[]): number {
  return (JSON.parse(JSON.stringify(sessions)) as unknown[]).length;
}

/** A bare pass over the prompts: every user turn lower-cased and split into words. */
function promptWords(sessions: readonly MinerSession[]): number {
  let words = 0;
  for (const session of sessions) {
    for (const turn of session.turns)
      if (turn.role === 'user') words += turn.text.toLowerCase().split(/\s+/).length;
  }
  return words;
}

const mine = (sessions: readonly MinerSession[]): MinedNight =>
  mineSessions(sessions, { project: PROJECT, maxTasks: Number.MAX_SAFE_INTEGER });

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

const meets = (correction: PlantedCorrection, checks: readonly Check[]): boolean =>
  correction.expected.every((m) => checks.some((c) => m.test(c)));
const explains = (corrections: readonly PlantedCorrection[], check: Check): boolean =>
  corrections.some((p) => [...p.expected, ...p.allowed].some((m) => m.test(check)));

/** The miner's report of one planted correction (same session, same sentence), if it made one. */
function reportOf(
  cluster: Cluster | undefined,
  key: string,
  text: string,
): Cluster['correctionReports'][number] | undefined {
  const sentence = text.trim().slice(0, 300);
  return cluster?.correctionReports.find((r) => r.sessionKey === key && r.sentence === sentence);
}

interface Scored {
  quality: Quality;
  /** correction kind → [recovered, planted] */
  byKind: Map<string, [number, number]>;
  missed: Array<{ kind: string; text: string; result: string; reason: string; checks: string[] }>;
}

function quality(corpus: Corpus, mined: MinedNight): Scored {
  const clusterOf = new Map<string, Cluster>();
  for (const cluster of mined.clusters) for (const key of cluster.members) clusterOf.set(key, cluster);
  const keys = corpus.sessions.map((s) => s.key).filter((key) => clusterOf.has(key));
  const ari = adjustedRandIndex(
    keys.map((key) => clusterOf.get(key)?.id ?? ''),
    keys.map((key) => corpus.truth.get(key) ?? ''),
  );

  // Per planted correction: did the miner's report of it give what it means?
  let plantedCount = 0;
  let recovered = 0;
  const byKind = new Map<string, [number, number]>();
  const missed: Scored['missed'] = [];
  for (const [key, planted] of corpus.planted) {
    const cluster = clusterOf.get(key);
    if (cluster === undefined) continue;
    for (const correction of planted) {
      plantedCount += 1;
      const report = reportOf(cluster, key, correction.text);
      const ok = report !== undefined && meets(correction, report.checks);
      if (ok) recovered += 1;
      else
        missed.push({
          kind: correction.kind,
          text: correction.text,
          result: report?.result ?? 'no report',
          reason: report?.reason ?? '',
          checks: (report?.checks ?? []).map((c) => `${c.op} ${String(c.arg)}`),
        });
      const entry = byKind.get(correction.kind) ?? [0, 0];
      byKind.set(correction.kind, [entry[0] + (ok ? 1 : 0), entry[1] + 1]);
    }
  }

  // Per task type and convention corrected in two or more of its sessions: the type's main cluster
  // (the one holding most of its sessions) has checks meeting it.
  const typeSessions = new Map<string, string[]>();
  for (const key of keys) {
    const type = corpus.truth.get(key) ?? '';
    if (!type.startsWith('one-off')) typeSessions.set(type, [...(typeSessions.get(type) ?? []), key]);
  }
  let rulesPlanted = 0;
  let rulesFound = 0;
  for (const members of typeSessions.values()) {
    const counts = new Map<Cluster, number>();
    for (const key of members) {
      const c = clusterOf.get(key);
      if (c !== undefined) counts.set(c, (counts.get(c) ?? 0) + 1);
    }
    const main = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
    const kinds = new Map<string, PlantedCorrection[]>();
    for (const key of members) {
      for (const p of corpus.planted.get(key) ?? []) kinds.set(p.kind, [...(kinds.get(p.kind) ?? []), p]);
    }
    for (const [, list] of kinds) {
      if (list.length < 2 || list[0] === undefined) continue;
      rulesPlanted += 1;
      if (main !== undefined && meets(list[0], main.checks)) rulesFound += 1;
    }
  }

  // Checks no planted correction of the cluster's members explains; reports that gave checks in
  // sessions without a planted correction; checks on corrected sessions their corrections do not mean.
  let invented = 0;
  let fromUncorrected = 0;
  let unexpected = 0;
  for (const cluster of mined.clusters) {
    const memberCorrections = cluster.members.flatMap((key) => corpus.planted.get(key) ?? []);
    for (const check of cluster.checks) if (!explains(memberCorrections, check)) invented += 1;
    for (const report of cluster.correctionReports) {
      if (report.result !== 'checks') continue;
      const planted = corpus.planted.get(report.sessionKey);
      if (planted === undefined) fromUncorrected += 1;
      else for (const check of report.checks) if (!explains(planted, check)) unexpected += 1;
    }
  }
  return {
    quality: {
      sessions: corpus.sessions.length,
      kept: keys.length,
      clusters: mined.clusters.length,
      truth_types: new Set(keys.map((key) => corpus.truth.get(key))).size,
      ari: round(ari),
      planted_corrections: plantedCount,
      correction_recall: round(recovered / Math.max(1, plantedCount)),
      rules_planted: rulesPlanted,
      rule_recall: round(rulesFound / Math.max(1, rulesPlanted)),
      invented_checks: invented,
      checks_from_uncorrected_sessions: fromUncorrected,
      unexpected_checks_on_corrected: unexpected,
    },
    byKind,
    missed,
  };
}

function round(x: number): number {
  return Math.round(x * 10_000) / 10_000;
}

function round1(x: number): number {
  return Math.round(x * 10) / 10;
}

/** Per truth type: how many clusters hold it and the share of the biggest; clusters that mix types. */
function diagnose(corpus: Corpus, mined: MinedNight, scored: Scored): void {
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
        JSON.stringify(cluster.label),
      );
    }
  }
  for (const [type, counts] of [...byType.entries()].sort()) {
    if (type === 'one-off') continue;
    const sizes = [...counts.values()].sort((a, b) => b - a);
    const total = sizes.reduce((a, b) => a + b, 0);
    const split = mined.clusters.filter((c) => counts.has(c.id) && c.occurrences > 1).length;
    const main = mined.clusters.find((c) => counts.has(c.id) && counts.get(c.id) === sizes[0]);
    console.log(
      `${type.padEnd(22)} total=${total} clusters=${counts.size} multi=${split} top=${round((sizes[0] ?? 0) / total)} sizes=${sizes.slice(0, 6).join(',')} checks=${JSON.stringify((main?.checks ?? []).map((c) => `${c.op} ${String(c.arg)}`))}`,
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
          JSON.stringify(c.label),
          JSON.stringify(intents.get(c.members[0] ?? '')),
        );
    }
  }
  for (const [kind, [ok, all]] of [...scored.byKind].sort())
    console.log(`correction ${kind.padEnd(20)} ${ok}/${all}`);
  if (verbose) {
    const shown = new Map<string, number>();
    for (const m of scored.missed) {
      const k = `${m.kind}\u0000${m.result}`;
      if ((shown.get(k) ?? 0) >= 2) continue;
      shown.set(k, (shown.get(k) ?? 0) + 1);
      console.log('MISSED', JSON.stringify(m));
    }
  }
}

function machine(): Record<string, unknown> {
  const cpus = os.cpus();
  return {
    node: process.version,
    cpus: cpus.length,
    cpu_model: cpus[0]?.model ?? '',
    loadavg_1_5_15: os.loadavg().map((x) => Math.round(x * 100) / 100),
  };
}

interface Measured {
  quality: Quality;
  mine: Timed;
  anchor_json: Timed;
  anchor_prompts: Timed;
  mine_vs_json: number;
  mine_vs_prompts: number;
  /** The same ratios from CPU time, which a busy machine disturbs less than wall time. */
  mine_vs_json_cpu: number;
  mine_vs_prompts_cpu: number;
  cpu_per_wall: number;
  loadavg_after: number[];
}

function measure(size: number): { measured: Measured; corpus: Corpus; mined: MinedNight; scored: Scored } {
  const corpus = generateCorpus({ sessions: size, seed });
  const json = timed(() => jsonRoundTrip(corpus.sessions)).timing;
  const words = timed(() => promptWords(corpus.sessions)).timing;
  const { timing, result: mined } = timed(() => mine(corpus.sessions));
  const scored = quality(corpus, mined);
  return {
    measured: {
      quality: scored.quality,
      mine: timing,
      anchor_json: json,
      anchor_prompts: words,
      mine_vs_json: round1(timing.wall_ms / json.wall_ms),
      mine_vs_prompts: round1(timing.wall_ms / words.wall_ms),
      mine_vs_json_cpu: round1(timing.cpu_ms / json.cpu_ms),
      mine_vs_prompts_cpu: round1(timing.cpu_ms / words.cpu_ms),
      cpu_per_wall: Math.round((timing.cpu_ms / timing.wall_ms) * 100) / 100,
      loadavg_after: os.loadavg().map((x) => Math.round(x * 100) / 100),
    },
    corpus,
    mined,
    scored,
  };
}

const before = machine();
// Warm-up so the first timed run does not pay for the JIT (the miner and both anchors).
{
  const warm = generateCorpus({ sessions: 2000, seed: seed + 1000 }).sessions;
  mineSessions(warm, { project: PROJECT, maxTasks: 10 });
  jsonRoundTrip(warm);
  promptWords(warm);
}

const atN = measure(n);
if (diagnosing) diagnose(atN.corpus, atN.mined, atN.scored);
const result: Record<string, unknown> = { seed, runs, machine: before, [`n_${n}`]: atN.measured };
if (twice) {
  // Free the first corpus before the second is built.
  (atN as { corpus?: Corpus }).corpus = undefined;
  (atN as { mined?: MinedNight }).mined = undefined;
  const at2N = measure(2 * n);
  result[`n_${2 * n}`] = at2N.measured;
  result.ratio_2x = {
    mine: round(at2N.measured.mine.wall_ms / atN.measured.mine.wall_ms),
    mine_cpu: round(at2N.measured.mine.cpu_ms / atN.measured.mine.cpu_ms),
    anchor_json: round(at2N.measured.anchor_json.wall_ms / atN.measured.anchor_json.wall_ms),
    anchor_json_cpu: round(at2N.measured.anchor_json.cpu_ms / atN.measured.anchor_json.cpu_ms),
    anchor_prompts: round(at2N.measured.anchor_prompts.wall_ms / atN.measured.anchor_prompts.wall_ms),
  };
}
result.peak_rss_mb = Math.round(process.resourceUsage().maxRSS / 1024);
result.goals = {
  ari: '>= 0.9',
  correction_recall: '>= 0.9',
  invented_checks: '0',
  mine_wall_ms_at_20000: '<= 5000',
  ratio_2x_mine: '<= 2.3 (near-linear: about 2)',
};
console.log(JSON.stringify(result, null, 2));
