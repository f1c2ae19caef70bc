/**
 * The first mock night (`dry-run --backend mock --lookback-hours 0`, a fresh store) of this checkout's
 * CLI beside an anchor checkout's (another build, e.g. a `git worktree` of main), interleaved, medians
 * of wall, CPU (the whole process) and peak RSS.
 *
 *   node bench/out/js/bench/first-night.js --night-corpus /tmp/cn --project /tmp/projects/proj-1 \
 *     --anchor /tmp/main-anchor [--rounds 5]
 *
 * The corpus is `gen-corpus.ts`'s (see the `harvest-pipeline.ts` section of bench/README.md).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { median } from './measure.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../../../..');
const usageHook = path.join(here, 'usage-at-exit.js');

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const corpus = arg('night-corpus');
const project = arg('project');
const anchor = arg('anchor');
const rounds = Number(arg('rounds') ?? 5);
if (corpus === undefined || project === undefined || anchor === undefined) {
  console.error('usage: first-night.js --night-corpus DIR --project DIR --anchor CHECKOUT [--rounds N]');
  process.exit(2);
}

const scratch = mkdtempSync(path.join(os.tmpdir(), 'first-night-'));
interface Run {
  wall: number;
  cpu: number;
  rss: number;
  sessions: unknown;
  tasks: unknown;
}

function night(checkout: string, round: number): Run {
  const usage = path.join(scratch, `usage-${path.basename(checkout)}-${round}.jsonl`);
  const env = {
    ...process.env,
    HOME: path.join(corpus as string, 'home'),
    SKILLOPT_SLEEP_HOME: mkdtempSync(path.join(scratch, 'state-')),
    SPEED_USAGE_OUT: usage,
  };
  const cli = path.join(checkout, 'dist/src/cli/main.js');
  const argv = [
    'dry-run',
    '--backend',
    'mock',
    '--lookback-hours',
    '0',
    '--project',
    project as string,
    '--json',
  ];
  const started = performance.now();
  const p = spawnSync(process.execPath, ['--import', usageHook, cli, ...argv], {
    encoding: 'utf8',
    env,
    maxBuffer: 256 << 20,
  });
  const wall = performance.now() - started;
  if (p.status !== 0) throw new Error(`dry-run (${checkout}) exited ${p.status}: ${p.stderr}`);
  const u = JSON.parse(readFileSync(usage, 'utf8').trim()) as { cpu_ms: number; peak_rss_mib: number };
  const report = JSON.parse(p.stdout) as Record<string, unknown>;
  return {
    wall,
    cpu: u.cpu_ms,
    rss: u.peak_rss_mib,
    sessions: report['n_sessions'],
    tasks: report['n_tasks'],
  };
}

const load = (): string =>
  os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' / ');
const fmt = (x: number): string => x.toFixed(0);

try {
  console.log(
    `# bench/first-night.ts — ${new Date().toISOString()}, Node ${process.version}, ${os.cpus().length} cores, load average ${load()}, ${rounds} rounds\n`,
  );
  const runs: Record<'anchor' | 'this', Run[]> = { anchor: [], this: [] };
  for (let r = 0; r < rounds; r++) {
    // Alternate which goes first, so neither always runs on a warmer page cache.
    const order: Array<'anchor' | 'this'> = r % 2 === 0 ? ['anchor', 'this'] : ['this', 'anchor'];
    for (const which of order) runs[which].push(night(which === 'anchor' ? anchor : root, r));
  }
  console.log('| build | wall ms | CPU ms | peak RSS MiB | sessions / tasks |');
  console.log('|---|---|---|---|---|');
  for (const which of ['anchor', 'this'] as const) {
    const rs = runs[which];
    const first = rs[0];
    console.log(
      `| ${which} | ${fmt(median(rs.map((x) => x.wall)))} | ${fmt(median(rs.map((x) => x.cpu)))} | ${fmt(median(rs.map((x) => x.rss)))} (${fmt(Math.min(...rs.map((x) => x.rss)))}–${fmt(Math.max(...rs.map((x) => x.rss)))}) | ${String(first?.sessions)} / ${String(first?.tasks)} |`,
    );
  }
  const ratio = (f: (x: Run) => number): string =>
    (median(runs.anchor.map(f)) / median(runs.this.map(f))).toFixed(2);
  console.log(
    `\nanchor / this: wall ${ratio((x) => x.wall)}×, CPU ${ratio((x) => x.cpu)}×, peak RSS ${ratio((x) => x.rss)}×`,
  );
  console.log(`load average at the end: ${load()}`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
