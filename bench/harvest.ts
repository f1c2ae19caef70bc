/**
 * Harvest benchmark: cold ingest of a generated corpus, a second harvest with nothing new, and the
 * ingest of one appended session; each in a fresh process. Also greps the store for planted secrets.
 *   bench/run.sh gen-corpus --out /tmp/corpus --mb 200
 *   bench/run.sh harvest --corpus /tmp/corpus [--runs 3]
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

interface Run {
  ms: number;
  bytes: number;
  files: number;
  parsed: number;
  sessions: number;
  bad_lines: number;
  peak_rss_mb: number;
}

const here = path.dirname(new URL(import.meta.url).pathname);
const once = path.join(here, 'harvest-once.js');
const appendScript = path.join(here, 'append-session.js');

function arg(name: string, fallback?: string): string {
  const i = process.argv.indexOf(`--${name}`);
  const v = i === -1 ? fallback : process.argv[i + 1];
  if (v === undefined) throw new Error(`missing --${name}`);
  return v;
}

function harvestOnce(home: string, state: string, extra: string[] = []): Run & { wallMs: number } {
  const t = performance.now();
  const out = execFileSync(process.execPath, [once, '--home', home, '--state', state, ...extra], {
    encoding: 'utf8',
  });
  return { ...(JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as Run), wallMs: performance.now() - t };
}

/** A process that starts and opens the store but has nothing to do: the start-up to subtract. */
function startupMs(): number {
  const empty = mkdtempSync(path.join(os.tmpdir(), 'bench-empty-'));
  const state = mkdtempSync(path.join(os.tmpdir(), 'bench-state-'));
  const r = harvestOnce(empty, state);
  rmSync(empty, { recursive: true, force: true });
  rmSync(state, { recursive: true, force: true });
  return r.wallMs;
}

const corpus = arg('corpus');
const runs = Number(arg('runs', '3'));
const home = path.join(corpus, 'home');
const mb = (b: number): number => b / 1024 / 1024;
const results: Array<Record<string, number>> = [];
for (let i = 0; i < runs; i++) {
  const state = mkdtempSync(path.join(os.tmpdir(), 'bench-state-'));
  const cold = harvestOnce(home, state);
  const warm = harvestOnce(home, state);
  const appended = execFileSync(process.execPath, [appendScript, '--out', corpus], {
    encoding: 'utf8',
  }).trim();
  const incremental = harvestOnce(home, state);
  const claudeState = mkdtempSync(path.join(os.tmpdir(), 'bench-state-'));
  const claudeOnly = harvestOnce(home, claudeState, ['--source', 'claude']);
  // No planted secret may reach the store.
  const storeText = readFileSync(path.join(state, 'store.sqlite')).toString('latin1');
  const wal = (() => {
    try {
      return readFileSync(path.join(state, 'store.sqlite-wal')).toString('latin1');
    } catch {
      return '';
    }
  })();
  const secrets = readFileSync(path.join(corpus, 'planted-secrets.txt'), 'utf8')
    .split('\n')
    .filter((s) => s.length >= 8);
  const leaked = secrets.filter((s) => storeText.includes(s) || wal.includes(s)).length;
  results.push({
    cold_ms: cold.ms,
    cold_mb: mb(cold.bytes),
    cold_mb_s: mb(cold.bytes) / (cold.ms / 1000),
    cold_peak_rss_mb: cold.peak_rss_mb,
    sessions: cold.sessions,
    warm_ms: warm.ms,
    warm_pct_of_cold: (100 * warm.ms) / cold.ms,
    append_ms: incremental.ms,
    append_parsed_files: incremental.parsed,
    claude_mb_s: mb(claudeOnly.bytes) / (claudeOnly.ms / 1000),
    leaked_secrets: leaked,
    planted_secrets: secrets.length,
  });
  console.error(`run ${i + 1}: appended ${appended}`);
  rmSync(state, { recursive: true, force: true });
  rmSync(claudeState, { recursive: true, force: true });
}
const median = (xs: number[]): number =>
  [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
const keys = Object.keys(results[0] ?? {});
const summary = Object.fromEntries(
  keys.map((k) => [k, Math.round(median(results.map((r) => r[k] ?? 0)) * 100) / 100]),
);
console.log(JSON.stringify({ corpus, runs, startup_ms: Math.round(startupMs()), median: summary }, null, 2));
