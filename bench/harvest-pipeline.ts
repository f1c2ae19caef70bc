/**
 * Issue 41's measures in one run, wall time, each piece in its own process, the pieces of a round
 * interleaved, medians (the machine's load average printed before and after):
 *   1. a cold Claude Code harvest (storing and redacting everything), on the main thread alone and with
 *      the parse workers, beside the bare parse loop on the same files (speed-child.ts `bare`);
 *   2. a cold harvest of all sources at each `--corpus` (e.g. 50, 200, 400 MB) with its peak RSS;
 *   3. the first mock night (`dry-run --backend mock --lookback-hours 0`, a fresh store) on `--night-corpus`.
 *   npm run build && npx tsc -p bench/tsconfig.bench.json
 *   node bench/out/js/bench/harvest-pipeline.js --claude-corpus /tmp/c200 --corpus /tmp/c50 --corpus /tmp/c200 \
 *     --corpus /tmp/c400 --night-corpus /tmp/cn --project /tmp/projects/proj-1 [--rounds 3]
 * A ratio is the bare loop's wall time over the measure's: ≥ 1 means at least as fast as the bare loop.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { median } from './measure.js';

const here = path.dirname(new URL(import.meta.url).pathname);
const root = path.resolve(here, '../../../..');
const child = path.join(here, 'speed-child.js');
const usageHook = path.join(here, 'usage-at-exit.js');
const cli = path.join(root, 'dist/src/cli/main.js');

function args(name: string): string[] {
  const out: string[] = [];
  process.argv.forEach((a, i) => {
    if (a === `--${name}` && process.argv[i + 1] !== undefined) out.push(process.argv[i + 1] as string);
  });
  return out;
}
const claudeCorpus = args('claude-corpus')[0];
const corpora = args('corpus');
const nightCorpus = args('night-corpus')[0];
const project = args('project')[0];
const rounds = Number(args('rounds')[0] ?? '3');
const scratch = mkdtempSync(path.join(os.tmpdir(), 'harvest-pipeline-'));
const fresh = (): string => mkdtempSync(path.join(scratch, 'state-'));
const fmt = (n: number, d = 0): string => n.toFixed(d);
const load = (): string =>
  os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' / ');

interface Run {
  wall_ms: number;
  cpu_ms: number;
  bytes: number;
  peak_rss_mib: number;
  workers?: number;
}

function runChild(argv: string[]): Run {
  const r = spawnSync(process.execPath, [child, ...argv], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`speed-child ${argv.join(' ')} failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').at(-1) ?? '{}') as Run;
}

const med = (runs: Run[], key: 'wall_ms' | 'cpu_ms' | 'peak_rss_mib'): number =>
  median(runs.map((r) => r[key]));

function claudeRows(corpus: string): void {
  const home = path.join(corpus, 'home');
  const runs: Record<'bare' | 'sync' | 'workers', Run[]> = { bare: [], sync: [], workers: [] };
  for (let r = 0; r < rounds; r++) {
    runs.bare.push(runChild(['bare', '--home', home, '--source', 'claude']));
    runs.sync.push(
      runChild(['harvest', '--home', home, '--state', fresh(), '--source', 'claude', '--pipeline', 'sync']),
    );
    runs.workers.push(
      runChild([
        'harvest',
        '--home',
        home,
        '--state',
        fresh(),
        '--source',
        'claude',
        '--pipeline',
        'workers',
      ]),
    );
  }
  const bare = med(runs.bare, 'wall_ms');
  const mb = (runs.bare[0]?.bytes ?? 0) / 1e6;
  console.log(
    `\n## Cold Claude Code harvest beside the bare parse loop (${path.basename(corpus)}, ${fmt(mb)} MB, ${rounds} rounds)\n`,
  );
  console.log('| what | wall ms | CPU ms (all threads) | bare wall / wall | peak RSS MiB |');
  console.log('|---|---|---|---|---|');
  for (const [name, xs] of Object.entries(runs)) {
    const wall = med(xs, 'wall_ms');
    console.log(
      `| ${name === 'bare' ? 'bare parse loop' : name === 'sync' ? 'harvest, main thread alone' : `harvest, ${xs[0]?.workers ?? '?'} parse worker(s)`} | ${fmt(wall)} | ${fmt(med(xs, 'cpu_ms'))} | ${name === 'bare' ? '' : `**${fmt(bare / wall, 2)}×**`} | ${fmt(med(xs, 'peak_rss_mib'))} |`,
    );
  }
}

function allSourcesRows(list: string[]): void {
  console.log(`\n## Cold harvest, all sources (${rounds} rounds, default pipeline: \`auto\`)\n`);
  console.log(
    '| corpus | input MB | bare wall ms | harvest wall ms | bare / harvest | workers | peak RSS MiB |',
  );
  console.log('|---|---|---|---|---|---|---|');
  const rows = list.map((corpus) => ({ corpus, bare: [] as Run[], harvest: [] as Run[] }));
  for (let r = 0; r < rounds; r++)
    for (const row of rows) {
      const home = path.join(row.corpus, 'home');
      row.bare.push(runChild(['bare', '--home', home]));
      row.harvest.push(runChild(['harvest', '--home', home, '--state', fresh()]));
    }
  for (const row of rows) {
    const bare = med(row.bare, 'wall_ms');
    const wall = med(row.harvest, 'wall_ms');
    console.log(
      `| ${path.basename(row.corpus)} | ${fmt((row.harvest[0]?.bytes ?? 0) / 1e6)} | ${fmt(bare)} | ${fmt(wall)} | ${fmt(bare / wall, 2)}× | ${row.harvest[0]?.workers ?? '?'} | **${fmt(med(row.harvest, 'peak_rss_mib'))}** (max ${fmt(Math.max(...row.harvest.map((x) => x.peak_rss_mib)))}) |`,
    );
  }
}

function nightRows(corpus: string, folder: string): void {
  const runs: Array<{ wall: number; cpu: number; rss: number }> = [];
  let report: Record<string, unknown> = {};
  for (let r = 0; r < rounds; r++) {
    const usage = path.join(scratch, `usage-${r}.jsonl`);
    const env = {
      ...process.env,
      HOME: path.join(corpus, 'home'),
      SKILLOPT_SLEEP_HOME: fresh(),
      SPEED_USAGE_OUT: usage,
    };
    const started = performance.now();
    const argv = ['dry-run', '--backend', 'mock', '--lookback-hours', '0', '--project', folder, '--json'];
    const p = spawnSync(process.execPath, ['--import', usageHook, cli, ...argv], {
      encoding: 'utf8',
      env,
      maxBuffer: 256 << 20,
    });
    const wall = performance.now() - started;
    if (p.status !== 0) throw new Error(`dry-run exited ${p.status}: ${p.stderr}`);
    const u = JSON.parse(readFileSync(usage, 'utf8').trim()) as { cpu_ms: number; peak_rss_mib: number };
    runs.push({ wall, cpu: u.cpu_ms, rss: u.peak_rss_mib });
    report = JSON.parse(p.stdout) as Record<string, unknown>;
  }
  const sessions = readFileSync(path.join(corpus, 'sessions.jsonl'), 'utf8').trim().split('\n').length;
  console.log(
    `\n## First mock night (${path.basename(corpus)}: ${sessions} sessions, fresh store, ${rounds} rounds)\n`,
  );
  console.log('| wall ms | CPU ms | peak RSS MiB | sessions mined / tasks |');
  console.log('|---|---|---|---|');
  console.log(
    `| **${fmt(median(runs.map((r) => r.wall)))}** | ${fmt(median(runs.map((r) => r.cpu)))} | **${fmt(median(runs.map((r) => r.rss)))}** | ${String(report['n_sessions'])} / ${String(report['n_tasks'])} |`,
  );
}

try {
  console.log(
    `# bench/harvest-pipeline.ts — ${new Date().toISOString()}, Node ${process.version}, ${os.cpus().length} cores, load average ${load()}`,
  );
  if (claudeCorpus !== undefined) claudeRows(claudeCorpus);
  if (corpora.length > 0) allSourcesRows(corpora);
  if (nightCorpus !== undefined && project !== undefined) nightRows(nightCorpus, project);
  console.log(`\nload average at the end: ${load()}`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
